//! The pieces every alea language shares.
//!
//! * [`Span`] and [`SourceFile`]: byte ranges into a program text and their 1-based
//!   line/column view (columns count characters; a TAB counts as one).
//! * [`Diagnostic`]: the one error/warning type of the project, rendered in exactly one place
//!   ([`Diagnostic::render`], coloured by [`Diagnostic::render_styled`], JSON by
//!   [`Diagnostic::json`]) so that every language reports `FILE:LINE:COL: error: message`, the
//!   source line and a caret in the same way.
//! * [`suggest`]: "did you mean …" for names checked against a list.
//! * [`Rng`]: the portable seeded generator of `rng.md` (xoshiro256++ seeded by SplitMix64 with
//!   Lemire's `below`). Same seed, same result, on every platform and in every release.
//! * [`js_number`]: the one JavaScript-style number formatter (`Number::toString`).
//! * [`Limits`] and [`Fuel`]: the resource budgets that stop hostile programs with a clear error
//!   instead of a crash, hang or out-of-memory.
//!
//! ```
//! use alea_core::{Diagnostic, RenderOptions, Rng, SourceFile, Span};
//!
//! let mut rng = Rng::seed_from_u64(0);
//! assert_eq!(rng.range_inclusive(1, 6), 2);
//!
//! let file = SourceFile::new("<stdin>", "2d6");
//! let d = Diagnostic::error("unexpected 'd'").with_span(Span::new(1, 2));
//! assert_eq!(d.render(&file), "<stdin>:1:2: error: unexpected 'd'\n2d6\n ^\n");
//! // dicelab 0.7's own format, for the drop-in `dicelab` binary only:
//! assert_eq!(
//!     d.render_with(&file, RenderOptions::bare()),
//!     "<stdin>:1:2: unexpected 'd'\n2d6\n ^\n"
//! );
//! ```
#![forbid(unsafe_code)]

mod diagnostic;
mod jsnum;
mod limits;
mod rng;
mod source;
mod span;
pub mod suggest;

pub use diagnostic::{Diagnostic, JsonDiagnostic, Label, RenderOptions, Severity};
pub use jsnum::{js_number, write_js_number};
pub use limits::{Cancel, Fuel, LimitExceeded, Limits, POLL_STEPS};
pub use rng::Rng;
pub use source::SourceFile;
pub use span::Span;
