//! `alea holdem`: OpenHoldem formulas against a JSON table state (spec `openholdem.md` §6).
//!
//! Values go to stdout, diagnostics to stderr. Exit status: 0 success; 1 a run-time error (a
//! `--strict` warning, a symbol without state) or lint errors; 2 usage, I/O, load or parse
//! errors, or an invalid state.

use alea_core::{Diagnostic, RenderOptions, SourceFile, Span};
use alea_openholdem::{
    Compilation, Evaluation, Located, Machine, Program, Request, RunOptions, Selection, TableState,
    TraceLine, bit_pattern, compile_expr, compile_file, compile_profile, evaluate, format_value,
};
use serde_json::{Value, json};
use std::io::{self, Write};
use std::process::ExitCode;

/// Largest formula or state file read (users keep 20 MB formula files).
const MAX_FILE_BYTES: u64 = 64 << 20;

/// Arguments of `alea holdem`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  alea holdem -e '1 + 2 * 3 ** 4'\n  \
alea holdem bot.ohf --state table.json --function f\\$raise --trace\n  \
alea holdem bot.ohf --lint\n  \
alea holdem OpenPPL_Library/ mybot.ohf --state table.json   (a profile of several files)\n  \
alea holdem upgrade oldbot.ohf > newbot.ohf")]
pub struct Args {
    /// The formula files (.ohf) of the profile; a directory stands for every .ohf in it.
    /// With -e, their functions and lists are available to EXPR. `upgrade FILE` rewrites an
    /// old bot to what OpenHoldem 14 accepts (to stdout).
    pub files: Vec<String>,
    /// Evaluate this expression instead of the file's functions.
    #[arg(
        short = 'e',
        long = "expr",
        value_name = "EXPR",
        allow_hyphen_values = true
    )]
    pub expr: Option<String>,
    /// The table state (JSON, spec §5.1).
    #[arg(long, value_name = "STATE.json")]
    pub state: Option<String>,
    /// Evaluate this function (repeatable); default: the OpenPPL main functions the profile
    /// defines (with their actions), else the 14 autoplayer functions.
    #[arg(long = "function", value_name = "f$name")]
    pub functions: Vec<String>,
    /// Print every evaluated reference and operator, indented, before the results.
    #[arg(long)]
    pub trace: bool,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Report load errors and lint warnings without evaluating.
    #[arg(long)]
    pub lint: bool,
    /// Warnings (division by zero) are errors: evaluation stops, exit status 1.
    #[arg(long)]
    pub strict: bool,
    /// Seed of `random*` and prwin (default: the state's seed, else fresh entropy).
    #[arg(long)]
    pub seed: Option<u64>,
    /// prwin iterations (overrides f$prwin_number_of_iterations).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// prwin opponents (overrides f$prwin_number_of_opponents).
    #[arg(long)]
    pub opponents: Option<u32>,
    /// Give a symbol this value, over the state's and any computed one (repeatable; needs
    /// --state): `--set elapsed=30 --set raischair=3`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

/// Applies `--set NAME=VALUE` to the state.
fn apply_set(state: Option<&mut TableState>, set: &[String]) -> Result<(), String> {
    if set.is_empty() {
        return Ok(());
    }
    let Some(state) = state else {
        return Err("--set needs a table state (--state FILE.json)".to_string());
    };
    for s in set {
        let Some((name, value)) = s.split_once('=') else {
            return Err(format!("--set {s}: expected NAME=VALUE"));
        };
        if !alea_openholdem::is_known(name) {
            return Err(format!(
                "--set {s}: '{name}' is not a symbol of the catalogue"
            ));
        }
        match value.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => state.set_symbol(name, v),
            _ => return Err(format!("--set {s}: '{value}' is not a number")),
        }
    }
    Ok(())
}

/// Reads a formula or state file (text that is not UTF-8 is read as Latin-1, as old bots are).
pub(crate) fn read_file(path: &str) -> Result<SourceFile, String> {
    crate::common::read_file(path, crate::common::Encoding::Utf8OrLatin1, MAX_FILE_BYTES)
        .map_err(|e| e.to_string())
}

/// The files of a profile: each argument, a directory standing for its `.ohf` files (any
/// case, sorted by name, not recursive).
fn profile_paths(args: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for a in args {
        let p = std::path::Path::new(a);
        if p.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|e| format!("cannot read {a}: {e}"))?;
            let mut found: Vec<String> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.is_file() && p.extension().is_some_and(|x| x.eq_ignore_ascii_case("ohf"))
                })
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(format!("{a}: no .ohf file in this directory"));
            }
            out.extend(found);
        } else {
            out.push(a.clone());
        }
    }
    Ok(out)
}

