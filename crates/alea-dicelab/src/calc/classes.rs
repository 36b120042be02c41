//! Filter reads: `let x = POOL in …` where the body reads `x` only through `count`, `sum` or
//! `prod` of comparison filters of it (`count (>3 x)`, `sum (drop ==1 x)`, `count x`, or a
//! chain `count (<5 (>1 x))`), each filter's value fixed before the body.
//!
//! Such a read is an aggregate of the dice that pass its filters, so its value depends only on
//! how many dice (count) or which values (sum, prod) fall in each class of faces, a class
//! being the set of faces that the same reads accept. Each die adds to every read at once:
//! for the vector of the reads' values, one die is the distribution of its contributions
//! (`(1, 0)` for a 5 under `count (>3 x) + count (<2 x)`), and the pool is the convolution of
//! its dice, component by component. The state is the joint value of the reads, the smallest
//! statistic the body can observe: `let x = 30#d6 in count (>3 x) + count (<2 x)` is 496
//! count vectors instead of 324 632 multisets, and for sums the state is the vector of sums
//! per read. Then the body is evaluated once per joint value, with each read standing for its
//! value ([`Calc::overrides`]), and the results are mixed, as `faces.rs` does for counts per
//! face. A pool with a keep (`high 3 (30#d6)`) has no such classes and takes the general path.
//!
//! A read may also keep `[drop] high|low k` of `x` itself, below its filters (`sum (high 3
//! x) - sum (low 2 x)`): which dice it keeps depends on the sorted pool, not on each die
//! alone, so such plans visit the faces in ascending order instead ([`Pool::evaluate`]), the
//! state being how many dice came before and the partial value of each read
//! (`ClassPlan::evaluate_sorted`). `let`s that `reads.rs` binds to the dice at their ends
//! (`high`/`low` reads in one direction, with or without `first`/`last`) keep that path.

use super::eval::{Calc, R, Val, limit};
use super::faces::reads_only;
use super::marks::node_key;
use super::pool::{LazyPool, MAX_POOL_DICE, passes};
use super::uses::Uses;
use crate::ast::{Aggregate, Expr, ExprKind, Selector};
use alea_prob::{Dist, Order, Pool};
use std::collections::{HashMap, HashSet};

/// For each `let` (by node key) whose body reads its variable only through filter reads.
pub(crate) type Plan<'a> = HashMap<usize, ClassPlan<'a>>;

/// Recognises every `let` with dice in its value once, before evaluation.
pub(crate) fn plan<'a>(uses: &Uses<'a>, deterministic: &HashSet<usize>) -> Plan<'a> {
    uses.random_lets(deterministic)
        .filter_map(|(e, var, body)| {
            recognise(uses.paths(e, body), var.slot, deterministic).map(|p| (node_key(e), p))
        })
        .collect()
}

/// The reads of one `let` body.
#[derive(Clone)]
pub(crate) struct ClassPlan<'a> {
    reads: Vec<Read<'a>>,
}

/// `agg (f₁ (f₂ … x))`: the aggregate node and its comparison filters, innermost last, and
/// a `[drop] high|low k` applied to `x` itself, below the filters (`keep`: selector, drop, k).
#[derive(Clone)]
struct Read<'a> {
    node: &'a Expr,
    agg: Aggregate,
    filters: Vec<(Selector, bool, &'a Expr)>,
    keep: Option<(Selector, bool, &'a Expr)>,
}

/// `uses`: the paths from the `let`'s body down to each read of its variable (`slot`).
fn recognise<'a>(
    uses: Vec<Vec<&'a Expr>>,
    slot: u32,
    det: &HashSet<usize>,
) -> Option<ClassPlan<'a>> {
    if uses.is_empty() {
        return None;
    }
    let mut reads = Vec::with_capacity(uses.len());
    for path in &uses {
        let mut filters = Vec::new();
        let mut keep = None;
        let mut child = *path.last()?;
        let mut i = path.len() - 1;
        let (node, agg) = loop {
            i = i.checked_sub(1)?;
            let node = path[i];
            match &node.kind {
                // `high`/`low` of x itself: which dice it keeps depends only on how many dice
                // of the sorted pool come before a face (see `ClassPlan::evaluate`).
                ExprKind::Filter {
                    drop,
                    selector: selector @ (Selector::High | Selector::Low),
                    n,
                    list,
                    ..
                } if i + 2 == path.len()
                    && std::ptr::eq(&**list, child)
                    && det.contains(&node_key(n))
                    && reads_only(n, |s| s < slot) =>
                {
                    keep = Some((*selector, *drop, &**n));
                }
                ExprKind::Filter {
                    drop,
                    selector,
                    n,
                    list,
                    ..
                } if selector.is_comparison()
                    && std::ptr::eq(&**list, child)
                    && det.contains(&node_key(n))
                    && reads_only(n, |s| s < slot) =>
                {
                    filters.push((*selector, *drop, &**n));
                }
                // Under an aggregate, only the multiset matters.
                ExprKind::Reorder(..) => {}
                ExprKind::Aggregate(agg, _) => break (node, *agg),
                _ => return None,
            }
            child = node;
        };
        reads.push(Read {
            node,
            agg,
            filters,
            keep,
        });
    }
    Some(ClassPlan { reads })
}

