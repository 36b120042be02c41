//! Times in the file: ms since the epoch, or RFC 3339 text (no offset = local in the zone).

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

/// Parses a time as the tournament file writes it: RFC 3339 with an offset
/// (`2025-07-20T20:15:00+02:00`), or a local date and time without offset, read in `zone`.
/// Returns ms since the Unix epoch.
///
/// ```
/// use alea_tournament::parse_time;
/// assert_eq!(parse_time("2025-07-20T20:15:00+02:00", "UTC"), Ok(1753035300000.0));
/// assert_eq!(parse_time("2025-07-20T20:15:00", "Europe/Berlin"), Ok(1753035300000.0));
/// assert!(parse_time("yesterday", "UTC").is_err());
/// ```
pub fn parse_time(text: &str, zone: &str) -> Result<f64, String> {
    parse_time_in(text, &time_zone(zone)?)
}

/// Looks up an IANA time zone name (`Europe/Berlin`, `UTC`).
pub(crate) fn time_zone(name: &str) -> Result<TimeZone, String> {
    if name.eq_ignore_ascii_case("utc") {
        return Ok(TimeZone::UTC);
    }
    TimeZone::get(name).map_err(|_| format!("unknown time zone {name}"))
}

pub(crate) fn parse_time_in(text: &str, zone: &TimeZone) -> Result<f64, String> {
    let invalid = || format!("invalid time {text:?} (expected ms or RFC 3339 text)");
    if let Ok(ts) = text.parse::<Timestamp>() {
        return Ok(ts.as_millisecond() as f64);
    }
    let dt: DateTime = text.parse().map_err(|_| invalid())?;
    let ts = zone.to_timestamp(dt).map_err(|_| invalid())?;
    Ok(ts.as_millisecond() as f64)
}

/// A time as the `--simulate` lines print it: `YYYY-MM-DD HH:MM:SS` local in `zone` (ms floored
/// to whole seconds).
///
/// ```
/// use alea_tournament::local_time_text;
/// assert_eq!(local_time_text(1753035390000.0, "Europe/Berlin"), Ok("2025-07-20 20:16:30".into()));
/// ```
pub fn local_time_text(ms: f64, zone: &str) -> Result<String, String> {
    let tz = time_zone(zone)?;
    let secs = (ms / 1000.0).floor();
    let ts = Timestamp::from_second(secs as i64).map_err(|_| format!("time out of range: {ms}"))?;
    Ok(ts
        .to_zoned_datetime(tz)
        .strftime("%Y-%m-%d %H:%M:%S")
        .to_string())
}
