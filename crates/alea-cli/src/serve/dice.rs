//! dicelab endpoints: check, exact distributions (several programs overlaid), rolls, simulation.
//!
//! Statements run in the library's [`Session`] (the one statement loop of every front end) and
//! distributions are read through its [`Summary`]; this module only shapes the JSON.

use super::api::{self, budget};
use alea_core::SourceFile;
use alea_dicelab::calc::{CalcOptions, Outcome};
use alea_dicelab::{Modes, Program, Session, SessionOptions, Statement, Summary};
use serde_json::{Value, json};

/// Parses `text`; `Err` is the response listing the syntax errors.
fn parse(name: &str, text: &str) -> Result<(SourceFile, Program), Value> {
    let file = SourceFile::new(name, text);
    let (program, errors) = alea_dicelab::parse(&file);
    if !errors.is_empty() {
        let errors = api::diagnostics(&file, &errors);
        return Err(json!({"ok": false, "program": text, "errors": errors}));
    }
    if program.statements.is_empty() {
        return Err(json!({"ok": false, "program": text, "errors": [{
            "line": 1, "column": 1, "end_line": 1, "end_column": 1, "severity": "error",
            "message": "the program has no statement", "rendered": ""}]}));
    }
    Ok((file, program))
}

fn statement_text(file: &SourceFile, s: &Statement) -> String {
    file.slice(s.span).trim().to_string()
}

/// `POST /api/dice/check {"program"}`: syntax errors and each statement's tree.
pub fn check(input: &Value) -> Value {
    let text = match api::text(input, "program") {
        Ok(t) => t,
        Err(e) => return e,
    };
    match parse("<program>", text) {
        Err(e) => e,
        Ok((file, program)) => {
            // One budget for every tree of the answer: the text of a tree can grow with the
            // square of its statement, so it is cut before it is built.
            let mut room = budget::DICE_TREE_BYTES;
            let statements: Vec<Value> = program
                .statements
                .iter()
                .map(|s| {
                    let (mut tree, cut) = alea_dicelab::print_tree_bounded(&s.expr, room);
                    room -= tree.len();
                    if cut {
                        tree.push_str(&format!(
                            "… (cut: the trees of one answer are limited to {} bytes)\n",
                            budget::DICE_TREE_BYTES
                        ));
                        room = 0;
                    }
                    json!({"text": statement_text(&file, s), "tree": tree})
                })
                .collect();
            json!({"ok": true, "errors": [], "statements": statements})
        }
    }
}

/// `POST /api/dice/calc {"programs": [..], "threshold"?}`: exact distributions of every
/// statement of every program, and one bar chart overlaying them.
pub fn calc(input: &Value) -> Value {
    let programs = match api::text_list(input, "programs", budget::DICE_PROGRAMS) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let threshold = match input.get("threshold") {
        None | Some(Value::Null) => 1e-6,
        Some(v) => match v.as_f64() {
            Some(t) if (0.0..1.0).contains(&t) => t as f32,
            _ => return api::bad_request("`threshold` must be a number in [0, 1)"),
        },
    };
    let options = CalcOptions {
        threshold,
        max_steps: budget::DICE_CALC_STEPS,
        max_outcomes: budget::DICE_CALC_OUTCOMES,
    };
    let session = Session::new(
        SessionOptions {
            modes: Modes::CALC,
            calc: options,
            ..SessionOptions::default()
        },
        0,
    );
    let mut results = Vec::new();
    let mut series: Vec<(String, Vec<(Outcome, f64)>)> = Vec::new();
    let mut all_ok = true;
    for (i, text) in programs.iter().enumerate() {
        let (file, program) = match parse(&format!("<program {}>", i + 1), text) {
            Ok(p) => p,
            Err(e) => {
                all_ok = false;
                results.push(e);
                continue;
            }
        };
        let mut statements = Vec::new();
        let mut errors = Vec::new();
        for s in &program.statements {
            let label = statement_text(&file, s);
            match session.calc(s) {
                Ok(result) => {
                    let summary = result.summary();
                    let probs: Vec<(Outcome, f64)> = summary
                        .rows()
                        .map(|r| (r.outcome, r.probability.to_f64()))
                        .collect();
                    statements.push(distribution_json(&label, &summary));
                    series.push((label, probs));
                }
                Err(d) => errors.push(api::diagnostic(&file, &d)),
            }
        }
        all_ok &= errors.is_empty();
        results.push(json!({"ok": errors.is_empty(), "program": text,
                            "statements": statements, "errors": errors}));
    }
    let svg = chart(&series);
    json!({"ok": all_ok, "results": results, "svg": svg})
}

