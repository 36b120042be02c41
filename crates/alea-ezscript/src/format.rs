//! The formatting properties of numbers (spec §9) and the [`Formatter`] trait a host implements
//! to provide the locale-dependent ones.
//!
//! The interpreter checks that the number is finite (`Cannot format a non-finite number`)
//! before it calls any formatter method, so implementations only see finite numbers. Times are
//! ms since the Unix epoch; `now_ms` is the evaluation's `now()` (for "today" and "this year").
//! Durations are ms.
//!
//! The locale-invariant formatters are implemented here as defaults: ordinals (English
//! everywhere, R8) and the three digital durations (R10). The others fail with
//! `NAME needs a locale formatter` until a host (the `alea-locale` crate) supplies them.

/// Every formatting property of numbers, by its script name.
pub const FORMAT_PROPERTIES: &[&str] = &[
    "toCompactDecimalString",
    "toCurrencyString",
    "toCompactCurrencyString",
    "toPercentString",
    "withOrdinalSuffix",
    "toTimeString",
    "toHMTimeString",
    "toDateString",
    "toDateAndTimeString",
    "toDateIfNotTodayAndTimeString",
    "toTimeDurationString",
    "toHMTimeDurationString",
    "toCompactTimeDurationString",
    "toApproximateDurationString",
];

fn needs(name: &str) -> Result<String, String> {
    Err(format!("{name} needs a locale formatter"))
}

/// Locale-dependent formatting, one method per formatting property of spec §9.2 and §9.3.
/// Each returns the text or an error message. Inputs are finite.
pub trait Formatter {
    /// `toCompactDecimalString` (R2, R3, R4): en `1.25K`, de `1250`.
    fn compact_decimal(&self, x: f64) -> Result<String, String> {
        let _ = x;
        needs("toCompactDecimalString")
    }
    /// `toCurrencyString` (R5, R6): en `$1,250`, de `1.250\u{a0}€`.
    fn currency(&self, x: f64) -> Result<String, String> {
        let _ = x;
        needs("toCurrencyString")
    }
    /// `toCompactCurrencyString`: en `$1.25K`, de `1250\u{a0}€`.
    fn compact_currency(&self, x: f64) -> Result<String, String> {
        let _ = x;
        needs("toCompactCurrencyString")
    }
    /// `toPercentString` (R7): en `25%`, de `25\u{a0}%`.
    fn percent(&self, x: f64) -> Result<String, String> {
        let _ = x;
        needs("toPercentString")
    }
    /// `withOrdinalSuffix` (R8, English everywhere): `1st`, `22nd`, `113th`.
    fn ordinal(&self, x: f64) -> Result<String, String> {
        Ok(ordinal(x))
    }
    /// `toTimeString` (CLDR `hms`): en `8:15:00\u{202f}PM`, de `20:15:00`.
    fn time(&self, ms: f64, now_ms: f64) -> Result<String, String> {
        let _ = (ms, now_ms);
        needs("toTimeString")
    }
    /// `toHMTimeString` (CLDR `hm`).
    fn hm_time(&self, ms: f64, now_ms: f64) -> Result<String, String> {
        let _ = (ms, now_ms);
        needs("toHMTimeString")
    }
    /// `toDateString` (CLDR `MD` medium, with the year (R9) when it differs from now's).
    fn date(&self, ms: f64, now_ms: f64) -> Result<String, String> {
        let _ = (ms, now_ms);
        needs("toDateString")
    }
    /// `toDateAndTimeString`: date `, ` time.
    fn date_and_time(&self, ms: f64, now_ms: f64) -> Result<String, String> {
        let _ = (ms, now_ms);
        needs("toDateAndTimeString")
    }
    /// `toDateIfNotTodayAndTimeString`: the time on now's local date, else date and time.
    fn date_if_not_today_and_time(&self, ms: f64, now_ms: f64) -> Result<String, String> {
        let _ = (ms, now_ms);
        needs("toDateIfNotTodayAndTimeString")
    }
    /// `toTimeDurationString` (R10, locale-invariant): `H:MM:SS`.
    fn time_duration(&self, ms: f64) -> Result<String, String> {
        Ok(digital_duration(ms, Digital::Hms))
    }
    /// `toHMTimeDurationString` (R10): `H:MM`, seconds cut off.
    fn hm_time_duration(&self, ms: f64) -> Result<String, String> {
        Ok(digital_duration(ms, Digital::Hm))
    }
    /// `toCompactTimeDurationString` (R10): `M:SS` below one hour, else `H:MM:SS`.
    fn compact_time_duration(&self, ms: f64) -> Result<String, String> {
        Ok(digital_duration(ms, Digital::Compact))
    }
    /// `toApproximateDurationString` (R11): one CLDR short unit, en `50 min`, de `50 Min.`.
    fn approximate_duration(&self, ms: f64) -> Result<String, String> {
        let _ = ms;
        needs("toApproximateDurationString")
    }
}

