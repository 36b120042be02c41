//! Presets (spec §6): the spec presets, which expand to Blackjack, and the built-in dealers for
//! the randomizers the language cannot express (`nes`, `nes-real`, `gameboy`, `tgm3`, `pairs`,
//! `7+1bag`, `7+2bag`), plus the NES's own 16-bit LFSR for `nes-real --rng arcade`.
//!
//! Sources, by preset (docs/blackjack.md repeats them):
//! * `nes-real`, `NesArcade`: the NES Tetris disassembly's `pickRandomTetrimino` and
//!   `generateNextPseudorandomNumber`, as described in meatfighter.com/nintendotetrisai
//!   ("Picking Tetriminos") and reimplemented in kirbysayshi/tetris-prng (LFSR from $8988:
//!   17604, 8802, 4401, …). Spawn table (orientation IDs) T=$02 J=$07 Z=$08 O=$0A S=$0B L=$0E
//!   I=$12.
//! * `gameboy`: Simon Laroche, "A History of Tetris Randomizers" (2018), and colour_thief's
//!   "Randomizer Theory" thread on tetrisconcept.net (Game Boy examples: O then J avoids
//!   L,J,I,O; I then L avoids L,I).
//! * `7+1bag`, `7+2bag`: TETR.IO's bag options, as reimplemented by Genius6942/triangle
//!   (`src/engine/queue/rng/bag7-1.ts`, `bag7-2.ts`): a round is the seven pieces plus one or
//!   two uniformly chosen extra pieces, shuffled. The same project's `classic.ts` is exactly the
//!   spec's `nes` rule, which is thus TETR.IO's "classic" randomizer.

use alea_core::Rng;
use std::fmt;

/// Presets that expand to Blackjack text, in the order `--help` lists them.
pub const SPEC_PRESETS: [(&str, &str); 7] = [
    ("memoryless", "I,J,L,O,S,T,Z"),
    ("7bag", "bag of I,J,L,O,S,T,Z"),
    ("14bag", "bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z"),
    ("tgm-ace", "bag of I,J,L,O,S,T,Z first I,J,L,T"),
    (
        "tgm1",
        "I,J,L,O,S,T,Z with 4 history 4 rolls starting with Z,Z,Z,Z first I,J,L,T",
    ),
    (
        "tgm2",
        "I,J,L,O,S,T,Z with 4 history 6 rolls starting with Z,S,S,Z first I,J,L,T",
    ),
    ("lockjaw-mtb", "I,J,L,O,S,T,Z with 4 history"),
];

/// Presets with their own dealer; `--canonical` on one exits with status 2.
pub const BUILTIN_PRESETS: [&str; 7] = [
    "nes", "nes-real", "gameboy", "tgm3", "pairs", "7+1bag", "7+2bag",
];

/// Built-in presets whose game's own RNG is documented well enough to reproduce bit for bit
/// (`Randomizer::preset_arcade`, `--rng arcade`).
///
/// Why not TGM1/TGM2/TGM3 (issue 17 part 3, decided after reading the community sources):
/// tetris.wiki's "TGM randomizer" page (every revision, including the TGM3 35-piece-pool
/// section) specifies the history, the tries and the starting history but draws with "random
/// element of set {I, J, L, O, S, T, Z}": it documents no generator, no seed, no bit
/// extraction and no reference sequence, and neither do Laroche's "A History of Tetris
/// Randomizers" nor colour_thief's "Randomizer Theory" thread. A bit-exact mode written from
/// guesses (e.g. a C-library LCG) could not be checked against a published sequence, so it
/// would not be faithful; these presets keep the game's rule under the ideal RNG.
pub const ARCADE_PRESETS: [&str; 1] = ["nes-real"];

/// Every preset name, spec presets first.
pub fn preset_names() -> Vec<&'static str> {
    SPEC_PRESETS
        .iter()
        .map(|p| p.0)
        .chain(BUILTIN_PRESETS)
        .collect()
}

/// The Blackjack text of a spec preset, `None` for built-in or unknown names.
pub fn preset_spec(name: &str) -> Option<&'static str> {
    SPEC_PRESETS.iter().find(|p| p.0 == name).map(|p| p.1)
}

