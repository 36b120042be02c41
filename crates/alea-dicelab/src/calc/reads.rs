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
//!
//! A binding of `n#die` read two or more times, every read a `first`/`last` (or a `high`/`low`
//! under an aggregate), is read in place too when the reads keep disjoint positions, and
//! bound to the dice at its two ends (and the kept dice of the middle) when they overlap
//! ([`Positions`]).

use super::eval::{Calc, R, Repr, Val, concat, limit};
use super::marks::node_key;
use super::pool::{Keep, LazyPool};
use crate::ast::{Expr, ExprKind, Selector};
use crate::roll::MAX_LIST_LEN;
use alea_prob::{Dist, Order};
use std::collections::HashMap;

/// The reads of single-read bindings: for each such `Var` node (by key), the `let` node's key
/// and its value expression; and the keys of every single-read `let` (read once or never).
/// `positional` holds the `let`s read two or more times, every read the list of a
/// `first`/`last` (or their `drop`), or of a `high`/`low` right under an aggregate, outside any
/// loop, with each read's selector: when the value
/// is `n#die`, the reads may observe different dice, or only dice at the two ends
/// ([`Positions`], decided per evaluation); their `Var` nodes are in `vars` too (read in place
/// only when the reads are disjoint).
#[derive(Default)]
pub(crate) struct SingleReads<'a> {
    pub vars: HashMap<usize, (usize, &'a Expr)>,
    pub lets: HashMap<usize, &'a Expr>,
    pub positional: HashMap<usize, Vec<PositionalRead<'a>>>,
}

/// A read `[drop] first|last n x` of a binding, or `[drop] high|low n x` right under an
/// aggregate (through reorders), where only the multiset of the kept values matters.
#[derive(Clone, Copy)]
pub(crate) struct PositionalRead<'a> {
    pub selector: Selector,
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
    let mut read = |filter: &'a Expr, order_statistic: bool| {
        if let Filter {
            drop,
            selector,
            n,
            list,
            ..
        } = &filter.kind
            && matches!(list.kind, Var(_))
            && match selector {
                Selector::First | Selector::Last => !order_statistic,
                Selector::High | Selector::Low => order_statistic,
                _ => false,
            }
        {
            positional.insert(
                node_key(list),
                PositionalRead {
                    selector: *selector,
                    drop: *drop,
                    n,
                },
            );
        }
    };
    read(e, false);
    if let Aggregate(_, a) = &e.kind {
        let mut a = &**a;
        while let Reorder(_, inner) = &a.kind {
            a = inner;
        }
        read(a, true);
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

/// How the reads of a `let` of `n#die` (a fixed n ≤ [`MAX_LIST_LEN`], a single-value die, counts
/// fixed before the body), every one a `first`/`last` or a `high`/`low` under an aggregate,
/// observe its dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Positions {
    /// Not such a `let`: the general path (or another plan) decides.
    General,
    /// `first`/`last` reads keeping disjoint positions: the reads observe different,
    /// independent dice, and each reads the value in place as k fresh dice (`let x = 20#d10
    /// in sum(first 1 x) + sum(last 1 x)` is `sum(2#d10)`).
    Disjoint,
    /// Overlapping reads without `drop`: see [`Ends`].
    Ends(Ends),
}

/// Reads `first k` (k ≤ `first`), `last k` (k ≤ `last`) and, under an aggregate, `high j`
/// (or `low j`, j ≤ `kept.1`) of n dice, with `first + last < n`. The positional reads see
/// only the dice at the two ends, and the order statistics only the multiset of the j most
/// extreme values, which are among the two ends and the `kept.1` most extreme of the middle
/// dice. So x may be bound to (the first dice, in order) ++ (that many kept values of the
/// middle, sorted) ++ (the last dice, in order): every read gives the same values as on all
/// n dice. `let x = 20#d10 in sum(first 2 x) + sum(first 1 x)` conditions on 10^2 sequences,
/// `let x = 20#d10 in sum(high 1 x) + sum(first 1 x)` on 10^2 pairs, not on 10^20.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ends {
    n: i32,
    first: i32,
    last: i32,
    /// `High` or `Low`, and how many of the middle dice to keep (0: no such read).
    kept: (Selector, i32),
}

