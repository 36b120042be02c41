//! EZScript bound to its system (ezscript.md §9–§14, tournament-data.md): locale formatting
//! with `alea-locale`, a host over an `alea-tournament` state (every global name, the objects,
//! the number and card members, the names each field kind may read), the field kinds with
//! their failure rules, the payout script and points formula as the model's script hooks, the
//! alert clock, and `check` of every script of a tournament file.
//!
//! ```
//! use alea_ezhost::{Kind, Options, Session};
//!
//! let file = r#"{
//!   "settings": {"title": "Friday", "buyInCost": 50},
//!   "players": [{"id": 1, "name": "Ann Lee"}, {"id": 2, "name": "Bo Diaz"}],
//!   "log": [{"type": "buyIn", "dt": 0, "players": [1, 2]}],
//!   "clock": {"now": "2025-07-20T20:15:00+02:00", "timeZone": "Europe/Berlin"}
//! }"#;
//! let de = Session::new(Some(file), Options { locale: "de".into(), ..Options::default() }).unwrap();
//! let out = de.eval(Kind::Content, Some("{{ title }}: {{ totalCollected.toCurrencyString }}"), true);
//! assert_eq!(out.text, "Friday: 100\u{a0}€");
//! assert!(de.eval(Kind::Condition, Some("currentPlayerCount == 2"), false).ok);
//!
//! let out = de.eval(Kind::Payout, Some("payouts"), false);
//! assert_eq!(out.errors[0].diagnostic.message, "payouts is not available in this field");
//! assert_eq!(out.text, "1\t50\n2\t30\n3\t20"); // the fallback: default percentages
//! ```
#![forbid(unsafe_code)]

mod check;
mod clock;
mod fields;
mod format;
mod host;
mod session;

/// Re-exported for the command line: the environment's locale and `--now` parsing.
pub use alea_locale::locale_from_env;
/// Re-exported for the command line: `--now` as RFC 3339 text.
pub use alea_tournament::parse_time;
pub use clock::{
    AlertError, ContentFields, Firing, Frame, MAX_SIMULATE_SECONDS, MAX_SIMULATE_STEPS,
    SimulationReport,
};
pub use fields::{DEFAULT_POINTS_FORMULA, HookField, MAX_PAYOUT_PLACES};
pub use format::LocaleFormat;
pub use host::{PayoutHost, StateHost};
pub use session::{Kind, Options, Outcome, ScriptError, Session, SessionError};

/// A script or tournament text without its leading UTF-8 byte order mark (U+FEFF), which some
/// editors write first: it is not part of the text, and positions count from after it.
///
/// ```
/// assert_eq!(alea_ezhost::without_bom("\u{feff}1 + 1"), "1 + 1");
/// assert_eq!(alea_ezhost::without_bom("1 + 1"), "1 + 1");
/// ```
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}
