//! The reads of every binding of a statement, found in one pass before evaluation, for the
//! plans of `faces.rs` and `classes.rs`.
//!
//! A read's slot names its binder (the binder at that depth of the scope, see
//! [`crate::ast`]), so one walk of the statement with the scope at hand assigns every read
//! to its `let`. Searching each `let`'s whole body for its reads instead made planning
//! quadratic in the nesting (a 9,990-deep `let` chain took 13 s).

use super::marks::node_key;
use crate::ast::{Binding, Expr, ExprKind};
use std::collections::{HashMap, HashSet};

pub(crate) struct Uses<'a> {
    /// The reads of each `let`'s variable in its body (by the `let`'s node key), in the
    /// order of a left-to-right walk of the body.
    reads: HashMap<usize, Vec<&'a Expr>>,
    /// The parent of every node below the root (by node key).
    parent: HashMap<usize, &'a Expr>,
    /// Every `let` of the statement, in the order of the walk.
    lets: Vec<&'a Expr>,
}

impl<'a> Uses<'a> {
    /// One walk of `root` (iterative: statements may nest thousands deep).
    pub(crate) fn of(root: &'a Expr) -> Uses<'a> {
        let mut reads: HashMap<usize, Vec<&'a Expr>> = HashMap::new();
        let mut parent = HashMap::new();
        let mut lets = Vec::new();
        // The binder of each slot in scope at the node being visited.
        let mut scope: Vec<&'a Expr> = Vec::new();
        // (node, the scope's depth above it, the binder whose body it is).
        let mut stack: Vec<(&'a Expr, usize, Option<&'a Expr>)> = vec![(root, 0, None)];
        while let Some((e, depth, binder)) = stack.pop() {
            scope.truncate(depth);
            scope.extend(binder);
            if let ExprKind::Var(v) = &e.kind
                && let Some(b) = v.slot.and_then(|s| scope.get(s as usize))
                && matches!(b.kind, ExprKind::Let { .. })
            {
                reads.entry(node_key(b)).or_default().push(e);
            }
            if matches!(e.kind, ExprKind::Let { .. }) {
                lets.push(e);
            }
            let depth = scope.len();
            let body = match &e.kind {
                ExprKind::Let { body, .. }
                | ExprKind::Foreach { body, .. }
                | ExprKind::While { body, .. } => Some(&**body),
                _ => None,
            };
            // Reversed, so that children are visited left to right.
            for c in e.children().into_iter().rev() {
                parent.insert(node_key(c), e);
                let binds = body.is_some_and(|b| std::ptr::eq(b, c));
                stack.push((c, depth, binds.then_some(e)));
            }
        }
        Uses {
            reads,
            parent,
            lets,
        }
    }

    /// Every `let` whose value has dice (is not in `deterministic`), with its binding and body:
    /// the ones the plans look at.
    pub(crate) fn random_lets<'s>(
        &'s self,
        deterministic: &'s HashSet<usize>,
    ) -> impl Iterator<Item = (&'a Expr, &'a Binding, &'a Expr)> + 's {
        self.lets.iter().filter_map(move |&e| match &e.kind {
            ExprKind::Let { var, value, body } if !deterministic.contains(&node_key(value)) => {
                Some((e, var, &**body))
            }
            _ => None,
        })
    }

    /// The path from `body` (the body of the `let` `e`) down to each read of its variable,
    /// both ends included, in the order of a left-to-right walk of the body.
    pub(crate) fn paths(&self, e: &Expr, body: &'a Expr) -> Vec<Vec<&'a Expr>> {
        let Some(reads) = self.reads.get(&node_key(e)) else {
            return Vec::new();
        };
        reads
            .iter()
            .map(|&r| {
                let mut path = vec![r];
                let mut at = r;
                while !std::ptr::eq(at, body) {
                    at = self.parent[&node_key(at)];
                    path.push(at);
                }
                path.reverse();
                path
            })
            .collect()
    }
}
