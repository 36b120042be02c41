//! The dealer: a [`Randomizer`] built from a [`Spec`] or a preset, with the exact draw order of
//! spec §5 and a serializable state (spec §9).

use crate::presets::{
    ARCADE_PRESETS, Builtin, MAX_FRAMES, NES_POWER_ON, TETROMINOES, UnknownPreset, preset_names,
    preset_spec,
};
use crate::spec::{Core, Spec, Starting};
use alea_core::Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::Arc;

/// A dealt piece: an index into [`Randomizer::pieces`] (or [`Spec::pieces`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(pub u16);

/// Why [`Randomizer::preset_arcade`] refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArcadeError {
    /// No preset has this name.
    UnknownPreset(UnknownPreset),
    /// The preset exists but its game's RNG is not documented well enough to reproduce.
    NoArcadeRng(String),
    /// The state does not fit the game's RNG (16 bits for the NES).
    BadState(u64),
    /// More LFSR steps between picks than [`MAX_FRAMES`].
    TooManyFrames(u32),
}

impl std::fmt::Display for ArcadeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArcadeError::UnknownPreset(e) => e.fmt(f),
            ArcadeError::NoArcadeRng(n) => write!(
                f,
                "preset '{n}' has no documented arcade RNG (--rng arcade works with: {})",
                ARCADE_PRESETS.join(", ")
            ),
            ArcadeError::BadState(s) => write!(
                f,
                "arcade seed {s} does not fit the NES's 16-bit LFSR (0..65535, e.g. 0x{NES_POWER_ON:04X})"
            ),
            ArcadeError::TooManyFrames(n) => {
                write!(f, "--frames {n} is too large (at most {MAX_FRAMES})")
            }
        }
    }
}

impl std::error::Error for ArcadeError {}

/// The `format` of a serialized state.
pub const STATE_FORMAT: &str = "alea-blackjack-state/1";

/// The construct state of a spec dealer. Cards are list positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dealer {
    List,
    Bag {
        remaining: Vec<u16>,
        dealt: u32,
    },
    Sequence {
        position: u32,
    },
    History {
        /// Oldest first.
        history: VecDeque<u16>,
        /// How many times each card is in the history.
        count: Vec<u16>,
        /// Number of distinct cards in the history.
        distinct: u32,
    },
}

#[derive(Clone, Debug)]
enum Source {
    Spec(Arc<Spec>, Dealer),
    Builtin(Builtin),
}

/// An infinite, seeded piece dealer. `Clone` copies the stream at its current position;
/// `Serialize`/`Deserialize` save and restore it exactly.
#[derive(Clone, Debug)]
pub struct Randomizer {
    source: Source,
    rng: Rng,
    first_pending: bool,
}

impl Dealer {
    /// The state before the first deal.
    pub(crate) fn initial(spec: &Spec) -> Dealer {
        let n = spec.cards.len();
        match &spec.core {
            Core::List => Dealer::List,
            Core::Sequence => Dealer::Sequence { position: 0 },
            Core::Bag { .. } => Dealer::Bag {
                remaining: (0..n as u16).collect(),
                dealt: 0,
            },
            Core::History { len, starting, .. } => {
                let len = *len as usize;
                let cards: Vec<u16> = match starting {
                    Starting::Default => (0..len).map(|i| ((n - len % n + i) % n) as u16).collect(),
                    Starting::Empty => Vec::new(),
                    Starting::With(names) => {
                        let mut h: Vec<u16> = Vec::with_capacity(names.len());
                        for &name in names {
                            let card = first_card_named(spec, name, |c| !h.contains(&c))
                                .or_else(|| first_card_named(spec, name, |_| true))
                                .unwrap_or(0);
                            h.push(card);
                        }
                        h
                    }
                };
                Dealer::history_of(spec, cards)
            }
        }
    }

