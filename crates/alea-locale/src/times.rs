//! Times and dates (ezscript.md §9.3): milliseconds since the epoch, floored to whole seconds,
//! shown as local time of the tournament's zone (jiff, bundled tzdb) with CLDR patterns (ICU4X).

use crate::error::{FormatError, LocaleError};
use crate::numbers::finite;
use crate::rules;
use icu_datetime::fieldsets::{MD, MDT, T, YMD};
use icu_datetime::input::{Date, DateTime, Time};
use icu_datetime::options::TimePrecision;
use icu_datetime::pattern::{DateTimePattern, FixedCalendarDateTimeNames};
use icu_datetime::{DateTimeFormatter, DateTimeFormatterPreferences};
use icu_locale::Locale;
use jiff::tz::{TimeZone, TimeZoneDatabase};
use std::sync::OnceLock;
use writeable::TryWriteable;

fn data_error(error: impl std::fmt::Display) -> LocaleError {
    LocaleError::Data(error.to_string())
}

/// The time-zone database: always jiff's bundled copy of the IANA tzdb, so zones resolve on a
/// machine without `/usr/share/zoneinfo` and every machine gives the same local times.
fn database() -> &'static TimeZoneDatabase {
    static DATABASE: OnceLock<TimeZoneDatabase> = OnceLock::new();
    DATABASE.get_or_init(TimeZoneDatabase::bundled)
}

/// Looks up an IANA zone name (`Europe/Berlin`, `UTC`) in the bundled database.
pub(crate) fn time_zone(name: &str) -> Result<TimeZone, LocaleError> {
    database()
        .get(name)
        .map_err(|_| LocaleError::UnknownTimeZone(name.to_string()))
}

/// How the locale joins a date and a time: CLDR's medium date-time combination pattern
/// (`{1}, {0}` in en and de, `{1} {0}` in sv and ja, `{1}، {0}` in ar), with the parts around.
#[derive(Debug)]
struct Glue {
    time_first: bool,
    before: String,
    between: String,
    after: String,
}

impl Glue {
    /// Cuts ICU4X's month-day-time output where its month-day and time outputs appear: what is
    /// left is the combination pattern's literal text. `None` if they cannot be found.
    fn find(combined: &str, date: &str, time: &str) -> Option<Glue> {
        let d = combined.find(date)?;
        let t = combined.find(time)?;
        let (first, first_len, second, second_len) = if d <= t {
            (d, date.len(), t, time.len())
        } else {
            (t, time.len(), d, date.len())
        };
        let between = combined.get(first + first_len..second)?;
        Some(Glue {
            time_first: t < d,
            before: combined[..first].to_string(),
            between: between.to_string(),
            after: combined[second + second_len..].to_string(),
        })
    }

    fn join(&self, date: &str, time: &str) -> String {
        let (first, second) = if self.time_first {
            (time, date)
        } else {
            (date, time)
        };
        format!(
            "{}{first}{}{second}{}",
            self.before, self.between, self.after
        )
    }
}

/// The year variant of `toDateString` (R9).
#[derive(Debug)]
enum YearDate {
    Medium(Box<DateTimeFormatter<YMD>>),
    Pattern(
        Box<FixedCalendarDateTimeNames<icu_calendar::Gregorian>>,
        DateTimePattern,
    ),
}

/// A local time as the formatters need it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LocalTime {
    year: i16,
    month: i8,
    day: i8,
    hour: i8,
    minute: i8,
    second: i8,
}

impl LocalTime {
    fn icu(&self) -> Result<DateTime<icu_calendar::Iso>, FormatError> {
        let date = Date::try_new_iso(i32::from(self.year), self.month as u8, self.day as u8)
            .map_err(|_| FormatError::TimeOutOfRange)?;
        let time = Time::try_new(self.hour as u8, self.minute as u8, self.second as u8, 0)
            .map_err(|_| FormatError::TimeOutOfRange)?;
        Ok(DateTime { date, time })
    }

