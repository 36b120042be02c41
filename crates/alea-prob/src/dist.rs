//! [`Dist`]: an exact finite distribution as integer weights over a common total.

use crate::{Budget, ProbError, Ratio, Weight};
use num_bigint::{BigInt, BigUint, Sign};
use std::fmt;

/// An exact probability distribution over finitely many outcomes of type `T`.
///
/// Stored as `(outcome, weight)` pairs sorted by outcome, without duplicates or zero weights,
/// together with their sum, the *total*: the probability of an outcome is `weight / total`.
/// Keeping integer weights over a common total (rather than one fraction per outcome) makes
/// sums and products of distributions cheap multiplications; fractions are reduced only for
/// display ([`Dist::probability`]). A distribution is never empty.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Dist<T> {
    items: Vec<(T, Weight)>,
    total: Weight,
}

impl<T: fmt::Debug> fmt::Debug for Dist<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Dist{")?;
        for (i, (t, w)) in self.items.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{t:?}: {w}")?;
        }
        write!(f, " /{}}}", self.total)
    }
}

impl<T: Ord + Clone> Dist<T> {
    /// The distribution that always gives `outcome`.
    pub fn certain(outcome: T) -> Dist<T> {
        Dist {
            items: vec![(outcome, Weight::ONE)],
            total: Weight::ONE,
        }
    }

    /// Each listed outcome with equal weight (a repeated outcome counts repeatedly).
    /// Fails with [`ProbError::ImpossibleCondition`] when the list is empty.
    pub fn uniform<I: IntoIterator<Item = T>>(outcomes: I) -> Result<Dist<T>, ProbError> {
        Dist::from_weights(outcomes.into_iter().map(|t| (t, Weight::ONE)))
    }

    /// The distribution with the given weights (merged when an outcome repeats, zero weights
    /// dropped), normalised by their sum. Fails when every weight is zero.
    pub fn from_weights<I: IntoIterator<Item = (T, Weight)>>(
        pairs: I,
    ) -> Result<Dist<T>, ProbError> {
        let mut items: Vec<(T, Weight)> = pairs.into_iter().filter(|(_, w)| !w.is_zero()).collect();
        if items.is_empty() {
            return Err(ProbError::ImpossibleCondition);
        }
        items.sort_by(|a, b| a.0.cmp(&b.0));
        let items = merge_sorted(items);
        let total = sum_weights(&items);
        Ok(Dist { items, total }.reduced())
    }

    /// Builds from pairs already sorted strictly by outcome with non-zero weights.
    fn from_sorted_unchecked(items: Vec<(T, Weight)>, total: Weight) -> Dist<T> {
        debug_assert!(items.windows(2).all(|w| w[0].0 < w[1].0));
        debug_assert!(sum_weights(&items) == total);
        Dist { items, total }
    }

    /// Builds from unsorted pairs (possibly repeated outcomes, no zero weights) whose weights
    /// sum to `total`.
    pub(crate) fn from_pairs_with_total(mut items: Vec<(T, Weight)>, total: Weight) -> Dist<T> {
        items.sort_by(|a, b| a.0.cmp(&b.0));
        let items = merge_sorted(items);
        Dist::from_sorted_unchecked(items, total).reduced()
    }

    /// The number of outcomes with positive probability.
    #[allow(clippy::len_without_is_empty)] // a distribution is never empty
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// The common denominator of the weights (their sum).
    pub fn total(&self) -> &Weight {
        &self.total
    }

