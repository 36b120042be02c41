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
use std::hash::Hash;

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
        budget.check_size(max_n.saturating_mul(max_n) / 2, WHAT)?;
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
                    budget.burn(1, WHAT)?;
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
