//! Properties, methods and indexing (spec §5.4 and §7): numbers and every value's `toString`
//! here; texts in `text.rs`, lists in `list.rs`.

use crate::builtins::{as_number, integer_checked, plural};
use crate::format;
use crate::host::MemberKind;
use crate::interp::{Interp, R, fail};
use crate::value::{Value, format_number};
use alea_core::Span;
use std::rc::Rc;

/// Number properties (besides the formatters of `format::FORMAT_PROPERTIES`).
const NUMBER_PROPERTIES: &[&str] = &[
    "round",
    "ceil",
    "floor",
    "toInt",
    "abs",
    "toDouble",
    "toString",
    "isEven",
    "isOdd",
    "isFinite",
    "isInfinite",
    "isNaN",
];

/// Text properties.
pub const TEXT_PROPERTIES: &[&str] = &[
    "isEmpty",
    "isNotEmpty",
    "count",
    "length",
    "toUpperCase",
    "toLowerCase",
    "toSentenceCase",
    "toNumber",
    "toInt",
    "toString",
];

/// Text methods.
pub const TEXT_METHODS: &[&str] = &[
    "contains",
    "startsWith",
    "endsWith",
    "indexOf",
    "replace",
    "replaceAll",
    "substring",
    "slice",
    "split",
    "strip",
];

/// List properties.
pub const LIST_PROPERTIES: &[&str] = &[
    "isEmpty",
    "isNotEmpty",
    "count",
    "length",
    "first",
    "last",
    "toString",
];

/// List methods.
pub const LIST_METHODS: &[&str] = &[
    "map",
    "flatMap",
    "where",
    "sort",
    "take",
    "skip",
    "takeFirstWhere",
    "takeLastWhere",
    "reverse",
    "reduce",
    "join",
    "zip",
];

/// Which built-in member `name` of `v` is, if any.
fn builtin_kind(v: &Value, name: &str) -> Option<MemberKind> {
    let (props, methods): (&[&str], &[&str]) = match v {
        Value::Number(_) => {
            if format::FORMAT_PROPERTIES.contains(&name) {
                return Some(MemberKind::Property);
            }
            (NUMBER_PROPERTIES, &[])
        }
        Value::Text(_) => (TEXT_PROPERTIES, TEXT_METHODS),
        Value::List(_) => (LIST_PROPERTIES, LIST_METHODS),
        _ => (&["toString"], &[]),
    };
    if props.contains(&name) {
        Some(MemberKind::Property)
    } else if methods.contains(&name) {
        Some(MemberKind::Method)
    } else {
        None
    }
}

fn missing<T>(v: &Value, name: &str, span: Span) -> R<T> {
    fail(
        format!(
            "Attempted to access missing element {name} on {}",
            v.type_name()
        ),
        span,
    )
}

fn is_property_msg(name: &str) -> String {
    format!("{name} is a property; write it without parentheses")
}

fn is_method_msg(name: &str) -> String {
    format!("{name} is a method; write it with parentheses")
}

/// A whole-number list index in range.
pub fn list_index(key: &Value, len: usize) -> Result<usize, String> {
    let Value::Number(x) = key else {
        return Err(format!(
            "A list index must be a whole number, got {}",
            key.type_name()
        ));
    };
    if *x != x.trunc() {
        return Err(format!(
            "A list index must be a whole number, got {}",
            format_number(*x)
        ));
    }
    if *x < 0.0 || *x >= len as f64 {
        return Err(format!(
            "Index {} is out of range for a list of length {len}",
            format_number(*x)
        ));
    }
    Ok(*x as usize)
}

/// A count argument: truncated toward zero, negatives act as 0.
pub fn count_arg(v: &Value, method: &str) -> Result<usize, String> {
    match v {
        Value::Number(x) if x.is_nan() => Ok(0),
        Value::Number(x) => Ok(x.trunc().max(0.0).min(u32::MAX as f64) as usize),
        other => Err(format!(
            "{method} needs a number, got {}",
            other.type_name()
        )),
    }
}

/// Checks a method's argument count: between `min` and `max`.
pub fn arity(name: &str, args: &[Value], min: usize, max: usize) -> Result<(), String> {
    let n = args.len();
    if n >= min && n <= max {
        return Ok(());
    }
    Err(if min == max {
        format!("{name} expects {}, got {n}", plural(min))
    } else if n < min {
        format!("{name} expects at least {}, got {n}", plural(min))
    } else {
        format!("{name} expects at most {}, got {n}", plural(max))
    })
}

