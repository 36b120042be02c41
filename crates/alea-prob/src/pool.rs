//! Pools of independent dice evaluated outcome by outcome (the icepool algorithm).
//!
//! A pool is a multiset of independent dice, in groups of identical dice. Many questions about
//! a pool ("the sum of the 3 highest", "how many show more than 7", "the highest") depend only
//! on how many dice show each outcome. Visiting the outcomes in order and keeping, for each
//! *state* of a small automaton and each number of dice not yet placed, the total weight of
//! the ways to get there, answers them in time polynomial in the pool size, where enumerating
//! the dice is exponential: `n` dice showing `k` at outcome `o` out of `r` unplaced dice
//! contribute `C(r, n) · w(o)^n`.

use crate::weight::Binomials;
use crate::{Budget, Dist, ProbError, Weight};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::Hash;

/// Steps charged for one transition of the state table (a call of the automaton and a hash
/// table update, often a cache miss and an allocation): measured at some 30 times a weight
/// addition on big tables, where a hopeless evaluation (`prod(high 5 (10#d1000))`) must run
/// out of steps in well under a second.
const TABLE_STEPS: u64 = 32;

/// The order in which [`Pool::evaluate`] visits outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Smallest outcome first (natural for "keep lowest").
    Ascending,
    /// Largest outcome first (natural for "keep highest").
    Descending,
}

/// A multiset of independent dice: `groups[i].1` dice distributed as `groups[i].0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool<T> {
    groups: Vec<(Dist<T>, u32)>,
}

impl<T: Ord + Clone + Hash> Pool<T> {
    /// `n` independent dice distributed as `die`.
    pub fn iid(die: Dist<T>, n: u32) -> Pool<T> {
        Pool {
            groups: vec![(die, n)],
        }
    }

    /// A pool of several groups of identical dice (equal dice are merged into one group).
    pub fn from_groups(groups: Vec<(Dist<T>, u32)>) -> Pool<T> {
        let mut merged: Vec<(Dist<T>, u32)> = Vec::new();
        for (d, n) in groups {
            if n == 0 {
                continue;
            }
            match merged.iter_mut().find(|(m, _)| *m == d) {
                Some((_, count)) => *count += n,
                None => merged.push((d, n)),
            }
        }
        Pool { groups: merged }
    }

    /// The groups: `(die, number of dice)`.
    pub fn groups(&self) -> &[(Dist<T>, u32)] {
        &self.groups
    }

    /// The number of dice.
    pub fn size(&self) -> u64 {
        self.groups.iter().map(|(_, n)| u64::from(*n)).sum()
    }

    /// The pool with every die mapped through `f` (e.g. to "success or not").
    pub fn map_dice<U: Ord + Clone + Hash>(&self, mut f: impl FnMut(&T) -> U) -> Pool<U> {
        Pool::from_groups(
            self.groups
                .iter()
                .map(|(d, n)| (d.map(&mut f), *n))
                .collect(),
        )
    }

