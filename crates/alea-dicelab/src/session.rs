//! The statement loop (dicelab.md §3, §6, §7): a [`Session`] runs statements one at a time in
//! the requested modes, in the spec's order (tree, roll, calc, eval), from one random stream,
//! and returns a [`Report`] per statement. The `dicelab` binary, `alea dice`, the dice REPL and
//! the playground display these reports; none of them evaluates a statement itself.
//!
//! ```
//! use alea_core::SourceFile;
//! use alea_dicelab::{Modes, Session, SessionOptions};
//!
//! let file = SourceFile::new("<expr>", "sum 1..100; 1/0; d6");
//! let (program, errors) = alea_dicelab::parse(&file);
//! assert!(errors.is_empty());
//! let options = SessionOptions { modes: Modes::ROLL, ..SessionOptions::default() };
//! let mut session = Session::new(options, 1);
//! let reports = session.run_program(&program);
//! assert_eq!(reports[0].roll, Some(vec![5050]));
//! // A runtime error ends its statement only.
//! assert_eq!(reports[1].diagnostic().map(|d| d.message.as_str()), Some("division by zero"));
//! assert!(reports[2].roll.is_some());
//! ```

use crate::ast::{Program, Statement};
use crate::calc::{self, CalcOptions, CalcResult};
use crate::eval::{Histogram, eval};
use crate::sample::Sampler;
use crate::summary::Summary;
use crate::tree::print_tree;
use alea_core::{Diagnostic, Rng};

/// Most rolls of one eval (`-e`/`-n`), 0.7's upper bound.
pub const MAX_EVAL_ROLLS: u64 = 100_000_000;

/// Checks an eval roll count given by a user: `Ok(n)` for 1..=[`MAX_EVAL_ROLLS`], else the
/// message naming the limit (front ends other than the drop-in `dicelab`, which keeps 0.7's
/// silent adjustment with its warnings, report this as a usage error).
pub fn check_rolls(n: u64) -> Result<u64, String> {
    if (1..=MAX_EVAL_ROLLS).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "the number of rolls must be from 1 to {MAX_EVAL_ROLLS} (got {n})"
        ))
    }
}

/// Which modes run for each statement (any combination; they run in this order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modes {
    /// Print the parse tree (`-p`).
    pub tree: bool,
    /// Roll once (`-r`).
    pub roll: bool,
    /// The exact distribution (`-c`).
    pub calc: bool,
    /// A histogram of [`SessionOptions::rolls`] rolls (`-e`).
    pub eval: bool,
}

impl Modes {
    /// Roll only.
    pub const ROLL: Modes = Modes {
        tree: false,
        roll: true,
        calc: false,
        eval: false,
    };
    /// Calc only.
    pub const CALC: Modes = Modes {
        tree: false,
        roll: false,
        calc: true,
        eval: false,
    };
    /// Eval only.
    pub const EVAL: Modes = Modes {
        tree: false,
        roll: false,
        calc: false,
        eval: true,
    };
}

/// What a session does with each statement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SessionOptions {
    /// The modes.
    pub modes: Modes,
    /// Rolls per eval (1..=[`MAX_EVAL_ROLLS`]; larger values are clamped, 0 counts as 1).
    pub rolls: u64,
    /// The exact engine's threshold and budgets.
    pub calc: CalcOptions,
}

impl Default for SessionOptions {
    /// Calc only (`alea dice`'s default mode), 10000 rolls for eval (0.7's default), the
    /// default calc options.
    fn default() -> SessionOptions {
        SessionOptions {
            modes: Modes::CALC,
            rolls: 10_000,
            calc: CalcOptions::default(),
        }
    }
}

/// Which mode produced an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Roll.
    Roll,
    /// Calc.
    Calc,
    /// Eval.
    Eval,
}

/// What one statement gave in each requested mode. A runtime error ends the statement
/// (dicelab.md §3): the modes after it did not run, and their fields are `None`.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The tree as 0.7's `-p` prints it.
    pub tree: Option<String>,
    /// The rolled values.
    pub roll: Option<Vec<i32>>,
    /// The exact distribution.
    pub calc: Option<CalcResult>,
    /// The histogram of the eval rolls.
    pub eval: Option<Histogram>,
    /// The mode that failed and its error (reported at the operator, variable or statement).
    pub error: Option<(Mode, Box<Diagnostic>)>,
}

impl Report {
    /// The error, if a mode failed.
    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        self.error.as_ref().map(|(_, d)| &**d)
    }

    /// The distribution to display: calc's exact one when calc ran, else eval's histogram.
    pub fn summary(&self) -> Option<Summary> {
        match (&self.calc, &self.eval) {
            (Some(r), _) => Some(Summary::exact(r)),
            (None, Some(h)) => Some(Summary::sampled(h)),
            (None, None) => None,
        }
    }
}