/// One statement's distribution: outcomes with exact and float probabilities, P(X ≥ v) and
/// P(X ≤ v) among numeric outcomes (the library's exact values, rounded once), mean and sd.
fn distribution_json(label: &str, summary: &Summary) -> Value {
    let count = summary.distribution().len();
    let rows: Vec<Value> = summary
        .rows()
        .take(budget::LISTED_OUTCOMES)
        .map(|r| {
            json!({"value": r.outcome.value(), "probability": r.probability.to_f64(),
                   "exact": r.probability.to_string(),
                   "at_least": r.at_least.map(|p| p.to_f64()),
                   "at_most": r.at_most.map(|p| p.to_f64())})
        })
        .collect();
    let (mean, sd) = match summary.moments() {
        Some(m) => (api::number(m.mean.to_f64()), api::number(m.sd())),
        None => (Value::Null, Value::Null),
    };
    json!({
        "text": label,
        "outcomes": rows,
        "outcome_count": count,
        "listed": rows_len(count),
        "mean": mean,
        "sd": sd,
        "truncated_mass": summary.truncated_mass().to_f64(),
    })
}

fn rows_len(n: usize) -> usize {
    n.min(budget::LISTED_OUTCOMES)
}

/// The overlay chart: one bar series per statement over the union of outcomes (a contiguous
/// range when it is short, so gaps show as empty slots).
fn chart(series: &[(String, Vec<(Outcome, f64)>)]) -> String {
    if series.is_empty() {
        return String::new();
    }
    let mut keys: Vec<Outcome> = series
        .iter()
        .flat_map(|(_, s)| s.iter().map(|(o, _)| *o))
        .collect();
    keys.sort();
    keys.dedup();
    let values: Vec<i32> = keys.iter().filter_map(|o| o.value()).collect();
    if let (Some(&lo), Some(&hi)) = (values.first(), values.last())
        && i64::from(hi) - i64::from(lo) < 200
    {
        let has_empty = keys.first() == Some(&Outcome::Empty);
        keys = has_empty.then_some(Outcome::Empty).into_iter().collect();
        keys.extend((lo..=hi).map(Outcome::Value));
    }
    keys.truncate(budget::LISTED_OUTCOMES);
    let categories = keys
        .iter()
        .map(|o| o.value().map_or("()".to_string(), |v| v.to_string()))
        .collect();
    let series = series
        .iter()
        .map(|(name, probs)| alea_plot::Series {
            name: name.clone(),
            values: keys
                .iter()
                .map(|k| {
                    probs
                        .binary_search_by(|(o, _)| o.cmp(k))
                        .map_or(0.0, |i| probs[i].1)
                })
                .collect(),
        })
        .collect::<Vec<_>>();
    let title = if series.len() == 1 {
        series[0].name.clone()
    } else {
        format!("{} programs compared", series.len())
    };
    alea_plot::Chart {
        title,
        x_label: "value".into(),
        y_label: "probability".into(),
        kind: alea_plot::ChartKind::Bars,
        categories,
        series,
    }
    .to_svg()
}