/// An unknown preset name; `Display` lists the known ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPreset {
    /// The name that was asked for.
    pub name: String,
    /// Known presets within two edits of it, best first.
    pub similar: Vec<&'static str>,
}

impl UnknownPreset {
    /// The error for `name`, with its near misses.
    pub fn new(name: &str) -> UnknownPreset {
        UnknownPreset {
            name: name.to_string(),
            similar: crate::analysis::similar_presets(name),
        }
    }
}

impl fmt::Display for UnknownPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown preset '{}'", self.name)?;
        if !self.similar.is_empty() {
            write!(f, "; did you mean {}?", self.similar.join("/"))?;
        }
        write!(f, " (known presets: {})", preset_names().join(", "))
    }
}

impl std::error::Error for UnknownPreset {}

/// The seven tetrominoes; built-in presets use this as their `pieces()` order.
pub(crate) const TETROMINOES: [&str; 7] = ["I", "J", "L", "O", "S", "T", "Z"];
const I: u8 = 0;
const J: u8 = 1;
const L: u8 = 2;
const O: u8 = 3;
const S: u8 = 4;
const T: u8 = 5;
const Z: u8 = 6;

/// NES names by index.
pub(crate) const NES_NAMES: [u8; 7] = [T, J, Z, O, S, L, I];
/// The NES spawn table: the orientation ID of each index's spawn orientation. The reroll adds
/// the previous piece's orientation ID, not its index, which is why the real rule is biased.
pub(crate) const NES_SPAWN_ID: [u8; 7] = [0x02, 0x07, 0x08, 0x0A, 0x0B, 0x0E, 0x12];
/// Game Boy piece codes: index c is the 3-bit code c (L=000, J=001, I=010, O=011, Z=100, S=101,
/// T=110; 111 is unused).
pub(crate) const GAMEBOY_CODES: [u8; 7] = [L, J, I, O, Z, S, T];

/// The NES pick (`pickRandomTetrimino`) on the two values it reads: `first` = the first roll's
/// index (0..8) and `reroll` = the low three bits of the RNG after its extra step. `spawn_id` is
/// the previous piece's orientation ID (0 before the first piece: the game clears its RAM at
/// reset). Returns the NES index of the new piece.
pub(crate) fn nes_pick(spawn_id: u8, first: u8, reroll: impl FnOnce() -> u8) -> usize {
    let a = first as usize;
    if a != 7 && NES_SPAWN_ID[a] != spawn_id {
        return a;
    }
    ((reroll() as usize) + spawn_id as usize) % 7
}

/// The Game Boy test: a candidate is rerolled when it and the preview piece are both bitwise
/// subsets of the active piece (codes as in [`GAMEBOY_CODES`]).
pub(crate) fn gameboy_rerolls(active: u8, preview: u8, candidate: u8) -> bool {
    (candidate | preview | active) == active
}

/// One step of NES Tetris's 16-bit Fibonacci LFSR: the new bit 15 is bit 1 XOR bit 9, and the
/// register shifts right (`generateNextPseudorandomNumber`, applied to $17 then $18; $17 is
/// the high byte).
pub fn nes_lfsr_step(v: u16) -> u16 {
    let bit = ((v >> 1) ^ (v >> 9)) & 1;
    (v >> 1) | (bit << 15)
}

/// Most LFSR steps between two arcade picks (about 18 minutes of frames at 60 Hz).
pub const MAX_FRAMES: u32 = 65_535;

/// The LFSR's value at power-on.
pub const NES_POWER_ON: u16 = 0x8988;
/// TGM3 tie order.
const TGM3_ORDER: [u8; 7] = [I, Z, S, J, L, O, T];

