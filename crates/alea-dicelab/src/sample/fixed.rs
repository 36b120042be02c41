//! The deterministic parts of a statement (no `d`, no `perm`) as calc needs them: a subtree
//! compiled once by the same compiler as a whole statement, and rolled in roll mode with the
//! values of its free variables given by the caller. Calc's bindings always hold concrete
//! values, so such a part has one value, which the one concrete evaluator computes with the
//! errors, spans and limits of roll mode (issue 16: errors identical in every mode).
//!
//! An evaluation is a roll of the subtree alone ([`Sampler::roll_into`]): it starts at 0
//! steps, runs in the fast mode and, when that stops at a limit, again in the precise mode,
//! so the step-limit error is the exact one. It goes through the sampler's own entry point
//! rather than calling the nodes itself, so that the roll loops' code has no new caller. No
//! die is drawn, so the generator is a fixed dummy.

use super::Sampler;
use super::compile::Compiler;
use crate::ast::{Expr, ExprKind};
use crate::roll::RollError;
use alea_core::Rng;

/// A compiled deterministic subtree with its buffers.
pub(crate) struct Fixed {
    sampler: Sampler,
    /// The slots bound outside the subtree that it reads, ascending: what the caller gives.
    free: Box<[usize]>,
    out: Vec<i32>,
    rng: Rng,
}

impl Fixed {
    /// Compiles `e`, a subtree without `d` or `perm` enclosed by `depth` bindings (its
    /// variables with slots below `depth` are bound outside it).
    pub(crate) fn new(e: &Expr, depth: usize) -> Fixed {
        let free = free_slots(e, depth);
        let mut c = Compiler::part(depth, free.clone());
        let (root, cost) = c.list(e);
        let sampler = Sampler {
            root,
            cost,
            span: e.span,
            depth: c.deepest,
            env: vec![Vec::new(); c.slots],
            out: Vec::new(),
            steps: 0,
        };
        Fixed {
            sampler,
            free,
            out: Vec::new(),
            rng: Rng::seed_from_u64(0),
        }
    }

    /// The slots bound outside the subtree that it reads, ascending.
    pub(crate) fn free(&self) -> &[usize] {
        &self.free
    }

    /// The steps the last [`Fixed::eval`] took (up to its error, if it failed).
    pub(crate) fn steps(&self) -> u64 {
        self.sampler.steps
    }

    /// The subtree's value, with each free slot `s` bound to `value(s)`; the error is the one
    /// roll mode reports. Inlined into calc: out of line, this function shifted how rustc
    /// splits the crate into codegen units, and `-e` of `count >7 5#d10` took 36 % more
    /// instructions (its fold loop was no longer inlined; measured with callgrind, see
    /// docs/performance/dicelab-calc.md). That was with the crate in 4 codegen units; release
    /// builds now make it one (the workspace Cargo.toml), which ends such regroupings.
    #[inline(always)]
    pub(crate) fn eval<'v>(
        &mut self,
        value: impl Fn(usize) -> &'v [i32],
    ) -> Result<&[i32], RollError> {
        // The part's environment holds the free slots first, in `free`'s order
        // (`Compiler::part`).
        for (slot, &s) in self.sampler.env.iter_mut().zip(self.free.iter()) {
            slot.clear();
            slot.extend_from_slice(value(s));
        }
        self.sampler.roll_into(&mut self.rng, &mut self.out)?;
        Ok(&self.out)
    }
}

/// The slots below `depth` read in `e` (inner bindings have slots `depth` and up).
/// Iterative: a subtree may nest thousands deep.
fn free_slots(e: &Expr, depth: usize) -> Box<[usize]> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        if let ExprKind::Var(v) = &e.kind
            && let Some(s) = v.slot
            && (s as usize) < depth
        {
            out.push(s as usize);
        }
        stack.extend(e.children());
    }
    out.sort_unstable();
    out.dedup();
    out.into_boxed_slice()
}