    /// Runs the automaton `next` over the outcomes in `order`: starting from `initial`, at each
    /// outcome `o` (of any die in the pool) the state becomes `next(state, o, count)` where
    /// `count` is how many dice show `o` (possibly 0). Returns the distribution of the final
    /// state.
    ///
    /// `is_final(state)` may declare a state absorbing (e.g. "3 highest dice found"): the rest
    /// of the dice are then summed out at once, which is what makes `high 3 (100#d6)` fast.
    /// A final state must stay unchanged by further outcomes.
    pub fn evaluate<S: Ord + Clone + Hash>(
        &self,
        order: Order,
        initial: S,
        mut next: impl FnMut(&S, &T, u32) -> S,
        mut is_final: impl FnMut(&S) -> bool,
        budget: &mut Budget,
    ) -> Result<Dist<S>, ProbError> {
        const WHAT: &str = "pool evaluation";
        let ngroups = self.groups.len();
        let mut total = Weight::ONE;
        for (d, n) in &self.groups {
            total = total.mul(&d.total().pow(*n));
        }
        if ngroups == 0 {
            return Ok(Dist::certain(initial));
        }
        // Every outcome of any die, in visiting order.
        let mut outcomes: Vec<T> = self
            .groups
            .iter()
            .flat_map(|(d, _)| d.outcomes().cloned())
            .collect();
        outcomes.sort();
        outcomes.dedup();
        if order == Order::Descending {
            outcomes.reverse();
        }
        let max_n = self.groups.iter().map(|(_, n)| *n).max().unwrap_or(0) as usize;
        budget.burn((max_n as u64).saturating_mul(max_n as u64) / 2, WHAT)?;
        budget.check_size(Binomials::words(max_n), WHAT)?;
        let binom = Binomials::new(max_n);
        // Per group: weight at each visited outcome, and the weight of the outcomes after it.
        let mut weights: Vec<Vec<Weight>> = Vec::with_capacity(ngroups);
        let mut tails: Vec<Vec<Weight>> = Vec::with_capacity(ngroups);
        for (d, _) in &self.groups {
            let w: Vec<Weight> = outcomes.iter().map(|o| d.weight(o)).collect();
            let mut t = vec![Weight::ZERO; outcomes.len()];
            let mut acc = Weight::ZERO;
            for i in (0..outcomes.len()).rev() {
                t[i] = acc.clone();
                acc.add_assign(&w[i]);
            }
            weights.push(w);
            tails.push(t);
        }

        if ngroups == 1 {
            return self.evaluate_single(
                &outcomes,
                &weights[0],
                &tails[0],
                &binom,
                initial,
                next,
                is_final,
                total,
                budget,
            );
        }
        let mut states: HashMap<(S, Vec<u32>), Weight> = HashMap::new();
        states.insert(
            (initial, self.groups.iter().map(|(_, n)| *n).collect()),
            Weight::ONE,
        );
        let mut finished: HashMap<S, Weight> = HashMap::new();
        for (i, o) in outcomes.iter().enumerate() {
            // Powers of this outcome's weight, per group.
            let pows: Vec<Vec<Weight>> = (0..ngroups)
                .map(|g| crate::int::powers(&weights[g][i], self.groups[g].1))
                .collect();
            let mut next_states: HashMap<(S, Vec<u32>), Weight> = HashMap::new();
            for ((state, rem), w) in states.drain() {
                // Choose how many dice of each group show `o`. A group with no outcome after
                // `o` must place all its remaining dice here.
                let ranges: Vec<(u32, u32)> = (0..ngroups)
                    .map(|g| {
                        if weights[g][i].is_zero() {
                            (0, 0)
                        } else if tails[g][i].is_zero() {
                            (rem[g], rem[g])
                        } else {
                            (0, rem[g])
                        }
                    })
                    .collect();
                if (0..ngroups)
                    .any(|g| tails[g][i].is_zero() && weights[g][i].is_zero() && rem[g] > 0)
                {
                    continue; // impossible: dice left but no outcome for them
                }
                let mut ks: Vec<u32> = ranges.iter().map(|r| r.0).collect();
                loop {
                    budget.burn(TABLE_STEPS, WHAT)?;
                    let mut ww = w.clone();
                    let mut count = 0u32;
                    let mut new_rem = rem.clone();
                    for g in 0..ngroups {
                        let k = ks[g];
                        if k > 0 {
                            ww = ww
                                .mul(binom.get(rem[g] as usize, k as usize))
                                .mul(&pows[g][k as usize]);
                            count += k;
                            new_rem[g] -= k;
                        }
                    }
                    let s = next(&state, o, count);
                    if is_final(&s) {
                        for g in 0..ngroups {
                            if new_rem[g] > 0 {
                                ww = ww.mul(&tails[g][i].pow(new_rem[g]));
                            }
                        }
                        if !ww.is_zero() {
                            finished.entry(s).or_default().add_assign(&ww);
                        }
                    } else {
                        next_states.entry((s, new_rem)).or_default().add_assign(&ww);
                    }
                    // Checked as the table grows, not after the outcome: one outcome can
                    // create far more states than the cap.
                    budget.check_size(next_states.len() + finished.len(), WHAT)?;
                    // Advance the mixed-radix counter over the groups' ranges.
                    let mut g = 0;
                    loop {
                        if g == ngroups {
                            break;
                        }
                        if ks[g] < ranges[g].1 {
                            ks[g] += 1;
                            break;
                        }
                        ks[g] = ranges[g].0;
                        g += 1;
                    }
                    if g == ngroups {
                        break;
                    }
                }
            }
            budget.check_size(next_states.len() + finished.len(), WHAT)?;
            states = next_states;
        }
        let mut items: Vec<(S, Weight)> = finished.into_iter().collect();
        for ((s, rem), w) in states {
            debug_assert!(
                rem.iter().all(|r| *r == 0),
                "every die is placed by the last outcome"
            );
            items.push((s, w));
        }
        Ok(Dist::from_pairs_with_total(items, total))
    }

