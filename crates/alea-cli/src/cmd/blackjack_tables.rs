//! `alea blackjack --tables` and `--gap-at-least`: formatting of the library's exact chain
//! tables ([`alea_blackjack::ExactTables`]) and counted tables
//! ([`alea_blackjack::StreamTables`]). Nothing is computed here.

use super::{
    Args, Failure, exact_failure, finish, json_f64, json_str, line_chart, plain_failure, write_svg,
};
use crate::common::EXIT_USAGE;
use alea_blackjack::{
    ExactError, ExactOptions, ExactTables, Fallback, Prob, Ratio, Source, StreamTables,
    TableOptions,
};
use alea_core::Diagnostic;
use std::io::{self, Write};

/// The `"exact"` member of `--tables --json` (the library's JSON of the tables), or `null`
/// with an `"exact_error"` member.
pub(super) fn exact_json(t: &Result<ExactTables, ExactError>) -> String {
    match t {
        Err(e) => format!("null, \"exact_error\": {}", e.to_json()),
        Ok(t) => t.to_json(),
    }
}

/// The exact part of `--tables` as text: decimals, one column per piece.
pub(super) fn exact_text(
    out: &mut dyn Write,
    t: &Result<ExactTables, ExactError>,
) -> io::Result<()> {
    let t = match t {
        Err(e) => {
            return writeln!(
                out,
                "exact tables impossible ({}: {e}); counted tables only",
                e.code()
            );
        }
        Ok(t) => t,
    };
    let header = |out: &mut dyn Write, first: &str, extra: &str| -> io::Result<()> {
        write!(out, "{first:>4}")?;
        for p in &t.pieces {
            write!(out, " {:>9}", p.piece)?;
        }
        writeln!(out, "{extra}")
    };
    writeln!(
        out,
        "drought, exact: P(gap >= k), the deals strictly between two of the piece"
    )?;
    header(out, "k", "")?;
    let rows = t.pieces.first().map_or(0, |p| p.drought.len());
    for k in 1..rows {
        write!(out, "{k:>4}")?;
        for p in &t.pieces {
            write!(out, " {:>9.6}", p.drought.get(k).map_or(0.0, Ratio::to_f64))?;
        }
        writeln!(out)?;
    }
    writeln!(
        out,
        "flood, exact: P(run >= l), runs of the piece dealt l times in a row"
    )?;
    let set = t.set.join("/");
    let extra = match &t.set_runs {
        Some(_) => format!("       all {set:>9}"),
        None => "       all".to_string(),
    };
    header(out, "l", &extra)?;
    for (l, all) in t.runs.iter().enumerate() {
        write!(out, "{:>4}", l + 1)?;
        for p in &t.pieces {
            write!(out, " {:>9.6}", p.runs.get(l).map_or(0.0, Ratio::to_f64))?;
        }
        write!(out, " {:>9.6}", all.to_f64())?;
        if let Some(v) = &t.set_runs {
            write!(out, " {:>9.6}", v.get(l).map_or(0.0, Ratio::to_f64))?;
        }
        writeln!(out)?;
    }
    writeln!(
        out,
        "game, exact: P(the piece waits {} deals or more within the first {})",
        t.game_drought, t.game_length
    )?;
    header(out, "", "")?;
    write!(out, "{:>4}", "")?;
    for p in &t.pieces {
        write!(out, " {:>9.6}", p.game_drought.to_f64())?;
    }
    writeln!(out)?;
    let shown = |r: &Option<Ratio>| {
        r.as_ref()
            .map_or("not exact here (counted below)".to_string(), |r| {
                format!("{:.6}", r.to_f64())
            })
    };
    writeln!(
        out,
        "game, exact: P(some piece waits {} deals or more within the first {}): {}",
        t.game_drought,
        t.game_length,
        shown(&t.some_piece_game_drought)
    )?;
    writeln!(
        out,
        "bagginess, exact: long-run share of aligned windows of {} deals that are permutations: {}",
        t.window,
        shown(&t.bagginess)
    )
}

/// The exact drought curves, P(gap ≥ k) per piece, as an SVG chart (alea-plot).
pub(super) fn drought_svg(t: &ExactTables) -> String {
    let lines: Vec<(String, Vec<f64>)> = t
        .pieces
        .iter()
        .map(|p| {
            (
                p.piece.clone(),
                p.drought.iter().map(Ratio::to_f64).collect(),
            )
        })
        .collect();
    line_chart(
        &format!("drought: {}", t.label),
        "k (deals without the piece)",
        "P(gap ≥ k)",
        &lines,
    )
}

/// A probability in ten columns: six decimals, or four significant digits when tiny.
fn small(x: f64) -> String {
    if x != 0.0 && x < 1e-3 {
        format!("{x:>10.3e}")
    } else {
        format!("{x:>10.6}")
    }
}

