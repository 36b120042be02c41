//! The compiled form: specialised nodes that own their scratch buffers.
//!
//! Every node keeps the spans its errors and its steps are reported at (see the module docs
//! of [`crate::sample`] for the step rules), so the one evaluator reports every error itself.

use super::cx::{FoldDice, FoldList, PoolDice};
use crate::ast::{Aggregate, BinOp, Reorder, Selector};
use crate::ops::{Cmp, Operand};
use alea_core::Span;

/// Where a "needs a single value" error is reported: what the operand is and the span of the
/// operator (or prefix node, or selector) it belongs to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Need {
    pub what: Operand,
    pub at: Span,
}

/// One link of a [`S::Chain`]: an operator applied to one value.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Link {
    Neg,
    Die,
    /// `sum`/`prod`/`count` of one value: the value, the value, 1.
    Agg(Aggregate),
}

/// Nodes that give one value (the roller's `scalar`: one step at `span`, then the operands).
/// An explicit tag byte: dispatch reads it directly instead of decoding a niche.
#[derive(Clone, Debug)]
#[repr(u8)]
pub(crate) enum S {
    /// A run of prefix operators on one value (`sum sum … e`, `-(-(… e))`, `d d … e`), outer
    /// first, as one flat node: evaluating, cloning and dropping it does not recurse per
    /// link, so 0.7's 5,000-deep chains need no deep stack.
    Chain {
        links: Box<[(Link, Span)]>,
        inner: Box<S>,
    },
    Const(i32, Span),
    /// A variable that must hold exactly one value.
    Var {
        slot: usize,
        span: Span,
        need: Need,
    },
    /// A variable no binding encloses: always an error, after `steps` steps.
    Unknown {
        span: Span,
        name: Box<str>,
        steps: u64,
    },
    Neg(Box<S>, Span),
    Bin {
        op: BinOp,
        a: Box<S>,
        b: Box<S>,
        span: Span,
        op_span: Span,
    },
    /// `dA op dB` with literal sizes (`d6.d6`, `d20-d4`): the two dice drawn from one local
    /// copy of the generator in the fast mode, without a dispatch on each operand.
    BinDice {
        op: BinOp,
        /// The sizes of the left and the right die.
        k: [u64; 2],
        /// Where each die's two steps are reported: the left `d`, its size, the right `d`, its
        /// size.
        steps: [Span; 4],
        span: Span,
        op_span: Span,
    },
    /// `a / d` with a literal `d ≥ 2`: a multiplication by the precomputed
    /// `floor((2^64 - 1) / d) + 1` instead of a division (exact for 32-bit operands).
    DivK {
        a: Box<S>,
        m: u64,
        span: Span,
        d_span: Span,
    },
    /// `dK` with a literal `K ≥ 1` (two steps: the `d` and the literal).
    DieK {
        k: u64,
        span: Span,
        k_span: Span,
    },
    Die(Box<S>, Span),
    Agg {
        op: Aggregate,
        list: Box<L>,
        buf: Vec<i32>,
        span: Span,
    },
    /// `sum x` on a variable: folds the bound value in place.
    AggVar {
        op: Aggregate,
        slot: usize,
        span: Span,
        var_span: Span,
    },
    /// `count n#dK` family: `op` over `n` fresh dice, optionally filtered by a comparison
    /// against `x` (evaluated first, as the filter does), without a list.
    AggDice {
        /// The comparison's operand, if there is a filter.
        x: Option<Box<S>>,
        /// The loop for the aggregate and the comparison, chosen by the compiler.
        fold: FoldDice,
        n: Box<S>,
        k: u64,
        span: Span,
        repeat_span: Span,
    },
    /// `count >7 e`: folds the members that pass, without compacting.
    AggCmp {
        op: Aggregate,
        cmp: Cmp,
        x: Box<S>,
        list: Box<L>,
        buf: Vec<i32>,
        span: Span,
    },
    /// `count >10 s` on a single value `s`: 1 or 0 (`sum`: `s` or 0, `prod`: `s` or 1).
    AggCmpOne {
        op: Aggregate,
        cmp: Cmp,
        x: Box<S>,
        s: Box<S>,
        span: Span,
    },
    AggCmpVar {
        op: Aggregate,
        cmp: Cmp,
        /// The loop for `op` and `cmp` over two or more members, chosen by the compiler.
        fold: FoldList,
        x: Box<S>,
        slot: usize,
        span: Span,
        var_span: Span,
    },
    /// `sum (drop low 1 e)`: folds the selected members in their own buffer (the order of the
    /// members does not matter to a fold).
    AggSel {
        op: Aggregate,
        sel: Selector,
        drop: bool,
        k: Box<S>,
        list: Box<L>,
        buf: Vec<i32>,
        scratch: Vec<i32>,
        span: Span,
        sel_span: Span,
    },
    /// `high 1 e` / `low 1 e` where one value is needed: the extreme member.
    Extreme {
        largest: bool,
        list: Box<L>,
        buf: Vec<i32>,
        span: Span,
        one_span: Span,
        need: Need,
    },
    /// A list expression where one value is needed.
    Single {
        list: Box<L>,
        buf: Vec<i32>,
        span: Span,
        need: Need,
    },
}

