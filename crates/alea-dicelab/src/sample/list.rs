//! Evaluation of the nodes that append their members to an output buffer.

use super::cx::{
    Cx, R, append, check_len_ahead, compact_cmp, extreme, fold_cmp_short, push_dice, select,
};
use super::node::{L, S};
use crate::ast::{Aggregate, Reorder};
use crate::ops;
use crate::roll::MAX_WHILE_ITERATIONS;
use alea_core::Span;

impl L {
    /// Single values are pushed in the caller, the rest goes to [`L::eval_node`].
    #[inline(always)]
    pub(crate) fn eval<const P: bool>(&mut self, cx: &mut Cx, out: &mut Vec<i32>) -> R<()> {
        match self {
            L::Scalar(s, span) => {
                let v = s.eval::<P>(cx)?;
                out.push(v);
                cx.check_len(out.len(), *span)
            }
            // `n#dK` in the fast mode (a loop body's `(count <6 x)#d6`), without a call.
            L::RepeatDice { n, k, span, many } if !P => {
                let n = n.eval::<P>(cx)?.max(0) as usize;
                cx.check_len(out.len().saturating_add(n), *span)?;
                cx.add::<P>(2 * n as u64, *span)?;
                push_dice(cx.rng, out, n, *k, *many);
                Ok(())
            }
            // `n#e` with a single-value `e` (a loop body's `(count <1 x)#(d6/6)`) in the fast
            // mode: a small function of its own, without `eval_node`'s prologue and dispatch.
            L::RepeatScalar {
                n,
                body,
                per,
                span,
                body_span,
            } if !P => repeat_scalar::<P>(cx, out, n, body, *per, *span, *body_span),
            _ => self.eval_node::<P>(cx, out),
        }
    }

    fn eval_node<const P: bool>(&mut self, cx: &mut Cx, out: &mut Vec<i32>) -> R<()> {
        match self {
            L::Scalar(..) => self.eval::<P>(cx, out),
            L::Var { slot, span } => {
                cx.own::<P>(1, *span)?;
                let len = out.len() + cx.env[*slot].len();
                cx.check_len(len, *span)?;
                append(out, &cx.env[*slot]);
                Ok(())
            }
            L::Unknown { span, name } => {
                cx.own::<P>(1, *span)?;
                Err(cx.fail(ops::unknown_variable(*span, name)))
            }
            L::Empty => Ok(()),
            L::RepeatDice { n, k, span, many } => {
                let n = n.eval::<P>(cx)?.max(0) as usize;
                cx.check_len(out.len().saturating_add(n), *span)?;
                cx.add::<P>(2 * n as u64, *span)?;
                push_dice(cx.rng, out, n, *k, *many);
                Ok(())
            }
            L::Repeat { n, body, per, span } => {
                let n = n.eval::<P>(cx)?.max(0) as u64;
                cx.ahead::<P>(n.saturating_mul(*per), *span)?;
                for _ in 0..n {
                    cx.own::<P>(1, *span)?;
                    body.eval::<P>(cx, out)?;
                }
                Ok(())
            }
            L::RepeatScalar {
                n,
                body,
                per,
                span,
                body_span,
            } => repeat_scalar::<P>(cx, out, n, body, *per, *span, *body_span),
            L::Range { lo, hi, span } => {
                let a = lo.eval::<P>(cx)?;
                let b = hi.eval::<P>(cx)?;
                if a <= b {
                    let n = (i64::from(b) - i64::from(a) + 1) as usize;
                    cx.check_len(out.len().saturating_add(n), *span)?;
                    cx.add::<P>(n as u64 / 16, *span)?;
                    out.extend(a..=b);
                }
                Ok(())
            }
            L::List(items) => {
                for item in items {
                    item.eval::<P>(cx, out)?;
                }
                Ok(())
            }
            L::Reorder(op, a) => {
                let start = out.len();
                a.eval::<P>(cx, out)?;
                let tail = &mut out[start..];
                match op {
                    Reorder::Perm => cx.rng.shuffle(tail),
                    Reorder::Sort => tail.sort_unstable(),
                    Reorder::Rev => tail.reverse(),
                }
                Ok(())
            }
            L::FilterCmp { cmp, x, list } => {
                let k = x.eval::<P>(cx)?;
                let start = out.len();
                list.eval::<P>(cx, out)?;
                // One member (an extreme, a die): one test instead of the filter's loop.
                if out.len() == start + 1 {
                    if !cmp.keeps(out[start], k) {
                        out.pop();
                    }
                } else {
                    compact_cmp(out, start, *cmp, k);
                }
                Ok(())
            }
            L::FilterSel {
                sel,
                drop,
                k,
                list,
                buf,
                scratch,
                span,
                sel_span,
                ordered,
            } => {
                let k = k.eval::<P>(cx)?;
                if k < 0 {
                    return Err(cx.fail(ops::negative_count(*sel_span, *sel, k)));
                }
                // Into an empty output (a binding's value, an extreme's or a fold's list) the
                // selection is made in place, without the copy through `buf`.
                if out.is_empty() {
                    list.eval::<P>(cx, out)?;
                    select(*sel, *drop, k as usize, out, scratch, *ordered);
                } else {
                    buf.clear();
                    list.eval::<P>(cx, buf)?;
                    select(*sel, *drop, k as usize, buf, scratch, *ordered);
                    append(out, buf);
                }
                cx.check_len(out.len(), *span)
            }
            L::Extreme {
                largest,
                list,
                buf,
                span,
                one_span,
            } => {
                // The steps of `FilterSel` with the count 1: the count, then the list.
                cx.own::<P>(1, *one_span)?;
                if let Some(v) = list.extreme::<P>(cx, *largest, buf)? {
                    out.push(v);
                }
                cx.check_len(out.len(), *span)
            }
            L::CmpExtreme {
                cmp,
                x,
                largest,
                list,
                buf,
                span,
                one_span,
            } => {
                let k = x.eval::<P>(cx)?;
                // The steps and the length check of `L::Extreme`, whose member the filter
                // would then drop or keep.
                cx.own::<P>(1, *one_span)?;
                let v = list.extreme::<P>(cx, *largest, buf)?;
                cx.check_len(out.len() + usize::from(v.is_some()), *span)?;
                if let Some(v) = v
                    && cmp.keeps(v, k)
                {
                    out.push(v);
                }
                Ok(())
            }
            L::If {
                cond,
                buf,
                then,
                then_cost,
                other,
                other_cost,
                span,
            } => {
                // `if >0 x`: whether any member passes, without a list.
                let taken = if let L::FilterCmp { cmp, x, list } = &mut **cond
                    && let L::Var { slot, span } = **list
                {
                    let x = x.eval::<P>(cx)?;
                    cx.own::<P>(1, span)?;
                    fold_cmp_short(Aggregate::Count, *cmp, x, &cx.env[slot]) > 0
                } else {
                    buf.clear();
                    cond.eval::<P>(cx, buf)?;
                    !buf.is_empty()
                };
                cx.own::<P>(1, *span)?;
                if taken {
                    cx.ahead::<P>(*then_cost, *span)?;
                    then.eval::<P>(cx, out)
                } else {
                    cx.ahead::<P>(*other_cost, *span)?;
                    other.eval::<P>(cx, out)
                }
            }
            L::Let {
                slot,
                value,
                buf,
                body,
            } => {
                // The value may use this depth's buffer for its own bindings: evaluate it
                // aside, then bind it.
                buf.clear();
                value.eval::<P>(cx, buf)?;
                std::mem::swap(buf, &mut cx.env[*slot]);
                body.eval::<P>(cx, out)
            }
            L::Foreach {
                slot,
                list,
                members,
                body,
                per,
                span,
            } => foreach::<P>(cx, out, *slot, list, members, body, *per, *span),
            L::While {
                slot,
                init,
                next,
                body,
                per,
                span,
            } => {
                next.clear();
                init.eval::<P>(cx, next)?;
                std::mem::swap(next, &mut cx.env[*slot]);
                let mut iterations = 0u64;
                while !cx.env[*slot].is_empty() {
                    let len = out.len() + cx.env[*slot].len();
                    cx.check_len(len, *span)?;
                    let current = &cx.env[*slot];
                    // One member (the commonest, `x = d6`) is a push, not a copy call.
                    match current[..] {
                        [v] => out.push(v),
                        _ => out.extend_from_slice(current),
                    }
                    iterations += 1;
                    if iterations > MAX_WHILE_ITERATIONS {
                        return Err(cx.fail(ops::while_iterations(*span, MAX_WHILE_ITERATIONS)));
                    }
                    cx.ahead::<P>(*per, *span)?;
                    cx.own::<P>(1, *span)?;
                    next.clear();
                    body.eval::<P>(cx, next)?;
                    std::mem::swap(next, &mut cx.env[*slot]);
                }
                Ok(())
            }
        }
    }
}

