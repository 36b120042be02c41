//! The value rules of dicelab.md §3, shared by the one concrete evaluator (`sample/`,
//! roll and eval mode) and the exact engine, and every runtime error they report: the
//! evaluators build their errors only through the functions at the end of this file, so a
//! failing program reads the same (same text, same position) in roll, eval and calc. (The
//! limits of a roll, at the end, are the concrete evaluator's; the exact engine has its own.)
//!
//! Values are `i32`; arithmetic wraps in 32-bit two's complement.

use crate::ast::{Aggregate, BinOp, Selector};
use alea_core::{Diagnostic, Span};

/// Why a binary operation has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpError {
    /// `a / 0`.
    DivisionByZero,
    /// `a % 0`.
    ModuloByZero,
    /// `a . b` with `b < 0`.
    NegativeConcat(i32),
}

impl OpError {
    /// The message of dicelab.md §3.
    pub fn message(self) -> String {
        match self {
            OpError::DivisionByZero => "division by zero".to_string(),
            OpError::ModuloByZero => "modulo by zero".to_string(),
            OpError::NegativeConcat(b) => {
                format!("right operand of '.' must not be negative (got {b})")
            }
        }
    }
}

/// `a OP b` (dicelab.md §3).
#[inline]
pub fn binary(op: BinOp, a: i32, b: i32) -> Result<i32, OpError> {
    Ok(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => {
            if b == 0 {
                return Err(OpError::DivisionByZero);
            }
            a.wrapping_div(b)
        }
        BinOp::Rem => {
            if b == 0 {
                return Err(OpError::ModuloByZero);
            }
            a.wrapping_rem(b)
        }
        BinOp::Pow => pow(a, b),
        BinOp::Concat => concat(a, b)?,
    })
}

/// `a ^ b`: b ≥ 0: a^b if it fits in i32, else −2147483648. b < 0: 1 if a = 1, (−1)^b if
/// a = −1, −2147483648 if a = 0, else 0.
pub fn pow(a: i32, b: i32) -> i32 {
    if b < 0 {
        return match a {
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
        };
    }
    match a {
        0 => i32::from(b == 0),
        1 => 1,
        -1 => {
            if b % 2 == 0 {
                1
            } else {
                -1
            }
        }
        _ if b > 32 => i32::MIN,
        _ => i64::from(a)
            .checked_pow(b as u32)
            .and_then(|v| i32::try_from(v).ok())
            .unwrap_or(i32::MIN),
    }
}

/// `a . b`: textual concatenation `a·10^k + b` (`− b` when a < 0), k = number of digits of b
/// (at least 1), then wrapped to 32 bits. `b < 0` is an error.
pub fn concat(a: i32, b: i32) -> Result<i32, OpError> {
    if b < 0 {
        return Err(OpError::NegativeConcat(b));
    }
    Ok(concat_unchecked(a, b))
}

/// [`concat`] for `b ≥ 0` (the caller has checked it): computed in wrapping 32-bit arithmetic,
/// which agrees with the exact `a·10^k ± b` modulo 2^32 (the sampler calls this directly).
#[inline]
pub fn concat_unchecked(a: i32, b: i32) -> i32 {
    let scale = if b < 10 {
        10
    } else {
        let mut scale = 100i32;
        let mut rest = b / 100;
        while rest > 0 {
            scale = scale.wrapping_mul(10);
            rest /= 10;
        }
        scale
    };
    let head = a.wrapping_mul(scale);
    if a < 0 {
        head.wrapping_sub(b)
    } else {
        head.wrapping_add(b)
    }
}

/// `sum`, `prod` or `count` of `items` (dicelab.md §3): the wrapping sum (0 for `()`), the
/// wrapping product (1 for `()`), the number of members.
#[inline(always)]
pub fn aggregate(op: Aggregate, items: impl IntoIterator<Item = i32>) -> i32 {
    aggregate_kept(op, items, |_| true)
}

