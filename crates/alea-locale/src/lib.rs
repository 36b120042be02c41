//! Locale formatting for EZScript (ezscript.md §9): numbers, currencies, percentages, ordinals,
//! times, dates and durations as Poker Club HQ shows them, with CLDR data from ICU4X and time
//! zones from jiff's bundled tzdb.
//!
//! ICU4X is heavy to build, so it lives in this crate and the language crate stays light; the
//! EZScript evaluator reaches these formatters through its host trait. The rules where the app
//! differs from ICU's defaults (R1–R11) are written once, in the private `rules` module; see
//! `docs/locale.md` for the reference.
//!
//! ```
//! use alea_locale::LocaleFormatter;
//!
//! let now = 1_753_035_300_000.0; // 2025-07-20 20:15:00 Europe/Berlin
//! let de = LocaleFormatter::new("de", "Europe/Berlin", now).unwrap();
//! assert_eq!(de.to_compact_decimal_string(61250.0).unwrap(), "61250");
//! assert_eq!(de.to_approximate_duration_string(3_000_000.0).unwrap(), "50 Min.");
//! assert_eq!(de.to_date_string(now - 365.0 * 86_400_000.0).unwrap(), "20. Juli 2024");
//! ```
#![forbid(unsafe_code)]

mod cldr;
mod cldr_tables;
mod durations;
mod error;
mod formatter;
mod locale;
mod numbers;
mod rules;
mod times;

pub use error::{FormatError, LocaleError};
pub use formatter::{FORMATTING_PROPERTIES, LocaleFormatter, three_significant_digits};
pub use jiff::tz::TimeZone;
pub use locale::{DEFAULT_LOCALE, locale_from_env, resolve_locale};
pub use rules::currency_for_region;

/// Parses a time as `--now` and the tournament file give it: ms since the Unix epoch
/// (`1753035300000`) or RFC 3339 with an offset (`2025-07-20T20:15:00+02:00`); `None` if it is
/// neither. Returns ms since the epoch.
///
/// ```
/// assert_eq!(alea_locale::parse_time("2025-07-20T20:15:00+02:00"), Some(1_753_035_300_000.0));
/// assert_eq!(alea_locale::parse_time("1753035300000"), Some(1_753_035_300_000.0));
/// assert_eq!(alea_locale::parse_time("tomorrow"), None);
/// ```
pub fn parse_time(text: &str) -> Option<f64> {
    times::parse_time(text)
}

/// Looks up an IANA time zone name (`Europe/Berlin`, `UTC`) in jiff's bundled tzdb, the same
/// database the formatters use, e.g. to validate `--tz` or a tournament's `clock.timeZone`.
///
/// ```
/// assert!(alea_locale::time_zone("Europe/Berlin").is_ok());
/// assert!(alea_locale::time_zone("Mars/Olympus").is_err());
/// ```
pub fn time_zone(name: &str) -> Result<TimeZone, LocaleError> {
    times::time_zone(name)
}
