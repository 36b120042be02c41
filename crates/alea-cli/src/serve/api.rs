//! The JSON API: routing, request fields, and the shared error shape.
//!
//! Every POST endpoint takes a JSON object and answers 200 with a JSON object; a program that
//! does not compile or fails at run time is still a 200 answer, with `"ok": false` and
//! `"errors": [{"line", "column", "end_line", "end_column", "message", "severity"}]` (1-based
//! lines and columns, in characters). Malformed requests are 400 with `{"ok": false, "error"}`.
//! `docs/playground.md` documents every endpoint.

use alea_core::{Diagnostic, SourceFile};
use serde_json::{Value, json};

/// An API computation: request JSON to response JSON (run on a computation thread).
pub type Handler = fn(&Value) -> Value;

/// Budgets of the server, smaller than the CLI's so that one request stays short.
pub mod budget {
    /// dicelab `calc`: elementary steps (the CLI allows 2·10⁹).
    pub const DICE_CALC_STEPS: u64 = 50_000_000;
    /// dicelab `calc`: outcomes of any intermediate distribution (the CLI allows 10⁷). At 10⁶
    /// one `sum 99999999#d1000000` held about 130 MB until it failed, and eight of them at
    /// once (one per worker) took the server to 1 GB (found by `examples/serve_load.rs`'s
    /// probes); at 2·10⁵ eight at once peak at 180 MB, and the page lists 2,000 outcomes anyway.
    pub const DICE_CALC_OUTCOMES: usize = 200_000;
    /// dicelab: programs compared in one `calc` request.
    pub const DICE_PROGRAMS: usize = 8;
    /// dicelab: rolls in one `roll` request.
    pub const DICE_ROLLS: u64 = 100;
    /// dicelab `roll`: rolled values kept in one answer, over all its rolls and statements.
    /// A roll may hold 10⁷ values (the language's list limit); without this bound a
    /// `9999999#d6` rolled 100 times kept every roll (4 GB of values, more as JSON), and
    /// eight such requests took the server to 2.8 GB. 10⁶ values are ~8 MB of JSON.
    pub const DICE_ROLLED_VALUES: usize = 1_000_000;
    /// dicelab: simulated rolls in one `eval` request (the CLI's default is 10⁶).
    pub const DICE_EVAL_ROLLS: u64 = 200_000;
    /// dicelab `check`: bytes of parse-tree text in one answer (the rest is cut).
    pub const DICE_TREE_BYTES: usize = 1 << 20;
    /// Outcomes listed in a distribution answer (the rest are summarised).
    pub const LISTED_OUTCOMES: usize = 2_000;
    /// Blackjack: pieces dealt in one `deal` request.
    pub const BLACKJACK_DEAL: u64 = 10_000;
    /// Blackjack: chain states per piece for exact statistics (the CLI allows 100 000).
    pub const BLACKJACK_STATES: usize = 20_000;
    /// Blackjack: deals simulated when exact statistics are impossible.
    pub const BLACKJACK_SIMULATED: u64 = 200_000;
    /// Blackjack: randomizers compared in one `analyse` request.
    pub const BLACKJACK_SPECS: usize = 4;
    /// EZScript: steps of one evaluation (the CLI's default is `DEFAULT_FUEL`).
    pub const EZSCRIPT_FUEL: u64 = 2_000_000;
    /// Program errors listed in one answer (a 256 KiB program can have thousands).
    pub const ERRORS: usize = 50;
    /// Bytes of one error's `rendered` text: the source line is left out beyond it (a
    /// program on one long line would repeat that line in every error).
    pub const RENDERED_BYTES: usize = 4096;
    /// EZScript: clock ticks in one `clock` request.
    pub const EZSCRIPT_TICKS: u64 = 600;
    /// EZScript clock view: the clock's elapsed seconds (twelve hours of play; each request
    /// runs the clock from the file state, 1 to 2 s of work at the limit in a debug build).
    pub const EZSCRIPT_CLOCK_SECONDS: u64 = 43_200;
    /// EZScript clock view: frames (seconds) in one answer.
    pub const EZSCRIPT_VIEW_FRAMES: u64 = 120;
    /// EZScript clock view: fields rendered at each frame.
    pub const EZSCRIPT_VIEW_FIELDS: usize = 16;
    /// EZScript clock view: restarts of a paused clock in one request.
    pub const EZSCRIPT_VIEW_RESUMES: usize = 256;
}

/// The POST endpoint behind `route` (the path after `/api/`).
pub fn post_handler(route: &str) -> Option<Handler> {
    Some(match route {
        "dice/check" => super::dice::check,
        "dice/calc" => super::dice::calc,
        "dice/roll" => super::dice::roll,
        "dice/eval" => super::dice::eval,
        "blackjack/check" => super::blackjack::check,
        "blackjack/deal" => super::blackjack::deal,
        "blackjack/analyse" => super::blackjack::analyse,
        "blackjack/tables" => super::blackjack::tables,
        "blackjack/gap" => super::blackjack::gap,
        "blackjack/preview" => super::blackjack::preview,
        "holdem/check" => super::holdem::check,
        "holdem/run" => super::holdem::run,
        "holdem/lint" => super::holdem::lint,
        "ezscript/check" => super::ezscript::check,
        "ezscript/run" => super::ezscript::run,
        "ezscript/clock" => super::ezscript::clock,
        "ezscript/clockview" => super::ezscript::clock_view,
        _ => return None,
    })
}

