//! Errors of locale resolution and formatting.

use std::fmt;

/// A formatting failure. Its `Display` is the spec's message, word for word
/// (ezscript.md §9.1: `Cannot format a non-finite number`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// The number is `NaN` or ±`Infinity`.
    NonFinite,
    /// A time is outside the range the time-zone database and calendar can represent.
    TimeOutOfRange,
    /// ICU4X could not format the value (missing data for an unusual locale).
    Data(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::NonFinite => f.write_str("Cannot format a non-finite number"),
            FormatError::TimeOutOfRange => f.write_str("Cannot format a time this far from now"),
            FormatError::Data(message) => write!(f, "Cannot format this value: {message}"),
        }
    }
}

impl std::error::Error for FormatError {}

/// Building a [`crate::LocaleFormatter`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocaleError {
    /// The locale tag is not well-formed BCP 47.
    InvalidLocale(String),
    /// The tag is well-formed but CLDR knows neither its language nor its region (`zz-ZZ`).
    UnknownLocale {
        /// The tag as given.
        tag: String,
        /// The nearest CLDR locales, nearest first.
        nearest: Vec<String>,
    },
    /// The time zone is not an IANA name known to the bundled database.
    UnknownTimeZone(String),
    /// The currency is not a three-letter ISO 4217 code.
    InvalidCurrency(String),
    /// ICU4X has no data for this locale (should not happen with compiled data: it falls back).
    Data(String),
}

impl fmt::Display for LocaleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocaleError::InvalidLocale(tag) => write!(f, "Invalid locale {tag:?}"),
            LocaleError::UnknownLocale { tag, nearest } => {
                write!(f, "Unknown locale {tag:?}")?;
                match nearest.as_slice() {
                    [] => Ok(()),
                    [one] => write!(f, "; did you mean {one}?"),
                    [first @ .., last] => {
                        write!(f, "; did you mean {}, or {last}?", first.join(", "))
                    }
                }
            }
            LocaleError::UnknownTimeZone(zone) => write!(f, "Unknown time zone {zone:?}"),
            LocaleError::InvalidCurrency(code) => write!(f, "Invalid currency code {code:?}"),
            LocaleError::Data(message) => write!(f, "Missing locale data: {message}"),
        }
    }
}

impl std::error::Error for LocaleError {}
