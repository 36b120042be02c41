//! dicelab ("bones"), the dice language of dicelab 0.7 (spec: `dicelab.md`).
//!
//! * [`parse`] turns a [`SourceFile`](alea_core::SourceFile) into a [`Program`] (its
//!   well-formed statements, variables resolved to slots) plus syntax [`Diagnostic`]s;
//! * [`print_tree`] prints a statement as 0.7's `-p` does;
//! * one concrete evaluator, compiled once per statement, gives one outcome in roll mode
//!   ([`Roller`]) and the histogram of many rolls on all cores in eval mode ([`eval`]);
//!   [`ops`] holds the value rules and error messages it and the exact engine share;
//! * the exact engine lives in [`calc`];
//! * [`Session`] is the statement loop every front end calls: it runs each statement in the
//!   requested modes (tree, roll, calc, eval) and returns a [`Report`];
//! * [`Summary`] reads a distribution (exact or sampled) the one way every front end displays
//!   it: P(X ≥ v), P(X ≤ v), percentiles, moments.
//!
//! ```
//! use alea_core::SourceFile;
//! let file = SourceFile::new("<expr>", "sum(2#d6)");
//! let (program, errors) = alea_dicelab::parse(&file);
//! assert!(errors.is_empty());
//! assert_eq!(
//!     alea_dicelab::print_tree(&program.statements[0].expr),
//!     "sum\n  #\n    2\n    d\n      6\n"
//! );
//! ```
//!
//! The common job in one call, [`run`]: a program's text to one [`Report`] per statement
//! (here the exact distribution, dicelab's default mode, and P(2d6 ≥ 10) = 1/6):
//!
//! ```
//! use alea_dicelab::{Outcome, SessionOptions};
//! let reports = alea_dicelab::run("<expr>", "sum(2#d6)", SessionOptions::default(), 0).unwrap();
//! let summary = reports[0].summary().unwrap();
//! let ten = summary.rows().find(|r| r.outcome == Outcome::Value(10)).unwrap();
//! assert_eq!(ten.at_least.unwrap().to_string(), "1/6");
//! assert_eq!(summary.moments().unwrap().mean.to_f64(), 7.0);
//! ```
//!
//! **Depth.** The chains dicelab 0.7 nests thousands deep (`sum sum … 1`, `-(-(…))`,
//! `d d … 6`, nested parentheses) parse, resolve, print, roll, sample and drop on an ordinary
//! thread: the parser reads those runs with loops, the resolver and the tree printer work from
//! heap stacks, the compiled form keeps a chain as one flat node and syntax trees drop
//! without recursion (`tests/depth.rs` runs them on a 2 MiB thread). Other constructs nested
//! up to [`MAX_DEPTH`] (`1+(1+(…))`, `sum (1, sum (1, …))`, nested `let`s) and the exact
//! engine still recurse once per level: run untrusted programs inside [`with_big_stack`].
#![forbid(unsafe_code)]

pub mod ast;
pub mod calc;
mod eval;
mod lexer;
pub mod ops;
mod parser;
mod resolve;
mod roll;
mod sample;
mod session;
mod summary;
mod tree;

pub use alea_core::Diagnostic;
pub use ast::{Expr, ExprKind, Program, Statement};
pub use calc::Outcome;
pub use eval::{Histogram, TASK_ROLLS, eval};
pub use lexer::{Lexer, Token, TokenKind, split_statements};
pub use parser::{MAX_DEPTH, MAX_NODES};
pub use resolve::{resolve_program, resolve_statement};
pub use roll::{MAX_LIST_LEN, MAX_STEPS, MAX_WHILE_ITERATIONS, RollError, Roller};
pub use session::{MAX_EVAL_ROLLS, Mode, Modes, Report, Session, SessionOptions, check_rolls};
pub use summary::{Percentile, Row, Summary};
pub use tree::{print_tree, print_tree_bounded};

use alea_core::SourceFile;
use std::ops::Range;

