//! The command-line front ends of alea.
//!
//! Only this crate touches files, stdout, stderr and exit codes; the language crates return
//! values and [`alea_core::Diagnostic`]s. Each language has one module under [`cmd`] with the
//! same three entry points, so `main.rs` stays a table:
//!
//! * `Args` (clap) and `run(Args) -> ExitCode` for `alea LANG …`;
//! * `repl() -> ExitCode` for `alea repl LANG`;
//! * `tour(&mut dyn Write)` for `alea tour`, which runs the language's built-in examples.
#![forbid(unsafe_code)]
#![allow(clippy::print_stdout, clippy::print_stderr)]

pub mod cmd;
pub mod common;
pub mod serve;