    /// `(outcome, weight)` pairs in ascending order of outcome.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&T, &Weight)> + ExactSizeIterator {
        self.items.iter().map(|(t, w)| (t, w))
    }

    /// The outcomes in ascending order.
    pub fn outcomes(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator {
        self.items.iter().map(|(t, _)| t)
    }

    /// The pairs as a slice, ascending by outcome.
    pub fn as_slice(&self) -> &[(T, Weight)] {
        &self.items
    }

    /// The weight of `outcome` (zero when absent).
    pub fn weight(&self, outcome: &T) -> Weight {
        match self.items.binary_search_by(|(t, _)| t.cmp(outcome)) {
            Ok(i) => self.items[i].1.clone(),
            Err(_) => Weight::ZERO,
        }
    }

    /// The exact probability of `outcome`, reduced.
    pub fn probability(&self, outcome: &T) -> Ratio {
        Ratio::from_weights(&self.weight(outcome), &self.total)
    }

    /// Every outcome with its exact probability, ascending.
    pub fn ratios(&self) -> Vec<(T, Ratio)> {
        self.items
            .iter()
            .map(|(t, w)| (t.clone(), Ratio::from_weights(w, &self.total)))
            .collect()
    }

    /// Every outcome with its probability as the nearest `f64`, ascending.
    pub fn to_f64(&self) -> Vec<(T, f64)> {
        let total = self.total.to_biguint();
        self.items
            .iter()
            .map(|(t, w)| {
                (
                    t.clone(),
                    crate::ratio::ratio_to_f64(&w.to_biguint(), &total),
                )
            })
            .collect()
    }

    /// The exact probability that `pred` holds.
    pub fn probability_of(&self, mut pred: impl FnMut(&T) -> bool) -> Ratio {
        let mut w = Weight::ZERO;
        for (t, tw) in &self.items {
            if pred(t) {
                w.add_assign(tw);
            }
        }
        Ratio::from_weights(&w, &self.total)
    }

    /// Divides every weight and the total by their greatest common divisor.
    pub fn reduced(mut self) -> Dist<T> {
        let mut g = self.total.clone();
        for (_, w) in &self.items {
            if g == Weight::ONE {
                return self;
            }
            g = g.gcd(w);
        }
        if g != Weight::ONE && !g.is_zero() {
            for (_, w) in &mut self.items {
                *w = w.div_exact(&g);
            }
            self.total = self.total.div_exact(&g);
        }
        self
    }

    /// The distribution of `f(X)`; outcomes that map to the same value merge.
    pub fn map<U: Ord + Clone>(&self, mut f: impl FnMut(&T) -> U) -> Dist<U> {
        let items: Vec<(U, Weight)> = self.items.iter().map(|(t, w)| (f(t), w.clone())).collect();
        Dist::from_pairs_with_total(items, self.total.clone())
    }

    /// [`Dist::map`] with a fallible function: the first error (in ascending order of the
    /// outcomes, which all have positive probability) is returned.
    pub fn try_map<U: Ord + Clone, E>(
        &self,
        mut f: impl FnMut(&T) -> Result<U, E>,
    ) -> Result<Dist<U>, E> {
        let mut items = Vec::with_capacity(self.items.len());
        for (t, w) in &self.items {
            items.push((f(t)?, w.clone()));
        }
        Ok(Dist::from_pairs_with_total(items, self.total.clone()))
    }

    /// The distribution of X given `pred(X)`. Fails when no outcome satisfies `pred`.
    pub fn condition(&self, mut pred: impl FnMut(&T) -> bool) -> Result<Dist<T>, ProbError> {
        let items: Vec<(T, Weight)> = self
            .items
            .iter()
            .filter(|(t, _)| pred(t))
            .cloned()
            .collect();
        if items.is_empty() {
            return Err(ProbError::ImpossibleCondition);
        }
        let total = sum_weights(&items);
        Ok(Dist::from_sorted_unchecked(items, total).reduced())
    }

    /// The distribution of `f(X, Y)` for independent X (self) and Y (other).
    pub fn product<U: Ord + Clone, V: Ord + Clone>(
        &self,
        other: &Dist<U>,
        f: impl FnMut(&T, &U) -> V,
        budget: &mut Budget,
    ) -> Result<Dist<V>, ProbError> {
        self.product_with_cost(other, f, 1, budget)
    }

    /// [`Dist::product`] for outcomes that are `cost` times bigger than a number (lists of
    /// `cost − 1` values, say): every pair is charged 4 · `cost` steps (building, sorting and
    /// merging a pair costs several weight operations), taken before any work, and
    /// every distinct outcome counts `cost` times against the outcome cap. The pairs are merged
    /// in chunks and the cap is checked after every merge, so memory stays proportional to the
    /// (capped) number of distinct outcomes however many pairs there are.
    pub fn product_with_cost<U: Ord + Clone, V: Ord + Clone>(
        &self,
        other: &Dist<U>,
        mut f: impl FnMut(&T, &U) -> V,
        cost: u64,
        budget: &mut Budget,
    ) -> Result<Dist<V>, ProbError> {
        const WHAT: &str = "product of distributions";
        let cost = cost.max(1);
        let n = self.items.len() as u64 * other.items.len() as u64;
        budget.burn(n.saturating_mul(PAIR_STEPS * cost), WHAT)?;
        let unit = usize::try_from(cost).unwrap_or(usize::MAX);
        let chunk = product_chunk(budget.max_outcomes(), unit);
        let mut items = Vec::with_capacity(n.min(chunk as u64) as usize);
        let mut merge_at = chunk;
        for (a, wa) in &self.items {
            for (b, wb) in &other.items {
                items.push((f(a, b), wa.mul(wb)));
                if items.len() >= merge_at {
                    items = compact(items);
                    budget.check_size(items.len().saturating_mul(unit), WHAT)?;
                    merge_at = items.len() + chunk.max(items.len());
                }
            }
        }
        let total = self.total.mul(&other.total);
        let d = Dist::from_pairs_with_total(items, total);
        budget.check_size(d.len().saturating_mul(unit), WHAT)?;
        Ok(d)
    }

    /// The mixture `Σ P(X = x) · f(x)`: for each outcome `x`, `f(x)` is the distribution that
    /// follows (conditioning on a random binding, as `let` and `if` do). The first error of
    /// `f`, in ascending order of `x`, is returned.
    pub fn bind<U: Ord + Clone, E: From<ProbError>>(
        &self,
        mut f: impl FnMut(&T) -> Result<Dist<U>, E>,
        budget: &mut Budget,
    ) -> Result<Dist<U>, E> {
        let mut parts = Vec::with_capacity(self.items.len());
        for (t, w) in &self.items {
            parts.push((w.clone(), f(t)?));
        }
        Ok(Dist::mixture(parts, budget)?)
    }

    /// The mixture of distributions `parts[i].1` with relative weights `parts[i].0`.
    /// Fails when every weight is zero.
    pub fn mixture(
        parts: Vec<(Weight, Dist<T>)>,
        budget: &mut Budget,
    ) -> Result<Dist<T>, ProbError> {
        let parts: Vec<(Weight, Dist<T>)> =
            parts.into_iter().filter(|(w, _)| !w.is_zero()).collect();
        if parts.is_empty() {
            return Err(ProbError::ImpossibleCondition);
        }
        if parts.len() == 1 {
            return Ok(parts.into_iter().next().map(|(_, d)| d).expect("one part"));
        }
        // Scale every part to the least common multiple of the part totals. That multiple can
        // grow to thousands of bits (`d(d1000000)` mixes d1, …, d10^6, whose totals have no
        // small common multiple): big weights are charged by their length in 64-bit words,
        // as steps and against the outcome cap, before any is built, so such mixtures fail
        // at once instead of spending minutes and gigabytes on big integers.
        const WHAT: &str = "mixture of distributions";
        let mut common = Weight::ONE;
        for (_, d) in &parts {
            let words = weight_words(&common);
            budget.burn(words.saturating_mul(words), WHAT)?;
            common = common.lcm(&d.total);
        }
        let size: usize = parts.iter().map(|(_, d)| d.len()).sum();
        let words = weight_words(&common);
        let cells = (size as u64).saturating_mul(words);
        // Merging sorts the parts' outcomes together: a comparison of lists per merge pass
        // (some 10 passes for 1000 parts), each a pointer chase.
        budget.burn(cells.saturating_mul(MIXTURE_STEPS), WHAT)?;
        budget.check_size(usize::try_from(cells).unwrap_or(usize::MAX), WHAT)?;
        let mut items = Vec::with_capacity(size);
        let mut weight_sum = Weight::ZERO;
        for (w, d) in parts {
            weight_sum.add_assign(&w);
            let factor = w.mul(&common.div_exact(&d.total));
            for (t, tw) in d.items {
                items.push((t, tw.mul(&factor)));
            }
        }
        let d = Dist::from_pairs_with_total(items, weight_sum.mul(&common));
        budget.check_size(d.len(), WHAT)?;
        Ok(d)
    }

    /// The smallest outcome.
    pub fn min(&self) -> &T {
        &self.items[0].0
    }

    /// The largest outcome.
    pub fn max(&self) -> &T {
        &self.items[self.items.len() - 1].0
    }

    /// Mean and variance of `value(X)` conditional on `value(X)` being `Some`; `None` when it
    /// is `None` for every outcome. Exact.
    pub fn moments(&self, mut value: impl FnMut(&T) -> Option<i64>) -> Option<Moments> {
        let mut n = BigUint::from(0u8);
        let mut s1 = BigInt::from(0);
        let mut s2 = BigInt::from(0);
        for (t, w) in &self.items {
            if let Some(v) = value(t) {
                let w = BigInt::from(w.to_biguint());
                n += w.magnitude();
                let v = BigInt::from(v);
                s2 += &w * &v * &v;
                s1 += w * v;
            }
        }
        if n == BigUint::from(0u8) {
            return None;
        }
        let n = BigInt::from(n);
        // mean = s1/n; variance = (s2·n − s1²)/n².
        let var_num = &s2 * &n - &s1 * &s1;
        Some(Moments {
            mean: SignedRatio::new(s1, n.clone()),
            variance: Ratio::new(var_num.magnitude().clone(), (&n * &n).magnitude().clone()),
        })
    }
}