/// Loads a state file; the error is printed in the spec's format.
fn load_state(path: &str) -> Result<TableState, String> {
    let file = read_file(path)?;
    TableState::from_json(file.text()).map_err(|e| match e.position {
        Some((line, col)) => {
            let offset = file.offset_at(line, col);
            Diagnostic::error(e.message)
                .with_span(Span::point(offset))
                .render_with(&file, RenderOptions::single_caret())
                .trim_end()
                .to_string()
        }
        None => format!("{}: error: {e}", file.name()),
    })
}

/// The one JSON shape of a diagnostic (docs/cli.md).
fn diag_json(files: &[SourceFile], d: &Located) -> Value {
    json!(d.diagnostic.json(files.get(d.file)))
}

/// Prints diagnostics on stderr in the one format (coloured on a terminal).
fn eprint_located<'a>(files: &[SourceFile], diagnostics: impl IntoIterator<Item = &'a Located>) {
    for d in diagnostics {
        match files.get(d.file) {
            Some(f) => crate::common::eprint_diagnostics(f, std::slice::from_ref(&d.diagnostic)),
            None => crate::common::eprint_plain(&d.diagnostic),
        }
    }
}

fn value_json(v: f64) -> Value {
    if v.is_finite() {
        json!(if v == 0.0 { 0.0 } else { v })
    } else {
        json!(format_value(v))
    }
}

fn trace_json(t: &TraceLine) -> Value {
    json!({
        "depth": t.depth, "label": t.label, "value": value_json(t.value), "kind": t.kind,
        "cached": t.cached, "line": t.line, "col": t.col,
    })
}

fn entropy_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    t ^ (u64::from(std::process::id()) << 32) ^ 0x9E37_79B9_7F4A_7C15
}

/// Writes to stdout; a closed pipe (`| head`) ends the output quietly.
fn out_line(w: &mut impl Write, line: std::fmt::Arguments) -> bool {
    w.write_fmt(line).and_then(|()| w.write_all(b"\n")).is_ok()
}

/// Runs `alea holdem`.
pub fn run(args: Args) -> ExitCode {
    if args.files.first().is_some_and(|f| f == "upgrade") {
        return super::holdem_upgrade::run(&args.files[1..]);
    }
    // Exit statuses (docs/cli.md): 1 when a file does not load or the profile fails,
    // 2 for usage errors.
    let paths = match profile_paths(&args.files) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let mut files = Vec::new();
    for path in &paths {
        match read_file(path) {
            Ok(f) => files.push(f),
            Err(e) => return fail(&e),
        }
    }
    if files.is_empty() && args.expr.is_none() {
        return crate::common::usage_error(
            "give formula files, or an expression with -e (see --help)",
        );
    }
    let expr = args
        .expr
        .as_ref()
        .map(|e| SourceFile::new("<expr>", e.clone()));
    let compilation = compile_profile(files, expr);
    if args.lint {
        return lint(&args, &compilation);
    }
    let Some(program) = &compilation.program else {
        return report_load_failure(&args, &compilation);
    };
    if let Some(e) = unknown_function_check(program, &args.functions) {
        return crate::common::usage_error(e);
    }
    let mut state = match &args.state {
        Some(path) => match load_state(path) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("{e}");
                return crate::common::failed();
            }
        },
        None => None,
    };
    if let Err(e) = apply_set(state.as_mut(), &args.set) {
        return crate::common::usage_error(e);
    }
    let seed = args
        .seed
        .or(state.as_ref().and_then(|s| s.seed))
        .unwrap_or_else(entropy_seed);
    let selection = if args.expr.is_some() {
        Selection::Expression
    } else if args.functions.is_empty() {
        Selection::Decision
    } else {
        Selection::Named(args.functions.clone())
    };
    let request = Request {
        selection,
        trace: args.trace,
        options: RunOptions {
            strict: args.strict,
            opponents: args.opponents,
            iterations: args.iterations,
            ..RunOptions::default()
        },
        seed,
    };
    // prwin's simulation can take seconds (many iterations or opponents): a spinner then.
    let evaluation = crate::common::with_progress(
        || "evaluating (prwin simulation)".to_string(),
        || evaluate(program, state, &request),
    );
    print_outcome(&args, program, &compilation.diagnostics, &evaluation);
    if evaluation.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn report_load_failure(args: &Args, c: &Compilation) -> ExitCode {
    if args.json {
        let diags: Vec<Value> = c
            .diagnostics
            .iter()
            .map(|d| diag_json(&c.files, d))
            .collect();
        let _ = out_line(
            &mut crate::common::stdout(),
            format_args!(
                "{}",
                json!({"results": [], "diagnostics": diags, "memory": {}})
            ),
        );
    } else {
        eprint_located(&c.files, &c.diagnostics);
    }
    crate::common::failed()
}

