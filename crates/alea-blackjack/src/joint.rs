//! Tables that follow every piece at once, exact: "some piece" game odds (P(some piece waits
//! k deals or more within the first N)) and bagginess (the long-run share of aligned windows
//! whose pieces are all distinct). Both run the forward algorithm on the dealer's card-level
//! states (`preview.rs`), the game odds joined with every piece's wait so far. Renaming pieces
//! that play the same part changes neither the rule nor these events, so joint states are
//! merged up to such renamings (see [`canonical`]): a memoryless 7-piece list then has only
//! sorted wait vectors, not 12^7 of them.

use crate::chain::{Key, concrete_key};
use crate::exact::{ExactError, symmetric_history};
use crate::randomizer::Dealer;
use crate::rule::{Rule, representative, spec_outcomes as outcomes};
use crate::spec::{Core, Spec};
use alea_prob::Ratio;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::HashMap;

/// A joint state: the dealer's card-level key, whether `first` is still to come, and each
/// piece's wait (deals since it was last dealt, or since the start).
type Joint = (Key, bool, Vec<u32>);

/// How pieces may be renamed without changing the rule: the pieces of each group play the same
/// part (same multiplicity in the list; in a history, one card each).
struct Symmetry {
    /// Pieces grouped by multiplicity, each group in index order; empty = no renaming.
    groups: Vec<Vec<usize>>,
    /// The cards of each piece, in index order.
    cards_of: Vec<Vec<u16>>,
}

