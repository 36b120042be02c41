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
    let mut scale: i128 = 10;
    let mut rest = b / 10;
    while rest > 0 {
        scale *= 10;
        rest /= 10;
    }
    let head = i128::from(a) * scale;
    let v = if a < 0 {
        head - i128::from(b)
    } else {
        head + i128::from(b)
    };
    Ok(v as i32)
}

/// `sum`, `prod` or `count` of `items` (dicelab.md §3): the wrapping sum (0 for `()`), the
/// wrapping product (1 for `()`), the number of members.
pub fn aggregate(op: Aggregate, items: impl IntoIterator<Item = i32>) -> i32 {
    let items = items.into_iter();
    match op {
        Aggregate::Sum => items.fold(0i32, i32::wrapping_add),
        Aggregate::Prod => items.fold(1i32, i32::wrapping_mul),
        Aggregate::Count => items.fold(0i32, |n, _| n.wrapping_add(1)),
    }
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
        Selector::Low | Selector::High => {
            // Which multiset to keep: the `m` smallest or the `m` largest values.
            let (m, smallest) = match (selector, drop) {
                (Selector::Low, false) => (n, true),
                (Selector::High, false) => (n, false),
                (Selector::Low, true) => (len - n, false),
                _ => (len - n, true),
            };
            keep_extreme(list, m, smallest, scratch);
        }
        _ => {}
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
    list.retain(|&m| selector.compare(m, x) != drop);
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
