//! Where a roll that builds a list longer than [`MAX_LIST_LEN`] fails, so that calc reports
//! roll mode's error (issue 16: same span, same text, [`ops::list_too_long`]).
//!
//! The roller appends every value to one shared buffer and checks its length at each append
//! (`sample/oracle.rs`, `check_len`): the error is at the node whose append crosses the
//! limit, which depends on how much the buffer already held. Calc knows the longest value of
//! each part; given the room left before a node (`room`: how many values still fit), the
//! static shape of the node tells which of its descendants crosses in the longest roll.
//! Where the shape does not say (a part of unknown length followed by others), the part
//! itself is named: calc then reports a node that encloses the roller's.

use crate::ast::{Expr, ExprKind};
use crate::ops;
use crate::roll::MAX_LIST_LEN;
use alea_core::{Diagnostic, Span};

/// Roll mode's list-length error for a roll whose output of `e` crosses the limit with
/// `room` values left before it.
pub(crate) fn too_long(e: &Expr, room: usize) -> Box<Diagnostic> {
    ops::list_too_long(crossing(e, room), MAX_LIST_LEN)
}

/// The same for `n#body` with `n` copies crossing the limit, each copy `per_copy` values long
/// when that is known.
pub(crate) fn repeat_too_long(
    e: &Expr,
    body: &Expr,
    per_copy: Option<usize>,
    room: usize,
) -> Box<Diagnostic> {
    ops::list_too_long(repeat_crossing(e, body, per_copy, room), MAX_LIST_LEN)
}

/// `n#dK` (a literal K ≥ 1) checks the whole count before any die, at the `#` node (the
/// roller's fast path); any other body is evaluated copy by copy, and the copy after the
/// last whole one that fits crosses.
fn repeat_crossing(e: &Expr, body: &Expr, per_copy: Option<usize>, room: usize) -> Span {
    if let ExprKind::Die(size) = &body.kind
        && let ExprKind::Number(k) = size.kind
        && k >= 1
    {
        return e.span;
    }
    match per_copy {
        Some(l) if l > 0 => crossing(body, room % l),
        _ => crossing(body, room),
    }
}

fn crossing(e: &Expr, room: usize) -> Span {
    use ExprKind::*;
    match &e.kind {
        Repeat { body, .. } => repeat_crossing(e, body, static_len(body), room),
        List(items) => {
            let mut room = room;
            for item in items {
                match static_len(item) {
                    Some(l) if l <= room => room -= l,
                    _ => return crossing(item, room),
                }
            }
            e.span
        }
        // These append their inner list to the same buffer.
        Reorder(_, a) => crossing(a, room),
        Filter { selector, list, .. } if selector.is_comparison() => crossing(list, room),
        Let { body, .. } | Foreach { body, .. } => crossing(body, room),
        // Values, ranges, variables, count filters and `while` append at their own node.
        _ => e.span,
    }
}

/// The length of every value of `e`, when its shape fixes it.
fn static_len(e: &Expr) -> Option<usize> {
    use ExprKind::*;
    // A variable may hold a list.
    if e.is_scalar_class() && !matches!(e.kind, Var(_)) {
        return Some(1);
    }
    match &e.kind {
        Empty => Some(0),
        Range { lo, hi, .. } => match (&lo.kind, &hi.kind) {
            (Number(a), Number(b)) => Some((i64::from(*b) - i64::from(*a) + 1).max(0) as usize),
            _ => None,
        },
        Repeat { count, body, .. } => match count.kind {
            Number(n) => static_len(body)?.checked_mul(n.max(0) as usize),
            _ => None,
        },
        List(items) => items
            .iter()
            .try_fold(0usize, |acc, i| acc.checked_add(static_len(i)?)),
        Reorder(_, a) => static_len(a),
        _ => None,
    }
}
