//! The value rules of dicelab.md §3 as the calc engine uses them: thin wrappers over the
//! crate's shared [`crate::ops`] (the same code the sampler runs) with string errors.

use crate::ast::{BinOp, Selector};
// The errors are the crate's, built in one place for every mode.
pub(crate) use crate::ops::{
    bad_die, negative_count, not_single, result_not_single, unknown_variable, while_iterations,
};

/// `a OP b` on single values, or the error message.
pub(crate) fn binary(op: BinOp, a: i32, b: i32) -> Result<i32, String> {
    crate::ops::binary(op, a, b).map_err(|e| e.message())
}

/// Applies a filter with argument `n` to `list` (dicelab.md §3), or the error message.
pub(crate) fn filter(
    selector: Selector,
    drop: bool,
    n: i32,
    list: &[i32],
) -> Result<Vec<i32>, String> {
    let mut out = list.to_vec();
    if selector.is_comparison() {
        crate::ops::select_compare(selector, drop, n, &mut out);
        return Ok(out);
    }
    if n < 0 {
        return Err(crate::ops::negative_count_message(selector, n));
    }
    crate::ops::select_count(selector, drop, n as usize, &mut out, &mut Vec::new());
    Ok(out)
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
