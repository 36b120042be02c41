//! The checked form of a spec, its errors and its canonical printing (spec §4).

use alea_core::{Diagnostic, Span};
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// A static error (spec §3): a code `E01`…`E08`, the reference message, a byte span
/// `[start, end)` (empty at end of input) and a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// `E01` … `E08`.
    pub code: &'static str,
    /// The message, in the spec's reference wording.
    pub message: String,
    /// Byte range in the source.
    pub span: Range<usize>,
    /// A suggestion for fixing the spec.
    pub help: Option<String>,
}

impl SpecError {
    pub(crate) fn new(code: &'static str, message: impl Into<String>, span: Range<usize>) -> Self {
        SpecError {
            code,
            message: message.into(),
            span,
            help: None,
        }
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The error as a positioned [`Diagnostic`] with code and help, for alea_core's renderer.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let mut d = Diagnostic::error(self.message.clone())
            .with_code(self.code)
            .with_span(Span::new(self.span.start, self.span.end));
        if let Some(h) = &self.help {
            d = d.with_help(h.clone());
        }
        d
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error[{}]: {}", self.code, self.message)
    }
}

impl std::error::Error for SpecError {}

/// How a history starts (spec §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Starting {
    /// The last H list entries, repeated cyclically.
    Default,
    /// `starting empty`.
    Empty,
    /// `starting with L′`: piece indices, oldest first.
    With(Vec<u16>),
}

/// The core rule of a spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Core {
    /// `L`: memoryless.
    List,
    /// `K bag of L` (`bag of L` has K = len(L)).
    Bag { count: u32 },
    /// `sequence of L`.
    Sequence,
    /// `L with H history [R rolls] [starting …]`.
    History {
        len: u32,
        rolls: Option<u32>,
        starting: Starting,
    },
}

/// A parsed and checked Blackjack spec. `FromStr`/[`Spec::parse`] read it; `Display` prints the
/// canonical form (spec §4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Distinct names in order of first appearance.
    pub(crate) pieces: Vec<Arc<str>>,
    /// The core list's entries ("cards"), as indices into `pieces`.
    pub(crate) cards: Vec<u16>,
    pub(crate) core: Core,
    /// `first F`: piece indices, repeats kept.
    pub(crate) first: Option<Vec<u16>>,
}

impl Spec {
    /// Parses and checks a spec; the first static error is returned (spec §3).
    pub fn parse(src: &str) -> Result<Spec, SpecError> {
        crate::parser::parse(src)
    }

    /// The distinct piece names, in order of first appearance in the core list.
    pub fn pieces(&self) -> &[Arc<str>] {
        &self.pieces
    }

    /// The number of entries (cards) in the core list.
    pub fn list_len(&self) -> usize {
        self.cards.len()
    }

    /// Notes that never reject a spec, such as "`1 bag of L` is memoryless".
    pub fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        match &self.core {
            Core::Bag { count: 1 } => {
                w.push("'1 bag of L' is memoryless: it deals like the plain list".to_string())
            }
            Core::History {
                len: 0,
                rolls: None,
                ..
            } => w.push("'with 0 history' is memoryless: it deals like the plain list".to_string()),
            Core::History { rolls: Some(1), .. } => {
                w.push("'1 rolls' never rerolls: the spec deals like the plain list".to_string())
            }
            _ => {}
        }
        w
    }

    fn write_list(&self, f: &mut fmt::Formatter<'_>, list: &[u16]) -> fmt::Result {
        for (i, &p) in list.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(&self.pieces[p as usize])?;
        }
        Ok(())
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.core {
            Core::List => self.write_list(f, &self.cards)?,
            Core::Sequence => {
                f.write_str("sequence of ")?;
                self.write_list(f, &self.cards)?;
            }
            Core::Bag { count } => {
                if *count as usize != self.cards.len() {
                    write!(f, "{count} ")?;
                }
                f.write_str("bag of ")?;
                self.write_list(f, &self.cards)?;
            }
            Core::History {
                len,
                rolls,
                starting,
            } => {
                self.write_list(f, &self.cards)?;
                write!(f, " with {len} history")?;
                if let Some(r) = rolls {
                    write!(f, " {r} rolls")?;
                }
                match starting {
                    Starting::Default => {}
                    Starting::Empty => f.write_str(" starting empty")?,
                    Starting::With(l) => {
                        f.write_str(" starting with ")?;
                        self.write_list(f, l)?;
                    }
                }
            }
        }
        if let Some(first) = &self.first {
            f.write_str(" first ")?;
            self.write_list(f, first)?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Spec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Spec, SpecError> {
        Spec::parse(s)
    }
}
