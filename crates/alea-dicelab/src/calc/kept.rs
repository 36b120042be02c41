//! `high k (n#die)` and `low k (n#die)` read in order (`first 1 (high 3 (20#d6))`): the kept
//! dice in the order they were rolled, without listing the die^n sequences.
//!
//! `high k` keeps the members above the threshold t (the k-th highest value) and, among the
//! members equal to t, the earliest (dicelab.md §3), preserving order. Given how many dice
//! show each face, every arrangement of the roll is equally likely, so the members ≥ t appear
//! in a uniformly random order: the `a` members above t in a uniformly random order of their
//! own, and placed among the `c` members equal to t uniformly over the C(a + c, a) choices of
//! positions. The kept list is that order with the t's after the r-th dropped (r = k − a), so it
//! depends only on how many members above t fall before the 1st, 2nd, …, r-th t, and those
//! after the r-th: a profile (h₀, …, h_r) of a, reached by C(h_r + c − r, h_r) position choices
//! (the h_r members spread over the c − r + 1 gaps from the r-th t on). The pool automaton
//! gives the joint distribution of (the members above t, t, c) outcome by outcome; each is
//! expanded into its kept lists, weighted by those counts.

use super::eval::{Calc, R, Val, limit};
use super::pool::MAX_POOL_DICE;
use crate::ast::{Expr, ExprKind};
use crate::ops::Operand;
use alea_prob::{Budget, Dist, Order, Pool, ProbError, Weight};

impl Calc<'_> {
    /// `high k list` (`high`) or `low k list` read in order, when `list` is `n#die` (one n, a
    /// single-value die) and k is one value: the kept lists (see the module). `None` when the
    /// general path must decide. The count and the die are evaluated as the general path
    /// would, so their errors are the same.
    pub(crate) fn kept_in_order(
        &mut self,
        k: &Dist<(i32, bool)>,
        high: bool,
        list: &Expr,
    ) -> R<Option<Dist<Val>>> {
        let ExprKind::Repeat {
            count,
            op_span,
            body,
        } = &list.kind
        else {
            return Ok(None);
        };
        let (&(k, k_cut), 1) = (k.outcomes().next().expect("not empty"), k.len()) else {
            return Ok(None);
        };
        let n = self.scalar(count, Operand::Count, *op_span)?;
        let (&(n, n_cut), 1) = (n.outcomes().next().expect("not empty"), n.len()) else {
            return Ok(None);
        };
        if k_cut || n_cut || k < 0 || n <= k || n as u32 > MAX_POOL_DICE {
            return Ok(None);
        }
        let die = self.dist(body, true)?;
        if !die.iter().all(|(v, _)| v.items().len() == 1 && !v.cut()) {
            return Ok(None);
        }
        if k == 0 {
            return Ok(Some(Dist::certain(Val::list(vec![]))));
        }
        let die = die.map(|v| v.items()[0]);
        let what = if high { "high" } else { "low" };
        let d = kept_in_order(&die, n as u32, k as u32, high, &mut self.budget)
            .map_err(limit(list.span, what))?;
        Ok(Some(d.map(|v| Val::list(v.clone()))))
    }
}

/// The distribution of `high k` (`high`) or `low k` of `n` independent copies of `die` read in
/// order, as the kept lists; `0 < k < n`.
pub(crate) fn kept_in_order(
    die: &Dist<i32>,
    n: u32,
    k: u32,
    high: bool,
    budget: &mut Budget,
) -> Result<Dist<Vec<i32>>, ProbError> {
    debug_assert!(0 < k && k < n);
    let k = k as usize;
    // Most extreme face first, each with the full count of dice showing it, until the k-th
    // member is reached; the state is (the members beyond the threshold, in visiting order;
    // the threshold and how many dice show it), final once the threshold is known.
    let order = if high {
        Order::Descending
    } else {
        Order::Ascending
    };
    type State = (Vec<i32>, Option<(i32, u32)>);
    let states = Pool::from_groups(vec![(die.clone(), n)]).evaluate(
        order,
        (Vec::new(), None),
        |state: &State, &v, c| {
            let (above, threshold) = state;
            if threshold.is_some() || c == 0 {
                return state.clone();
            }
            if above.len() + c as usize >= k {
                return (above.clone(), Some((v, c)));
            }
            let mut above = above.clone();
            above.extend(std::iter::repeat_n(v, c as usize));
            (above, None)
        },
        |(_, threshold)| threshold.is_some(),
        budget,
    )?;
    let mut parts = Vec::with_capacity(states.len());
    for ((above, threshold), w) in states.iter() {
        let (t, c) = threshold.expect("n > k dice reach the k-th most extreme value");
        let (a, r) = (above.len(), k - above.len());
        let orders = distinct_orders(above);
        let profiles = compositions(a, r + 1);
        budget.burn(
            (orders.len() as u64)
                .saturating_mul(profiles.len() as u64)
                .saturating_mul(k as u64 + 1),
            "kept members in order",
        )?;
        let mut lists = Vec::with_capacity(orders.len() * profiles.len());
        for h in &profiles {
            let ways = choose(h[r] as u64 + u64::from(c) - r as u64, h[r] as u64);
            for order in &orders {
                let mut list = Vec::with_capacity(k);
                let mut next = order.iter();
                for (i, &members) in h.iter().enumerate() {
                    list.extend(next.by_ref().take(members));
                    if i < r {
                        list.push(t);
                    }
                }
                lists.push((list, ways.clone()));
            }
        }
        parts.push((w.clone(), Dist::from_weights(lists)?));
    }
    Dist::mixture(parts, budget)
}

/// Every distinct ordering of the values of `items`.
fn distinct_orders(items: &[i32]) -> Vec<Vec<i32>> {
    let mut v = items.to_vec();
    v.sort_unstable();
    let mut out = vec![v.clone()];
    // Next lexicographic permutation until the last.
    loop {
        let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
            return out;
        };
        let j = (i..v.len())
            .rev()
            .find(|&j| v[j] > v[i - 1])
            .expect("v[i] qualifies");
        v.swap(i - 1, j);
        v[i..].reverse();
        out.push(v.clone());
    }
}

/// Every way to write `total` as an ordered sum of `parts` non-negative counts.
fn compositions(total: usize, parts: usize) -> Vec<Vec<usize>> {
    if parts == 1 {
        return vec![vec![total]];
    }
    let mut out = Vec::new();
    for first in 0..=total {
        for mut rest in compositions(total - first, parts - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// The binomial coefficient C(m, h), exactly.
fn choose(m: u64, h: u64) -> Weight {
    let mut c = Weight::ONE;
    for i in 0..h {
        c = c.mul(&Weight::from(m - i)).div_exact(&Weight::from(i + 1));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_and_compositions_are_counted_once() {
        assert_eq!(distinct_orders(&[2, 1, 2]).len(), 3);
        assert_eq!(distinct_orders(&[]).len(), 1);
        assert_eq!(compositions(2, 3).len(), 6);
        assert_eq!(choose(20, 2), Weight::from(190u64));
        assert_eq!(choose(7, 0), Weight::ONE);
    }
}
