//! Compiling once and running many times: [`Program`] (a script) and [`Template`] (literal
//! text with `{{ }}` insertions).

use crate::code::Code;
use crate::compile;
use crate::format::{Formatter, InvariantFormatter};
use crate::host::{Host, NoHost};
use crate::interp::{Interp, RunError, SizeLimits};
use crate::ir::{Block, Name, Proto};
use crate::lexer::{Mode, Tok, lex};
use crate::parser::{self, parse};
use crate::resolve::Resolver;
use crate::value::Value;
use alea_core::{Diagnostic, Span};
use std::sync::Arc;

/// Steps a field may take (spec §11: about 10 ms of work).
pub const DEFAULT_FUEL: u64 = 250_000;
/// Steps of an alert condition or TTS text.
pub const ALERT_FUEL: u64 = 50_000;
/// Longest source accepted (64 KiB): `Script is too long`.
pub const MAX_SOURCE: usize = 64 * 1024;

/// What a run may use and see.
#[derive(Clone, Copy)]
pub struct Env<'a> {
    /// Globals, extra members, `now()` and the `was` snapshot.
    pub host: &'a dyn Host,
    /// The locale-dependent formatting properties.
    pub formatter: &'a dyn Formatter,
    /// Step budget.
    pub fuel: u64,
    /// Size and depth limits.
    pub limits: SizeLimits,
}

impl Default for Env<'_> {
    fn default() -> Self {
        Env {
            host: &NoHost,
            formatter: &InvariantFormatter,
            fuel: DEFAULT_FUEL,
            limits: SizeLimits::default(),
        }
    }
}

impl<'a> Env<'a> {
    /// The default budget and limits with this host.
    pub fn with_host(host: &'a dyn Host) -> Env<'a> {
        Env {
            host,
            ..Env::default()
        }
    }
}

impl RunError {
    /// As a diagnostic with its position.
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error(self.message.clone()).with_span(self.span)
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RunError {}

/// A compiled script: parse and resolve once, run many times against different hosts.
#[derive(Debug)]
pub struct Program {
    code: Code,
    protos: Vec<Arc<Proto>>,
    names: Vec<Name>,
    /// The text constants ([`crate::ir::Const::Text`]).
    texts: Vec<Name>,
}

/// The result of a run, with the value already displayed within the run's budget.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The script's value (its last statement's).
    pub value: Value,
    /// The value by the display rule.
    pub text: String,
    /// Steps used.
    pub steps: u64,
}

fn too_long(src: &str) -> Option<Diagnostic> {
    (src.len() > MAX_SOURCE)
        .then(|| Diagnostic::error("Script is too long").with_span(Span::point(0)))
}

fn finish(resolver: Resolver) -> Vec<Arc<Proto>> {
    resolver
        .protos
        .into_iter()
        .map(|p| {
            p.unwrap_or_else(|| {
                // Unreachable for a finished resolver; an empty function keeps us panic-free.
                Arc::new(Proto {
                    name: None,
                    params: vec![],
                    boxes_params: false,
                    slots: 0,
                    slot_names: vec![],
                    captures: vec![],
                    capture_names: vec![],
                    body: Block {
                        declares: false,
                        decls: vec![],
                        hoisted: vec![],
                        stmts: vec![],
                        tail: None,
                    },
                    code: Code::default(),
                    span: Span::default(),
                    origin: Arc::from(""),
                })
            })
        })
        .collect()
}

/// Parses a script into its syntax tree and the syntax errors (for tools and tests).
pub fn parse_script(src: &str) -> (crate::ast::Block, Vec<Diagnostic>) {
    let (tokens, _) = lex(src, 0, Mode::Code);
    parse(src, tokens)
}

impl Program {
    /// Compiles a script. Errors: `Script is too long`, syntax errors
    /// (`Syntax error at LINE:COLUMN: expected X, found Y`), `Nesting is too deep`,
    /// `break outside a loop`.
    pub fn compile(src: &str) -> Result<Program, Vec<Diagnostic>> {
        if let Some(d) = too_long(src) {
            return Err(vec![d]);
        }
        let (ast, mut diags) = parse_script(src);
        if !diags.is_empty() {
            return Err(diags);
        }
        let mut resolver = Resolver::new();
        resolver.origin = Arc::from(format!("script\n{src}"));
        resolver.fixed = crate::resolve::fixed_functions(&ast);
        let body = resolver.chunk(&ast);
        diags.append(&mut resolver.diags);
        if !diags.is_empty() {
            return Err(diags);
        }
        let names = resolver.script_frame().1;
        let texts = std::mem::take(&mut resolver.texts);
        Ok(Program {
            code: compile::chunk(&body),
            protos: finish(resolver),
            names,
            texts,
        })
    }

