//! A tiny path language to read a state in case files, so the spec's vectors stay data.
//!
//! `PATH = EXPECTED` per line. A path starts with a global name, `player(ID)`, `table(ID)`,
//! `entry(INDEX)`, `toPlayerName(N)` (also `toPlayerShortName`, `toPlayerInitials`),
//! `payoutAmounts`, `remaining`, `placed`; then `.segment`s: a property name (mapped over
//! lists), `count`, `first`, `last`, `[i]`, `take(n)`, `where(prop>0)`, `find(prop=text)`,
//! `sortdesc(prop)` (stable). Values display by EZScript's display rule, except that a top-level
//! nothing shows `null` and an error shows `error: MESSAGE`.

use alea_tournament::{Obj, State, Value, display_number};

pub fn display(state: &State, v: &Value, top: bool) -> String {
    match v {
        Value::Nothing if top => "null".into(),
        Value::Nothing => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => display_number(*n),
        Value::Text(s) => s.clone(),
        Value::List(items) => {
            let parts: Vec<String> = items.iter().map(|x| display(state, x, false)).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Map(entries) => {
            let parts: Vec<String> = entries
                .iter()
                .map(|(k, x)| format!("{k}: {}", display(state, x, false)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Object(o) => state.display_object(*o),
    }
}

fn arg<'a>(segment: &'a str, name: &str) -> Option<&'a str> {
    segment
        .strip_prefix(name)?
        .strip_prefix('(')?
        .strip_suffix(')')
}

fn number(text: &str) -> Result<f64, String> {
    text.parse().map_err(|_| format!("bad number {text}"))
}

fn split_path(path: &str) -> Vec<String> {
    // Dots inside parentheses (e.g. `find(name=Alex P.)`) do not split.
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in path.chars() {
        match c {
            '[' if depth == 0 && !cur.is_empty() => parts.push(std::mem::take(&mut cur)),
            '(' => depth += 1,
            ')' => depth -= 1,
            '.' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    parts
}

pub fn eval(state: &State, path: &str) -> Result<Value, String> {
    let segments = split_path(path);
    let (first, rest) = segments.split_first().ok_or("empty path")?;
    let mut value = start(state, first)?;
    for seg in rest {
        value = step(state, value, seg)?;
    }
    Ok(value)
}

fn start(state: &State, seg: &str) -> Result<Value, String> {
    if let Some(n) = arg(seg, "player") {
        return state.to_player(number(n)?).map(Value::Object);
    }
    if let Some(n) = arg(seg, "table") {
        return state.to_table(number(n)?).map(Value::Object);
    }
    if let Some(n) = arg(seg, "entry") {
        return Ok(Value::Object(Obj::LogEntry(number(n)? as usize)));
    }
    if let Some(n) = arg(seg, "toPlayerName") {
        return Ok(Value::Text(state.to_player_name(number(n)?)));
    }
    if let Some(n) = arg(seg, "toPlayerShortName") {
        return Ok(Value::Text(state.to_player_short_name(number(n)?)));
    }
    if let Some(n) = arg(seg, "toPlayerInitials") {
        return Ok(Value::Text(state.to_player_initials(number(n)?)));
    }
    match seg {
        "payoutAmounts" => {
            return Ok(Value::List(
                state
                    .payout_amounts()
                    .iter()
                    .map(|&x| Value::Number(x))
                    .collect(),
            ));
        }
        "remaining" => return Ok(Value::Number(state.remaining())),
        "placed" => {
            return Ok(Value::List(
                state
                    .placed_players()
                    .into_iter()
                    .map(|i| Value::Object(Obj::Player(i)))
                    .collect(),
            ));
        }
        _ => {}
    }
    state
        .global(seg)
        .ok_or_else(|| format!("Unknown name {seg}"))
}

fn prop(state: &State, v: &Value, name: &str) -> Result<Value, String> {
    match v {
        Value::Object(o) => state.property(*o, name).ok_or_else(|| {
            format!(
                "Attempted to access missing element {name} on {}",
                o.type_name()
            )
        }),
        Value::List(items) => Ok(Value::List(
            items
                .iter()
                .map(|x| prop(state, x, name))
                .collect::<Result<_, _>>()?,
        )),
        other => Err(format!("no property {name} on {other:?}")),
    }
}

fn list(v: Value) -> Result<Vec<Value>, String> {
    match v {
        Value::List(items) => Ok(items),
        other => Err(format!("not a list: {other:?}")),
    }
}

fn step(state: &State, v: Value, seg: &str) -> Result<Value, String> {
    if let Some(i) = seg.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        let i = number(i)? as usize;
        return list(v)?
            .into_iter()
            .nth(i)
            .ok_or_else(|| "index out of range".into());
    }
    if let Some(n) = arg(seg, "take") {
        return Ok(Value::List(
            list(v)?.into_iter().take(number(n)? as usize).collect(),
        ));
    }
    if let Some(p) = arg(seg, "where").and_then(|a| a.strip_suffix(">0")) {
        let mut kept = Vec::new();
        for item in list(v)? {
            if prop(state, &item, p)?.as_number().is_some_and(|x| x > 0.0) {
                kept.push(item);
            }
        }
        return Ok(Value::List(kept));
    }
    if let Some((p, want)) = arg(seg, "find").and_then(|a| a.split_once('=')) {
        for item in list(v)? {
            if display(state, &prop(state, &item, p)?, true) == want {
                return Ok(item);
            }
        }
        return Ok(Value::Nothing);
    }
    if let Some(p) = arg(seg, "sortdesc") {
        let mut keyed = Vec::new();
        for item in list(v)? {
            let key = prop(state, &item, p)?
                .as_number()
                .ok_or("sort key is not a number")?;
            keyed.push((key, item));
        }
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        return Ok(Value::List(keyed.into_iter().map(|(_, x)| x).collect()));
    }
    match seg {
        "count" => Ok(Value::Number(list(v)?.len() as f64)),
        "first" => list(v)?
            .into_iter()
            .next()
            .ok_or_else(|| "No element: the list is empty".into()),
        "last" => list(v)?
            .into_iter()
            .last()
            .ok_or_else(|| "No element: the list is empty".into()),
        name => prop(state, &v, name),
    }
}

/// Runs every `PATH = EXPECTED` line of a case text against `state`; returns the failures.
pub fn check_cases(state: &State, cases: &str, origin: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (n, line) in cases.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((path, expected)) = line.split_once(" =") else {
            failures.push(format!("{origin}:{}: not `PATH = EXPECTED`", n + 1));
            continue;
        };
        let got = match eval(state, path.trim()) {
            Ok(v) => display(state, &v, true),
            Err(e) => format!("error: {e}"),
        };
        let expected = expected.trim().replace("\\n", "\n");
        checked += 1;
        if got != expected {
            failures.push(format!(
                "{origin}:{}: {path}\n  expected {expected}\n  got      {got}",
                n + 1
            ));
        }
    }
    assert!(checked > 0, "{origin}: no cases");
    failures
}
