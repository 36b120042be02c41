//! [`LocaleFormatter`]: one locale, one time zone and one "now", with one method per formatting
//! property of EZScript (ezscript.md §9).

use crate::durations::{self, ApproximateDurations};
use crate::error::{FormatError, LocaleError};
use crate::locale::resolve_locale;
use crate::numbers::NumberFormats;
use crate::rules;
use crate::times::{self, TimeFormats};
use icu_locale::Locale;

/// Formats numbers, times and durations the way Poker Club HQ shows them, for one locale, one
/// IANA time zone and one "now" (ms since the Unix epoch; `toDateString` and
/// `toDateIfNotTodayAndTimeString` compare with it).
///
/// Building one loads the CLDR data once (a few hundred microseconds); formatting is then cheap,
/// so build it once per locale and keep it. Every method reads an EZScript number (f64) and
/// fails with [`FormatError::NonFinite`] (`Cannot format a non-finite number`) on `NaN` and
/// ±`Infinity`.
///
/// ```
/// use alea_locale::LocaleFormatter;
///
/// // 2025-07-20 20:15:00 in Berlin.
/// let now = 1_753_035_300_000.0;
/// let en = LocaleFormatter::new("en-US", "Europe/Berlin", now).unwrap();
/// let de = LocaleFormatter::new("de", "Europe/Berlin", now).unwrap();
/// assert_eq!(de.locale_tag(), "de-DE");
/// assert_eq!(en.to_compact_decimal_string(1250.0).unwrap(), "1.25K");
/// assert_eq!(de.to_compact_decimal_string(1_500_000.0).unwrap(), "1,5\u{a0}Mio.");
/// assert_eq!(en.to_currency_string(12.5).unwrap(), "$12.50");
/// assert_eq!(de.to_currency_string(1250.0).unwrap(), "1.250\u{a0}€");
/// assert_eq!(en.to_time_string(now).unwrap(), "8:15:00\u{202f}PM");
/// assert_eq!(de.to_date_and_time_string(now).unwrap(), "20. Juli, 20:15:00");
/// assert_eq!(
///     en.to_percent_string(f64::NAN).unwrap_err().to_string(),
///     "Cannot format a non-finite number"
/// );
/// ```
#[derive(Debug)]
pub struct LocaleFormatter {
    locale: Locale,
    time_zone_name: String,
    numbers: NumberFormats,
    times: TimeFormats,
    approximate: ApproximateDurations,
}

impl LocaleFormatter {
    /// Builds a formatter for a BCP 47 locale tag (a missing region is filled in by likely
    /// subtags: `de` → `de-DE`), an IANA time zone name (looked up in jiff's bundled tzdb, so it
    /// works without `/usr/share/zoneinfo`) and "now" in ms since the epoch. The currency is the
    /// region's, from CLDR (R6: `de-DE` → EUR, `pl-PL` → PLN, a region without one → USD).
    pub fn new(locale: &str, time_zone: &str, now_ms: f64) -> Result<Self, LocaleError> {
        Self::with_currency(locale, time_zone, now_ms, None)
    }

    /// Like [`LocaleFormatter::new`], with the tournament's `settings.currency` (an ISO 4217
    /// code such as `"CHF"`) overriding the region's currency when it is `Some`.
    pub fn with_currency(
        locale: &str,
        time_zone: &str,
        now_ms: f64,
        currency: Option<&str>,
    ) -> Result<Self, LocaleError> {
        let zone = times::time_zone(time_zone)?;
        Self::with_zone(locale, zone, now_ms, currency)
    }

