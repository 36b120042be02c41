//! The dealer's own card-level states and every outcome of one deal from them, found by
//! enumerating its `below` draws: the unreduced reference chain (`Model::Concrete`) and the
//! preview law (`preview.rs`) both walk these.

use crate::chain::Key;
use crate::prefix::Scripted;
use crate::randomizer::Dealer;
use crate::spec::{Core, Spec};
use alea_prob::Ratio;

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