/// A failure before the profile compiles (a file that does not read): status 1.
fn fail(message: &str) -> ExitCode {
    crate::common::eprint_plain(&Diagnostic::error(message));
    crate::common::failed()
}

/// The name an "unknown symbol/function/list 'X'" error is about.
fn unknown_name(message: &str) -> Option<&str> {
    let rest = [
        "unknown symbol '",
        "undefined function '",
        "undefined list '",
        "undefined OpenPPL function '",
    ]
    .iter()
    .find_map(|p| message.strip_prefix(p))?;
    rest.split('\'').next()
}

fn lint(args: &Args, c: &Compilation) -> ExitCode {
    let mut all: Vec<Located> = c.diagnostics.clone();
    if let Some(p) = &c.program {
        for w in p.lint_warnings() {
            if !all.contains(w) {
                all.push(w.clone());
            }
        }
    }
    all.sort_by_key(|d| (d.file, d.diagnostic.span.map_or(0, |s| s.start)));
    let errors = all.iter().filter(|d| d.diagnostic.is_error()).count();
    let warnings = all.len() - errors;
    // One line per unknown name with its count, most frequent first (a bot written for a
    // missing library has thousands of uses of a few hundred names).
    let mut unknown: Vec<(String, usize)> = Vec::new();
    {
        let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for d in &all {
            if let Some(n) = unknown_name(&d.diagnostic.message) {
                match index.get(n) {
                    Some(&i) => unknown[i].1 += 1,
                    None => {
                        index.insert(n, unknown.len());
                        unknown.push((n.to_string(), 1));
                    }
                }
            }
        }
    }
    unknown.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    if args.json {
        let diags: Vec<Value> = all.iter().map(|d| diag_json(&c.files, d)).collect();
        let names: Vec<Value> = unknown
            .iter()
            .map(|(n, k)| json!({"name": n, "count": k}))
            .collect();
        let _ = out_line(
            &mut crate::common::stdout(),
            format_args!(
                "{}",
                json!({"diagnostics": diags, "errors": errors, "warnings": warnings, "unknown_names": names})
            ),
        );
    } else {
        eprint_located(&c.files, &all);
        let mut w = crate::common::stdout();
        for (name, count) in &unknown {
            let uses = if *count == 1 { "use" } else { "uses" };
            if !out_line(&mut w, format_args!("unknown name {name}: {count} {uses}")) {
                break;
            }
        }
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        let _ = out_line(
            &mut w,
            format_args!(
                "{}, {}",
                plural(errors, "error"),
                plural(warnings, "warning")
            ),
        );
    }
    if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn unknown_function_check(program: &Program, names: &[String]) -> Option<String> {
    let defined = program.function_names();
    let standard = alea_openholdem::standard_functions();
    names
        .iter()
        .find(|n| !defined.contains(&n.as_str()) && !standard.contains(n))
        .map(|n| format!("--function {n}: no such function in the profile"))
}

fn print_outcome(args: &Args, program: &Program, load: &[Located], out: &Evaluation) {
    let files = program.files();
    let mut diagnostics: Vec<&Located> = load.iter().collect();
    diagnostics.extend(out.warnings.iter());
    diagnostics.extend(out.error.iter());
    if args.json {
        let mut obj = json!({
            "results": out.results.iter().map(|r| {
                let mut v = json!({"name": r.name, "value": value_json(r.value)});
                if let Some(a) = &r.action {
                    v["action"] = json!(a);
                }
                v
            }).collect::<Vec<_>>(),
            "diagnostics": diagnostics.iter().map(|d| diag_json(files, d)).collect::<Vec<_>>(),
            "memory": out.memory.iter().map(|(k, v)| (k.clone(), value_json(*v))).collect::<serde_json::Map<_, _>>(),
            "seed": out.seed,
        });
        if !out.debug.is_empty() {
            obj["debug"] = json!(
                out.debug
                    .iter()
                    .map(|d| json!({"label": d.label, "expr": d.expression, "value": value_json(d.value)}))
                    .collect::<Vec<_>>()
            );
        }
        if let Some(p) = out.prwin {
            obj["prwin"] = json!({
                "opponents": p.opponents, "iterations": p.iterations,
                "prwin": p.equity.win, "prtie": p.equity.tie, "prlos": p.equity.lose,
            });
        }
        if args.trace {
            obj["trace"] = json!(out.trace.iter().map(trace_json).collect::<Vec<_>>());
        }
        let _ = out_line(&mut crate::common::stdout(), format_args!("{obj}"));
        return;
    }
    eprint_located(files, diagnostics.iter().copied());
    let mut w = crate::common::stdout();
    for t in &out.trace {
        if !out_line(&mut w, format_args!("{}", t.render())) {
            return;
        }
    }
    for d in &out.debug {
        let shown = if d.bitwise {
            format!("0b{}", bit_pattern(d.value))
        } else {
            format!("{:.3}", d.value)
        };
        if !out_line(&mut w, format_args!("{shown:>12} = {}", d.expression)) {
            return;
        }
    }
    let bare = args.expr.is_some() || (args.functions.len() == 1 && out.debug.is_empty());
    for r in &out.results {
        let action = r
            .action
            .as_ref()
            .map_or_else(String::new, |a| format!(" ({a})"));
        let ok = if bare {
            out_line(&mut w, format_args!("{}{action}", format_value(r.value)))
        } else {
            out_line(
                &mut w,
                format_args!("{} = {}{action}", r.name, format_value(r.value)),
            )
        };
        if !ok {
            return;
        }
    }
}

/// The REPL's built-in table (spec §7.3), loaded at start.
const DEMO_STATE: &str = r#"{"nchairs": 6, "userchair": 2, "dealerchair": 5, "sblind": 0.5, "bblind": 1, "pots": [6],
 "hero": ["Ah", "Kh"], "board": ["Qh", "Jh", "2c"],
 "players": [{"chair": 0, "balance": 95, "playing": false}, {"chair": 1, "balance": 120, "bet": 4},
   {"chair": 2, "balance": 48}, {"chair": 4, "balance": 80, "active": false},
   {"chair": 5, "balance": 60, "playing": false}]}"#;

