//! Values, their display rule, equality and JSON conversion.
//!
//! Nothing here recurses once per level of nesting: a loop can nest lists 100,000 deep within
//! the default budgets, and such a value must be safe to drop (`drop.rs`), display
//! (`render.rs`) and compare (`deep_equal`) on a default 2 MiB thread.

pub use crate::drop::{List, Map};
use crate::host::HostObject;
use crate::interp::Closure;
use crate::render::{Render, RenderError};
use std::rc::Rc;

/// An EZScript value.
///
/// Lists and objects are values: they are shared behind an `Rc` and copied on write, so
/// assigning, passing or capturing one never creates an alias (spec §5.4).
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// `nothing` (type name `Null`).
    #[default]
    Nothing,
    /// `true` / `false`.
    Bool(bool),
    /// Every number is an f64.
    Number(f64),
    /// Text, counted in Unicode scalar values. Growable: `s += t` appends in place when `s`
    /// holds the only reference.
    Text(Rc<String>),
    /// A list.
    List(Rc<List>),
    /// An object: text keys in insertion order.
    Object(Rc<Map>),
    /// A function value (user-defined or built-in).
    Function(Rc<Closure>),
    /// An object provided by the host (tournament data); read-only. Boxed behind the `Rc`
    /// so the pointer is thin and a value is 16 bytes, not 24 (every operand, slot and list
    /// item moves a value; host objects are rare), made with [`Value::host`].
    Host(Rc<Box<dyn HostObject>>),
}

impl Value {
    /// A text value.
    pub fn text(s: &str) -> Value {
        Value::Text(Rc::new(s.to_owned()))
    }

    /// A host object value.
    pub fn host(obj: impl HostObject + 'static) -> Value {
        Value::Host(Rc::new(Box::new(obj)))
    }

