//! Text properties and methods (spec §7). Positions count Unicode scalar values.

use crate::interp::{Interp, R, fail};
use crate::members::{arity, text_to_number};
use crate::value::{Value, format_number};
use alea_core::Span;

fn text_arg<'v>(method: &str, v: &'v Value) -> Result<&'v str, String> {
    match v {
        Value::Text(s) => Ok(s),
        other => Err(format!("{method} needs a text, got {}", other.type_name())),
    }
}

fn position_arg(method: &str, v: &Value) -> Result<f64, String> {
    match v {
        Value::Number(x) if x.is_nan() => Ok(0.0),
        Value::Number(x) => Ok(x.trunc()),
        other => Err(format!(
            "{method} needs a number, got {}",
            other.type_name()
        )),
    }
}

/// Byte offset of the `n`-th character (or the end).
fn byte_at(s: &str, n: usize) -> usize {
    s.char_indices().nth(n).map_or(s.len(), |(i, _)| i)
}

fn char_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

impl Interp<'_> {
    pub(crate) fn text_property(&mut self, s: &str, name: &str, span: Span) -> R<Value> {
        self.burn((s.len() / 64) as u64, span)?;
        Ok(match name {
            "isEmpty" => Value::Bool(s.is_empty()),
            "isNotEmpty" => Value::Bool(!s.is_empty()),
            "count" | "length" => Value::Number(char_len(s) as f64),
            "toUpperCase" => return self.text(s.to_uppercase(), span),
            "toLowerCase" => return self.text(s.to_lowercase(), span),
            "toSentenceCase" => {
                let mut chars = s.chars();
                let mut out = String::with_capacity(s.len());
                if let Some(c) = chars.next() {
                    out.extend(c.to_uppercase());
                    out.push_str(&chars.as_str().to_lowercase());
                }
                return self.text(out, span);
            }
            "toNumber" => Value::Number(text_to_number(s).or_else(|e| fail(e, span))?),
            "toInt" => Value::Number(text_to_number(s).or_else(|e| fail(e, span))?.trunc()),
            _ => {
                return fail(
                    format!("Attempted to access missing element {name} on String"),
                    span,
                );
            }
        })
    }

    pub(crate) fn text_method(
        &mut self,
        s: &str,
        name: &str,
        args: &[Value],
        span: Span,
    ) -> R<Value> {
        self.burn((s.len() / 64) as u64 + 1, span)?;
        let r: Result<Value, String> = (|| {
            Ok(match name {
                "contains" | "startsWith" | "endsWith" | "indexOf" => {
                    arity(name, args, 1, 1)?;
                    let t = text_arg(name, &args[0])?;
                    match name {
                        "contains" => Value::Bool(s.contains(t)),
                        "startsWith" => Value::Bool(s.starts_with(t)),
                        "endsWith" => Value::Bool(s.ends_with(t)),
                        _ => Value::Number(match s.find(t) {
                            Some(i) => char_len(&s[..i]) as f64,
                            None => -1.0,
                        }),
                    }
                }
                "replace" | "replaceAll" => {
                    arity(name, args, 2, 2)?;
                    let from = text_arg(name, &args[0])?;
                    let to = text_arg(name, &args[1])?;
                    if from.is_empty() {
                        return Err(format!("{name} cannot replace an empty text"));
                    }
                    let count = if name == "replace" {
                        1
                    } else {
                        s.matches(from).count()
                    };
                    let grown = to.len().saturating_sub(from.len()).saturating_mul(count);
                    if s.len().saturating_add(grown) > 4 * self.limits.text {
                        return Err("Text is too long".into());
                    }
                    let out = if name == "replace" {
                        s.replacen(from, to, 1)
                    } else {
                        s.replace(from, to)
                    };
                    Value::from(out)
                }
                "substring" => {
                    arity(name, args, 1, 2)?;
                    let len = char_len(s) as f64;
                    let start = position_arg(name, &args[0])?;
                    let end = match args.get(1) {
                        Some(v) => position_arg(name, v)?,
                        None => len,
                    };
                    if !(0.0 <= start && start <= end && end <= len) {
                        return Err(format!(
                            "Range {}..{} is out of bounds for text of length {}",
                            format_number(start),
                            format_number(end),
                            format_number(len)
                        ));
                    }
                    let a = byte_at(s, start as usize);
                    let b = byte_at(s, end as usize);
                    Value::text(&s[a..b])
                }
                "slice" => {
                    arity(name, args, 1, 2)?;
                    let len = char_len(s) as f64;
                    let fix = |x: f64| {
                        let x = if x < 0.0 { len + x } else { x };
                        x.clamp(0.0, len)
                    };
                    let start = fix(position_arg(name, &args[0])?);
                    let end = match args.get(1) {
                        Some(v) => fix(position_arg(name, v)?),
                        None => len,
                    };
                    if start >= end {
                        Value::text("")
                    } else {
                        let a = byte_at(s, start as usize);
                        let b = byte_at(s, end as usize);
                        Value::text(&s[a..b])
                    }
                }
                "split" => {
                    arity(name, args, 1, 1)?;
                    let sep = text_arg(name, &args[0])?;
                    let pieces: Vec<Value> = if sep.is_empty() {
                        s.chars().map(|c| Value::from(c.to_string())).collect()
                    } else {
                        s.split(sep).map(Value::text).collect()
                    };
                    if pieces.len() > self.limits.list {
                        return Err("List is too long".into());
                    }
                    Value::list(pieces)
                }
                "strip" => {
                    arity(name, args, 0, 1)?;
                    match args.first() {
                        None => Value::text(s.trim()),
                        Some(v) => {
                            let chars = text_arg(name, v)?;
                            Value::text(s.trim_matches(|c| chars.contains(c)))
                        }
                    }
                }
                _ => {
                    return Err(format!(
                        "Attempted to access missing element {name} on String"
                    ));
                }
            })
        })();
        let v = r.or_else(|e| fail(e, span))?;
        if let Value::Text(t) = &v {
            self.burn((t.len() / 64) as u64, span)?;
            if t.len() > self.limits.text && t.chars().count() > self.limits.text {
                return fail("Text is too long", span);
            }
        }
        if let Value::List(items) = &v {
            self.burn(items.len() as u64, span)?;
            self.alloc_items(items.len(), span)?;
            self.alloc(s.len(), span)?;
        }
        if let Value::Text(t) = &v {
            self.alloc(t.len(), span)?;
        }
        Ok(v)
    }
}