    /// Like [`LocaleFormatter::with_currency`] with a jiff [`TimeZone`] instead of a name: for the
    /// host's zone (`TimeZone::system()`, the last fallback of `--tz`), which may have no IANA
    /// name, or a fixed offset.
    ///
    /// [`TimeZone`]: crate::TimeZone
    pub fn with_zone(
        locale: &str,
        zone: jiff::tz::TimeZone,
        now_ms: f64,
        currency: Option<&str>,
    ) -> Result<Self, LocaleError> {
        let locale = resolve_locale(locale)?;
        if !now_ms.is_finite() {
            return Err(LocaleError::Data(format!(
                "now must be finite, got {now_ms}"
            )));
        }
        let region = locale.id.region.map(|r| r.to_string());
        let currency = match currency {
            Some(code) => code.to_string(),
            None => rules::currency_for_region(region.as_deref()).to_string(),
        };
        Ok(Self {
            numbers: NumberFormats::new(&locale, &currency)?,
            time_zone_name: zone.iana_name().unwrap_or("").to_string(),
            times: TimeFormats::new(&locale, zone, now_ms)?,
            approximate: ApproximateDurations::new(&locale)?,
            locale,
        })
    }

    /// A time as `YYYY-MM-DD HH:MM:SS` in the formatter's zone, locale-invariant: the clock
    /// lines of `alea ez --simulate` (ezscript.md §14). ms are floored to whole seconds.
    ///
    /// ```
    /// let f = alea_locale::LocaleFormatter::new("de", "Europe/Berlin", 0.0).unwrap();
    /// assert_eq!(f.to_local_timestamp_string(1_753_035_390_000.0).unwrap(), "2025-07-20 20:16:30");
    /// ```
    pub fn to_local_timestamp_string(&self, ms: f64) -> Result<String, FormatError> {
        self.times.local_timestamp(ms)
    }

    /// The resolved locale as a BCP 47 tag (`de-DE`).
    pub fn locale_tag(&self) -> String {
        self.locale.to_string()
    }

    /// The locale's language subtag (`de`), e.g. to pick hand names.
    pub fn language(&self) -> &str {
        self.locale.id.language.as_str()
    }

    /// The IANA name of the formatter's time zone (empty for a zone without one).
    pub fn time_zone_name(&self) -> &str {
        &self.time_zone_name
    }

    /// The ISO 4217 code of the currency used by the currency formatters (R6 or the override).
    pub fn currency_code(&self) -> &str {
        self.numbers.currency_code()
    }

    /// `toCompactDecimalString`: the compact style chosen by R3 with R2 digits of x / divisor,
    /// CLDR's short affix, never grouped (R4). `|x| < 10` is not compacted. German does not
    /// abbreviate below 10⁶. en `1.25K`, `61.3K`, `1M` (999999), `2.46`; de `1250`, `999999`,
    /// `1,5\u{a0}Mio.`.
    pub fn to_compact_decimal_string(&self, x: f64) -> Result<String, FormatError> {
        self.numbers.compact_decimal(x)
    }

    /// `toCurrencyString`: CLDR currency pattern with grouping and the narrow symbol; no fraction
    /// digits when the amount rounded to the currency's digits is whole (R5). en `$1,250`,
    /// `$12.50`; de `1.250\u{a0}€`, `12,50\u{a0}€`.
    pub fn to_currency_string(&self, x: f64) -> Result<String, FormatError> {
        self.numbers.currency(x)
    }

    /// `toCompactCurrencyString`: R3 over CLDR's short compact patterns inside the currency
    /// pattern; the fallback style is `toCurrencyString` without grouping. en `$1.25K`, `$1.5M`;
    /// de `1250\u{a0}€`, `1,5\u{a0}Mio.\u{a0}€`.
    pub fn to_compact_currency_string(&self, x: f64) -> Result<String, FormatError> {
        self.numbers.compact_currency(x)
    }

    /// `toPercentString`: x × 100 rounded to a whole number (R1, R7), CLDR percent pattern with
    /// grouping. en `25%`, `125,000%`; de `25\u{a0}%`.
    pub fn to_percent_string(&self, x: f64) -> Result<String, FormatError> {
        self.numbers.percent(x)
    }

    /// `withOrdinalSuffix`: x truncated toward zero, shown by the display rule, with the English
    /// suffix `st nd rd th` in every locale (R8): `1st`, `22nd`, `113th`, `1250th`.
    pub fn with_ordinal_suffix(&self, x: f64) -> Result<String, FormatError> {
        self.numbers.ordinal(x)
    }

