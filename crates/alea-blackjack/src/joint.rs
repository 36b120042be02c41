//! Tables that follow every piece at once, exact: "some piece" game odds (P(some piece waits
//! k deals or more within the first N)) and bagginess (the long-run share of aligned windows
//! whose pieces are all distinct). Both run the forward algorithm on the dealer's states
//! ([`Rule`]), the game odds joined with every piece's wait so far. Renaming pieces that play
//! the same part changes neither the rule nor these events, so joint states are merged up to
//! such renamings (see [`canonical`]): a memoryless 7-piece list then has only sorted wait
//! vectors, not 12^7 of them.

use crate::chain::{Chain, Edge, Key};
use crate::exact::{ExactError, StationaryCache, long_run, symmetric_history};
use crate::rule::{Rule, State, StateLaw, add, representative};
use crate::spec::Core;
use alea_prob::Ratio;
use num_bigint::BigUint;
use num_integer::Integer;
use std::collections::HashMap;

/// A joint state: the dealer's state and each piece's wait (deals since it was last dealt, or
/// since the start).
type Joint = (Key, bool, Vec<u32>);

/// How pieces may be renamed without changing the rule: the pieces of each group play the same
/// part (a spec's pieces of equal multiplicity; in a history, one card each; every tetromino in
/// `nes`, `7+E bag` and `pairs`, whose rules name no piece).
struct Symmetry {
    /// Groups of interchangeable pieces, each in index order; empty = no renaming.
    groups: Vec<Vec<usize>>,
    /// A spec's cards of each piece, in index order.
    cards_of: Vec<Vec<u16>>,
}

impl Symmetry {
    fn new(rule: &Rule<'_>) -> Symmetry {
        let spec = match rule {
            Rule::Spec(spec) => spec,
            Rule::Nes | Rule::BagPlus(_) | Rule::Pairs => {
                return Symmetry {
                    groups: vec![(0..7).collect()],
                    cards_of: Vec::new(),
                };
            }
            Rule::NesReal | Rule::Gameboy => {
                return Symmetry {
                    groups: Vec::new(),
                    cards_of: Vec::new(),
                };
            }
        };
        let k = spec.pieces.len();
        let mut cards_of = vec![Vec::new(); k];
        for (c, &p) in spec.cards.iter().enumerate() {
            cards_of[p as usize].push(c as u16);
        }
        let renamable = match spec.core {
            Core::List | Core::Bag { .. } => true,
            // A history's cards are renamed with their pieces: one card per piece.
            Core::History { .. } => cards_of.iter().all(|c| c.len() == 1),
            Core::Sequence => false,
        };
        let mut groups: Vec<Vec<usize>> = Vec::new();
        if renamable {
            let mut by_m: HashMap<usize, Vec<usize>> = HashMap::new();
            for (p, c) in cards_of.iter().enumerate() {
                by_m.entry(c.len()).or_default().push(p);
            }
            groups = by_m.into_values().filter(|g| g.len() > 1).collect();
            groups.sort();
        }
        Symmetry { groups, cards_of }
    }
}