/// Parses `text` (named `name` in diagnostics) and runs every statement in a new
/// [`Session`] seeded with `seed`, in the modes of `options`: the common job in one call.
/// `Err` holds the syntax errors (nothing runs, dicelab.md §2); a runtime error is in its
/// statement's [`Report`]. Runs on a big stack ([`with_big_stack`]) for deep programs.
pub fn run(
    name: &str,
    text: &str,
    options: SessionOptions,
    seed: u64,
) -> Result<Vec<Report>, Vec<Diagnostic>> {
    let file = SourceFile::new(name, text);
    with_big_stack(move || {
        let (program, errors) = parse(&file);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Session::new(options, seed).run_program(&program))
    })
}

/// Parses and resolves a whole program (dicelab.md §2). The program holds the well-formed
/// statements; a non-empty diagnostic list means the input has syntax errors (and, per the
/// spec, nothing should run).
pub fn parse(file: &SourceFile) -> (Program, Vec<Diagnostic>) {
    let (mut program, diagnostics) = parser::parse(file);
    resolve_program(&mut program);
    (program, diagnostics)
}

/// Parses and resolves the statements in `range` of `file`, keeping whole-file positions (for
/// interactive use, one `;`-terminated piece at a time). With `allow_empty`, a piece without
/// any statement (`;`) is accepted.
pub fn parse_range(
    file: &SourceFile,
    range: Range<usize>,
    allow_empty: bool,
) -> (Program, Vec<Diagnostic>) {
    let (mut program, diagnostics) = parser::parse_range(file, range, allow_empty);
    resolve_program(&mut program);
    (program, diagnostics)
}

/// Stack size of [`with_big_stack`]: enough for [`MAX_DEPTH`] levels of parsing, evaluation,
/// printing and the exact engine. Sized by measurement (issue 16: the smallest stack that
/// works, found by bisection on programs nested to the limit, in the unoptimised test build,
/// which needs about twice what a release build does): the worst shape, `sum (1, sum (1, …))`
/// 9,980 levels deep, needs 27 MiB to parse and roll; `1+(1+(…))` 9 MiB, 9,990 `let`s 10 MiB,
/// the exact engine on a 9,990-deep `sum` chain 9 MiB; the exact engine's worst shape
/// measured, 4,990 nested `sum foreach`, 14 MiB in a release build (docs/performance/
/// dicelab-calc.md, "Calc's stack"). 64 MiB leaves more than twice the worst release need.
/// (It was 512 MiB while the chains themselves recursed.)
pub const BIG_STACK_BYTES: usize = 64 << 20;

/// Runs `f` on a fresh thread with a [`BIG_STACK_BYTES`] stack (reserved, not committed), so
/// programs nested up to [`MAX_DEPTH`] cannot overflow the stack. Panics in `f` propagate.
pub fn with_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .stack_size(BIG_STACK_BYTES)
            .spawn_scoped(scope, f);
        match handle {
            Ok(h) => match h.join() {
                Ok(v) => v,
                Err(p) => std::panic::resume_unwind(p),
            },
            // No thread available: run here (shallow programs still work).
            Err(_) => unreachable_spawn_failure(),
        }
    })
}

/// Source length (bytes) up to which [`with_stack_for`] runs on the caller's thread. Every
/// nesting level takes at least one byte of source, and the deepest-per-byte shapes measured
/// need about 1.2 KiB of stack per level (`---…d6`, docs/performance/dicelab-calc.md, "Calc's
/// stack"; nested `let`s 1.7 KiB per 12 bytes), so such a program needs under 2 MiB: less than
/// a process's main thread has (8 MiB under the usual limit).
pub const SHALLOW_SOURCE_BYTES: usize = 1024;

/// Runs `f` on the caller's thread when the program's source is at most
/// [`SHALLOW_SOURCE_BYTES`] long, otherwise inside [`with_big_stack`]. For a process's main
/// thread (which has at least 8 MiB under the usual limit): spawning and joining the 64 MiB
/// thread, and the thread's own malloc arena growing page by page, cost a short whole-process
/// run a third of its time (issue 16, docs/performance/dicelab-calc.md).
pub fn with_stack_for<T: Send>(source_len: usize, f: impl FnOnce() -> T + Send) -> T {
    if source_len <= SHALLOW_SOURCE_BYTES {
        f()
    } else {
        with_big_stack(f)
    }
}

fn unreachable_spawn_failure() -> ! {
    std::panic::resume_unwind(Box::new("cannot spawn the big-stack thread"))
}
