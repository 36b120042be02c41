//! The locale formatter: [`alea_ezscript::Formatter`] implemented with `alea-locale`.
//!
//! `alea_locale::LocaleFormatter` is built for one "now" (the dates compare with it), while an
//! EZScript evaluation passes its own `now()` (a simulated clock advances it every tick). Only
//! now's local *date* matters to those comparisons, so one formatter per local date is built
//! and kept (a clock crosses midnight rarely).

use alea_ezscript::Formatter;
use alea_locale::{FormatError, LocaleError, LocaleFormatter};
use alea_tournament::local_time_text;
use std::sync::Mutex;

/// Formatters kept for dates other than the session's (a clock running for days).
const MAX_EXTRA_DAYS: usize = 8;

/// Formats numbers, times and durations for one locale and time zone (ezscript.md §9).
#[derive(Debug)]
pub struct LocaleFormat {
    locale: String,
    zone: String,
    currency: Option<String>,
    base_day: String,
    base: LocaleFormatter,
    others: Mutex<Vec<(String, LocaleFormatter)>>,
}

fn day_of(ms: f64, zone: &str) -> String {
    local_time_text(ms, zone)
        .map(|t| t.chars().take(10).collect())
        .unwrap_or_default()
}

fn text(r: Result<String, FormatError>) -> Result<String, String> {
    r.map_err(|e| e.to_string())
}

impl LocaleFormat {
    /// A formatter for a BCP 47 tag (`de` → `de-DE` by likely subtags), an IANA zone, the
    /// session's now (ms) and the tournament's `settings.currency` override.
    pub fn new(
        locale: &str,
        zone: &str,
        now_ms: f64,
        currency: Option<&str>,
    ) -> Result<LocaleFormat, LocaleError> {
        let base = LocaleFormatter::with_currency(locale, zone, now_ms, currency)?;
        Ok(LocaleFormat {
            locale: base.locale_tag(),
            zone: zone.to_string(),
            currency: currency.map(str::to_string),
            base_day: day_of(now_ms, zone),
            base,
            others: Mutex::new(Vec::new()),
        })
    }

    /// The resolved locale tag (`de-DE`).
    pub fn locale_tag(&self) -> &str {
        &self.locale
    }

    /// The time zone.
    pub fn time_zone(&self) -> &str {
        &self.zone
    }

    /// Runs `f` with a formatter whose "now" lies on the same local date as `now_ms`.
    fn on_day(
        &self,
        now_ms: f64,
        f: impl Fn(&LocaleFormatter) -> Result<String, FormatError>,
    ) -> Result<String, String> {
        let day = day_of(now_ms, &self.zone);
        if day == self.base_day || !now_ms.is_finite() {
            return text(f(&self.base));
        }
        let mut others = self.others.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, fmt)) = others.iter().find(|(d, _)| *d == day) {
            return text(f(fmt));
        }
        let fmt = LocaleFormatter::with_currency(
            &self.locale,
            &self.zone,
            now_ms,
            self.currency.as_deref(),
        )
        .map_err(|e| e.to_string())?;
        let out = text(f(&fmt));
        if others.len() >= MAX_EXTRA_DAYS {
            others.remove(0);
        }
        others.push((day, fmt));
        out
    }
}

impl Formatter for LocaleFormat {
    fn compact_decimal(&self, x: f64) -> Result<String, String> {
        text(self.base.to_compact_decimal_string(x))
    }
    fn currency(&self, x: f64) -> Result<String, String> {
        text(self.base.to_currency_string(x))
    }
    fn compact_currency(&self, x: f64) -> Result<String, String> {
        text(self.base.to_compact_currency_string(x))
    }
    fn percent(&self, x: f64) -> Result<String, String> {
        text(self.base.to_percent_string(x))
    }
    fn ordinal(&self, x: f64) -> Result<String, String> {
        text(self.base.with_ordinal_suffix(x))
    }
    fn time(&self, ms: f64, _now_ms: f64) -> Result<String, String> {
        text(self.base.to_time_string(ms))
    }
    fn hm_time(&self, ms: f64, _now_ms: f64) -> Result<String, String> {
        text(self.base.to_hm_time_string(ms))
    }
    fn date(&self, ms: f64, now_ms: f64) -> Result<String, String> {
        self.on_day(now_ms, |f| f.to_date_string(ms))
    }
    fn date_and_time(&self, ms: f64, now_ms: f64) -> Result<String, String> {
        self.on_day(now_ms, |f| f.to_date_and_time_string(ms))
    }
    fn date_if_not_today_and_time(&self, ms: f64, now_ms: f64) -> Result<String, String> {
        self.on_day(now_ms, |f| f.to_date_if_not_today_and_time_string(ms))
    }
    fn time_duration(&self, ms: f64) -> Result<String, String> {
        text(self.base.to_time_duration_string(ms))
    }
    fn hm_time_duration(&self, ms: f64) -> Result<String, String> {
        text(self.base.to_hm_time_duration_string(ms))
    }
    fn compact_time_duration(&self, ms: f64) -> Result<String, String> {
        text(self.base.to_compact_time_duration_string(ms))
    }
    fn approximate_duration(&self, ms: f64) -> Result<String, String> {
        text(self.base.to_approximate_duration_string(ms))
    }
}