/// `POST /api/dice/roll {"program", "seed"?, "times"?}`: `times` rolls (default 1) of every
/// statement; the seed used is returned so a roll can be repeated.
pub fn roll(input: &Value) -> Value {
    let text = match api::text(input, "program") {
        Ok(t) => t,
        Err(e) => return e,
    };
    let times = match api::opt_u64(input, "times", 1, budget::DICE_ROLLS) {
        Ok(n) => n,
        Err(e) => return e,
    };
    let seed = match input.get("seed").and_then(Value::as_u64) {
        Some(s) => s,
        None => crate::cmd::dice::os_seed(),
    };
    let (file, program) = match parse("<program>", text) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let options = SessionOptions {
        modes: Modes::ROLL,
        ..SessionOptions::default()
    };
    let mut session = Session::new(options, seed);
    let mut statements = Vec::new();
    let mut kept = 0usize;
    for s in &program.statements {
        let mut rolls = Vec::new();
        for _ in 0..times {
            match session.roll(s) {
                Ok(v) => {
                    // Checked before the value is kept, so an answer never holds more than
                    // the budget (plus the one roll being looked at).
                    kept = kept.saturating_add(v.len());
                    if kept > budget::DICE_ROLLED_VALUES {
                        let d = alea_core::Diagnostic::error(format!(
                            "the rolls of this request hold more than {} values, the \
                             playground's limit for one answer",
                            budget::DICE_ROLLED_VALUES
                        ))
                        .with_span(s.span)
                        .with_help("ask for fewer rolls, or roll it with `alea dice -r`");
                        return json!({"ok": false, "seed": seed,
                                      "errors": [api::diagnostic(&file, &d)]});
                    }
                    rolls.push(v)
                }
                Err(d) => {
                    return json!({"ok": false, "seed": seed,
                                  "errors": [api::diagnostic(&file, &d)]});
                }
            }
        }
        statements.push(json!({"text": statement_text(&file, s), "rolls": rolls}));
    }
    json!({"ok": true, "seed": seed, "statements": statements, "errors": []})
}

/// `POST /api/dice/eval {"program", "rolls"?, "seed"?}`: a simulated distribution of every
/// statement (for programs too large for `calc`).
pub fn eval(input: &Value) -> Value {
    let text = match api::text(input, "program") {
        Ok(t) => t,
        Err(e) => return e,
    };
    let rolls = match api::opt_u64(input, "rolls", 100_000, budget::DICE_EVAL_ROLLS) {
        Ok(n) => n.max(1),
        Err(e) => return e,
    };
    let seed = input.get("seed").and_then(Value::as_u64).unwrap_or(1);
    let (file, program) = match parse("<program>", text) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let options = SessionOptions {
        modes: Modes::EVAL,
        rolls,
        ..SessionOptions::default()
    };
    let mut session = Session::new(options, seed);
    let mut statements = Vec::new();
    for s in &program.statements {
        match session.eval(s) {
            Ok(h) => {
                // The library's reading of the histogram (as for calc), formatted here.
                let listed = budget::LISTED_OUTCOMES + usize::from(h.empty > 0);
                let outcomes: Vec<Value> = Summary::sampled(&h)
                    .rows()
                    .take(listed)
                    .map(|r| {
                        json!({"value": r.outcome.value(), "probability": r.probability.to_f64()})
                    })
                    .collect();
                statements.push(json!({"text": statement_text(&file, s), "rolls": h.rolls,
                                       "outcomes": outcomes}));
            }
            Err(d) => {
                return json!({"ok": false, "errors": [api::diagnostic(&file, &d)]});
            }
        }
    }
    json!({"ok": true, "statements": statements, "errors": []})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_lists_the_empty_outcome_first_and_probabilities_of_the_rolls() {
        let v = eval(&json!({"program": "if >1 d2 then d2 else ()", "rolls": 1000, "seed": 3}));
        assert_eq!(v["ok"], true, "{v}");
        let st = &v["statements"][0];
        assert_eq!(st["rolls"], 1000);
        let outcomes = st["outcomes"].as_array().expect("outcomes");
        assert_eq!(outcomes[0]["value"], Value::Null);
        assert_eq!(outcomes.len(), 3);
        let total: f64 = outcomes
            .iter()
            .filter_map(|o| o["probability"].as_f64())
            .sum();
        assert!((total - 1.0).abs() < 1e-12, "{v}");
        // Every probability is a count over 1000 rolls.
        for o in outcomes {
            let p = o["probability"].as_f64().expect("p") * 1000.0;
            assert!((p - p.round()).abs() < 1e-9, "{o}");
        }
    }

    #[test]
    fn calc_columns_are_the_library_summary() {
        let v = calc(&json!({"programs": ["if >4 d6 then d2 else ()"]}));
        let rows = &v["results"][0]["statements"][0]["outcomes"];
        assert_eq!(rows[0]["value"], Value::Null);
        assert_eq!(rows[0]["at_least"], Value::Null);
        assert_eq!(rows[1]["at_least"], 1.0);
        assert_eq!(rows[1]["at_most"], 0.5);
        assert_eq!(rows[2]["at_least"], 0.5);
        assert_eq!(rows[2]["exact"], "1/6");
    }
}
