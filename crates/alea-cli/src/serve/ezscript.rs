//! EZScript endpoints: check, run (script or template), the clock preview and the clock view.
//!
//! Runs use the server's smaller step budget ([`budget::EZSCRIPT_FUEL`]) on a computation
//! thread (EZScript needs no more stack than a default 2 MiB thread has).

use super::api::{self, budget};
use alea_core::SourceFile;
use alea_ezhost::{ContentFields, Kind, Options, Session};
use alea_ezscript::{Env, MapHost, Program, Template, Value as EzValue};
use serde_json::{Value, json};

/// The globals a script sees: the request's `globals` object, and the `settings` of the
/// request's tournament file (title, buy-in cost, …) when there is one.
fn host(input: &Value) -> Result<MapHost, Value> {
    let mut host = MapHost::new();
    if let Some(text) = api::opt_text(input, "tournament")?.filter(|t| !t.trim().is_empty()) {
        let doc: Value = serde_json::from_str(text).map_err(|e| {
            json!({"ok": false, "errors": [{"line": e.line(), "column": e.column(),
                   "end_line": e.line(), "end_column": e.column(), "severity": "error",
                   "file": "tournament", "message": format!("tournament: {e}"),
                   "rendered": ""}]})
        })?;
        if let Some(Value::Object(settings)) = doc.get("settings") {
            for (k, v) in settings {
                host.globals.insert(k.clone(), EzValue::from_json(v));
            }
        }
    }
    if let Some(globals) = input.get("globals").filter(|g| !g.is_null()) {
        let Value::Object(map) = globals else {
            return Err(api::bad_request("`globals` must be a JSON object"));
        };
        for (k, v) in map {
            host.globals.insert(k.clone(), EzValue::from_json(v));
        }
    }
    let now = input
        .get("now")
        .and_then(Value::as_f64)
        .unwrap_or(1_753_035_300_000.0);
    Ok(host.with_now(now))
}

fn errors(file: &SourceFile, diags: &[alea_core::Diagnostic]) -> Vec<Value> {
    api::diagnostics(file, diags)
}

