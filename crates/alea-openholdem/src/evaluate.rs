//! One evaluation of a profile against a table state, as one report: what the command line,
//! the REPL and the server all print. The loop lives here once; front ends only choose what
//! to evaluate and how to show the [`Evaluation`].

use crate::compile::{AUTOPLAYER_FUNCTIONS, Compilation, Located, Program, compile_profile};
use crate::machine::{Machine, PrwinReport, RunOptions};
use crate::openppl::describe_decision;
use crate::state::TableState;
use crate::trace::TraceLine;

/// The OpenPPL main functions, in betting-round order.
pub const MAIN_OPENPPL_FUNCTIONS: [&str; 4] = ["f$preflop", "f$flop", "f$turn", "f$river"];

/// Which functions an evaluation reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// OpenHoldem's decision: for a profile defining an OpenPPL main function
    /// (`f$preflop` … `f$river`) those it defines, each with its action; otherwise the 14
    /// autoplayer functions (spec §6, `alea holdem` without `--function`).
    #[default]
    Decision,
    /// Every function the profile defines, then the `##f$debug##` lines (the playground).
    Everything,
    /// These functions (`f$debug`: the debug lines), in this order.
    Named(Vec<String>),
    /// The `-e` expression.
    Expression,
}

/// What to evaluate and how.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// The functions.
    pub selection: Selection,
    /// Record the trace.
    pub trace: bool,
    /// `--strict`, prwin overrides and caps.
    pub options: RunOptions,
    /// The seed of `random*` and prwin.
    pub seed: u64,
}

/// One evaluated function.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionValue {
    /// `f$call`, `<expr>`.
    pub name: String,
    /// Its value.
    pub value: f64,
    /// For OpenPPL functions: the action the value stands for (`Fold`, `RaiseTo 3 bb`).
    pub action: Option<String>,
}

/// One line of the debug tab.
#[derive(Clone, Debug, PartialEq)]
pub struct DebugValue {
    /// The text before `=`.
    pub label: String,
    /// The expression's text.
    pub expression: String,
    /// Its value.
    pub value: f64,
    /// Shown as a bit pattern.
    pub bitwise: bool,
}

/// The report of one evaluation.
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    /// The functions, in order (up to the one that failed).
    pub results: Vec<FunctionValue>,
    /// The debug tab's lines.
    pub debug: Vec<DebugValue>,
    /// The trace, when requested.
    pub trace: Vec<TraceLine>,
    /// Run-time warnings (division by zero …).
    pub warnings: Vec<Located>,
    /// The error that stopped the evaluation (a `--strict` warning, a symbol without state).
    pub error: Option<Located>,
    /// Memory cells and user variables after the run.
    pub memory: Vec<(String, f64)>,
    /// The seed used.
    pub seed: u64,
    /// The prwin simulation, when one ran.
    pub prwin: Option<PrwinReport>,
}

impl Evaluation {
    /// True when nothing stopped the evaluation.
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }
}

/// The function names `selection` stands for in `program`.
pub fn selected_functions(program: &Program, selection: &Selection) -> Vec<String> {
    match selection {
        Selection::Decision => {
            let main: Vec<String> = MAIN_OPENPPL_FUNCTIONS
                .iter()
                .filter(|f| program.defines(f))
                .map(|f| f.to_string())
                .collect();
            if main.is_empty() {
                AUTOPLAYER_FUNCTIONS.iter().map(|s| s.to_string()).collect()
            } else {
                main
            }
        }
        Selection::Everything => {
            let mut n: Vec<String> = program
                .function_names()
                .iter()
                .map(|s| s.to_string())
                .collect();
            if program.has_debug() {
                n.push("f$debug".into());
            }
            n
        }
        Selection::Named(n) => n.clone(),
        Selection::Expression => vec!["<expr>".into()],
    }
}

/// Evaluates `program` against `state` (none: symbols that need a state are errors).
pub fn evaluate(program: &Program, state: Option<TableState>, request: &Request) -> Evaluation {
    let mut m = Machine::new(program);
    m.set_options(request.options);
    if let Some(s) = state {
        m.set_state(Box::new(s));
    }
    m.set_seed(request.seed);
    if request.trace {
        m.enable_trace();
    }
    m.begin_run();
    let mut out = Evaluation {
        seed: request.seed,
        ..Evaluation::default()
    };
    let names = selected_functions(program, &request.selection);
    let result: Result<(), Box<Located>> = (|| {
        for name in names {
            if request.selection == Selection::Expression {
                let value = m.eval_expr()?;
                out.results.push(FunctionValue {
                    name,
                    value,
                    action: None,
                });
                continue;
            }
            if name == "f$debug" && program.has_debug() {
                let texts = program.debug_expressions();
                for ((label, value, bitwise), expression) in m.eval_debug()?.into_iter().zip(texts)
                {
                    out.debug.push(DebugValue {
                        label,
                        expression,
                        value,
                        bitwise,
                    });
                }
                continue;
            }
            let value = m.eval(&name)?;
            let action = program.is_openppl(&name).then(|| describe_decision(value));
            out.results.push(FunctionValue {
                name,
                value,
                action,
            });
        }
        Ok(())
    })();
    out.warnings = m.warnings().to_vec();
    out.error = result.err().map(|e| *e);
    if request.trace {
        out.trace = m.take_trace();
    }
    out.memory = m.memory();
    out.prwin = m.prwin_report();
    out
}

/// The common job in one call: loads `files` as one profile and, when it loads, evaluates it
/// against `state` as `request` asks. The [`Compilation`] holds the files every diagnostic and
/// warning (of loading or of the run) points into, for rendering.
///
/// ```
/// use alea_core::SourceFile;
/// use alea_openholdem::{Request, TableState, run_profile};
///
/// let bot = SourceFile::new("bot.ohf", "##f$flop##\nWHEN call > 10 Fold FORCE\nWHEN Others Call FORCE\n");
/// let state = TableState::from_json(
///     r#"{"userchair": 0, "dealerchair": 1, "hero": ["Ah", "Kh"], "board": ["2c", "7d", "9h"],
///         "players": [{"chair": 0, "balance": 50}, {"chair": 1, "balance": 50, "bet": 4}]}"#,
/// ).unwrap();
/// let (loaded, evaluation) = run_profile(vec![bot], Some(state), &Request::default());
/// assert!(!loaded.has_errors());
/// let e = evaluation.unwrap();
/// assert_eq!(e.results[0].name, "f$flop");
/// assert_eq!(e.results[0].action.as_deref(), Some("Call"));
/// ```
pub fn run_profile(
    files: Vec<alea_core::SourceFile>,
    state: Option<TableState>,
    request: &Request,
) -> (Compilation, Option<Evaluation>) {
    let c = compile_profile(files, None);
    let e = c.program.as_ref().map(|p| evaluate(p, state, request));
    (c, e)
}