/// The merged form of a joint state: within each group, pieces are renamed so that their
/// (part in the dealer's state, wait) descriptions are in ascending order. A list's state is
/// its waits alone; a bag's (and a round's), per piece, how many of it remain (cards of one
/// piece are interchangeable in a bag); a history's (one card per piece), the slot of the
/// piece's newest occurrence; `nes`'s, whether it was the previous piece. Equal descriptions
/// mean interchangeable pieces, so the form is canonical.
fn canonical(rule: &Rule<'_>, sym: &Symmetry, state: Joint) -> Joint {
    let (key, first, waits) = state;
    if first || sym.groups.is_empty() {
        return (key, first, waits);
    }
    let k = waits.len();
    let count = |cards: &[u32], of: &dyn Fn(u32) -> usize| {
        let mut left = vec![0u32; k];
        for &c in cards {
            left[of(c)] += 1;
        }
        left
    };
    let part: Vec<u32> = match rule {
        Rule::Spec(spec) => match spec.core {
            Core::Bag { .. } => count(&key[1..], &|c| spec.cards[c as usize] as usize),
            Core::History { .. } => {
                let mut newest = vec![0u32; k];
                for (i, &c) in key.iter().enumerate() {
                    newest[spec.cards[c as usize] as usize] = i as u32 + 1;
                }
                newest
            }
            _ => vec![0; k],
        },
        Rule::Nes => (0..k as u32).map(|p| u32::from(key[0] == p)).collect(),
        Rule::BagPlus(_) | Rule::Pairs => count(&key, &|c| c as usize),
        Rule::NesReal | Rule::Gameboy => return (key, first, waits),
    };
    // rename[p] = the piece p becomes.
    let mut rename: Vec<usize> = (0..k).collect();
    for g in &sym.groups {
        let mut order: Vec<usize> = g.clone();
        order.sort_by_key(|&p| (part[p], waits[p]));
        for (slot, &p) in g.iter().zip(&order) {
            rename[p] = *slot;
        }
    }
    let mut new_waits = vec![0u32; k];
    for p in 0..k {
        new_waits[rename[p]] = waits[p];
    }
    let new_key = match rule {
        Rule::Spec(spec) => match spec.core {
            Core::Bag { .. } => {
                let mut left = vec![0u32; k];
                for p in 0..k {
                    left[rename[p]] = part[p];
                }
                let mut cards: Vec<u32> = (0..k)
                    .flat_map(|p| {
                        sym.cards_of[p][..left[p] as usize]
                            .iter()
                            .map(|&c| u32::from(c))
                    })
                    .collect();
                cards.sort_unstable();
                std::iter::once(key[0]).chain(cards).collect()
            }
            Core::History { .. } => {
                let mapped = key
                    .iter()
                    .map(|&c| {
                        let p = spec.cards[c as usize] as usize;
                        u32::from(sym.cards_of[rename[p]][0])
                    })
                    .collect();
                representative(spec, mapped)
            }
            _ => key,
        },
        Rule::Nes if key[0] < 7 => vec![rename[key[0] as usize] as u32],
        Rule::BagPlus(_) | Rule::Pairs => {
            let mut v: Vec<u32> = key.iter().map(|&p| rename[p as usize] as u32).collect();
            v.sort_unstable();
            v
        }
        _ => key,
    };
    (new_key, false, new_waits)
}

/// P(some piece waits `k` deals or more within the first `n` deals of a game, the wait from the
/// start included): the counted table's "some piece" odds, exactly. `max_states` bounds the
/// joint states of one deal.
pub(crate) fn some_piece_drought(
    rule: &Rule<'_>,
    n: u64,
    k: u64,
    max_states: usize,
) -> Result<Ratio, ExactError> {
    some_piece_drought_with(rule, n, k, max_states, true)
}

/// [`some_piece_drought`], with the renaming of pieces (`reduce`) or without (the reference
/// the tests compare it with).
fn some_piece_drought_with(
    rule: &Rule<'_>,
    n: u64,
    k: u64,
    max_states: usize,
    reduce: bool,
) -> Result<Ratio, ExactError> {
    if k == 0 {
        return Ok(if n > 0 { Ratio::one() } else { Ratio::zero() });
    }
    if matches!(rule, Rule::NesReal | Rule::Gameboy) {
        // Their rules tell pieces apart, so no renaming merges states, and the waits of
        // seven pieces alone reach 12·11·…·6 vectors: refused at once rather than explored.
        return Err(ExactError::TooManyStates {
            limit: max_states,
            needed: None,
        });
    }
    let mut sym = Symmetry::new(rule);
    if !reduce {
        sym.groups.clear();
    }
    let pieces = rule.names().len();
    let (key, first) = rule.initial();
    let start: Joint = (key, first, vec![0; pieces]);
    // Numerators over one denominator per deal: no gcd until the one result.
    let mut law: HashMap<Joint, BigUint> = HashMap::from([(start, BigUint::from(1u8))]);
    let mut den = BigUint::from(1u8);
    let mut hit = Ratio::zero();
    for _ in 0..n {
        let steps: Vec<(Joint, BigUint, Vec<_>)> = law
            .into_iter()
            .map(|(s, m)| {
                let outs = rule.deals(&(s.0.clone(), s.1));
                (s, m, outs)
            })
            .collect();
        let mut l = BigUint::from(1u8);
        for (_, _, outs) in &steps {
            for o in outs {
                if !l.is_multiple_of(o.prob.denom()) {
                    l = l.lcm(o.prob.denom());
                }
            }
        }
        let mut next: HashMap<Joint, BigUint> = HashMap::new();
        let mut done = BigUint::ZERO;
        for ((_, _, waits), m, outs) in steps {
            for o in outs {
                let w = &m * (o.prob.numer() * (&l / o.prob.denom()));
                let p = o.piece as usize;
                let mut new_waits = waits.clone();
                let mut reached = false;
                for (q, wq) in new_waits.iter_mut().enumerate() {
                    *wq = if q == p { 0 } else { *wq + 1 };
                    reached |= u64::from(*wq) >= k;
                }
                if reached {
                    done += w;
                    continue;
                }
                let j = canonical(rule, &sym, (o.next, false, new_waits));
                *next.entry(j).or_insert(BigUint::ZERO) += w;
                if next.len() > max_states {
                    return Err(ExactError::TooManyStates {
                        limit: max_states,
                        needed: None,
                    });
                }
            }
        }
        den *= &l;
        if done != BigUint::ZERO {
            hit = &hit + &Ratio::new(done, den.clone());
        }
        law = next;
        if law.is_empty() {
            break;
        }
    }
    Ok(hit)
}

