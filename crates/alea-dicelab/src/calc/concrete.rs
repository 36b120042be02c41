//! Direct evaluation of subexpressions without randomness.
//!
//! Bound variables always hold concrete values, so a subtree without `d` or `perm` has one
//! possible value. Computing it directly instead of through one-outcome distributions is what
//! makes `let x = 7#d10 in high 1 (foreach y in 1..10 do sum (==y x))` fast: the body runs
//! once per multiset of x with plain list operations.

use super::eval::{Calc, MAX_LIST, R, Val, error_at};
use super::ops;
use super::reads::SingleReads;
use crate::ast::{self, Expr, ExprKind};
use crate::ops::Operand;
use alea_core::Span;
use std::collections::HashSet;

/// Longest path (pieces) of one deterministic `while`.
const MAX_PIECES: usize = 100_000;

/// The addresses of the nodes whose subtree has no `d` and no `perm`, nor a read of a
/// single-read binding with dice (which calc may evaluate in place, see `reads.rs`).
pub(crate) fn deterministic_nodes(root: &Expr, reads: &SingleReads<'_>) -> HashSet<usize> {
    let mut out = HashSet::new();
    mark(root, reads, &mut out);
    out
}

fn mark(e: &Expr, reads: &SingleReads<'_>, out: &mut HashSet<usize>) -> bool {
    let mut det = match &e.kind {
        ExprKind::Die(_) | ExprKind::Reorder(ast::Reorder::Perm, _) => false,
        // The value is marked first (a `let`'s children are its value, then its body).
        ExprKind::Var(_) => reads
            .vars
            .get(&super::marks::node_key(e))
            .is_none_or(|(_, value)| out.contains(&super::marks::node_key(value))),
        _ => true,
    };
    for c in e.children() {
        det &= mark(c, reads, out);
    }
    if det {
        out.insert(super::marks::node_key(e));
    }
    det
}

fn too_long(e: &Expr, len: usize) -> R<()> {
    if len > MAX_LIST {
        return Err(error_at(
            e.span,
            format!("list of {len} values is longer than the limit of {MAX_LIST}"),
        ));
    }
    Ok(())
}

