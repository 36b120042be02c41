//! The one diagnostic type and its one renderer.
//!
//! Every language builds [`Diagnostic`]s; only [`Diagnostic::render`] (and its coloured twin
//! [`Diagnostic::render_styled`]) turns them into text, so every `alea` command reports errors
//! the same way, rustc's way:
//!
//! ```text
//! FILE:LINE:COL: error[CODE]: message
//! <source line, verbatim>
//! <spaces, tabs kept, up to COL>^
//!   = note: …
//!   = help: …
//! ```
//!
//! The one exception is the drop-in `dicelab` binary, whose output must stay byte-identical to
//! dicelab 0.7 (no severity word): [`RenderOptions::bare`]. [`Diagnostic::json`] is the one JSON
//! shape of a diagnostic (`--json` of every command prints `{"diagnostics": [...]}` of these).

use crate::{SourceFile, Span};
use anstyle::{AnsiColor, Color, Style};
use serde::Serialize;
use std::fmt;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Stops the program (or the statement) from running.
    Error,
    /// Reported, but the program still runs.
    Warning,
    /// Extra information.
    Note,
}

impl Severity {
    /// `error`, `warning` or `note`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A secondary position attached to a diagnostic ("the `(` opened here").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What is there.
    pub message: String,
}

/// An error, warning or note about a program, with its position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// How serious.
    pub severity: Severity,
    /// A stable code such as `E03`, when the language defines codes.
    pub code: Option<String>,
    /// The main message, one line, no trailing period unless the language's reference has one.
    pub message: String,
    /// The primary position; `None` for errors about the program as a whole.
    pub span: Option<Span>,
    /// Secondary positions.
    pub labels: Vec<Label>,
    /// Extra lines printed as `= note: …`.
    pub notes: Vec<String>,
    /// A suggestion printed as `= help: …`.
    pub help: Option<String>,
}

/// Choices for the compatibility formats; [`RenderOptions::default`] is the one format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Print `FILE:LINE:COL: ` before the message (when the diagnostic has a span).
    pub location: bool,
    /// Print the severity word (`error: `, `warning: `) before the message.
    pub severity: bool,
    /// Print `[CODE]` after the severity word when there is a code.
    pub code: bool,
    /// Print the source line and caret.
    pub snippet: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            location: true,
            severity: true,
            code: true,
            snippet: true,
        }
    }
}

impl RenderOptions {
    /// `FILE:LINE:COL: message`: the format of dicelab 0.7, whose messages carry their own
    /// kind (`syntax error: …`). Only the drop-in `dicelab` binary uses it.
    pub fn bare() -> Self {
        RenderOptions {
            severity: false,
            code: false,
            ..Self::default()
        }
    }

    /// The one format, the same as [`RenderOptions::default`] (the name is kept for callers
    /// written when the languages had different formats).
    pub fn single_caret() -> Self {
        Self::default()
    }
}

/// The JSON form of one diagnostic: the shape every `--json` prints inside
/// `{"diagnostics": [...]}`. Positions are 1-based (columns count characters); they are `null`
/// for a diagnostic without a span or without a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonDiagnostic {
    /// `error`, `warning` or `note`.
    pub severity: Severity,
    /// The language's stable code, when it has one.
    pub code: Option<String>,
    /// The message.
    pub message: String,
    /// The file name (`<expr>`, `<stdin>`, a path), when the diagnostic is about a program text.
    pub file: Option<String>,
    /// Line of the primary span.
    pub line: Option<usize>,
    /// Column of the primary span.
    pub col: Option<usize>,
    /// Line of the end of the primary span.
    pub end_line: Option<usize>,
    /// Column just past the end of the primary span.
    pub end_col: Option<usize>,
    /// Byte offsets `[start, end)` of the primary span.
    pub span: Option<[u32; 2]>,
    /// Notes (`= note:` lines).
    pub notes: Vec<String>,
    /// The suggestion (`= help:` line).
    pub help: Option<String>,
    /// The plain rendering, exactly what the command prints on stderr without `--json`.
    pub rendered: String,
}

