//! Assignment: plain, compound, into list and object paths, appending to a text. (The loops
//! are jumps in the flat code, `vm.rs`.)
//!
//! A child of `interp` rather than a sibling because assignment writes frames directly (slots,
//! boxed cells, captured variables), which the rest of the crate must not reach.

use super::{Closure, Interp, R, Slot, fail};
use crate::code::AssignInfo;
use crate::host::Global;
use crate::ir::*;
use crate::value::Value;
use alea_core::Span;
use std::borrow::Cow;
use std::rc::Rc;

impl Interp<'_> {
    /// `s += v` where local `s` holds a text: appends in place when the slot holds the only
    /// reference (otherwise copies once), so building a text piece by piece is linear. Pays one
    /// step per 64 bytes created, like [`Interp::text`].
    pub(super) fn append_to_local(&mut self, slot: u32, rhs: &Value, span: Span) -> R<()> {
        let add = match rhs {
            Value::Text(t) => Cow::Borrowed(t.as_str()),
            other => Cow::Owned(self.display(other, span)?),
        };
        let i = self.base + slot as usize;
        let Slot::Val(Value::Text(s)) = &self.stack[i] else {
            return fail("internal: not a text slot", span);
        };
        let (old, new) = (s.len(), s.len() + add.len());
        let too_long =
            new > self.limits.text && s.chars().count() + add.chars().count() > self.limits.text;
        // A shared text is copied whole before the append.
        let copied = if Rc::strong_count(s) > 1 { old } else { 0 };
        self.burn((new / 64 - old / 64) as u64, span)?;
        if too_long {
            return fail("Text is too long", span);
        }
        self.alloc(copied + add.len(), span)?;
        if let Slot::Val(Value::Text(s)) = &mut self.stack[i] {
            Rc::make_mut(s).push_str(&add);
        }
        Ok(())
    }

    /// The general assignment `info` of `rhs`, with the values of its index steps (in order).
    pub(super) fn assign(
        &mut self,
        info: &AssignInfo,
        index_values: Vec<Value>,
        rhs: Value,
        span: Span,
    ) -> R<()> {
        let AssignInfo {
            var,
            name,
            name_span,
            op,
            path,
        } = info;
        let (name_span, op) = (*name_span, *op);
        let mut index_values = index_values.into_iter();
        let keys: Vec<(Value, Span)> = path
            .iter()
            .map(|(k, s)| match k {
                Some(k) => (Value::text(k), *s),
                None => (index_values.next().unwrap_or_default(), *s),
            })
            .collect();
        if self.forbid_locals.is_some() {
            return fail("Tournament values are read-only", span);
        }
        // The current value of the root, if any.
        let current = match var {
            Var::Local(slot) => match &self.stack[self.base + *slot as usize] {
                Slot::Val(v) => Some(v.clone()),
                Slot::Cell(c) => c.borrow().clone(),
                Slot::Unset => None,
            },
            Var::Upval(i) => match self.closure.as_deref() {
                Some(Closure::User { captures, .. }) => captures[*i as usize].borrow().clone(),
                _ => None,
            },
            Var::Missing => None,
        };
        let Some(mut root) = current else {
            let host_knows = !matches!(self.host.global(name), Global::Unknown);
            if path.is_empty() && op.is_none() {
                // `=` on an unset local declares it.
                self.write_var(var, rhs);
                return Ok(());
            }
            let msg = match (path.is_empty(), host_knows) {
                (true, true) => format!("Cannot update {name}: tournament values are read-only"),
                (true, false) => format!("Cannot update {name}: it has no value yet"),
                (false, true) => "Tournament values are read-only".to_string(),
                (false, false) => format!("Unknown name {name}"),
            };
            return fail(msg, name_span);
        };
        let new_value = match op {
            None => rhs,
            Some(op) => {
                let mut cur = root.clone();
                for (k, s) in &keys {
                    cur = self.index(&cur, k, *s)?;
                }
                self.apply(op, cur, rhs, span)?
            }
        };
        if keys.is_empty() {
            self.write_var(var, new_value);
            return Ok(());
        }
        // Take the root out of its slot so the copy-on-write below does not clone it.
        self.write_var(var, Value::Nothing);
        let result = self.write_path(&mut root, &keys, new_value);
        self.write_var(var, root);
        result
    }

    fn write_var(&mut self, var: &Var, v: Value) {
        match var {
            Var::Local(slot) => self.store(*slot, v),
            Var::Upval(i) => {
                if let Some(Closure::User { captures, .. }) = self.closure.as_deref() {
                    *captures[*i as usize].borrow_mut() = Some(v);
                }
            }
            Var::Missing => {}
        }
    }

    fn write_path(&mut self, target: &mut Value, keys: &[(Value, Span)], v: Value) -> R<()> {
        let ((key, span), rest) = keys.split_first().expect("a key");
        let span = *span;
        match target {
            Value::List(items) => {
                let i = crate::members::list_index(key, items.len()).or_else(|e| fail(e, span))?;
                if Rc::strong_count(items) > 1 {
                    // Copy on write: a new list.
                    self.alloc_items(items.len(), span)?;
                }
                let items = Rc::make_mut(items);
                if rest.is_empty() {
                    items[i] = v;
                    Ok(())
                } else {
                    self.write_path(&mut items[i], rest, v)
                }
            }
            Value::Object(map) => {
                let Value::Text(k) = key else {
                    return fail(
                        format!("An object key must be text, got {}", key.type_name()),
                        span,
                    );
                };
                let k = k.as_str();
                if rest.is_empty() {
                    if !map.contains_key(k) {
                        self.check_object(map.len() + 1, span)?;
                        Rc::make_mut(map).insert(Rc::from(k), v);
                    } else if let Some(slot) = Rc::make_mut(map).get_mut(k) {
                        *slot = v;
                    }
                    return Ok(());
                }
                match Rc::make_mut(map).get_mut(k) {
                    Some(inner) => self.write_path(inner, rest, v),
                    None => fail(
                        format!("Attempted to access missing element {k} on Map"),
                        span,
                    ),
                }
            }
            Value::Host(_) => fail("Tournament values are read-only", span),
            other => fail(format!("Cannot index {}", other.type_name()), span),
        }
    }
}
