//! Arithmetic on [`Ratio`], for the exact analyses built on it (Blackjack's Markov chains),
//! through the public constructor so every result stays in lowest terms.

use crate::Ratio;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::ops::{Add, Div, Mul, Sub};

impl Ratio {
    /// `a/b` from machine integers.
    ///
    /// # Panics
    /// When `b` is zero.
    pub fn from_u64(a: u64, b: u64) -> Ratio {
        Ratio::new(BigUint::from(a), BigUint::from(b))
    }

    /// One (`1/1`).
    pub fn one() -> Ratio {
        Ratio::new(BigUint::one(), BigUint::one())
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.numer().is_zero()
    }

    /// `p/q`, or just the integer when the denominator is 1 (`0`, `1`): the form of
    /// Blackjack's exact JSON.
    pub fn to_plain_string(&self) -> String {
        if self.denom().is_one() {
            self.numer().to_string()
        } else {
            self.to_string()
        }
    }

    /// Parses `p/q`, an integer, or a decimal such as `0.001` or `1e-6` (exponents up to
    /// ±4000).
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

impl Add for &Ratio {
    type Output = Ratio;
    fn add(self, o: &Ratio) -> Ratio {
        if self.denom() == o.denom() {
            return Ratio::new(self.numer() + o.numer(), self.denom().clone());
        }
        Ratio::new(
            self.numer() * o.denom() + o.numer() * self.denom(),
            self.denom() * o.denom(),
        )
    }
}

impl Sub for &Ratio {
    type Output = Ratio;
    /// Saturates at zero: the type is non-negative (analyses only subtract smaller from larger).
    fn sub(self, o: &Ratio) -> Ratio {
        let a = self.numer() * o.denom();
        let b = o.numer() * self.denom();
        if a <= b {
            return Ratio::zero();
        }
        Ratio::new(a - b, self.denom() * o.denom())
    }
}

impl Mul for &Ratio {
    type Output = Ratio;
    fn mul(self, o: &Ratio) -> Ratio {
        if self.is_zero() || o.is_zero() {
            return Ratio::zero();
        }
        Ratio::new(self.numer() * o.numer(), self.denom() * o.denom())
    }
}

impl Div for &Ratio {
    type Output = Ratio;
    /// # Panics
    /// On division by zero.
    fn div(self, o: &Ratio) -> Ratio {
        Ratio::new(self.numer() * o.denom(), self.denom() * o.numer())
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
        assert_eq!((&b - &a), Ratio::zero());
        assert_eq!((&a * &b).to_string(), "1/6");
        assert_eq!((&a / &b).to_string(), "3/2");
        assert_eq!(Ratio::from_u64(4, 2).to_plain_string(), "2");
        assert_eq!(Ratio::zero().to_plain_string(), "0");
        assert_eq!(Ratio::one().to_plain_string(), "1");
        assert!(a > b);
    }

    #[test]
    fn parsing() {
        assert_eq!(Ratio::parse("1/10").unwrap(), Ratio::from_u64(1, 10));
        assert_eq!(Ratio::parse("0.001").unwrap(), Ratio::from_u64(1, 1000));
        assert_eq!(Ratio::parse("1e-6").unwrap(), Ratio::from_u64(1, 1_000_000));
        assert_eq!(Ratio::parse("2.5E1").unwrap(), Ratio::from_u64(25, 1));
        assert!(Ratio::parse("1/0").is_none());
        assert!(Ratio::parse("x").is_none());
        assert!(Ratio::parse(".").is_none());
    }
}
