//! The one size-bounded writer every rendering of a value goes through: the display rule
//! (templates, `toString`, `asString`, `join`, text `+`, the host's [`Value::display`]) and
//! JSON ([`Value::to_json`], [`Value::to_json_bounded`]).
//!
//! Lists and objects share their items, so a value built in 40 steps
//! (`o = {a: o, b: o}` forty times) stands for a tree of 2^40 nodes: rendering it naively
//! takes gigabytes. The writer stops at a byte bound and a visit budget instead, and the
//! caller turns that into its error (`Text is too long`, `Script ran out of steps`).

use crate::value::{Value, number_to_json, write_number};
use std::rc::Rc;

/// Bytes a rendering outside a run may produce ([`Value::display`], [`Value::to_json`]).
pub const MAX_RENDER: usize = 4 << 20;

/// Levels of lists and objects a JSON rendering may nest ([`Value::to_json`]): as deep as
/// serde_json reads by default (its recursion limit of 128 admits 127 nested arrays), so every
/// JSON the CLI and the playground print can be read back, by [`Value::from_json`] too. The
/// display rule has no such limit; JSON has one because a `serde_json::Value` is serialized
/// and dropped by recursion in its users.
pub const MAX_JSON_DEPTH: usize = 127;

/// Why a rendering stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// More bytes than the bound.
    TooLong,
    /// More visits (steps) than the budget.
    OutOfSteps,
    /// JSON nested deeper than [`MAX_JSON_DEPTH`].
    TooDeep,
}

/// A rendering in progress: the text so far, its byte bound and the steps it cost.
///
/// Steps follow spec §11 as the interpreter always charged them: one per list item and object
/// entry visited, one per 64 bytes of text copied.
pub(crate) struct Render {
    pub out: String,
    max_bytes: usize,
    pub steps: u64,
    step_budget: u64,
    /// Lists and objects the JSON rendering is inside.
    depth: usize,
}

impl Render {
    pub fn new(max_bytes: usize, step_budget: u64) -> Render {
        Render {
            out: String::new(),
            max_bytes,
            steps: 0,
            step_budget,
            depth: 0,
        }
    }

    fn pay(&mut self, n: u64) -> Result<(), RenderError> {
        self.steps += n;
        if self.steps > self.step_budget {
            return Err(RenderError::OutOfSteps);
        }
        Ok(())
    }

    fn room(&self, more: usize) -> Result<(), RenderError> {
        if self.out.len().saturating_add(more) > self.max_bytes {
            return Err(RenderError::TooLong);
        }
        Ok(())
    }

    fn push(&mut self, s: &str) -> Result<(), RenderError> {
        self.room(s.len())?;
        self.out.push_str(s);
        Ok(())
    }

    /// Appends `v` by the display rule; `nested` renders nothing as `null` (inside lists and
    /// objects).
    ///
    /// The lists and objects being written are kept on an explicit stack (a value can be
    /// nested 100,000 deep: native recursion would overflow a 2 MiB thread); the order of
    /// visits, and so the steps and the point where a bound stops it, is that of a
    /// depth-first walk.
    pub fn display(&mut self, v: &Value, nested: bool) -> Result<(), RenderError> {
        enum Open<'v> {
            List(std::slice::Iter<'v, Value>),
            Object(indexmap::map::Iter<'v, Rc<str>, Value>),
        }
        // Each open container and whether its next item is its first.
        let mut open: Vec<(Open, bool)> = Vec::new();
        let mut next = Some((v, nested));
        loop {
            if let Some((v, nested)) = next.take() {
                self.room(0)?;
                match v {
                    Value::Nothing => {
                        if nested {
                            self.push("null")?;
                        }
                    }
                    Value::Bool(b) => self.push(if *b { "true" } else { "false" })?,
                    Value::Number(x) => {
                        self.room(24)?;
                        write_number(&mut self.out, *x);
                    }
                    Value::Text(s) => {
                        self.pay((s.len() / 64) as u64)?;
                        self.push(s)?;
                    }
                    Value::List(items) => {
                        self.push("[")?;
                        open.push((Open::List(items.iter()), true));
                    }
                    Value::Object(map) => {
                        self.push("{")?;
                        open.push((Open::Object(map.iter()), true));
                    }
                    Value::Function(_) => self.push("<function>")?,
                    Value::Host(h) => self.push(&h.display())?,
                }
            }
            let Some((top, first)) = open.last_mut() else {
                return Ok(());
            };
            let more = match top {
                Open::List(items) => items.next().map(|item| (None, item)),
                Open::Object(entries) => entries.next().map(|(k, item)| (Some(k), item)),
            };
            match more {
                Some((key, item)) => {
                    self.pay(1)?;
                    if !std::mem::take(first) {
                        self.push(", ")?;
                    }
                    if let Some(k) = key {
                        self.push(k)?;
                        self.push(": ")?;
                    }
                    next = Some((item, true));
                }
                None => {
                    let close = if matches!(top, Open::List(_)) {
                        "]"
                    } else {
                        "}"
                    };
                    self.push(close)?;
                    open.pop();
                }
            }
        }
    }

    /// `v` as JSON (the CLI's `--json`): non-finite numbers as texts, nothing as `null`,
    /// functions as `"<function>"`, host objects by their `to_json`. The bytes counted are
    /// those of the JSON text (approximately: quotes and escapes aside). Recursive, but at most
    /// [`MAX_JSON_DEPTH`] deep.
    pub fn json(&mut self, v: &Value) -> Result<serde_json::Value, RenderError> {
        if matches!(v, Value::List(_) | Value::Object(_)) {
            if self.depth == MAX_JSON_DEPTH {
                return Err(RenderError::TooDeep);
            }
            self.depth += 1;
            let json = self.json_here(v);
            self.depth -= 1;
            return json;
        }
        self.json_here(v)
    }

    fn json_here(&mut self, v: &Value) -> Result<serde_json::Value, RenderError> {
        use serde_json::Value as J;
        self.pay(1)?;
        Ok(match v {
            Value::Nothing => {
                self.charge(4)?;
                J::Null
            }
            Value::Bool(b) => {
                self.charge(5)?;
                J::Bool(*b)
            }
            Value::Number(x) => {
                self.charge(24)?;
                number_to_json(*x)
            }
            Value::Text(s) => {
                self.charge(s.len() + 2)?;
                J::String(s.to_string())
            }
            Value::List(items) => {
                self.charge(2)?;
                let mut out = Vec::with_capacity(items.len().min(1024));
                for item in items.iter() {
                    self.charge(1)?;
                    out.push(self.json(item)?);
                }
                J::Array(out)
            }
            Value::Object(map) => {
                self.charge(2)?;
                let mut out = serde_json::Map::new();
                for (k, item) in map.iter() {
                    self.charge(k.len() + 4)?;
                    let item = self.json(item)?;
                    out.insert(k.to_string(), item);
                }
                J::Object(out)
            }
            Value::Function(_) => {
                self.charge(12)?;
                J::String("<function>".into())
            }
            Value::Host(h) => {
                let j = h.to_json();
                self.charge(64)?;
                j
            }
        })
    }

    /// Counts `n` bytes of JSON (kept apart from `out`, which JSON does not use).
    fn charge(&mut self, n: usize) -> Result<(), RenderError> {
        self.max_bytes = self.max_bytes.checked_sub(n).ok_or(RenderError::TooLong)?;
        Ok(())
    }
}
