//! Non-negative integer weights: `u128` while they fit, [`BigUint`] beyond.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;

/// A non-negative integer weight.
///
/// Most dice distributions have totals far below 2^128 (`20#d6` has 6^20 ≈ 2^52), so weights
/// are plain 128-bit integers and arithmetic promotes to [`BigUint`] only when a result
/// overflows (`100#d20` needs 20^100 ≈ 2^432). The representation is canonical: a value that
/// fits in 128 bits is always small, so derived equality is value equality.
///
/// The small value is stored as two `u64` halves rather than a `u128`: a `u128` is 16-byte
/// aligned, which made a weight 32 bytes and every `(outcome, weight)` pair of a distribution
/// padded to 16 bytes; with 8-byte halves the enum shares the big integer's spare bits and is
/// 24 bytes (a distribution of 10^7 one-value outcomes is the cap dicelab calc allows, so
/// these bytes are hundreds of megabytes there). Arithmetic still runs on `u128`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Weight(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    /// A weight below 2^128: low and high halves.
    Small([u64; 2]),
    /// A weight of at least 2^128.
    Big(BigUint),
}

fn join([lo, hi]: [u64; 2]) -> u128 {
    u128::from(lo) | (u128::from(hi) << 64)
}

const fn small(v: u128) -> Weight {
    Weight(Repr::Small([v as u64, (v >> 64) as u64]))
}

impl fmt::Debug for Weight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weight({self})")
    }
}

impl Weight {
    /// Zero.
    pub const ZERO: Weight = small(0);
    /// One.
    pub const ONE: Weight = small(1);

    fn small(&self) -> Option<u128> {
        match &self.0 {
            Repr::Small(halves) => Some(join(*halves)),
            Repr::Big(_) => None,
        }
    }

    fn big(b: BigUint) -> Weight {
        debug_assert!(b.bits() > 128);
        Weight(Repr::Big(b))
    }

    /// The canonical weight of a big integer (small when it fits).
    pub fn from_big(b: BigUint) -> Weight {
        match b.to_u128() {
            Some(s) => small(s),
            None => Weight::big(b),
        }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small([0, 0]))
    }

    /// The value as a big integer.
    pub fn to_biguint(&self) -> BigUint {
        match &self.0 {
            Repr::Small(halves) => BigUint::from(join(*halves)),
            Repr::Big(b) => b.clone(),
        }
    }

    /// The value as a `u128`, if it fits.
    pub fn to_u128(&self) -> Option<u128> {
        self.small()
    }

    /// The number of significant bits (0 for zero).
    pub fn bits(&self) -> u64 {
        match &self.0 {
            Repr::Small(halves) => 128 - u64::from(join(*halves).leading_zeros()),
            Repr::Big(b) => b.bits(),
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &Weight) -> Weight {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => {
                let (a, b) = (join(*a), join(*b));
                match a.checked_add(b) {
                    Some(s) => small(s),
                    None => Weight::big(BigUint::from(a) + b),
                }
            }
            (Repr::Big(a), Repr::Small(b)) | (Repr::Small(b), Repr::Big(a)) => {
                Weight::big(a + join(*b))
            }
            (Repr::Big(a), Repr::Big(b)) => Weight::big(a + b),
        }
    }

    /// `self += other`, reusing the allocation of a big weight.
    pub fn add_assign(&mut self, other: &Weight) {
        match (&mut self.0, &other.0) {
            (Repr::Big(a), Repr::Small(b)) => *a += join(*b),
            (Repr::Big(a), Repr::Big(b)) => *a += b,
            _ => *self = self.add(other),
        }
    }

    /// `self * other`.
    pub fn mul(&self, other: &Weight) -> Weight {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => {
                let (a, b) = (join(*a), join(*b));
                match a.checked_mul(b) {
                    Some(s) => small(s),
                    None => Weight::big(BigUint::from(a) * b),
                }
            }
            (Repr::Small([0, 0]), _) | (_, Repr::Small([0, 0])) => Weight::ZERO,
            (Repr::Big(a), Repr::Small(b)) | (Repr::Small(b), Repr::Big(a)) => {
                Weight::big(a * join(*b))
            }
            (Repr::Big(a), Repr::Big(b)) => Weight::big(a * b),
        }
    }

    /// `self - other`; `other` must not exceed `self`.
    ///
    /// # Panics
    /// When `other > self` (a bug in the caller, never a property of the input).
    pub fn sub(&self, other: &Weight) -> Weight {
        match (self.small(), other.small()) {
            (Some(a), Some(b)) => small(a.checked_sub(b).expect("weight subtraction underflow")),
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
        match (self.small(), other.small()) {
            (Some(a), Some(b)) => small(a.gcd(&b)),
            _ => Weight::from_big(self.to_biguint().gcd(&other.to_biguint())),
        }
    }

    /// Exact division; `other` must divide `self` and be non-zero.
    ///
    /// # Panics
    /// When `other` is zero.
    pub fn div_exact(&self, other: &Weight) -> Weight {
        match (self.small(), other.small()) {
            (Some(a), Some(b)) => small(a / b),
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
        small(u128::from(v))
    }
}

impl From<u128> for Weight {
    fn from(v: u128) -> Weight {
        small(v)
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
        match (&self.0, &other.0) {
            (Repr::Small(_), Repr::Small(_)) => self.small().cmp(&other.small()),
            (Repr::Small(_), Repr::Big(_)) => Ordering::Less,
            (Repr::Big(_), Repr::Small(_)) => Ordering::Greater,
            (Repr::Big(a), Repr::Big(b)) => a.cmp(b),
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
        match &self.0 {
            Repr::Small(halves) => write!(f, "{}", join(*halves)),
            Repr::Big(b) => write!(f, "{b}"),
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
        let max = Weight::from(u128::MAX);
        let sum = max.add(&Weight::ONE);
        assert!(matches!(sum.0, Repr::Big(_)));
        assert_eq!(sum.sub(&Weight::ONE), max);
        assert_eq!(Weight::from(20u64).pow(100).bits(), 433);
        let p = Weight::from(1u128 << 100).mul(&Weight::from(1u128 << 100));
        assert_eq!(p.to_biguint(), BigUint::from(1u8) << 200usize);
        assert_eq!(
            p.div_exact(&Weight::from(1u128 << 100)),
            Weight::from(1u128 << 100)
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
        let mut w = Weight::from(u128::MAX);
        w.add_assign(&Weight::from(2u64));
        assert_eq!(std::mem::size_of::<Weight>(), 24);
        assert_eq!(w.to_string(), "340282366920938463463374607431768211457");
    }
}