/// [`aggregate`] of the members of `items` that pass `keep` (`count >3 x` is
/// `aggregate_kept(Count, x, |m| m > 3)`), without the filtered list. Every evaluator folds
/// through this one rule; the sampler's monomorphic loops inline it with a constant `op` and
/// `keep`. A member that fails adds the identity (0, 1, 0) instead of branching, so a short
/// list folds in a few instructions a member.
#[inline(always)]
pub fn aggregate_kept(
    op: Aggregate,
    items: impl IntoIterator<Item = i32>,
    keep: impl Fn(i32) -> bool,
) -> i32 {
    // The aggregate is decided once, outside the loop.
    let items = items.into_iter();
    match op {
        Aggregate::Sum => items.fold(0i32, |s, m| s.wrapping_add(if keep(m) { m } else { 0 })),
        Aggregate::Prod => items.fold(1i32, |s, m| s.wrapping_mul(if keep(m) { m } else { 1 })),
        Aggregate::Count => items.fold(0i32, |s, m| s.wrapping_add(i32::from(keep(m)))),
    }
}

/// The test a comparison filter keeps its members by, with `drop` already applied:
/// `drop < x` keeps the members `m >= x` ([`comparison`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `m == x`
    Eq,
    /// `m != x`
    Ne,
    /// `m < x`
    Lt,
    /// `m > x`
    Gt,
    /// `m <= x`
    Le,
    /// `m >= x`
    Ge,
}

impl Cmp {
    /// Whether member `m` is kept against the filter's value `x`.
    #[inline(always)]
    pub fn keeps(self, m: i32, x: i32) -> bool {
        match self {
            Cmp::Eq => m == x,
            Cmp::Ne => m != x,
            Cmp::Lt => m < x,
            Cmp::Gt => m > x,
            Cmp::Le => m <= x,
            Cmp::Ge => m >= x,
        }
    }

    /// The test that keeps exactly the members `self` rejects.
    pub fn negated(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Gt => Cmp::Le,
            Cmp::Le => Cmp::Gt,
            Cmp::Ge => Cmp::Lt,
        }
    }
}

/// What `SEL x` (or `drop SEL x`) keeps for a comparison selector (`== != < > <= >=`):
/// `drop` keeps the members that fail the test (dicelab.md §3 "Filters"). `None` for
/// `first`/`last`/`low`/`high`, which select by count.
#[inline]
pub fn comparison(selector: Selector, drop: bool) -> Option<Cmp> {
    let keep = match selector {
        Selector::Eq => Cmp::Eq,
        Selector::Ne => Cmp::Ne,
        Selector::Lt => Cmp::Lt,
        Selector::Gt => Cmp::Gt,
        Selector::Le => Cmp::Le,
        Selector::Ge => Cmp::Ge,
        Selector::First | Selector::Last | Selector::Low | Selector::High => return None,
    };
    Some(if drop { keep.negated() } else { keep })
}

/// Keeps (or, with `drop`, removes) the members of `list` picked by a `first`/`last`/`low`/
/// `high` selector with count `n ≥ 0`, preserving order (dicelab.md §3 "Low/high": among
/// equal values the earliest are kept). `scratch` is reused working memory.
pub fn select_count(
    selector: Selector,
    drop: bool,
    n: usize,
    list: &mut Vec<i32>,
    scratch: &mut Vec<i32>,
) {
    let len = list.len();
    let n = n.min(len);
    match selector {
        Selector::First => {
            if drop {
                list.drain(..n);
            } else {
                list.truncate(n);
            }
        }
        Selector::Last => {
            if drop {
                list.truncate(len - n);
            } else {
                list.drain(..len - n);
            }
        }
        _ => {
            if let Some((m, smallest)) = extreme_kept(selector, drop, n, len) {
                keep_extreme(list, m, smallest, scratch);
            }
        }
    }
}