/// From the law `start`: P(the next `w` deals are all distinct pieces), and the law of the
/// state after them.
fn window(rule: &Rule<'_>, start: &StateLaw, w: usize) -> (Ratio, StateLaw) {
    // The pieces seen so far in the window (sorted), `None` once one repeated.
    let mut law: HashMap<(State, Option<Vec<u16>>), Ratio> = start
        .iter()
        .map(|(s, p)| ((s.clone(), Some(Vec::new())), p.clone()))
        .collect();
    for _ in 0..w {
        let mut next: HashMap<(State, Option<Vec<u16>>), Ratio> = HashMap::new();
        for ((state, seen), p) in &law {
            for o in rule.deals(state) {
                let seen = seen.as_ref().and_then(|v| match v.binary_search(&o.piece) {
                    Ok(_) => None,
                    Err(at) => {
                        let mut v = v.clone();
                        v.insert(at, o.piece);
                        Some(v)
                    }
                });
                let slot = next
                    .entry(((o.next, false), seen))
                    .or_insert_with(Ratio::zero);
                *slot = &*slot + &(p * &o.prob);
            }
        }
        law = next;
    }
    let mut distinct = Ratio::zero();
    let mut after = StateLaw::new();
    for ((state, seen), p) in law {
        if seen.is_some() {
            distinct = &distinct + &p;
        }
        add(&mut after, state, p);
    }
    (distinct, after)
}

/// The long-run share of aligned windows of `w` deals (from the game's start) whose pieces are
/// all distinct: the Cesàro limit of P(window j is distinct). A rule whose chain is aperiodic
/// (lists; histories that forget their start, which always hold a state that can deal itself
/// again or cycles of coprime lengths) has the dealer's long-run law at every late window
/// start; a bag's law given how many cards of the round are dealt is its long-run law given
/// that count from the second round on, and window starts visit the counts j·w mod K equally
/// often. Other rules (sequences, histories that remember their start, the built-in presets)
/// solve the chain of window starts itself, whose long-run law from the start is that limit.
pub(crate) fn bagginess(rule: &Rule<'_>, w: usize, max_states: usize) -> Result<Ratio, ExactError> {
    let w = if w == 0 { rule.names().len() } else { w };
    if let Rule::Spec(spec) = rule {
        match spec.core {
            Core::List => {
                let start = StateLaw::from([((Vec::new(), false), Ratio::one())]);
                return Ok(window(rule, &start, w).0);
            }
            Core::History { .. } if symmetric_history(spec) => {
                return Ok(window(rule, &rule.long_run_law(max_states)?, w).0);
            }
            Core::Bag { count } => {
                let pi = rule.long_run_law(max_states)?;
                let k = u64::from(count);
                let g = (w as u64).gcd(&k);
                let phases = k / g;
                let mut total = Ratio::zero();
                for j in 0..phases {
                    let d = (j * g) as u32;
                    let given: StateLaw = pi
                        .iter()
                        .filter(|((key, _), _)| key[0] == d)
                        .map(|(s, p)| (s.clone(), p.clone()))
                        .collect();
                    let mass = crate::chain::sum(given.values());
                    if !mass.is_zero() {
                        total = &total + &(&window(rule, &given, w).0 / &mass);
                    }
                }
                return Ok(&total / &Ratio::from_u64(phases, 1));
            }
            _ => {}
        }
    }
    window_chain_bagginess(rule, w, max_states)
}