    /// [`Pool::evaluate`] for one group of identical dice: the states are grouped by automaton
    /// state with a vector of weights indexed by the number of dice left, so each transition
    /// `next(state, o, k)` is computed once per state and count rather than once per
    /// (state, dice left, count).
    #[allow(clippy::too_many_arguments)]
    fn evaluate_single<S: Ord + Clone + Hash>(
        &self,
        outcomes: &[T],
        weights: &[Weight],
        tails: &[Weight],
        binom: &Binomials,
        initial: S,
        mut next: impl FnMut(&S, &T, u32) -> S,
        mut is_final: impl FnMut(&S) -> bool,
        total: Weight,
        budget: &mut Budget,
    ) -> Result<Dist<S>, ProbError> {
        const WHAT: &str = "pool evaluation";
        let n = self.groups[0].1 as usize;
        // A live state holds n + 1 weights (one per number of dice left): it counts that much
        // against the cap, which thus bounds the memory of the table.
        let unit = n + 1;
        let mut states: HashMap<S, Vec<Weight>> = HashMap::new();
        let mut start = vec![Weight::ZERO; n + 1];
        start[n] = Weight::ONE;
        states.insert(initial, start);
        let mut finished: HashMap<S, Weight> = HashMap::new();
        for (i, o) in outcomes.iter().enumerate() {
            let pows = crate::int::powers(&weights[i], n as u32);
            let tail_pows = crate::int::powers(&tails[i], n as u32);
            let last = tails[i].is_zero();
            let mut next_states: HashMap<S, Vec<Weight>> = HashMap::new();
            for (state, by_rem) in states.drain() {
                let max_rem = by_rem.iter().rposition(|w| !w.is_zero()).unwrap_or(0);
                let max_k = if weights[i].is_zero() { 0 } else { max_rem };
                for k in 0..=max_k {
                    budget.burn(TABLE_STEPS + (max_rem - k) as u64, WHAT)?;
                    let s = next(&state, o, k as u32);
                    let coef = &pows[k];
                    if is_final(&s) {
                        let mut acc = Weight::ZERO;
                        for (rem, w) in by_rem.iter().enumerate().skip(k) {
                            if !w.is_zero() {
                                let t = &tail_pows[rem - k];
                                acc.add_assign(&w.mul(binom.get(rem, k)).mul(coef).mul(t));
                            }
                        }
                        if !acc.is_zero() {
                            finished.entry(s).or_default().add_assign(&acc);
                            budget.check_size(
                                next_states.len().saturating_mul(unit) + finished.len(),
                                WHAT,
                            )?;
                        }
                        continue;
                    }
                    let live = next_states.len();
                    let target = match next_states.entry(s) {
                        Entry::Occupied(slot) => slot.into_mut(),
                        Entry::Vacant(slot) => {
                            budget.check_size(
                                (live + 1).saturating_mul(unit) + finished.len(),
                                WHAT,
                            )?;
                            slot.insert(vec![Weight::ZERO; n + 1])
                        }
                    };
                    for (rem, w) in by_rem.iter().enumerate().skip(k) {
                        // With no outcome after this one, every remaining die must show it.
                        if w.is_zero() || (last && rem != k) {
                            continue;
                        }
                        target[rem - k].add_assign(&w.mul(binom.get(rem, k)).mul(coef));
                    }
                }
            }
            next_states.retain(|_, v| v.iter().any(|w| !w.is_zero()));
            states = next_states;
        }
        let mut items: Vec<(S, Weight)> = finished.into_iter().collect();
        for (s, by_rem) in states {
            debug_assert!(
                by_rem.iter().skip(1).all(Weight::is_zero),
                "every die placed"
            );
            items.push((s, by_rem[0].clone()));
        }
        Ok(Dist::from_pairs_with_total(items, total))
    }

    /// The distribution of the whole pool as a sorted (ascending) multiset, enumerated directly
    /// (each multiset once, weighted by its multinomial coefficient) without an automaton.
    pub fn multisets(&self, budget: &mut Budget) -> Result<Dist<Vec<T>>, ProbError> {
        let mut acc = Dist::certain(Vec::new());
        for (die, n) in &self.groups {
            let group = multisets_of(die, *n, budget)?;
            let len = acc.outcomes().map(Vec::len).max().unwrap_or(0) + *n as usize;
            acc = acc.product_with_cost(
                &group,
                |a, b| {
                    let mut v = Vec::with_capacity(a.len() + b.len());
                    v.extend_from_slice(a);
                    v.extend_from_slice(b);
                    v.sort();
                    v
                },
                len as u64 + 1,
                budget,
            )?;
        }
        Ok(acc)
    }

