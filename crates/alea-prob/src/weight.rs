//! Non-negative integer weights: `u128` while they fit, [`BigUint`] beyond.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;

/// A non-negative integer weight.
///
/// Most dice distributions have totals far below 2^128 (`20#d6` has 6^20 ≈ 2^52), so weights
/// are plain `u128` and arithmetic promotes to [`BigUint`] only when a result overflows
/// (`100#d20` needs 20^100 ≈ 2^432). The representation is canonical: a value that fits in
/// `u128` is always `Small`, so derived equality is value equality.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Weight {
    /// A weight below 2^128.
    Small(u128),
    /// A weight of at least 2^128.
    Big(BigUint),
}

impl Weight {
    /// Zero.
    pub const ZERO: Weight = Weight::Small(0);
    /// One.
    pub const ONE: Weight = Weight::Small(1);

    /// The canonical weight of a big integer (small when it fits).
    pub fn from_big(b: BigUint) -> Weight {
        match b.to_u128() {
            Some(s) => Weight::Small(s),
            None => Weight::Big(b),
        }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        matches!(self, Weight::Small(0))
    }

    /// The value as a big integer.
    pub fn to_biguint(&self) -> BigUint {
        match self {
            Weight::Small(s) => BigUint::from(*s),
            Weight::Big(b) => b.clone(),
        }
    }

    /// The value as a `u128`, if it fits.
    pub fn to_u128(&self) -> Option<u128> {
        match self {
            Weight::Small(s) => Some(*s),
            Weight::Big(_) => None,
        }
    }

