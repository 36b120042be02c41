//! EZScript endpoints: check, run (script or template) and the clock preview.
//!
//! Runs use the server's smaller step budget ([`budget::EZSCRIPT_FUEL`]) on the computation
//! thread's big stack (the interpreter recurses on the native stack, bounded by its limits).

use super::api::{self, budget};
use alea_core::SourceFile;
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
    diags.iter().map(|d| api::diagnostic(file, d)).collect()
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

/// `POST /api/ezscript/clock`: the running clock preview (content fields rendered tick by
/// tick, alerts as they fire). It needs the tournament binding (crate `alea-ezhost`).
pub fn clock(_input: &Value) -> Value {
    let _ = budget::EZSCRIPT_TICKS;
    json!({"ok": false, "error": "the clock preview needs the tournament binding (alea-ezhost), \
                                  which this build does not include yet"})
}