/// Runs statements in order from one random stream (dicelab.md §6: statements in order, roll
/// before eval; each eval draws one 64-bit seed for its parallel tasks, see [`eval`]).
#[derive(Debug)]
pub struct Session {
    /// What to do with each statement (may be changed between statements).
    pub options: SessionOptions,
    rng: Rng,
}

impl Session {
    /// A session whose generator is `seed_from_u64(seed)`.
    pub fn new(options: SessionOptions, seed: u64) -> Session {
        Session {
            options,
            rng: Rng::seed_from_u64(seed),
        }
    }

    /// Restarts the random stream from `seed` (the REPL's `:seed`).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::seed_from_u64(seed);
    }

    /// Runs every statement of `program`, each on its own (an error ends only its statement).
    pub fn run_program(&mut self, program: &Program) -> Vec<Report> {
        program.statements.iter().map(|s| self.run(s)).collect()
    }

    /// Runs one statement in every requested mode: tree, roll, calc, eval.
    pub fn run(&mut self, statement: &Statement) -> Report {
        let modes = self.options.modes;
        let mut report = Report::default();
        if modes.tree {
            report.tree = Some(print_tree(&statement.expr));
        }
        if modes.roll {
            match self.roll(statement) {
                Ok(v) => report.roll = Some(v),
                Err(d) => {
                    report.error = Some((Mode::Roll, d));
                    return report;
                }
            }
        }
        if modes.calc {
            match self.calc(statement) {
                Ok(r) => report.calc = Some(r),
                Err(d) => {
                    report.error = Some((Mode::Calc, d));
                    return report;
                }
            }
        }
        if modes.eval {
            match self.eval(statement) {
                Ok(h) => report.eval = Some(h),
                Err(d) => report.error = Some((Mode::Eval, d)),
            }
        }
        report
    }

    /// The roll mode alone: one roll from the session's stream, or its error (for front ends
    /// that run one mode and want its result without a [`Report`] to take apart).
    pub fn roll(&mut self, statement: &Statement) -> Result<Vec<i32>, Box<Diagnostic>> {
        let mut out = Vec::new();
        Sampler::new(statement).roll_into(&mut self.rng, &mut out)?;
        Ok(out)
    }

    /// The calc mode alone: the exact distribution, or its error.
    pub fn calc(&self, statement: &Statement) -> Result<CalcResult, Box<Diagnostic>> {
        calc::calculate(statement, &self.options.calc).map_err(Box::new)
    }

    /// The eval mode alone: a histogram of [`SessionOptions::rolls`] rolls seeded by one
    /// draw from the session's stream, or its error.
    pub fn eval(&mut self, statement: &Statement) -> Result<Histogram, Box<Diagnostic>> {
        let seed = self.rng.next_u64();
        let rolls = self.options.rolls.clamp(1, MAX_EVAL_ROLLS);
        eval(statement, rolls, seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alea_core::SourceFile;

    fn program(text: &str) -> Program {
        let (p, errors) = crate::parse(&SourceFile::new("<t>", text));
        assert!(errors.is_empty(), "{text}");
        p
    }

    #[test]
    fn modes_run_in_order_and_an_error_ends_the_statement() {
        let options = SessionOptions {
            modes: Modes {
                tree: true,
                roll: true,
                calc: true,
                eval: true,
            },
            rolls: 100,
            ..SessionOptions::default()
        };
        let mut s = Session::new(options, 1);
        let r = s.run_program(&program("3#d6; d6"));
        assert_eq!(r[0].tree.as_deref(), Some("#\n  3\n  d\n    6\n"));
        assert_eq!(r[0].roll.as_ref().map(Vec::len), Some(3));
        assert!(r[0].calc.is_none() && r[0].eval.is_none());
        let (mode, d) = r[0].error.as_ref().expect("3#d6 is not a single value");
        assert_eq!(*mode, Mode::Calc);
        assert_eq!(d.message, "result is not a single value (list of 3 values)");
        assert_eq!(r[1].eval.as_ref().map(|h| h.rolls), Some(100));
        assert!(r[1].error.is_none());
    }

    #[test]
    fn same_seed_same_reports() {
        let options = SessionOptions {
            modes: Modes {
                roll: true,
                eval: true,
                ..Modes::default()
            },
            rolls: 1000,
            ..SessionOptions::default()
        };
        let p = program("d6; sum(3#d6)");
        let a = Session::new(options, 7).run_program(&p);
        let b = Session::new(options, 7).run_program(&p);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.roll, y.roll);
            assert_eq!(x.eval, y.eval);
        }
    }

    #[test]
    fn roll_counts_are_checked_against_the_limit() {
        assert_eq!(check_rolls(1), Ok(1));
        assert_eq!(check_rolls(MAX_EVAL_ROLLS), Ok(MAX_EVAL_ROLLS));
        assert_eq!(
            check_rolls(0).unwrap_err(),
            "the number of rolls must be from 1 to 100000000 (got 0)"
        );
        assert!(
            check_rolls(1_000_000_000)
                .unwrap_err()
                .contains("100000000")
        );
    }
}