    /// The number of significant bits (0 for zero).
    pub fn bits(&self) -> u64 {
        match self {
            Weight::Small(s) => 128 - u64::from(s.leading_zeros()),
            Weight::Big(b) => b.bits(),
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &Weight) -> Weight {
        match (self, other) {
            (Weight::Small(a), Weight::Small(b)) => match a.checked_add(*b) {
                Some(s) => Weight::Small(s),
                None => Weight::Big(BigUint::from(*a) + *b),
            },
            (Weight::Big(a), Weight::Small(b)) | (Weight::Small(b), Weight::Big(a)) => {
                Weight::Big(a + *b)
            }
            (Weight::Big(a), Weight::Big(b)) => Weight::Big(a + b),
        }
    }

    /// `self += other`, reusing the allocation of a big weight.
    pub fn add_assign(&mut self, other: &Weight) {
        match (&mut *self, other) {
            (Weight::Small(a), Weight::Small(b)) => match a.checked_add(*b) {
                Some(s) => *a = s,
                None => *self = Weight::Big(BigUint::from(*a) + *b),
            },
            (Weight::Big(a), Weight::Small(b)) => *a += *b,
            (Weight::Big(a), Weight::Big(b)) => *a += b,
            (Weight::Small(a), Weight::Big(b)) => *self = Weight::Big(b + *a),
        }
    }

    /// `self * other`.
    pub fn mul(&self, other: &Weight) -> Weight {
        match (self, other) {
            (Weight::Small(a), Weight::Small(b)) => match a.checked_mul(*b) {
                Some(s) => Weight::Small(s),
                None => Weight::Big(BigUint::from(*a) * *b),
            },
            (Weight::Small(0), _) | (_, Weight::Small(0)) => Weight::ZERO,
            (Weight::Big(a), Weight::Small(b)) | (Weight::Small(b), Weight::Big(a)) => {
                Weight::Big(a * *b)
            }
            (Weight::Big(a), Weight::Big(b)) => Weight::Big(a * b),
        }
    }

    /// `self - other`; `other` must not exceed `self`.
    ///
    /// # Panics
    /// When `other > self` (a bug in the caller, never a property of the input).
    pub fn sub(&self, other: &Weight) -> Weight {
        match (self, other) {
            (Weight::Small(a), Weight::Small(b)) => {
                Weight::Small(a.checked_sub(*b).expect("weight subtraction underflow"))
            }
            _ => Weight::from_big(self.to_biguint() - other.to_biguint()),
        }
    }

    /// `self^exp`.
    pub fn pow(&self, exp: u32) -> Weight {
        let mut result = Weight::ONE;
        let mut base = self.clone();
        let mut e = exp;
        while e > 0 {
            if e & 1 == 1 {
                result = result.mul(&base);
            }
            e >>= 1;
            if e > 0 {
                base = base.mul(&base);
            }
        }
        result
    }

    /// The greatest common divisor (`gcd(0, x) = x`).
    pub fn gcd(&self, other: &Weight) -> Weight {
        match (self, other) {
            (Weight::Small(a), Weight::Small(b)) => Weight::Small(a.gcd(b)),
            _ => Weight::from_big(self.to_biguint().gcd(&other.to_biguint())),
        }
    }

    /// Exact division; `other` must divide `self` and be non-zero.
    ///
    /// # Panics
    /// When `other` is zero.
    pub fn div_exact(&self, other: &Weight) -> Weight {
        match (self, other) {
            (Weight::Small(a), Weight::Small(b)) => Weight::Small(a / b),
            _ => Weight::from_big(self.to_biguint() / other.to_biguint()),
        }
    }

    /// The least common multiple of two non-zero weights.
    pub fn lcm(&self, other: &Weight) -> Weight {
        let g = self.gcd(other);
        if g.is_zero() {
            return Weight::ZERO;
        }
        self.div_exact(&g).mul(other)
    }
}

impl From<u64> for Weight {
    fn from(v: u64) -> Weight {
        Weight::Small(u128::from(v))
    }
}

impl From<u128> for Weight {
    fn from(v: u128) -> Weight {
        Weight::Small(v)
    }
}

impl From<BigUint> for Weight {
    fn from(v: BigUint) -> Weight {
        Weight::from_big(v)
    }
}

impl Default for Weight {
    fn default() -> Weight {
        Weight::ZERO
    }
}

impl Zero for Weight {
    fn zero() -> Weight {
        Weight::ZERO
    }
    fn is_zero(&self) -> bool {
        Weight::is_zero(self)
    }
}

impl std::ops::Add for Weight {
    type Output = Weight;
    fn add(self, rhs: Weight) -> Weight {
        Weight::add(&self, &rhs)
    }
}

impl std::ops::Mul for Weight {
    type Output = Weight;
    fn mul(self, rhs: Weight) -> Weight {
        Weight::mul(&self, &rhs)
    }
}

impl One for Weight {
    fn one() -> Weight {
        Weight::ONE
    }
}

impl Ord for Weight {
    fn cmp(&self, other: &Weight) -> Ordering {
        match (self, other) {
            (Weight::Small(a), Weight::Small(b)) => a.cmp(b),
            (Weight::Small(_), Weight::Big(_)) => Ordering::Less,
            (Weight::Big(_), Weight::Small(_)) => Ordering::Greater,
            (Weight::Big(a), Weight::Big(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Weight {
    fn partial_cmp(&self, other: &Weight) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Weight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Weight::Small(s) => write!(f, "{s}"),
            Weight::Big(b) => write!(f, "{b}"),
        }
    }
}

/// Binomial coefficients `C(n, k)` for `n ≤ max_n`, as a Pascal triangle.
#[derive(Clone, Debug)]
pub(crate) struct Binomials {
    rows: Vec<Vec<Weight>>,
}

impl Binomials {
    /// The size of a table up to `max_n` in 64-bit words: its (n+1)(n+2)/2 entries plus their
    /// bits (C(n, k) has up to n bits), about n³/384. Charged against the size budget before
    /// building: the memory grows with the cube of the pool size (3000 dice: about 1 GB).
    pub(crate) fn words(max_n: usize) -> usize {
        let n = max_n as u128;
        let words = (n + 1) * (n + 2) / 2 + n * n * n / 384;
        usize::try_from(words).unwrap_or(usize::MAX)
    }

    pub(crate) fn new(max_n: usize) -> Binomials {
        let mut rows: Vec<Vec<Weight>> = Vec::with_capacity(max_n + 1);
        rows.push(vec![Weight::ONE]);
        for n in 1..=max_n {
            let prev = &rows[n - 1];
            let mut row = Vec::with_capacity(n + 1);
            row.push(Weight::ONE);
            for k in 1..n {
                row.push(prev[k - 1].add(&prev[k]));
            }
            row.push(Weight::ONE);
            rows.push(row);
        }
        Binomials { rows }
    }

    pub(crate) fn get(&self, n: usize, k: usize) -> &Weight {
        &self.rows[n][k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotes_on_overflow_and_stays_canonical() {
        let max = Weight::Small(u128::MAX);
        let sum = max.add(&Weight::ONE);
        assert!(matches!(sum, Weight::Big(_)));
        assert_eq!(sum.sub(&Weight::ONE), max);
        assert_eq!(Weight::from(20u64).pow(100).bits(), 433);
        let p = Weight::Small(1u128 << 100).mul(&Weight::Small(1u128 << 100));
        assert_eq!(p.to_biguint(), BigUint::from(1u8) << 200usize);
        assert_eq!(
            p.div_exact(&Weight::Small(1u128 << 100)),
            Weight::Small(1u128 << 100)
        );
    }

    #[test]
    fn gcd_lcm_and_binomials() {
        assert_eq!(
            Weight::from(12u64).gcd(&Weight::from(18u64)),
            Weight::from(6u64)
        );
        assert_eq!(
            Weight::from(4u64).lcm(&Weight::from(6u64)),
            Weight::from(12u64)
        );
        let b = Binomials::new(200);
        assert_eq!(*b.get(5, 2), Weight::from(10u64));
        assert_eq!(
            b.get(200, 100).to_string(),
            "90548514656103281165404177077484163874504589675413336841320"
        );
        let mut w = Weight::Small(u128::MAX);
        w.add_assign(&Weight::Small(2));
        assert_eq!(w.to_string(), "340282366920938463463374607431768211457");
    }
}