    fn same_day(&self, other: &LocalTime) -> bool {
        (self.year, self.month, self.day) == (other.year, other.month, other.day)
    }
}

/// The time and date formatters of one locale, zone and "now".
#[derive(Debug)]
pub(crate) struct TimeFormats {
    zone: TimeZone,
    now: LocalTime,
    hms: DateTimeFormatter<T>,
    hm: DateTimeFormatter<T>,
    month_day: DateTimeFormatter<MD>,
    year_date: YearDate,
    glue: Glue,
}

impl TimeFormats {
    pub(crate) fn new(locale: &Locale, zone: TimeZone, now_ms: f64) -> Result<Self, LocaleError> {
        let prefs: DateTimeFormatterPreferences = locale.into();
        let hms = DateTimeFormatter::try_new(prefs, T::hms()).map_err(data_error)?;
        let hm = DateTimeFormatter::try_new(prefs, T::hm()).map_err(data_error)?;
        let month_day = DateTimeFormatter::try_new(prefs, MD::medium()).map_err(data_error)?;
        let year_date = match rules::year_date_pattern(locale) {
            Some(pattern) => {
                let pattern: DateTimePattern = pattern.parse().map_err(data_error)?;
                let mut names = FixedCalendarDateTimeNames::try_new(prefs).map_err(data_error)?;
                names.include_for_pattern(&pattern).map_err(data_error)?;
                YearDate::Pattern(Box::new(names), pattern)
            }
            None => YearDate::Medium(Box::new(
                DateTimeFormatter::try_new(prefs, YMD::medium()).map_err(data_error)?,
            )),
        };
        let now = local_time(&zone, now_ms)
            .map_err(|_| LocaleError::Data(format!("now {now_ms} is out of range")))?;
        let month_day_time = DateTimeFormatter::try_new(
            prefs,
            MDT::medium().with_time_precision(TimePrecision::Second),
        )
        .map_err(data_error)?;
        // Any date and time whose parts print differently; 20 July 2025, 20:15:00.
        let sample = DateTime {
            date: Date::try_new_iso(2025, 7, 20).map_err(data_error)?,
            time: Time::try_new(20, 15, 0, 0).map_err(data_error)?,
        };
        let glue = Glue::find(
            &month_day_time.format(&sample).to_string(),
            &month_day.format(&sample).to_string(),
            &hms.format(&sample).to_string(),
        )
        .unwrap_or(Glue {
            time_first: false,
            before: String::new(),
            between: rules::DATE_TIME_SEPARATOR.to_string(),
            after: String::new(),
        });
        Ok(Self {
            zone,
            now,
            hms,
            hm,
            month_day,
            year_date,
            glue,
        })
    }

    pub(crate) fn local(&self, ms: f64) -> Result<LocalTime, FormatError> {
        local_time(&self.zone, ms)
    }