impl Symmetry {
    fn new(spec: &Spec) -> Symmetry {
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
/// its waits alone; a bag's, per piece, how many of its cards remain (cards of one piece are
/// interchangeable in a bag); a history's (one card per piece), the slot of the piece's newest
/// occurrence. Equal descriptions mean interchangeable pieces, so the form is canonical.
fn canonical(spec: &Spec, sym: &Symmetry, state: Joint) -> Joint {
    let (key, first, waits) = state;
    if first || sym.groups.is_empty() {
        return (key, first, waits);
    }
    let k = waits.len();
    // Per piece: its description in the dealer's state.
    let part: Vec<u32> = match spec.core {
        Core::Bag { .. } => {
            let mut left = vec![0u32; k];
            for &c in &key[1..] {
                left[spec.cards[c as usize] as usize] += 1;
            }
            left
        }
        Core::History { .. } => {
            let mut newest = vec![0u32; k];
            for (i, &c) in key.iter().enumerate() {
                newest[spec.cards[c as usize] as usize] = i as u32 + 1;
            }
            newest
        }
        _ => vec![0; k],
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
    let new_key = match spec.core {
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
    };
    (new_key, false, new_waits)
}

/// P(some piece waits `k` deals or more within the first `n` deals of a game, the wait from the
/// start included): the counted table's "some piece" odds, exactly. `max_states` bounds the
/// joint states of one deal.
pub(crate) fn some_piece_drought(
    spec: &Spec,
    n: u64,
    k: u64,
    max_states: usize,
) -> Result<Ratio, ExactError> {
    some_piece_drought_with(spec, n, k, max_states, true)
}

/// [`some_piece_drought`], with the renaming of pieces (`reduce`) or without (the reference
/// the tests compare it with).
fn some_piece_drought_with(
    spec: &Spec,
    n: u64,
    k: u64,
    max_states: usize,
    reduce: bool,
) -> Result<Ratio, ExactError> {
    if k == 0 {
        return Ok(if n > 0 { Ratio::one() } else { Ratio::zero() });
    }
    let mut sym = Symmetry::new(spec);
    if !reduce {
        sym.groups.clear();
    }
    let pieces = spec.pieces.len();
    let start: Joint = (
        concrete_key(&Dealer::initial(spec)),
        spec.first.is_some(),
        vec![0; pieces],
    );
    // Numerators over one denominator per deal: no gcd until the one result.
    let mut law: HashMap<Joint, BigUint> = HashMap::from([(start, BigUint::one())]);
    let mut den = BigUint::one();
    let mut hit = Ratio::zero();
    for _ in 0..n {
        let steps: Vec<(Joint, BigUint, Vec<_>)> = law
            .into_iter()
            .map(|(s, m)| {
                let outs = outcomes(spec, &s.0, s.1);
                (s, m, outs)
            })
            .collect();
        let mut l = BigUint::one();
        for (_, _, outs) in &steps {
            for o in outs {
                if !l.is_multiple_of(o.prob.denom()) {
                    l = l.lcm(o.prob.denom());
                }
            }
        }
        let mut next: HashMap<Joint, BigUint> = HashMap::new();
        let mut done = BigUint::zero();
        for ((_, _, waits), m, outs) in steps {
            for o in outs {
                let w = &m * (o.prob.numer() * (&l / o.prob.denom()));
                let p = spec.cards[o.card as usize] as usize;
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
                let key = representative(spec, o.next);
                let j = canonical(spec, &sym, (key, false, new_waits));
                *next.entry(j).or_insert_with(BigUint::zero) += w;
                if next.len() > max_states {
                    return Err(ExactError::TooManyStates {
                        limit: max_states,
                        needed: None,
                    });
                }
            }
        }
        den *= &l;
        if !done.is_zero() {
            hit = &hit + &Ratio::new(done, den.clone());
        }
        law = next;
        if law.is_empty() {
            break;
        }
    }
    Ok(hit)
}

/// P(the next `w` deals are all distinct pieces) from the law `start` over card-level states.
fn distinct_mass(
    spec: &Spec,
    start: &HashMap<(Key, bool), Ratio>,
    w: usize,
) -> Result<Ratio, ExactError> {
    let pieces = spec.pieces.len();
    if w > pieces {
        return Ok(Ratio::zero());
    }
    // The pieces seen so far in the window, as a sorted list.
    let mut law: HashMap<(Key, bool, Vec<u16>), Ratio> = start
        .iter()
        .map(|((k, f), p)| ((k.clone(), *f, Vec::new()), p.clone()))
        .collect();
    for _ in 0..w {
        let mut next: HashMap<(Key, bool, Vec<u16>), Ratio> = HashMap::new();
        for ((key, first, seen), p) in &law {
            for o in outcomes(spec, key, *first) {
                let piece = spec.cards[o.card as usize];
                let Err(at) = seen.binary_search(&piece) else {
                    continue;
                };
                let mut s = seen.clone();
                s.insert(at, piece);
                let slot = next
                    .entry((representative(spec, o.next), false, s))
                    .or_insert_with(Ratio::zero);
                *slot = &*slot + &(p * &o.prob);
            }
        }
        law = next;
    }
    Ok(crate::chain::sum(law.values()))
}

/// The long-run share of aligned windows of `w` deals (from the game's start) whose pieces are
/// all distinct: the Cesàro limit of P(window j is distinct). A rule whose chain is aperiodic
/// (lists; histories that forget their start, which always hold a state that can deal itself
/// again or cycles of coprime lengths) has the dealer's long-run law at every late window
/// start; a bag's law given how many cards of the round are dealt is its long-run law given
/// that count from the second round on, and window starts visit the counts j·w mod K equally
/// often; a sequence is periodic. `None` for other rules (a history whose chain depends on its
/// start), where only the counted share exists.
pub(crate) fn bagginess(
    spec: &Spec,
    w: usize,
    max_states: usize,
) -> Result<Option<Ratio>, ExactError> {
    let w = if w == 0 { spec.pieces.len() } else { w };
    match spec.core {
        Core::List => {
            let start = HashMap::from([((Vec::new(), false), Ratio::one())]);
            distinct_mass(spec, &start, w).map(Some)
        }
        Core::History { .. } if symmetric_history(spec) => {
            let pi = Rule::Spec(spec).long_run_law(max_states)?;
            distinct_mass(spec, &pi, w).map(Some)
        }
        Core::Bag { count } => {
            let pi = Rule::Spec(spec).long_run_law(max_states)?;
            let k = u64::from(count);
            let g = (w as u64).gcd(&k);
            let mut total = Ratio::zero();
            let phases = k / g;
            for j in 0..phases {
                let d = (j * g) as u32;
                let given: HashMap<(Key, bool), Ratio> = pi
                    .iter()
                    .filter(|((key, _), _)| key[0] == d)
                    .map(|(s, p)| (s.clone(), p.clone()))
                    .collect();
                let mass = crate::chain::sum(given.values());
                if mass.is_zero() {
                    continue;
                }
                total = &total + &(&distinct_mass(spec, &given, w)? / &mass);
            }
            Ok(Some(&total / &Ratio::from_u64(phases, 1)))
        }
        Core::Sequence => {
            // Deterministic: window starts j·w for j = 1..=n cover whole periods of the
            // position (after the special first window of `first F`).
            let n = spec.cards.len() as u64;
            let mut d = crate::Randomizer::new(spec, 0);
            let deals: Vec<u16> = (0..(n + 1) * w as u64).map(|_| d.deal().0).collect();
            let distinct = deals[w..]
                .chunks(w)
                .filter(|c| {
                    let mut s: Vec<u16> = c.to_vec();
                    s.sort_unstable();
                    s.dedup();
                    s.len() == w
                })
                .count() as u64;
            Ok(Some(Ratio::from_u64(distinct, n)))
        }
        Core::History { .. } => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            for (n, k) in [(12, 4), (15, 6), (9, 2)] {
                let reduced = some_piece_drought_with(&spec, n, k, 100_000, true).unwrap();
                let full = some_piece_drought_with(&spec, n, k, 100_000, false).unwrap();
                assert_eq!(reduced, full, "{text} n={n} k={k}");
            }
        }
    }

    /// S,Z memoryless: some piece waits 3 within 4 deals exactly when three equal deals are
    /// in a row: SSSS, SSSZ, ZSSS and the same for Z, 6 of 16.
    #[test]
    fn coin_flips_by_hand() {
        let spec: Spec = "S,Z".parse().unwrap();
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
