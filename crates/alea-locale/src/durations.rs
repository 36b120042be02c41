//! Durations (ezscript.md §9.3): the three digital forms truncate milliseconds toward zero to
//! whole seconds and are locale-invariant (R10); the approximate one rounds to the nearest second
//! and uses CLDR short unit words (R11).

use crate::error::{FormatError, LocaleError};
use crate::numbers::finite;
use crate::rules::{self, ApproximateUnit, DIGITAL_DURATION_SEPARATOR as SEP};
use fixed_decimal::Decimal;
use icu_experimental::dimension::units::categorized_formatter::CategorizedFormatter;
use icu_experimental::measure::category::Duration;
use icu_locale::Locale;

/// Whole seconds of a duration, split for the digital forms.
struct Clock {
    negative: bool,
    hours: String,
    minutes: u8,
    seconds: u8,
}

/// `ms` truncated toward zero to whole seconds; negatives get a leading `-`.
fn clock(ms: f64) -> Result<Clock, FormatError> {
    let total = (finite(ms)? / 1000.0).trunc();
    let negative = total < 0.0;
    let total = total.abs();
    let within_hour = total % 3600.0; // exact for every f64
    let hours = ((total - within_hour) / 3600.0).round();
    let within_hour = within_hour as u32;
    Ok(Clock {
        negative,
        hours: format!("{hours:.0}"),
        minutes: (within_hour / 60) as u8,
        seconds: (within_hour % 60) as u8,
    })
}

impl Clock {
    fn sign(&self) -> &'static str {
        if self.negative { "-" } else { "" }
    }
}

/// `toTimeDurationString`: `H:MM:SS`, hours unpadded.
pub(crate) fn time_duration(ms: f64) -> Result<String, FormatError> {
    let c = clock(ms)?;
    Ok(format!(
        "{}{}{SEP}{:02}{SEP}{:02}",
        c.sign(),
        c.hours,
        c.minutes,
        c.seconds
    ))
}

/// `toHMTimeDurationString`: `H:MM`, seconds cut off (not rounded).
pub(crate) fn hm_time_duration(ms: f64) -> Result<String, FormatError> {
    let c = clock(ms)?;
    Ok(format!("{}{}{SEP}{:02}", c.sign(), c.hours, c.minutes))
}

/// `toCompactTimeDurationString`: `M:SS` below one hour, else `H:MM:SS`.
pub(crate) fn compact_time_duration(ms: f64) -> Result<String, FormatError> {
    let c = clock(ms)?;
    if c.hours == "0" {
        Ok(format!("{}{}{SEP}{:02}", c.sign(), c.minutes, c.seconds))
    } else {
        time_duration(ms)
    }
}

/// The CLDR short unit formatters for `toApproximateDurationString`.
#[derive(Debug)]
pub(crate) struct ApproximateDurations {
    hour: CategorizedFormatter<Duration>,
    minute: CategorizedFormatter<Duration>,
    second: CategorizedFormatter<Duration>,
}

impl ApproximateDurations {
    pub(crate) fn new(locale: &Locale) -> Result<Self, LocaleError> {
        let unit = |unit| {
            CategorizedFormatter::<Duration>::try_new_core(locale.into(), unit, Default::default())
                .map_err(|e| LocaleError::Data(e.to_string()))
        };
        Ok(Self {
            hour: unit(Duration::hour())?,
            minute: unit(Duration::minute())?,
            second: unit(Duration::second())?,
        })
    }

    /// `toApproximateDurationString`: ms rounded to the nearest second (R1: 1500 ms is 2 s, the
    /// seed's "auf die nächste gerundet"), one unit by R11, the count rounded by R1, CLDR short
    /// unit.
    pub(crate) fn format(&self, ms: f64) -> Result<String, FormatError> {
        let seconds = rules::nearest_second(finite(ms)?);
        let (unit, count) = rules::approximate_unit(seconds);
        let (sign, value) = rules::round_half_away(count, 0);
        let value = Decimal::new(sign, value);
        let formatter = match unit {
            ApproximateUnit::Hour => &self.hour,
            ApproximateUnit::Minute => &self.minute,
            ApproximateUnit::Second => &self.second,
        };
        Ok(formatter.format_fixed_decimal(&value).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digital_forms() {
        assert_eq!(time_duration(1_200_000.0).unwrap(), "0:20:00");
        assert_eq!(time_duration(-300_000.0).unwrap(), "-0:05:00");
        assert_eq!(time_duration(-500.0).unwrap(), "0:00:00");
        assert_eq!(hm_time_duration(59_999.0).unwrap(), "0:00");
        assert_eq!(compact_time_duration(3_723_000.0).unwrap(), "1:02:03");
        assert_eq!(compact_time_duration(5_000.0).unwrap(), "0:05");
        assert_eq!(compact_time_duration(1e20).unwrap(), "27777777777777:46:40");
        let huge = time_duration(f64::MAX).unwrap();
        let (hours, rest) = huge.split_once(':').unwrap();
        assert!(
            hours.len() > 300 && hours.bytes().all(|b| b.is_ascii_digit()),
            "{huge}"
        );
        assert_eq!(rest.len(), 5);
        assert_eq!(time_duration(f64::NAN).unwrap_err(), FormatError::NonFinite);
    }
}
