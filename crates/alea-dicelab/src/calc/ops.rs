//! The value semantics of dicelab.md §3 on concrete values, shared by every calc path.
//!
//! (The sampler implements the same table; these are the calc engine's own copies so the two
//! could be written in parallel. They are small and covered by the spec vectors.)

use crate::ast::{BinOp, Selector};

/// `a OP b` on single values, or the error message.
pub(crate) fn binary(op: BinOp, a: i32, b: i32) -> Result<i32, String> {
    Ok(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => {
            if b == 0 {
                return Err("division by zero".into());
            }
            a.wrapping_div(b)
        }
        BinOp::Rem => {
            if b == 0 {
                return Err("modulo by zero".into());
            }
            a.wrapping_rem(b)
        }
        BinOp::Pow => pow(a, b),
        BinOp::Concat => concat(a, b)?,
    })
}

fn pow(a: i32, b: i32) -> i32 {
    if b >= 0 {
        let mut acc: i64 = 1;
        for _ in 0..b {
            acc *= i64::from(a);
            if acc > i64::from(i32::MAX) || acc < i64::from(i32::MIN) {
                return i32::MIN;
            }
            if acc == 0 || acc == 1 {
                // 0^b = 0 and 1^b = 1 for the remaining steps; (−1)^b alternates.
                break;
            }
            if acc == -1 {
                return if b % 2 == 0 { 1 } else { -1 };
            }
        }
        acc as i32
    } else {
        match a {
            1 => 1,
            -1 => {
                if b % 2 == 0 {
                    1
                } else {
                    -1
                }
            }
            0 => i32::MIN,
            _ => 0,
        }
    }
}

fn concat(a: i32, b: i32) -> Result<i32, String> {
    if b < 0 {
        return Err(format!(
            "right operand of '.' must not be negative (got {b})"
        ));
    }
    let digits = b.to_string().len() as u32;
    let scaled = i64::from(a).wrapping_mul(10i64.pow(digits));
    let v = if a < 0 {
        scaled.wrapping_sub(i64::from(b))
    } else {
        scaled.wrapping_add(i64::from(b))
    };
    Ok(v as i32)
}

/// Applies a filter with argument `n` to `list` (dicelab.md §3), or the error message.
pub(crate) fn filter(
    selector: Selector,
    drop: bool,
    n: i32,
    list: &[i32],
) -> Result<Vec<i32>, String> {
    if selector.is_comparison() {
        return Ok(list
            .iter()
            .copied()
            .filter(|m| selector.compare(*m, n) != drop)
            .collect());
    }
    if n < 0 {
        return Err(format!("negative count {n} for '{}'", selector.symbol()));
    }
    let len = list.len();
    let k = (n as usize).min(len);
    Ok(match (selector, drop) {
        (Selector::First, false) => list[..k].to_vec(),
        (Selector::First, true) => list[k..].to_vec(),
        (Selector::Last, false) => list[len - k..].to_vec(),
        (Selector::Last, true) => list[..len - k].to_vec(),
        (Selector::Low, false) => keep_multiset(list, k, true),
        (Selector::High, false) => keep_multiset(list, k, false),
        (Selector::Low, true) => keep_multiset(list, len - k, false),
        (Selector::High, true) => keep_multiset(list, len - k, true),
        _ => unreachable!("comparisons handled above"),
    })
}

/// Keeps the multiset of the `k` smallest (or largest) members, in list order, earliest first
/// among equal values.
fn keep_multiset(list: &[i32], k: usize, smallest: bool) -> Vec<i32> {
    if k >= list.len() {
        return list.to_vec();
    }
    let mut sorted = list.to_vec();
    sorted.sort_unstable();
    let chosen: Vec<i32> = if smallest {
        sorted[..k].to_vec()
    } else {
        sorted[sorted.len() - k..].to_vec()
    };
    // Multiset K as (value, copies left), sorted for binary search.
    let mut counts: Vec<(i32, usize)> = Vec::new();
    for v in chosen {
        match counts.last_mut() {
            Some((last, c)) if *last == v => *c += 1,
            _ => counts.push((v, 1)),
        }
    }
    let mut out = Vec::with_capacity(k);
    for m in list {
        if let Ok(i) = counts.binary_search_by(|(v, _)| v.cmp(m))
            && counts[i].1 > 0
        {
            counts[i].1 -= 1;
            out.push(*m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_vectors() {
        // dicelab.md §10 vectors 28–32.
        let c = |a, b| binary(BinOp::Concat, a, b).unwrap();
        assert_eq!(
            [
                c(-10, 9),
                c(10, 9),
                c(1, 10),
                c(1, 100),
                c(12, 3),
                c(1, 0),
                c(0, 5),
                c(-1, 5)
            ],
            [-109, 109, 110, 1100, 123, 10, 5, -15]
        );
        let d = |a, b| binary(BinOp::Div, a, b).unwrap();
        let r = |a, b| binary(BinOp::Rem, a, b).unwrap();
        assert_eq!(
            [d(7, 2), d(-7, 2), d(7, -2), r(-7, 3), r(7, -3)],
            [3, -3, -3, -1, 1]
        );
        assert_eq!(d(i32::MIN, -1), i32::MIN);
        assert_eq!(r(i32::MIN, -1), 0);
        let p = |a, b| binary(BinOp::Pow, a, b).unwrap();
        assert_eq!(
            [
                p(2, -1),
                p(-1, -1),
                p(-2, -1),
                p(0, 0),
                p(3, 4),
                p(2, 2),
                p(0, -1),
                p(2, 31)
            ],
            [0, -1, 0, 1, 81, 4, i32::MIN, i32::MIN]
        );
        assert_eq!(p(-2, 31), i32::MIN);
        assert_eq!(p(-1, 1_000_000_001), -1);
        assert_eq!(binary(BinOp::Div, 1, 0).unwrap_err(), "division by zero");
        assert_eq!(
            binary(BinOp::Concat, 1, -5).unwrap_err(),
            "right operand of '.' must not be negative (got -5)"
        );
    }

    #[test]
    fn filter_vectors() {
        // Vectors 34 and 35, and §3's low/high examples.
        let f = |s, drop, n, l: &[i32]| filter(s, drop, n, l).unwrap();
        assert_eq!(f(Selector::Low, false, 2, &[5, 1, 4, 1, 3]), [1, 1]);
        assert_eq!(f(Selector::High, false, 2, &[2, 3, 1]), [2, 3]);
        assert_eq!(f(Selector::High, false, 10, &[3, 1, 2]), [3, 1, 2]);
        assert_eq!(f(Selector::Low, true, 2, &[1, 2, 1, 2, 1]), [1, 2, 2]);
        assert_eq!(f(Selector::Low, false, 2, &[3, 1, 2, 1]), [1, 1]);
        assert_eq!(f(Selector::High, true, 1, &[5, 1, 5]), [5, 1]);
        assert_eq!(f(Selector::Low, true, 1, &[1, 5, 1]), [1, 5]);
        assert_eq!(f(Selector::First, false, 10, &[1, 2, 3]), [1, 2, 3]);
        assert!(f(Selector::First, true, 10, &[1, 2, 3]).is_empty());
        assert_eq!(f(Selector::Lt, false, 3, &[1, 2, 3, 4]), [1, 2]);
        assert_eq!(f(Selector::Lt, true, 3, &[1, 2, 3, 4]), [3, 4]);
        assert_eq!(
            filter(Selector::First, false, -1, &[1]).unwrap_err(),
            "negative count -1 for 'first'"
        );
    }
}
