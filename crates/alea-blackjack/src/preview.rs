//! Early-game and preview-conditioned laws, exact: the forward algorithm on the dealer's own
//! card-level states. The law over states is carried deal by deal from the real start (`first
//! F` included); each shown piece keeps only the outcomes that deal it, so what is left is
//! P(the shown pieces, and each state), and the deals after the preview are read from it.
//! Polynomial in the number of deals (states × outcomes per deal), unlike enumerating every
//! sequence ([`crate::prefix_law`]).

use crate::chain::{CardOutcome, Chain, Edge, Key, concrete_dealer, concrete_key};
use crate::concrete::card_outcomes;
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
pub(crate) type StateLaw = HashMap<(Key, bool), Ratio>;

fn add(law: &mut StateLaw, key: (Key, bool), p: Ratio) {
    let slot = law.entry(key).or_insert_with(Ratio::zero);
    *slot = &*slot + &p;
}

/// The outcomes of one deal from a state, `first F` included.
pub(crate) fn outcomes(spec: &Spec, key: &Key, first: bool) -> Vec<CardOutcome> {
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

/// One representative of every history with the same cards' newest occurrences: each slot
/// that is not its card's newest occurrence is given the newest slot's card. A history rule
/// reads only the set of distinct cards, and an evicted slot leaves that set exactly when it
/// is its card's newest occurrence, so such histories deal alike forever (the lumping of
/// `chain::history_key`, with the cards' names kept); merging them keeps the forward law
/// small, and it makes the long-run law a function of the unnamed pattern.
pub(crate) fn representative(spec: &Spec, key: Key) -> Key {
    if !matches!(spec.core, crate::spec::Core::History { .. }) {
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

/// The dealer's card-level chain from its start (every card outcome, by [`card_outcomes`]).
fn card_chain(spec: &Spec, max_states: usize) -> Result<Chain, ExactError> {
    let mut index: HashMap<(Key, bool), usize> = HashMap::new();
    let mut keys: Vec<(Key, bool)> = Vec::new();
    let mut edges: Vec<Vec<Edge>> = Vec::new();
    let initial = (concrete_key(&Dealer::initial(spec)), spec.first.is_some());
    index.insert(initial.clone(), 0);
    keys.push(initial);
    let mut i = 0;
    while i < keys.len() {
        let (key, first) = keys[i].clone();
        let mut list: Vec<Edge> = Vec::new();
        for o in outcomes(spec, &key, first) {
            let next = (representative(spec, o.next), false);
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
            match list.iter_mut().find(|e| e.to == to) {
                Some(e) => e.prob = &e.prob + &o.prob,
                None => list.push(Edge {
                    prob: o.prob,
                    is_x: false,
                    from_history: false,
                    to,
                }),
            }
        }
        edges.push(list);
        i += 1;
    }
    // The key marks whether `first` is still to come (only the initial state).
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

/// The long-run law over the dealer's card-level states (histories by [`representative`]). A
/// history whose law forgets its start (`exact::symmetric_history`) takes it from the pattern
/// chain without names: given a pattern with b distinct cards, those cards are a uniformly
/// random arrangement of the list's, so a representative has its pattern's weight over
/// n·(n−1)·…·(n−b+1). Other rules solve their card-level chain (bags and sequences by
/// regeneration).
pub(crate) fn long_run_law(spec: &Spec, max_states: usize) -> Result<StateLaw, ExactError> {
    let chain = card_chain(spec, max_states)?;
    let strip = |k: &Key| -> (Key, bool) { (k[..k.len() - 1].to_vec(), k[k.len() - 1] == 1) };
    let mut law = StateLaw::new();
    let opts = crate::exact::ExactOptions {
        max_states,
        ..Default::default()
    };
    let mut cache = crate::exact::StationaryCache::new();
    if crate::exact::symmetric_history(spec) {
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
    let mut law: StateLaw = match from {
        PreviewStart::Game => HashMap::from([(
            (concrete_key(&Dealer::initial(spec)), spec.first.is_some()),
            Ratio::one(),
        )]),
        PreviewStart::LongRun => long_run_law(spec, max_states).map_err(PreviewError::Exact)?,
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
                        add(&mut next, (representative(spec, o.next), false), q);
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