    /// Runs the script; its value is the last statement's.
    pub fn run(&self, env: &Env<'_>) -> Result<Value, RunError> {
        self.run_metered(env).0
    }

    /// [`Program::run`] that also returns the steps used, whether the run succeeded or failed,
    /// so a caller can charge many runs to one budget (`--simulate`).
    pub fn run_metered(&self, env: &Env<'_>) -> (Result<Value, RunError>, u64) {
        let mut it = Interp::new(
            &self.protos,
            &self.names,
            &self.texts,
            env.host,
            env.formatter,
            env.fuel,
            env.limits,
        );
        let result = it.run_chunk(&self.code);
        (result, env.fuel.saturating_sub(it.fuel))
    }

    /// Runs the script and displays its value within the same budget (a value can be a huge
    /// shared tree, so displaying it is work too).
    pub fn run_display(&self, env: &Env<'_>) -> Result<Outcome, RunError> {
        let mut it = Interp::new(
            &self.protos,
            &self.names,
            &self.texts,
            env.host,
            env.formatter,
            env.fuel,
            env.limits,
        );
        let value = it.run_chunk(&self.code)?;
        let text = match it.display(&value, Span::default()) {
            Ok(t) => t,
            Err(crate::interp::Flow::Err(e)) => return Err(*e),
            Err(_) => String::new(),
        };
        Ok(Outcome {
            value,
            text,
            steps: env.fuel - it.fuel,
        })
    }
}

/// One piece of a template.
#[derive(Debug)]
enum Part {
    Text(String),
    Insertion {
        /// `None` when the insertion has a syntax error (it renders empty).
        code: Option<Box<Code>>,
    },
}

/// A compiled template: literal text with `{{ script }}` insertions (spec §10).
#[derive(Debug)]
pub struct Template {
    parts: Vec<Part>,
    protos: Vec<Arc<Proto>>,
    names: Vec<Name>,
    /// The text constants ([`crate::ir::Const::Text`]).
    texts: Vec<Name>,
    /// Syntax errors (an unclosed `{{` makes the whole template invalid).
    pub diagnostics: Vec<Diagnostic>,
    /// For each of `diagnostics`, the 0-based insertion it belongs to (`None`: the template).
    pub diagnostic_insertions: Vec<Option<usize>>,
    invalid: bool,
}

/// A rendered template.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// The text (empty by the all-empty rule, or when the template is invalid).
    pub text: String,
    /// Every syntax and run-time error, in insertion order.
    pub errors: Vec<Diagnostic>,
    /// For each of `errors`, the 0-based insertion it comes from (`None`: the whole template).
    pub insertions: Vec<Option<usize>>,
}