/// `POST /api/ezscript/check {"source", "template"?}`: syntax and name errors.
pub fn check(input: &Value) -> Value {
    let (source, template) = match (api::text(input, "source"), api::opt_bool(input, "template")) {
        (Ok(s), Ok(t)) => (s, t),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let file = SourceFile::new("<script>", source);
    let diags = if template {
        Template::compile(source).diagnostics
    } else {
        Program::compile(source).err().unwrap_or_default()
    };
    json!({"ok": diags.is_empty(), "errors": errors(&file, &diags)})
}

/// `POST /api/ezscript/run {"source", "template"?, "globals"?, "tournament"?, "now"?,
/// "locale"?}`: the value (JSON) and its display text, or the errors.
pub fn run(input: &Value) -> Value {
    let (source, template) = match (api::text(input, "source"), api::opt_bool(input, "template")) {
        (Ok(s), Ok(t)) => (s, t),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    if input.get("globals").is_none_or(Value::is_null) {
        return run_in_tournament(input, source, template);
    }
    let host = match host(input) {
        Ok(h) => h,
        Err(e) => return e,
    };
    let file = SourceFile::new("<script>", source);
    let env = Env {
        fuel: budget::EZSCRIPT_FUEL,
        ..Env::with_host(&host)
    };
    if template {
        let t = Template::compile(source);
        if !t.diagnostics.is_empty() {
            return json!({"ok": false, "text": "", "value": null,
                          "errors": errors(&file, &t.diagnostics)});
        }
        let out = t.render(&env);
        return json!({"ok": out.errors.is_empty(), "text": out.text, "value": out.text,
                      "errors": errors(&file, &out.errors)});
    }
    let program = match Program::compile(source) {
        Ok(p) => p,
        Err(diags) => {
            return json!({"ok": false, "text": "", "value": null,
                          "errors": errors(&file, &diags)});
        }
    };
    match program.run_display(&env) {
        Ok(out) => {
            let mut room = 1_000_000;
            let value = out
                .value
                .to_json_bounded(&mut room)
                .unwrap_or(Value::String(out.text.clone()));
            json!({"ok": true, "text": out.text, "value": value, "steps": out.steps,
                   "errors": []})
        }
        Err(e) => json!({"ok": false, "text": "", "value": null,
                         "errors": errors(&file, &[e.to_diagnostic()])}),
    }
}

/// A session over the request's tournament (empty without one) in the request's locale.
fn session(input: &Value) -> Result<Session, Value> {
    let tournament = api::opt_text(input, "tournament")?.filter(|t| !t.trim().is_empty());
    let locale = api::opt_text(input, "locale")?.unwrap_or("en-US");
    let options = Options {
        locale: locale.to_string(),
        fuel: Some(budget::EZSCRIPT_FUEL),
        host_now: input
            .get("now")
            .and_then(Value::as_f64)
            .unwrap_or(1_753_035_300_000.0),
        ..Options::default()
    };
    Session::new(tournament, options).map_err(|e| {
        json!({"ok": false, "errors": [{"line": 0, "column": 0, "end_line": 0, "end_column": 0,
               "severity": "error", "file": "tournament", "message": e.to_string(),
               "rendered": ""}]})
    })
}

/// A content field (script or template) against the tournament, formatted in the locale.
fn run_in_tournament(input: &Value, source: &str, template: bool) -> Value {
    let session = match session(input) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let out = session.eval(Kind::Content, Some(source), template);
    let file = SourceFile::new("<script>", source);
    let diags: Vec<alea_core::Diagnostic> =
        out.errors.iter().map(|e| e.diagnostic.clone()).collect();
    json!({"ok": out.ok, "text": out.text, "value": out.value, "locale": session.locale(),
           "errors": errors(&file, &diags)})
}

/// Most content frames of a clock preview after the first.
const FRAMES: u64 = 60;

/// `POST /api/ezscript/clock {"tournament", "locale"?, "seconds"?, "source"?, "template"?}`:
/// the running clock for `seconds` one-second ticks (default 120): every alert of the file as
/// it fires, with its rendered TTS text, and the content field (`source`) as the running clock
/// shows it: `frames` of `{"tick", "text"}`, rendered from the simulated state at tick 0 and
/// about [`FRAMES`] times spread over the run (`content` is the first). The page plays them
/// back with the firings.
pub fn clock(input: &Value) -> Value {
    let seconds = match api::opt_u64(input, "seconds", 120, budget::EZSCRIPT_TICKS) {
        Ok(n) => n,
        Err(e) => return e,
    };
    let session = match session(input) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let source = match api::opt_text(input, "source") {
        Ok(s) => s,
        Err(e) => return e,
    };
    let template = input
        .get("template")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let every = seconds.div_ceil(FRAMES).max(1);
    let report = match source {
        Some(src) => session.simulate_with_content(seconds, src, template, every),
        None => session.simulate(seconds),
    };
    let report = match report {
        Ok(r) => r,
        Err(e) => return json!({"ok": false, "error": e}),
    };
    let frames: Vec<Value> = report
        .frames
        .iter()
        .map(|f| json!({"tick": f.tick, "text": f.text()}))
        .collect();
    let content = frames.first().map(|f| f["text"].clone());
    let firings: Vec<Value> = report.firings.iter().map(|f| f.to_json()).collect();
    let alert_errors = alert_errors_json(&report.errors);
    json!({"ok": true, "seconds": seconds, "locale": session.locale(),
           "time_zone": session.time_zone(), "content": content, "frames": frames,
           "firings": firings,
           "alert_errors": alert_errors})
}

/// `POST /api/ezscript/clockview {"tournament", "locale"?, "elapsed"?, "frames"?, "since"?,
/// "resumes"?, "fields": [{"source", "template"?}]}`: the clock view's next frames. The server keeps no
/// session: the page keeps its own elapsed clock time (it starts, pauses and skips), and each
/// request runs the clock from the file state up to `elapsed + frames - 1` with the same
/// session code as `alea ez --simulate` ([`Session::clock_view`]), rendering every field at
/// each tick from `elapsed` on. `firings` are the alerts fired after tick `since` (default
/// `elapsed - 1`), with their TTS text. `resumes` are the ticks after which the page's Start
/// ran a clock the tournament had paused.
pub fn clock_view(input: &Value) -> Value {
    let elapsed = match api::opt_u64(input, "elapsed", 0, budget::EZSCRIPT_CLOCK_SECONDS) {
        Ok(n) => n,
        Err(e) => return e,
    };
    let count = match api::opt_u64(input, "frames", 60, budget::EZSCRIPT_VIEW_FRAMES) {
        Ok(n) => n.max(1),
        Err(e) => return e,
    };
    let since = match api::opt_u64(input, "since", elapsed.saturating_sub(1), u64::MAX) {
        Ok(n) => n,
        Err(e) => return e,
    };
    let resumes: Vec<u64> = match input.get("resumes") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(ticks)) if ticks.len() <= budget::EZSCRIPT_VIEW_RESUMES => {
            match ticks
                .iter()
                .map(Value::as_u64)
                .collect::<Option<Vec<u64>>>()
            {
                Some(t) => t,
                None => return api::bad_request("`resumes` must be a list of ticks"),
            }
        }
        Some(_) => {
            return api::bad_request(&format!(
                "`resumes` must be a list of at most {} ticks",
                budget::EZSCRIPT_VIEW_RESUMES
            ));
        }
    };
    let Some(Value::Array(items)) = input.get("fields") else {
        return api::bad_request("`fields` must be a list of {\"source\", \"template\"?}");
    };
    if items.len() > budget::EZSCRIPT_VIEW_FIELDS {
        return api::bad_request(&format!(
            "at most {} entries in `fields`",
            budget::EZSCRIPT_VIEW_FIELDS
        ));
    }
    let mut sources = Vec::new();
    for item in items {
        match (api::text(item, "source"), api::opt_bool(item, "template")) {
            (Ok(s), Ok(t)) => sources.push((s, t)),
            (Err(e), _) | (_, Err(e)) => return e,
        }
    }
    // Compiled once: the same compiled fields report their errors here and run at every tick.
    let fields = ContentFields::compile(&sources);
    let mut bad = Vec::new();
    for (i, (diags, &(source, _))) in fields.diagnostics().zip(&sources).enumerate() {
        let file = SourceFile::new(format!("<field {}>", i + 1), source);
        for mut e in errors(&file, diags) {
            e["field"] = json!(i);
            bad.push(e);
        }
    }
    if !bad.is_empty() {
        return json!({"ok": false, "errors": bad});
    }
    let session = match session(input) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let to = elapsed + count - 1;
    let report = match session.clock_view(elapsed, to, &fields, &resumes, since) {
        Ok(r) => r,
        Err(e) => return json!({"ok": false, "error": e}),
    };
    let frames: Vec<Value> = report
        .frames
        .iter()
        .map(|f| {
            json!({"tick": f.tick, "texts": f.texts, "level_index": f.level_index,
                   "seconds_left_in_level": api::number(f.seconds_left_in_level),
                   "running": f.running})
        })
        .collect();
    let firings: Vec<Value> = report.firings.iter().map(|f| f.to_json()).collect();
    let alert_errors = alert_errors_json(&report.errors);
    json!({"ok": true, "locale": session.locale(), "time_zone": session.time_zone(),
           "from": elapsed, "to": to, "frames": frames, "firings": firings,
           "alert_errors": alert_errors, "out_of_steps": report.out_of_steps})
}

/// The alerts' failures of a simulation, as the answers list them.
fn alert_errors_json(errors: &[alea_ezhost::AlertError]) -> Vec<Value> {
    errors
        .iter()
        .map(|e| {
            json!({"alert": e.alert, "field": e.field, "tick": e.tick,
                   "message": e.diagnostic.message})
        })
        .collect()
}
