//! Early-game and preview-conditioned laws, exact: the forward algorithm on the dealer's own
//! card-level states. The law over states is carried deal by deal from the real start (`first
//! F` included); each shown piece keeps only the outcomes that deal it, so what is left is
//! P(the shown pieces, and each state), and the deals after the preview are read from it.
//! Polynomial in the number of deals (states × outcomes per deal), unlike enumerating every
//! sequence ([`crate::prefix_law`]).

use crate::chain::{CardOutcome, Key, concrete_dealer, concrete_key, concrete_outcomes};
use crate::exact::ExactError;
use crate::randomizer::Dealer;
use crate::spec::Spec;
use alea_prob::Ratio;
use std::collections::HashMap;
use std::fmt;

/// The exact law of the deals after a preview.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviewLaw {
    /// Piece names, in `pieces()` order.
    pub pieces: Vec<String>,
    /// The pieces shown: the first deals of the game.
    pub shown: Vec<String>,
    /// P(the game starts with the shown pieces).
    pub probability_shown: Ratio,
    /// `next[j][p]` = P(deal `shown.len() + j + 1` is piece p | the shown pieces); empty when
    /// the shown start is impossible.
    pub next: Vec<Vec<Ratio>>,
}

/// Why a preview law cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreviewError {
    /// A shown name is not a piece of the spec.
    UnknownPiece(String),
    /// The dealer's states exceed the limit.
    Exact(ExactError),
}

impl fmt::Display for PreviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PreviewError::UnknownPiece(p) => write!(f, "'{p}' is not a piece of the spec"),
            PreviewError::Exact(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PreviewError {}

/// Dealer outcomes one preview law may enumerate: a history with R rolls has up to
/// 1 + h + … + h^(R−1) draw sequences per state (h cards in the history), so TGM2's 2401
/// histories times ten deals would run for minutes; past this the law is refused at once.
pub const PREVIEW_WORK_BUDGET: u64 = 200_000;

/// The law over card-level states (with whether `first` is still to come).
type StateLaw = HashMap<(Key, bool), Ratio>;

fn add(law: &mut StateLaw, key: (Key, bool), p: Ratio) {
    let slot = law.entry(key).or_insert_with(Ratio::zero);
    *slot = &*slot + &p;
}

/// The outcomes of one deal from a state, `first F` included.
fn outcomes(spec: &Spec, key: &Key, first: bool) -> Vec<CardOutcome> {
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
        _ => concrete_outcomes(spec, key),
    }
}

/// P(deal n + j + 1 = each piece | the first n deals are `shown`), j < `ahead`, exact.
/// `shown` empty gives the early-game law of the first `ahead` deals. Fails with
/// [`ExactError::TooManyStates`] when the law spreads over more than `max_states` states.
pub fn preview_law(
    spec: &Spec,
    shown: &[&str],
    ahead: usize,
    max_states: usize,
) -> Result<PreviewLaw, PreviewError> {
    let names: Vec<String> = spec.pieces().iter().map(|p| p.to_string()).collect();
    let shown_idx: Vec<u16> = shown
        .iter()
        .map(|s| {
            names
                .iter()
                .position(|n| n == s)
                .map(|i| i as u16)
                .ok_or_else(|| PreviewError::UnknownPiece(s.to_string()))
        })
        .collect::<Result<_, _>>()?;
    let mut law: StateLaw = HashMap::new();
    law.insert(
        (concrete_key(&Dealer::initial(spec)), spec.first.is_some()),
        Ratio::one(),
    );
    let too_many = || {
        PreviewError::Exact(ExactError::TooManyStates {
            limit: max_states,
            needed: None,
        })
    };
    // One deal: the law of the next state, keeping only `keep` names; the names' masses.
    let work = std::cell::Cell::new(0u64);
    let deal =
        |law: &StateLaw, keep: Option<u16>| -> Result<(StateLaw, Vec<Ratio>), PreviewError> {
            let mut next = StateLaw::new();
            let mut by_name = vec![Ratio::zero(); names.len()];
            for ((key, first), p) in law {
                let outs = outcomes(spec, key, *first);
                work.set(work.get() + outs.len() as u64);
                if work.get() > PREVIEW_WORK_BUDGET {
                    return Err(PreviewError::Exact(ExactError::TooLarge {
                        what: format!(
                            "the preview law (more than {PREVIEW_WORK_BUDGET} dealer outcomes)"
                        ),
                        hint: "show fewer pieces or ask for fewer --ahead deals".into(),
                    }));
                }
                for o in outs {
                    let name = spec.cards[o.card as usize];
                    let q = p * &o.prob;
                    by_name[name as usize] = &by_name[name as usize] + &q;
                    if keep.is_none_or(|k| k == name) {
                        add(&mut next, (o.next, false), q);
                    }
                }
                if next.len() > max_states {
                    return Err(too_many());
                }
            }
            Ok((next, by_name))
        };
    for &k in &shown_idx {
        law = deal(&law, Some(k))?.0;
    }
    let probability_shown = crate::chain::sum(law.values());
    let mut next = Vec::new();
    if !probability_shown.is_zero() {
        for _ in 0..ahead {
            let (after, by_name) = deal(&law, None)?;
            next.push(by_name.iter().map(|p| p / &probability_shown).collect());
            law = after;
        }
    }
    Ok(PreviewLaw {
        pieces: names,
        shown: shown.iter().map(|s| s.to_string()).collect(),
        probability_shown,
        next,
    })
}
