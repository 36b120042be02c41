//! Counts per face: `let x = POOL in …` where the body sees `x` only through `==y x`, with `y`
//! running over a fixed list by `foreach` (the "most matches" family, in any spelling).
//!
//! For a plain pool `x`, `==y x` is `c_y` copies of `y`, where `c_y` is how many dice show
//! `y`. So when every use of `x` has that form inside one `foreach y in D do G` (`D` and `G`
//! without dice), the foreach's value is the list of `g(y, c_y)` for `y` in `D`, and it
//! depends only on the counts per face. The pool automaton ([`LazyPool::run`]) visits each
//! face with its count and collects those pieces, so the work grows with the number of count
//! patterns, not with the number of multisets of dice: `let x = 20#d10 in low 1 (foreach y in
//! 1..(5*2) do count (==y x))` is computed where enumerating its 10^7 multisets is not.
//!
//! The foreach must be read as a multiset (under an unordered mark, reached from the body only
//! through `sum prod count sort rev perm`, filters, `,` and `if`), so its pieces are kept
//! sorted; a `keep high k` or `keep low k` directly around it keeps only its k largest or
//! smallest values in the state. Its distribution then stands in for that node while the rest
//! of the body is evaluated as usual (nothing else there reads `x`).

use super::eval::{Calc, R, Val};
use super::marks::node_key;
use super::pool::LazyPool;
use crate::ast::{Expr, ExprKind, Reorder, Selector};
use alea_prob::Dist;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The plan of a statement: for each `let` (by node key) and evaluation mark (ordered or
/// not), the counts-per-face reading of its body, when it has one.
pub(crate) type Plan<'a> = HashMap<(usize, bool), FaceCounts<'a>>;

/// The planning pass: recognises every `let` of the statement once, under both marks, before
/// anything is evaluated (a `let` inside a loop is evaluated many times; its shape does not
/// change). Iterative, since statements may nest thousands deep.
pub(crate) fn plan<'a>(root: &'a Expr, deterministic: &HashSet<usize>) -> Plan<'a> {
    let mut out = Plan::new();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        if let ExprKind::Let { var, body, .. } = &e.kind {
            for ordered in [false, true] {
                if let Some(f) = recognise(body, var.slot, ordered, deterministic) {
                    out.insert((node_key(e), ordered), f);
                }
            }
        }
        stack.extend(e.children());
    }
    out
}

/// A recognised body.
#[derive(Clone)]
pub(crate) struct FaceCounts<'a> {
    /// The node whose distribution is computed here: the foreach, or its keep parent.
    pub target: &'a Expr,
    /// The nodes from the body down to the target's parent (evaluated as distributions).
    pub path: Vec<&'a Expr>,
    /// The foreach's list and body.
    list: &'a Expr,
    body: &'a Expr,
    /// `keep high k` (true) or `keep low k` around the foreach, with its count expression.
    keep: Option<(bool, &'a Expr)>,
}

fn refs<'a>(e: &'a Expr, slot: u32, path: &mut Vec<&'a Expr>, out: &mut Vec<Vec<&'a Expr>>) {
    path.push(e);
    if matches!(&e.kind, ExprKind::Var(v) if v.slot == Some(slot)) {
        out.push(path.clone());
    }
    for c in e.children() {
        refs(c, slot, path, out);
    }
    path.pop();
}

