//! `while x = e do f` with 0.7's threshold cut (dicelab.md §5.1).
//!
//! The loop is expanded depth first over *paths*: sequences of piece classes (pieces equal as
//! multisets under an unordered mark, as sequences under an ordered one). A path is extended
//! only while its last piece is non-empty and the path's probability is at least the threshold
//! t; otherwise the path ends there, its last piece already appended, and a non-empty last
//! piece marks the path as cut (its mass is the truncated mass). Each path keeps the exact
//! distribution of the actual last piece, since the body is evaluated with `x` bound to the
//! piece itself (roll semantics), not to its class.

use super::eval::{Calc, R, Val, error_at, limit, with_cut};
use crate::ast::Expr;
use crate::roll::MAX_LIST_LEN;
use alea_prob::{Dist, Ratio, Weight};
use num_bigint::BigUint;
use std::collections::{BTreeMap, HashMap};

/// Longest path (pieces) of one `while` evaluation.
const MAX_PATH: usize = 100_000;
/// Most path extensions of one `while` evaluation.
const MAX_ITERATIONS: u64 = 1_000_000;

/// `p ≥ t` for the exact value of the f32 `t` (positive and finite): 0.7 keeps the threshold
/// as a C `float` and compares path probabilities with it, so the cut is decided against that
/// float's exact binary value (1e-6 is 9.99999997e-7), not against the decimal the user typed.
/// Paths carry exact [`Ratio`]s; only this comparison knows about floats.
fn reaches_threshold(p: &Ratio, t: f32) -> bool {
    let bits = t.to_bits();
    let exp = ((bits >> 23) & 0xff) as i32;
    let frac = bits & 0x7f_ffff;
    // t = mant · 2^e
    let (mant, e) = if exp == 0 {
        (frac, -149)
    } else {
        (frac | 0x80_0000, exp - 150)
    };
    let lhs_scale = if e < 0 { (-e) as u32 } else { 0 };
    let rhs_scale = if e > 0 { e as u32 } else { 0 };
    let lhs = p.numer() << lhs_scale;
    let rhs = (BigUint::from(mant) * p.denom()) << rhs_scale;
    lhs >= rhs
}

/// One path: its probability, accumulated value, the distribution of its actual last piece.
/// Paths that agree on all of these have the same future, so each level of the expansion
/// keeps one copy with a multiplicity (`{1},{2},{3}` and `{2},{1},{3}` under `count`).
#[derive(PartialEq, Eq, Hash)]
struct Path {
    prob: Ratio,
    acc: Vec<i32>,
    last_empty: bool,
    members: Vec<(Val, Ratio)>,
}

fn class_key(items: &[i32], ordered: bool) -> Vec<i32> {
    let mut k = items.to_vec();
    if !ordered {
        k.sort_unstable();
    }
    k
}

/// Groups weighted pieces into child paths of `parent_acc`.
fn children(pieces: Vec<(Val, Ratio)>, parent_acc: &[i32], ordered: bool) -> Vec<Path> {
    let mut classes: BTreeMap<Vec<i32>, Vec<(Val, Ratio)>> = BTreeMap::new();
    for (v, p) in pieces {
        classes
            .entry(class_key(v.items(), ordered))
            .or_default()
            .push((v, p));
    }
    classes
        .into_iter()
        .map(|(key, members)| {
            let mut merged: BTreeMap<Val, Ratio> = BTreeMap::new();
            for (v, p) in members {
                let e = merged.entry(v).or_insert_with(Ratio::zero);
                *e = &*e + &p;
            }
            let prob = merged.values().fold(Ratio::zero(), |a, p| &a + p);
            let mut acc = parent_acc.to_vec();
            acc.extend_from_slice(&key);
            if !ordered {
                acc.sort_unstable();
            }
            Path {
                prob,
                acc,
                last_empty: key.is_empty(),
                members: merged.into_iter().collect(),
            }
        })
        .collect()
}