    /// The distribution of the sorted multiset of the `keep` highest (or, with
    /// [`Order::Ascending`], lowest) dice, listed in visiting order.
    pub fn keep_extreme(
        &self,
        order: Order,
        keep: u32,
        budget: &mut Budget,
    ) -> Result<Dist<Vec<T>>, ProbError> {
        let keep = keep.min(u32::try_from(self.size()).unwrap_or(u32::MAX));
        self.evaluate(
            order,
            Vec::new(),
            |kept: &Vec<T>, o, count| {
                let take = (keep as usize - kept.len()).min(count as usize);
                let mut k = kept.clone();
                k.extend(std::iter::repeat_n(o.clone(), take));
                k
            },
            |kept| kept.len() == keep as usize,
            budget,
        )
    }
}

impl Pool<i64> {
    /// The distribution of the sum of the `keep` highest (or, with [`Order::Ascending`],
    /// lowest) dice, tracking only (dice kept, running sum) as state.
    pub fn sum_extreme(
        &self,
        order: Order,
        keep: u32,
        budget: &mut Budget,
    ) -> Result<Dist<i64>, ProbError> {
        let keep = keep.min(u32::try_from(self.size()).unwrap_or(u32::MAX));
        let d = self.evaluate(
            order,
            (0u32, 0i64),
            |&(kept, sum), o, count| {
                let take = (keep - kept).min(count);
                (
                    kept + take,
                    sum.wrapping_add(o.wrapping_mul(i64::from(take))),
                )
            },
            |&(kept, _)| kept == keep,
            budget,
        )?;
        Ok(d.map(|&(_, s)| s))
    }
}

/// The sorted multisets of `n` dice distributed as `die`, by depth-first enumeration of how
/// many dice show each outcome.
fn multisets_of<T: Ord + Clone>(
    die: &Dist<T>,
    n: u32,
    budget: &mut Budget,
) -> Result<Dist<Vec<T>>, ProbError> {
    const WHAT: &str = "multisets of a pool";
    let faces: Vec<(&T, &Weight)> = die.iter().collect();
    let m = faces.len();
    // The number of multisets, C(n + m − 1, n), checked before enumerating; each is a list
    // of n values, so it counts n + 1 times against the cap.
    let unit = u128::from(n) + 1;
    let mut count: u128 = 1;
    for j in 0..u128::from(n).min(m as u128 - 1) {
        let top = m as u128 - 1 + u128::from(n) - j;
        count = count.saturating_mul(top) / (j + 1);
        if count.saturating_mul(unit) > budget.max_outcomes() as u128 {
            return Err(ProbError::TooManyOutcomes {
                what: WHAT,
                limit: budget.max_outcomes(),
            });
        }
    }
    budget.burn((count as u64).saturating_mul(u64::from(n).max(1)), WHAT)?;
    // Binomials are needed only to split dice between two or more faces; one face is one
    // multiset (`9920#0`), and a table for thousands of dice would be gigabytes.
    let table_n = if m > 1 { n as usize } else { 0 };
    budget.check_size(Binomials::words(table_n), WHAT)?;
    let binom = Binomials::new(table_n);
    let pows: Vec<Vec<Weight>> = faces
        .iter()
        .map(|(_, w)| crate::int::powers(w, n))
        .collect();
    let mut items: Vec<(Vec<T>, Weight)> = Vec::with_capacity(count as usize);
    // (next face, dice left, multiset so far, weight so far)
    let mut stack: Vec<(usize, u32, Vec<T>, Weight)> = vec![(0, n, Vec::new(), Weight::ONE)];
    while let Some((i, r, v, w)) = stack.pop() {
        if r == 0 {
            items.push((v, w));
            continue;
        }
        if i + 1 == m {
            let mut v = v;
            v.extend(std::iter::repeat_n(faces[i].0.clone(), r as usize));
            let w = w.mul(&pows[i][r as usize]);
            items.push((v, w));
            continue;
        }
        for k in 0..=r {
            let mut v2 = v.clone();
            v2.extend(std::iter::repeat_n(faces[i].0.clone(), k as usize));
            let w2 = w
                .mul(binom.get(r as usize, k as usize))
                .mul(&pows[i][k as usize]);
            stack.push((i + 1, r - k, v2, w2));
        }
    }
    let total = die.total().pow(n);
    Ok(Dist::from_pairs_with_total(items, total))
}
