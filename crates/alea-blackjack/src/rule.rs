//! Every dealer with finitely many states, seen one way: its states, and per state every deal
//! (piece, probability, next state). Specs deal from their card-level states (`concrete.rs`,
//! histories merged by [`representative`]); the built-in presets with a finite chain (`nes`,
//! `nes-real`, `gameboy`, `7+E bag`, `pairs`) from their own small states. The preview laws, the
//! joint tables and the set-run law of presets all walk this.

use crate::analysis::Source;
use crate::chain::{CardOutcome, Chain, Edge, Key, concrete_dealer, concrete_key};
use crate::concrete::card_outcomes;
use crate::exact::ExactError;
use crate::presets::{
    GAMEBOY_CODES, NES_NAMES, NES_SPAWN_ID, TETROMINOES, gameboy_rerolls, nes_pick,
};
use crate::randomizer::Dealer;
use crate::spec::{Core, Spec};
use alea_prob::Ratio;
use std::collections::HashMap;

/// A dealer state: its key, and whether `first` is still to come.
pub(crate) type State = (Key, bool);

/// A law over dealer states.
pub(crate) type StateLaw = HashMap<State, Ratio>;

pub(crate) fn add(law: &mut StateLaw, key: State, p: Ratio) {
    let slot = law.entry(key).or_insert_with(Ratio::zero);
    *slot = &*slot + &p;
}

/// One deal: the piece, its probability and the state after it (`first` then done).
pub(crate) struct Deal {
    pub piece: u16,
    pub prob: Ratio,
    pub next: Key,
}

/// A dealer with finitely many states.
#[derive(Clone, Copy)]
pub(crate) enum Rule<'a> {
    Spec(&'a Spec),
    /// `nes`: the previous piece (7 before the first).
    Nes,
    /// `nes-real`: the previous piece's orientation ID (0 before the first).
    NesReal,
    /// `gameboy`: the Game Boy codes of the active and preview pieces (7 for none yet).
    Gameboy,
    /// `7+E bag`: the round's pieces left, sorted (empty between rounds).
    BagPlus(u32),
    /// `pairs`: the round's pieces left, sorted.
    Pairs,
}

/// One representative of every history with the same cards' newest occurrences: each slot
/// that is not its card's newest occurrence is given the newest slot's card. A history rule
/// reads only the set of distinct cards, and an evicted slot leaves that set exactly when it
/// is its card's newest occurrence, so such histories deal alike forever (the lumping of
/// `chain::history_key`, with the cards' names kept); merging them keeps forward laws small,
/// and it makes the long-run law a function of the unnamed pattern.
pub(crate) fn representative(spec: &Spec, key: Key) -> Key {
    if !matches!(spec.core, Core::History { .. }) {
        return key;
    }
    let Some(&last) = key.last() else {
        return key;
    };
    let mut seen = vec![false; spec.cards.len()];
    let mut out = key;
    for slot in out.iter_mut().rev() {
        if std::mem::replace(&mut seen[*slot as usize], true) {
            *slot = last;
        }
    }
    out
}

/// The outcomes of one card-level deal from a spec state, `first F` included.
pub(crate) fn spec_outcomes(spec: &Spec, key: &Key, first: bool) -> Vec<CardOutcome> {
    match (&spec.first, first) {
        (Some(f), true) => {
            let dealer = concrete_dealer(spec, key);
            f.iter()
                .map(|&name| {
                    let mut d = dealer.clone();
                    let card = d.deal_first(spec, name);
                    CardOutcome {
                        prob: Ratio::from_u64(1, f.len() as u64),
                        card,
                        from_history: false,
                        next: concrete_key(&d),
                    }
                })
                .collect()
        }
        _ => card_outcomes(spec, key),
    }
}

/// Deals from a round's pieces left (`left`, sorted): each kind with its share.
fn from_round(left: &[u32], weight: &Ratio, out: &mut Vec<Deal>) {
    let n = left.len() as u64;
    let mut i = 0;
    while i < left.len() {
        let j = left[i..].iter().take_while(|&&p| p == left[i]).count();
        let mut next = left.to_vec();
        next.remove(i);
        out.push(Deal {
            piece: left[i] as u16,
            prob: weight * &Ratio::from_u64(j as u64, n),
            next,
        });
        i += j;
    }
}

