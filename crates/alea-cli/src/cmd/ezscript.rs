//! `alea ezscript` (alias `alea ez`) and `alea repl ez`: run EZScript scripts and templates.
//!
//! A script runs as a field of a tournament (`alea_ezhost::Session`): the system options
//! (`--data`, `--locale`, `--tz`, `--now`, `--kind`, `--player`, `--simulate`, `--strict`) and
//! `alea ez check FILE` live in `ezsystem.rs`; without `--data` the tournament is empty and
//! `now()` is the system clock.
//!
//! `check` is a subcommand, so a script file literally named `check` runs as `alea ez ./check`.

use crate::common::{self, Repl, ReplStep};
use alea_core::{Diagnostic, RenderOptions, SourceFile};
use alea_ezscript::{DEFAULT_FUEL, Env, Global, Host, Program, Template};
use std::io::{self, Write};
use std::process::ExitCode;

/// Arguments of `alea ezscript`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    /// `check FILE`: validate every script of a tournament file.
    #[command(subcommand)]
    pub action: Option<Action>,
    /// Script file, or `-` for stdin.
    #[arg(value_name = "FILE", conflicts_with = "expr")]
    pub file: Option<String>,
    /// Run SOURCE instead of a file (it may start with `-`: `-e '-20'`).
    #[arg(
        short = 'e',
        long = "expr",
        value_name = "SOURCE",
        allow_hyphen_values = true
    )]
    pub expr: Option<String>,
    /// The source is a template: literal text with `{{ script }}` insertions.
    #[arg(long)]
    pub template: bool,
    /// Print `{"ok", "kind", "value", "text", "errors"}` as JSON.
    #[arg(long)]
    pub json: bool,
    /// Step budget (default 250000, about 10 ms of work).
    #[arg(long, value_name = "N")]
    pub fuel: Option<u64>,
    /// The tournament, locale, field kind and clock options.
    #[command(flatten)]
    pub system: super::ezsystem::SystemArgs,
}

/// The subcommands of `alea ezscript` (a script file named like one: `alea ez ./check`).
#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// Run every script of a tournament file (payout script, points formula, each alert's
    /// condition and TTS text) and list each failure with its position in the file.
    Check {
        /// The tournament file (JSON).
        #[arg(value_name = "FILE")]
        file: String,
    },
}

/// The CLI's host: no tournament names yet, `now()` from the system clock.
struct CliHost {
    now: f64,
}

impl Host for CliHost {
    fn global(&self, _name: &str) -> Global {
        Global::Unknown
    }
    fn now(&self) -> Option<f64> {
        Some(self.now)
    }
}

fn system_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64)
}

/// What one evaluation produced, ready to print.
struct Report {
    ok: bool,
    text: String,
    errors: Vec<(Diagnostic, Option<usize>)>,
}

fn evaluate(file: &SourceFile, template: bool, fuel: u64, now: f64) -> Report {
    let src = file.text();
    {
        let host = CliHost { now };
        let env = Env {
            fuel,
            ..Env::with_host(&host)
        };
        if template {
            let t = Template::compile(src);
            let out = t.render(&env);
            return Report {
                ok: out.errors.is_empty(),
                text: out.text,
                errors: out.errors.into_iter().zip(out.insertions).collect(),
            };
        }
        let program = match Program::compile(src) {
            Ok(p) => p,
            Err(diags) => {
                return Report {
                    ok: false,
                    text: String::new(),
                    errors: diags.into_iter().map(|d| (d, None)).collect(),
                };
            }
        };
        match program.run_display(&env) {
            Ok(out) => Report {
                ok: true,
                text: out.text,
                errors: vec![],
            },
            Err(e) => Report {
                ok: false,
                text: String::new(),
                errors: vec![(e.to_diagnostic(), None)],
            },
        }
    }
}

/// Runs `alea ezscript`: the source (`-e`, FILE or stdin) as a field of the tournament, or
/// `check FILE`.
pub fn run(args: Args) -> ExitCode {
    use super::ezsystem::{KindArg, read_text, run_check, run_system};
    use alea_ezhost::without_bom;
    if let Some(Action::Check { file }) = &args.action {
        return run_check(file);
    }
    let sys = &args.system;
    // The clock and the file's own payout script / points formula need no source.
    let needs_no_source = sys.simulate.is_some()
        || (matches!(sys.kind, KindArg::Payout | KindArg::Points)
            && args.expr.is_none()
            && args.file.is_none());
    let source = if needs_no_source {
        None
    } else {
        match (&args.expr, &args.file) {
            (Some(src), _) => Some(("<expr>".to_string(), without_bom(src).to_string())),
            (None, Some(path)) => match read_text(path) {
                Ok(f) => Some((f.name().to_string(), f.text().to_string())),
                Err(e) => return super::ezsystem::fail(crate::common::EXIT_FAILED, e),
            },
            (None, None) => None,
        }
    };
    run_system(source, args.template, args.json, args.fuel, sys)
}