    /// A history dealer holding `cards`, oldest first (at most the history length).
    pub(crate) fn history_of(spec: &Spec, cards: Vec<u16>) -> Dealer {
        let len = match spec.core {
            Core::History { len, .. } => len as usize,
            _ => 0,
        };
        let mut d = Dealer::History {
            history: VecDeque::with_capacity(len + 1),
            count: vec![0; spec.cards.len()],
            distinct: 0,
        };
        for c in cards {
            d.push_history(c, len);
        }
        d
    }

    pub(crate) fn push_history(&mut self, card: u16, len: usize) {
        if let Dealer::History {
            history,
            count,
            distinct,
        } = self
        {
            history.push_back(card);
            count[card as usize] += 1;
            if count[card as usize] == 1 {
                *distinct += 1;
            }
            if history.len() > len {
                let old = history.pop_front().unwrap_or(0) as usize;
                count[old] -= 1;
                if count[old] == 0 {
                    *distinct -= 1;
                }
            }
        }
    }

    /// One deal by the core rule (spec §5). Returns the card.
    #[inline]
    pub(crate) fn deal<D: Draw>(&mut self, spec: &Spec, rng: &mut D) -> u16 {
        let n = spec.cards.len() as u64;
        match self {
            Dealer::List => rng.below(n) as u16,
            Dealer::Bag { remaining, dealt } => {
                let j = rng.below(remaining.len() as u64) as usize;
                let card = remaining.swap_remove(j);
                *dealt += 1;
                if let Core::Bag { count } = spec.core
                    && *dealt >= count
                {
                    remaining.clear();
                    remaining.extend(0..n as u16);
                    *dealt = 0;
                }
                card
            }
            Dealer::Sequence { position } => {
                let card = *position as u16;
                *position = ((*position as u64 + 1) % n) as u32;
                card
            }
            Dealer::History {
                count, distinct, ..
            } => {
                let (len, rolls) = match spec.core {
                    Core::History { len, rolls, .. } => (len as usize, rolls),
                    _ => (0, None),
                };
                let card = match rolls {
                    None => {
                        let free = n - u64::from(*distinct);
                        let mut j = rng.below(free);
                        let mut pick = 0u16;
                        for (c, &k) in count.iter().enumerate() {
                            if k == 0 {
                                if j == 0 {
                                    pick = c as u16;
                                    break;
                                }
                                j -= 1;
                            }
                        }
                        pick
                    }
                    Some(r) => {
                        let mut c = 0u16;
                        for _ in 0..r {
                            c = rng.below(n) as u16;
                            if count[c as usize] == 0 {
                                break;
                            }
                        }
                        c
                    }
                };
                self.push_history(card, len);
                card
            }
        }
    }

    /// The first deal of `first F` once X is chosen: X counts as dealt (spec §5).
    pub(crate) fn deal_first(&mut self, spec: &Spec, name: u16) -> u16 {
        let n = spec.cards.len();
        match self {
            Dealer::List => first_card_named(spec, name, |_| true).unwrap_or(0),
            Dealer::Bag { remaining, dealt } => {
                let j = remaining
                    .iter()
                    .position(|&c| spec.cards[c as usize] == name)
                    .unwrap_or(0);
                let card = remaining.swap_remove(j);
                *dealt += 1;
                if let Core::Bag { count } = spec.core
                    && *dealt >= count
                {
                    remaining.clear();
                    remaining.extend(0..n as u16);
                    *dealt = 0;
                }
                card
            }
            Dealer::Sequence { position } => {
                let card = first_card_named(spec, name, |_| true).unwrap_or(0);
                *position = ((card as usize + 1) % n) as u32;
                card
            }
            Dealer::History { count, .. } => {
                let card = first_card_named(spec, name, |c| count[c as usize] == 0)
                    .or_else(|| first_card_named(spec, name, |_| true))
                    .unwrap_or(0);
                let len = match spec.core {
                    Core::History { len, .. } => len as usize,
                    _ => 0,
                };
                self.push_history(card, len);
                card
            }
        }
    }
}

