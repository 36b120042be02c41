//! Exact distributions of dicelab statements (`dicelab -c`, `alea dice --calc`).
//!
//! [`calculate`] evaluates one statement to the exact distribution of its result, an integer
//! or the empty list `()` (a distinct outcome), following dicelab.md §5: every construct is
//! exact (`perm`, `foreach`, `let`, `if`, nested `#` with random counts), `while` is cut at the
//! threshold as dicelab 0.7 cuts it, and the cut mass is both kept (as 0.7 keeps it) and
//! reported ([`CalcResult::truncated_mass`]). Pools such as `sum(high 3 (100#d6))` or
//! `count >7 50#d10` are evaluated outcome by outcome (see [`alea_prob::Pool`]) and take
//! milliseconds; a step and size budget ([`CalcOptions`]) ends hopeless programs with an error
//! that names the construct.
//!
//! The renderers produce the formats the CLI prints: [`CalcResult::render_dicelab`] is 0.7's
//! `-c` output byte for byte, [`CalcResult::to_json`] the JSON line of `alea dice --json`.
//!
//! ```
//! use alea_core::SourceFile;
//! use alea_dicelab::calc::{self, CalcOptions, Outcome};
//!
//! let file = SourceFile::new("<expr>", "if >3 d6 then sum(2#d6) else ()");
//! let (program, errors) = alea_dicelab::parse(&file);
//! assert!(errors.is_empty());
//! let result = calc::calculate(&program.statements[0], &CalcOptions::default()).unwrap();
//! assert_eq!(result.probability(Outcome::Empty).to_string(), "1/2");
//! assert_eq!(result.probability(Outcome::Value(7)).to_string(), "1/12");
//! assert!(result.render_dicelab(false).starts_with(" ()\t0.500000\t\n  2\t0.013889\t\n"));
//! ```
//!
//! Deeply nested statements recurse deeply: at the parser's depth limit [`calculate`] needs up
//! to about 17 MiB of stack in a release build (measured, docs/performance/dicelab-calc.md
//! "Calc's stack"); run it inside [`crate::with_big_stack`] when the input is untrusted.

mod classes;
mod concrete;
mod eval;
mod faces;
mod kept;
mod list_len;
mod marks;
mod ops;
mod pool;
mod reads;
mod repeat;
mod uses;
mod val;
mod while_loop;

use crate::ast::{Expr, Statement};
use alea_core::{Diagnostic, Span};
use alea_prob::{Budget, Dist, Moments, Ratio};
use eval::{Calc, Repr};
use std::fmt::Write as _;
use std::sync::Arc;

/// Options of a calculation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CalcOptions {
    /// The `while` threshold t (`-t`), as the f32 0.7 stores: paths less likely than t are not
    /// extended. Default `1e-6f32` (= 9.99999997e-7).
    pub threshold: f32,
    /// Elementary steps (weight operations, node evaluations, list values handled) before the
    /// statement fails. Default 10^8: about a second of the slowest kind of step, far above
    /// what the programs of the spec and the golden set need (at most a few million).
    pub max_steps: u64,
    /// Outcomes of any intermediate distribution (or states of a pool evaluation) before the
    /// statement fails. Default 10^7 (dicelab.md §3).
    pub max_outcomes: usize,
}

impl Default for CalcOptions {
    fn default() -> CalcOptions {
        CalcOptions {
            threshold: 1e-6,
            max_steps: 100_000_000,
            max_outcomes: 10_000_000,
        }
    }
}

/// One outcome of a statement: `()` or a single value. `Empty` sorts first, as it is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The empty list `()`.
    Empty,
    /// A single value.
    Value(i32),
}

impl Outcome {
    /// The value, or `None` for `()`.
    pub fn value(self) -> Option<i32> {
        match self {
            Outcome::Empty => None,
            Outcome::Value(v) => Some(v),
        }
    }
}

/// The exact distribution of a statement's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CalcResult {
    /// Shared with every [`crate::Summary`] read from it (no copy at 10^7 outcomes).
    dist: Arc<Dist<Outcome>>,
    truncated: Ratio,
}

impl CalcResult {
    /// The distribution (ascending, `()` first), with integer weights over a common total.
    pub fn distribution(&self) -> &Dist<Outcome> {
        &self.dist
    }

    /// The distribution, shared (for [`crate::Summary`]).
    pub(crate) fn shared_distribution(&self) -> Arc<Dist<Outcome>> {
        Arc::clone(&self.dist)
    }

    /// Every outcome with p > 0 and its exact probability, ascending with `()` first.
    pub fn outcomes(&self) -> Vec<(Outcome, Ratio)> {
        self.dist.ratios()
    }

    /// The exact probability of `outcome` (0 when impossible).
    pub fn probability(&self, outcome: Outcome) -> Ratio {
        self.dist.probability(&outcome)
    }

    /// The probability of the paths on which a `while` was cut at the threshold (that mass is
    /// still in the outcomes, on the truncated lists, as in 0.7).
    pub fn truncated_mass(&self) -> &Ratio {
        &self.truncated
    }

    /// Exact mean and variance of the value conditional on a numeric result; `None` when every
    /// outcome is `()`.
    pub fn moments(&self) -> Option<Moments> {
        crate::summary::moments(&self.dist)
    }

