//! Bindings read at most once: `let x = e in f` where `f` reads `x` at most once, and not
//! inside a loop (`#`, `foreach` or `while` body) of `f`.
//!
//! Dice are independent everywhere except through variables, so such a binding's value is
//! distributed exactly as `e` evaluated where `x` is read (or nowhere): the one read *is* the
//! value's only observation. Calc then evaluates `e` in place, with the mark (ordered or not)
//! of the read, instead of conditioning the whole body on every value of `x`:
//! `let x = 20#d10 in first 1 x` is one die (the order statistics of position, as for
//! `first 1 20#d10`), not 10^20 sequences. `eval.rs` decides per evaluation whether to read in
//! place (the value evaluates without an error or a cut path first, so errors and the
//! truncated mass stay those of the binding).

use super::marks::node_key;
use crate::ast::{Expr, ExprKind, Selector};
use std::collections::HashMap;

/// The reads of single-read bindings: for each such `Var` node (by key), the `let` node's key
/// and its value expression; and the keys of every single-read `let` (read once or never).
/// `positional` holds the `let`s read two or more times, every read the list of a
/// `first`/`last` (or their `drop`) outside any loop, with each read's selector: when the value
/// is `n#die` and the positions the reads keep are disjoint, the reads observe different dice,
/// so each is read in place as well (`eval.rs` decides per evaluation); their `Var` nodes are in
/// `vars` too.
#[derive(Default)]
pub(crate) struct SingleReads<'a> {
    pub vars: HashMap<usize, (usize, &'a Expr)>,
    pub lets: HashMap<usize, &'a Expr>,
    pub positional: HashMap<usize, Vec<PositionalRead<'a>>>,
}

/// A read `[drop] first|last n x` of a binding.
#[derive(Clone, Copy)]
pub(crate) struct PositionalRead<'a> {
    pub last: bool,
    pub drop: bool,
    pub n: &'a Expr,
}

/// Finds the single-read bindings of a statement.
pub(crate) fn single_reads(root: &Expr) -> SingleReads<'_> {
    // For each binding depth: the `let` (key, value) or None for `foreach`/`while`, and the
    // loop depth at the binding.
    let mut scope: Vec<(Option<(usize, &Expr)>, u32)> = Vec::new();
    // Per `let`: its reads (var key) and whether one is inside a loop of its body.
    let mut uses: HashMap<usize, (&Expr, Vec<usize>, bool)> = HashMap::new();
    let mut positional: HashMap<usize, PositionalRead<'_>> = HashMap::new();
    walk(root, 0, &mut scope, &mut uses, &mut positional);
    let mut out = SingleReads::default();
    for (let_key, (value, reads, in_loop)) in uses {
        if in_loop {
            continue;
        }
        if reads.len() > 1 {
            let Some(p) = reads
                .iter()
                .map(|r| positional.get(r).copied())
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            out.positional.insert(let_key, p);
        } else {
            out.lets.insert(let_key, value);
        }
        for r in reads {
            out.vars.insert(r, (let_key, value));
        }
    }
    out
}

type Uses<'a> = HashMap<usize, (&'a Expr, Vec<usize>, bool)>;

fn walk<'a>(
    e: &'a Expr,
    loops: u32,
    scope: &mut Vec<(Option<(usize, &'a Expr)>, u32)>,
    uses: &mut Uses<'a>,
    positional: &mut HashMap<usize, PositionalRead<'a>>,
) {
    use ExprKind::*;
    if let Filter {
        drop,
        selector: selector @ (Selector::First | Selector::Last),
        n,
        list,
        ..
    } = &e.kind
        && matches!(list.kind, Var(_))
    {
        positional.insert(
            node_key(list),
            PositionalRead {
                last: *selector == Selector::Last,
                drop: *drop,
                n,
            },
        );
    }
    match &e.kind {
        Var(v) => {
            if let Some(slot) = v.slot
                && let Some((Some((key, _)), depth)) = scope.get(slot as usize)
                && let Some(u) = uses.get_mut(key)
            {
                u.1.push(node_key(e));
                u.2 |= loops > *depth;
            }
        }
        Let { value, body, .. } => {
            walk(value, loops, scope, uses, positional);
            let key = node_key(e);
            uses.insert(key, (value, Vec::new(), false));
            scope.push((Some((key, value)), loops));
            walk(body, loops, scope, uses, positional);
            scope.pop();
        }
        While { init, body, .. } => {
            walk(init, loops, scope, uses, positional);
            scope.push((None, loops));
            walk(body, loops + 1, scope, uses, positional);
            scope.pop();
        }
        Foreach { list, body, .. } => {
            walk(list, loops, scope, uses, positional);
            scope.push((None, loops));
            walk(body, loops + 1, scope, uses, positional);
            scope.pop();
        }
        Repeat { count, body, .. } => {
            walk(count, loops, scope, uses, positional);
            walk(body, loops + 1, scope, uses, positional);
        }
        _ => {
            for c in e.children() {
                walk(c, loops, scope, uses, positional);
            }
        }
    }
}