/// The source of `below(n)` draws: the RNG when dealing, a scripted chooser when enumerating
/// exact laws from the start.
pub(crate) trait Draw {
    fn below(&mut self, n: u64) -> u64;
}

impl Draw for Rng {
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        Rng::below(self, n)
    }
}

/// One deal of a spec dealer, `first F` included.
#[inline]
pub(crate) fn deal_spec<D: Draw>(
    spec: &Spec,
    dealer: &mut Dealer,
    first_pending: &mut bool,
    rng: &mut D,
) -> u16 {
    if *first_pending {
        *first_pending = false;
        let f = spec.first.as_deref().unwrap_or(&[]);
        if !f.is_empty() {
            let x = f[rng.below(f.len() as u64) as usize];
            return dealer.deal_first(spec, x);
        }
    }
    dealer.deal(spec, rng)
}

/// The first card (lowest list position) named `name` that passes `ok`.
pub(crate) fn first_card_named(spec: &Spec, name: u16, ok: impl Fn(u16) -> bool) -> Option<u16> {
    (0..spec.cards.len() as u16).find(|&c| spec.cards[c as usize] == name && ok(c))
}

impl Randomizer {
    /// A dealer for `spec` seeded with `seed_from_u64(seed)`.
    pub fn new(spec: &Spec, seed: u64) -> Randomizer {
        Randomizer::with_rng(spec, Rng::seed_from_u64(seed))
    }

    /// A dealer for `spec` drawing from `rng`, e.g. `Rng::stream(seed, player)` so that each
    /// player of a game gets an independent stream from one seed.
    pub fn with_rng(spec: &Spec, rng: Rng) -> Randomizer {
        Randomizer {
            source: Source::Spec(Arc::new(spec.clone()), Dealer::initial(spec)),
            rng,
            first_pending: spec.first.is_some(),
        }
    }

    /// Player `player`'s dealer: `with_rng(spec, Rng::stream(seed, player))` (rng.md §3).
    pub fn for_player(spec: &Spec, seed: u64, player: u64) -> Randomizer {
        Randomizer::with_rng(spec, Rng::stream(seed, player))
    }

    /// A preset by name (spec §6), spec presets and built-ins alike.
    pub fn preset(name: &str, seed: u64) -> Result<Randomizer, UnknownPreset> {
        Randomizer::preset_with_rng(name, Rng::seed_from_u64(seed))
    }

    /// A built-in preset on its game's own RNG, reproducing the game's picks bit for bit
    /// (`--rng arcade`). Only `nes-real` has one ([`ARCADE_PRESETS`]): `state` is the 16-bit LFSR
    /// value at the first pick ([`NES_POWER_ON`] is the value at power-on) and `frames` the
    /// number of LFSR steps between two picks (the game steps it once per frame, so this is
    /// the number of frames a piece takes; the sources pin the pick, not the player).
    pub fn preset_arcade(name: &str, state: u64, frames: u32) -> Result<Randomizer, ArcadeError> {
        if !preset_names().contains(&name) {
            return Err(ArcadeError::UnknownPreset(UnknownPreset::new(name)));
        }
        if !ARCADE_PRESETS.contains(&name) {
            return Err(ArcadeError::NoArcadeRng(name.to_string()));
        }
        let lfsr = u16::try_from(state).map_err(|_| ArcadeError::BadState(state))?;
        if frames > MAX_FRAMES {
            return Err(ArcadeError::TooManyFrames(frames));
        }
        Ok(Randomizer {
            source: Source::Builtin(Builtin::NesArcade {
                lfsr,
                spawn_count: 0,
                spawn_id: 0,
                frames,
            }),
            // Unused: the arcade dealer draws from its own LFSR only.
            rng: Rng::seed_from_u64(0),
            first_pending: false,
        })
    }

