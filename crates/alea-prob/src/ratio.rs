//! Exact probabilities as reduced fractions, and their correctly rounded `f64` view.

use crate::Weight;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;

/// An exact non-negative rational `num/den` in lowest terms (`den > 0`).
///
/// Displayed as `p/q`, always with the slash (`1/1` for certainty), as the `--exact` output and
/// the JSON `exact` field require.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: BigUint,
    den: BigUint,
}

impl Ratio {
    /// `num/den` reduced to lowest terms.
    ///
    /// # Panics
    /// When `den` is zero.
    pub fn new(num: BigUint, den: BigUint) -> Ratio {
        assert!(!den.is_zero(), "ratio with zero denominator");
        let g = num.gcd(&den);
        if g.is_zero() || g == BigUint::from(1u8) {
            Ratio { num, den }
        } else {
            Ratio {
                num: num / &g,
                den: den / &g,
            }
        }
    }

    /// `w/total` reduced, from weights.
    ///
    /// # Panics
    /// When `total` is zero.
    pub fn from_weights(w: &Weight, total: &Weight) -> Ratio {
        if let (Some(a), Some(b)) = (w.to_u128(), total.to_u128()) {
            assert!(b != 0, "ratio with zero denominator");
            let g = a.gcd(&b);
            let g = if g == 0 { 1 } else { g };
            return Ratio {
                num: BigUint::from(a / g),
                den: BigUint::from(b / g),
            };
        }
        Ratio::new(w.to_biguint(), total.to_biguint())
    }

    /// Zero (`0/1`).
    pub fn zero() -> Ratio {
        Ratio {
            num: BigUint::zero(),
            den: BigUint::from(1u8),
        }
    }

    /// The numerator (lowest terms).
    pub fn numer(&self) -> &BigUint {
        &self.num
    }

    /// The denominator (lowest terms, positive).
    pub fn denom(&self) -> &BigUint {
        &self.den
    }

    /// The nearest `f64` (ties to even), computed exactly from the integers.
    pub fn to_f64(&self) -> f64 {
        ratio_to_f64(&self.num, &self.den)
    }

    /// The value printed with `decimals` digits after the point, rounded from the nearest
    /// `f64` exactly as C's `printf("%.*f")` does (so `13/128` → `0.101562` at 6 decimals).
    pub fn to_fixed(&self, decimals: usize) -> String {
        format!("{:.*}", decimals, self.to_f64())
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        (&self.num * &other.den).cmp(&(&other.num * &self.den))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The nearest `f64` to `num/den` (round half to even). Values below the normal range are
/// rounded twice (to 53 bits, then by the subnormal scaling), which only matters below 2^-1022.
pub fn ratio_to_f64(num: &BigUint, den: &BigUint) -> f64 {
    if num.is_zero() {
        return 0.0;
    }
    if den.is_zero() {
        return f64::INFINITY;
    }
    let (na, nb) = (num.bits() as i64, den.bits() as i64);
    // q = floor(num · 2^s / den) has 54 or 55 bits.
    let s = 54 + nb - na;
    let (q, rem) = if s >= 0 {
        (num << (s as u64)).div_rem(den)
    } else {
        num.div_rem(&(den << ((-s) as u64)))
    };
    let sticky = !rem.is_zero();
    let q = q.to_u64().expect("55-bit quotient");
    let extra = (64 - q.leading_zeros()) as i64 - 53;
    let mut mantissa = q >> extra;
    let dropped = q & ((1u64 << extra) - 1);
    let half = 1u64 << (extra - 1);
    if dropped > half || (dropped == half && (sticky || mantissa & 1 == 1)) {
        mantissa += 1;
    }
    scale_by_power_of_two(mantissa as f64, extra - s)
}

fn scale_by_power_of_two(mut x: f64, mut exp: i64) -> f64 {
    while exp > 1000 {
        x *= f64::from_bits(((1023 + 1000) as u64) << 52);
        exp -= 1000;
        if x.is_infinite() {
            return x;
        }
    }
    while exp < -1000 {
        x *= f64::from_bits(((1023 - 1000) as u64) << 52);
        exp += 1000;
        if x == 0.0 {
            return x;
        }
    }
    x * f64::from_bits(((1023 + exp) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(a: u64, b: u64) -> Ratio {
        Ratio::new(BigUint::from(a), BigUint::from(b))
    }

    #[test]
    fn reduces_and_prints() {
        assert_eq!(r(6, 36).to_string(), "1/6");
        assert_eq!(r(5, 5).to_string(), "1/1");
        assert_eq!(r(0, 7).to_string(), "0/1");
        assert!(r(1, 3) < r(1, 2));
    }

    #[test]
    fn f64_is_correctly_rounded() {
        for (a, b) in [
            (1u64, 3u64),
            (2, 3),
            (1, 10),
            (13, 128),
            (394205, 10_000_000),
            (7, 7),
        ] {
            assert_eq!(r(a, b).to_f64(), a as f64 / b as f64, "{a}/{b}");
        }
        assert_eq!(r(13, 128).to_fixed(6), "0.101562");
        assert_eq!(r(394205, 10_000_000).to_fixed(6), "0.039420");
        assert_eq!(r(25515, 10_000_000).to_fixed(6), "0.002551");
        // A big ratio: (1/20)^100 is about 7.9e-131.
        let tiny = Ratio::new(BigUint::from(1u8), BigUint::from(20u8).pow(100));
        let expected = 7.888609052210118e-131;
        assert_eq!(tiny.to_f64(), expected);
        // Ties to even at 53 bits: (2^53 + 1) / 2^53 rounds down to 1.
        let tie = Ratio::new(
            (BigUint::from(1u8) << 53usize) + 1u8,
            BigUint::from(1u8) << 53usize,
        );
        assert_eq!(tie.to_f64(), 1.0);
        let above = Ratio::new(
            (BigUint::from(1u8) << 54usize) + 3u8,
            BigUint::from(1u8) << 54usize,
        );
        assert_eq!(above.to_f64(), 1.0 + f64::EPSILON);
    }
}
