//! The containers of [`Value`]: lists ([`List`]) and objects ([`Map`]), and how they and
//! closures are freed.
//!
//! A loop can nest values as deep as the steps allow (`l = [l]` 100,000 times, or a chain of
//! closures each capturing the previous one). Rust's derived drop frees such a value by
//! recursing once per level, which overflows a default 2 MiB thread near 30,000 levels. So the
//! last owner of a list, an object or a closure frees what it owns through one explicit
//! worklist instead ([`release`]): a contained container whose count would reach zero is
//! unwrapped (`Rc::into_inner`) and its items join the worklist, so native stack stays
//! constant whatever the depth. Containers that are still shared elsewhere are only
//! decremented, as before.

use crate::interp::Closure;
use crate::value::Value;
use indexmap::IndexMap;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::rc::Rc;

/// The items of a list value: a `Vec<Value>` (it derefs to one) that is freed without
/// recursion.
#[derive(Clone, Default)]
pub struct List(Vec<Value>);

/// The keys and values of an object, in insertion order: an `IndexMap` (it derefs to one) that
/// is freed without recursion.
#[derive(Clone, Default)]
pub struct Map(IndexMap<Rc<str>, Value>);

impl List {
    /// An empty list.
    pub fn new() -> List {
        List(Vec::new())
    }

    /// The items, taken out of the list.
    pub fn into_vec(mut self) -> Vec<Value> {
        std::mem::take(&mut self.0)
    }
}

impl Map {
    /// An empty object.
    pub fn new() -> Map {
        Map(IndexMap::new())
    }

    /// An empty object with room for `n` keys.
    pub fn with_capacity(n: usize) -> Map {
        Map(IndexMap::with_capacity(n))
    }
}

impl Deref for List {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl DerefMut for List {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        &mut self.0
    }
}

impl Deref for Map {
    type Target = IndexMap<Rc<str>, Value>;
    fn deref(&self) -> &IndexMap<Rc<str>, Value> {
        &self.0
    }
}

impl DerefMut for Map {
    fn deref_mut(&mut self) -> &mut IndexMap<Rc<str>, Value> {
        &mut self.0
    }
}

impl From<Vec<Value>> for List {
    fn from(items: Vec<Value>) -> List {
        List(items)
    }
}

impl FromIterator<Value> for List {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> List {
        List(iter.into_iter().collect())
    }
}

impl From<IndexMap<Rc<str>, Value>> for Map {
    fn from(map: IndexMap<Rc<str>, Value>) -> Map {
        Map(map)
    }
}

impl FromIterator<(Rc<str>, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (Rc<str>, Value)>>(iter: I) -> Map {
        Map(iter.into_iter().collect())
    }
}

/// Debug output is the display rule (bounded by [`crate::MAX_RENDER`]): a derived `Debug`
/// would recurse once per level and print without bound.
impl fmt::Debug for List {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Value::List(Rc::new(self.clone())).display())
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Value::Object(Rc::new(self.clone())).display())
    }
}

/// Whether dropping `v` here could free a container (so freeing it could recurse). Any
/// container counts, shared or not: a list holding the same list twice (`l = [l, l]` in a
/// loop) frees it at its second item, and the plain drop would then recurse one level per
/// link; the worklist only decrements a container that is still shared.
fn frees_a_container(v: &Value) -> bool {
    matches!(v, Value::List(_) | Value::Object(_) | Value::Function(_))
}

impl Drop for List {
    fn drop(&mut self) {
        // Lists of numbers and texts, and lists whose containers are shared, drop as usual.
        if self.0.iter().any(frees_a_container) {
            release(std::mem::take(&mut self.0));
        }
    }
}

impl Drop for Map {
    fn drop(&mut self) {
        if self.0.values().any(frees_a_container) {
            release(self.0.drain(..).map(|(_, v)| v).collect());
        }
    }
}

/// Closures hold their captured variables, which can hold closures (a chain of 100,000 built
/// by `f = wrap(f)` in a loop), lists and objects. Implemented here, next to the containers'
/// drops, because it is the same worklist.
impl Drop for Closure {
    fn drop(&mut self) {
        let Closure::User { captures, .. } = self else {
            return;
        };
        // A shared cell is only decremented by `take_captures`, as a shared container is.
        let frees = |c: &crate::interp::Cell| {
            c.try_borrow()
                .is_ok_and(|v| v.as_ref().is_some_and(frees_a_container))
        };
        if captures.iter().any(frees) {
            let mut work = Vec::new();
            take_captures(captures, &mut work);
            release(work);
        }
    }
}

/// Moves the values of the captured variables only `captures` holds onto `work`.
fn take_captures(captures: &mut Vec<crate::interp::Cell>, work: &mut Vec<Value>) {
    for cell in captures.drain(..) {
        if let Some(v) = Rc::into_inner(cell).and_then(|c| c.into_inner()) {
            work.push(v);
        }
    }
}

/// Frees `work` without recursion: each container whose last owner is the worklist is
/// unwrapped and its contents pushed, so it is dropped empty (its own `Drop` then has nothing
/// to do); a shared one is only decremented.
fn release(mut work: Vec<Value>) {
    while let Some(v) = work.pop() {
        match v {
            Value::List(l) => {
                if let Some(mut l) = Rc::into_inner(l) {
                    work.append(&mut l.0);
                }
            }
            Value::Object(m) => {
                if let Some(mut m) = Rc::into_inner(m) {
                    work.extend(m.0.drain(..).map(|(_, v)| v));
                }
            }
            Value::Function(c) => {
                if let Some(mut c) = Rc::into_inner(c)
                    && let Closure::User { captures, .. } = &mut c
                {
                    take_captures(captures, &mut work);
                }
            }
            _ => {}
        }
    }
}
