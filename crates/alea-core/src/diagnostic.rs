//! The one diagnostic type and its one renderer.
//!
//! Every language builds [`Diagnostic`]s; only [`Diagnostic::render`] turns them into text. The
//! languages' reference documents differ in small ways (dicelab 0.7 prints no severity word,
//! OpenHoldem prints `error:`, Blackjack prints `error[E03]:` without a position), so the
//! renderer takes [`RenderOptions`] instead of each language writing its own.
//!
//! The layout is:
//!
//! ```text
//! FILE:LINE:COL: error[CODE]: message
//! <source line, verbatim>
//! <spaces, tabs kept, up to COL>^^^
//!   = note: …
//!   = help: …
//! ```

use crate::{SourceFile, Span};
use serde::Serialize;

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

/// Choices that differ between the languages' reference formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Print `FILE:LINE:COL: ` before the message (when the diagnostic has a span).
    pub location: bool,
    /// Print the severity word (`error: `, `warning: `) before the message.
    pub severity: bool,
    /// Print `[CODE]` after the severity word when there is a code.
    pub code: bool,
    /// Underline the whole span with `^^^`; otherwise a single `^` at its start.
    pub underline_span: bool,
    /// Print the source line and caret.
    pub snippet: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            location: true,
            severity: true,
            code: true,
            underline_span: true,
            snippet: true,
        }
    }
}

impl RenderOptions {
    /// `FILE:LINE:COL: message`, one `^`: the format of dicelab, whose messages carry their own
    /// kind (`syntax error: …`).
    pub fn bare() -> Self {
        RenderOptions {
            severity: false,
            code: false,
            underline_span: false,
            ..Self::default()
        }
    }

    /// `FILE:LINE:COL: error: message`, one `^` (OpenHoldem).
    pub fn single_caret() -> Self {
        RenderOptions {
            underline_span: false,
            ..Self::default()
        }
    }
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

    /// Renders with the default options (`FILE:LINE:COL: error[CODE]: message`, snippet, `^^^`).
    pub fn render(&self, file: &SourceFile) -> String {
        self.render_with(file, RenderOptions::default())
    }

    /// The one renderer. The result ends with a newline.
    pub fn render_with(&self, file: &SourceFile, opts: RenderOptions) -> String {
        let mut out = String::new();
        if let (true, Some(span)) = (opts.location, self.span) {
            let (line, col) = file.line_col(span.start as usize);
            out.push_str(&format!("{}:{}:{}: ", file.name(), line, col));
        }
        if opts.severity {
            out.push_str(self.severity.as_str());
            if let (true, Some(code)) = (opts.code, &self.code) {
                out.push_str(&format!("[{code}]"));
            }
            out.push_str(": ");
        }
        out.push_str(&self.message);
        out.push('\n');
        if let (true, Some(span)) = (opts.snippet, self.span) {
            push_snippet(&mut out, file, span, opts.underline_span);
        }
        for label in &self.labels {
            let (line, col) = file.line_col(label.span.start as usize);
            out.push_str(&format!("  = note: {}:{}: {}\n", line, col, label.message));
        }
        for note in &self.notes {
            out.push_str(&format!("  = note: {note}\n"));
        }
        if let Some(help) = &self.help {
            out.push_str(&format!("  = help: {help}\n"));
        }
        out
    }
}

/// The source line holding `span.start`, verbatim, and a caret line under it whose leading
/// whitespace copies the line's TABs so the caret lines up in any terminal.
fn push_snippet(out: &mut String, file: &SourceFile, span: Span, underline: bool) {
    let start = span.start as usize;
    let line = file.line_index(start);
    let text = file.line_text(line);
    let (_, col) = file.line_col(start);
    out.push_str(text);
    out.push('\n');
    for ch in text.chars().take(col - 1) {
        out.push(if ch == '\t' { '\t' } else { ' ' });
    }
    let width = if underline {
        // Underline up to the end of the span or of the line, whichever comes first.
        let on_line = text.chars().count().saturating_sub(col - 1);
        file.slice(span).chars().count().min(on_line).max(1)
    } else {
        1
    };
    out.push_str(&"^".repeat(width));
    out.push('\n');
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
    fn default_format_has_code_underline_note_and_help() {
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
}