/// The chain of window starts (the dealer's state every `w` deals from the start), each state
/// weighted by its long-run share from the start (Cesàro, periodic classes included), times the
/// probability that its window is distinct.
fn window_chain_bagginess(
    rule: &Rule<'_>,
    w: usize,
    max_states: usize,
) -> Result<Ratio, ExactError> {
    let mut index: HashMap<State, usize> = HashMap::new();
    let mut keys: Vec<Key> = Vec::new();
    let mut states: Vec<State> = Vec::new();
    let mut edges: Vec<Vec<Edge>> = Vec::new();
    let mut distinct: Vec<Ratio> = Vec::new();
    let initial = rule.initial();
    index.insert(initial.clone(), 0);
    states.push(initial);
    let mut i = 0;
    while i < states.len() {
        let s = states[i].clone();
        keys.push(s.0.iter().copied().chain([u32::from(s.1)]).collect());
        let (d, after) = window(rule, &StateLaw::from([(s, Ratio::one())]), w);
        distinct.push(d);
        let mut list = Vec::new();
        for (t, p) in after {
            let to = match index.get(&t) {
                Some(&j) => j,
                None => {
                    if states.len() >= max_states {
                        return Err(ExactError::TooManyStates {
                            limit: max_states,
                            needed: None,
                        });
                    }
                    index.insert(t.clone(), states.len());
                    states.push(t);
                    states.len() - 1
                }
            };
            list.push(Edge {
                prob: p,
                is_x: false,
                from_history: false,
                to,
            });
        }
        edges.push(list);
        i += 1;
    }
    let chain = Chain {
        keys,
        edges,
        start: vec![(0, Ratio::one())],
    };
    let opts = crate::exact::ExactOptions::default();
    let weight = long_run(&chain, &mut StationaryCache::new(), opts.max_solve)
        .map_err(crate::exact::chain_error)?;
    Ok(crate::chain::sum(
        weight
            .iter()
            .zip(&distinct)
            .map(|(a, b)| a * b)
            .collect::<Vec<_>>()
            .iter(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Spec;

    /// Merging renamed pieces changes nothing: the reduced joint chain equals the unreduced
    /// one.
    #[test]
    fn renamed_pieces_merge_exactly() {
        for text in [
            "I,J,L,O",
            "I,I,J,L",
            "bag of I,J,L,O",
            "bag of I,I,J,J,L,L",
            "3 bag of I,J,L,O first J",
            "I,J,L,O with 2 history 2 rolls",
            "I,J,L,O,S with 2 history",
            "I,J,L,O with 2 history starting with O,O first I,J",
            "I,I,J,L with 2 history 3 rolls",
            "sequence of I,J,L first L",
        ] {
            let spec: Spec = text.parse().unwrap();
            let rule = Rule::Spec(&spec);
            for (n, k) in [(12, 4), (15, 6), (9, 2)] {
                let reduced = some_piece_drought_with(&rule, n, k, 100_000, true).unwrap();
                let full = some_piece_drought_with(&rule, n, k, 100_000, false).unwrap();
                assert_eq!(reduced, full, "{text} n={n} k={k}");
            }
        }
        // The presets whose rules name no piece.
        for rule in [Rule::Nes, Rule::BagPlus(1), Rule::Pairs] {
            for (n, k) in [(10, 4), (9, 3)] {
                let reduced = some_piece_drought_with(&rule, n, k, 100_000, true).unwrap();
                let full = some_piece_drought_with(&rule, n, k, 1_000_000, false).unwrap();
                assert_eq!(reduced, full, "n={n} k={k}");
            }
        }
    }

    /// S,Z memoryless: some piece waits 3 within 4 deals exactly when three equal deals are
    /// in a row: SSSS, SSSZ, ZSSS and the same for Z, 6 of 16.
    #[test]
    fn coin_flips_by_hand() {
        let spec: Spec = "S,Z".parse().unwrap();
        let spec = Rule::Spec(&spec);
        assert_eq!(
            some_piece_drought(&spec, 3, 3, 1000).unwrap(),
            Ratio::from_u64(1, 4)
        );
        assert_eq!(
            some_piece_drought(&spec, 4, 3, 1000).unwrap(),
            Ratio::from_u64(3, 8)
        );
    }
}