const REPL_HELP: &str = "Type an OpenHoldem expression; it is evaluated against the loaded state.
  :state FILE.json   load a table state (the spec's example table is loaded at start)
  :load FILE.ohf...  load a profile (files, directories): expressions may use its functions
                     and lists; a standard function it does not define is an error here
  :trace             toggle the trace of each evaluation
  :quit              leave";

/// `alea repl holdem`.
pub fn repl() -> ExitCode {
    let mut state_text = DEMO_STATE.to_string();
    let mut formula: Vec<SourceFile> = Vec::new();
    let mut trace = false;
    let handle = move |text: &str| -> crate::common::ReplStep {
        use crate::common::ReplStep;
        let t = text.trim();
        if let Some(path) = t.strip_prefix(":state ") {
            return ReplStep::Done(
                match read_file(path.trim()).and_then(|f| {
                    TableState::from_json(f.text())
                        .map(|_| f.text().to_string())
                        .map_err(|e| format!("{}: error: {e}", f.name()))
                }) {
                    Ok(s) => {
                        state_text = s;
                        "state loaded".into()
                    }
                    Err(e) => e,
                },
            );
        }
        if let Some(paths) = t.strip_prefix(":load ") {
            let args: Vec<String> = paths.split_whitespace().map(str::to_string).collect();
            let loaded = profile_paths(&args).and_then(|p| {
                p.iter()
                    .map(|f| read_file(f))
                    .collect::<Result<Vec<_>, _>>()
            });
            return ReplStep::Done(match loaded {
                Ok(files) => {
                    let c = compile_profile(files.clone(), None);
                    if c.has_errors() {
                        c.diagnostics.iter().map(|d| d.render(&c.files)).collect()
                    } else {
                        let names = c
                            .program
                            .as_ref()
                            .map(|p| p.function_names().join(" "))
                            .unwrap_or_default();
                        formula = files;
                        format!("loaded: {names}")
                    }
                }
                Err(e) => e,
            });
        }
        if t == ":trace" {
            trace = !trace;
            return ReplStep::Done(format!("trace {}", if trace { "on" } else { "off" }));
        }
        let c = compile_profile(
            formula.clone(),
            Some(SourceFile::new("<expr>", text.to_string())),
        );
        let Some(p) = &c.program else {
            let incomplete = c.diagnostics.iter().any(|d| {
                d.diagnostic.message.ends_with("found end of expression")
                    || d.diagnostic.message.contains("conditional expression")
                        && text.trim_end().ends_with(['?', ':'])
            });
            if incomplete {
                return ReplStep::Incomplete;
            }
            return ReplStep::Done(c.diagnostics.iter().map(|d| d.render(&c.files)).collect());
        };
        // In the REPL an undefined function is a typing mistake, not the value 0.
        let expr_file = p.formula_file_count();
        let undefined: String = p
            .undefined_standard_calls()
            .iter()
            .filter(|d| d.file == expr_file)
            .map(|d| d.render(p.files()))
            .collect();
        if !undefined.is_empty() {
            return ReplStep::Done(undefined);
        }
        // The same evaluation as `alea holdem -e` (alea_openholdem::evaluate), on the REPL's
        // table; the seed is the state's, else fresh each input.
        let state = TableState::from_json(&state_text).ok();
        let seed = state
            .as_ref()
            .and_then(|s| s.seed)
            .unwrap_or_else(entropy_seed);
        let request = Request {
            selection: Selection::Expression,
            trace,
            seed,
            ..Request::default()
        };
        let e = crate::common::with_progress(
            || "evaluating (prwin)".to_string(),
            || evaluate(p, state, &request),
        );
        let mut s = String::new();
        for line in &e.trace {
            s.push_str(&line.render());
            s.push('\n');
        }
        for w in &e.warnings {
            s.push_str(&w.render(p.files()));
        }
        match (&e.error, e.results.first()) {
            (Some(err), _) => s.push_str(&err.render(p.files())),
            (None, Some(r)) => s.push_str(&format_value(r.value)),
            (None, None) => {}
        }
        ReplStep::Done(s)
    };
    crate::common::run_repl(crate::common::Repl {
        name: "holdem",
        help: REPL_HELP,
        handle: Box::new(handle),
    })
}

/// The seed's examples for `alea tour`: operators in precedence order, the bit tables, a
/// formula file with a hand list, memory and a trace.
pub fn tour(out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "OpenHoldem formulas: C-like expressions on doubles (alea holdem -e EXPR)."
    )?;
    let examples = [
        "1 + 2 * 3 ** 4",
        "2 ** 3 ** 2",
        "-2 ** 2",
        "ln 8 / ln 2",
        "[2 + 3] * {4 + 5}",
        "7.9 % 3.2",
        "~0xC975657A",
        "0xC975657A >> 7",
        "0x4975657A >> 7",
        "0xC975657A & 0x4A52E2AF",
        "`0xFFFFFFFF",
        "1 << 32",
        "0q13 + 0o17 + 0b1010 + .5 + 17.",
        "0.1 + 0.2 == 0.3",
        "1 && 1 ^^ 1",
        "1 ? 0 ? 5 : 6 : 7",
        "me_st_pi_3_141 + me_re_pi",
    ];
    for e in examples {
        let c = compile_expr(None, SourceFile::new("<expr>", e));
        let v = c
            .program
            .as_ref()
            .and_then(|p| {
                let mut m = Machine::new(p);
                m.begin_run();
                m.eval_expr().ok()
            })
            .map_or_else(|| "error".to_string(), format_value);
        writeln!(out, "  {e:<34} => {v}")?;
    }
    writeln!(
        out,
        "A formula file against the spec's table (hero AhKh, board QhJh2c):"
    )?;
    let bot = "##list1##\nAA KK AKs\n##f$raise##\nlist1 && call <= 4 && nopponentsplaying < 3\n";
    for line in bot.lines() {
        writeln!(out, "  | {line}")?;
    }
    let c = compile_file(SourceFile::new("bot.ohf", bot));
    if let Some(p) = &c.program {
        let mut m = Machine::new(p);
        if let Ok(s) = TableState::from_json(DEMO_STATE) {
            m.set_state(Box::new(s));
        }
        m.enable_trace();
        m.begin_run();
        let _ = m.eval("f$raise");
        for t in m.take_trace() {
            writeln!(out, "  {}", t.render())?;
        }
    }
    writeln!(
        out,
        "  (try: alea holdem examples/openholdem/bot.ohf --state examples/openholdem/state.json --trace)"
    )?;
    writeln!(
        out,
        "Card symbols of the same table (alea-cards; prwin: 10,000 seeded Monte Carlo deals):"
    )?;
    for e in [
        "pokerval",
        "nouts",
        "nhandshi",
        "handrank169",
        "handrank2652",
        "prwinnow",
        "prwin",
    ] {
        let c = compile_expr(None, SourceFile::new("<expr>", e));
        let v = c
            .program
            .as_ref()
            .and_then(|p| {
                let mut m = Machine::new(p);
                m.set_state(Box::new(TableState::from_json(DEMO_STATE).ok()?));
                m.set_seed(1);
                m.begin_run();
                m.eval_expr().ok()
            })
            .map_or_else(|| "error".to_string(), format_value);
        writeln!(out, "  {e:<34} => {v}")?;
    }
    Ok(())
}