impl Interp<'_> {
    /// `recv.name` without parentheses.
    pub fn member(&mut self, recv: &Value, name: &str, span: Span) -> R<Value> {
        match recv {
            Value::Object(map) => {
                return match map.get(name) {
                    Some(v) => Ok(v.clone()),
                    None if name == "toString" => Ok(self.display(recv, span)?.into()),
                    None => missing(recv, name, span),
                };
            }
            Value::Host(h) => {
                return match h.property(name) {
                    Some(r) => r.or_else(|e| fail(e, span)),
                    None if name == "toString" => Ok(Value::from(h.display())),
                    None if h.has_method(name) => fail(is_method_msg(name), span),
                    None => missing(recv, name, span),
                };
            }
            _ => {}
        }
        match builtin_kind(recv, name) {
            Some(MemberKind::Property) => {}
            Some(MemberKind::Method) => return fail(is_method_msg(name), span),
            None => {
                return match self.host.member_kind(recv, name) {
                    Some(MemberKind::Property) => self
                        .host
                        .member(recv, name, None)
                        .or_else(|e| fail(e, span)),
                    Some(MemberKind::Method) => fail(is_method_msg(name), span),
                    None => missing(recv, name, span),
                };
            }
        }
        if name == "toString" {
            return Ok(Value::from(self.display(recv, span)?));
        }
        match recv {
            Value::Number(x) => self.number_property(*x, name, span),
            Value::Text(s) => self.text_property(s, name, span),
            Value::List(items) => self.list_property(items, name, span),
            _ => missing(recv, name, span),
        }
    }

    /// `recv.name(args)`.
    pub fn method(&mut self, recv: Value, name: &str, args: Vec<Value>, span: Span) -> R<Value> {
        match &recv {
            Value::Object(map) => {
                return match map.get(name) {
                    Some(Value::Function(f)) => {
                        let f = f.clone();
                        self.call(&f, &args, span)
                    }
                    Some(other) => fail(format!("Cannot call {}", other.type_name()), span),
                    None if name == "toString" => fail(is_property_msg(name), span),
                    None => missing(&recv, name, span),
                };
            }
            Value::Host(h) => {
                return match h.method(name, &args) {
                    Some(r) => r.or_else(|e| fail(e, span)),
                    None if name == "toString" || h.property(name).is_some() => {
                        fail(is_property_msg(name), span)
                    }
                    None => missing(&recv, name, span),
                };
            }
            _ => {}
        }
        match builtin_kind(&recv, name) {
            Some(MemberKind::Method) => {}
            Some(MemberKind::Property) => return fail(is_property_msg(name), span),
            None => {
                return match self.host.member_kind(&recv, name) {
                    Some(MemberKind::Method) => self
                        .host
                        .member(&recv, name, Some(&args))
                        .or_else(|e| fail(e, span)),
                    Some(MemberKind::Property) => fail(is_property_msg(name), span),
                    None => missing(&recv, name, span),
                };
            }
        }
        match recv {
            Value::Text(s) => self.text_method(&s, name, &args, span),
            Value::List(items) => self.list_method(items, name, &args, span),
            _ => missing(&recv, name, span),
        }
    }

    /// `recv[key]`.
    pub fn index(&mut self, recv: &Value, key: &Value, span: Span) -> R<Value> {
        match recv {
            Value::List(items) => {
                let i = list_index(key, items.len()).or_else(|e| fail(e, span))?;
                Ok(items[i].clone())
            }
            Value::Object(map) => {
                let Value::Text(k) = key else {
                    return fail(
                        format!("An object key must be text, got {}", key.type_name()),
                        span,
                    );
                };
                match map.get(k.as_str()) {
                    Some(v) => Ok(v.clone()),
                    None => missing(recv, k, span),
                }
            }
            Value::Host(h) => {
                let Value::Text(k) = key else {
                    return fail(
                        format!("Cannot index {} with a number", h.type_name()),
                        span,
                    );
                };
                match h.property(k) {
                    Some(r) => r.or_else(|e| fail(e, span)),
                    None => missing(recv, k, span),
                }
            }
            other => fail(format!("Cannot index {}", other.type_name()), span),
        }
    }

    fn number_property(&mut self, x: f64, name: &str, span: Span) -> R<Value> {
        let int = |f: fn(f64) -> f64| -> R<Value> {
            integer_checked(x)
                .map(|x| Value::Number(f(x)))
                .or_else(|e| fail(e, span))
        };
        let whole = x.is_finite() && x == x.trunc();
        Ok(match name {
            "round" => return int(f64::round),
            "ceil" => return int(f64::ceil),
            "floor" => return int(f64::floor),
            "toInt" => return int(f64::trunc),
            "abs" => Value::Number(x.abs()),
            "toDouble" => Value::Number(x),
            "isEven" => Value::Bool(whole && x.rem_euclid(2.0) == 0.0),
            "isOdd" => Value::Bool(whole && x.rem_euclid(2.0) == 1.0),
            "isFinite" => Value::Bool(x.is_finite()),
            "isInfinite" => Value::Bool(x.is_infinite()),
            "isNaN" => Value::Bool(x.is_nan()),
            _ => {
                if !x.is_finite() {
                    return fail("Cannot format a non-finite number", span);
                }
                let now = self.host.now().unwrap_or(0.0);
                match format::apply(self.formatter, name, x, now) {
                    Some(Ok(s)) => Value::from(s),
                    Some(Err(e)) => return fail(e, span),
                    None => return missing(&Value::Number(x), name, span),
                }
            }
        })
    }

    /// Calls a callback with exactly `args`, paying one step for the call.
    pub fn callback(&mut self, f: &Value, args: &[Value], span: Span) -> R<Value> {
        self.burn(1, span)?;
        match f {
            Value::Function(f) => {
                let f: Rc<_> = f.clone();
                self.call(&f, args, span)
            }
            other => fail(
                format!("Expected a function, got {}", other.type_name()),
                span,
            ),
        }
    }
}

/// `asNumber` for text properties.
pub fn text_to_number(s: &str) -> Result<f64, String> {
    as_number(&Value::text(s))
}