impl L {
    /// The extreme member of this list (`high 1`/`low 1`): a bound variable is read in
    /// place (its one step charged as [`L::Var`] does), anything else evaluated into `buf`.
    #[inline(always)]
    pub(crate) fn extreme<const P: bool>(
        &mut self,
        cx: &mut Cx,
        largest: bool,
        buf: &mut Vec<i32>,
    ) -> R<Option<i32>> {
        if let L::Var { slot, span } = *self {
            cx.own::<P>(1, span)?;
            return Ok(extreme(!largest, &cx.env[slot]));
        }
        buf.clear();
        self.eval::<P>(cx, buf)?;
        Ok(extreme(!largest, buf))
    }
}

/// `foreach`, out of line: its loop's constants do not weigh on every other node's call of
/// [`L::eval_node`] (the prologue of a function holding the loop keeps them in registers).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn foreach<const P: bool>(
    cx: &mut Cx,
    out: &mut Vec<i32>,
    slot: usize,
    list: &mut L,
    members: &mut Vec<i32>,
    body: &mut L,
    per: u64,
    span: Span,
) -> R<()> {
    members.clear();
    list.eval::<P>(cx, members)?;
    // The fast mode charges every member's body ahead at once (the count stays at
    // or above the true count; a failing member may then make the roll a rerun).
    let all = per.saturating_mul(members.len() as u64);
    cx.ahead::<P>(all, span)?;
    for &m in members.iter() {
        cx.own::<P>(1, span)?;
        let bound = &mut cx.env[slot];
        bound.clear();
        bound.push(m);
        body.eval::<P>(cx, out)?;
    }
    Ok(())
}

/// `n#e` with a single-value `e` ([`L::RepeatScalar`]), out of line: the fast mode calls it
/// from [`L::eval`] directly, without `eval_node`'s prologue and dispatch.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn repeat_scalar<const P: bool>(
    cx: &mut Cx,
    out: &mut Vec<i32>,
    n: &mut S,
    body: &mut S,
    per: u64,
    span: Span,
    body_span: Span,
) -> R<()> {
    let n = n.eval::<P>(cx)?.max(0) as usize;
    cx.ahead::<P>((n as u64).saturating_mul(per), span)?;
    // The roller checks the length after each push; past the limit it fails at the latest
    // on the last one.
    check_len_ahead::<P>(out.len().saturating_add(n))?;
    for _ in 0..n {
        cx.own::<P>(1, span)?;
        let v = body.eval::<P>(cx)?;
        out.push(v);
        if P {
            cx.check_len(out.len(), body_span)?;
        }
    }
    Ok(())
}