/// A built-in dealer's state. Pieces are indices into [`TETROMINOES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    Nes {
        previous: Option<u8>,
    },
    /// The NES rule with its real reroll, under the ideal RNG: `spawn_id` is the previous
    /// piece's orientation ID, 0 before the first.
    NesReal {
        spawn_id: u8,
    },
    /// The NES rule on the game's own LFSR, bit for bit. The game steps the LFSR once per frame
    /// besides the pick's own reroll step, so the sequence depends on how long each piece takes;
    /// `frames` fixes that number of steps between consecutive picks.
    NesArcade {
        lfsr: u16,
        spawn_count: u8,
        spawn_id: u8,
        frames: u32,
    },
    /// Game Boy codes of the active piece (older) and the preview piece (newer), `None` until
    /// two pieces have been dealt.
    Gameboy {
        older: Option<u8>,
        newer: Option<u8>,
    },
    /// TETR.IO's 7+E bag: each round is the seven pieces and E uniform extras, shuffled.
    BagPlus {
        extra: u8,
        queue: Vec<u8>,
        position: usize,
    },
    Tgm3 {
        pool: [u8; 35],
        drought: [u32; 7],
        /// Newest first.
        history: [u8; 4],
        started: bool,
    },
    Pairs {
        queue: Vec<u8>,
        position: usize,
    },
}

impl Builtin {
    pub(crate) fn new(name: &str) -> Option<Builtin> {
        Some(match name {
            "nes" => Builtin::Nes { previous: None },
            "nes-real" => Builtin::NesReal { spawn_id: 0 },
            "gameboy" => Builtin::Gameboy {
                older: None,
                newer: None,
            },
            "7+1bag" | "7+2bag" => Builtin::BagPlus {
                extra: if name == "7+1bag" { 1 } else { 2 },
                queue: Vec::new(),
                position: 0,
            },
            "tgm3" => {
                let mut pool = [0u8; 35];
                for (i, p) in pool.iter_mut().enumerate() {
                    *p = TGM3_ORDER[i / 5];
                }
                Builtin::Tgm3 {
                    pool,
                    drought: [4; 7],
                    history: [Z, Z, S, S],
                    started: false,
                }
            }
            "pairs" => Builtin::Pairs {
                queue: Vec::new(),
                position: 0,
            },
            _ => return None,
        })
    }