/// The multiset a `low`/`high` filter with count `n ≤ len` keeps of `len` members:
/// `(m, true)` the `m` smallest values, `(m, false)` the `m` largest. `None` for the other
/// selectors.
#[inline]
pub(crate) fn extreme_kept(
    selector: Selector,
    drop: bool,
    n: usize,
    len: usize,
) -> Option<(usize, bool)> {
    match (selector, drop) {
        (Selector::Low, false) => Some((n, true)),
        (Selector::High, false) => Some((n, false)),
        (Selector::Low, true) => Some((len - n, false)),
        (Selector::High, true) => Some((len - n, true)),
        _ => None,
    }
}

/// Keeps the multiset of the `m` smallest (or largest) values of `list`, in order, earliest
/// first among equal values.
fn keep_extreme(list: &mut Vec<i32>, m: usize, smallest: bool, scratch: &mut Vec<i32>) {
    let len = list.len();
    if m >= len {
        return;
    }
    if m == 0 {
        list.clear();
        return;
    }
    scratch.clear();
    scratch.extend_from_slice(list);
    scratch.sort_unstable();
    if smallest {
        let t = scratch[m - 1];
        let mut needed = scratch[..m].iter().rev().take_while(|&&v| v == t).count();
        list.retain(|&v| {
            if v < t {
                true
            } else if v == t && needed > 0 {
                needed -= 1;
                true
            } else {
                false
            }
        });
    } else {
        let t = scratch[len - m];
        let mut needed = scratch[len - m..].iter().take_while(|&&v| v == t).count();
        list.retain(|&v| {
            if v > t {
                true
            } else if v == t && needed > 0 {
                needed -= 1;
                true
            } else {
                false
            }
        });
    }
}

/// Keeps (or, with `drop`, removes) the members `m` of `list` with `m OP x`.
pub fn select_compare(selector: Selector, drop: bool, x: i32, list: &mut Vec<i32>) {
    match comparison(selector, drop) {
        Some(keep) => list.retain(|&m| keep.keeps(m, x)),
        // No member passes a count selector taken as a comparison, so `drop` keeps them all.
        None if !drop => list.clear(),
        None => {}
    }
}

/// An operand that must be a single value (dicelab.md §3), as its error names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// The left operand of a binary operator.
    Left(BinOp),
    /// The right operand of a binary operator.
    Right(BinOp),
    /// The operand of unary `-`.
    Neg,
    /// The operand of `d`.
    Die,
    /// The count (left operand) of `#`.
    Count,
    /// The start of `..`.
    RangeStart,
    /// The end of `..`.
    RangeEnd,
    /// The first operand of a filter: a count (`first`, `high`, …) or a value (`==`, `<`, …).
    Filter(Selector),
}

impl Operand {
    /// `left operand of '+'`, `count of '#'`, `value of '<'`, …
    pub fn describe(self) -> String {
        match self {
            Operand::Left(op) => format!("left operand of '{}'", op.symbol()),
            Operand::Right(op) => format!("right operand of '{}'", op.symbol()),
            Operand::Neg => "operand of '-'".to_string(),
            Operand::Die => "operand of 'd'".to_string(),
            Operand::Count => "count of '#'".to_string(),
            Operand::RangeStart => "start of '..'".to_string(),
            Operand::RangeEnd => "end of '..'".to_string(),
            Operand::Filter(s) if s.is_comparison() => format!("value of '{}'", s.symbol()),
            Operand::Filter(s) => format!("count of '{}'", s.symbol()),
        }
    }
}

fn error(at: Span, message: String) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(message).with_span(at))
}

/// `OPERAND needs a single value, got a list of K values`, reported at `at`: the operator
/// (`+`, `#`, `..`), the prefix operator's node (`-`, `d`) or the filter's selector.
pub fn not_single(operand: Operand, at: Span, len: usize) -> Box<Diagnostic> {
    error(
        at,
        format!(
            "{} needs a single value, got a list of {len} values",
            operand.describe()
        ),
    )
}

/// `result is not a single value (list of K values)` at the start of `statement`.
pub fn result_not_single(statement: Span, len: usize) -> Box<Diagnostic> {
    error(
        Span::point(statement.start as usize),
        format!("result is not a single value (list of {len} values)"),
    )
}

/// An arithmetic error (`division by zero`, …) at the operator.
pub fn arithmetic(at: Span, e: OpError) -> Box<Diagnostic> {
    error(at, e.message())
}