    /// A preset drawing from `rng`.
    pub fn preset_with_rng(name: &str, rng: Rng) -> Result<Randomizer, UnknownPreset> {
        if let Some(text) = preset_spec(name) {
            let spec = Spec::parse(text).map_err(|_| UnknownPreset::new(name))?;
            return Ok(Randomizer::with_rng(&spec, rng));
        }
        let b = Builtin::new(name).ok_or_else(|| UnknownPreset::new(name))?;
        Ok(Randomizer {
            source: Source::Builtin(b),
            rng,
            first_pending: false,
        })
    }

    /// The spec this dealer follows, `None` for a built-in preset.
    pub fn spec(&self) -> Option<&Spec> {
        match &self.source {
            Source::Spec(s, _) => Some(s),
            Source::Builtin(_) => None,
        }
    }

    /// The built-in preset's name, `None` for a spec dealer.
    pub fn builtin_name(&self) -> Option<&'static str> {
        match &self.source {
            Source::Spec(..) => None,
            Source::Builtin(b) => Some(b.name()),
        }
    }

    /// Number of distinct pieces.
    pub fn piece_count(&self) -> usize {
        match &self.source {
            Source::Spec(s, _) => s.pieces.len(),
            Source::Builtin(_) => TETROMINOES.len(),
        }
    }

    /// The piece names; [`Piece`] indexes them.
    pub fn pieces(&self) -> Vec<&str> {
        (0..self.piece_count() as u16)
            .map(|i| self.name(Piece(i)))
            .collect()
    }

    /// The name of a piece. An index out of range gives `"?"`.
    pub fn name(&self, p: Piece) -> &str {
        match &self.source {
            Source::Spec(s, _) => s.pieces.get(p.0 as usize).map_or("?", |n| n),
            Source::Builtin(_) => TETROMINOES.get(p.0 as usize).copied().unwrap_or("?"),
        }
    }

    /// The next `n` pieces, without advancing.
    pub fn peek(&self, n: usize) -> Vec<Piece> {
        self.clone().take(n).collect()
    }

    /// The generator's current state.
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    /// Deals the next piece (the same as `next()`, which never returns `None`).
    #[inline]
    pub fn deal(&mut self) -> Piece {
        match &mut self.source {
            Source::Spec(spec, dealer) => {
                let card = deal_spec(spec, dealer, &mut self.first_pending, &mut self.rng);
                Piece(spec.cards[card as usize])
            }
            Source::Builtin(b) => Piece(u16::from(b.deal(&mut self.rng))),
        }
    }

    /// The state as the JSON value of spec §9.
    pub fn to_json(&self) -> Value {
        let rng: Vec<String> = self.rng.state().iter().map(|w| w.to_string()).collect();
        match &self.source {
            Source::Spec(spec, dealer) => {
                let state = match dealer {
                    Dealer::List => json!({}),
                    Dealer::Bag { remaining, dealt } => {
                        json!({"bag": {"remaining": remaining, "dealt": dealt}})
                    }
                    Dealer::Sequence { position } => json!({ "position": position }),
                    Dealer::History { history, .. } => json!({ "history": history }),
                };
                json!({"format": STATE_FORMAT, "spec": spec.to_string(), "rng": rng,
                       "first_pending": self.first_pending, "state": state})
            }
            Source::Builtin(b) => json!({"format": STATE_FORMAT, "preset": b.name(), "rng": rng,
                       "first_pending": false, "state": b.to_json()}),
        }
    }

    /// Restores a state written by [`Randomizer::to_json`], validating every field.
    pub fn from_json(v: &Value) -> Result<Randomizer, String> {
        if v.get("format").and_then(Value::as_str) != Some(STATE_FORMAT) {
            return Err(format!("'format' must be \"{STATE_FORMAT}\""));
        }
        let words = v
            .get("rng")
            .and_then(Value::as_array)
            .filter(|a| a.len() == 4)
            .ok_or("'rng' must hold four decimal strings")?;
        let mut s = [0u64; 4];
        for (slot, w) in s.iter_mut().zip(words) {
            *slot = w
                .as_str()
                .and_then(|t| t.parse().ok())
                .ok_or("'rng' words must be decimal u64 strings")?;
        }
        let rng = Rng::from_state(s).ok_or("'rng' state must not be all zero")?;
        let first_pending = v
            .get("first_pending")
            .and_then(Value::as_bool)
            .ok_or("'first_pending' must be a boolean")?;
        let state = v.get("state").ok_or("missing 'state'")?;
        if let Some(name) = v.get("preset").and_then(Value::as_str) {
            let b = Builtin::from_json(name, state)?;
            return Ok(Randomizer {
                source: Source::Builtin(b),
                rng,
                first_pending: false,
            });
        }
        let text = v
            .get("spec")
            .and_then(Value::as_str)
            .ok_or("missing 'spec'")?;
        let spec = Spec::parse(text).map_err(|e| format!("'spec': {e}"))?;
        if first_pending && spec.first.is_none() {
            return Err("'first_pending' is true but the spec has no 'first'".into());
        }
        let n = spec.cards.len();
        let cards = |x: &Value| -> Result<Vec<u16>, String> {
            x.as_array()
                .ok_or("expected an array of cards")?
                .iter()
                .map(|c| match c.as_u64() {
                    Some(c) if (c as usize) < n => Ok(c as u16),
                    _ => Err(format!("card outside 0..{n}")),
                })
                .collect()
        };
        let dealer = match &spec.core {
            Core::List => Dealer::List,
            Core::Sequence => {
                let p = state
                    .get("position")
                    .and_then(Value::as_u64)
                    .filter(|&p| (p as usize) < n)
                    .ok_or("'position' must be a list position")?;
                Dealer::Sequence { position: p as u32 }
            }
            Core::Bag { count } => {
                let bag = state.get("bag").ok_or("missing 'bag'")?;
                let remaining = cards(bag.get("remaining").ok_or("missing 'remaining'")?)?;
                let dealt = bag
                    .get("dealt")
                    .and_then(Value::as_u64)
                    .filter(|&d| d < u64::from(*count))
                    .ok_or("'dealt' must be less than the deal count")?;
                let mut seen = vec![false; n];
                for &c in &remaining {
                    if std::mem::replace(&mut seen[c as usize], true) {
                        return Err("'remaining' repeats a card".into());
                    }
                }
                if remaining.len() + dealt as usize != n {
                    return Err("'remaining' and 'dealt' do not add up to the list length".into());
                }
                Dealer::Bag {
                    remaining,
                    dealt: dealt as u32,
                }
            }
            Core::History { len, .. } => {
                let h = cards(state.get("history").ok_or("missing 'history'")?)?;
                if h.len() > *len as usize {
                    return Err("'history' is longer than the history length".into());
                }
                let mut d = Dealer::History {
                    history: VecDeque::with_capacity(*len as usize + 1),
                    count: vec![0; n],
                    distinct: 0,
                };
                for c in h {
                    d.push_history(c, *len as usize);
                }
                if let (Core::History { rolls: None, .. }, Dealer::History { distinct, .. }) =
                    (&spec.core, &d)
                    && *distinct as usize >= n
                {
                    return Err("'history' leaves no card to deal".into());
                }
                d
            }
        };
        Ok(Randomizer {
            source: Source::Spec(Arc::new(spec), dealer),
            rng,
            first_pending,
        })
    }
}

impl Iterator for Randomizer {
    type Item = Piece;

    #[inline]
    fn next(&mut self) -> Option<Piece> {
        Some(self.deal())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (usize::MAX, None)
    }
}

impl Serialize for Randomizer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Randomizer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Randomizer, D::Error> {
        let v = Value::deserialize(d)?;
        Randomizer::from_json(&v).map_err(serde::de::Error::custom)
    }
}