    /// `toTimeString`: ms since the epoch, floored to whole seconds, as local time with CLDR's
    /// hour-minute-second pattern. en `8:15:00\u{202f}PM`; de `20:15:00`.
    pub fn to_time_string(&self, ms: f64) -> Result<String, FormatError> {
        self.times.time(ms)
    }

    /// `toHMTimeString`: like [`Self::to_time_string`] without seconds. en `8:15\u{202f}PM`;
    /// de `20:15`.
    pub fn to_hm_time_string(&self, ms: f64) -> Result<String, FormatError> {
        self.times.hm_time(ms)
    }

    /// `toDateString`: CLDR month-day medium (`Jul 20`, `20. Juli`); when the local year differs
    /// from now's, the year variant of R9 (`Jul 20, 2024`, `20. Juli 2024`).
    pub fn to_date_string(&self, ms: f64) -> Result<String, FormatError> {
        self.times.date(ms, None)
    }

    /// `toDateAndTimeString`: the date, `", "`, the time (R9). en `Jul 20, 8:15:00\u{202f}PM`;
    /// de `20. Juli, 20:15:00`.
    pub fn to_date_and_time_string(&self, ms: f64) -> Result<String, FormatError> {
        self.times.date_and_time(ms, None)
    }

    /// `toDateIfNotTodayAndTimeString`: the time alone when the local date is now's, else
    /// [`Self::to_date_and_time_string`].
    pub fn to_date_if_not_today_and_time_string(&self, ms: f64) -> Result<String, FormatError> {
        self.times.date_if_not_today_and_time(ms, None)
    }

    /// [`Self::to_date_string`] against another "now" (an evaluation's `now()`, e.g. a simulated
    /// clock's), so one formatter serves every tick; the formatter's own "now" is not used.
    pub fn to_date_string_with_now(&self, ms: f64, now_ms: f64) -> Result<String, FormatError> {
        self.times.date(ms, Some(now_ms))
    }

    /// [`Self::to_date_and_time_string`] against another "now" (see
    /// [`Self::to_date_string_with_now`]).
    pub fn to_date_and_time_string_with_now(
        &self,
        ms: f64,
        now_ms: f64,
    ) -> Result<String, FormatError> {
        self.times.date_and_time(ms, Some(now_ms))
    }

    /// [`Self::to_date_if_not_today_and_time_string`] against another "now" (see
    /// [`Self::to_date_string_with_now`]).
    ///
    /// ```
    /// let f = alea_locale::LocaleFormatter::new("de", "Europe/Berlin", 0.0).unwrap();
    /// let now = 1_753_035_300_000.0;
    /// assert_eq!(f.to_date_if_not_today_and_time_string_with_now(now, now).unwrap(), "20:15:00");
    /// ```
    pub fn to_date_if_not_today_and_time_string_with_now(
        &self,
        ms: f64,
        now_ms: f64,
    ) -> Result<String, FormatError> {
        self.times.date_if_not_today_and_time(ms, Some(now_ms))
    }

    /// `toTimeDurationString`: ms truncated toward zero to whole seconds as `H:MM:SS`, hours
    /// unpadded, negatives with a leading `-` (locale-invariant, R10): `0:20:00`, `-0:05:00`.
    pub fn to_time_duration_string(&self, ms: f64) -> Result<String, FormatError> {
        durations::time_duration(ms)
    }

    /// `toHMTimeDurationString`: `H:MM`, seconds cut off (R10): `0:20`, 59999 → `0:00`.
    pub fn to_hm_time_duration_string(&self, ms: f64) -> Result<String, FormatError> {
        durations::hm_time_duration(ms)
    }

    /// `toCompactTimeDurationString`: `M:SS` below one hour, else `H:MM:SS` (R10): `20:00`,
    /// `0:05`, `1:02:03`.
    pub fn to_compact_time_duration_string(&self, ms: f64) -> Result<String, FormatError> {
        durations::compact_time_duration(ms)
    }

