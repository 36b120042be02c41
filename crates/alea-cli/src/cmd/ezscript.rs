//! `alea ezscript` (alias `alea ez`) and `alea repl ez`: run EZScript scripts and templates.
//!
//! The tournament data, locales, field kinds and the clock simulation (`--data`, `--locale`,
//! `--tz`, `--now`, `--kind`, `--simulate`) arrive with the next issue; until then scripts run
//! against an empty tournament whose `now()` is the system clock.

use crate::common::{self, Repl, ReplStep};
use alea_core::{Diagnostic, RenderOptions, SourceFile};
use alea_ezscript::{DEFAULT_FUEL, Env, Global, Host, Program, Template, with_stack};
use std::io::{self, Write};
use std::process::ExitCode;

/// Arguments of `alea ezscript`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Script file, or `-` for stdin.
    #[arg(value_name = "FILE", conflicts_with = "expr")]
    pub file: Option<String>,
    /// Run SOURCE instead of a file.
    #[arg(short = 'e', long = "expr", value_name = "SOURCE")]
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

/// What one evaluation produced, ready to print (computed on the big-stack thread).
struct Report {
    ok: bool,
    text: String,
    json_value: serde_json::Value,
    errors: Vec<(Diagnostic, Option<usize>)>,
}

fn evaluate(file: &SourceFile, template: bool, fuel: u64, now: f64) -> Report {
    let src = file.text().to_string();
    with_stack(move || {
        let host = CliHost { now };
        let env = Env {
            fuel,
            ..Env::with_host(&host)
        };
        if template {
            let t = Template::compile(&src);
            let out = t.render(&env);
            return Report {
                ok: out.errors.is_empty(),
                json_value: serde_json::Value::String(out.text.clone()),
                text: out.text,
                errors: out.errors.into_iter().zip(out.insertions).collect(),
            };
        }
        let program = match Program::compile(&src) {
            Ok(p) => p,
            Err(diags) => {
                return Report {
                    ok: false,
                    text: String::new(),
                    json_value: serde_json::Value::Null,
                    errors: diags.into_iter().map(|d| (d, None)).collect(),
                };
            }
        };
        match program.run_display(&env) {
            Ok(out) => {
                let mut budget = 1_000_000;
                let json_value = out
                    .value
                    .to_json_bounded(&mut budget)
                    .unwrap_or(serde_json::Value::String(out.text.clone()));
                Report {
                    ok: true,
                    text: out.text,
                    json_value,
                    errors: vec![],
                }
            }
            Err(e) => Report {
                ok: false,
                text: String::new(),
                json_value: serde_json::Value::Null,
                errors: vec![(e.to_diagnostic(), None)],
            },
        }
    })
}

/// Runs `alea ezscript`.
pub fn run(args: Args) -> ExitCode {
    let file = match (&args.expr, &args.file) {
        (Some(src), _) => SourceFile::new("<expr>", src.clone()),
        (None, Some(path)) => match common::read_source(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        (None, None) => {
            eprintln!("error: give a script file, `-` for stdin, or -e SOURCE");
            return ExitCode::from(2);
        }
    };
    let fuel = args.fuel.unwrap_or(DEFAULT_FUEL);
    let report = evaluate(&file, args.template, fuel, system_now());
    if args.json {
        let errors: Vec<serde_json::Value> = report
            .errors
            .iter()
            .map(|(d, insertion)| {
                let (line, column) = d.line_col(&file).unwrap_or((0, 0));
                serde_json::json!({
                    "message": d.message,
                    "insertion": insertion,
                    "line": line,
                    "column": column,
                })
            })
            .collect();
        let out = serde_json::json!({
            "ok": report.ok,
            "kind": "content",
            "value": report.json_value,
            "text": report.text,
            "errors": errors,
        });
        println!("{out}");
    } else {
        let diags: Vec<Diagnostic> = report.errors.iter().map(|(d, _)| d.clone()).collect();
        common::eprint_diagnostics(&file, &diags, RenderOptions::single_caret());
        if report.ok || args.template {
            println!("{}", report.text);
        }
    }
    if report.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
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
    Ok(())
}
