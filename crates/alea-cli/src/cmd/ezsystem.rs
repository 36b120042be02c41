//! The system options of `alea ezscript` (ezscript.md §14): the tournament (`--data`), the
//! locale and zone, now, the field kind, `--player`, `--simulate`; and `alea ez check FILE`.
//!
//! The language's own options (`-e`, FILE, `--template`, `--json`, `--fuel`) live in
//! `ezscript.rs`, which flattens [`SystemArgs`] and hands the source to [`run_system`].

use crate::common;
use alea_core::{Diagnostic, Severity, SourceFile};
use alea_ezhost::{AlertError, Kind, Options, ScriptError, Session, SessionError};
use std::process::ExitCode;

/// `--kind`: the field kind a source is evaluated as.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KindArg {
    /// A content value (text); with `--template` a template.
    #[default]
    Content,
    /// A content, row or column condition (true/false; empty = true).
    Condition,
    /// An alert condition, or with `--template` its TTS text.
    Alert,
    /// The payout script (without a source: the file's `settings.payoutScript`).
    Payout,
    /// The points formula (without a source: the file's `settings.pointsFormula`).
    Points,
}

impl KindArg {
    fn kind(self) -> Kind {
        match self {
            KindArg::Content => Kind::Content,
            KindArg::Condition => Kind::Condition,
            KindArg::Alert => Kind::Alert,
            KindArg::Payout => Kind::Payout,
            KindArg::Points => Kind::Points,
        }
    }
}

/// The system options of `alea ezscript` (flattened into its `Args`).
#[derive(clap::Args, Debug, Default, Clone)]
pub struct SystemArgs {
    /// Field kind: content, condition, alert, payout or points.
    #[arg(long, value_enum, default_value_t = KindArg::Content)]
    pub kind: KindArg,
    /// Tournament file (JSON, tournament-data.md §3); default: an empty tournament.
    #[arg(long, value_name = "FILE")]
    pub data: Option<String>,
    /// Locale (BCP 47, e.g. de-DE); default: LC_ALL, LANG, else en-US.
    #[arg(long, value_name = "TAG")]
    pub locale: Option<String>,
    /// Time zone (IANA name); overrides the file's clock.timeZone.
    #[arg(long, value_name = "ZONE")]
    pub tz: Option<String>,
    /// Now: ms since the epoch or RFC 3339; overrides the file's clock.now.
    #[arg(long, value_name = "T")]
    pub now: Option<String>,
    /// Points: print only this player's points.
    #[arg(long, value_name = "ID")]
    pub player: Option<f64>,
    /// Run the clock N seconds and print every alert firing.
    #[arg(long, value_name = "N")]
    pub simulate: Option<u64>,
    /// A failing template insertion (empty text by the spec) is an error with exit status 1
    /// instead of a warning.
    #[arg(long)]
    pub strict: bool,
}

/// The example tournament (tournament-data.md §3), shown by the tour and the playground.
pub const EXAMPLE_TOURNAMENT: &str = include_str!("../../../../examples/ezscript/tournament.json");

/// Prints one line on stdout; false when stdout is gone (`alea ez … | head`), which ends the
/// output quietly instead of panicking like `println!`.
fn emit(line: &str) -> bool {
    use std::io::Write;
    let mut out = common::stdout();
    writeln!(out, "{line}").and_then(|()| out.flush()).is_ok()
}

/// A failure outside any script (unreadable or invalid file, unusable locale): status 1 (the
/// data failed) or 2 (usage), the message on stderr.
pub(crate) fn fail(status: u8, message: impl Into<String>) -> ExitCode {
    common::eprint_plain(&Diagnostic::error(message));
    ExitCode::from(status)
}

/// Reads a script or tournament file (`-` = stdin) without its UTF-8 byte order mark, which
/// editors on Windows put first: it is not part of the text (positions count from after it).
pub fn read_text(path: &str) -> Result<SourceFile, String> {
    let file = common::read_source(path)?;
    let text = alea_ezhost::without_bom(file.text());
    Ok(if text.len() == file.text().len() {
        file
    } else {
        SourceFile::new(file.name().to_string(), text.to_string())
    })
}

fn system_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64)
}

/// The host's zone: `TZ` when it names a zone, else UTC (the file's `clock.timeZone` and
/// `--tz` take precedence).
fn host_zone() -> String {
    match std::env::var("TZ") {
        Ok(z) if !z.trim().is_empty() && !z.starts_with(':') => z.trim().to_string(),
        _ => "UTC".into(),
    }
}