/// What one die adds to a read: the aggregate of the one-member list (`ops::aggregate`, the
/// one rule), or of `()` when the read's filters reject it.
fn unit(agg: Aggregate, v: i32) -> i32 {
    crate::ops::aggregate(agg, [v])
}

fn identity(agg: Aggregate) -> i32 {
    crate::ops::aggregate(agg, [])
}

/// Two partial values of a read joined: the aggregate of the joined members. A partial count
/// is a number of members, so counts join by adding (the sum of the two).
fn combine(agg: Aggregate, a: i32, b: i32) -> i32 {
    let join = match agg {
        Aggregate::Count => Aggregate::Sum,
        other => other,
    };
    crate::ops::aggregate(join, [a, b])
}

impl<'a> ClassPlan<'a> {
    /// The nodes whose values [`ClassPlan::mix_body`] fixes.
    pub(crate) fn fixed_nodes(&self) -> impl Iterator<Item = &'a Expr> + '_ {
        self.reads.iter().map(|r| r.node)
    }

    /// The joint distribution of the reads' values for `x` bound to `pool` (the environment
    /// is the `let`'s, `let_slot` its variable's slot), one value per read; `None` when the
    /// general path must decide (a pool with a keep; a filter value that is not one value or
    /// fails, which the general path reports if it is reachable).
    pub(crate) fn evaluate(
        &self,
        calc: &mut Calc<'_>,
        pool: &LazyPool,
        let_slot: u32,
        span: alea_core::Span,
    ) -> R<Option<Dist<Vec<i32>>>> {
        if pool.keep.is_some() {
            return Ok(None);
        }
        let mut filters = Vec::with_capacity(self.reads.len());
        for r in &self.reads {
            let mut f = Vec::with_capacity(r.filters.len());
            for &(s, drop, n) in &r.filters {
                let Some(k) = calc.fixed(n, let_slot) else {
                    return Ok(None);
                };
                f.push((s, drop, k));
            }
            filters.push(f);
        }
        let start: Vec<i32> = self.reads.iter().map(|r| identity(r.agg)).collect();
        if self.reads.iter().any(|r| r.keep.is_some()) {
            return self.evaluate_sorted(calc, pool, let_slot, &filters, start);
        }
        let add = |a: &Vec<i32>, b: &Vec<i32>| -> Vec<i32> {
            self.reads
                .iter()
                .zip(a.iter().zip(b))
                .map(|(r, (&x, &y))| combine(r.agg, x, y))
                .collect()
        };
        let mut parts = Vec::with_capacity(pool.components.len());
        for (w, groups) in &pool.components {
            let mut acc = Dist::certain(start.clone());
            for (die, n) in groups {
                // One die's contributions to every read; faces of one class merge here.
                let one = die.map(|&v| {
                    self.reads
                        .iter()
                        .zip(&filters)
                        .map(|(r, f)| {
                            if passes(&pool.filters, v) && passes(f, v) {
                                unit(r.agg, v)
                            } else {
                                identity(r.agg)
                            }
                        })
                        .collect::<Vec<i32>>()
                });
                // Die by die: the states stay the reachable joint values (n·|states|·|classes|
                // pairs), where squaring would pair states with states.
                for _ in 0..*n {
                    acc = acc
                        .product(&one, add, &mut calc.budget)
                        .map_err(limit(span, "let"))?;
                }
            }
            parts.push((w.clone(), acc));
        }
        let joint = Dist::mixture(parts, &mut calc.budget).map_err(limit(span, "let"))?;
        Ok(Some(joint))
    }

