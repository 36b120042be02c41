//! Fast paths for integer outcomes: sums by convolution.

use crate::{Budget, Dist, ProbError, Weight};

/// Above this many cells, dense convolution gives way to the sparse product.
const DENSE_SPAN_LIMIT: u64 = 1 << 22;

impl Dist<i64> {
    /// The distribution of `X + Y` for independent X (self) and Y.
    ///
    /// Uses a dense array indexed by value when the outcomes are close together (the common
    /// dice case: `O(len(X)·len(Y))` multiply-adds without sorting), and the general
    /// [`Dist::product`] otherwise.
    pub fn convolve(&self, other: &Dist<i64>, budget: &mut Budget) -> Result<Dist<i64>, ProbError> {
        let (amin, amax) = (*self.min(), *self.max());
        let (bmin, bmax) = (*other.min(), *other.max());
        let span = (amax as i128 - amin as i128) + (bmax as i128 - bmin as i128) + 1;
        if span as u64 as i128 != span || span as u64 > DENSE_SPAN_LIMIT {
            return self.product(other, |a, b| a.wrapping_add(*b), budget);
        }
        let cells = self.len() as u64 * other.len() as u64;
        // Weights of huge pools are big integers (1000^5000 has 50 000 bits): each cell costs
        // its length in words.
        let bits = self.total().bits() + other.total().bits();
        let words = if bits <= 128 { 1 } else { bits.div_ceil(64) };
        budget.burn(
            (cells + span as u64).saturating_mul(words),
            "sum (convolution)",
        )?;
        let base = amin as i128 + bmin as i128;
        let mut acc = vec![Weight::ZERO; span as usize];
        for (a, wa) in self.iter() {
            let off = (*a as i128 - amin as i128) as usize;
            for (b, wb) in other.iter() {
                let j = off + (*b as i128 - bmin as i128) as usize;
                if *wb == Weight::ONE {
                    // Fair dice: no multiplication (and no big-integer allocation).
                    acc[j].add_assign(wa);
                } else {
                    acc[j].add_assign(&wa.mul(wb));
                }
            }
        }
        let mut items = Vec::new();
        for (j, w) in acc.into_iter().enumerate() {
            if !w.is_zero() {
                // Sums beyond the i64 range wrap, like the sparse path.
                items.push(((base + j as i128) as i64, w));
            }
        }
        budget.check_size(items.len(), "sum (convolution)")?;
        let total = self.total().mul(other.total());
        Ok(Dist::from_pairs_with_total(items, total))
    }

    /// The distribution of the sum of `n` independent copies of X (`n = 0` gives 0): one die
    /// at a time for small dice, by repeated squaring (`O(log n)` convolutions) otherwise.
    pub fn sum_iid(&self, n: u32, budget: &mut Budget) -> Result<Dist<i64>, ProbError> {
        if self.len() <= 16 {
            // A small die: adding one die at a time costs about n²·len² additions, far less
            // than squaring, whose last step multiplies two (n·len)-outcome halves.
            let mut result = Dist::certain(0i64);
            for _ in 0..n {
                result = result.convolve(self, budget)?;
            }
            return Ok(result);
        }
        let mut result = Dist::certain(0i64);
        let mut base = self.clone();
        let mut e = n;
        while e > 0 {
            if e & 1 == 1 {
                result = result.convolve(&base, budget)?;
            }
            e >>= 1;
            if e > 0 {
                base = base.convolve(&base, budget)?;
            }
        }
        Ok(result)
    }

    /// The distribution of the number of successes in `n` independent trials that each succeed
    /// with the probability that `pred` holds for X (a binomial distribution, built directly).
    pub fn count_iid(&self, n: u32, pred: impl FnMut(&i64) -> bool) -> Dist<i64> {
        let success = self.probability_weight(pred);
        let fail = self.total().sub(&success);
        binomial(n, &success, &fail)
    }

    fn probability_weight(&self, mut pred: impl FnMut(&i64) -> bool) -> Weight {
        let mut w = Weight::ZERO;
        for (t, tw) in self.iter() {
            if pred(t) {
                w.add_assign(tw);
            }
        }
        w
    }
}

/// The binomial distribution of successes in `n` trials, where one trial succeeds with weight
/// `success` and fails with weight `fail` (not both zero).
///
/// # Panics
/// When `success` and `fail` are both zero.
pub fn binomial(n: u32, success: &Weight, fail: &Weight) -> Dist<i64> {
    assert!(
        !(success.is_zero() && fail.is_zero()),
        "binomial of an impossible trial"
    );
    let total = success.add(fail).pow(n);
    let mut items = Vec::with_capacity(n as usize + 1);
    let mut coef = Weight::ONE;
    let fail_pows = powers(fail, n);
    let mut s_pow = Weight::ONE;
    for k in 0..=n {
        let w = coef.mul(&s_pow).mul(&fail_pows[(n - k) as usize]);
        if !w.is_zero() {
            items.push((i64::from(k), w));
        }
        // C(n, k+1) = C(n, k)·(n−k)/(k+1)
        coef = coef
            .mul(&Weight::from(u64::from(n - k)))
            .div_exact(&Weight::from(u64::from(k) + 1));
        s_pow = s_pow.mul(success);
    }
    Dist::from_pairs_with_total(items, total)
}

pub(crate) fn powers(w: &Weight, n: u32) -> Vec<Weight> {
    let mut out = Vec::with_capacity(n as usize + 1);
    let mut p = Weight::ONE;
    out.push(p.clone());
    for _ in 0..n {
        p = p.mul(w);
        out.push(p.clone());
    }
    out
}
