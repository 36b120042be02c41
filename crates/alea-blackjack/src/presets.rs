//! Presets (spec §6): the spec presets, which expand to Blackjack, and the built-in dealers for
//! the randomizers the language cannot express (`nes`, `tgm3`, `pairs`).

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
pub const BUILTIN_PRESETS: [&str; 3] = ["nes", "tgm3", "pairs"];

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
const NES_NAMES: [u8; 7] = [T, J, Z, O, S, L, I];
/// TGM3 tie order.
const TGM3_ORDER: [u8; 7] = [I, Z, S, J, L, O, T];

/// A built-in dealer's state. Pieces are indices into [`TETROMINOES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    Nes {
        previous: Option<u8>,
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
        Ok(match name {
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
