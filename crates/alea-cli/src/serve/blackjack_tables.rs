//! Blackjack table endpoints: the library's exact drought/flood/game/bagginess tables,
//! P(gap ≥ k) and the preview laws, shown by the page beside the comparison.

use super::api::{self, budget};
use super::resolve;
use alea_blackjack::{
    ExactError, ExactOptions, ExactTableOptions, PreviewError, PreviewStart, Ratio, Source,
};
use serde_json::{Value, json};

/// Largest k of `blackjack/gap`: each step multiplies the fractions' denominators.
pub const GAP_K: u64 = 2_000;
/// Most deals after the shown pieces of `blackjack/preview`.
pub const PREVIEW_AHEAD: u64 = 20;

fn exact_options() -> ExactOptions {
    ExactOptions {
        max_states: budget::BLACKJACK_STATES,
        ..ExactOptions::default()
    }
}

/// The library's error as the page's error list.
fn refused(text: &str, e: &ExactError) -> Value {
    json!({"ok": false, "spec": text, "errors": [{"code": e.code(), "message": e.to_string()}]})
}

fn spec_and_source(input: &Value) -> Result<(String, Source), Value> {
    let text = api::text(input, "spec")?;
    Ok((text.to_string(), resolve(text)?))
}

/// `POST /api/blackjack/tables {"spec", "piece"?}`: the exact tables (fractions as in
/// `alea blackjack --tables --json`, decimals beside them) and the drought chart.
pub fn tables(input: &Value) -> Value {
    let (text, source) = match spec_and_source(input) {
        Ok(v) => v,
        Err(e) => return e,
    };
    let piece = match api::opt_text(input, "piece") {
        Ok(p) => p.map(str::to_string),
        Err(e) => return e,
    };
    let opts = ExactTableOptions {
        exact: exact_options(),
        piece,
        ..ExactTableOptions::default()
    };
    let t = match alea_blackjack::exact_tables(&source, &opts) {
        Ok(t) => t,
        Err(e) => return refused(&text, &e),
    };
    let exact: Value = serde_json::from_str(&t.to_json()).unwrap_or(Value::Null);
    let dec = |v: &[Ratio]| v.iter().map(Ratio::to_f64).collect::<Vec<f64>>();
    let pieces: Vec<Value> = t
        .pieces
        .iter()
        .map(|p| {
            json!({"piece": p.piece, "drought": dec(&p.drought), "runs": dec(&p.runs),
                   "game": p.game_drought.to_f64()})
        })
        .collect();
    let lines: Vec<(String, Vec<f64>)> = t
        .pieces
        .iter()
        .map(|p| (p.piece.clone(), dec(&p.drought)))
        .collect();
    let longest = lines.iter().map(|l| l.1.len()).max().unwrap_or(0);
    let svg = alea_plot::Chart {
        title: format!("drought: {}", t.label),
        x_label: "k (deals without the piece)".into(),
        y_label: "P(gap ≥ k)".into(),
        kind: alea_plot::ChartKind::Lines,
        categories: (0..longest).map(|k| k.to_string()).collect(),
        series: lines
            .into_iter()
            .map(|(name, values)| alea_plot::Series { name, values })
            .collect(),
    }
    .to_svg();
    json!({
        "ok": true, "errors": [], "spec": text, "canonical": source.label(), "exact": exact,
        "pieces": pieces, "runs": dec(&t.runs), "set": t.set,
        "set_runs": t.set_runs.as_deref().map(dec),
        "game_length": t.game_length, "game_drought": t.game_drought,
        "some_piece": t.some_piece_game_drought.as_ref().map(Ratio::to_f64),
        "bagginess": t.bagginess.as_ref().map(Ratio::to_f64), "window": t.window,
        "svg": svg,
    })
}

/// `POST /api/blackjack/gap {"spec", "k", "piece"?}`: exact P(gap ≥ k) per piece.
pub fn gap(input: &Value) -> Value {
    let (text, source) = match spec_and_source(input) {
        Ok(v) => v,
        Err(e) => return e,
    };
    let k = match api::opt_u64(input, "k", 12, GAP_K) {
        Ok(k) => k,
        Err(e) => return e,
    };
    let piece = match api::opt_text(input, "piece") {
        Ok(p) => p,
        Err(e) => return e,
    };
    match alea_blackjack::gap_at_least(&source, k, piece, &exact_options()) {
        Err(e) => refused(&text, &e),
        Ok(rows) => {
            let rows: Vec<Value> = rows
                .iter()
                .map(|(p, r)| json!({"piece": p, "probability": r.to_f64(), "exact": r.to_plain_string()}))
                .collect();
            json!({"ok": true, "errors": [], "spec": text, "canonical": source.label(), "k": k, "rows": rows})
        }
    }
}

/// `POST /api/blackjack/preview {"spec", "shown"?, "ahead"?, "long_run"?}`: the exact law of
/// the deals after the shown pieces (comma-separated), at the game's start or far into it.
pub fn preview(input: &Value) -> Value {
    let (text, source) = match spec_and_source(input) {
        Ok(v) => v,
        Err(e) => return e,
    };
    let shown_text = match api::opt_text(input, "shown") {
        Ok(s) => s.unwrap_or(""),
        Err(e) => return e,
    };
    let ahead = match api::opt_u64(input, "ahead", 1, PREVIEW_AHEAD) {
        Ok(n) => n as usize,
        Err(e) => return e,
    };
    let from = match api::opt_bool(input, "long_run") {
        Ok(true) => PreviewStart::LongRun,
        Ok(false) => PreviewStart::Game,
        Err(e) => return e,
    };
    let shown: Vec<&str> = shown_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let l = match alea_blackjack::preview_law_source(
        &source,
        &shown,
        ahead,
        budget::BLACKJACK_STATES,
        from,
    ) {
        Ok(l) => l,
        Err(PreviewError::Exact(e)) => return refused(&text, &e),
        Err(e) => return json!({"ok": false, "spec": text, "errors": [{"message": e.to_string()}]}),
    };
    let first = l.shown.len() + 1;
    let rows: Vec<Value> = l
        .next
        .iter()
        .enumerate()
        .map(|(j, law)| {
            json!({"deal": first + j, "law": law.iter().map(Ratio::to_f64).collect::<Vec<_>>(),
                   "exact": law.iter().map(Ratio::to_plain_string).collect::<Vec<_>>()})
        })
        .collect();
    json!({
        "ok": true, "errors": [], "spec": text, "canonical": source.label(),
        "start": if from == PreviewStart::LongRun { "long-run" } else { "game" },
        "pieces": l.pieces, "shown": l.shown,
        "probability_shown": l.probability_shown.to_f64(),
        "probability_shown_exact": l.probability_shown.to_plain_string(),
        "next": rows,
    })
}