/// `--gap-at-least K`: one line per piece, exact fractions or observed shares.
pub(super) fn gap_at_least(
    out: &mut dyn Write,
    label: &str,
    k: u64,
    rows: &[(String, Prob)],
    simulated: Option<(u64, u64)>,
    json: bool,
) -> io::Result<()> {
    if json {
        let items: Vec<String> = rows
            .iter()
            .map(|(n, p)| {
                let v = match p {
                    Prob::Exact(r) => format!("\"{}\"", r.to_plain_string()),
                    Prob::Observed(x) => json_f64(*x),
                };
                format!("{}: {v}", json_str(n))
            })
            .collect();
        let sim = simulated.map_or("null".into(), |(seed, n)| {
            format!("{{\"seed\": \"{seed}\", \"deals\": {n}}}")
        });
        return writeln!(
            out,
            "{{\"spec\": {}, \"k\": {k}, \"exact\": {}, \"simulated\": {sim}, \"gap_at_least\": {{{}}}}}",
            json_str(label),
            simulated.is_none(),
            items.join(", ")
        );
    }
    writeln!(out, "spec: {label}")?;
    match simulated {
        None => writeln!(out, "P(gap >= {k}), exact")?,
        Some((seed, n)) => writeln!(out, "P(gap >= {k}), simulated ({n} deals, seed {seed})")?,
    }
    for (n, p) in rows {
        match p {
            Prob::Exact(r) => {
                let f = r.to_plain_string();
                let f = if f.len() <= 40 {
                    f
                } else {
                    "(--json for the fraction)".into()
                };
                writeln!(out, "{n:<8} {}  {f}", small(r.to_f64()))?
            }
            Prob::Observed(x) => writeln!(out, "{n:<8} {}", small(*x))?,
        }
    }
    Ok(())
}

/// Prints `--tables`: the exact chain tables, then the counted ones.
pub(super) fn print_tables(
    out: &mut dyn Write,
    label: &str,
    seed: u64,
    opts: &TableOptions,
    exact: &Result<ExactTables, ExactError>,
    t: &StreamTables,
    json: bool,
) -> io::Result<()> {
    let hist = |h: &[(u64, u64)]| -> String {
        let v: Vec<String> = h
            .iter()
            .map(|(l, c)| format!("{{\"length\":{l},\"count\":{c}}}"))
            .collect();
        format!("[{}]", v.join(","))
    };
    if json {
        return writeln!(
            out,
            "{{\"spec\": {}, \"exact\": {}, \"seed\": \"{seed}\", \"deals\": {}, \"bagginess\": {}, \
             \"window\": {}, \"game_drought\": {{\"games\": {}, \"length\": {}, \"drought\": {}, \
             \"share\": {}}}, \"runs\": {}, \"set\": [{}], \"set_runs\": {}}}",
            json_str(label),
            exact_json(exact),
            t.deals,
            json_f64(t.bagginess),
            t.window,
            opts.games,
            opts.game_length,
            opts.drought,
            json_f64(t.game_drought),
            hist(&t.runs),
            opts.set
                .iter()
                .map(|s| json_str(s))
                .collect::<Vec<_>>()
                .join(","),
            hist(&t.set_runs)
        );
    }
    writeln!(out, "spec: {label}")?;
    exact_text(out, exact)?;
    writeln!(out, "counted: {} deals (seed {seed})", t.deals)?;
    writeln!(
        out,
        "bagginess: {:.6} of aligned windows of {} deals are permutations",
        t.bagginess, t.window
    )?;
    writeln!(
        out,
        "games of {} deals in which some piece waits {} or more: {:.4} ({} games)",
        opts.game_length, opts.drought, t.game_drought, opts.games
    )?;
    writeln!(
        out,
        "run length   same-piece runs   {} runs",
        opts.set.join("/")
    )?;
    let longest = t
        .runs
        .last()
        .map_or(0, |r| r.0)
        .max(t.set_runs.last().map_or(0, |r| r.0));
    let at = |h: &[(u64, u64)], l: u64| h.iter().find(|r| r.0 == l).map_or(0, |r| r.1);
    for l in 1..=longest.min(20) {
        writeln!(
            out,
            "{l:>10}   {:>15}   {:>8}",
            at(&t.runs, l),
            at(&t.set_runs, l)
        )?;
    }
    Ok(())
}

