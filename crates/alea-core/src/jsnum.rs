//! The one JavaScript-style number formatter of the workspace (ECMAScript
//! `Number::prototype.toString`): EZScript's display rule, the tournament data's texts and
//! the command line all print numbers through it.

use std::fmt::Write as _;

/// A number as ECMAScript's `Number::toString` prints it: shortest round-trip digits, no `.0`,
/// exponent form outside 1e-7 ≤ |x| < 1e21, `-0` as `0`, `NaN`, `Infinity`, `-Infinity`.
///
/// ```
/// use alea_core::js_number;
/// assert_eq!(js_number(2.4), "2.4");
/// assert_eq!(js_number(1753035300000.0), "1753035300000");
/// assert_eq!(js_number(1e21), "1e+21");
/// assert_eq!(js_number(1.5e-7), "1.5e-7");
/// assert_eq!(js_number(0.1 + 0.2), "0.30000000000000004");
/// assert_eq!(js_number(-0.0), "0");
/// ```
pub fn js_number(x: f64) -> String {
    let mut s = String::new();
    write_js_number(&mut s, x);
    s
}

/// Appends [`js_number`]`(x)` to `out`.
pub fn write_js_number(out: &mut String, x: f64) {
    if x.is_nan() {
        out.push_str("NaN");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "Infinity" } else { "-Infinity" });
        return;
    }
    if x == 0.0 {
        out.push('0');
        return;
    }
    if x == x.trunc() && x.abs() < 1e15 {
        // Whole numbers, the common case: exact as an i64, same digits.
        let _ = write!(out, "{}", x as i64);
        return;
    }
    if x < 0.0 {
        out.push('-');
    }
    // Rust's `{:e}` prints the shortest round-trip digits: `d[.ddd]e[-]N`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    let k = digits.len() as i32;
    // Where the decimal point falls relative to the digits (ECMAScript's n).
    let n = exp + 1;
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if n > 0 { '+' } else { '-' });
        let _ = write!(out, "{}", (n - 1).abs());
    }
}

#[cfg(test)]
mod tests {
    use super::js_number;

    #[test]
    fn numbers_print_like_javascript() {
        let cases: &[(f64, &str)] = &[
            (2.0, "2"),
            (2.4, "2.4"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1753035300000.0, "1753035300000"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (1e-6, "0.000001"),
            (123e18, "123000000000000000000"),
            (-0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (-2.5, "-2.5"),
            (-1e-7, "-1e-7"),
            (21428.571428571428, "21428.571428571428"),
            (1e15, "1000000000000000"),
            (-1e15, "-1000000000000000"),
            (1.2345e25, "1.2345e+25"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (9007199254740993.0, "9007199254740992"),
        ];
        for (x, want) in cases {
            assert_eq!(js_number(*x), *want, "{x:?}");
        }
    }
}
