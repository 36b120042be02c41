//! OpenHoldem's formula language, offline: `.ohf` files, a JSON table state, trace and lint.
//!
//! Spec: `openholdem.md` (the seed's semantics made exact). The pipeline:
//!
//! * [`compile_file`] / [`compile_expr`]: sections, hand lists, the operator-precedence parser,
//!   name resolution to slots, static cycle detection, flat code; errors as
//!   [`alea_core::Diagnostic`]s ([`Located`] says which file).
//! * [`Machine`]: evaluates a [`Program`] many times (one [`Machine::run`] per heartbeat) with
//!   per-state and per-run caches, memory symbols, warnings, `--strict`, and a trace.
//! * [`SymbolProvider`]: where table symbols come from; [`TableState`] reads the spec's JSON.
//!   Card symbols are derived from the provider's cards; those needing hand values go through
//!   the [`HandEvaluator`] hook, by default [`AleaCards`] (`alea-cards`).
//! * [`run_profile`]: the common job in one call, load a profile and evaluate it against a
//!   state into an [`Evaluation`] (what `alea holdem`, its REPL and the playground display).
//!
//! ```
//! use alea_core::SourceFile;
//! use alea_openholdem::{compile_expr, compile_file, Machine, TableState};
//!
//! let c = compile_expr(None, SourceFile::new("<expr>", "1 + 2 * 3 ** 4"));
//! let program = c.program.unwrap();
//! assert_eq!(Machine::new(&program).eval_expr().unwrap(), 163.0);
//!
//! let file = SourceFile::new("bot.ohf", "##f$call##\ncall <= 4 && list1\n##list1##\nAKs AA\n");
//! let program = compile_file(file).program.unwrap();
//! let state = TableState::from_json(
//!     r#"{"userchair": 0, "dealerchair": 1, "hero": ["Ah", "Kh"],
//!         "players": [{"chair": 0, "balance": 50}, {"chair": 1, "balance": 50, "bet": 2}]}"#,
//! ).unwrap();
//! let mut m = Machine::new(&program);
//! m.set_state(Box::new(state));
//! assert_eq!(m.run("f$call").unwrap(), 1.0);
//! ```
#![forbid(unsafe_code)]
// Load errors are alea_core::Diagnostic by value: cold paths, one per failed load.
#![allow(clippy::result_large_err)]

mod ast;
mod cards;
mod catalog;
mod catalog_eval;
mod compile;
mod evaluate;
mod handexpr;
mod history;
pub mod icm;
mod lexer;
mod lint;
mod machine;
mod ohf;
mod openppl;
mod ops;
mod outdated;
mod parser;
mod state;
mod symbols;
mod trace;
mod upgrade;

pub use ast::{Ast, BinOp, Expr, Node, NodeId, UnOp};
pub use cards::{AleaCards, Card, Equity, HandEvaluator};
pub use catalog::{Entry, Prefix, Source, catalogue, is_known, markdown_table};
pub use compile::{
    AUTOPLAYER_FUNCTIONS, Compilation, Located, Program, compile_expr, compile_file,
    compile_profile, standard_functions,
};
pub use evaluate::{
    DebugValue, Evaluation, FunctionValue, MAIN_OPENPPL_FUNCTIONS, Request, Selection, evaluate,
    run_profile, selected_functions,
};
pub use history::{Action, ActionKind};
pub use machine::{Machine, PrwinReport, RunOptions};
pub use ohf::HandList;
pub use openppl::{ACTION_VALUES, action_constant, describe_decision};
pub use ops::{bit_pattern, format_value, to_int32};
pub use outdated::outdated_symbol;
pub use parser::{MAX_NESTING, parse_body, to_sexpr};
pub use state::{Limit, Player, StateError, SymbolProvider, TableState, is_table_symbol};
pub use symbols::{CardField, CardSet, HandPattern, Status, Symbol};
pub use trace::TraceLine;
pub use upgrade::{Upgrade, upgrade};

impl Program {
    /// The files diagnostics and trace lines point into: the profile's formula files in order,
    /// then the expression (if any).
    pub fn files(&self) -> &[alea_core::SourceFile] {
        &self.files
    }

    /// The `--lint` warnings found while loading (unused lists and functions, duplicate
    /// sections, ignored bodies, memory read without writer, precedence traps).
    pub fn lint_warnings(&self) -> &[Located] {
        &self.lint
    }

    /// Where the profile or expression uses a standard function it does not define (its value
    /// is 0): an error in the REPL, where it is a typing mistake far more often than intent.
    pub fn undefined_standard_calls(&self) -> &[Located] {
        &self.undefined_standard
    }

    /// How many of [`Program::files`] are formula files.
    pub fn formula_file_count(&self) -> usize {
        self.formula_files
    }

    /// True when the profile defines the function (`f$name` or an OpenPPL `Name`).
    pub fn defines(&self, name: &str) -> bool {
        self.function_names().contains(&name)
    }

    /// True when the function's body is OpenPPL rules, or it is a main OpenPPL function
    /// (`f$preflop` … `f$river`), whose value is a decision ([`describe_decision`]).
    pub fn is_openppl(&self, name: &str) -> bool {
        matches!(name, "f$preflop" | "f$flop" | "f$turn" | "f$river")
            || self
                .functions
                .iter()
                .any(|f| f.name == name && !f.rules.is_empty())
    }

    /// Names of the functions defined in the profile's files, in load order.
    pub fn function_names(&self) -> Vec<&str> {
        self.functions
            .iter()
            .filter(|f| f.file < self.formula_files && f.name != "f$debug")
            .map(|f| f.name.as_str())
            .collect()
    }

    /// Number of operator nodes (prefix, binary, conditional) in all bodies.
    pub fn operator_count(&self) -> usize {
        self.ast
            .nodes
            .iter()
            .filter(|n| matches!(n.expr, Expr::Unary(..) | Expr::Binary(..) | Expr::Cond(..)))
            .count()
    }

    /// True when the file has a `##f$debug##` section.
    pub fn has_debug(&self) -> bool {
        !self.debug.is_empty()
    }

    /// The label text of each `##f$debug##` line's expression.
    pub fn debug_expressions(&self) -> Vec<String> {
        self.debug
            .iter()
            .map(|d| {
                let f = &self.functions[d.function as usize];
                f.root.map(|r| trace::label(self, r)).unwrap_or_default()
            })
            .collect()
    }
}
