//! Lazy pools: `n#d…` kept as "n independent dice" so that `sum`, `count`, `high`/`low` and
//! comparison filters over them are evaluated outcome by outcome (alea-prob's [`Pool`]) instead
//! of enumerating every roll. Only used where the value's order cannot matter (an unordered
//! mark), since a pool has no order.

use crate::ast::{Aggregate, Selector};
use alea_prob::{Budget, Dist, Order, Pool, ProbError, Weight};

/// A `keep`/`drop` of `high`/`low` n applied to a pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Keep {
    /// Visiting order: descending for `high`, ascending for `low`.
    pub order: Order,
    /// How many members the selector names.
    pub n: u32,
    /// `drop`: skip the first `n` members met in `order` and keep the rest.
    pub drop: bool,
}

/// Groups of identical dice: `(die, how many)`.
pub(crate) type Groups = Vec<(Dist<i32>, u32)>;

/// A mixture of pools of independent single-value dice, with comparison filters and at most
/// one final keep/drop.
#[derive(Clone, Debug)]
pub(crate) struct LazyPool {
    /// Relative weight and the dice groups of each component (a random count gives several).
    pub components: Vec<(Weight, Groups)>,
    /// Members pass if every comparison holds (`drop` inverts one).
    pub filters: Vec<(Selector, bool, i32)>,
    /// The final keep/drop, applied after the filters.
    pub keep: Option<Keep>,
}

/// Whether a member of value `v` passes every comparison filter (`drop` inverts one).
pub(crate) fn passes(filters: &[(Selector, bool, i32)], v: i32) -> bool {
    filters.iter().all(|(s, drop, x)| s.compare(v, *x) != *drop)
}

/// Above this many dice in one component, pools are summed by convolution only.
pub(crate) const MAX_POOL_DICE: u32 = 5_000;

impl LazyPool {
    pub(crate) fn single(die: Dist<i32>, n: u32) -> LazyPool {
        LazyPool {
            components: vec![(Weight::ONE, vec![(die, n)])],
            filters: Vec::new(),
            keep: None,
        }
    }

    pub(crate) fn is_plain(&self) -> bool {
        self.filters.is_empty() && self.keep.is_none()
    }

    fn passes(&self, v: i32) -> bool {
        passes(&self.filters, v)
    }

    /// The longest list a roll of the pool appends to the roller's buffer before its
    /// comparison filters remove members in place (a keep works on a buffer of its own and
    /// appends only the kept ones).
    pub(crate) fn max_raw_len(&self) -> usize {
        match self.keep {
            Some(_) => self.max_len(),
            None => self
                .components
                .iter()
                .map(|(_, g)| g.iter().map(|(_, c)| *c as usize).sum())
                .max()
                .unwrap_or(0),
        }
    }

    /// The longest list a roll of the pool gives: every die that can pass the filters passes
    /// (dice are independent, every face has p > 0), then the keep.
    pub(crate) fn max_len(&self) -> usize {
        let passing = |g: &Groups| -> usize {
            g.iter()
                .filter(|(die, _)| die.outcomes().any(|&v| self.passes(v)))
                .map(|(_, c)| *c as usize)
                .sum()
        };
        let kept = |c: usize| match &self.keep {
            None => c,
            Some(k) if k.drop => c.saturating_sub(k.n as usize),
            Some(k) => c.min(k.n as usize),
        };
        self.components
            .iter()
            .map(|(_, g)| kept(passing(g)))
            .max()
            .unwrap_or(0)
    }

    /// The concatenation of two plain pools (independent).
    pub(crate) fn concat(&self, other: &LazyPool) -> LazyPool {
        let mut components = Vec::new();
        for (wa, ga) in &self.components {
            for (wb, gb) in &other.components {
                let mut g = ga.clone();
                g.extend(gb.iter().cloned());
                components.push((wa.mul(wb), g));
            }
        }
        LazyPool {
            components,
            filters: Vec::new(),
            keep: None,
        }
    }

    /// Runs an automaton over every component whose reducer state `R` starts at `init` and
    /// absorbs `take` kept members of value `v` through `add`; mixes the components.
    pub(crate) fn run<R: Ord + Clone + std::hash::Hash>(
        &self,
        init: R,
        add: impl Fn(&R, i32, u32) -> R,
        budget: &mut Budget,
    ) -> Result<Dist<R>, ProbError> {
        self.run_with(|_| init.clone(), add, true, budget)
    }

    /// [`LazyPool::run`] that starts each component at `init(its groups)` and, unless
    /// `stop_when_kept`, visits every face of the component's dice even after a keep is
    /// satisfied (with a kept count of 0): counts per face (`faces.rs`) must see each face.
    pub(crate) fn run_with<R: Ord + Clone + std::hash::Hash>(
        &self,
        init: impl Fn(&Groups) -> R,
        add: impl Fn(&R, i32, u32) -> R,
        stop_when_kept: bool,
        budget: &mut Budget,
    ) -> Result<Dist<R>, ProbError> {
        let mut parts = Vec::with_capacity(self.components.len());
        for (w, groups) in &self.components {
            let pool = Pool::from_groups(groups.clone());
            if pool.size() > u64::from(MAX_POOL_DICE) {
                return Err(ProbError::TooManyOutcomes {
                    what: "pool of dice",
                    limit: MAX_POOL_DICE as usize,
                });
            }
            let order = self.keep.as_ref().map_or(Order::Ascending, |k| k.order);
            let keep = self.keep.clone();
            let d = pool.evaluate(
                order,
                (0u32, init(groups)),
                |(seen, r), &o, count| {
                    let passing = if self.passes(o) { count } else { 0 };
                    match &keep {
                        None => (*seen, add(r, o, passing)),
                        Some(k) if k.drop => {
                            let skip = (k.n - seen).min(passing);
                            (seen + skip, add(r, o, passing - skip))
                        }
                        Some(k) => {
                            let take = (k.n - seen).min(passing);
                            (seen + take, add(r, o, take))
                        }
                    }
                },
                |(seen, _)| stop_when_kept && matches!(&keep, Some(k) if !k.drop && *seen == k.n),
                budget,
            )?;
            parts.push((w.clone(), d.map(|(_, r)| r.clone())));
        }
        Dist::mixture(parts, budget)
    }