const REPL_HELP: &str = "\
EZScript REPL: type statements; the value of the last one is printed.
Names you assign stay defined for later lines. Multi-line input continues while brackets
are open. :quit or Ctrl-D leaves. Reference: docs/ezscript.md";

/// Brackets opened and not closed (texts and comments skipped), to know when input continues.
fn open_brackets(src: &str) -> i64 {
    let mut depth = 0i64;
    let mut in_text = false;
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if in_text => {
                chars.next();
            }
            '"' => in_text = !in_text,
            '/' if !in_text && chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' | '[' | '{' if !in_text => depth += 1,
            ')' | ']' | '}' if !in_text => depth -= 1,
            _ => {}
        }
    }
    if in_text { depth + 1 } else { depth }
}

/// `alea repl ez`: each input runs after the inputs accepted before it (scripts have no side
/// effects, so re-running them restores their names).
pub fn repl() -> ExitCode {
    let mut history: Vec<String> = Vec::new();
    common::run_repl(Repl {
        name: "ez",
        help: REPL_HELP,
        handle: Box::new(move |input: &str| {
            if open_brackets(input) > 0 {
                return ReplStep::Incomplete;
            }
            // Syntax errors belong to the input and their messages name a line and column:
            // check the input alone, so positions count from its own start, not from the
            // accepted inputs it runs after.
            if let Err(diags) = Program::compile(input) {
                let shown = SourceFile::new("<repl>", input.to_string());
                let out: String = diags
                    .iter()
                    .map(|d| d.render_with(&shown, RenderOptions::single_caret()))
                    .collect();
                return ReplStep::Done(out);
            }
            let mut src = history.join("\n");
            src.push('\n');
            let offset = src.len();
            src.push_str(input);
            let file = SourceFile::new("<repl>", src);
            let report = evaluate(&file, false, DEFAULT_FUEL * 10, system_now());
            if report.ok {
                history.push(input.to_string());
                return ReplStep::Done(report.text);
            }
            let mut out = String::new();
            let shown = SourceFile::new("<repl>", input.to_string());
            for (d, _) in &report.errors {
                let mut d = d.clone();
                d.span = d.span.and_then(|s| {
                    (s.start as usize >= offset).then(|| {
                        alea_core::Span::new(s.start as usize - offset, s.end as usize - offset)
                    })
                });
                out.push_str(&d.render_with(&shown, RenderOptions::single_caret()));
            }
            ReplStep::Done(out)
        }),
    })
}

/// The examples `alea tour` runs: (title, source, is a template).
pub const TOUR: &[(&str, &str, bool)] = &[
    (
        "every number is a decimal",
        "totalBuyIns = 12\ntotalBuyIns / 5",
        false,
    ),
    (
        "if is an expression",
        "totalBuyIns = 24\nif totalBuyIns < 10 { [100, 60, 40] }\nelse if totalBuyIns < 17 { [150, 90, 60] }\nelse { [180, 110, 70, 40] }",
        false,
    ),
    (
        "functions, closures and list methods",
        "func toName(p) { p.name }\nplayers = [{name: \"Dana\", ko: 3.5}, {name: \"Mia\", ko: 2}, {name: \"Tom\", ko: 1.5}]\nplayers.sort(func(p) { -p.ko }).map(toName).join(\", \", \", and \")",
        false,
    ),
    (
        "loops",
        "s = \"\"\nfor i, x in [\"a\", \"b\", \"c\"] { s += i.toString + \"=\" + x + \";\" }\ns",
        false,
    ),
    (
        "a template",
        "Level {{ n = 7; n }} of {{ 18 }}, {{ (746 * 1000).toCompactTimeDurationString }} left, {{ 3.withOrdinalSuffix }} place",
        true,
    ),
    ("errors say what is wrong", "if 1 { 2 }", false),
];

/// Runs the built-in examples of the language for `alea tour`.
pub fn tour(out: &mut dyn Write) -> io::Result<()> {
    for (title, src, template) in TOUR {
        writeln!(out, "# {title}")?;
        for line in src.lines() {
            writeln!(out, "  {line}")?;
        }
        let file = SourceFile::new("<tour>", src.to_string());
        let report = evaluate(&file, *template, DEFAULT_FUEL, 1753035300000.0);
        if report.ok {
            writeln!(out, "  => {}", report.text)?;
        } else {
            for (d, _) in &report.errors {
                write!(
                    out,
                    "  => {}",
                    d.render_with(&file, RenderOptions::single_caret())
                )?;
            }
        }
    }
    writeln!(out, "# the example tournament")?;
    super::ezsystem::tour_system(out)
}
