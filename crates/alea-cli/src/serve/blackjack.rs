//! Blackjack endpoints: check, deal, and exact statistics of several randomizers compared.

use super::api::{self, budget};
use alea_blackjack::{
    AnalysisOptions, ExactOptions, ExactStats, Fallback, Law, ResolveError, Source,
};
use alea_core::SourceFile;
use serde_json::{Value, json};

#[path = "blackjack_tables.rs"]
mod tables;
pub use tables::{gap, preview, tables};

/// Resolves a spec text or preset name by the library's one rule; `Err` is the response with
/// the error position.
pub(super) fn resolve(text: &str) -> Result<Source, Value> {
    Source::resolve(text).map_err(|e| match e {
        ResolveError::Spec(e) => {
            let file = SourceFile::new("<spec>", text);
            json!({"ok": false, "spec": text, "errors": [api::diagnostic(&file, &e.to_diagnostic())]})
        }
        ResolveError::UnknownPreset(e) => {
            json!({"ok": false, "spec": text, "errors": [{"message": e.to_string()}]})
        }
    })
}

fn warnings(source: &Source) -> Vec<String> {
    source.warnings()
}

/// `POST /api/blackjack/check {"spec"}`: errors, canonical form and warnings.
pub fn check(input: &Value) -> Value {
    let text = match api::text(input, "spec") {
        Ok(t) => t,
        Err(e) => return e,
    };
    match resolve(text) {
        Err(e) => e,
        Ok(s) => json!({"ok": true, "errors": [], "canonical": s.label(),
                        "pieces": s.randomizer(0).pieces(), "warnings": warnings(&s)}),
    }
}

/// `POST /api/blackjack/deal {"spec", "seed"?, "count"?}`: the first `count` deals.
pub fn deal(input: &Value) -> Value {
    let text = match api::text(input, "spec") {
        Ok(t) => t,
        Err(e) => return e,
    };
    let count = match api::opt_u64(input, "count", 70, budget::BLACKJACK_DEAL) {
        Ok(n) => n,
        Err(e) => return e,
    };
    let seed = input.get("seed").and_then(Value::as_u64).unwrap_or(0);
    let source = match resolve(text) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let mut r = source.randomizer(seed);
    let pieces: Vec<String> = r.pieces().into_iter().map(str::to_string).collect();
    let sequence: Vec<String> = (0..count)
        .map(|_| {
            let p = r.deal();
            r.name(p).to_string()
        })
        .collect();
    json!({"ok": true, "errors": [], "canonical": source.label(), "seed": seed,
           "pieces": pieces, "sequence": sequence, "warnings": warnings(&source)})
}

/// `POST /api/blackjack/analyse {"specs": [..], "piece"?}`: exact statistics of each
/// randomizer (simulated when no finite chain fits the budget), and a chart comparing their
/// gap laws for `piece` (default `I`, else the first piece).
pub fn analyse(input: &Value) -> Value {
    let texts = match api::text_list(input, "specs", budget::BLACKJACK_SPECS) {
        Ok(t) => t,
        Err(e) => return e,
    };
    let wanted = match api::opt_text(input, "piece") {
        Ok(p) => p.map(str::to_string),
        Err(e) => return e,
    };
    // The page shows frequencies, means, longest gaps and the first gaps, never E[gap²].
    let opts = ExactOptions {
        max_states: budget::BLACKJACK_STATES,
        second_moment: false,
        ..ExactOptions::default()
    };
    let mut results = Vec::new();
    let mut lines: Vec<(String, Vec<String>, Vec<f64>)> = Vec::new(); // name, pieces, gap law
    let mut all_ok = true;
    for text in &texts {
        let source = match resolve(text) {
            Ok(s) => s,
            Err(e) => {
                all_ok = false;
                results.push(e);
                continue;
            }
        };
        let piece = |pieces: &[String]| {
            let want = wanted.clone().unwrap_or_else(|| "I".into());
            pieces.iter().position(|p| *p == want).unwrap_or(0)
        };
        let analysis_opts = AnalysisOptions {
            exact: opts.clone(),
            simulate: None,
            fallback: Fallback::Simulate {
                seed: 1,
                deals: budget::BLACKJACK_SIMULATED,
            },
        };
        let Ok(analysis) = alea_blackjack::analyse(&source, &analysis_opts) else {
            unreachable!("a simulated fallback always answers")
        };
        match &analysis.law {
            Law::Exact(st) => {
                let i = piece(&st.pieces);
                let law: Vec<f64> = st.gaps[i].distribution.iter().map(|r| r.to_f64()).collect();
                lines.push((text.trim().to_string(), st.pieces.clone(), law));
                results.push(exact_json(text, &source, st));
            }
            Law::Simulated {
                stats: sim, why, ..
            } => {
                let i = piece(&sim.pieces);
                let law = simulated_gap_law(&sim.gaps[i], sim.gaps[i].count);
                lines.push((
                    format!("{} (simulated)", text.trim()),
                    sim.pieces.clone(),
                    law,
                ));
                let why = why.as_ref().map(ToString::to_string).unwrap_or_default();
                results.push(simulated_json(text, &source, sim, &why));
            }
        }
    }
    let piece_name = wanted.unwrap_or_else(|| "I".into());
    json!({"ok": all_ok, "results": results, "piece": piece_name, "svg": gap_chart(&piece_name, &lines)})
}