/// `die size must be at least 1 (got N)` at the `d` node.
pub fn bad_die(at: Span, n: i32) -> Box<Diagnostic> {
    error(at, format!("die size must be at least 1 (got {n})"))
}

/// `negative count N for 'first'` (`last`, `low`, `high`) at the selector.
pub fn negative_count(at: Span, selector: Selector, n: i32) -> Box<Diagnostic> {
    error(at, negative_count_message(selector, n))
}

/// The message of [`negative_count`].
pub fn negative_count_message(selector: Selector, n: i32) -> String {
    format!("negative count {n} for '{}'", selector.symbol())
}

/// `unknown variable 'x'` at the variable.
pub fn unknown_variable(at: Span, name: &str) -> Box<Diagnostic> {
    error(at, format!("unknown variable '{name}'"))
}

/// A list longer than `limit` members (a roll's list limit), at the node that built it.
pub fn list_too_long(at: Span, limit: usize) -> Box<Diagnostic> {
    error(at, format!("list too long (more than {limit} elements)"))
}

/// A roll that took more than `limit` steps, at the node whose step passed it.
pub fn step_limit(at: Span, limit: u64) -> Box<Diagnostic> {
    error(at, format!("evaluation step limit of {limit} exceeded"))
}

/// A host's time limit ([`alea_core::Cancel`]) reached, at the node being evaluated.
pub fn cancelled(at: Span) -> Box<Diagnostic> {
    error(at, alea_core::LimitExceeded::cancelled().to_string())
}

