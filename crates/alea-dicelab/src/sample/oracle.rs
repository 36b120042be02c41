//! The test oracle: the tree-walking roller that was the roll mode until issue 16 made the
//! compiled evaluator the only one. It is kept, for tests only, as an independent and plainly
//! written reading of dicelab.md §3 (every node visited in order, every step counted as it
//! happens) that the compiled evaluator must match roll by roll: same value or same error
//! (span and text), same draws.

use crate::ast::{self, Expr, ExprKind, Statement};
use crate::ops::{self, Operand};
use alea_core::{Rng, Span};

use super::cx::compact;
use crate::roll::{MAX_LIST_LEN, MAX_STEPS, MAX_WHILE_ITERATIONS, RollError};

/// Evaluates statements by sampling. Keep one `Oracle` per thread and reuse it: it holds the
/// environment and the recycled buffers.
#[derive(Debug, Default)]
pub struct Oracle {
    env: Vec<Vec<i32>>,
    pool: Vec<Vec<i32>>,
    steps: u64,
}

impl Oracle {
    /// A roller with empty buffers.
    pub fn new() -> Oracle {
        Oracle::default()
    }

    /// One roll of `statement` (its value, possibly `()` or a list) into `out` (cleared
    /// first), drawing from `rng`.
    pub fn roll_into(
        &mut self,
        statement: &Statement,
        rng: &mut Rng,
        out: &mut Vec<i32>,
    ) -> Result<(), RollError> {
        out.clear();
        self.env.clear();
        self.steps = 0;
        let mut cx = Cx { r: self, rng };
        let result = cx.eval_into(&statement.expr, out);
        // Return bound buffers left behind by an error.
        while let Some(v) = self.env.pop() {
            self.pool.push(v);
        }
        result
    }

    /// One roll that must be a single value or `()` (eval mode): `Ok(None)` for `()`, else the
    /// value; a longer list is `result is not a single value (list of K values)` at the
    /// statement start.
    pub fn roll_single(
        &mut self,
        statement: &Statement,
        rng: &mut Rng,
        buf: &mut Vec<i32>,
    ) -> Result<Option<i32>, RollError> {
        if statement.expr.is_scalar_class() && !matches!(statement.expr.kind, ExprKind::Var(_)) {
            self.env.clear();
            self.steps = 0;
            let mut cx = Cx { r: self, rng };
            return cx
                .scalar(&statement.expr, Operand::Neg, statement.span)
                .map(Some);
        }
        self.roll_into(statement, rng, buf)?;
        match buf.len() {
            0 => Ok(None),
            1 => Ok(Some(buf[0])),
            k => Err(ops::result_not_single(statement.span, k)),
        }
    }
}

struct Cx<'r, 'g> {
    r: &'r mut Oracle,
    rng: &'g mut Rng,
}

#[inline]
fn check_len(len: usize, span: Span) -> Result<(), RollError> {
    if len > MAX_LIST_LEN {
        return Err(ops::list_too_long(span, MAX_LIST_LEN));
    }
    Ok(())
}

impl Cx<'_, '_> {
    #[inline]
    fn step(&mut self, n: u64, span: Span) -> Result<(), RollError> {
        let before = self.r.steps;
        self.r.steps += n;
        if self.r.steps > MAX_STEPS {
            return Err(ops::step_limit(span, MAX_STEPS));
        }
        // A host's time limit (alea_core::Cancel), polled every POLL_STEPS steps.
        if alea_core::Cancel::poll(before, self.r.steps) {
            return Err(ops::cancelled(span));
        }
        Ok(())
    }

    fn take_buf(&mut self) -> Vec<i32> {
        let mut v = self.r.pool.pop().unwrap_or_default();
        v.clear();
        v
    }

    fn give_buf(&mut self, v: Vec<i32>) {
        self.r.pool.push(v);
    }