    /// `YYYY-MM-DD HH:MM:SS`, local time, locale-invariant.
    pub(crate) fn local_timestamp(&self, ms: f64) -> Result<String, FormatError> {
        let t = self.local(ms)?;
        Ok(format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
            t.year, t.month, t.day, t.hour, t.minute, t.second
        ))
    }

    /// `toTimeString`: CLDR time with seconds (`8:15:00\u{202F}PM`, `20:15:00`).
    pub(crate) fn time(&self, ms: f64) -> Result<String, FormatError> {
        Ok(self.hms.format(&self.local(ms)?.icu()?).to_string())
    }

    /// `toHMTimeString`: CLDR time with minutes (`8:15\u{202F}PM`, `20:15`).
    pub(crate) fn hm_time(&self, ms: f64) -> Result<String, FormatError> {
        Ok(self.hm.format(&self.local(ms)?.icu()?).to_string())
    }

    /// The local time of "now": the formatter's own, or one passed per call.
    fn now_or(&self, now_ms: Option<f64>) -> Result<LocalTime, FormatError> {
        match now_ms {
            Some(ms) => self.local(ms),
            None => Ok(self.now),
        }
    }

    /// `toDateString`: CLDR `MD` medium, or the year variant (R9) when the local year is not
    /// now's.
    pub(crate) fn date(&self, ms: f64, now_ms: Option<f64>) -> Result<String, FormatError> {
        let local = self.local(ms)?;
        self.date_of(&local, &self.now_or(now_ms)?)
    }

    fn date_of(&self, local: &LocalTime, now: &LocalTime) -> Result<String, FormatError> {
        let icu = local.icu()?;
        if local.year == now.year {
            return Ok(self.month_day.format(&icu).to_string());
        }
        match &self.year_date {
            YearDate::Medium(formatter) => Ok(formatter.format(&icu).to_string()),
            YearDate::Pattern(names, pattern) => {
                let gregorian = DateTime {
                    date: icu.date.to_calendar(icu_calendar::Gregorian),
                    time: icu.time,
                };
                names
                    .with_pattern_unchecked(pattern)
                    .format(&gregorian)
                    .try_write_to_string()
                    .map(|text| text.into_owned())
                    .map_err(|(error, _)| FormatError::Data(error.to_string()))
            }
        }
    }

    /// `toDateAndTimeString`: date and time joined by the locale's combination pattern (R9).
    pub(crate) fn date_and_time(
        &self,
        ms: f64,
        now_ms: Option<f64>,
    ) -> Result<String, FormatError> {
        let local = self.local(ms)?;
        let now = self.now_or(now_ms)?;
        self.date_and_time_of(&local, &now)
    }

    fn date_and_time_of(&self, local: &LocalTime, now: &LocalTime) -> Result<String, FormatError> {
        let time = self.hms.format(&local.icu()?).to_string();
        Ok(self.glue.join(&self.date_of(local, now)?, &time))
    }

    /// `toDateIfNotTodayAndTimeString`: the time alone on now's local date, else date and time.
    pub(crate) fn date_if_not_today_and_time(
        &self,
        ms: f64,
        now_ms: Option<f64>,
    ) -> Result<String, FormatError> {
        let local = self.local(ms)?;
        let now = self.now_or(now_ms)?;
        if local.same_day(&now) {
            Ok(self.hms.format(&local.icu()?).to_string())
        } else {
            self.date_and_time_of(&local, &now)
        }
    }
}

/// Parses a time as EZScript's `--now` and the tournament file give it: whole or fractional ms
/// since the Unix epoch (`1753035300000`), or RFC 3339 with an offset
/// (`2025-07-20T20:15:00+02:00`). Returns ms since the epoch.
pub(crate) fn parse_time(text: &str) -> Option<f64> {
    let text = text.trim();
    if let Ok(ms) = text.parse::<f64>() {
        return ms.is_finite().then_some(ms);
    }
    let timestamp: jiff::Timestamp = text.parse().ok()?;
    Some(timestamp.as_millisecond() as f64)
}

/// `ms` since the epoch, floored to whole seconds, as local time in `zone`.
fn local_time(zone: &TimeZone, ms: f64) -> Result<LocalTime, FormatError> {
    let seconds = (finite(ms)? / 1000.0).floor();
    // jiff's range is about ±9999 years; the cast is exact inside it.
    if seconds.abs() > 4e11 {
        return Err(FormatError::TimeOutOfRange);
    }
    let timestamp =
        jiff::Timestamp::from_second(seconds as i64).map_err(|_| FormatError::TimeOutOfRange)?;
    let civil = zone.to_datetime(timestamp);
    Ok(LocalTime {
        year: civil.year(),
        month: civil.month(),
        day: civil.day(),
        hour: civil.hour(),
        minute: civil.minute(),
        second: civil.second(),
    })
}