/// A `while` that ran more than `limit` iterations in one evaluation, at the `while`.
pub fn while_iterations(at: Span, limit: u64) -> Box<Diagnostic> {
    error(at, format!("'while' loop exceeded {limit} iterations"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact `a·10^k ± b` (k the digits of b), wrapped at the end: what `concat` means.
    fn concat_exact(a: i32, b: i32) -> i32 {
        let digits = b.max(1).ilog10() + 1;
        let head = i128::from(a) * 10i128.pow(digits);
        let v = if a < 0 {
            head - i128::from(b)
        } else {
            head + i128::from(b)
        };
        v as i32
    }

    proptest::proptest! {
        #[test]
        fn concat_wraps_the_exact_value(a in proptest::prelude::any::<i32>(), b in 0i32..=i32::MAX) {
            proptest::prop_assert_eq!(concat(a, b), Ok(concat_exact(a, b)));
        }
    }

    #[test]
    fn arithmetic_vectors() {
        assert_eq!(binary(BinOp::Div, -7, 2), Ok(-3));
        assert_eq!(binary(BinOp::Rem, -7, 3), Ok(-1));
        assert_eq!(binary(BinOp::Rem, 7, -3), Ok(1));
        assert_eq!(binary(BinOp::Div, i32::MIN, -1), Ok(i32::MIN));
        assert_eq!(binary(BinOp::Rem, i32::MIN, -1), Ok(0));
        assert_eq!(binary(BinOp::Div, 1, 0), Err(OpError::DivisionByZero));
        assert_eq!(pow(2, -1), 0);
        assert_eq!(pow(-1, -1), -1);
        assert_eq!(pow(-2, -1), 0);
        assert_eq!(pow(0, 0), 1);
        assert_eq!(pow(3, 4), 81);
        assert_eq!(pow(0, -1), i32::MIN);
        assert_eq!(pow(2, 31), i32::MIN);
        assert_eq!(pow(-2, 31), i32::MIN);
        assert_eq!(pow(2, 1000), i32::MIN);
        assert_eq!(pow(0, 5), 0);
        assert_eq!(concat(-10, 9), Ok(-109));
        assert_eq!(concat(1, 10), Ok(110));
        assert_eq!(concat(1, 100), Ok(1100));
        assert_eq!(concat(1, 0), Ok(10));
        assert_eq!(concat(-1, 5), Ok(-15));
        assert_eq!(concat(1, -5), Err(OpError::NegativeConcat(-5)));
    }

    #[test]
    fn aggregates_wrap_and_count_kept_members() {
        use Aggregate::{Count, Prod, Sum};
        assert_eq!(aggregate(Sum, []), 0);
        assert_eq!(aggregate(Prod, []), 1);
        assert_eq!(aggregate(Count, []), 0);
        assert_eq!(aggregate(Sum, [i32::MAX, 1]), i32::MIN);
        assert_eq!(aggregate(Prod, [65536, 65536]), 0);
        assert_eq!(aggregate(Prod, [-3, 4, -1]), 12);
        assert_eq!(aggregate(Count, [5, 0, -1]), 3);
        let kept = |op| aggregate_kept(op, [1, 5, 4, 3], |m| m > 3);
        assert_eq!((kept(Sum), kept(Prod), kept(Count)), (9, 20, 2));
        // Nothing kept: the value of `()`.
        let none = |op| aggregate_kept(op, [2, 3], |_| false);
        assert_eq!((none(Sum), none(Prod), none(Count)), (0, 1, 0));
    }

    #[test]
    fn comparison_filters_keep_or_drop() {
        let run = |sel, drop, x, v: &[i32]| {
            let mut l = v.to_vec();
            select_compare(sel, drop, x, &mut l);
            l
        };
        let v = [1, 5, 2, 3, 2];
        assert_eq!(run(Selector::Eq, false, 2, &v), vec![2, 2]);
        assert_eq!(run(Selector::Eq, true, 2, &v), vec![1, 5, 3]);
        assert_eq!(run(Selector::Ne, false, 2, &v), vec![1, 5, 3]);
        assert_eq!(run(Selector::Ne, true, 2, &v), vec![2, 2]);
        assert_eq!(run(Selector::Lt, false, 3, &v), vec![1, 2, 2]);
        assert_eq!(run(Selector::Lt, true, 3, &v), vec![5, 3]);
        assert_eq!(run(Selector::Gt, false, 2, &v), vec![5, 3]);
        assert_eq!(run(Selector::Gt, true, 2, &v), vec![1, 2, 2]);
        assert_eq!(run(Selector::Le, false, 2, &v), vec![1, 2, 2]);
        assert_eq!(run(Selector::Le, true, 2, &v), vec![5, 3]);
        assert_eq!(run(Selector::Ge, false, 3, &v), vec![5, 3]);
        assert_eq!(run(Selector::Ge, true, 3, &v), vec![1, 2, 2]);
        assert_eq!(comparison(Selector::Gt, true), Some(Cmp::Le));
        for sel in [
            Selector::First,
            Selector::Last,
            Selector::Low,
            Selector::High,
        ] {
            assert_eq!(comparison(sel, false), None);
            assert_eq!(comparison(sel, true), None);
        }
    }

    #[test]
    fn low_high_keep_earliest() {
        let run = |sel, drop, n, v: &[i32]| {
            let mut l = v.to_vec();
            select_count(sel, drop, n, &mut l, &mut Vec::new());
            l
        };
        assert_eq!(run(Selector::Low, false, 2, &[3, 1, 2, 1]), vec![1, 1]);
        assert_eq!(run(Selector::High, true, 1, &[5, 1, 5]), vec![5, 1]);
        assert_eq!(run(Selector::Low, true, 1, &[1, 5, 1]), vec![1, 5]);
        assert_eq!(run(Selector::Low, false, 2, &[5, 1, 4, 1, 3]), vec![1, 1]);
        assert_eq!(run(Selector::High, false, 2, &[2, 3, 1]), vec![2, 3]);
        assert_eq!(run(Selector::High, false, 10, &[3, 1, 2]), vec![3, 1, 2]);
        assert_eq!(run(Selector::Low, true, 2, &[1, 2, 1, 2, 1]), vec![1, 2, 2]);
        assert_eq!(
            run(Selector::First, true, 10, &[1, 2, 3]),
            Vec::<i32>::new()
        );
        assert_eq!(run(Selector::Last, false, 1, &[1, 2, 3]), vec![3]);
    }
}