    /// A list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(List::from(items)))
    }

    /// The type name used in error messages (`double`, `String`, `bool`, `List`, `Map`,
    /// `Function`, `Null`, or the host object's type).
    pub fn type_name(&self) -> &str {
        match self {
            Value::Nothing => "Null",
            Value::Bool(_) => "bool",
            Value::Number(_) => "double",
            Value::Text(_) => "String",
            Value::List(_) => "List",
            Value::Object(_) => "Map",
            Value::Function(_) => "Function",
            Value::Host(h) => h.type_name(),
        }
    }

    /// The display rule of spec §1 (`toString`, templates, `join`, text `+`), for the host:
    /// within [`MAX_RENDER`](crate::MAX_RENDER) bytes (a longer rendering is cut there and ends
    /// in `…`; runs render through the same writer within their own text limit and steps).
    pub fn display(&self) -> String {
        let mut r = Render::new(crate::render::MAX_RENDER, u64::MAX);
        if r.display(self, false).is_err() {
            let mut cut = r.out.len().min(crate::render::MAX_RENDER - 3);
            while !r.out.is_char_boundary(cut) {
                cut -= 1;
            }
            r.out.truncate(cut);
            r.out.push('…');
        }
        r.out
    }

    /// Deep equality of spec §5.3: different kinds are unequal, numbers as f64, lists and
    /// objects deeply (key order ignored), functions and host objects by identity.
    pub fn equals(&self, other: &Value) -> bool {
        let free = || Ok::<(), std::convert::Infallible>(());
        match deep_equal(self, other, free) {
            Ok(b) => b,
            Err(never) => match never {},
        }
    }

    /// Converts to JSON as the CLI's `--json` does: non-finite numbers as texts, nothing as
    /// `null`, functions as `"<function>"`, host objects by [`HostObject::to_json`]. Within
    /// [`MAX_RENDER`](crate::MAX_RENDER) bytes and [`MAX_JSON_DEPTH`](crate::MAX_JSON_DEPTH)
    /// levels of nesting; a larger value gives the text `"<too large>"`, a deeper one
    /// `"<too deep>"`.
    pub fn to_json(&self) -> serde_json::Value {
        match Render::new(crate::render::MAX_RENDER, u64::MAX).json(self) {
            Ok(json) => json,
            Err(RenderError::TooDeep) => serde_json::Value::String("<too deep>".into()),
            Err(_) => serde_json::Value::String("<too large>".into()),
        }
    }

    /// Like [`Value::to_json`], but gives up (`None`) after visiting `budget` values (or past
    /// [`MAX_RENDER`](crate::MAX_RENDER) bytes or [`MAX_JSON_DEPTH`](crate::MAX_JSON_DEPTH)
    /// levels): lists can share items, so a small value can
    /// stand for an exponentially large tree. The visits are taken from `budget`.
    pub fn to_json_bounded(&self, budget: &mut u64) -> Option<serde_json::Value> {
        let mut r = Render::new(crate::render::MAX_RENDER, *budget);
        let json = r.json(self).ok()?;
        *budget -= r.steps;
        Some(json)
    }

    /// Converts from JSON: `null` is nothing, numbers become f64, arrays lists, objects
    /// objects (key order kept).
    pub fn from_json(json: &serde_json::Value) -> Value {
        use serde_json::Value as J;
        match json {
            J::Null => Value::Nothing,
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
            J::String(s) => Value::text(s),
            J::Array(items) => Value::list(items.iter().map(Value::from_json).collect()),
            // Recursive, but over a `serde_json::Value`, which cannot be nested deeper than its
            // own (recursive) drop allows, and serde_json reads at most 128 levels.
            J::Object(map) => Value::Object(Rc::new(
                map.iter()
                    .map(|(k, v)| (Rc::from(k.as_str()), Value::from_json(v)))
                    .collect(),
            )),
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.equals(other)
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Number(x)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::text(s)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Text(Rc::new(s))
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Value {
        Value::list(items)
    }
}

/// Compares two values by [`Value::equals`], calling `pay` once per list item and object
/// entry compared (the interpreter's step cost; comparing stops at its error). One
/// implementation for the host and the interpreter, with an explicit stack of the lists and
/// objects being compared, so nesting depth costs heap, not native stack.
pub(crate) fn deep_equal<E>(
    x: &Value,
    y: &Value,
    mut pay: impl FnMut() -> Result<(), E>,
) -> Result<bool, E> {
    enum Open<'v> {
        List(std::iter::Zip<std::slice::Iter<'v, Value>, std::slice::Iter<'v, Value>>),
        Object(indexmap::map::Iter<'v, Rc<str>, Value>, &'v Map),
    }
    let mut open: Vec<Open> = Vec::new();
    let mut pair = Some((x, y));
    loop {
        if let Some((x, y)) = pair.take() {
            match (x, y) {
                (Value::List(a), Value::List(b)) => {
                    if !Rc::ptr_eq(a, b) {
                        if a.len() != b.len() {
                            return Ok(false);
                        }
                        open.push(Open::List(a.iter().zip(b.iter())));
                    }
                }
                (Value::Object(a), Value::Object(b)) => {
                    if a.len() != b.len() {
                        return Ok(false);
                    }
                    open.push(Open::Object(a.iter(), b));
                }
                _ => {
                    if !shallow_equal(x, y) {
                        return Ok(false);
                    }
                }
            }
        }
        let Some(top) = open.last_mut() else {
            return Ok(true);
        };
        match top {
            Open::List(pairs) => match pairs.next() {
                Some(next) => {
                    pay()?;
                    pair = Some(next);
                }
                None => {
                    open.pop();
                }
            },
            Open::Object(entries, other) => match entries.next() {
                Some((k, v)) => {
                    pay()?;
                    match other.get(k) {
                        Some(w) => pair = Some((v, w)),
                        None => return Ok(false),
                    }
                }
                None => {
                    open.pop();
                }
            },
        }
    }
}

/// Equality of everything but two lists or two objects.
fn shallow_equal(x: &Value, y: &Value) -> bool {
    match (x, y) {
        (Value::Nothing, Value::Nothing) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => a == b,
        (Value::Text(a), Value::Text(b)) => a == b,
        (Value::Function(a), Value::Function(b)) => Rc::ptr_eq(a, b),
        (Value::Host(a), Value::Host(b)) => {
            a.type_name() == b.type_name() && a.identity() == b.identity()
        }
        _ => false,
    }
}

/// A number as JSON: whole numbers as integers, non-finite ones as texts.
pub fn number_to_json(x: f64) -> serde_json::Value {
    if !x.is_finite() {
        return serde_json::Value::String(format_number(x));
    }
    if x == x.trunc() && x.abs() < 9.007_199_254_740_992e15 {
        return serde_json::Value::from(x as i64);
    }
    serde_json::Number::from_f64(x).map_or(serde_json::Value::Null, serde_json::Value::Number)
}

/// A number by ECMAScript's `Number::toString` (spec §1): the workspace's one formatter,
/// [`alea_core::js_number`].
pub fn format_number(x: f64) -> String {
    alea_core::js_number(x)
}

/// Appends a number by the display rule ([`alea_core::write_js_number`]).
pub fn write_number(out: &mut String, x: f64) {
    alea_core::write_js_number(out, x)
}