    /// `toApproximateDurationString`: one unit (hours if more than 2 h, minutes if more than
    /// 2 min, else seconds), the count rounded half away from zero, CLDR's short unit (R11).
    /// en `50 min`, `3 hr`, `120 sec`; de `50 Min.`, `3 Std.`, `45 Sek.`.
    pub fn to_approximate_duration_string(&self, ms: f64) -> Result<String, FormatError> {
        self.approximate.format(ms)
    }

    /// Formats `x` with the EZScript number property named `property` (one of
    /// [`FORMATTING_PROPERTIES`], e.g. `"toCompactDecimalString"`); `None` for any other name.
    /// This is the one place an evaluator needs to reach every formatter.
    ///
    /// ```
    /// let f = alea_locale::LocaleFormatter::new("en-US", "UTC", 0.0).unwrap();
    /// assert_eq!(f.format_property("withOrdinalSuffix", 2.0), Some(Ok("2nd".to_string())));
    /// assert_eq!(f.format_property("toUpperCase", 2.0), None);
    /// ```
    pub fn format_property(&self, property: &str, x: f64) -> Option<Result<String, FormatError>> {
        self.format_property_at(property, x, None)
    }

    /// [`Self::format_property`] with the evaluation's "now" for the date properties (see
    /// [`Self::to_date_string_with_now`]); `None` as `now_ms` uses the formatter's own.
    pub fn format_property_at(
        &self,
        property: &str,
        x: f64,
        now_ms: Option<f64>,
    ) -> Option<Result<String, FormatError>> {
        if let Some(now) = now_ms {
            match property {
                "toDateString" => return Some(self.to_date_string_with_now(x, now)),
                "toDateAndTimeString" => {
                    return Some(self.to_date_and_time_string_with_now(x, now));
                }
                "toDateIfNotTodayAndTimeString" => {
                    return Some(self.to_date_if_not_today_and_time_string_with_now(x, now));
                }
                _ => {}
            }
        }
        Some(match property {
            "toCompactDecimalString" => self.to_compact_decimal_string(x),
            "toCurrencyString" => self.to_currency_string(x),
            "toCompactCurrencyString" => self.to_compact_currency_string(x),
            "toPercentString" => self.to_percent_string(x),
            "withOrdinalSuffix" => self.with_ordinal_suffix(x),
            "toTimeString" => self.to_time_string(x),
            "toHMTimeString" => self.to_hm_time_string(x),
            "toDateString" => self.to_date_string(x),
            "toDateAndTimeString" => self.to_date_and_time_string(x),
            "toDateIfNotTodayAndTimeString" => self.to_date_if_not_today_and_time_string(x),
            "toTimeDurationString" => self.to_time_duration_string(x),
            "toHMTimeDurationString" => self.to_hm_time_duration_string(x),
            "toCompactTimeDurationString" => self.to_compact_time_duration_string(x),
            "toApproximateDurationString" => self.to_approximate_duration_string(x),
            _ => return None,
        })
    }
}

/// The EZScript number properties that format (ezscript.md §9.2, §9.3), in the spec's order;
/// [`LocaleFormatter::format_property`] accepts exactly these names.
pub const FORMATTING_PROPERTIES: [&str; 14] = [
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

/// R2 on its own: x with "3 significant digits" as the app's compact formatter keeps them
/// (integer part whole, `max(0, 3 − n)` fraction digits rounded half away from zero on the
/// binary value, trailing zeros dropped), as plain ASCII digits with a `.` point.
///
/// ```
/// use alea_locale::three_significant_digits;
/// assert_eq!(three_significant_digits(61.25).unwrap(), "61.3");
/// assert_eq!(three_significant_digits(2.456).unwrap(), "2.46");
/// assert_eq!(three_significant_digits(0.123).unwrap(), "0.12");
/// assert_eq!(three_significant_digits(123.4).unwrap(), "123");
/// ```
pub fn three_significant_digits(x: f64) -> Result<String, FormatError> {
    let x = crate::numbers::finite(x)?;
    Ok(rules::three_significant_digits(x).to_string())
}

#[cfg(test)]
mod send_sync {
    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn formatter_can_be_shared() {
        assert_send_sync::<super::LocaleFormatter>();
    }
}