/// Nodes that append their members to an output buffer (the roller's `eval_into`), with an
/// explicit tag byte as [`S`].
#[derive(Clone, Debug)]
#[repr(u8)]
pub(crate) enum L {
    /// A single value, pushed; the length is checked at `span`.
    Scalar(S, Span),
    Var {
        slot: usize,
        span: Span,
    },
    Unknown {
        span: Span,
        name: Box<str>,
    },
    Empty,
    /// `n#dK` with a literal `K ≥ 1` (2 steps a die).
    RepeatDice {
        n: S,
        k: u64,
        span: Span,
        /// Appends two or more dice: straight-line code when `n` is a small literal.
        many: PoolDice,
    },
    Repeat {
        n: S,
        body: Box<L>,
        per: u64,
        span: Span,
    },
    /// `n#e` with a single-value `e`.
    RepeatScalar {
        n: S,
        body: S,
        per: u64,
        span: Span,
        body_span: Span,
    },
    Range {
        lo: S,
        hi: S,
        span: Span,
    },
    List(Vec<L>),
    Reorder(Reorder, Box<L>),
    FilterCmp {
        cmp: Cmp,
        x: S,
        list: Box<L>,
    },
    FilterSel {
        sel: Selector,
        drop: bool,
        k: S,
        list: Box<L>,
        buf: Vec<i32>,
        scratch: Vec<i32>,
        span: Span,
        sel_span: Span,
        /// Whether the members must keep their order: not when the compiler knows the
        /// consumer ignores it (an extreme), so dropping one member is a swap, not a shift.
        ordered: bool,
    },
    /// `high 1 e` / `low 1 e`: the extreme member of `e` (none when `e` is empty), read in
    /// place when `e` is a variable, instead of a selection copied through a buffer.
    Extreme {
        largest: bool,
        list: Box<L>,
        buf: Vec<i32>,
        span: Span,
        one_span: Span,
    },
    /// `SEL x (high 1 e)` / `SEL x (low 1 e)`: a comparison filter of an extreme tests the
    /// one member before pushing it, instead of pushing it and filtering the output.
    CmpExtreme {
        cmp: Cmp,
        x: S,
        largest: bool,
        list: Box<L>,
        buf: Vec<i32>,
        span: Span,
        one_span: Span,
    },
    If {
        cond: Box<L>,
        buf: Vec<i32>,
        then: Box<L>,
        then_cost: u64,
        other: Box<L>,
        other_cost: u64,
        span: Span,
    },
    Let {
        slot: usize,
        value: Box<L>,
        buf: Vec<i32>,
        body: Box<L>,
    },
    Foreach {
        slot: usize,
        list: Box<L>,
        members: Vec<i32>,
        body: Box<L>,
        per: u64,
        span: Span,
    },
    While {
        slot: usize,
        init: Box<L>,
        next: Vec<i32>,
        body: Box<L>,
        per: u64,
        span: Span,
    },
}
