//! Exact laws of the first few deals, by enumerating every sequence of `below` results.

use crate::randomizer::{Dealer, Draw, Piece, deal_spec};
use crate::spec::Spec;
use alea_prob::Ratio;
use num_bigint::BigUint;
use num_traits::One;
use std::collections::BTreeMap;

/// Most draw sequences [`prefix_law`] enumerates before giving up.
pub const MAX_PREFIX_PATHS: usize = 1_000_000;

/// Replays a script of choices; the first draw past the script records its range and
/// answers 0 so the run can finish (its result is then discarded).
pub(crate) struct Scripted<'a> {
    script: &'a [u64],
    pos: usize,
    /// The range of every draw answered from the script.
    pub(crate) ranges: Vec<u64>,
    /// The range of the first draw past the script, if any.
    pub(crate) branch: Option<u64>,
}

impl<'a> Scripted<'a> {
    pub(crate) fn new(script: &'a [u64]) -> Scripted<'a> {
        Scripted {
            script,
            pos: 0,
            ranges: Vec::new(),
            branch: None,
        }
    }

    /// When the run stopped at a draw past the script, pushes the script extended by each of
    /// that draw's answers (answer 0 on top, so explored first) and returns true.
    pub(crate) fn branch_into(&self, stack: &mut Vec<Vec<u64>>) -> bool {
        let Some(n) = self.branch else {
            return false;
        };
        for c in (0..n).rev() {
            let mut s = self.script.to_vec();
            s.push(c);
            stack.push(s);
        }
        true
    }

    /// The probability of a finished run: one over the product of the answered ranges.
    pub(crate) fn probability(&self) -> Ratio {
        let den = self
            .ranges
            .iter()
            .fold(BigUint::one(), |a, &n| a * BigUint::from(n));
        Ratio::new(BigUint::one(), den)
    }
}

impl Draw for Scripted<'_> {
    fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        if self.pos < self.script.len() {
            self.ranges.push(n);
            self.pos += 1;
            return self.script[self.pos - 1];
        }
        self.branch.get_or_insert(n);
        0
    }
}

/// The exact law of the first `deals` deals of `spec` under an ideal RNG: every possible
/// sequence with its probability, in lexicographic order of piece indices. `None` when more
/// than [`MAX_PREFIX_PATHS`] draw sequences would be needed.
pub fn prefix_law(spec: &Spec, deals: usize) -> Option<Vec<(Vec<Piece>, Ratio)>> {
    let mut law: BTreeMap<Vec<Piece>, Ratio> = BTreeMap::new();
    let mut stack: Vec<Vec<u64>> = vec![Vec::new()];
    let mut paths = 0usize;
    while let Some(script) = stack.pop() {
        paths += 1;
        if paths > MAX_PREFIX_PATHS {
            return None;
        }
        let mut dealer = Dealer::initial(spec);
        let mut first = spec.first.is_some();
        let mut d = Scripted::new(&script);
        let mut out = Vec::with_capacity(deals);
        for _ in 0..deals {
            let card = deal_spec(spec, &mut dealer, &mut first, &mut d);
            out.push(Piece(spec.cards[card as usize]));
            if d.branch.is_some() {
                break;
            }
        }
        if d.branch_into(&mut stack) {
            continue;
        }
        let p = d.probability();
        let slot = law.entry(out).or_insert_with(Ratio::zero);
        *slot = &*slot + &p;
    }
    Some(law.into_iter().collect())
}
