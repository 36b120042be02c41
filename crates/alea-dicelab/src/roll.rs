//! Roll mode: one random outcome of a statement, by the one concrete evaluator
//! ([`crate::sample`]), and the limits of a roll (dicelab.md §3).

use crate::ast::Statement;
use crate::sample::Sampler;
use alea_core::{Diagnostic, Rng};

/// Longest list a roll may build.
pub const MAX_LIST_LEN: usize = 10_000_000;
/// Most iterations of one `while` in one evaluation.
pub const MAX_WHILE_ITERATIONS: u64 = 1_000_000;
/// Most evaluation steps (nodes visited, repetitions, iterations) in one roll.
pub const MAX_STEPS: u64 = 100_000_000;

/// A runtime error: message and the span it is reported at.
pub type RollError = Box<Diagnostic>;

/// Rolls statements one at a time: each call compiles the statement (cheap next to anything
/// but the smallest roll) and rolls it once. To roll one statement many times, use
/// [`crate::eval`], which compiles it once.
#[derive(Debug, Default)]
pub struct Roller {
    // Room for caches without an API change.
    _private: (),
}

impl Roller {
    /// A roller.
    pub fn new() -> Roller {
        Roller::default()
    }

    /// One roll of `statement` (its value, possibly `()` or a list), drawing from `rng`.
    pub fn roll(&mut self, statement: &Statement, rng: &mut Rng) -> Result<Vec<i32>, RollError> {
        let mut out = Vec::new();
        self.roll_into(statement, rng, &mut out)?;
        Ok(out)
    }

    /// Like [`Roller::roll`], writing the value into `out` (cleared first).
    pub fn roll_into(
        &mut self,
        statement: &Statement,
        rng: &mut Rng,
        out: &mut Vec<i32>,
    ) -> Result<(), RollError> {
        Sampler::new(statement).roll_into(rng, out)
    }

    /// One roll that must be a single value or `()` (eval mode): `Ok(None)` for `()`, else the
    /// value; a longer list is `result is not a single value (list of K values)` at the
    /// statement start.
    pub fn roll_single(
        &mut self,
        statement: &Statement,
        rng: &mut Rng,
    ) -> Result<Option<i32>, RollError> {
        Sampler::new(statement).roll_single(rng)
    }
}