impl Calc<'_> {
    /// Charges the steps of handling `n` values (a list built, copied, sorted or scanned), so
    /// that big lists inside loops (`foreach y in 1..1000 do count (1..10000000)`) run out of
    /// steps instead of running for minutes.
    fn charge(&mut self, e: &Expr, n: usize) -> R<()> {
        self.budget
            .burn(n as u64, "evaluation")
            .map_err(super::eval::limit(e.span, "evaluation"))
    }

    fn single(&mut self, e: &Expr, what: Operand, at: Span, cut: &mut bool) -> R<i32> {
        // Numbers and single-value variables without allocating a list.
        match &e.kind {
            ExprKind::Number(n) => return Ok(*n),
            ExprKind::Var(v) => {
                if let Some(val) = v.slot.and_then(|s| self.env.get(s as usize))
                    && let [x] = val.items()
                {
                    *cut |= val.cut();
                    return Ok(*x);
                }
            }
            _ => {}
        }
        let v = self.concrete(e, cut)?;
        match v.as_slice() {
            [x] => Ok(*x),
            other => Err(ops::not_single(what, at, other.len())),
        }
    }

    /// The value of a deterministic node; `cut` collects the cut flags of the variables read.
    pub(crate) fn concrete(&mut self, e: &Expr, cut: &mut bool) -> R<Vec<i32>> {
        use ExprKind::*;
        self.budget
            .burn(1, "evaluation")
            .map_err(super::eval::limit(e.span, "evaluation"))?;
        if !self.overrides.is_empty()
            && let Some(v) = self.overrides.get(&super::marks::node_key(e))
        {
            *cut |= v.cut();
            return Ok(v.items().to_vec());
        }
        Ok(match &e.kind {
            Number(n) => vec![*n],
            Empty => vec![],
            Var(v) => match v.slot.and_then(|s| self.env.get(s as usize)) {
                Some(val) => {
                    *cut |= val.cut();
                    let items = val.items().to_vec();
                    self.charge(e, items.len())?;
                    items
                }
                None => return Err(ops::unknown_variable(e.span, &v.name)),
            },
            Neg(a) => vec![self.single(a, Operand::Neg, e.span, cut)?.wrapping_neg()],
            Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                let a = self.single(lhs, Operand::Left(*op), *op_span, cut)?;
                let b = self.single(rhs, Operand::Right(*op), *op_span, cut)?;
                vec![ops::binary(*op, a, b).map_err(|m| error_at(*op_span, m))?]
            }
            Aggregate(agg, a) => {
                // `sum (==y x)` and friends: fold the members that pass a comparison of a
                // variable's list without building the filtered list.
                if let Filter {
                    drop,
                    selector,
                    selector_span,
                    n,
                    list,
                } = &a.kind
                    && selector.is_comparison()
                    && let Var(var) = &list.kind
                    && let Some(slot) = var.slot
                    && (slot as usize) < self.env.len()
                {
                    let k = self.single(n, Operand::Filter(*selector), *selector_span, cut)?;
                    let len = self.env[slot as usize].items().len();
                    self.charge(e, len)?;
                    let val = &self.env[slot as usize];
                    *cut |= val.cut();
                    let pass = val
                        .items()
                        .iter()
                        .copied()
                        .filter(|m| selector.compare(*m, k) != *drop);
                    return Ok(vec![crate::ops::aggregate(*agg, pass)]);
                }
                let v = self.concrete(a, cut)?;
                vec![crate::ops::aggregate(*agg, v)]
            }
            Repeat {
                count,
                op_span,
                body,
            } => {
                let n = self.single(count, Operand::Count, *op_span, cut)?;
                let n = n.max(0) as usize;
                let v = if n > 0 {
                    self.concrete(body, cut)?
                } else {
                    vec![]
                };
                too_long(e, n.saturating_mul(v.len()))?;
                self.charge(e, n * v.len())?;
                v.repeat(n)
            }
            Range { lo, op_span, hi } => {
                let a = self.single(lo, Operand::RangeStart, *op_span, cut)?;
                let b = self.single(hi, Operand::RangeEnd, *op_span, cut)?;
                let len = (i64::from(b) - i64::from(a) + 1).max(0) as usize;
                too_long(e, len)?;
                self.charge(e, len)?;
                (a..=b).collect()
            }
            List(items) => {
                let mut out = Vec::new();
                for i in items {
                    let part = self.concrete(i, cut)?;
                    self.charge(e, part.len())?;
                    out.extend(part);
                    too_long(e, out.len())?;
                }
                out
            }
            Reorder(r, a) => {
                let mut v = self.concrete(a, cut)?;
                self.charge(e, v.len())?;
                match r {
                    ast::Reorder::Sort => v.sort_unstable(),
                    ast::Reorder::Rev => v.reverse(),
                    ast::Reorder::Perm => unreachable!("perm is not deterministic"),
                }
                v
            }
            Filter {
                drop,
                selector,
                selector_span,
                n,
                list,
            } => {
                let k = self.single(n, Operand::Filter(*selector), *selector_span, cut)?;
                // The count is checked before the list is evaluated, as the roller does.
                if !selector.is_comparison() && k < 0 {
                    return Err(ops::negative_count(*selector_span, *selector, k));
                }
                let l = self.concrete(list, cut)?;
                self.charge(e, l.len())?;
                ops::filter(*selector, *drop, k, &l).map_err(|m| error_at(*selector_span, m))?
            }
            If {
                cond,
                then_branch,
                else_branch,
            } => {
                if self.concrete(cond, cut)?.is_empty() {
                    self.concrete(else_branch, cut)?
                } else {
                    self.concrete(then_branch, cut)?
                }
            }
            Let { value, body, .. } => {
                let mut vcut = false;
                let v = self.concrete(value, &mut vcut)?;
                *cut |= vcut;
                self.env.push(Val::new(v, vcut));
                let r = self.concrete(body, cut);
                self.env.pop();
                r?
            }
            Foreach { list, body, .. } => {
                let l = self.concrete(list, cut)?;
                let mut out = Vec::new();
                for x in l {
                    self.env.push(Val::new(vec![x], false));
                    let r = self.concrete(body, cut);
                    self.env.pop();
                    let part = r?;
                    self.charge(e, part.len())?;
                    out.extend(part);
                    too_long(e, out.len())?;
                }
                out
            }
            While { init, body, .. } => {
                // One path of probability 1: never cut, so it runs until a piece is empty.
                let mut piece = self.concrete(init, cut)?;
                let mut out = Vec::new();
                let mut pieces = 0usize;
                while !piece.is_empty() {
                    self.charge(e, piece.len())?;
                    out.extend_from_slice(&piece);
                    too_long(e, out.len())?;
                    pieces += 1;
                    if pieces >= MAX_PIECES {
                        return Err(error_at(
                            e.span,
                            format!("'while' path longer than {MAX_PIECES} pieces"),
                        ));
                    }
                    self.env.push(Val::new(piece, false));
                    let r = self.concrete(body, cut);
                    self.env.pop();
                    piece = r?;
                }
                out
            }
            Die(_) => unreachable!("d is not deterministic"),
        })
    }
}