fn options(sys: &SystemArgs, fuel: Option<u64>) -> Result<Options, String> {
    let locale = match &sys.locale {
        Some(l) => l.clone(),
        None => alea_ezhost::locale_from_env(
            std::env::var("LC_ALL").ok().as_deref(),
            std::env::var("LANG").ok().as_deref(),
        ),
    };
    let host_time_zone = host_zone();
    let now = match &sys.now {
        None => None,
        Some(t) => Some(match t.trim().parse::<f64>() {
            Ok(ms) if ms.is_finite() => ms,
            _ => {
                let zone = sys.tz.clone().unwrap_or_else(|| host_time_zone.clone());
                alea_ezhost::parse_time(t.trim(), &zone).map_err(|e| format!("--now: {e}"))?
            }
        }),
    };
    Ok(Options {
        locale,
        time_zone: sys.tz.clone(),
        host_time_zone,
        now,
        host_now: system_now(),
        fuel,
        player: sys.player,
    })
}

/// Builds the session; prints the error and gives exit status 1 (invalid tournament file) or 2
/// (unusable locale or zone) on failure.
fn session(data: Option<&SourceFile>, options: Options) -> Result<Session, ExitCode> {
    match Session::new(data.map(SourceFile::text), options) {
        Ok(s) => Ok(s),
        Err(SessionError::Data(e)) => {
            let file = data
                .cloned()
                .unwrap_or_else(|| SourceFile::new("<data>", ""));
            let d = e.to_diagnostic(file.text());
            common::eprint_diagnostics(&file, &[d]);
            Err(common::failed())
        }
        Err(e) => Err(fail(common::EXIT_USAGE, e.to_string())),
    }
}

