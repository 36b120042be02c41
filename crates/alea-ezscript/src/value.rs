//! Values, their display rule, equality and JSON conversion.

use crate::host::HostObject;
use crate::interp::Closure;
use indexmap::IndexMap;
use std::fmt::Write as _;
use std::rc::Rc;

/// The keys and values of an object, in insertion order.
pub type Map = IndexMap<Rc<str>, Value>;

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
    List(Rc<Vec<Value>>),
    /// An object: text keys in insertion order.
    Object(Rc<Map>),
    /// A function value (user-defined or built-in).
    Function(Rc<Closure>),
    /// An object provided by the host (tournament data); read-only.
    Host(Rc<dyn HostObject>),
}

impl Value {
    /// A text value.
    pub fn text(s: &str) -> Value {
        Value::Text(Rc::new(s.to_owned()))
    }

    /// A list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(items))
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

    /// The display rule of spec §1 (`toString`, templates, `join`, text `+`).
    pub fn display(&self) -> String {
        let mut out = String::new();
        self.write_display(&mut out, false);
        out
    }

    /// Appends the display form; `nested` renders nothing as `null` (inside lists and objects).
    pub fn write_display(&self, out: &mut String, nested: bool) {
        match self {
            Value::Nothing => {
                if nested {
                    out.push_str("null");
                }
            }
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(x) => write_number(out, *x),
            Value::Text(s) => out.push_str(s),
            Value::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write_display(out, true);
                }
                out.push(']');
            }
            Value::Object(map) => {
                out.push('{');
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push_str(": ");
                    v.write_display(out, true);
                }
                out.push('}');
            }
            Value::Function(_) => out.push_str("<function>"),
            Value::Host(h) => out.push_str(&h.display()),
        }
    }

    /// Deep equality of spec §5.3: different kinds are unequal, numbers as f64, lists and
    /// objects deeply (key order ignored), functions and host objects by identity.
    pub fn equals(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Nothing, Value::Nothing) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::Text(a), Value::Text(b)) => a == b,
            (Value::List(a), Value::List(b)) => {
                Rc::ptr_eq(a, b)
                    || (a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.equals(y)))
            }
            (Value::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, v)| b.get(k).is_some_and(|w: &Value| v.equals(w)))
            }
            (Value::Function(a), Value::Function(b)) => Rc::ptr_eq(a, b),
            (Value::Host(a), Value::Host(b)) => {
                a.type_name() == b.type_name() && a.identity() == b.identity()
            }
            _ => false,
        }
    }

    /// Converts to JSON as the CLI's `--json` does: non-finite numbers as texts, nothing as
    /// `null`, functions as `"<function>"`, host objects by [`HostObject::to_json`].
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Value::Nothing => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Number(x) => number_to_json(*x),
            Value::Text(s) => J::String(s.to_string()),
            Value::List(items) => J::Array(items.iter().map(Value::to_json).collect()),
            Value::Object(map) => J::Object(
                map.iter()
                    .map(|(k, v)| (k.to_string(), v.to_json()))
                    .collect(),
            ),
            Value::Function(_) => J::String("<function>".into()),
            Value::Host(h) => h.to_json(),
        }
    }

    /// Like [`Value::to_json`], but gives up (`None`) after visiting `budget` values: lists can
    /// share items, so a small value can stand for an exponentially large tree.
    pub fn to_json_bounded(&self, budget: &mut u64) -> Option<serde_json::Value> {
        use serde_json::Value as J;
        *budget = budget.checked_sub(1)?;
        Some(match self {
            Value::List(items) => J::Array(
                items
                    .iter()
                    .map(|v| v.to_json_bounded(budget))
                    .collect::<Option<_>>()?,
            ),
            Value::Object(map) => J::Object(
                map.iter()
                    .map(|(k, v)| Some((k.to_string(), v.to_json_bounded(budget)?)))
                    .collect::<Option<_>>()?,
            ),
            other => other.to_json(),
        })
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

/// A number by ECMAScript's `Number::toString` (spec §1).
pub fn format_number(x: f64) -> String {
    let mut s = String::new();
    write_number(&mut s, x);
    s
}

/// Appends a number by ECMAScript's `Number::toString`: shortest round-trip digits, exponent
/// form outside 1e-7 ≤ |x| < 1e21, `-0` as `0`.
pub fn write_number(out: &mut String, x: f64) {
    if x.is_nan() {
        out.push_str("NaN");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "Infinity" } else { "-Infinity" });
        return;
    }
    if x == 0.0 {
        out.push('0');
        return;
    }
    if x == x.trunc() && x.abs() < 1e15 {
        // Fast path for whole numbers, the common case.
        let _ = write!(out, "{}", x as i64);
        return;
    }
    if x < 0.0 {
        out.push('-');
    }
    // Rust's `{:e}` prints the shortest round-trip digits: `d[.ddd]e[-]N`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    let k = digits.len() as i32;
    let n = exp + 1;
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if n > 0 { '+' } else { '-' });
        let _ = write!(out, "{}", (n - 1).abs());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_display_like_javascript() {
        let cases: &[(f64, &str)] = &[
            (2.0, "2"),
            (2.4, "2.4"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1753035300000.0, "1753035300000"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (1e-6, "0.000001"),
            (123e18, "123000000000000000000"),
            (-0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (-2.5, "-2.5"),
            (21428.571428571428, "21428.571428571428"),
            (1e15, "1000000000000000"),
            (1.2345e25, "1.2345e+25"),
        ];
        for (x, want) in cases {
            assert_eq!(format_number(*x), *want, "{x:?}");
        }
    }
}