impl Calc<'_> {
    /// The [`Positions`] of `e`, a `let` with `value`. The counts are evaluated here without
    /// charging the budget, and any error, cut or other shape answers `General` (the general
    /// path reports it).
    pub(crate) fn positions(&mut self, e: &Expr, value: &Expr) -> Positions {
        let (Some(reads), ExprKind::Let { var, .. }) =
            (self.single_reads.positional.get(&node_key(e)), &e.kind)
        else {
            return Positions::General;
        };
        let reads = reads.clone();
        let saved = self.budget.clone();
        let p = self.check_positions(var.slot, value, &reads);
        self.budget = saved;
        p.unwrap_or(Positions::General)
    }

    fn check_positions(
        &mut self,
        slot: u32,
        value: &Expr,
        reads: &[PositionalRead<'_>],
    ) -> Option<Positions> {
        let ExprKind::Repeat { count, body, .. } = &value.kind else {
            return Some(Positions::General);
        };
        let n = self.fixed(count, slot)?.max(0);
        let die = self.dist(body, true).ok()?;
        if n as usize > MAX_LIST_LEN || !die.iter().all(|(v, _)| v.items().len() == 1 && !v.cut()) {
            return Some(Positions::General);
        }
        let mut windows = Vec::with_capacity(reads.len());
        let mut ends = Ends {
            n,
            first: 0,
            last: 0,
            kept: (Selector::High, 0),
        };
        let mut plain = true;
        let mut statistics = None;
        for r in reads {
            let k = self.fixed(r.n, slot)?;
            if k < 0 {
                return Some(Positions::General);
            }
            let k = k.min(n);
            plain &= !r.drop;
            match r.selector {
                Selector::First => ends.first = ends.first.max(k),
                Selector::Last => ends.last = ends.last.max(k),
                s => {
                    // One direction only: the kept values of the middle are its highest or
                    // its lowest.
                    if statistics.is_some_and(|t| t != s) {
                        return Some(Positions::General);
                    }
                    statistics = Some(s);
                    ends.kept = (s, ends.kept.1.max(k));
                    continue;
                }
            }
            windows.push(match (r.selector == Selector::Last, r.drop) {
                (false, false) => (0, k),
                (true, false) => (n - k, n),
                (false, true) => (k, n),
                (true, true) => (0, n - k),
            });
        }
        windows.retain(|(a, b)| a < b);
        windows.sort_unstable();
        Some(
            if statistics.is_none() && windows.windows(2).all(|w| w[0].1 <= w[1].0) {
                Positions::Disjoint
            } else if plain && ends.first + ends.last < n {
                Positions::Ends(ends)
            } else {
                Positions::General
            },
        )
    }

    /// The value `n#die` of a [`Positions::Ends`] `let`, as the dice x may be bound to.
    pub(crate) fn ends(&mut self, value: &Expr, ends: Ends) -> R<Dist<Val>> {
        let ExprKind::Repeat { body, op_span, .. } = &value.kind else {
            return self.dist(value, true);
        };
        let die = self.dist(body, true)?;
        let sequence = |this: &mut Self, k: i32| -> R<Dist<Val>> {
            let certain = Dist::certain((k, false));
            let die = Repr::Dist(die.clone());
            match this.repeat_built(value, certain, *op_span, body, die, true)? {
                Repr::Dist(d) => Ok(d),
                Repr::Pool(p) => this.materialize(&p, value),
            }
        };
        let first = sequence(self, ends.first)?;
        let last = sequence(self, ends.last)?;
        let (selector, j) = ends.kept;
        let middle = if j > 0 {
            let order = match selector {
                Selector::High => Order::Descending,
                _ => Order::Ascending,
            };
            let mut pool = LazyPool::single(
                die.map(|v| v.items()[0]),
                (ends.n - ends.first - ends.last) as u32,
            );
            pool.keep = Some(Keep {
                order,
                n: j as u32,
                drop: false,
            });
            self.materialize(&pool, value)?
        } else {
            Dist::certain(Val::list(vec![]))
        };
        let budget = &mut self.budget;
        concat(&first, &middle, true, budget)
            .and_then(|d| concat(&d, &last, true, budget))
            .map_err(limit(*op_span, "#"))
    }
}