/// The GET endpoints: `health`, `limits`, `examples`.
pub fn get(route: &str) -> Option<Value> {
    Some(match route {
        "health" => json!({"ok": true, "version": env!("CARGO_PKG_VERSION")}),
        "limits" => limits(),
        "examples" => super::assets::examples(),
        _ => return None,
    })
}

fn limits() -> Value {
    use budget::*;
    json!({
        "dice": {"calc_steps": DICE_CALC_STEPS, "calc_outcomes": DICE_CALC_OUTCOMES,
                 "programs": DICE_PROGRAMS, "rolls": DICE_ROLLS, "eval_rolls": DICE_EVAL_ROLLS,
                 "roll_steps": alea_dicelab::MAX_STEPS, "listed_outcomes": LISTED_OUTCOMES,
                 "tree_bytes": DICE_TREE_BYTES},
        "blackjack": {"deal": BLACKJACK_DEAL, "states": BLACKJACK_STATES,
                      "simulated": BLACKJACK_SIMULATED, "specs": BLACKJACK_SPECS},
        "ezscript": {"fuel": EZSCRIPT_FUEL, "ticks": EZSCRIPT_TICKS,
                     "clock_seconds": EZSCRIPT_CLOCK_SECONDS, "view_frames": EZSCRIPT_VIEW_FRAMES,
                     "view_fields": EZSCRIPT_VIEW_FIELDS,
                     "source_bytes": alea_ezscript::MAX_SOURCE},
    })
}

/// A required text field, or the 400-style error object.
pub fn text<'a>(input: &'a Value, name: &str) -> Result<&'a str, Value> {
    match input.get(name) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(bad_request(&format!("`{name}` must be a string"))),
        None => Err(bad_request(&format!("missing field `{name}`"))),
    }
}

/// An optional text field (`null` counts as absent).
pub fn opt_text<'a>(input: &'a Value, name: &str) -> Result<Option<&'a str>, Value> {
    match input.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad_request(&format!("`{name}` must be a string"))),
    }
}

/// An optional unsigned integer field, checked against `max`.
pub fn opt_u64(input: &Value, name: &str, default: u64, max: u64) -> Result<u64, Value> {
    match input.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => match v.as_u64() {
            Some(n) if n <= max => Ok(n),
            Some(_) => Err(bad_request(&format!("`{name}` must be at most {max}"))),
            None => Err(bad_request(&format!(
                "`{name}` must be a non-negative integer"
            ))),
        },
    }
}

/// An optional boolean field.
pub fn opt_bool(input: &Value, name: &str) -> Result<bool, Value> {
    match input.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(bad_request(&format!("`{name}` must be true or false"))),
    }
}

/// A list of strings (`specs`, `programs`), at most `max` long.
pub fn text_list(input: &Value, name: &str, max: usize) -> Result<Vec<String>, Value> {
    let Some(Value::Array(items)) = input.get(name) else {
        return Err(bad_request(&format!("`{name}` must be a list of strings")));
    };
    if items.len() > max {
        return Err(bad_request(&format!("at most {max} entries in `{name}`")));
    }
    items
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| bad_request(&format!("`{name}` must be a list of strings")))
        })
        .collect()
}

/// The error object of a malformed request (the server answers it with status 200 from a
/// handler; the field `error` says what is wrong).
pub fn bad_request(message: &str) -> Value {
    json!({"ok": false, "error": message})
}

/// A diagnostic as JSON: 1-based `line`/`column` of its start and end (0 when it has no
/// position), `message`, `severity`, and `rendered` (the CLI's text with the caret).
pub fn diagnostic(file: &SourceFile, d: &Diagnostic) -> Value {
    let (line, column) = d.line_col(file).unwrap_or((0, 0));
    let (end_line, end_column) = d
        .span
        .map(|s| file.line_col((s.end as usize).min(file.text().len())))
        .unwrap_or((line, column));
    json!({
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "message": d.message,
        "severity": d.severity.as_str(),
        "rendered": rendered(file, d),
    })
}

/// The CLI's text of `d`, or only its first line (`FILE:LINE:COL: error: …`) when the source
/// line would make it longer than [`budget::RENDERED_BYTES`].
fn rendered(file: &SourceFile, d: &Diagnostic) -> String {
    let text = d.render_with(file, alea_core::RenderOptions::single_caret());
    if text.len() <= budget::RENDERED_BYTES {
        return text;
    }
    let head = text.lines().next().unwrap_or("");
    let mut end = head.len().min(budget::RENDERED_BYTES);
    while !head.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n(the source line is too long to show)\n", &head[..end])
}

/// The first [`budget::ERRORS`] diagnostics as JSON.
pub fn diagnostics<'a>(
    file: &SourceFile,
    diags: impl IntoIterator<Item = &'a Diagnostic>,
) -> Vec<Value> {
    diags
        .into_iter()
        .take(budget::ERRORS)
        .map(|d| diagnostic(file, d))
        .collect()
}

/// A finite number as JSON (non-finite ones as their text, JSON has no NaN).
pub fn number(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        json!(x.to_string())
    }
}