    /// [`ClassPlan::evaluate`] when some read keeps `[drop] high|low k` of x: the dice of each
    /// component visited face by face in ascending order ([`Pool::evaluate`]), the state being
    /// how many dice came before and the partial value of every read. The `c` dice showing a
    /// face after `seen` dice hold the sorted positions `seen..seen + c`, so a keep takes as
    /// many of them as that range shares with the positions it keeps (`high 3` of 20: 17..20),
    /// and a read without a keep takes all `c`. `let x = 20#d10 in sum(high 3 x) - sum(low 2
    /// x)` is some 10^4 states instead of 10^7 multisets. `None` when the pool has filters of
    /// its own (how many dice pass, and so where the highest start, is only known at the end)
    /// or more than [`MAX_POOL_DICE`] dice, or a keep count is not one value or is negative
    /// (the general path reports it); `None` too when a bound on the states ([`states_bound`])
    /// or the states themselves exceed calc's budget, so a hopeless pool (`let x = 100#d100 in
    /// sum(high 50 x) - sum(low 50 x)`) ends at once in the general path's own limit error, as
    /// before this plan.
    fn evaluate_sorted(
        &self,
        calc: &mut Calc<'_>,
        pool: &LazyPool,
        let_slot: u32,
        filters: &[Vec<(Selector, bool, i32)>],
        start: Vec<i32>,
    ) -> R<Option<Dist<Vec<i32>>>> {
        if !pool.filters.is_empty() {
            return Ok(None);
        }
        let mut keeps = Vec::with_capacity(self.reads.len());
        for r in &self.reads {
            keeps.push(match r.keep {
                None => None,
                Some((s, drop, n)) => match calc.fixed(n, let_slot) {
                    Some(k) if k >= 0 => Some((s, drop, k as u64)),
                    _ => return Ok(None),
                },
            });
        }
        let mut parts = Vec::with_capacity(pool.components.len());
        for (w, groups) in &pool.components {
            let dice = Pool::from_groups(groups.clone());
            let size = dice.size();
            if size > u64::from(MAX_POOL_DICE) {
                return Ok(None);
            }
            // The sorted positions each read keeps.
            let ranges: Vec<(u64, u64)> = keeps
                .iter()
                .map(|k| match *k {
                    None => (0, size),
                    Some((s, drop, k)) => {
                        let k = k.min(size);
                        match (s == Selector::High, drop) {
                            (true, false) => (size - k, size),
                            (true, true) => (0, size - k),
                            (false, false) => (0, k),
                            (false, true) => (k, size),
                        }
                    }
                })
                .collect();
            if states_bound(&self.reads, &ranges, groups, size) > calc.budget.max_outcomes() as f64
            {
                // Without this a hopeless pool (`let x = 100#d100 in sum(high 50 x) - sum(low
                // 50 x)`) filled the state table up to the budget (0.9 s, 416 MB) first.
                return Ok(None);
            }
            let d = dice.evaluate(
                Order::Ascending,
                (0u64, start.clone()),
                |(seen, values), &v, c| {
                    let end = seen + u64::from(c);
                    let values = self
                        .reads
                        .iter()
                        .zip(filters)
                        .zip(&ranges)
                        .zip(values)
                        .map(|(((r, f), &(lo, hi)), &acc)| {
                            let taken = end.min(hi).saturating_sub((*seen).max(lo));
                            if taken == 0 || !passes(f, v) {
                                return acc;
                            }
                            (0..taken).fold(acc, |a, _| combine(r.agg, a, unit(r.agg, v)))
                        })
                        .collect();
                    (end, values)
                },
                |_| false,
                &mut calc.budget,
            );
            let Ok(d) = d else { return Ok(None) };
            parts.push((w.clone(), d.map(|(_, values)| values.clone())));
        }
        Ok(Dist::mixture(parts, &mut calc.budget).ok())
    }

    /// Evaluates `body` (the `let`'s, with `x` unread) once per joint value of the reads, each
    /// read standing for its value, and mixes the results.
    pub(crate) fn mix_body(
        &self,
        calc: &mut Calc<'_>,
        joint: &Dist<Vec<i32>>,
        e: &Expr,
        body: &Expr,
        ordered: bool,
    ) -> R<Dist<Val>> {
        calc.mix(joint, e.span, "let", |this, values| {
            for (r, &v) in self.reads.iter().zip(values) {
                this.overrides.insert(node_key(r.node), Val::one(v, false));
            }
            // `x` is bound to a placeholder so the slots of inner bindings stay in place.
            this.env.push(Val::list(vec![]));
            let d = this.dist(body, ordered);
            this.env.pop();
            for r in &self.reads {
                this.overrides.remove(&node_key(r.node));
            }
            d
        })
    }
}

/// An upper bound on the states of [`ClassPlan::evaluate_sorted`]'s pass over a component:
/// how many dice came before (`size + 1` counts) times, for each read, how many partial values
/// its `hi - lo` kept dice can give (a count `m + 1`; a sum the integers between its extreme
/// partial sums; a product, like a sum, no more than the multisets of up to `m` faces).
fn states_bound(
    reads: &[Read<'_>],
    ranges: &[(u64, u64)],
    groups: &[(Dist<i32>, u32)],
    size: u64,
) -> f64 {
    let faces: std::collections::BTreeSet<i32> = groups
        .iter()
        .flat_map(|(d, _)| d.outcomes().copied())
        .collect();
    let (Some(&lo_face), Some(&hi_face)) = (faces.first(), faces.last()) else {
        return 1.0;
    };
    // Multisets of up to m of f faces: C(f + m, m), as a float (only compared with the budget).
    let multisets = |m: f64| {
        let f = faces.len() as f64;
        (1..=m as u64).fold(1.0, |acc, i| acc * (f + i as f64) / i as f64)
    };
    let per_read = reads.iter().zip(ranges).map(|(r, &(lo, hi))| {
        let m = hi.saturating_sub(lo) as f64;
        match r.agg {
            Aggregate::Count => m + 1.0,
            Aggregate::Sum => {
                let low = (m * f64::from(lo_face)).min(0.0);
                let high = (m * f64::from(hi_face)).max(0.0);
                (high - low + 1.0).min(multisets(m))
            }
            Aggregate::Prod => multisets(m),
        }
    });
    per_read.fold(size as f64 + 1.0, |acc, n| acc * n)
}
