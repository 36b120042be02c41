//! `alea blackjack --compare`: several randomizers side by side, from the library's
//! [`Analysis`] of each (exact, or simulated when no exact analysis exists).

use super::{Args, Failure, exact_failure, gap_chart, print_analysis};
use alea_blackjack::{Analysis, AnalysisOptions, ExactOptions, Fallback, Prob, Source, analyse};
use std::io::{self, Write};

/// The exact value as a decimal, or the observed one.
fn decimal(p: &Prob, width: usize, digits: usize) -> String {
    format!("{:>width$.digits$}", p.to_f64())
}

/// The analyses of `--compare`, or the first failure (which ends the command with status 1).
pub(super) fn compare_rows(
    targets: &[Source],
    opts: &ExactOptions,
    simulate: bool,
    seed: u64,
    n: u64,
) -> Result<Vec<Analysis>, Failure> {
    let analysis_opts = AnalysisOptions {
        exact: opts.clone(),
        simulate: simulate.then_some((seed, n)),
        fallback: Fallback::Simulate { seed, deals: n },
    };
    targets
        .iter()
        .map(|t| analyse(t, &analysis_opts).map_err(|e| exact_failure(&e)))
        .collect()
}

pub(super) fn compare(out: &mut dyn Write, rows: &[Analysis], args: &Args) -> io::Result<()> {
    if let Some(path) = &args.plot {
        let lines: Vec<(String, Vec<f64>)> = rows
            .iter()
            .map(|a| (a.label.chars().take(18).collect(), a.mixed_gap_law()))
            .collect();
        std::fs::write(path, gap_chart("gap distribution (all pieces)", &lines))?;
    }
    if args.json {
        let items: Vec<String> = rows
            .iter()
            .map(|a| {
                let mut buf = Vec::new();
                let _ = print_analysis(&mut buf, a, true);
                String::from_utf8_lossy(&buf).trim_end().to_string()
            })
            .collect();
        return writeln!(out, "[{}]", items.join(",\n "));
    }
    writeln!(
        out,
        "{:<5} {:>8} {:>7} {:>8} {:>10}  spec",
        "", "repeat", "gap sd", "max gap", "P(gap≥12)"
    )?;
    for a in rows {
        let at_least = |k| {
            a.mixed_gap_at_least(k)
                .map_or(format!("{:>10}", "-"), |p| decimal(&p, 10, 6))
        };
        let sd = a.mixed_gap_variance().map_or(format!("{:>7}", "-"), |v| {
            format!("{:>7.3}", v.to_f64().sqrt())
        });
        writeln!(
            out,
            "{:<5} {} {} {:>8} {}  {}",
            if a.is_exact() { "exact" } else { "sim" },
            decimal(&a.repeat(), 8, 5),
            sd,
            a.overall_max_gap()
                .map_or("∞".to_string(), |m| m.to_string()),
            at_least(12),
            a.label
        )?;
    }
    Ok(())
}