impl Calc<'_> {
    pub(crate) fn while_loop(
        &mut self,
        e: &Expr,
        init: &Expr,
        body: &Expr,
        ordered: bool,
        value_ordered: bool,
    ) -> R<Dist<Val>> {
        let d0 = self.dist(init, value_ordered)?;
        let first: Vec<(Val, Ratio)> = d0
            .iter()
            .map(|(v, w)| (v.clone(), Ratio::from_weights(w, d0.total())))
            .collect();
        let mut level: HashMap<Path, BigUint> = HashMap::new();
        for p in children(first, &[], ordered) {
            *level.entry(p).or_default() += 1u8;
        }
        let mut leaves: Vec<(Val, Ratio)> = Vec::new();
        let mut memo: HashMap<Val, Dist<Val>> = HashMap::new();
        let mut iterations = 0u64;
        let mut depth = 1usize;
        while !level.is_empty() {
            let mut next_level: HashMap<Path, BigUint> = HashMap::new();
            for (path, mult) in level {
                let weight = |p: &Ratio| Ratio::new(p.numer() * &mult, p.denom().clone());
                let inner_cut = path.members.iter().any(|(v, _)| v.cut());
                if path.last_empty {
                    leaves.push((Val::new(path.acc, inner_cut), weight(&path.prob)));
                    continue;
                }
                if !reaches_threshold(&path.prob, self.threshold) {
                    leaves.push((Val::new(path.acc, true), weight(&path.prob)));
                    continue;
                }
                iterations += 1;
                if iterations > MAX_ITERATIONS {
                    return Err(super::ops::while_iterations(e.span, MAX_ITERATIONS));
                }
                // Calc's own limit (memory of the path expansion): a roll of as many
                // iterations succeeds in roll mode, so there is no roll error to report.
                if depth >= MAX_PATH {
                    return Err(error_at(
                        e.span,
                        format!("'while' path longer than {MAX_PATH} pieces"),
                    ));
                }
                self.budget
                    .burn(path.members.len() as u64, "while")
                    .map_err(limit(e.span, "while"))?;
                let mut pieces = Vec::new();
                for (m, pm) in &path.members {
                    let key = Val::new(m.items().to_vec(), false);
                    if !memo.contains_key(&key) {
                        self.env.push(key.clone());
                        let r = self.dist(body, value_ordered);
                        self.env.pop();
                        memo.insert(key.clone(), r?);
                    }
                    let next = with_cut(&memo[&key], m.cut());
                    for (v, w) in next.iter() {
                        pieces.push((v.clone(), pm * &Ratio::from_weights(w, next.total())));
                    }
                }
                for child in children(pieces, &path.acc, ordered) {
                    // The roll of this path appends the piece at its next iteration and
                    // fails there, at the `while` (roll mode's check before each append).
                    if child.acc.len() > MAX_LIST_LEN {
                        return Err(crate::ops::list_too_long(e.span, MAX_LIST_LEN));
                    }
                    // Copying the accumulated list is the cost of a long path.
                    self.budget
                        .burn(child.acc.len() as u64, "while")
                        .map_err(limit(e.span, "while"))?;
                    *next_level.entry(child).or_default() += &mult;
                }
                self.budget
                    .check_size(next_level.len() + leaves.len(), "while")
                    .map_err(limit(e.span, "while"))?;
            }
            level = next_level;
            depth += 1;
        }
        // Common denominator for the leaves.
        let mut common = BigUint::from(1u8);
        for (_, p) in &leaves {
            use num_integer::Integer;
            common = common.lcm(p.denom());
        }
        let pairs = leaves
            .into_iter()
            .map(|(v, p)| (v, Weight::from_big(p.numer() * (&common / p.denom()))));
        Dist::from_weights(pairs).map_err(limit(e.span, "while"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threshold_comparison_is_exact() {
        let t = 1e-6f32; // 9.99999997e-7
        let p = Ratio::from_u64;
        assert!(reaches_threshold(&p(1, 1_000_000), t));
        // t is exactly 9.999999974752427e-7.
        assert!(reaches_threshold(&p(999_999_998, 1_000_000_000_000_000), t));
        assert!(!reaches_threshold(
            &p(999_999_997, 1_000_000_000_000_000),
            t
        ));
        assert!(!reaches_threshold(&p(999999, 1_000_000_000_000), t));
        assert!(reaches_threshold(&p(1, 100), 0.01));
        assert!(!reaches_threshold(&p(1, 101), 0.01));
        // 6^-7 ≥ t > 6^-8
        assert!(reaches_threshold(&p(1, 279936), t));
        assert!(!reaches_threshold(&p(1, 1679616), t));
    }
}
