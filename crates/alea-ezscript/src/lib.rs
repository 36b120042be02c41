//! EZScript: the scripting and template language of Poker Club HQ's tournament clock
//! (`docs/ezscript.md`, spec `ezscript.md`).
//!
//! Compile a script once with [`Program::compile`] and run it many times with
//! [`Program::run`] against an [`Env`]: a [`Host`] (globals such as the tournament data, extra
//! members of numbers/texts/lists, `now()`, the `was` snapshot), a [`Formatter`] (the
//! locale-dependent formatting properties) and a step budget. Templates (`Level {{ n }}`)
//! compile with [`Template::compile`].
//!
//! ```
//! use alea_ezscript::{Env, MapHost, Program, Value};
//!
//! let program = Program::compile("places = 1 + totalBuyIns / 5; places.round").unwrap();
//! let host = MapHost::new().with("totalBuyIns", 24.0);
//! let value = program.run(&Env::with_host(&host)).unwrap();
//! assert_eq!(value.display(), "6");
//!
//! let err = Program::compile("if 1 { 2 }").unwrap().run(&Env::default()).unwrap_err();
//! assert_eq!(err.message, "Condition must evaluate to true or false.");
//! ```
//!
//! Sandbox: a run takes deterministic steps (default [`DEFAULT_FUEL`]), user calls nest at
//! most 500 deep (frames on the evaluator's own stack, not native recursion; callbacks of list
//! methods nest at most [`SizeLimits::callbacks`] native runs; a clear error either way),
//! texts, lists and objects are capped ([`SizeLimits`]), the parser nests at most 128 deep
//! and sources are at most 64 KiB. Scripts cannot reach files, the network or the
//! clock (only the host's `now()`).
//!
//! Everything fits a default 2 MiB thread, so run on any thread, no big stack needed: calls stop at
//! the limits above, the parser's nesting limit bounds the compiler (the deepest accepted sources
//! compile within about 200 KiB and run within 16 KiB, `tests/deep.rs`,
//! docs/performance/ezscript.md), and values nested as deep as the budgets allow (a loop can nest
//! lists 100,000 deep) are dropped, displayed and compared through heap worklists, not native
//! recursion. A run frees the reference cycles its closures made when it ends (every recursive
//! function captures the variable holding it; `interp/cycles.rs`), so evaluating a field again and
//! again does not grow memory; a function value a run returns keeps its cycle, which is then the
//! host's. JSON renderings nest at most [`MAX_JSON_DEPTH`] levels (what serde_json reads back);
//! deeper values give `"<too deep>"`. Compiled [`Program`]s and [`Template`]s are `Send + Sync`
//! (compile once, run on any thread); values are not (`Rc`; docs/performance/ezscript.md says what
//! `Arc` would cost).
#![forbid(unsafe_code)]

mod ast;
mod builtins;
mod code;
mod compile;
mod drop;
mod format;
mod host;
mod interp;
mod ir;
mod lexer;
mod list;
mod members;
mod ops;
mod parser;
mod program;
mod render;
mod resolve;
mod text;
mod value;

pub use ast::{BinOp, Block, Expr, ExprKind, FuncDef, Ident, PathStep, Stmt, StmtKind, UnOp};
pub use builtins::{names as builtin_names, parse_number};
pub use format::{
    Digital, FORMAT_PROPERTIES, Formatter, InvariantFormatter, digital_duration, ordinal,
};
pub use host::{Global, Host, HostObject, MapHost, MemberKind, NoHost, Previous};
pub use interp::{Cell, Closure, NativeFn, RunError, SizeLimits};
pub use lexer::{Mode, Tok, Token, lex};
pub use members::{LIST_METHODS, LIST_PROPERTIES, TEXT_METHODS, TEXT_PROPERTIES};
pub use parser::{MAX_NESTING, line_col};
pub use program::{
    ALERT_FUEL, DEFAULT_FUEL, Env, MAX_SOURCE, Outcome, Program, Rendered, Template, parse_script,
};
pub use render::{MAX_JSON_DEPTH, MAX_RENDER};
pub use value::{List, Map, Value, format_number, number_to_json};
