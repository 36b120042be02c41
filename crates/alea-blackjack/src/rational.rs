//! A small exact non-negative rational type for the Markov analysis.
//!
//! Kept inside this crate (rather than taken from `alea-prob`) so that the analysis does not
//! depend on another crate's schedule; every value is kept in lowest terms.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Div, Mul, Sub};

/// A non-negative fraction `num/den` in lowest terms, `den > 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: BigUint,
    den: BigUint,
}

impl Ratio {
    /// `num/den`, reduced.
    ///
    /// # Panics
    /// When `den` is zero (a programming error).
    pub fn new(num: BigUint, den: BigUint) -> Ratio {
        assert!(!den.is_zero(), "Ratio with zero denominator");
        if num.is_zero() {
            return Ratio::zero();
        }
        let g = num.gcd(&den);
        if g.is_one() {
            Ratio { num, den }
        } else {
            Ratio {
                num: num / &g,
                den: den / &g,
            }
        }
    }

    /// `a/b` from machine integers.
    pub fn from_u64(a: u64, b: u64) -> Ratio {
        Ratio::new(BigUint::from(a), BigUint::from(b))
    }

    /// 0.
    pub fn zero() -> Ratio {
        Ratio {
            num: BigUint::zero(),
            den: BigUint::one(),
        }
    }

    /// 1.
    pub fn one() -> Ratio {
        Ratio {
            num: BigUint::one(),
            den: BigUint::one(),
        }
    }

    /// True for 0.
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    /// The numerator.
    pub fn numer(&self) -> &BigUint {
        &self.num
    }

    /// The denominator.
    pub fn denom(&self) -> &BigUint {
        &self.den
    }

    /// The nearest `f64` (approximately; for display and sampling checks only).
    pub fn to_f64(&self) -> f64 {
        let (n, d) = (self.num.bits(), self.den.bits());
        // Scale both to at most ~1000 bits so the conversion never overflows.
        let shift = n.max(d).saturating_sub(1000);
        let num = (&self.num >> shift).to_f64().unwrap_or(f64::MAX);
        let den = (&self.den >> shift).to_f64().unwrap_or(f64::MAX);
        if den == 0.0 { 0.0 } else { num / den }
    }

    /// Parses `p/q`, an integer, or a decimal such as `0.001` or `1e-6`.
    pub fn parse(s: &str) -> Option<Ratio> {
        let s = s.trim();
        if let Some((p, q)) = s.split_once('/') {
            let p: BigUint = p.trim().parse().ok()?;
            let q: BigUint = q.trim().parse().ok()?;
            return (!q.is_zero()).then(|| Ratio::new(p, q));
        }
        let (mantissa, exp) = match s.split_once(['e', 'E']) {
            Some((m, e)) => (m, e.parse::<i32>().ok()?),
            None => (s, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() && frac.is_empty()
            || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
            || exp.unsigned_abs() > 4000
        {
            return None;
        }
        let digits: BigUint = format!("{int}{frac}0").parse().ok()?;
        let scale = exp - frac.len() as i32 - 1;
        let ten = BigUint::from(10u32);
        Some(if scale >= 0 {
            Ratio::new(digits * ten.pow(scale as u32), BigUint::one())
        } else {
            Ratio::new(digits, ten.pow(scale.unsigned_abs()))
        })
    }
}

impl fmt::Display for Ratio {
    /// `"p/q"` in lowest terms, or an integer when the denominator is 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den.is_one() {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

impl Add for &Ratio {
    type Output = Ratio;
    fn add(self, o: &Ratio) -> Ratio {
        if self.den == o.den {
            return Ratio::new(&self.num + &o.num, self.den.clone());
        }
        Ratio::new(&self.num * &o.den + &o.num * &self.den, &self.den * &o.den)
    }
}

impl Sub for &Ratio {
    type Output = Ratio;
    /// Saturates at zero (the analysis only subtracts smaller from larger).
    fn sub(self, o: &Ratio) -> Ratio {
        let a = &self.num * &o.den;
        let b = &o.num * &self.den;
        if a <= b {
            return Ratio::zero();
        }
        Ratio::new(a - b, &self.den * &o.den)
    }
}

impl Mul for &Ratio {
    type Output = Ratio;
    fn mul(self, o: &Ratio) -> Ratio {
        if self.is_zero() || o.is_zero() {
            return Ratio::zero();
        }
        Ratio::new(&self.num * &o.num, &self.den * &o.den)
    }
}

impl Div for &Ratio {
    type Output = Ratio;
    /// # Panics
    /// On division by zero (a programming error).
    fn div(self, o: &Ratio) -> Ratio {
        Ratio::new(&self.num * &o.den, &self.den * &o.num)
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, o: &Ratio) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Ratio {
    fn cmp(&self, o: &Ratio) -> Ordering {
        (&self.num * &o.den).cmp(&(&o.num * &self.den))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_and_printing() {
        let a = Ratio::from_u64(1, 2);
        let b = Ratio::from_u64(1, 3);
        assert_eq!((&a + &b).to_string(), "5/6");
        assert_eq!((&a - &b).to_string(), "1/6");
        assert_eq!((&a * &b).to_string(), "1/6");
        assert_eq!((&a / &b).to_string(), "3/2");
        assert_eq!(Ratio::from_u64(4, 2).to_string(), "2");
        assert_eq!(Ratio::zero().to_string(), "0");
        assert!(a > b);
    }

    #[test]
    fn parsing() {
        assert_eq!(Ratio::parse("1/10").unwrap().to_string(), "1/10");
        assert_eq!(Ratio::parse("0.001").unwrap().to_string(), "1/1000");
        assert_eq!(Ratio::parse("1e-6").unwrap().to_string(), "1/1000000");
        assert_eq!(Ratio::parse("2.5E1").unwrap().to_string(), "25");
        assert!(Ratio::parse("1/0").is_none());
        assert!(Ratio::parse("x").is_none());
        assert!(Ratio::parse(".").is_none());
    }
}
