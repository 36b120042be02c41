//! Early-game and preview-conditioned laws, exact: the forward algorithm on the dealer's own
//! card-level states. The law over states is carried deal by deal from the real start (`first
//! F` included); each shown piece keeps only the outcomes that deal it, so what is left is
//! P(the shown pieces, and each state), and the deals after the preview are read from it.
//! Polynomial in the number of deals (states × outcomes per deal), unlike enumerating every
//! sequence ([`crate::prefix_law`]).

use crate::analysis::Source;
use crate::exact::ExactError;
use crate::rule::{Rule, StateLaw, add};
use crate::spec::Spec;
use alea_prob::Ratio;
use std::collections::HashMap;
use std::fmt;

/// The exact law of the deals after a preview.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviewLaw {
    /// Piece names, in `pieces()` order.
    pub pieces: Vec<String>,
    /// Where the law starts: the shown pieces are the game's first deals, or the next deals
    /// far into a game.
    pub start: PreviewStart,
    /// The pieces shown.
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
    /// A shown name is not a piece of the randomizer.
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

/// Where a preview law starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PreviewStart {
    /// At the start of a game: the shown pieces are the first deals (`first F` included).
    #[default]
    Game,
    /// Far into a game: the dealer's state is drawn from its long-run law, and the shown
    /// pieces are the next deals.
    LongRun,
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
    preview_law_from(spec, shown, ahead, max_states, PreviewStart::Game)
}

/// [`preview_law`] from the game's start or from the long run ([`PreviewStart`]): with
/// `LongRun`, P(the next deals after the shown ones | the shown ones are the next deals) at a
/// moment far into the game.
pub fn preview_law_from(
    spec: &Spec,
    shown: &[&str],
    ahead: usize,
    max_states: usize,
    from: PreviewStart,
) -> Result<PreviewLaw, PreviewError> {
    preview_of(Rule::Spec(spec), shown, ahead, max_states, from)
}

/// [`preview_law_from`] for a spec or a built-in preset with a finite chain (`tgm3` is
/// [`ExactError::NoFiniteChain`]).
pub fn preview_law_source(
    source: &Source,
    shown: &[&str],
    ahead: usize,
    max_states: usize,
    from: PreviewStart,
) -> Result<PreviewLaw, PreviewError> {
    let rule = Rule::of(source).map_err(PreviewError::Exact)?;
    preview_of(rule, shown, ahead, max_states, from)
}

fn preview_of(
    rule: Rule<'_>,
    shown: &[&str],
    ahead: usize,
    max_states: usize,
    from: PreviewStart,
) -> Result<PreviewLaw, PreviewError> {
    let names = rule.names();
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
    let mut law: StateLaw = match from {
        PreviewStart::Game => HashMap::from([(rule.initial(), Ratio::one())]),
        PreviewStart::LongRun => rule.long_run_law(max_states).map_err(PreviewError::Exact)?,
    };
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
            for (state, p) in law {
                let outs = rule.deals(state);
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
                    let name = o.piece;
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
        start: from,
        shown: shown.iter().map(|s| s.to_string()).collect(),
        probability_shown,
        next,
    })
}