    /// The reading every front end displays: cumulative columns, percentiles, moments.
    pub fn summary(&self) -> crate::Summary {
        crate::Summary::exact(self)
    }

    /// 0.7's `-c` output: one line per outcome, ascending, `"%3i\t%0.6f\t\n"` with the nearest
    /// `f64` of the exact probability, and ` ()` first for the empty outcome. With `exact`,
    /// the probability is printed as a reduced fraction `p/q` instead.
    pub fn render_dicelab(&self, exact: bool) -> String {
        // Outcome by outcome from the weights: collecting every reduced ratio first (two big
        // integers each) took more memory than the distribution itself at the outcome cap.
        let mut out = String::new();
        let total = self.dist.total();
        let total_big = total.to_biguint();
        for (o, w) in self.dist.iter() {
            // The nearest f64 needs no reduced fraction (a big-integer gcd per outcome was
            // most of the time of `count >7 50#d10`); the exact column does.
            let prob = if exact {
                Ratio::from_weights(w, total).to_string()
            } else {
                format!(
                    "{:.6}",
                    alea_prob::ratio_to_f64(&w.to_biguint(), &total_big)
                )
            };
            match o {
                Outcome::Empty => {
                    let _ = writeln!(out, " ()\t{prob}\t");
                }
                Outcome::Value(v) => {
                    let _ = writeln!(out, "{v:>3}\t{prob}\t");
                }
            }
        }
        out
    }

    /// The JSON line of `alea dice --json` (dicelab.md §8), without the newline: keys
    /// `program`, `outcomes` (`value` null for `()`, `probability`, and `exact` only when
    /// `exact`), `mean`, `sd`, `truncated_mass`.
    pub fn to_json(&self, program: &str, exact: bool) -> String {
        crate::summary::json_line(
            program,
            &self.dist,
            crate::summary::JsonExtra::Exact {
                exact,
                truncated: &self.truncated,
            },
        )
    }
}

/// The exact distribution of a statement's result (dicelab.md §5).
///
/// Errors: any runtime error reachable with p > 0 (at the operator or variable concerned), a
/// result that is a list of two or more values in some outcome (`result is not a single value
/// (list of K values)` at the statement start), or a budget error naming the construct.
#[allow(clippy::result_large_err)] // the CLI renders the Diagnostic as is
pub fn calculate(statement: &Statement, options: &CalcOptions) -> Result<CalcResult, Diagnostic> {
    calculate_expr(&statement.expr, statement.span, options)
}

/// [`calculate`] for a bare expression; `span` is where result errors are reported.
#[allow(clippy::result_large_err)] // the CLI renders the Diagnostic as is
pub fn calculate_expr(
    expr: &Expr,
    span: Span,
    options: &CalcOptions,
) -> Result<CalcResult, Diagnostic> {
    let single_reads = reads::single_reads(expr);
    let parts = concrete::deterministic_nodes(expr, &single_reads);
    let deterministic = parts.keys().copied().collect();
    let binding_order = marks::binding_order(expr);
    let uses = uses::Uses::of(expr);
    let faces = faces::plan(&uses, &deterministic, &binding_order);
    let classes = classes::plan(&uses, &deterministic);
    let overridable = concrete::overridable(
        expr,
        faces
            .values()
            .flat_map(|p| p.fixed_nodes())
            .chain(classes.values().flat_map(|p| p.fixed_nodes())),
    );
    let mut calc = Calc {
        budget: Budget::new(options.max_steps, options.max_outcomes),
        faces,
        classes,
        binding_order,
        deterministic,
        parts,
        overridable,
        overrides: std::collections::HashMap::new(),
        single_reads,
        in_place: std::collections::HashMap::new(),
        threshold: options.threshold,
        env: Vec::new(),
    };
    let at_start = Span::point(span.start as usize);
    let d = match calc.eval(expr, false).map_err(|d| *d)? {
        Repr::Dist(d) => d,
        Repr::Pool(p) => {
            // A pool that always has two or more members needs no enumeration to fail.
            if p.keep.is_none()
                && p.filters.is_empty()
                && p.components
                    .iter()
                    .all(|(_, g)| g.iter().map(|(_, n)| *n).sum::<u32>() >= 2)
            {
                let k = p
                    .components
                    .iter()
                    .map(|(_, g)| g.iter().map(|(_, n)| *n).sum::<u32>())
                    .min()
                    .unwrap_or(2);
                return Err(not_single(at_start, k as usize));
            }
            calc.materialize(&p, expr).map_err(|d| *d)?
        }
    };
    // The first outcome (ascending) that is a list of two or more values is the error.
    let dist = d.try_map(|v| match v.items() {
        [] => Ok(Outcome::Empty),
        [x] => Ok(Outcome::Value(*x)),
        more => Err(not_single(at_start, more.len())),
    })?;
    let truncated = d.probability_of(|v| v.cut());
    Ok(CalcResult {
        dist: Arc::new(dist),
        truncated,
    })
}

fn not_single(at: Span, k: usize) -> Diagnostic {
    *ops::result_not_single(at, k)
}
