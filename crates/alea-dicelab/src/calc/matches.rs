//! "Most matches" over a pool: `let x = POOL in high 1 (foreach y in A..B do sum (==y x))`
//! (or `count` instead of `sum`) computed outcome by outcome instead of once per multiset.
//!
//! For a plain pool `x`, `==y x` keeps the members equal to `y`, so with `c_y` the number of
//! dice showing `y` the foreach list is `f(y, c_y)` for each `y` in `A..B`, where `f(y, c)` is
//! `y·c` (wrapping, as `sum` adds `c` copies of `y`) for `sum` and `c` for `count`; `high 1`
//! keeps its largest value. That depends only on how many dice show each outcome, so the pool
//! automaton ([`super::pool::LazyPool::run`]) computes it with the state "largest `f` so far"
//! in time polynomial in the pool size: `7#d10` has 11 440 multisets, each of which the general
//! path evaluates the body for. Outcomes of the dice outside `A..B` still take dice but add
//! nothing; values of `A..B` that no die shows have `c_y = 0`, so they add `f(y, 0) = 0`.

use super::pool::LazyPool;
use crate::ast::{self, Aggregate, Expr, ExprKind, Selector};
use alea_prob::{Budget, Dist, ProbError};

/// The recognised body: `high 1 (foreach y in lo..hi do agg (==y x))` with `x` the `let`'s
/// variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MostMatches {
    agg: Aggregate,
    lo: i32,
    hi: i32,
}

/// Recognises the body of `let` (whose variable has binding depth `let_slot`). Only literal,
/// non-empty ranges and exactly this shape are accepted; anything else takes the general path.
pub(crate) fn recognise(body: &Expr, let_slot: u32) -> Option<MostMatches> {
    use ExprKind::*;
    let Filter {
        drop: false,
        selector: Selector::High,
        n,
        list,
        ..
    } = &body.kind
    else {
        return None;
    };
    if !matches!(n.kind, Number(1)) {
        return None;
    }
    let Foreach {
        var,
        list: range,
        body: each,
    } = &list.kind
    else {
        return None;
    };
    let Range { lo, hi, .. } = &range.kind else {
        return None;
    };
    let (Number(lo), Number(hi)) = (&lo.kind, &hi.kind) else {
        return None;
    };
    if lo > hi {
        return None;
    }
    let Aggregate(agg @ (ast::Aggregate::Sum | ast::Aggregate::Count), inner) = &each.kind else {
        return None;
    };
    let Filter {
        drop: false,
        selector: Selector::Eq,
        n: y,
        list: x,
        ..
    } = &inner.kind
    else {
        return None;
    };
    // Slots, not names: the resolver already applied shadowing (`foreach x in … ==x x`).
    let is_var = |e: &Expr, slot: u32| matches!(&e.kind, Var(v) if v.slot == Some(slot));
    if !is_var(y, var.slot) || !is_var(x, let_slot) || var.slot == let_slot {
        return None;
    }
    Some(MostMatches {
        agg: *agg,
        lo: *lo,
        hi: *hi,
    })
}

impl MostMatches {
    /// The distribution of the body's value for `x` bound to the plain pool `pool`.
    pub(crate) fn evaluate(
        &self,
        pool: &LazyPool,
        budget: &mut Budget,
    ) -> Result<Dist<i32>, ProbError> {
        debug_assert!(pool.is_plain());
        let (lo, hi, agg) = (self.lo, self.hi, self.agg);
        // State: the largest f(y, c_y) over the outcomes of A..B visited so far, and how many
        // of them were visited (the same on every path, so it adds no states).
        let d = pool.run(
            (None::<i32>, 0u64),
            |&(best, seen), v, c| {
                if v < lo || v > hi {
                    return (best, seen);
                }
                let f = match agg {
                    Aggregate::Count => c as i32,
                    _ => v.wrapping_mul(c as i32),
                };
                (Some(best.map_or(f, |b| b.max(f))), seen + 1)
            },
            budget,
        )?;
        let width = (i64::from(hi) - i64::from(lo) + 1) as u64;
        Ok(d.map(|&(best, seen)| {
            // Values of A..B no die shows have no match: f(y, 0) = 0.
            let unseen = if seen < width { Some(0) } else { None };
            best.max(unseen).expect("A..B is not empty")
        }))
    }
}
