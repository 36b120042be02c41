//! The one concrete evaluator: roll mode (`-r`, the REPL) and eval mode (`-e`, see
//! [`crate::eval`]) both run a statement compiled once into a tree of specialised nodes
//! ([`node`]) that rolls without allocating after warm-up (every node owns the scratch buffers
//! it needs, each binding depth one environment buffer) and reports every runtime error itself,
//! with the span and text of [`crate::ops`].
//!
//! Draws follow the evaluation order of dicelab.md §3 (source order; a filter evaluates n,
//! then e; `#` evaluates n, then e n times), with `dn` = `range_inclusive(1, n)` and
//! `perm` = `shuffle` (§6).
//!
//! **Steps.** A roll may take at most [`MAX_STEPS`](crate::MAX_STEPS) evaluation steps: one per node visited
//! where a value is needed, per list variable read, per repetition of `#`, per `if`, per
//! `foreach` member and `while` iteration, two per die of `n#dK`, one per 16 members of a
//! range. The step-limit error is reported at the node whose step passes the limit. Counting
//! every step as it happens would cost a counter update per node, so a roll first runs in the
//! *fast mode*: the compiler precomputes each node's *cost* (the steps of its parts that
//! always run) and a region (the statement, a loop body, an `if` branch) charges its whole
//! cost when it starts. The fast count is never below the true count at any moment, so a roll
//! the fast mode finishes is within the limit, and any other error it reports is exactly the
//! one the rules give. Only when it passes the limit (or a list-length check done ahead of
//! the pushes fails) may the roll have failed later than the fast mode noticed, or at another
//! error first: then the roll runs again from the same RNG state in the *precise mode* of the
//! same code (each node charging its own steps where the rules put them), which decides.
//! Both modes are instantiations of the same generic functions (`eval::<P>`), so each
//! construct is written once; the rerun only happens to rolls that end at a limit.
//!
//! **Limits** (§3): a list longer than [`MAX_LIST_LEN`](crate::MAX_LIST_LEN) members, a `while`
//! with more than [`MAX_WHILE_ITERATIONS`](crate::MAX_WHILE_ITERATIONS) iterations or more
//! than [`MAX_STEPS`](crate::MAX_STEPS) steps in one roll are
//! runtime errors.

mod compile;
mod cx;
pub(crate) mod fixed;
mod list;
mod node;
mod scalar;

use crate::ast::Statement;
use crate::ops;
use crate::roll::{MAX_STEPS, RollError};
use alea_core::{Diagnostic, Rng, Span};
use cx::{Cx, R, Stop};
use node::{L, S};

/// A compiled statement with its buffers. Keep one per thread (clone it for another).
#[derive(Clone, Debug)]
pub(crate) struct Sampler {
    root: L,
    cost: u64,
    span: Span,
    depth: usize,
    env: Vec<Vec<i32>>,
    out: Vec<i32>,
    /// The steps of the last roll in roll mode (up to its error): what calc charges for a
    /// deterministic part ([`fixed`]).
    steps: u64,
}

/// Fast-mode rolls of a root (`value`) while `rolls` lasts, each starting at
/// `cost` steps; a roll that stops gives the RNG state it started from (why it stopped is in
/// `cx`).
#[inline(always)]
fn fast_rolls(
    cx: &mut Cx,
    cost: u64,
    rolls: &mut u64,
    each: &mut impl FnMut(Option<i32>),
    mut value: impl FnMut(&mut Cx) -> R<Option<i32>>,
) -> Option<Rng> {
    while *rolls > 0 {
        let start = cx.rng.clone();
        cx.steps = cost;
        let r = value(cx);
        *rolls -= 1;
        match r {
            Ok(v) => each(v),
            Err(Stop) => return Some(start),
        }
    }
    None
}

/// The precise mode never asks for a rerun; should it, the roll fails with this error rather
/// than with a panic.
fn finish(error: Option<RollError>, span: Span) -> RollError {
    error.unwrap_or_else(|| {
        Box::new(
            Diagnostic::error("internal error: the precise evaluation asked for a rerun")
                .with_span(span),
        )
    })
}

impl Sampler {
    /// Compiles `statement`.
    pub(crate) fn new(statement: &Statement) -> Sampler {
        let mut c = compile::Compiler::new();
        let (root, cost) = c.list(&statement.expr);
        Sampler {
            root,
            cost,
            span: statement.span,
            depth: c.deepest,
            env: vec![Vec::new(); c.slots],
            out: Vec::new(),
            steps: 0,
        }
    }

    /// How deep evaluating the compiled form recurses (nodes, a chain counting one).
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// The statement's span.
    pub(crate) fn span(&self) -> Span {
        self.span
    }

    /// One roll in roll mode: the value (possibly `()` or a list) into `out`, cleared first.
    pub(crate) fn roll_into(&mut self, rng: &mut Rng, out: &mut Vec<i32>) -> Result<(), RollError> {
        let start = rng.clone();
        match self.list::<false>(rng, out) {
            Ok(()) => Ok(()),
            Err(Some(d)) => Err(d),
            Err(None) => {
                *rng = start;
                let span = self.span;
                self.list::<true>(rng, out).map_err(|e| finish(e, span))
            }
        }
    }