impl Diagnostic {
    /// A new diagnostic without position.
    pub fn new(severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            code: None,
            message: message.into(),
            span: None,
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// An error.
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, message)
    }

    /// A warning.
    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, message)
    }

    /// Sets the primary position.
    pub fn with_span(mut self, span: Span) -> Diagnostic {
        self.span = Some(span);
        self
    }

    /// Sets the code.
    pub fn with_code(mut self, code: impl Into<String>) -> Diagnostic {
        self.code = Some(code.into());
        self
    }

    /// Adds a secondary position.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a note line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// 1-based line and column of the primary span in `file`.
    pub fn line_col(&self, file: &SourceFile) -> Option<(usize, usize)> {
        self.span.map(|s| file.line_col(s.start as usize))
    }

    /// The one format: `FILE:LINE:COL: error[CODE]: message`, the source line and a caret,
    /// then `= note:` and `= help:` lines. The result ends with a newline.
    pub fn render(&self, file: &SourceFile) -> String {
        self.render_with(file, RenderOptions::default())
    }

    /// [`Diagnostic::render`] with ANSI colours (rustc's: bold red `error`, yellow `warning`,
    /// blue caret and `=`), for a terminal. Stripping the escapes gives exactly
    /// [`Diagnostic::render`]; the CLI writes through a stream that strips them when the output
    /// is not a terminal or `NO_COLOR` is set.
    pub fn render_styled(&self, file: &SourceFile) -> String {
        self.render_inner(Some(file), RenderOptions::default(), true)
    }

    /// A compatibility format (only [`RenderOptions::bare`] is in use). Ends with a newline.
    pub fn render_with(&self, file: &SourceFile, opts: RenderOptions) -> String {
        self.render_inner(Some(file), opts, false)
    }

    /// The JSON form (the one shape of `--json`); `file` is the program the span points into,
    /// `None` for an error about no program text (a missing file, an unknown preset).
    pub fn json(&self, file: Option<&SourceFile>) -> JsonDiagnostic {
        let at = |offset: u32| file.map(|f| f.line_col(offset as usize));
        let start = self.span.and_then(|s| at(s.start));
        let end = self.span.and_then(|s| at(s.end));
        JsonDiagnostic {
            severity: self.severity,
            code: self.code.clone(),
            message: self.message.clone(),
            file: file.map(|f| f.name().to_string()),
            line: start.map(|p| p.0),
            col: start.map(|p| p.1),
            end_line: end.map(|p| p.0),
            end_col: end.map(|p| p.1),
            span: self.span.map(|s| [s.start, s.end]),
            notes: self.notes.clone(),
            help: self.help.clone(),
            rendered: self.render_inner(file, RenderOptions::default(), false),
        }
    }

    fn render_inner(&self, file: Option<&SourceFile>, opts: RenderOptions, color: bool) -> String {
        let paint = |style: Style, text: &str| -> String {
            if color {
                format!("{style}{text}{style:#}")
            } else {
                text.to_string()
            }
        };
        let mut out = String::new();
        if let (true, Some(span), Some(file)) = (opts.location, self.span, file) {
            let (line, col) = file.line_col(span.start as usize);
            out.push_str(&paint(BOLD, &format!("{}:{}:{}:", file.name(), line, col)));
            out.push(' ');
        }
        if opts.severity {
            let mut word = self.severity.as_str().to_string();
            if let (true, Some(code)) = (opts.code, &self.code) {
                word.push_str(&format!("[{code}]"));
            }
            word.push(':');
            out.push_str(&paint(severity_style(self.severity), &word));
            out.push(' ');
        }
        out.push_str(&paint(BOLD, &self.message));
        out.push('\n');
        if let (true, Some(span), Some(file)) = (opts.snippet, self.span, file) {
            let (text, pad) = snippet(file, span);
            out.push_str(text);
            out.push('\n');
            out.push_str(&pad);
            out.push_str(&paint(ACCENT, "^"));
            out.push('\n');
        }
        let eq = paint(ACCENT, "=");
        if let Some(file) = file {
            for label in &self.labels {
                let (line, col) = file.line_col(label.span.start as usize);
                out.push_str(&format!("  {eq} note: {line}:{col}: {}\n", label.message));
            }
        }
        for note in &self.notes {
            out.push_str(&format!("  {eq} note: {note}\n"));
        }
        if let Some(help) = &self.help {
            out.push_str(&format!("  {eq} help: {help}\n"));
        }
        out
    }
}