    pub(crate) fn name(&self) -> &'static str {
        match self {
            Builtin::Nes { .. } => "nes",
            Builtin::NesReal { .. } | Builtin::NesArcade { .. } => "nes-real",
            Builtin::Gameboy { .. } => "gameboy",
            Builtin::BagPlus { extra: 1, .. } => "7+1bag",
            Builtin::BagPlus { .. } => "7+2bag",
            Builtin::Tgm3 { .. } => "tgm3",
            Builtin::Pairs { .. } => "pairs",
        }
    }

    pub(crate) fn deal(&mut self, rng: &mut Rng) -> u8 {
        match self {
            Builtin::Nes { previous } => {
                let mut a = rng.below(8) as usize;
                if a == 7 || Some(NES_NAMES[a]) == *previous {
                    a = rng.below(7) as usize;
                }
                let x = NES_NAMES[a];
                *previous = Some(x);
                x
            }
            Builtin::NesReal { spawn_id } => {
                let first = rng.below(8) as u8;
                let a = nes_pick(*spawn_id, first, || rng.below(8) as u8);
                *spawn_id = NES_SPAWN_ID[a];
                NES_NAMES[a]
            }
            Builtin::NesArcade {
                lfsr,
                spawn_count,
                spawn_id,
                frames,
            } => {
                *spawn_count = spawn_count.wrapping_add(1);
                let high = (*lfsr >> 8) as u8;
                let first = high.wrapping_add(*spawn_count) & 7;
                let a = nes_pick(*spawn_id, first, || {
                    *lfsr = nes_lfsr_step(*lfsr);
                    (*lfsr >> 8) as u8 & 7
                });
                *spawn_id = NES_SPAWN_ID[a];
                for _ in 0..*frames {
                    *lfsr = nes_lfsr_step(*lfsr);
                }
                NES_NAMES[a]
            }
            Builtin::Gameboy { older, newer } => {
                let mut c = rng.below(7) as u8;
                if let (Some(a), Some(p)) = (*older, *newer) {
                    // Three tries; the third is taken whatever it is.
                    for _ in 0..2 {
                        if !gameboy_rerolls(a, p, c) {
                            break;
                        }
                        c = rng.below(7) as u8;
                    }
                }
                *older = *newer;
                *newer = Some(c);
                GAMEBOY_CODES[c as usize]
            }
            Builtin::BagPlus {
                extra,
                queue,
                position,
            } => {
                if *position >= queue.len() {
                    let mut q = vec![I, J, L, O, S, T, Z];
                    for _ in 0..*extra {
                        q.push(rng.below(7) as u8);
                    }
                    rng.shuffle(&mut q);
                    *queue = q;
                    *position = 0;
                }
                let x = queue[*position];
                *position += 1;
                x
            }
            Builtin::Tgm3 {
                pool,
                drought,
                history,
                started,
            } => {
                if !*started {
                    *started = true;
                    let x = [I, J, L, T][rng.below(4) as usize];
                    history[0] = x;
                    return x;
                }
                let mut best = (0u32, I);
                let refill = |i: usize, pool: &mut [u8; 35], best: &mut (u32, u8), d: &[u32; 7]| {
                    for p in TGM3_ORDER {
                        if d[p as usize] > best.0 {
                            *best = (d[p as usize], p);
                        }
                    }
                    pool[i] = best.1;
                };
                let mut chosen = None;
                for _ in 0..6 {
                    let i = rng.below(35) as usize;
                    if !history.contains(&pool[i]) {
                        chosen = Some(i);
                        break;
                    }
                    refill(i, pool, &mut best, drought);
                }
                let i = match chosen {
                    Some(i) => i,
                    None => rng.below(35) as usize,
                };
                let x = pool[i];
                for d in drought.iter_mut() {
                    *d += 1;
                }
                drought[x as usize] = 0;
                refill(i, pool, &mut best, drought);
                *history = [x, history[0], history[1], history[2]];
                x
            }
            Builtin::Pairs { queue, position } => {
                if *position >= queue.len() {
                    let mut s = [I, J, L, O, S, T, Z];
                    rng.shuffle(&mut s);
                    let mut q = vec![s[0], s[0], s[0], s[1], s[1], s[1]];
                    rng.shuffle(&mut q);
                    *queue = q;
                    *position = 0;
                }
                let x = queue[*position];
                *position += 1;
                x
            }
        }
    }

    /// The state fields for serialization.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Builtin::Nes { previous } => json!({ "nes": { "previous": previous } }),
            Builtin::NesReal { spawn_id } => json!({ "nes-real": { "spawn_id": spawn_id } }),
            Builtin::NesArcade {
                lfsr,
                spawn_count,
                spawn_id,
                frames,
            } => json!({ "nes-arcade": { "lfsr": lfsr, "spawn_count": spawn_count,
                "spawn_id": spawn_id, "frames": frames } }),
            Builtin::Gameboy { older, newer } => {
                json!({ "gameboy": { "older": older, "newer": newer } })
            }
            Builtin::BagPlus {
                queue, position, ..
            } => json!({ self.name(): { "queue": queue, "position": position } }),
            Builtin::Tgm3 {
                pool,
                drought,
                history,
                started,
            } => json!({ "tgm3": {
                "pool": pool.to_vec(), "drought": drought.to_vec(),
                "history": history.to_vec(), "started": started } }),
            Builtin::Pairs { queue, position } => {
                json!({ "pairs": { "queue": queue, "position": position } })
            }
        }
    }

    /// Restores and validates the fields written by [`Builtin::to_json`].
    pub(crate) fn from_json(name: &str, v: &serde_json::Value) -> Result<Builtin, String> {
        let name = if name == "nes-real" && v.get("nes-arcade").is_some() {
            "nes-arcade"
        } else {
            name
        };
        let body = v
            .get(name)
            .ok_or_else(|| format!("state has no '{name}' object"))?;
        let pieces = |key: &str, len: Option<usize>| -> Result<Vec<u8>, String> {
            let a = body
                .get(key)
                .and_then(|x| x.as_array())
                .ok_or_else(|| format!("'{key}' must be an array"))?;
            if let Some(l) = len
                && a.len() != l
            {
                return Err(format!("'{key}' must have {l} entries"));
            }
            a.iter()
                .map(|x| match x.as_u64() {
                    Some(p) if p < 7 => Ok(p as u8),
                    _ => Err(format!("'{key}' holds a piece index outside 0..7")),
                })
                .collect()
        };
        let small = |key: &str, max: u64| -> Result<u64, String> {
            body.get(key)
                .and_then(|x| x.as_u64())
                .filter(|&x| x <= max)
                .ok_or_else(|| format!("'{key}' must be an integer at most {max}"))
        };
        let spawn_id = || -> Result<u8, String> {
            let id = small("spawn_id", 255)? as u8;
            if id == 0 || NES_SPAWN_ID.contains(&id) {
                Ok(id)
            } else {
                Err("'spawn_id' must be 0 or an orientation ID of the spawn table".into())
            }
        };
        let code = |key: &str| -> Result<Option<u8>, String> {
            match body.get(key) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(x) => match x.as_u64() {
                    Some(c) if c < 7 => Ok(Some(c as u8)),
                    _ => Err(format!(
                        "'{key}' must be a Game Boy piece code 0..7 or null"
                    )),
                },
            }
        };
        Ok(match name {
            "nes-real" => Builtin::NesReal {
                spawn_id: spawn_id()?,
            },
            "nes-arcade" => Builtin::NesArcade {
                lfsr: small("lfsr", u64::from(u16::MAX))? as u16,
                spawn_count: small("spawn_count", 255)? as u8,
                spawn_id: spawn_id()?,
                frames: small("frames", u64::from(MAX_FRAMES))? as u32,
            },
            "gameboy" => {
                let (older, newer) = (code("older")?, code("newer")?);
                if older.is_some() && newer.is_none() {
                    return Err("'older' is set but 'newer' is null".into());
                }
                Builtin::Gameboy { older, newer }
            }
            "7+1bag" | "7+2bag" => {
                let extra: u8 = if name == "7+1bag" { 1 } else { 2 };
                let queue = pieces("queue", None)?;
                if !queue.is_empty() && queue.len() != 7 + extra as usize {
                    return Err(format!("'queue' has 0 or {} pieces", 7 + extra));
                }
                let position = body
                    .get("position")
                    .and_then(|x| x.as_u64())
                    .filter(|&p| p as usize <= queue.len())
                    .ok_or("'position' must be at most the queue length")?
                    as usize;
                Builtin::BagPlus {
                    extra,
                    queue,
                    position,
                }
            }
            "nes" => {
                let previous = match body.get("previous") {
                    None | Some(serde_json::Value::Null) => None,
                    Some(x) => match x.as_u64() {
                        Some(p) if p < 7 => Some(p as u8),
                        _ => return Err("'previous' must be a piece index or null".into()),
                    },
                };
                Builtin::Nes { previous }
            }
            "tgm3" => {
                let pool: [u8; 35] = pieces("pool", Some(35))?.try_into().map_err(|_| "pool")?;
                let history: [u8; 4] = pieces("history", Some(4))?
                    .try_into()
                    .map_err(|_| "history")?;
                let d = body
                    .get("drought")
                    .and_then(|x| x.as_array())
                    .filter(|a| a.len() == 7)
                    .ok_or("'drought' must be an array of 7 counts")?;
                let mut drought = [0u32; 7];
                for (slot, x) in drought.iter_mut().zip(d) {
                    *slot = x
                        .as_u64()
                        .and_then(|x| u32::try_from(x).ok())
                        .ok_or("'drought' entries must be counts")?;
                }
                let started = body
                    .get("started")
                    .and_then(|x| x.as_bool())
                    .ok_or("'started' must be a boolean")?;
                Builtin::Tgm3 {
                    pool,
                    drought,
                    history,
                    started,
                }
            }
            "pairs" => {
                let queue = pieces("queue", None)?;
                if queue.len() > 6 {
                    return Err("'queue' has at most 6 pieces".into());
                }
                let position = body
                    .get("position")
                    .and_then(|x| x.as_u64())
                    .filter(|&p| p as usize <= queue.len())
                    .ok_or("'position' must be at most the queue length")?
                    as usize;
                Builtin::Pairs { queue, position }
            }
            _ => return Err(format!("unknown built-in preset '{name}'")),
        })
    }
}
