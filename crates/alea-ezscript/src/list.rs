//! List properties and methods (spec §7). Every item visited or created costs one step;
//! callbacks get exactly the arguments the spec shows.

use crate::interp::{Interp, R, fail};
use crate::members::{arity, count_arg};
use crate::value::{List, Value};
use alea_core::Span;
use std::cmp::Ordering;
use std::rc::Rc;

fn empty<T>(span: Span) -> R<T> {
    fail("No element: the list is empty", span)
}

fn need_bool(v: Value, span: Span) -> R<bool> {
    match v {
        Value::Bool(b) => Ok(b),
        _ => fail("Callback must return true or false", span),
    }
}

/// Orders sort keys: numbers by value (`-0` = `0`, NaN last), texts by scalar values.
fn key_order(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.is_nan(), y.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        },
        (Value::Text(x), Value::Text(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

impl Interp<'_> {
    pub(crate) fn list_property(&mut self, items: &Rc<List>, name: &str, span: Span) -> R<Value> {
        Ok(match name {
            "isEmpty" => Value::Bool(items.is_empty()),
            "isNotEmpty" => Value::Bool(!items.is_empty()),
            "count" | "length" => Value::Number(items.len() as f64),
            "first" => match items.first() {
                Some(v) => v.clone(),
                None => return empty(span),
            },
            "last" => match items.last() {
                Some(v) => v.clone(),
                None => return empty(span),
            },
            _ => {
                return fail(
                    format!("Attempted to access missing element {name} on List"),
                    span,
                );
            }
        })
    }

    pub(crate) fn list_method(
        &mut self,
        items: Rc<List>,
        name: &str,
        args: &[Value],
        span: Span,
    ) -> R<Value> {
        let v = self.list_method_inner(items, name, args, span)?;
        if let Value::List(out) = &v {
            // The new list's memory (a `reduce` may return an existing list: counted again,
            // a conservative bound).
            self.alloc_items(out.len(), span)?;
        }
        Ok(v)
    }

    fn list_method_inner(
        &mut self,
        items: Rc<List>,
        name: &str,
        args: &[Value],
        span: Span,
    ) -> R<Value> {
        let check = |min, max| arity(name, args, min, max).or_else(|e| fail(e, span));
        let count = |v: &Value| count_arg(v, name).or_else(|e| fail(e, span));
        match name {
            "map" => {
                check(1, 1)?;
                let mut out = Vec::with_capacity(items.len());
                for x in items.iter() {
                    out.push(self.callback(&args[0], std::slice::from_ref(x), span)?);
                }
                Ok(Value::list(out))
            }
            "flatMap" => {
                check(1, 1)?;
                let mut out = Vec::new();
                for x in items.iter() {
                    match self.callback(&args[0], std::slice::from_ref(x), span)? {
                        Value::List(inner) => {
                            self.burn(inner.len() as u64, span)?;
                            self.check_list(out.len() + inner.len(), span)?;
                            out.extend(inner.iter().cloned());
                        }
                        other => {
                            self.check_list(out.len() + 1, span)?;
                            out.push(other);
                        }
                    }
                }
                Ok(Value::list(out))
            }
            "where" => {
                check(1, 1)?;
                let mut out = Vec::new();
                for x in items.iter() {
                    let keep = self.callback(&args[0], std::slice::from_ref(x), span)?;
                    if need_bool(keep, span)? {
                        out.push(x.clone());
                    }
                }
                Ok(Value::list(out))
            }
            "sort" => {
                check(0, 1)?;
                let mut keyed: Vec<(Value, Value)> = Vec::with_capacity(items.len());
                for x in items.iter() {
                    let key = match args.first() {
                        Some(f) => self.callback(f, std::slice::from_ref(x), span)?,
                        None => {
                            self.burn(1, span)?;
                            x.clone()
                        }
                    };
                    keyed.push((key, x.clone()));
                }
                if let Some((first, _)) = keyed.first() {
                    let kind = first.type_name().to_string();
                    if !matches!(first, Value::Number(_) | Value::Text(_)) {
                        return fail(format!("Cannot sort values of type {kind}"), span);
                    }
                    for (k, _) in &keyed {
                        if std::mem::discriminant(k) != std::mem::discriminant(first) {
                            return fail(
                                format!(
                                    "Cannot sort a list that mixes {kind} and {}",
                                    k.type_name()
                                ),
                                span,
                            );
                        }
                    }
                }
                let n = keyed.len() as u64;
                self.burn(n * (64 - n.leading_zeros() as u64), span)?;
                keyed.sort_by(|a, b| key_order(&a.0, &b.0));
                Ok(Value::list(keyed.into_iter().map(|(_, v)| v).collect()))
            }
            "take" | "skip" => {
                check(1, 1)?;
                let n = count(&args[0])?.min(items.len());
                let part = if name == "take" {
                    &items[..n]
                } else {
                    &items[n..]
                };
                self.burn(part.len() as u64, span)?;
                Ok(Value::list(part.to_vec()))
            }
            "takeFirstWhere" | "takeLastWhere" => {
                check(2, 2)?;
                let n = count(&args[0])?;
                let mut out = Vec::new();
                let mut visit = |this: &mut Self, x: &Value| -> R<bool> {
                    if out.len() >= n {
                        return Ok(false);
                    }
                    let keep = this.callback(&args[1], std::slice::from_ref(x), span)?;
                    if need_bool(keep, span)? {
                        out.push(x.clone());
                    }
                    Ok(true)
                };
                if name == "takeFirstWhere" {
                    for x in items.iter() {
                        if !visit(self, x)? {
                            break;
                        }
                    }
                } else {
                    for x in items.iter().rev() {
                        if !visit(self, x)? {
                            break;
                        }
                    }
                    out.reverse();
                }
                Ok(Value::list(out))
            }
            "reverse" => {
                check(0, 0)?;
                self.burn(items.len() as u64, span)?;
                Ok(Value::list(items.iter().rev().cloned().collect()))
            }
            "reduce" => {
                check(1, 2)?;
                let mut iter = items.iter();
                let mut acc = match args.get(1) {
                    Some(init) => init.clone(),
                    None => match iter.next() {
                        Some(x) => x.clone(),
                        None => return empty(span),
                    },
                };
                for x in iter {
                    acc = self.callback(&args[0], &[acc, x.clone()], span)?;
                }
                Ok(acc)
            }
            "join" => {
                check(0, 2)?;
                let text = |v: Option<&Value>, default: &str| -> R<Rc<str>> {
                    match v {
                        None => Ok(Rc::from(default)),
                        Some(Value::Text(s)) => Ok(Rc::from(s.as_str())),
                        Some(other) => fail(
                            format!("join needs a text separator, got {}", other.type_name()),
                            span,
                        ),
                    }
                };
                let sep = text(args.first(), "")?;
                let last_sep = match args.get(1) {
                    Some(v) => text(Some(v), "")?,
                    None => sep.clone(),
                };
                let mut out = String::new();
                let n = items.len();
                for (i, x) in items.iter().enumerate() {
                    self.burn(1, span)?;
                    if i > 0 {
                        out.push_str(if i == n - 1 { &last_sep } else { &sep });
                    }
                    let piece = self.display(x, span)?;
                    out.push_str(&piece);
                    if out.len() > 4 * self.limits.text {
                        return fail("Text is too long", span);
                    }
                }
                self.text(out, span)
            }
            "zip" => {
                let (lists, combine) = match args.split_last() {
                    Some((Value::Function(_), rest)) => (rest, args.last()),
                    _ => (args, None),
                };
                let mut others = Vec::with_capacity(lists.len());
                for l in lists {
                    match l {
                        Value::List(l) => others.push(l.clone()),
                        other => {
                            return fail(
                                format!("zip needs lists, got {}", other.type_name()),
                                span,
                            );
                        }
                    }
                }
                let n = others.iter().map(|l| l.len()).fold(items.len(), usize::min);
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    self.burn(1, span)?;
                    let mut row = Vec::with_capacity(others.len() + 1);
                    row.push(items[i].clone());
                    row.extend(others.iter().map(|l| l[i].clone()));
                    out.push(match combine {
                        Some(f) => self.callback(f, &row, span)?,
                        None => Value::list(row),
                    });
                }
                Ok(Value::list(out))
            }
            _ => fail(
                format!("Attempted to access missing element {name} on List"),
                span,
            ),
        }
    }
}
