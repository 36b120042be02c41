//! OpenHoldem endpoints: check, run (values, debug lines, trace, memory) and lint.
//!
//! Formula files are acyclic (the compiler rejects cycles) and every function is evaluated at
//! most once per run, so a run is bounded by the size of the file, which the body limit caps.

use super::api;
use alea_core::{Diagnostic, SourceFile, Span};
use alea_openholdem::{
    Compilation, Located, Request, RunOptions, Selection, TableState, TraceLine, bit_pattern,
    compile_expr, compile_file, evaluate, format_value,
};
use serde_json::{Value, json};

/// Most prwin iterations of one playground run (more are capped with a warning).
const PLAYGROUND_MAX_ITERATIONS: u64 = 1_000_000;

fn located(c_files: &[SourceFile], d: &Located) -> Value {
    let file = &c_files[d.file];
    let mut v = api::diagnostic(file, &d.diagnostic);
    v["file"] = json!(if d.file == 0 { "formulas" } else { "expr" });
    v
}

fn compile(input: &Value) -> Result<Compilation, Value> {
    let formulas = api::text(input, "formulas")?;
    let expr = api::opt_text(input, "expr")?.filter(|e| !e.trim().is_empty());
    let file = SourceFile::new("formulas.ohf", formulas);
    Ok(match expr {
        Some(e) => compile_expr(Some(file), SourceFile::new("<expr>", e)),
        None => compile_file(file),
    })
}

fn value_json(v: f64) -> Value {
    if v.is_finite() {
        json!(if v == 0.0 { 0.0 } else { v })
    } else {
        json!(format_value(v))
    }
}

fn trace_json(t: &TraceLine) -> Value {
    json!({"depth": t.depth, "label": t.label, "value": value_json(t.value),
           "shown": format_value(t.value), "kind": t.kind, "cached": t.cached,
           "bits": t.bits, "header": t.header, "line": t.line, "col": t.col})
}

/// The diagnostics of loading (errors and warnings), or the lint warnings too.
fn diagnostics(c: &Compilation, with_lint: bool) -> Vec<Value> {
    let mut all: Vec<Located> = c.diagnostics.clone();
    if with_lint && let Some(p) = &c.program {
        for w in p.lint_warnings() {
            if !all.contains(w) {
                all.push(w.clone());
            }
        }
    }
    all.sort_by_key(|d| (d.file, d.diagnostic.span.map_or(0, |s| s.start)));
    all.iter().map(|d| located(&c.files, d)).collect()
}

/// `POST /api/holdem/check {"formulas", "expr"?}`: load errors and warnings, the functions.
pub fn check(input: &Value) -> Value {
    let c = match compile(input) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let functions: Vec<&str> = c
        .program
        .as_ref()
        .map(|p| p.function_names())
        .unwrap_or_default();
    json!({"ok": !c.has_errors(), "errors": diagnostics(&c, false), "functions": functions})
}

/// `POST /api/holdem/lint {"formulas"}`: load errors and every lint warning.
pub fn lint(input: &Value) -> Value {
    let c = match compile(input) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let diags = diagnostics(&c, true);
    let errors = diags.iter().filter(|d| d["severity"] == "error").count();
    json!({"ok": errors == 0, "errors": diags, "error_count": errors,
           "warning_count": diags.len() - errors})
}

/// `POST /api/holdem/run {"formulas", "state"?, "expr"?, "functions"?, "trace"?, "seed"?}`:
/// evaluates the expression, or the named functions (default: every function of the file and
/// the `f$debug` lines) against the JSON table state.
pub fn run(input: &Value) -> Value {
    let c = match compile(input) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let trace = match api::opt_bool(input, "trace") {
        Ok(t) => t,
        Err(e) => return e,
    };
    let names: Option<Vec<String>> = match input.get("functions") {
        None | Some(Value::Null) => None,
        Some(_) => match api::text_list(input, "functions", 200) {
            Ok(n) => Some(n),
            Err(e) => return e,
        },
    };
    let state = match api::opt_text(input, "state") {
        Ok(s) => s.filter(|s| !s.trim().is_empty()),
        Err(e) => return e,
    };
    let state = match state.map(TableState::from_json) {
        None => None,
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            let file = SourceFile::new("state.json", state.unwrap_or_default());
            let offset = e.position.map_or(0, |(l, c)| file.offset_at(l, c));
            let message = if e.path.is_empty() {
                e.message.clone()
            } else {
                format!("{}: {}", e.path, e.message)
            };
            let d = Diagnostic::error(message).with_span(Span::point(offset));
            let mut v = api::diagnostic(&file, &d);
            v["file"] = json!("state");
            if e.position.is_none() {
                v["line"] = json!(0);
                v["column"] = json!(0);
            }
            return json!({"ok": false, "errors": [v]});
        }
    };
    let Some(program) = &c.program else {
        return json!({"ok": false, "errors": diagnostics(&c, false)});
    };
    let seed = input
        .get("seed")
        .and_then(Value::as_u64)
        .or(state.as_ref().and_then(|s| s.seed))
        .unwrap_or(1);
    let request = Request {
        selection: if c.files.len() > 1 {
            Selection::Expression
        } else {
            names.map_or(Selection::Everything, Selection::Named)
        },
        trace,
        // prwin's simulation is the one costly symbol: cap it (about 0.1 s heads-up).
        options: RunOptions {
            max_iterations: Some(PLAYGROUND_MAX_ITERATIONS),
            ..RunOptions::default()
        },
        seed,
    };
    let e = evaluate(program, state, &request);
    let results: Vec<Value> = e
        .results
        .iter()
        .map(|r| {
            let mut v = json!({"name": r.name, "value": value_json(r.value), "shown": format_value(r.value)});
            if let Some(a) = &r.action {
                v["action"] = json!(a);
            }
            v
        })
        .collect();
    let debug: Vec<Value> = e
        .debug
        .iter()
        .map(|d| {
            let shown = if d.bitwise {
                format!("0b{}", bit_pattern(d.value))
            } else {
                format!("{:.3}", d.value)
            };
            json!({"expression": d.expression, "value": value_json(d.value), "shown": shown})
        })
        .collect();
    let mut diags: Vec<Located> = c.diagnostics.clone();
    diags.extend(e.warnings.iter().cloned());
    diags.extend(e.error.iter().cloned());
    let errors: Vec<Value> = diags.iter().map(|d| located(&c.files, d)).collect();
    let trace: Vec<Value> = e.trace.iter().map(trace_json).collect();
    let memory: serde_json::Map<String, Value> = e
        .memory
        .into_iter()
        .map(|(k, v)| (k, value_json(v)))
        .collect();
    json!({"ok": e.error.is_none(), "seed": seed, "results": results, "debug": debug, "trace": trace,
           "memory": memory, "errors": errors})
}
