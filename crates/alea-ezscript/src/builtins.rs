//! Built-in functions (spec §6) and the number parsing they share with text properties.

use crate::value::Value;

/// A built-in function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Builtin {
    Now,
    Round,
    Min,
    Max,
    AsNumber,
    AsInteger,
    AsString,
    Sqrt,
    Cbrt,
    Exp,
    Ln,
    Log10,
    Log2,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Hypot,
    DegToRad,
    RadToDeg,
}

const TABLE: &[(&str, Builtin)] = &[
    ("now", Builtin::Now),
    ("round", Builtin::Round),
    ("min", Builtin::Min),
    ("max", Builtin::Max),
    ("asNumber", Builtin::AsNumber),
    ("asInteger", Builtin::AsInteger),
    ("asString", Builtin::AsString),
    ("sqrt", Builtin::Sqrt),
    ("cbrt", Builtin::Cbrt),
    ("exp", Builtin::Exp),
    ("ln", Builtin::Ln),
    ("log10", Builtin::Log10),
    ("log2", Builtin::Log2),
    ("sin", Builtin::Sin),
    ("cos", Builtin::Cos),
    ("tan", Builtin::Tan),
    ("asin", Builtin::Asin),
    ("acos", Builtin::Acos),
    ("atan", Builtin::Atan),
    ("hypot", Builtin::Hypot),
    ("degToRad", Builtin::DegToRad),
    ("radToDeg", Builtin::RadToDeg),
];

/// Every built-in function name, for documentation and completion.
pub fn names() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|(n, _)| *n)
}

impl Builtin {
    /// The built-in called `name`.
    pub fn by_name(name: &str) -> Option<Builtin> {
        TABLE.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        TABLE
            .iter()
            .find(|(_, b)| *b == self)
            .map_or("?", |(n, _)| n)
    }

    /// Calls it. `now` is the host's clock.
    pub fn call(self, args: &[Value], now: Option<f64>) -> Result<Value, String> {
        let name = self.name();
        let arity = |n: usize| -> Result<(), String> {
            if args.len() == n {
                Ok(())
            } else {
                Err(format!("{name} expects {}, got {}", plural(n), args.len()))
            }
        };
        let num = |i: usize| -> Result<f64, String> {
            match &args[i] {
                Value::Number(x) => Ok(*x),
                v => Err(format!("{name} needs a number, got {}", v.type_name())),
            }
        };
        use Builtin::*;
        let x = match self {
            Now => {
                arity(0)?;
                return now
                    .map(Value::Number)
                    .ok_or_else(|| "now() is not available here".to_string());
            }
            Min | Max => return min_max(self == Min, name, args),
            AsNumber => {
                arity(1)?;
                return as_number(&args[0]).map(Value::Number);
            }
            AsInteger => {
                arity(1)?;
                return as_number(&args[0]).map(|x| Value::Number(x.trunc()));
            }
            AsString => {
                arity(1)?;
                return Ok(Value::from(args[0].display()));
            }
            Hypot => {
                arity(2)?;
                return Ok(Value::Number(num(0)?.hypot(num(1)?)));
            }
            _ => {
                arity(1)?;
                num(0)?
            }
        };
        let y = match self {
            Round => return round_checked(x).map(Value::Number),
            Sqrt => x.sqrt(),
            Cbrt => x.cbrt(),
            Exp => x.exp(),
            Ln => x.ln(),
            Log10 => x.log10(),
            Log2 => x.log2(),
            Sin => x.sin(),
            Cos => x.cos(),
            Tan => x.tan(),
            Asin => x.asin(),
            Acos => x.acos(),
            Atan => x.atan(),
            DegToRad => x * std::f64::consts::PI / 180.0,
            RadToDeg => x * 180.0 / std::f64::consts::PI,
            _ => unreachable_value(),
        };
        Ok(Value::Number(y))
    }
}

fn unreachable_value() -> f64 {
    f64::NAN
}

/// `1 argument`, `2 arguments`.
pub fn plural(n: usize) -> String {
    if n == 1 {
        "1 argument".to_string()
    } else {
        format!("{n} arguments")
    }
}

fn min_max(is_min: bool, name: &str, args: &[Value]) -> Result<Value, String> {
    let items: &[Value] = match args {
        [Value::List(items)] => items,
        _ => args,
    };
    if items.is_empty() {
        return Err(format!("{name} needs at least one number"));
    }
    let mut best = f64::NAN;
    let mut first = true;
    let mut nan = false;
    for v in items {
        let Value::Number(x) = v else {
            return Err(format!("{name} needs numbers, got {}", v.type_name()));
        };
        if x.is_nan() {
            nan = true;
        }
        if first || (is_min && *x < best) || (!is_min && *x > best) {
            best = *x;
        }
        first = false;
    }
    Ok(Value::Number(if nan { f64::NAN } else { best }))
}

/// `Cannot convert NaN to an integer` for non-finite numbers.
pub fn integer_checked(x: f64) -> Result<f64, String> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!(
            "Cannot convert {} to an integer",
            crate::value::format_number(x)
        ))
    }
}

/// Rounds halves away from zero; fails on NaN and infinities.
pub fn round_checked(x: f64) -> Result<f64, String> {
    integer_checked(x).map(f64::round)
}

/// `asNumber`: numbers as they are, texts parsed (§2 syntax after trimming, optional sign),
/// bools 1/0.
pub fn as_number(v: &Value) -> Result<f64, String> {
    match v {
        Value::Number(x) => Ok(*x),
        Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        Value::Text(s) => {
            parse_number(s).ok_or_else(|| format!("Cannot convert \"{s}\" to a number"))
        }
        other => Err(format!("Cannot convert {} to a number", other.type_name())),
    }
}

/// Parses `[+-]digits[.digits][(e|E)[+-]digits]` after trimming whitespace.
pub fn parse_number(s: &str) -> Option<f64> {
    let t = s.trim();
    let b = t.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let from = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - from
    };
    if digits(&mut i) == 0 {
        return None;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        i += 1;
        if i < b.len() && matches!(b[i], b'+' | b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    t.parse().ok()
}