/// `--preview LIST` / `--early N`: the library's [`alea_blackjack::PreviewLaw`], one row per
/// deal after the shown pieces.
pub(super) fn preview(
    out: &mut dyn Write,
    label: &str,
    l: &alea_blackjack::PreviewLaw,
    json: bool,
) -> io::Result<()> {
    let first = l.shown.len() + 1;
    if json {
        let rows: Vec<String> = l
            .next
            .iter()
            .enumerate()
            .map(|(j, law)| {
                let items: Vec<String> = l
                    .pieces
                    .iter()
                    .zip(law)
                    .map(|(n, p)| format!("{}: \"{}\"", json_str(n), p.to_plain_string()))
                    .collect();
                format!(
                    "{{\"deal\": {}, \"law\": {{{}}}}}",
                    first + j,
                    items.join(", ")
                )
            })
            .collect();
        let shown: Vec<String> = l.shown.iter().map(|s| json_str(s)).collect();
        let start = match l.start {
            alea_blackjack::PreviewStart::Game => "game",
            alea_blackjack::PreviewStart::LongRun => "long-run",
        };
        return writeln!(
            out,
            "{{\"spec\": {}, \"start\": \"{start}\", \"shown\": [{}], \"probability_shown\": \"{}\", \"next\": [{}]}}",
            json_str(label),
            shown.join(","),
            l.probability_shown.to_plain_string(),
            rows.join(", ")
        );
    }
    writeln!(out, "spec: {label}")?;
    let long_run = l.start == alea_blackjack::PreviewStart::LongRun;
    if l.shown.is_empty() {
        writeln!(out, "early game, exact: P(deal t is the piece)")?;
    } else if long_run {
        writeln!(
            out,
            "far into a game, next shown: {} (probability {}), exact: P(deal t after them is \
             the piece | shown), t counted from the first shown",
            l.shown.join(","),
            l.probability_shown.to_plain_string()
        )?;
    } else {
        writeln!(
            out,
            "shown: {} (probability {}), exact: P(deal t is the piece | shown)",
            l.shown.join(","),
            l.probability_shown.to_plain_string()
        )?;
    }
    write!(out, "{:>4}", "t")?;
    for p in &l.pieces {
        write!(out, " {p:>9}")?;
    }
    writeln!(out)?;
    for (j, law) in l.next.iter().enumerate() {
        write!(out, "{:>4}", first + j)?;
        for p in law {
            write!(out, " {:>9.6}", p.to_f64())?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The table modes of `alea blackjack` (`--tables`, `--preview`/`--early`, `--gap-at-least`):
/// each calls the library once and formats its answer.
pub(super) fn run(
    args: &Args,
    target: &Source,
    opts: &ExactOptions,
    seed: u64,
    report_seed: &dyn Fn(),
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if args.tables {
        report_seed();
        let exact_opts = alea_blackjack::ExactTableOptions {
            exact: opts.clone(),
            piece: args.piece.clone(),
            ..Default::default()
        };
        let exact = {
            let _progress = crate::common::Progress::spinner("computing tables");
            alea_blackjack::exact_tables(target, &exact_opts)
        };
        if let Err(e @ ExactError::UnknownPiece { .. }) = &exact {
            return Err(exact_failure(e));
        }
        if let (Some(path), Ok(t)) = (&args.plot, &exact) {
            write_svg(path, &drought_svg(t))?;
        }
        let opts = alea_blackjack::TableOptions {
            deals: args.n.unwrap_or(1_000_000),
            ..Default::default()
        };
        let t = alea_blackjack::stream_tables(|s| target.randomizer(s), seed, &opts);
        let r = print_tables(out, &target.label(), seed, &opts, &exact, &t, args.json);
        return finish(r, out);
    }
    if args.preview.is_some() || args.early.is_some() {
        let text = args.preview.clone().unwrap_or_default();
        let shown: Vec<&str> = text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let ahead = args.early.unwrap_or(args.ahead);
        let from = if args.long_run {
            alea_blackjack::PreviewStart::LongRun
        } else {
            alea_blackjack::PreviewStart::Game
        };
        let l = alea_blackjack::preview_law_source(target, &shown, ahead, args.max_states, from)
            .map_err(|e| match e {
                alea_blackjack::PreviewError::UnknownPiece(_) => {
                    plain_failure(EXIT_USAGE, None, format!("--preview: {e}"))
                }
                alea_blackjack::PreviewError::Exact(e) => exact_failure(&e),
            })?;
        let r = preview(out, &target.label(), &l, args.json);
        return finish(r, out);
    }
    if let Some(k) = args.gap_at_least {
        let fallback = Fallback::Simulate {
            seed,
            deals: args.n.unwrap_or(1_000_000),
        };
        let g = alea_blackjack::gap_at_least_or_simulate(
            target,
            k,
            args.piece.as_deref(),
            opts,
            &fallback,
        )
        .map_err(|e| exact_failure(&e))?;
        if let (Some(e), Some((_, deals))) = (&g.why, g.simulated) {
            crate::common::eprint_plain(&Diagnostic::warning(format!(
                "no exact answer ({}: {e}); simulating {deals} deals",
                e.code()
            )));
            report_seed();
        }
        let (rows, simulated) = (g.rows, g.simulated);
        let r = gap_at_least(out, &target.label(), k, &rows, simulated, args.json);
        return finish(r, out);
    }
    unreachable!("called for a table mode only")
}