impl Template {
    /// Compiles a template. Never fails: syntax errors are kept in `diagnostics` and the
    /// failing insertions render empty.
    pub fn compile(src: &str) -> Template {
        let mut t = Template {
            parts: Vec::new(),
            protos: Vec::new(),
            names: Vec::new(),
            texts: Vec::new(),
            diagnostics: Vec::new(),
            diagnostic_insertions: Vec::new(),
            invalid: false,
        };
        if let Some(d) = too_long(src) {
            t.diagnostics.push(d);
            t.diagnostic_insertions.push(None);
            t.invalid = true;
            return t;
        }
        let mut resolver = Resolver::new();
        resolver.origin = Arc::from(format!("template\n{src}"));
        let mut pos = 0;
        while pos < src.len() {
            let Some(open) = src[pos..].find("{{").map(|i| i + pos) else {
                t.parts.push(Part::Text(src[pos..].to_string()));
                break;
            };
            if open > pos {
                t.parts.push(Part::Text(src[pos..open].to_string()));
            }
            let (tokens, end) = lex(src, open + 2, Mode::Insertion);
            if tokens.last().map(|t| &t.tok) != Some(&Tok::InsertEnd) {
                let (line, col) = parser::line_col(src, open);
                t.diagnostics.push(
                    Diagnostic::error(format!(
                        "Syntax error at {line}:{col}: expected }}}} to close this {{{{"
                    ))
                    .with_span(Span::new(open, open + 2)),
                );
                t.diagnostic_insertions.push(None);
                t.invalid = true;
                break;
            }
            let (ast, diags) = parse(src, tokens);
            let index = t
                .parts
                .iter()
                .filter(|p| matches!(p, Part::Insertion { .. }))
                .count();
            let code = if diags.is_empty() {
                let block = resolver.chunk(&ast);
                if resolver.diags.is_empty() {
                    Some(Box::new(compile::chunk(&block)))
                } else {
                    t.diagnostic_insertions
                        .extend(resolver.diags.iter().map(|_| Some(index)));
                    t.diagnostics.append(&mut resolver.diags);
                    None
                }
            } else {
                t.diagnostic_insertions
                    .extend(diags.iter().map(|_| Some(index)));
                t.diagnostics.extend(diags);
                None
            };
            t.parts.push(Part::Insertion { code });
            pos = end;
        }
        t.names = resolver.script_frame().1;
        t.texts = std::mem::take(&mut resolver.texts);
        t.protos = finish(resolver);
        t
    }

    /// Whether the template has at least one `{{ }}`.
    pub fn has_insertions(&self) -> bool {
        self.parts
            .iter()
            .any(|p| matches!(p, Part::Insertion { .. }))
    }

    /// Renders: insertions run left to right in one scope on one budget; an insertion that
    /// fails, yields nothing or yields `""` is empty; if all are empty the result is `""`.
    pub fn render(&self, env: &Env<'_>) -> Rendered {
        self.render_metered(env).0
    }

    /// [`Template::render`] that also returns the steps its insertions used (see
    /// [`Program::run_metered`]).
    pub fn render_metered(&self, env: &Env<'_>) -> (Rendered, u64) {
        let mut errors = self.diagnostics.clone();
        let mut insertions_of_errors = self.diagnostic_insertions.clone();
        if self.invalid {
            let rendered = Rendered {
                text: String::new(),
                errors,
                insertions: insertions_of_errors,
            };
            return (rendered, 0);
        }
        let mut it = Interp::new(
            &self.protos,
            &self.names,
            &self.texts,
            env.host,
            env.formatter,
            env.fuel,
            env.limits,
        );
        let mut text = String::new();
        let mut insertions = 0;
        let mut non_empty = 0;
        for part in &self.parts {
            match part {
                Part::Text(s) => text.push_str(s),
                Part::Insertion { code } => {
                    insertions += 1;
                    let Some(code) = code else { continue };
                    let shown = it.run_chunk(code).and_then(|v| match v {
                        Value::Nothing => Ok(String::new()),
                        v => it.display(&v, Span::default()).map_err(|e| match e {
                            crate::interp::Flow::Err(e) => *e,
                            _ => RunError {
                                message: "break outside a loop".into(),
                                span: Span::default(),
                            },
                        }),
                    });
                    match shown {
                        Ok(s) => {
                            if !s.is_empty() {
                                non_empty += 1;
                                text.push_str(&s);
                            }
                        }
                        Err(e) => {
                            errors.push(e.to_diagnostic());
                            insertions_of_errors.push(Some(insertions - 1));
                        }
                    }
                }
            }
        }
        if insertions > 0 && non_empty == 0 {
            text.clear();
        }
        let rendered = Rendered {
            text,
            errors,
            insertions: insertions_of_errors,
        };
        (rendered, env.fuel.saturating_sub(it.fuel))
    }
}