/// `error[E03]: message` (no position: that needs the [`SourceFile`], see
/// [`Diagnostic::render`]).
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.severity.as_str())?;
        if let Some(code) = &self.code {
            write!(f, "[{code}]")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for Diagnostic {}

const BOLD: Style = Style::new().bold();
const ACCENT: Style = Style::new()
    .bold()
    .fg_color(Some(Color::Ansi(AnsiColor::BrightBlue)));

fn severity_style(s: Severity) -> Style {
    let color = match s {
        Severity::Error => AnsiColor::BrightRed,
        Severity::Warning => AnsiColor::BrightYellow,
        Severity::Note => AnsiColor::BrightGreen,
    };
    Style::new().bold().fg_color(Some(Color::Ansi(color)))
}

/// The source line holding `span.start`, verbatim, and the whitespace before the caret, which
/// copies the line's TABs so the caret lines up in any terminal.
fn snippet(file: &SourceFile, span: Span) -> (&str, String) {
    let start = span.start as usize;
    let text = file.line_text(file.line_index(start));
    let (_, col) = file.line_col(start);
    let pad = text
        .chars()
        .take(col - 1)
        .map(|ch| if ch == '\t' { '\t' } else { ' ' })
        .collect();
    (text, pad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_format_matches_dicelab() {
        let f = SourceFile::new("<stdin>", "2d6");
        let d = Diagnostic::error("syntax error: unexpected 'd', expected ';' or end of input")
            .with_span(Span::new(1, 2));
        assert_eq!(
            d.render_with(&f, RenderOptions::bare()),
            "<stdin>:1:2: syntax error: unexpected 'd', expected ';' or end of input\n2d6\n ^\n"
        );
    }

    #[test]
    fn tabs_are_kept_in_the_caret_line() {
        let f = SourceFile::new("f.ohf", "x\n\t\t1 + @");
        let d = Diagnostic::error("unexpected character '@'").with_span(Span::new(8, 9));
        assert_eq!(
            d.render_with(&f, RenderOptions::single_caret()),
            "f.ohf:2:7: error: unexpected character '@'\n\t\t1 + @\n\t\t    ^\n"
        );
    }

    #[test]
    fn default_format_has_code_caret_note_and_help() {
        let f = SourceFile::new("spec", "history 7 rolls 4 of [I J L]");
        let d = Diagnostic::error("history length 7 needs at least 8 distinct list entries")
            .with_code("E03")
            .with_span(Span::new(8, 9))
            .with_label(Span::new(21, 28), "the list")
            .with_help("use `rolls` or a shorter history");
        assert_eq!(
            d.render(&f),
            "spec:1:9: error[E03]: history length 7 needs at least 8 distinct list entries\n\
             history 7 rolls 4 of [I J L]\n        ^\n  = note: 1:22: the list\n\
             \x20 = help: use `rolls` or a shorter history\n"
        );
    }

    #[test]
    fn spanless_and_end_of_input() {
        let f = SourceFile::new("<expr>", "1 +");
        let d = Diagnostic::warning("whole-program problem");
        assert_eq!(d.render(&f), "warning: whole-program problem\n");
        let d = Diagnostic::error("expected an operand").with_span(Span::point(3));
        assert_eq!(
            d.render(&f),
            "<expr>:1:4: error: expected an operand\n1 +\n   ^\n"
        );
    }

    #[test]
    fn styled_is_plain_plus_escapes() {
        let f = SourceFile::new("<expr>", "1 +\n\t2 @");
        let d = Diagnostic::error("unexpected character '@'")
            .with_code("E1")
            .with_span(Span::new(7, 8))
            .with_help("remove it");
        let styled = d.render_styled(&f);
        assert!(styled.contains("\x1b["), "{styled:?}");
        let mut plain = String::new();
        let mut in_escape = false;
        for ch in styled.chars() {
            match (in_escape, ch) {
                (false, '\x1b') => in_escape = true,
                (false, c) => plain.push(c),
                (true, 'm') => in_escape = false,
                (true, _) => {}
            }
        }
        assert_eq!(plain, d.render(&f));
        assert_eq!(
            plain,
            "<expr>:2:4: error[E1]: unexpected character '@'\n\t2 @\n\t  ^\n  = help: remove it\n"
        );
    }

    #[test]
    fn display_and_error() {
        let d = Diagnostic::error("bad spec").with_code("E01");
        assert_eq!(d.to_string(), "error[E01]: bad spec");
        let e: Box<dyn std::error::Error> = Box::new(Diagnostic::warning("w"));
        assert_eq!(e.to_string(), "warning: w");
    }

    #[test]
    fn json_shape() {
        let f = SourceFile::new("<expr>", "ab\ncd e");
        let d = Diagnostic::error("no")
            .with_span(Span::new(3, 5))
            .with_note("n");
        let v = serde_json::to_value(d.json(Some(&f))).unwrap();
        assert_eq!(
            v,
            serde_json::json!({
                "severity": "error", "code": null, "message": "no", "file": "<expr>",
                "line": 2, "col": 1, "end_line": 2, "end_col": 3, "span": [3, 5],
                "notes": ["n"], "help": null,
                "rendered": "<expr>:2:1: error: no\ncd e\n^\n  = note: n\n"
            })
        );
        let v = serde_json::to_value(Diagnostic::error("gone").json(None)).unwrap();
        assert_eq!(v["line"], serde_json::Value::Null);
        assert_eq!(v["file"], serde_json::Value::Null);
        assert_eq!(v["rendered"], "error: gone\n");
    }
}
