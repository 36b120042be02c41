//! The dealer's own card-level states and every outcome of one deal from them, found by
//! enumerating its `below` draws: the unreduced reference chain (`Model::Concrete`) and the
//! preview law (`preview.rs`) both walk these.

use crate::chain::Key;
use crate::prefix::Scripted;
use crate::randomizer::Dealer;
use crate::spec::{Core, Spec};
use alea_prob::Ratio;
use num_bigint::BigUint;

/// The card-level key of a dealer state: the cards left in a bag (as a set) after the count
/// dealt, the history's cards, or the sequence position.
pub(crate) fn concrete_key(d: &Dealer) -> Key {
    match d {
        Dealer::List => vec![],
        Dealer::Sequence { position } => vec![*position],
        Dealer::Bag { remaining, dealt } => {
            let mut r: Vec<u32> = remaining.iter().map(|&c| u32::from(c)).collect();
            r.sort_unstable();
            std::iter::once(*dealt).chain(r).collect()
        }
        Dealer::History { history, .. } => history.iter().map(|&c| u32::from(c)).collect(),
    }
}

pub(crate) fn concrete_dealer(spec: &Spec, key: &Key) -> Dealer {
    match &spec.core {
        Core::List => Dealer::List,
        Core::Sequence => Dealer::Sequence { position: key[0] },
        Core::Bag { .. } => Dealer::Bag {
            remaining: key[1..].iter().map(|&c| c as u16).collect(),
            dealt: key[0],
        },
        Core::History { .. } => Dealer::history_of(spec, key.iter().map(|&c| c as u16).collect()),
    }
}

/// One outcome of a card-level deal: the card dealt, not only whether it is an X.
pub(crate) struct CardOutcome {
    pub prob: Ratio,
    pub card: u16,
    pub from_history: bool,
    pub next: Key,
}

/// Every outcome of one deal from the card-level state `key`, by enumerating the dealer's
/// `below` draws (one draw sequence per outcome, so equal next states may repeat).
pub(crate) fn concrete_outcomes(spec: &Spec, key: &Key) -> Vec<CardOutcome> {
    let start = concrete_dealer(spec, key);
    let in_history = |d: &Dealer, c: u16| match d {
        Dealer::History { count, .. } => count[c as usize] > 0,
        _ => false,
    };
    let rolls = matches!(spec.core, Core::History { rolls: Some(_), .. });
    let mut out = Vec::new();
    let mut stack: Vec<Vec<u64>> = vec![Vec::new()];
    while let Some(script) = stack.pop() {
        let mut d = start.clone();
        let mut draw = Scripted::new(&script);
        let card = d.deal(spec, &mut draw);
        if draw.branch_into(&mut stack) {
            continue;
        }
        out.push(CardOutcome {
            prob: draw.probability(),
            card,
            from_history: rolls && in_history(&start, card),
            next: concrete_key(&d),
        });
    }
    out
}

/// Every outcome of one deal from `key`, one per card: like [`concrete_outcomes`], but a history
/// with R rolls takes its law from the formula instead of the 1 + h + … + h^(R−1) roll
/// sequences (h cards in the history, n in the list): a card not in the history is dealt with
/// (n^R − h^R)/((n − h)·n^R) (some roll finds it first), one in the history with h^(R−1)/n^R
/// (every roll hits and the last is that card). The reference chain keeps the enumeration,
/// so tests compare the two.
pub(crate) fn card_outcomes(spec: &Spec, key: &Key) -> Vec<CardOutcome> {
    let Core::History {
        len,
        rolls: Some(r),
        ..
    } = spec.core
    else {
        return concrete_outcomes(spec, key);
    };
    let start = concrete_dealer(spec, key);
    let Dealer::History {
        count, distinct, ..
    } = &start
    else {
        return concrete_outcomes(spec, key);
    };
    let n = spec.cards.len() as u64;
    let h = u64::from(*distinct);
    let nr = BigUint::from(n).pow(r);
    let hr = BigUint::from(h).pow(r);
    let fresh = (h < n).then(|| Ratio::new(&nr - &hr, &nr * BigUint::from(n - h)));
    let held = (h > 0).then(|| Ratio::new(BigUint::from(h).pow(r - 1), nr.clone()));
    (0..n as u16)
        .filter_map(|c| {
            let from_history = count[c as usize] > 0;
            let prob = if from_history {
                held.clone()?
            } else {
                fresh.clone()?
            };
            let mut d = start.clone();
            d.push_history(c, len as usize);
            Some(CardOutcome {
                prob,
                card: c,
                from_history,
                next: concrete_key(&d),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// The roll formula equals the enumerated roll sequences, per card and next state, on
    /// every reachable state of small history specs.
    #[test]
    fn roll_formula_equals_enumeration() {
        let merge = |v: Vec<CardOutcome>| {
            let mut m: BTreeMap<(u16, bool, Key), Ratio> = BTreeMap::new();
            for o in v {
                let slot = m
                    .entry((o.card, o.from_history, o.next))
                    .or_insert_with(Ratio::zero);
                *slot = &*slot + &o.prob;
            }
            m
        };
        for text in [
            "I,J,L,O,S,T,Z with 4 history 4 rolls",
            "I,J,L with 2 history 3 rolls starting empty",
            "I,I,J,L with 3 history 2 rolls starting with J,J",
            "S,Z with 3 history 5 rolls",
        ] {
            let spec: Spec = text.parse().unwrap();
            let mut seen = std::collections::HashSet::new();
            let mut todo = vec![concrete_key(&Dealer::initial(&spec))];
            while let Some(key) = todo.pop() {
                if !seen.insert(key.clone()) {
                    continue;
                }
                let formula = merge(card_outcomes(&spec, &key));
                assert_eq!(
                    formula,
                    merge(concrete_outcomes(&spec, &key)),
                    "{text} {key:?}"
                );
                todo.extend(formula.into_keys().map(|k| k.2));
            }
            assert!(seen.len() > 3, "{text}");
        }
    }
}
