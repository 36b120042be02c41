//! The arithmetic of spec §3: doubles, ToInt32 for bitwise operators, ε-comparisons.

/// ε of the comparisons (absolute).
pub const EPSILON: f64 = 1e-6;

/// The spec's ToInt32: NaN and ±inf give 0, otherwise truncation modulo 2³² read as signed.
#[inline]
pub fn to_int32(x: f64) -> i32 {
    if !x.is_finite() {
        return 0;
    }
    let t = x.trunc();
    let mut r = t % 4294967296.0;
    if r < 0.0 {
        r += 4294967296.0;
    }
    // r is an integer in [0, 2^32): exact as u32.
    (r as u32) as i32
}

/// Truth of a value: anything but ±0 (NaN is true).
#[inline]
pub fn truth(x: f64) -> bool {
    x != 0.0
}

#[inline]
fn b(v: bool) -> f64 {
    if v { 1.0 } else { 0.0 }
}

/// EQ(a, b): IEEE equality or |a−b| < ε.
#[inline]
pub fn eq(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() < EPSILON
}

/// `a < b`.
#[inline]
pub fn lt(a: f64, c: f64) -> f64 {
    b(!eq(a, c) && a < c)
}

/// `a > b`.
#[inline]
pub fn gt(a: f64, c: f64) -> f64 {
    b(!eq(a, c) && a > c)
}

/// `a <= b`.
#[inline]
pub fn le(a: f64, c: f64) -> f64 {
    b(eq(a, c) || a < c)
}

/// `a >= b`.
#[inline]
pub fn ge(a: f64, c: f64) -> f64 {
    b(eq(a, c) || a > c)
}

/// `a == b`.
#[inline]
pub fn equal(a: f64, c: f64) -> f64 {
    b(eq(a, c))
}

/// `a != b`.
#[inline]
pub fn not_equal(a: f64, c: f64) -> f64 {
    b(!eq(a, c))
}

/// `a ~~ b`: OpenHoldem's rounding comparison.
#[inline]
pub fn approx_eq(a: f64, c: f64) -> f64 {
    b((a + 0.5).trunc() == (c + 0.5).trunc())
}

/// `a ** b` (C99 pow).
#[inline]
pub fn pow(a: f64, c: f64) -> f64 {
    a.powf(c)
}

/// `ln a`.
#[inline]
pub fn ln(a: f64) -> f64 {
    a.ln()
}

/// `a % b` as C's fmod (the zero divisor is handled by the caller).
#[inline]
pub fn fmod(a: f64, c: f64) -> f64 {
    a % c
}

/// `a << b`.
#[inline]
pub fn shl(a: f64, c: f64) -> f64 {
    f64::from(to_int32(a).wrapping_shl((to_int32(c) & 31) as u32))
}

/// `a >> b`, arithmetic.
#[inline]
pub fn shr(a: f64, c: f64) -> f64 {
    f64::from(to_int32(a) >> (to_int32(c) & 31))
}

/// `a & b`.
#[inline]
pub fn bit_and(a: f64, c: f64) -> f64 {
    f64::from(to_int32(a) & to_int32(c))
}

/// `a | b`.
#[inline]
pub fn bit_or(a: f64, c: f64) -> f64 {
    f64::from(to_int32(a) | to_int32(c))
}

/// `a ^ b`.
#[inline]
pub fn bit_xor(a: f64, c: f64) -> f64 {
    f64::from(to_int32(a) ^ to_int32(c))
}

/// `~a`.
#[inline]
pub fn bit_not(a: f64) -> f64 {
    f64::from(!to_int32(a))
}

/// backtick: population count of the 32-bit pattern.
#[inline]
pub fn bit_count(a: f64) -> f64 {
    f64::from(to_int32(a).count_ones())
}

/// `!a`.
#[inline]
pub fn not(a: f64) -> f64 {
    b(!truth(a))
}

/// `-a` as 0 − a, so `-0` is 0.
#[inline]
pub fn neg(a: f64) -> f64 {
    0.0 - a
}

/// `a ^^ b`.
#[inline]
pub fn xor(a: f64, c: f64) -> f64 {
    b(truth(a) != truth(c))
}

/// 1 or 0.
#[inline]
pub fn to_bool(a: f64) -> f64 {
    b(truth(a))
}

/// Prints a value the spec's way (§3.3): shortest round-trip form, plain decimal for
/// 1e-6 ≤ |x| < 1e21, scientific without `+` otherwise; `-0` as `0`; `inf`, `-inf`, `nan`.
pub fn format_value(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if (1e-6..1e21).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// The 32-bit pattern of a bitwise result, without leading zeros (`0` for zero).
pub fn bit_pattern(x: f64) -> String {
    format!("{:b}", to_int32(x) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_int32_examples() {
        assert_eq!(to_int32(-2.9), -2);
        assert_eq!(to_int32(4294967295.0), -1);
        assert_eq!(to_int32(1e10), 1410065408);
        assert_eq!(to_int32(1e300), 0);
        assert_eq!(to_int32(f64::NAN), 0);
        assert_eq!(to_int32(f64::NEG_INFINITY), 0);
    }

    #[test]
    fn printing() {
        assert_eq!(format_value(3.0), "3");
        assert_eq!(format_value(-0.0), "0");
        assert_eq!(format_value(1e21), "1e21");
        assert_eq!(format_value(5.4321e-76), "5.4321e-76");
        assert_eq!(format_value(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(format_value(f64::NAN), "nan");
        assert_eq!(format_value(f64::NEG_INFINITY), "-inf");
        assert_eq!(format_value(1e-6), "0.000001");
        assert_eq!(format_value(9e-7), "9e-7");
    }
}
