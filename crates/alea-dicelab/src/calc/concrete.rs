//! Subexpressions without randomness, evaluated by the one concrete evaluator.
//!
//! Bound variables always hold concrete values, so a subtree without `d` or `perm` has one
//! possible value. Calc computes it with the sampler's compiled form of the subtree
//! ([`Fixed`], compiled once per node) instead of through one-outcome distributions: that is
//! what makes `let x = 7#d10 in high 1 (foreach y in 1..10 do sum (==y x))` fast (the body
//! runs once per multiset of x with plain list operations), and its errors and limits are
//! those of roll mode, at the same span with the same text.

use super::eval::{Calc, R, Val, limit};
use super::marks::node_key;
use super::reads::SingleReads;
use crate::ast::{self, Expr, ExprKind};
use crate::sample::fixed::Fixed;
use std::collections::{HashMap, HashSet};

/// A deterministic node: how many bindings enclose it, and its compiled form once needed.
pub(crate) struct Part {
    depth: u32,
    fixed: Option<Box<Fixed>>,
}

/// The deterministic nodes of a statement (by node key): those whose subtree has no `d` and
/// no `perm`, nor a read of a single-read binding with dice (which calc may evaluate in
/// place, see `reads.rs`).
pub(crate) fn deterministic_nodes(root: &Expr, reads: &SingleReads<'_>) -> HashMap<usize, Part> {
    let mut out = HashMap::new();
    mark(root, 0, reads, &mut out);
    out
}

fn mark(e: &Expr, depth: u32, reads: &SingleReads<'_>, out: &mut HashMap<usize, Part>) -> bool {
    use ExprKind::*;
    let mut det = match &e.kind {
        Die(_) | Reorder(ast::Reorder::Perm, _) => false,
        // The value is marked first (a `let`'s children are its value, then its body).
        Var(_) => reads
            .vars
            .get(&node_key(e))
            .is_none_or(|(_, value)| out.contains_key(&node_key(value))),
        _ => true,
    };
    match &e.kind {
        Let { value, body, .. }
        | While {
            init: value, body, ..
        }
        | Foreach {
            list: value, body, ..
        } => {
            det &= mark(value, depth, reads, out);
            det &= mark(body, depth + 1, reads, out);
        }
        _ => {
            for c in e.children() {
                det &= mark(c, depth, reads, out);
            }
        }
    }
    if det {
        out.insert(node_key(e), Part { depth, fixed: None });
    }
    det
}

/// The nodes that contain (or are) a node whose value `faces.rs` or `classes.rs` may fix
/// ([`Calc::overrides`]): their compiled form would not see the fixed value.
pub(crate) fn overridable<'e>(
    root: &Expr,
    fixed: impl IntoIterator<Item = &'e Expr>,
) -> HashSet<usize> {
    let targets: HashSet<usize> = fixed.into_iter().map(node_key).collect();
    let mut out = HashSet::new();
    if !targets.is_empty() {
        contains(root, &targets, &mut out);
    }
    out
}

fn contains(e: &Expr, targets: &HashSet<usize>, out: &mut HashSet<usize>) -> bool {
    let mut any = targets.contains(&node_key(e));
    for c in e.children() {
        any |= contains(c, targets, out);
    }
    if any {
        out.insert(node_key(e));
    }
    any
}

impl Calc<'_> {
    /// Whether `e` is evaluated by its compiled form: it has no randomness, and no node in it
    /// may stand for a value fixed while a body is evaluated (the general path honours those).
    pub(crate) fn is_concrete(&self, e: &Expr) -> bool {
        let key = node_key(e);
        self.deterministic.contains(&key)
            && (self.overrides.is_empty() || !self.overridable.contains(&key))
    }

    /// The value of `e` when [`Calc::is_concrete`] (else `None`), sorted unless `ordered`; it
    /// is cut when a variable the subtree reads is (a binding holding a cut value marks its
    /// whole body cut anyway, see `with_cut` in `eval.rs`). The steps the evaluation took, and
    /// the values copied into it, are charged to the budget.
    pub(crate) fn concrete(&mut self, e: &Expr, ordered: bool) -> Option<R<Val>> {
        if !self.is_concrete(e) {
            return None;
        }
        // A number or `()` is its value at the one step charged for any part, without an
        // error: compiling it would allocate an environment as deep as its scope (a part each
        // in a 9,990-deep `let a = d2 in …` chain made that quadratic).
        let leaf = match e.kind {
            ExprKind::Number(n) => Some(Val::one(n, false)),
            ExprKind::Empty => Some(Val::list(vec![])),
            _ => None,
        };
        if let Some(v) = leaf {
            let charged = self
                .budget
                .burn(1, "evaluation")
                .map_err(limit(e.span, "evaluation"));
            return Some(charged.map(|()| v));
        }
        let Calc {
            parts, env, budget, ..
        } = self;
        let part = parts.get_mut(&node_key(e))?;
        let fixed = part
            .fixed
            .get_or_insert_with(|| Box::new(Fixed::new(e, part.depth as usize)));
        let mut cut = false;
        let mut copied = 0u64;
        for &s in fixed.free() {
            let val = env.get(s)?;
            cut |= val.cut();
            copied += val.items().len() as u64;
        }
        let v = fixed.eval(|s| env[s].items()).map(|items| {
            if ordered || items.len() < 2 {
                Val::from_slice(items, cut)
            } else {
                let mut items = items.to_vec();
                items.sort_unstable();
                Val::new(items, cut)
            }
        });
        let steps = fixed.steps().max(1).saturating_add(copied);
        // The evaluation's own error (a limit of roll mode) comes first.
        let charged = budget
            .burn(steps, "evaluation")
            .map_err(limit(e.span, "evaluation"));
        Some(v.and_then(|v| charged.map(|()| v)))
    }
}