/// An exact signed fraction in lowest terms, displayed as `p/q` or `-p/q`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedRatio {
    /// True when negative.
    pub negative: bool,
    /// The absolute value.
    pub magnitude: Ratio,
}

impl SignedRatio {
    fn new(num: BigInt, den: BigInt) -> SignedRatio {
        let negative = (num.sign() == Sign::Minus) != (den.sign() == Sign::Minus)
            && num.sign() != Sign::NoSign;
        SignedRatio {
            negative,
            magnitude: Ratio::new(num.magnitude().clone(), den.magnitude().clone()),
        }
    }

    /// The nearest `f64`.
    pub fn to_f64(&self) -> f64 {
        let m = self.magnitude.to_f64();
        if self.negative { -m } else { m }
    }
}

impl fmt::Display for SignedRatio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        write!(f, "{}", self.magnitude)
    }
}

/// Exact mean and variance (see [`Dist::moments`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moments {
    /// E\[X\].
    pub mean: SignedRatio,
    /// E\[X²\] − E\[X\]².
    pub variance: Ratio,
}

impl Moments {
    /// The standard deviation, √variance, as an `f64`.
    pub fn sd(&self) -> f64 {
        self.variance.to_f64().sqrt()
    }
}

/// The memory of a weight in 64-bit words beyond the inline `u128` (at least 1).
fn weight_words(w: &Weight) -> u64 {
    match w.bits() {
        0..=128 => 1,
        bits => bits.div_ceil(64),
    }
}

