//! Statements: assignment (plain, compound, into list and object paths, appending to a text)
//! and the three loops.
//!
//! A child of `interp` rather than a sibling because statements write frames directly (slots,
//! boxed cells, captured variables), which the rest of the crate must not reach; expressions
//! stay in `interp.rs`.

use super::{Closure, Flow, Interp, R, Slot, fail};
use crate::ast::BinOp;
use crate::host::Global;
use crate::ir::*;
use crate::value::Value;
use alea_core::Span;
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

/// `a op= b` on two local numbers, for both fast paths of compound assignment (the parser
/// makes only `+=`, `-=`, `*=`, `/=` and `%=`). The same results as [`super::num_op`], without
/// building a value; `rem_euclid` rather than the inlined `rem` keeps the evaluator's recursive
/// frames small (the stack guard counts them: tests/host.rs fails with `rem` here).
#[inline(always)]
fn compound(op: BinOp, a: f64, b: f64) -> f64 {
    match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => a / b,
        _ => a.rem_euclid(b),
    }
}

impl Interp<'_> {
    /// A loop body: like [`Interp::block`] but its value is not kept.
    #[inline(always)]
    fn body(&mut self, block: &Block) -> R<()> {
        self.enter_block(block);
        for stmt in &block.stmts {
            self.exec(stmt)?;
        }
        if let Some(e) = &block.tail {
            self.eval(e)?;
        }
        Ok(())
    }

    /// One pass of a `while` or C-style `for`: the pass's step, the condition, the body.
    /// False when the loop ends (condition false or `break`); `continue` goes on.
    #[inline(always)]
    fn pass(&mut self, cond: &Cond, pass_cost: u32, body: &Block, span: Span) -> R<bool> {
        self.burn(pass_cost as u64, span)?;
        if !self.condition(cond)? {
            return Ok(false);
        }
        match self.body(body) {
            Ok(()) | Err(Flow::Continue) => Ok(true),
            Err(Flow::Break) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The fastest path of assignment: `x op= number` or `x op= y` on plain local numbers
    /// ([`StmtKind::NumUpdate`]), without building the right-hand value (its node's step is
    /// still paid). `None`: not that case, nothing done.
    #[inline(always)]
    fn number_update(&mut self, stmt: &Stmt) -> Option<R<()>> {
        let StmtKind::NumUpdate {
            slot,
            op,
            rhs,
            rhs_span,
            ..
        } = &stmt.kind
        else {
            return None;
        };
        if self.forbid_locals.is_some() {
            return None;
        }
        let b = match rhs {
            Operand::Num(b) => *b,
            Operand::Local(y) => match &self.stack[self.base + *y as usize] {
                Slot::Val(Value::Number(b)) => *b,
                _ => return None,
            },
        };
        let i = self.base + *slot as usize;
        if !matches!(self.stack[i], Slot::Val(Value::Number(_))) {
            return None;
        }
        if let Err(e) = self.burn(cost::NODE as u64, *rhs_span) {
            return Some(Err(e));
        }
        if let Slot::Val(Value::Number(a)) = &mut self.stack[i] {
            *a = compound(*op, *a, b);
        }
        Some(Ok(()))
    }

    /// Runs a statement: the hot kinds (expressions, numeric updates) inline, the rest in
    /// [`Interp::exec_rest`], out of line.
    #[inline(always)]
    pub(super) fn exec(&mut self, stmt: &Stmt) -> R<()> {
        match &stmt.kind {
            StmtKind::Expr(e) => {
                self.eval(e)?;
                Ok(())
            }
            StmtKind::NumUpdate { full, .. } => match self.number_update(stmt) {
                Some(done) => done,
                None => self.exec_rest(full),
            },
            _ => self.exec_rest(stmt),
        }
    }

    #[inline(never)]
    fn exec_rest(&mut self, stmt: &Stmt) -> R<()> {
        match &stmt.kind {
            StmtKind::Expr(_) | StmtKind::NumUpdate { .. } => return self.exec(stmt),
            StmtKind::Assign {
                var,
                name,
                name_span,
                path,
                op,
                value,
            } => {
                let rhs = self.eval(value)?;
                // Fast path: `x = v` and `x op= number` on a plain local slot.
                if let (Var::Local(slot), true, None) = (var, path.is_empty(), self.forbid_locals) {
                    let cell = &mut self.stack[self.base + *slot as usize];
                    match (op, cell, &rhs) {
                        (None, s @ (Slot::Val(_) | Slot::Unset), _) => {
                            *s = Slot::Val(rhs);
                            return Ok(());
                        }
                        (
                            Some(BinOp::Add),
                            Slot::Val(Value::Text(_)),
                            Value::Text(_) | Value::Number(_) | Value::Bool(_),
                        ) => return self.append_to_local(*slot, &rhs, stmt.span),
                        (Some(op), Slot::Val(Value::Number(a)), Value::Number(b)) => {
                            *a = compound(*op, *a, *b);
                            return Ok(());
                        }
                        _ => {}
                    }
                }
                self.assign(var, name, *name_span, path, *op, rhs, stmt.span)?
            }
            StmtKind::While {
                cond,
                pass_cost,
                body,
            } => while self.pass(cond, *pass_cost, body, stmt.span)? {},
            StmtKind::ForIn {
                decls,
                index,
                item,
                list,
                body,
            } => {
                let items = match self.eval(list)? {
                    Value::List(items) => items,
                    v => {
                        return fail(
                            format!("for … in needs a List, got {}", v.type_name()),
                            list.span,
                        );
                    }
                };
                for (i, v) in items.iter().enumerate() {
                    self.burn(cost::PASS as u64, stmt.span)?;
                    for d in decls {
                        self.stack[self.base + d.slot as usize] = if d.boxed {
                            Slot::Cell(Rc::new(RefCell::new(None)))
                        } else {
                            Slot::Unset
                        };
                    }
                    if let Some(ix) = index {
                        self.store(*ix, Value::Number(i as f64));
                    }
                    self.store(*item, v.clone());
                    match self.body(body) {
                        Ok(_) | Err(Flow::Continue) => {}
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
            }
            StmtKind::ForC {
                decls,
                init,
                cond,
                pass_cost,
                update,
                body,
            } => {
                for d in decls {
                    self.stack[self.base + d.slot as usize] = if d.boxed {
                        Slot::Cell(Rc::new(RefCell::new(None)))
                    } else {
                        Slot::Unset
                    };
                }
                if let Some(init) = init {
                    self.exec(init)?;
                }
                while self.pass(cond, *pass_cost, body, stmt.span)? {
                    if let Some(update) = update {
                        self.exec(update)?;
                    }
                }
            }
            StmtKind::Break => return Err(Flow::Break),
            StmtKind::Continue => return Err(Flow::Continue),
        }
        Ok(())
    }

    /// `s += v` where local `s` holds a text: appends in place when the slot holds the only
    /// reference (otherwise copies once), so building a text piece by piece is linear. Pays one
    /// step per 64 bytes created, like [`Interp::text`].
    fn append_to_local(&mut self, slot: u32, rhs: &Value, span: Span) -> R<()> {
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

    #[allow(clippy::too_many_arguments)]
    fn assign(
        &mut self,
        var: &Var,
        name: &Name,
        name_span: Span,
        path: &[PathIr],
        op: Option<BinOp>,
        rhs: Value,
        span: Span,
    ) -> R<()> {
        let mut keys = Vec::with_capacity(path.len());
        for step in path {
            keys.push(match step {
                PathIr::Key(k, s) => (Value::text(k), *s),
                PathIr::Index(e) => (self.eval(e)?, e.span),
            });
        }
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