/// The formatter without locale data: ordinals and digital durations work, the rest fail
/// with `NAME needs a locale formatter`.
#[derive(Clone, Copy, Debug, Default)]
pub struct InvariantFormatter;

impl Formatter for InvariantFormatter {}

/// Calls the formatter method for property `name`, or `None` if `name` is not a formatting
/// property.
pub fn apply(f: &dyn Formatter, name: &str, x: f64, now_ms: f64) -> Option<Result<String, String>> {
    Some(match name {
        "toCompactDecimalString" => f.compact_decimal(x),
        "toCurrencyString" => f.currency(x),
        "toCompactCurrencyString" => f.compact_currency(x),
        "toPercentString" => f.percent(x),
        "withOrdinalSuffix" => f.ordinal(x),
        "toTimeString" => f.time(x, now_ms),
        "toHMTimeString" => f.hm_time(x, now_ms),
        "toDateString" => f.date(x, now_ms),
        "toDateAndTimeString" => f.date_and_time(x, now_ms),
        "toDateIfNotTodayAndTimeString" => f.date_if_not_today_and_time(x, now_ms),
        "toTimeDurationString" => f.time_duration(x),
        "toHMTimeDurationString" => f.hm_time_duration(x),
        "toCompactTimeDurationString" => f.compact_time_duration(x),
        "toApproximateDurationString" => f.approximate_duration(x),
        _ => return None,
    })
}

/// English ordinal of `x` truncated toward zero (CLDR English ordinal rules): `1st`, `2nd`,
/// `3rd`, `11th`, `22nd`, `113th`.
pub fn ordinal(x: f64) -> String {
    let n = x.trunc();
    let text = crate::value::format_number(n);
    let m100 = (n.abs() % 100.0) as u32;
    let m10 = m100 % 10;
    let suffix = match (m10, m100) {
        (1, m) if m != 11 => "st",
        (2, m) if m != 12 => "nd",
        (3, m) if m != 13 => "rd",
        _ => "th",
    };
    format!("{text}{suffix}")
}

/// The three digital duration layouts of R10.
#[derive(Clone, Copy, Debug)]
pub enum Digital {
    /// `H:MM:SS`
    Hms,
    /// `H:MM`
    Hm,
    /// `M:SS` below one hour, else `H:MM:SS`
    Compact,
}

/// A duration in ms, truncated toward zero to whole seconds, negatives with a leading `-`.
pub fn digital_duration(ms: f64, layout: Digital) -> String {
    let secs = (ms / 1000.0).trunc();
    let sign = if secs < 0.0 { "-" } else { "" };
    let total = secs.abs();
    let h = (total / 3600.0).floor();
    let m = ((total % 3600.0) / 60.0).floor() as u32;
    let s = (total % 60.0) as u32;
    let h_text = crate::value::format_number(h);
    match layout {
        Digital::Hms => format!("{sign}{h_text}:{m:02}:{s:02}"),
        Digital::Hm => format!("{sign}{h_text}:{m:02}"),
        Digital::Compact if h == 0.0 => format!("{sign}{m}:{s:02}"),
        Digital::Compact => format!("{sign}{h_text}:{m:02}:{s:02}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invariant_formats() {
        let out: Vec<String> = [1.0, 2.0, 3.0, 11.0, 22.0, 113.0, 1250.0, 12.0, 101.0]
            .iter()
            .map(|x| ordinal(*x))
            .collect();
        assert_eq!(
            out.join(" "),
            "1st 2nd 3rd 11th 22nd 113th 1250th 12th 101st"
        );
        assert_eq!(digital_duration(1200000.0, Digital::Hms), "0:20:00");
        assert_eq!(digital_duration(1200000.0, Digital::Hm), "0:20");
        assert_eq!(digital_duration(1200000.0, Digital::Compact), "20:00");
        assert_eq!(digital_duration(3723000.0, Digital::Compact), "1:02:03");
        assert_eq!(digital_duration(5000.0, Digital::Compact), "0:05");
        assert_eq!(digital_duration(59999.0, Digital::Hm), "0:00");
        assert_eq!(digital_duration(-300000.0, Digital::Hms), "-0:05:00");
        assert_eq!(
            InvariantFormatter.currency(1.0).unwrap_err(),
            "toCurrencyString needs a locale formatter"
        );
    }
}