/// Recognises `body` (of a `let` whose variable has slot `let_slot`, evaluated under the mark
/// `ordered`); `deterministic` holds the nodes without dice.
fn recognise<'a>(
    body: &'a Expr,
    let_slot: u32,
    ordered: bool,
    deterministic: &HashSet<usize>,
) -> Option<FaceCounts<'a>> {
    let mut uses = Vec::new();
    refs(body, let_slot, &mut Vec::new(), &mut uses);
    let first = uses.first()?;
    // The foreach: the nearest ancestor of the first use binding the `y` of its `==y x`.
    let use_form = |p: &[&'a Expr]| -> Option<u32> {
        let [.., filter, x] = p else { return None };
        match &filter.kind {
            ExprKind::Filter {
                drop: false,
                selector: Selector::Eq,
                n,
                list,
                ..
            } if std::ptr::eq(&**list, *x) => match &n.kind {
                ExprKind::Var(y) => y.slot,
                _ => None,
            },
            _ => None,
        }
    };
    let y_slot = use_form(first)?;
    if y_slot != let_slot + 1 {
        return None;
    }
    let at = first
        .iter()
        .rposition(|e| matches!(&e.kind, ExprKind::Foreach { var, .. } if var.slot == y_slot))?;
    let foreach = first[at];
    let ExprKind::Foreach { list, body: g, .. } = &foreach.kind else {
        return None;
    };
    // Every use: `==y x` inside G (not in D).
    for u in &uses {
        let inside =
            u.len() > at + 1 && std::ptr::eq(u[at], foreach) && std::ptr::eq(u[at + 1], &**g);
        if !inside || use_form(u) != Some(y_slot) {
            return None;
        }
    }
    if !deterministic.contains(&node_key(list)) || !deterministic.contains(&node_key(g)) {
        return None;
    }
    // The path from the body to the foreach: constructs that evaluate it once, ending under
    // an unordered mark (marks.rs).
    let path: Vec<&Expr> = first[..at].to_vec();
    let mut mark = ordered;
    for (i, node) in path.iter().enumerate() {
        let child = path.get(i + 1).copied().unwrap_or(foreach);
        mark = match &node.kind {
            ExprKind::Aggregate(..) => false,
            ExprKind::Reorder(Reorder::Sort | Reorder::Perm, _) => false,
            ExprKind::Reorder(Reorder::Rev, _) => mark,
            ExprKind::Filter {
                selector, n, list, ..
            } => {
                if !std::ptr::eq(&**list, child) || !deterministic.contains(&node_key(n)) {
                    return None;
                }
                if matches!(selector, Selector::First | Selector::Last) {
                    true
                } else {
                    mark
                }
            }
            ExprKind::List(_) => mark,
            ExprKind::If { cond, .. } if std::ptr::eq(&**cond, child) => false,
            ExprKind::If { .. } => mark,
            _ => return None,
        };
    }
    if mark {
        return None;
    }
    let keep = match path.last().map(|p| &p.kind) {
        Some(ExprKind::Filter {
            drop: false,
            selector: s @ (Selector::High | Selector::Low),
            n,
            ..
        }) => Some((*s == Selector::High, &**n)),
        _ => None,
    };
    let (target, path) = match keep {
        Some(_) => (path[path.len() - 1], path[..path.len() - 1].to_vec()),
        None => (foreach, path),
    };
    Some(FaceCounts {
        target,
        path,
        list,
        body: g,
        keep,
    })
}

impl FaceCounts<'_> {
    /// The target's distribution for `x` bound to the plain pool `pool` (the environment is
    /// the `let`'s, without `x`); `None` when the general path must decide (a keep count that
    /// is not a single non-negative value, whose error the filter reports, or a `while` cut
    /// inside D or G).
    pub(crate) fn evaluate(&self, calc: &mut Calc<'_>, pool: &LazyPool) -> R<Option<Dist<Val>>> {
        let mut cut = false;
        let values = calc.concrete(self.list, &mut cut)?;
        let k = match self.keep {
            Some((high, n)) => {
                let mut c = false;
                match calc.concrete(n, &mut c)?.as_slice() {
                    [k] if *k >= 0 && !c => Some((high, *k as usize)),
                    _ => return Ok(None),
                }
            }
            None => None,
        };
        // How many times each value occurs in D, and the most dice that can show it.
        let mut mult: BTreeMap<i32, usize> = BTreeMap::new();
        for v in &values {
            *mult.entry(*v).or_default() += 1;
        }
        let mut most: BTreeMap<i32, u32> = BTreeMap::new();
        for (_, groups) in &pool.components {
            let mut here: BTreeMap<i32, u32> = BTreeMap::new();
            for (die, n) in groups {
                for v in die.outcomes() {
                    *here.entry(*v).or_default() += n;
                }
            }
            for (v, n) in here {
                let m = most.entry(v).or_default();
                *m = (*m).max(n);
            }
        }
        // g(y, c) for every reachable count: G with x = c copies of y, y = y.
        let mut g: HashMap<(i32, u32), Vec<i32>> = HashMap::new();
        for &y in mult.keys() {
            for c in 0..=most.get(&y).copied().unwrap_or(0) {
                calc.env.push(Val::list(vec![y; c as usize]));
                calc.env.push(Val::list(vec![y]));
                let r = calc.concrete(self.body, &mut cut);
                calc.env.truncate(calc.env.len() - 2);
                g.insert((y, c), r?);
            }
        }
        let reduce = |mut items: Vec<i32>| {
            items.sort_unstable();
            if let Some((high, k)) = k
                && items.len() > k
            {
                if high {
                    items.drain(..items.len() - k);
                } else {
                    items.truncate(k);
                }
            }
            items
        };
        // Values of D no die can show: c = 0 on every path.
        let mut init = Vec::new();
        for (&y, &m) in &mult {
            if !most.contains_key(&y) {
                for _ in 0..m {
                    init.extend_from_slice(&g[&(y, 0)]);
                }
            }
        }
        if cut {
            return Ok(None);
        }
        let init = reduce(init);
        let span = self.target.span;
        let d = pool
            .run(
                init,
                |state, v, c| match mult.get(&v) {
                    None => state.clone(),
                    Some(&m) => {
                        let mut items = state.clone();
                        for _ in 0..m {
                            items.extend_from_slice(&g[&(v, c)]);
                        }
                        reduce(items)
                    }
                },
                &mut calc.budget,
            )
            .map_err(super::eval::limit(span, "foreach"))?;
        Ok(Some(d.map(|items| Val::list(items.clone()))))
    }
}