    /// A roll into `out`; a roll that stops gives its error, or `None` for a rerun.
    fn list<const P: bool>(
        &mut self,
        rng: &mut Rng,
        out: &mut Vec<i32>,
    ) -> Result<(), Option<RollError>> {
        out.clear();
        let mut cx = Cx::new(rng, &mut self.env);
        let r = cx
            .ahead::<P>(self.cost, self.span)
            .and_then(|()| self.root.eval::<P>(&mut cx, out));
        self.steps = cx.steps;
        r.map_err(|Stop| cx.take_error())
    }

    /// One roll in eval mode: `None` for `()`, else the single value; a longer list is
    /// `result is not a single value (list of K values)` at the statement's start.
    /// Inlined into eval's loop over the rolls, where the per-roll setup is most of the work
    /// for the smallest statements.
    #[inline(always)]
    pub(crate) fn roll_single(&mut self, rng: &mut Rng) -> Result<Option<i32>, RollError> {
        let start = rng.clone();
        match self.single::<false>(rng) {
            Ok(v) => Ok(v),
            Err(Some(d)) => Err(d),
            Err(None) => self.single_precise(rng, start),
        }
    }

    /// `rolls` rolls in eval mode, as [`Sampler::roll_single`] one after another, each result
    /// handed to `each`; stops at the first failing roll with its error. Eval's loop: a
    /// statement whose charge ahead cannot reach the limit or a poll (nearly all) runs its
    /// root directly, without re-deciding per roll what
    /// [`Sampler::roll_single`] decides (the root's kind, the first charge's test).
    #[inline(always)]
    pub(crate) fn roll_many(
        &mut self,
        rng: &mut Rng,
        mut rolls: u64,
        mut each: impl FnMut(Option<i32>),
    ) -> Result<(), RollError> {
        // Every roll starts at 0 steps, so the first charge (`cost`) goes to `add_slow` only
        // when `cost` alone passes the limit or a multiple of POLL_STEPS.
        let quiet = self.cost < alea_core::POLL_STEPS.min(MAX_STEPS + 1);
        while rolls > 0 && quiet {
            let Sampler {
                root,
                cost,
                env,
                out,
                span,
                ..
            } = self;
            // The same steps as `single::<false>`: the charge ahead, then the root's value (a
            // leaf inline, any other node by its call: `S::eval`'s test, decided once), or
            // the root's list, which must have at most one member.
            let mut cx = Cx::new(rng, env);
            let stopped = match root {
                L::Scalar(s, _) if matches!(s, S::Const(..) | S::DieK { .. } | S::Var { .. }) => {
                    fast_rolls(&mut cx, *cost, &mut rolls, &mut each, |cx| {
                        s.eval::<false>(cx).map(Some)
                    })
                }
                // Two dice and an operator (`d6.d6`): the node's code in this loop, without
                // its call.
                L::Scalar(s @ S::BinDice { .. }, _) => {
                    fast_rolls(&mut cx, *cost, &mut rolls, &mut each, |cx| {
                        s.bin_dice::<false>(cx).map(Some)
                    })
                }
                L::Scalar(s, _) => fast_rolls(&mut cx, *cost, &mut rolls, &mut each, |cx| {
                    s.eval_node::<false>(cx).map(Some)
                }),
                list => fast_rolls(&mut cx, *cost, &mut rolls, &mut each, |cx| {
                    out.clear();
                    list.eval::<false>(cx, out)?;
                    match out[..] {
                        [] => Ok(None),
                        [v] => Ok(Some(v)),
                        _ => Err(cx.fail(ops::result_not_single(*span, out.len()))),
                    }
                }),
            };
            let Some(start) = stopped else {
                return Ok(());
            };
            if let Some(d) = cx.take_error() {
                return Err(d);
            }
            each(self.single_precise(rng, start)?);
        }
        for _ in 0..rolls {
            each(self.roll_single(rng)?);
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn single_precise(&mut self, rng: &mut Rng, start: Rng) -> Result<Option<i32>, RollError> {
        *rng = start;
        let span = self.span;
        self.single::<true>(rng).map_err(|e| finish(e, span))
    }

    /// One roll's value; a roll that stops gives its error, or `None` for a rerun.
    #[inline(always)]
    fn single<const P: bool>(&mut self, rng: &mut Rng) -> Result<Option<i32>, Option<RollError>> {
        let Sampler {
            root,
            cost,
            span,
            env,
            out,
            ..
        } = self;
        let mut cx = Cx::new(rng, env);
        let r = (|| {
            cx.ahead::<P>(*cost, *span)?;
            // A single-value expression is evaluated as one value; anything else as a list
            // that must have at most one member.
            if let L::Scalar(s, _) = root {
                return s.eval::<P>(&mut cx).map(Some);
            }
            out.clear();
            root.eval::<P>(&mut cx, out)?;
            match out[..] {
                [] => Ok(None),
                [v] => Ok(Some(v)),
                _ => Err(cx.fail(ops::result_not_single(*span, out.len()))),
            }
        })();
        r.map_err(|Stop| cx.take_error())
    }
}

#[cfg(test)]
mod oracle;
#[cfg(test)]
mod tests;