/// Runs a source (`Some((name, text))`; `None` for `--kind payout|points` without a source,
/// or `--simulate`) with the system options: prints the field's output (ezscript.md §14), the
/// errors on stderr, and returns 0 (ok), 1 (a script or the data failed) or 2 (usage error).
pub fn run_system(
    source: Option<(String, String)>,
    template: bool,
    json: bool,
    fuel: Option<u64>,
    sys: &SystemArgs,
) -> ExitCode {
    let data = match &sys.data {
        Some(path) => match read_text(path) {
            Ok(f) => Some(f),
            Err(e) => return fail(common::EXIT_FAILED, e),
        },
        None => None,
    };
    let options = match options(sys, fuel) {
        Ok(o) => o,
        Err(e) => return fail(common::EXIT_USAGE, e),
    };
    let session = match session(data.as_ref(), options) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(seconds) = sys.simulate {
        return simulate(&session, seconds, json, sys.strict);
    }
    let kind = sys.kind.kind();
    let settings = &session.state().data().settings;
    let file = match (&source, kind) {
        (Some((name, text)), _) => SourceFile::new(name.clone(), text.clone()),
        (None, Kind::Payout) => SourceFile::new(
            "settings.payoutScript",
            settings.payout_script.clone().unwrap_or_default(),
        ),
        (None, Kind::Points) => SourceFile::new(
            "settings.pointsFormula",
            settings.points_formula.clone().unwrap_or_default(),
        ),
        (None, _) => {
            return common::usage_error("give a script file, `-` for stdin, or -e SOURCE");
        }
    };
    let out = session.eval(kind, source.as_ref().map(|(_, t)| t.as_str()), template);
    // A failing insertion renders as empty text (ezscript.md §10), which templates rely on
    // (`{{ nextLevel.title }}` on the last level): a warning, an error only with --strict.
    let tolerated = |e: &ScriptError| template && !sys.strict && e.insertion.is_some();
    let failed = out.errors.iter().any(|e| !tolerated(e));
    let diags: Vec<Diagnostic> = out
        .errors
        .iter()
        .map(|e| {
            let mut d = e.diagnostic.clone();
            if tolerated(e) {
                d.severity = Severity::Warning;
            }
            d
        })
        .collect();
    if json {
        let mut value = out.to_json();
        value["ok"] = serde_json::Value::Bool(!failed);
        // The one diagnostic shape (docs/cli.md), plus the insertion a template error is in.
        let mut list = common::json_diagnostics(diags.iter().map(|d| (Some(&file), d)));
        if let Some(items) = list["diagnostics"].as_array_mut() {
            for (item, e) in items.iter_mut().zip(&out.errors) {
                item["insertion"] = serde_json::json!(e.insertion);
            }
        }
        value["diagnostics"] = list["diagnostics"].take();
        if let Some(obj) = value.as_object_mut() {
            obj.remove("errors");
        }
        emit(&value.to_string());
    } else {
        common::eprint_diagnostics(&file, &diags);
        let content_script_failed = kind == Kind::Content && !template && !out.ok;
        if !content_script_failed {
            emit(&out.text);
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn simulate(session: &Session, seconds: u64, json: bool, strict: bool) -> ExitCode {
    // A simulated week of a tournament with many alerts may take seconds: a spinner then.
    let report = match common::with_progress(
        || format!("simulating {seconds} s of the tournament"),
        || session.simulate(seconds),
    ) {
        Ok(r) => r,
        // The only failure is a --simulate beyond its limit: a usage error.
        Err(e) => return fail(common::EXIT_USAGE, e),
    };
    for f in &report.firings {
        let line = if json {
            f.to_json().to_string()
        } else {
            f.line()
        };
        if !emit(&line) {
            break;
        }
    }
    // A TTS text is a template: its failing insertions are empty text, warnings unless
    // --strict (as for `--template`).
    let tolerated = |e: &AlertError| e.field == "tts" && !strict;
    for e in &report.errors {
        let severity = if tolerated(e) { "warning" } else { "error" };
        eprintln!(
            "{severity}: alert {:?} {} (tick {}): {}",
            e.alert, e.field, e.tick, e.diagnostic.message
        );
    }
    if let Some(tick) = report.out_of_steps {
        eprintln!(
            "error: the simulation ran out of steps at tick {tick} (all its scripts together \
             may use {} steps)",
            alea_ezhost::MAX_SIMULATE_STEPS
        );
        return ExitCode::from(1);
    }
    if report.errors.iter().all(tolerated) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `alea ez check FILE`: validates the tournament file and every script field in it (payout
/// script, points formula, alert conditions and TTS texts), listing each failure with its
/// position in the file. Exit 0 when all work, 1 when a script fails or the file is invalid.
pub fn run_check(path: &str) -> ExitCode {
    let file = match read_text(path) {
        Ok(f) => f,
        Err(e) => return fail(common::EXIT_FAILED, e),
    };
    let options = match options(&SystemArgs::default(), None) {
        Ok(o) => o,
        Err(e) => return fail(common::EXIT_USAGE, e),
    };
    let session = match session(Some(&file), options) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let diags = session.check();
    common::eprint_diagnostics(&file, &diags);
    if diags.is_empty() {
        emit(&format!("{}: every script works", file.name()));
        ExitCode::SUCCESS
    } else {
        emit(&format!("{}: {} script error(s)", file.name(), diags.len()));
        ExitCode::from(1)
    }
}

/// The tour's tournament part: the example tournament (`examples/ezscript/tournament.json`)
/// through the same session as `alea ez --data`: templates in two locales, the payout script,
/// and the alert clock for half an hour. The file fixes its own now and zone, so the output
/// is the same on every machine.
pub fn tour_system(out: &mut dyn std::io::Write) -> std::io::Result<()> {
    const PATH: &str = "examples/ezscript/tournament.json";
    const STATUS: &str = "{{ title }}: {{ totalCollected.toCurrencyString }} collected, \
                          {{ currentPlayerCount }} players left";
    for locale in ["en-US", "de-DE"] {
        let options = Options {
            locale: locale.into(),
            ..Options::default()
        };
        let session = Session::new(Some(EXAMPLE_TOURNAMENT), options)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        writeln!(
            out,
            "$ alea ez --data {PATH} --locale {locale} --template -e '{STATUS}'"
        )?;
        writeln!(
            out,
            "{}",
            session.eval(Kind::Content, Some(STATUS), true).text
        )?;
        if locale != "en-US" {
            continue;
        }
        writeln!(out, "\n$ alea ez --data {PATH} --kind payout")?;
        writeln!(out, "{}", session.eval(Kind::Payout, None, false).text)?;
        writeln!(out, "\n$ alea ez --data {PATH} --simulate 1800")?;
        let report = session.simulate(1800).map_err(std::io::Error::other)?;
        for f in &report.firings {
            writeln!(out, "{}", f.line())?;
        }
        writeln!(out)?;
    }
    Ok(())
}