/// Gap laws listed up to this gap in answers and charts.
const SHOWN_GAPS: usize = 60;

fn exact_json(text: &str, source: &Source, st: &ExactStats) -> Value {
    let pieces: Vec<Value> = st
        .pieces
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let g = &st.gaps[i];
            let law: Vec<f64> = g
                .distribution
                .iter()
                .take(SHOWN_GAPS + 1)
                .map(|r| r.to_f64())
                .collect();
            // The library's exact mean (Kac), tail included.
            let mean = st.mean_gap(i).to_f64();
            json!({"piece": name, "frequency": st.frequency[i].to_f64(),
                   "frequency_exact": st.frequency[i].to_plain_string(),
                   "max_gap": g.max_gap, "gap_mean": mean, "gap_tail": g.tail.to_f64(),
                   "gaps": law})
        })
        .collect();
    json!({
        "ok": true, "errors": [], "spec": text, "canonical": source.label(), "method": "exact",
        "states": st.states,
        "repeat_probability": st.repeat_probability.to_f64(),
        "repeat_probability_exact": st.repeat_probability.to_plain_string(),
        "from_history_probability": st.from_history_probability.as_ref().map(|r| r.to_f64()),
        "pieces": pieces,
        "warnings": warnings(source),
    })
}

fn simulated_gap_law(g: &alea_blackjack::GapCounts, total: u64) -> Vec<f64> {
    let n = total.max(1) as f64;
    let mut law = vec![0.0; SHOWN_GAPS + 1];
    for (gap, c) in g.histogram() {
        if let Some(slot) = law.get_mut(gap as usize) {
            *slot = c as f64 / n;
        }
    }
    while law.len() > 1 && law.last() == Some(&0.0) {
        law.pop();
    }
    law
}

fn simulated_json(text: &str, source: &Source, sim: &alea_blackjack::SimStats, why: &str) -> Value {
    let pieces: Vec<Value> = sim
        .pieces
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let g = &sim.gaps[i];
            json!({"piece": name, "frequency": sim.frequency(i), "max_gap": g.max,
                   "gap_mean": g.mean(), "gaps": simulated_gap_law(g, g.count)})
        })
        .collect();
    json!({
        "ok": true, "errors": [], "spec": text, "canonical": source.label(),
        "method": "simulated", "deals": sim.n, "why": why,
        "repeat_probability": sim.repeat_rate(),
        "pieces": pieces,
        "warnings": warnings(source),
    })
}

/// Lines of P(gap = g) for one piece, one line per randomizer.
fn gap_chart(piece: &str, lines: &[(String, Vec<String>, Vec<f64>)]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let longest = lines
        .iter()
        .map(|l| l.2.len())
        .max()
        .unwrap_or(1)
        .clamp(1, SHOWN_GAPS + 1);
    let series = lines
        .iter()
        .map(|(name, pieces, law)| {
            let name = short(name);
            let shown = if pieces.iter().any(|p| p == piece) {
                name
            } else {
                format!("{name} [{}]", pieces.first().map_or("", String::as_str))
            };
            alea_plot::Series {
                name: shown,
                values: (0..longest)
                    .map(|g| law.get(g).copied().unwrap_or(0.0))
                    .collect(),
            }
        })
        .collect();
    alea_plot::Chart {
        title: format!("gaps between two {piece} pieces"),
        x_label: "pieces dealt in between".into(),
        y_label: "probability".into(),
        kind: alea_plot::ChartKind::Lines,
        categories: (0..longest).map(|g| g.to_string()).collect(),
        series,
    }
    .to_svg()
}

/// Legend text: long specs are cut (the full text is in the tables beside the chart).
fn short(name: &str) -> String {
    const MAX: usize = 36;
    if name.chars().count() <= MAX {
        return name.to_string();
    }
    let cut: String = name.chars().take(MAX - 1).collect();
    format!("{cut}…")
}
