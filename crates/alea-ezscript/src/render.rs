//! The one size-bounded writer every rendering of a value goes through: the display rule
//! (templates, `toString`, `asString`, `join`, text `+`, the host's [`Value::display`]) and
//! JSON ([`Value::to_json`], [`Value::to_json_bounded`]).
//!
//! Lists and objects share their items, so a value built in 40 steps
//! (`o = {a: o, b: o}` forty times) stands for a tree of 2^40 nodes: rendering it naively
//! takes gigabytes. The writer stops at a byte bound and a visit budget instead, and the
//! caller turns that into its error (`Text is too long`, `Script ran out of steps`).

use crate::value::{Value, number_to_json, write_number};

/// Bytes a rendering outside a run may produce ([`Value::display`], [`Value::to_json`]).
pub const MAX_RENDER: usize = 4 << 20;

/// Why a rendering stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// More bytes than the bound.
    TooLong,
    /// More visits (steps) than the budget.
    OutOfSteps,
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
}

impl Render {
    pub fn new(max_bytes: usize, step_budget: u64) -> Render {
        Render {
            out: String::new(),
            max_bytes,
            steps: 0,
            step_budget,
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
    pub fn display(&mut self, v: &Value, nested: bool) -> Result<(), RenderError> {
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
                for (i, item) in items.iter().enumerate() {
                    self.pay(1)?;
                    if i > 0 {
                        self.push(", ")?;
                    }
                    self.display(item, true)?;
                }
                self.push("]")?;
            }
            Value::Object(map) => {
                self.push("{")?;
                for (i, (k, item)) in map.iter().enumerate() {
                    self.pay(1)?;
                    if i > 0 {
                        self.push(", ")?;
                    }
                    self.push(k)?;
                    self.push(": ")?;
                    self.display(item, true)?;
                }
                self.push("}")?;
            }
            Value::Function(_) => self.push("<function>")?,
            Value::Host(h) => self.push(&h.display())?,
        }
        Ok(())
    }

    /// `v` as JSON (the CLI's `--json`): non-finite numbers as texts, nothing as `null`,
    /// functions as `"<function>"`, host objects by their `to_json`. The bytes counted are
    /// those of the JSON text (approximately: quotes and escapes aside).
    pub fn json(&mut self, v: &Value) -> Result<serde_json::Value, RenderError> {
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