    /// A single value. `what` names the operand in the error (`left operand of '+'`), which
    /// is reported at `at` (the operator).
    fn scalar(&mut self, e: &Expr, what: Operand, at: Span) -> Result<i32, RollError> {
        use ExprKind::*;
        self.step(1, e.span)?;
        match &e.kind {
            Number(n) => Ok(*n),
            Var(v)
                if v.slot
                    .and_then(|s| self.r.env.get(s as usize))
                    .is_some_and(|value| value.len() == 1) =>
            {
                Ok(v.slot
                    .and_then(|s| self.r.env.get(s as usize))
                    .and_then(|value| value.first().copied())
                    .unwrap_or(0))
            }
            Neg(a) => Ok(self.scalar(a, Operand::Neg, e.span)?.wrapping_neg()),
            Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                let a = self.scalar(lhs, Operand::Left(*op), *op_span)?;
                let b = self.scalar(rhs, Operand::Right(*op), *op_span)?;
                ops::binary(*op, a, b).map_err(|err| ops::arithmetic(*op_span, err))
            }
            Die(a) => {
                let n = self.scalar(a, Operand::Die, e.span)?;
                if n < 1 {
                    return Err(ops::bad_die(e.span, n));
                }
                Ok(self.rng.range_inclusive(1, i64::from(n)) as i32)
            }
            Aggregate(op, a) => {
                let mut buf = self.take_buf();
                let r = self.eval_into(a, &mut buf);
                let v = ops::aggregate(*op, buf.iter().copied());
                self.give_buf(buf);
                r.map(|()| v)
            }
            _ => {
                let mut buf = self.take_buf();
                let r = self.eval_into(e, &mut buf);
                let len = buf.len();
                let first = buf.first().copied();
                self.give_buf(buf);
                r?;
                match (len, first) {
                    (1, Some(v)) => Ok(v),
                    _ => Err(ops::not_single(what, at, len)),
                }
            }
        }
    }

    fn var<'a>(&'a self, e: &Expr, v: &ast::Var) -> Result<&'a [i32], RollError> {
        match v.slot.and_then(|s| self.r.env.get(s as usize)) {
            Some(value) => Ok(value),
            None => Err(ops::unknown_variable(e.span, &v.name)),
        }
    }

    fn eval_into(&mut self, e: &Expr, out: &mut Vec<i32>) -> Result<(), RollError> {
        use ExprKind::*;
        match &e.kind {
            Number(_) | Neg(_) | Binary { .. } | Die(_) | Aggregate(..) => {
                let v = self.scalar(e, Operand::Neg, e.span)?;
                out.push(v);
                check_len(out.len(), e.span)
            }
            Var(v) => {
                self.step(1, e.span)?;
                let value = self.var(e, v)?;
                check_len(out.len() + value.len(), e.span)?;
                out.extend_from_slice(value);
                Ok(())
            }
            Empty => Ok(()),
            Repeat {
                count,
                op_span,
                body,
            } => {
                let n = self.scalar(count, Operand::Count, *op_span)?;
                // Fast path for the commonest body, `n#dK` with a literal K ≥ 1: the same
                // draws in the same order, without a recursive call per die.
                if let Die(size) = &body.kind
                    && let Number(k) = size.kind
                    && k >= 1
                {
                    let n = n.max(0) as usize;
                    check_len(out.len().saturating_add(n), e.span)?;
                    self.step(2 * n as u64, e.span)?;
                    out.reserve(n);
                    for _ in 0..n {
                        out.push(self.rng.range_inclusive(1, i64::from(k)) as i32);
                    }
                    return Ok(());
                }
                for _ in 0..n.max(0) {
                    self.step(1, e.span)?;
                    self.eval_into(body, out)?;
                }
                Ok(())
            }
            Range { lo, op_span, hi } => {
                let a = self.scalar(lo, Operand::RangeStart, *op_span)?;
                let b = self.scalar(hi, Operand::RangeEnd, *op_span)?;
                if a <= b {
                    let n = (i64::from(b) - i64::from(a) + 1) as usize;
                    check_len(out.len().saturating_add(n), e.span)?;
                    self.step(n as u64 / 16, e.span)?;
                    out.extend(a..=b);
                }
                Ok(())
            }
            List(items) => {
                for item in items {
                    self.eval_into(item, out)?;
                }
                Ok(())
            }
            Reorder(op, a) => {
                let start = out.len();
                self.eval_into(a, out)?;
                let tail = &mut out[start..];
                match op {
                    ast::Reorder::Perm => self.rng.shuffle(tail),
                    ast::Reorder::Sort => tail.sort_unstable(),
                    ast::Reorder::Rev => tail.reverse(),
                }
                Ok(())
            }
            Filter {
                drop,
                selector,
                selector_span,
                n,
                list,
            } => {
                let k = self.scalar(n, Operand::Filter(*selector), *selector_span)?;
                if !selector.is_comparison() && k < 0 {
                    return Err(ops::negative_count(*selector_span, *selector, k));
                }
                if let Some(cmp) = ops::comparison(*selector, *drop) {
                    // Filter the members in place at the end of `out`.
                    let start = out.len();
                    self.eval_into(list, out)?;
                    compact(out, start, |m| cmp.keeps(m, k));
                    return Ok(());
                }
                let mut buf = self.take_buf();
                let r = self.eval_into(list, &mut buf);
                if r.is_ok() {
                    {
                        let mut scratch = self.take_buf();
                        ops::select_count(*selector, *drop, k as usize, &mut buf, &mut scratch);
                        self.give_buf(scratch);
                    }
                    out.extend_from_slice(&buf);
                }
                self.give_buf(buf);
                r?;
                check_len(out.len(), e.span)
            }
            If {
                cond,
                then_branch,
                else_branch,
            } => {
                let mut buf = self.take_buf();
                let r = self.eval_into(cond, &mut buf);
                let taken = !buf.is_empty();
                self.give_buf(buf);
                r?;
                self.step(1, e.span)?;
                if taken {
                    self.eval_into(then_branch, out)
                } else {
                    self.eval_into(else_branch, out)
                }
            }
            Let { value, body, .. } => {
                let mut buf = self.take_buf();
                if let Err(d) = self.eval_into(value, &mut buf) {
                    self.give_buf(buf);
                    return Err(d);
                }
                self.r.env.push(buf);
                let r = self.eval_into(body, out);
                if let Some(b) = self.r.env.pop() {
                    self.give_buf(b);
                }
                r
            }
            Foreach { list, body, .. } => {
                let mut members = self.take_buf();
                if let Err(d) = self.eval_into(list, &mut members) {
                    self.give_buf(members);
                    return Err(d);
                }
                let mut r = Ok(());
                for &m in &members {
                    if let Err(d) = self.step(1, e.span) {
                        r = Err(d);
                        break;
                    }
                    let mut bound = self.take_buf();
                    bound.push(m);
                    self.r.env.push(bound);
                    r = self.eval_into(body, out);
                    if let Some(b) = self.r.env.pop() {
                        self.give_buf(b);
                    }
                    if r.is_err() {
                        break;
                    }
                }
                self.give_buf(members);
                r
            }
            While { init, body, .. } => {
                let mut current = self.take_buf();
                if let Err(d) = self.eval_into(init, &mut current) {
                    self.give_buf(current);
                    return Err(d);
                }
                let mut iterations = 0u64;
                let mut r = Ok(());
                while !current.is_empty() {
                    if let Err(d) = check_len(out.len() + current.len(), e.span) {
                        r = Err(d);
                        break;
                    }
                    out.extend_from_slice(&current);
                    iterations += 1;
                    if iterations > MAX_WHILE_ITERATIONS {
                        r = Err(ops::while_iterations(e.span, MAX_WHILE_ITERATIONS));
                        break;
                    }
                    if let Err(d) = self.step(1, e.span) {
                        r = Err(d);
                        break;
                    }
                    let mut next = self.take_buf();
                    self.r.env.push(current);
                    let step = self.eval_into(body, &mut next);
                    current = self.r.env.pop().unwrap_or_default();
                    self.give_buf(current);
                    current = next;
                    if let Err(d) = step {
                        r = Err(d);
                        break;
                    }
                }
                self.give_buf(current);
                r
            }
        }
    }
}
