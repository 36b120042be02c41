//! Order marks (dicelab.md §5.1): which bindings are used order-sensitively.
//!
//! A node is *unordered* when only the multiset of its value can matter to the statement's
//! result: the statement root, the operands of `sum prod count sort perm` and the `if`
//! condition; `first`/`last` make their list operand ordered; other children inherit. The
//! evaluator reads the mark of a node from its caller; this pass only answers the question it
//! cannot answer locally: is a `let`/`while` binding used anywhere in an ordered position?

use crate::ast::{Expr, ExprKind, Selector};
use std::collections::HashMap;

/// For each `let`/`while` node (by address), whether some use of its variable is ordered.
pub(crate) type BindingOrder = HashMap<usize, bool>;

pub(crate) fn node_key(e: &Expr) -> usize {
    e as *const Expr as usize
}

/// Computes [`BindingOrder`] for a statement whose root is unordered.
pub(crate) fn binding_order(root: &Expr) -> BindingOrder {
    let mut out = BindingOrder::new();
    // Scope: for each binding depth, the key of the binding node (None for `foreach`, whose
    // variable is a single value).
    let mut scope: Vec<Option<usize>> = Vec::new();
    walk(root, false, &mut scope, &mut out);
    out
}

fn walk(e: &Expr, ordered: bool, scope: &mut Vec<Option<usize>>, out: &mut BindingOrder) {
    use ExprKind::*;
    match &e.kind {
        Number(_) | Empty => {}
        Var(v) => {
            if ordered
                && let Some(slot) = v.slot
                && let Some(Some(key)) = scope.get(slot as usize)
            {
                out.insert(*key, true);
            }
        }
        Neg(a) | Die(a) => walk(a, ordered, scope, out),
        Binary { lhs, rhs, .. } => {
            walk(lhs, ordered, scope, out);
            walk(rhs, ordered, scope, out);
        }
        Aggregate(_, a) => walk(a, false, scope, out),
        Reorder(r, a) => {
            let inner = match r {
                crate::ast::Reorder::Rev => ordered,
                _ => false,
            };
            walk(a, inner, scope, out);
        }
        Repeat { count, body, .. } => {
            walk(count, ordered, scope, out);
            walk(body, ordered, scope, out);
        }
        Range { lo, hi, .. } => {
            walk(lo, ordered, scope, out);
            walk(hi, ordered, scope, out);
        }
        List(items) => {
            for i in items {
                walk(i, ordered, scope, out);
            }
        }
        Filter {
            selector, n, list, ..
        } => {
            let positional = matches!(selector, Selector::First | Selector::Last);
            walk(n, if positional { false } else { ordered }, scope, out);
            walk(list, positional || ordered, scope, out);
        }
        If {
            cond,
            then_branch,
            else_branch,
        } => {
            walk(cond, false, scope, out);
            walk(then_branch, ordered, scope, out);
            walk(else_branch, ordered, scope, out);
        }
        Let { value, body, .. } => {
            let key = node_key(e);
            out.entry(key).or_insert(false);
            scope.push(Some(key));
            walk(body, ordered, scope, out);
            scope.pop();
            let value_ordered = out[&key];
            walk(value, value_ordered, scope, out);
        }
        While { init, body, .. } => {
            // The pieces become the variable, so they keep their order when the variable is
            // used in order (vector 25); the body is walked twice only if that changes.
            let key = node_key(e);
            out.entry(key).or_insert(false);
            scope.push(Some(key));
            walk(body, ordered, scope, out);
            let value_ordered = ordered || out[&key];
            if value_ordered && !ordered {
                walk(body, true, scope, out);
            }
            scope.pop();
            walk(init, value_ordered, scope, out);
        }
        Foreach { list, body, .. } => {
            walk(list, ordered, scope, out);
            scope.push(None);
            walk(body, ordered, scope, out);
            scope.pop();
        }
    }
}