pub(crate) fn sum_weights<T>(items: &[(T, Weight)]) -> Weight {
    let mut total = Weight::ZERO;
    for (_, w) in items {
        total.add_assign(w);
    }
    total
}

/// Merges the weights of equal neighbours in place: a second vector as big as the first was
/// the peak of every map and product of a big distribution (twice its final size).
fn merge_sorted<T: Ord>(mut items: Vec<(T, Weight)>) -> Vec<(T, Weight)> {
    items.dedup_by(|(t, w), (kept, kw)| {
        let same = *t == *kept;
        if same {
            kw.add_assign(w);
        }
        same
    });
    items
}

/// Steps per outcome (and word of weight) of [`Dist::mixture`].
const MIXTURE_STEPS: u64 = 32;

/// Steps of one pair of [`Dist::product_with_cost`] per unit of size: building it, and sorting
/// and merging it with the others (comparisons of lists chase pointers).
const PAIR_STEPS: u64 = 4;

/// How many pairs [`Dist::product_with_cost`] collects between merges: at most 2^20, and no
/// more than the cap allows outcomes of `unit` size (so a hopeless product of big lists fails
/// at its first merge instead of after gigabytes of pairs).
fn product_chunk(max_outcomes: usize, unit: usize) -> usize {
    const CHUNK: usize = 1 << 20;
    (max_outcomes / unit.max(1))
        .saturating_add(1)
        .clamp(1 << 10, CHUNK)
}

fn compact<T: Ord>(mut items: Vec<(T, Weight)>) -> Vec<(T, Weight)> {
    items.sort_by(|a, b| a.0.cmp(&b.0));
    merge_sorted(items)
}