    /// `sum`, `prod` or `count` of the pool.
    pub(crate) fn aggregate(
        &self,
        agg: Aggregate,
        budget: &mut Budget,
    ) -> Result<Dist<i32>, ProbError> {
        if self.keep.is_none() && agg != Aggregate::Prod {
            // Convolution of per-die contributions: the value (sum) or 1 (count), 0 if filtered.
            let mut parts = Vec::with_capacity(self.components.len());
            for (w, groups) in &self.components {
                let mut acc = Dist::certain(0i64);
                for (die, n) in groups {
                    if agg == Aggregate::Count {
                        // A count is binomial: built directly, not by n convolutions
                        // (`count >7 50#d10`).
                        let d = die.map(|&v| i64::from(v));
                        // Charged like the convolutions it replaces: n + 1 weights of up to
                        // n·log2(total) bits, a few products each.
                        let words = (u64::from(*n) * d.total().bits()).div_ceil(64).max(1);
                        budget.burn(
                            (u64::from(*n) + 1).saturating_mul(words),
                            "count (binomial)",
                        )?;
                        let count = d.count_iid(*n, |&v| self.passes(v as i32));
                        acc = acc.convolve(&count, budget)?;
                        continue;
                    }
                    // A member's share of the aggregate: `ops::aggregate` of it, or of `()`.
                    let contribution = die.map(|&v| {
                        let kept: &[i32] = if self.passes(v) { &[v] } else { &[] };
                        i64::from(crate::ops::aggregate(agg, kept.iter().copied()))
                    });
                    acc = acc.convolve(&contribution.sum_iid(*n, budget)?, budget)?;
                }
                parts.push((w.clone(), acc.map(|&s| s as i32)));
            }
            return Dist::mixture(parts, budget);
        }
        if self.keep.is_none() {
            // The product of independent factors (1 for a filtered member), by repeated
            // squaring: `prod(10#d1000)` meets its hopeless d1000^4 (6·10^10 pairs, charged
            // before any work) in the second step instead of growing a table of partial
            // products outcome by outcome.
            let mut parts = Vec::with_capacity(self.components.len());
            for (w, groups) in &self.components {
                let mut acc = Dist::certain(1i32);
                for (die, n) in groups {
                    let factor = die.map(|&v| if self.passes(v) { v } else { 1 });
                    acc = acc.product(&prod_iid(&factor, *n, budget)?, mul, budget)?;
                }
                parts.push((w.clone(), acc));
            }
            return Dist::mixture(parts, budget);
        }
        match agg {
            Aggregate::Sum => self.run(
                0i32,
                |s, v, k| s.wrapping_add(v.wrapping_mul(k as i32)),
                budget,
            ),
            Aggregate::Count => self.run(0i32, |s, _, k| s + k as i32, budget),
            Aggregate::Prod => self.run(
                1i32,
                |p, v, k| {
                    let mut p = *p;
                    for _ in 0..k {
                        p = p.wrapping_mul(v);
                    }
                    p
                },
                budget,
            ),
        }
    }

    /// The distribution of the kept members as sorted lists.
    pub(crate) fn materialize(&self, budget: &mut Budget) -> Result<Dist<Vec<i32>>, ProbError> {
        if self.is_plain() {
            let mut parts = Vec::with_capacity(self.components.len());
            for (w, groups) in &self.components {
                parts.push((
                    w.clone(),
                    Pool::from_groups(groups.clone()).multisets(budget)?,
                ));
            }
            return Dist::mixture(parts, budget);
        }
        let d = self.run(
            Vec::new(),
            |kept: &Vec<i32>, v, k| {
                let mut out = kept.clone();
                out.extend(std::iter::repeat_n(v, k as usize));
                out
            },
            budget,
        )?;
        Ok(d.map(|v| {
            let mut v = v.clone();
            v.sort_unstable();
            v
        }))
    }
}

fn mul(a: &i32, b: &i32) -> i32 {
    a.wrapping_mul(*b)
}

/// The distribution of the (wrapping) product of `n` independent copies of `die`, by repeated
/// squaring (wrapping multiplication is associative and commutative).
fn prod_iid(die: &Dist<i32>, n: u32, budget: &mut Budget) -> Result<Dist<i32>, ProbError> {
    let mut result = Dist::certain(1i32);
    let mut base = die.clone();
    let mut e = n;
    while e > 0 {
        if e & 1 == 1 {
            result = result.product(&base, mul, budget)?;
        }
        e >>= 1;
        if e > 0 {
            base = base.product(&base, mul, budget)?;
        }
    }
    Ok(result)
}