impl<'a> Rule<'a> {
    /// The rule of `source`: [`ExactError::NoFiniteChain`] for `tgm3` (and the arcade dealer,
    /// which is not an ideal RNG).
    pub(crate) fn of(source: &'a Source) -> Result<Rule<'a>, ExactError> {
        Ok(match source {
            Source::Spec(s) => Rule::Spec(s),
            Source::Builtin("nes") => Rule::Nes,
            Source::Builtin("nes-real") => Rule::NesReal,
            Source::Builtin("gameboy") => Rule::Gameboy,
            Source::Builtin("7+1bag") => Rule::BagPlus(1),
            Source::Builtin("7+2bag") => Rule::BagPlus(2),
            Source::Builtin("pairs") => Rule::Pairs,
            Source::Builtin(name) => {
                return Err(ExactError::NoFiniteChain {
                    preset: name.to_string(),
                });
            }
        })
    }

    pub(crate) fn names(&self) -> Vec<String> {
        match self {
            Rule::Spec(s) => s.pieces().iter().map(|p| p.to_string()).collect(),
            _ => TETROMINOES.iter().map(|s| s.to_string()).collect(),
        }
    }

    pub(crate) fn initial(&self) -> State {
        match self {
            Rule::Spec(s) => (concrete_key(&Dealer::initial(s)), s.first.is_some()),
            Rule::Nes => (vec![7], false),
            Rule::NesReal => (vec![0], false),
            Rule::Gameboy => (vec![7, 7], false),
            Rule::BagPlus(_) | Rule::Pairs => (Vec::new(), false),
        }
    }

    /// Every deal from `state` (equal deals may repeat; callers merge).
    pub(crate) fn deals(&self, state: &State) -> Vec<Deal> {
        let (key, first) = state;
        let mut out = Vec::new();
        let mut push = |piece: u8, num: u64, den: u64, next: Key| {
            out.push(Deal {
                piece: u16::from(piece),
                prob: Ratio::from_u64(num, den),
                next,
            })
        };
        match self {
            Rule::Spec(spec) => {
                return spec_outcomes(spec, key, *first)
                    .into_iter()
                    .map(|o| Deal {
                        piece: spec.cards[o.card as usize],
                        prob: o.prob,
                        next: representative(spec, o.next),
                    })
                    .collect();
            }
            Rule::Nes => {
                // Builtin::Nes: one of 8; the eighth or a repeat rerolls one of 7.
                let previous = key[0];
                for a in NES_NAMES.iter().map(Some).chain([None]) {
                    match a {
                        Some(&x) if u32::from(x) != previous => {
                            push(x, 1, 8, vec![u32::from(x)]);
                        }
                        _ => {
                            for b in NES_NAMES {
                                push(b, 1, 56, vec![u32::from(b)]);
                            }
                        }
                    }
                }
            }
            Rule::NesReal => {
                let spawn_id = key[0] as u8;
                for first in 0..8u8 {
                    let mut rerolled = false;
                    let a = nes_pick(spawn_id, first, || {
                        rerolled = true;
                        0
                    });
                    if !rerolled {
                        push(NES_NAMES[a], 1, 8, vec![u32::from(NES_SPAWN_ID[a])]);
                    } else {
                        for r in 0..8u8 {
                            let a = nes_pick(spawn_id, first, || r);
                            push(NES_NAMES[a], 1, 64, vec![u32::from(NES_SPAWN_ID[a])]);
                        }
                    }
                }
            }
            Rule::Gameboy => {
                let (older, newer) = (key[0] as u8, key[1] as u8);
                // Denominators 7, 49, 343 for the first, second and third try.
                let mut stack: Vec<(u64, u8)> = (0..7).map(|c| (7u64, c)).collect();
                while let Some((den, c)) = stack.pop() {
                    if older < 7 && newer < 7 && den < 343 && gameboy_rerolls(older, newer, c) {
                        stack.extend((0..7).map(|d| (den * 7, d)));
                        continue;
                    }
                    let next = if newer < 7 {
                        vec![u32::from(newer), u32::from(c)]
                    } else {
                        vec![7, u32::from(c)]
                    };
                    push(GAMEBOY_CODES[c as usize], 1, den, next);
                }
            }
            Rule::BagPlus(extra) => {
                if !key.is_empty() {
                    from_round(key, &Ratio::one(), &mut out);
                    return out;
                }
                // A new round: the seven pieces and E uniform extras, dealt in a uniformly
                // shuffled order, i.e. drawn without replacement.
                let e = *extra;
                let each = Ratio::from_u64(1, 7u64.pow(e));
                for code in 0..7u64.pow(e) {
                    let mut round: Vec<u32> = (0..7).collect();
                    let mut c = code;
                    for _ in 0..e {
                        round.push((c % 7) as u32);
                        c /= 7;
                    }
                    round.sort_unstable();
                    from_round(&round, &each, &mut out);
                }
            }
            Rule::Pairs => {
                if !key.is_empty() {
                    from_round(key, &Ratio::one(), &mut out);
                    return out;
                }
                // Two distinct pieces, three of each, shuffled: each pair with 1/21.
                let each = Ratio::from_u64(1, 21);
                for x in 0..7u32 {
                    for y in x + 1..7 {
                        from_round(&[x, x, x, y, y, y], &each, &mut out);
                    }
                }
            }
        }
        // Merge equal deals (the Game Boy's reroll paths repeat them up to 49 times), so that
        // every walk over these states does one step per distinct outcome.
        let mut merged: Vec<Deal> = Vec::with_capacity(out.len());
        for d in out {
            match merged
                .iter_mut()
                .find(|m| m.piece == d.piece && m.next == d.next)
            {
                Some(m) => m.prob = &m.prob + &d.prob,
                None => merged.push(d),
            }
        }
        merged
    }

    /// The chain of states from the start, its edges marked `is_x(piece)` (equal edges merged).
    /// Keys carry the `first` flag as a last entry.
    pub(crate) fn chain(
        &self,
        is_x: &dyn Fn(u16) -> bool,
        max_states: usize,
    ) -> Result<Chain, ExactError> {
        let mut index: HashMap<State, usize> = HashMap::new();
        let mut keys: Vec<State> = Vec::new();
        let mut edges: Vec<Vec<Edge>> = Vec::new();
        let initial = self.initial();
        index.insert(initial.clone(), 0);
        keys.push(initial);
        let mut i = 0;
        while i < keys.len() {
            let mut list: Vec<Edge> = Vec::new();
            for d in self.deals(&keys[i]) {
                let next = (d.next, false);
                let to = match index.get(&next) {
                    Some(&t) => t,
                    None => {
                        if keys.len() >= max_states {
                            return Err(ExactError::TooManyStates {
                                limit: max_states,
                                needed: None,
                            });
                        }
                        index.insert(next.clone(), keys.len());
                        keys.push(next);
                        keys.len() - 1
                    }
                };
                let x = is_x(d.piece);
                match list.iter_mut().find(|e| e.to == to && e.is_x == x) {
                    Some(e) => e.prob = &e.prob + &d.prob,
                    None => list.push(Edge {
                        prob: d.prob,
                        is_x: x,
                        from_history: false,
                        to,
                    }),
                }
            }
            edges.push(list);
            i += 1;
        }
        let keys = keys
            .into_iter()
            .map(|(k, first)| k.into_iter().chain([u32::from(first)]).collect())
            .collect();
        Ok(Chain {
            keys,
            edges,
            start: vec![(0, Ratio::one())],
        })
    }

    /// The long-run law over states. A history whose law forgets its start
    /// (`exact::symmetric_history`) takes it from the pattern chain without names: given a
    /// pattern with b distinct cards, those cards are a uniformly random arrangement of the
    /// list's, so a representative has its pattern's weight over n·(n−1)·…·(n−b+1). Other
    /// rules solve their chain (bags and sequences by regeneration).
    pub(crate) fn long_run_law(&self, max_states: usize) -> Result<StateLaw, ExactError> {
        let chain = self.chain(&|_| false, max_states)?;
        let strip = |k: &Key| -> State { (k[..k.len() - 1].to_vec(), k[k.len() - 1] == 1) };
        let mut law = StateLaw::new();
        let opts = crate::exact::ExactOptions {
            max_states,
            ..Default::default()
        };
        let mut cache = crate::exact::StationaryCache::new();
        if let Rule::Spec(spec) = self
            && crate::exact::symmetric_history(spec)
        {
            let patterns = crate::exact::uncoloured_long_run(spec, &opts, &mut cache)?;
            let n = spec.cards.len() as u64;
            for k in &chain.keys {
                let (cards, first) = strip(k);
                if first {
                    // Before `first` is dealt: only the start, never in the long run.
                    continue;
                }
                let history: std::collections::VecDeque<u16> =
                    cards.iter().map(|&c| c as u16).collect();
                let pattern = crate::chain::history_key(spec, None, &history);
                let Some(p) = patterns.get(&pattern) else {
                    continue;
                };
                let b = pattern.iter().filter(|&&t| t != 0).count() as u64;
                add(
                    &mut law,
                    (cards, first),
                    p / &Ratio::new(crate::exact::falling(n, b), 1u8.into()),
                );
            }
            if crate::chain::sum(law.values()) == Ratio::one() {
                return Ok(law);
            }
            law.clear();
        }
        let weight = crate::exact::long_run(&chain, &mut cache, opts.max_solve)
            .map_err(crate::exact::chain_error)?;
        for (k, w) in chain.keys.iter().zip(weight) {
            if !w.is_zero() {
                add(&mut law, strip(k), w);
            }
        }
        Ok(law)
    }
}
