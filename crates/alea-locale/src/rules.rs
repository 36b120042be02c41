//! The thin rules (ezscript.md §9.1, R1–R11): every place where the app's formatting differs from
//! ICU4X's defaults, written once. The formatters in `numbers`, `times` and `durations` take CLDR
//! data (symbols, patterns, month names, unit words) from ICU4X and apply these rules on top.

use fixed_decimal::{Decimal, Sign, UnsignedDecimal};

/// R1: rounding is half away from zero **on the binary value** of the f64.
///
/// Why: the app is written in Dart, whose `round()` and `intl` formatters round the exact binary
/// value half away from zero; ICU rounds half-even on the shortest decimal. `2.675` is stored as
/// 2.67499999…, so it rounds to `2.67` here, while `0.125` (exact in binary) rounds to `0.13`.
///
/// Returns `|x|` rounded to `fraction_digits` digits after the point, as an unsigned decimal with
/// exactly that many fraction digits (trailing zeros kept), and the sign of `x`.
/// `x` must be finite; `fraction_digits` is at most 18.
pub(crate) fn round_half_away(x: f64, fraction_digits: u8) -> (Sign, UnsignedDecimal) {
    debug_assert!(x.is_finite() && fraction_digits <= 18);
    let sign = if x.is_sign_negative() && x != 0.0 {
        Sign::Negative
    } else {
        Sign::None
    };
    let magnitude = x.abs();
    let bits = magnitude.to_bits();
    let exponent_bits = ((bits >> 52) & 0x7ff) as i32;
    let fraction_bits = bits & ((1u64 << 52) - 1);
    // magnitude = mantissa × 2^exponent exactly.
    let (mantissa, exponent) = if exponent_bits == 0 {
        (fraction_bits, -1074)
    } else {
        (fraction_bits | (1u64 << 52), exponent_bits - 1075)
    };
    let mut value = if exponent >= 0 {
        // A whole number (every f64 ≥ 2^52 is one): its exact digits, no rounding needed.
        let digits = format!("{magnitude:.0}");
        UnsignedDecimal::try_from_str(&digits).unwrap_or_default()
    } else {
        let shift = exponent.unsigned_abs();
        // mantissa < 2^53 and 10^18 < 2^60, so the product fits in a u128.
        let scaled = u128::from(mantissa) * 10u128.pow(u32::from(fraction_digits));
        let units = if shift >= 127 {
            0 // scaled < 2^113 ≤ half of 2^shift: rounds down to zero
        } else {
            let quotient = scaled >> shift;
            let remainder = scaled & ((1u128 << shift) - 1);
            if remainder >= 1u128 << (shift - 1) {
                quotient + 1
            } else {
                quotient
            }
        };
        UnsignedDecimal::from(units).multiplied_pow10(-i16::from(fraction_digits))
    };
    value.pad_end(-i16::from(fraction_digits));
    let sign = if value.is_zero() { Sign::None } else { sign };
    (sign, value)
}

/// Digits of the integer part of `|x|` (1 for 0), as R2 counts them.
fn integer_digits(x: f64) -> u32 {
    let whole = x.abs().trunc();
    if whole < 1.0 {
        1
    } else if whole < 1e15 {
        (whole as u64).checked_ilog10().unwrap_or(0) + 1
    } else {
        format!("{whole:.0}").len() as u32
    }
}

/// R2: "3 significant digits" as the app's compact formatter shows them.
///
/// Why: Dart `intl` keeps the integer part whole and shows `max(0, 3 − n)` fraction digits
/// (n = digits of the integer part, 1 for 0), rounded by R1 with carry, trailing zeros dropped:
/// `1.25`, `61.25` → `61.3`, `2.456` → `2.46`, `0.123` → `0.12`, `123.4` → `123`. ICU's compact
/// formatter instead rounds to two significant digits or to whole numbers (`61K`).
pub fn three_significant_digits(x: f64) -> Decimal {
    let fraction_digits = 3u32.saturating_sub(integer_digits(x)) as u8;
    let (sign, mut value) = round_half_away(x, fraction_digits);
    value.trim_end();
    Decimal::new(sign, value)
}

/// Number of digits of the integer part of an unsigned decimal (1 for 0).
pub(crate) fn decimal_integer_digits(value: &UnsignedDecimal) -> i16 {
    if value.is_zero() {
        1
    } else {
        value.nonzero_magnitude_start().max(0) + 1
    }
}

/// R3: choose the compact style of `x` the way the app does (Dart `intl`).
///
/// Why: ICU picks the style from the magnitude of the unrounded number and rounds to two
/// significant digits; the app starts from the plain (fallback) style and moves to the style of
/// magnitude m = 3, 4, … while m + 1 ≤ L, where L is the number of integer digits of x as the
/// current style prints it (R2 of x / divisor, times the divisor). So 999999 is `1M` in English
/// (999.999K prints as 1000K, seven digits) and `999999` in German, whose styles below 10⁶ are
/// the fallback (CLDR pattern "0", exponent 0). |x| < 10 is never compacted.
///
/// `exponent_for_magnitude` is ICU4X's `compact_exponent_for_magnitude` for the locale. Returns
/// the R2 significand of x / 10^e and e (0 = the fallback style, a plain number).
pub(crate) fn compact_style(x: f64, exponent_for_magnitude: impl Fn(i16) -> u8) -> (Decimal, u8) {
    let mut significand = three_significant_digits(x);
    let mut exponent = 0u8;
    if x.abs() < 10.0 {
        return (significand, exponent);
    }
    let mut printed_digits = decimal_integer_digits(&significand.absolute);
    let mut magnitude: i16 = 3;
    // m + 1 ≤ L
    while magnitude < printed_digits {
        let style = exponent_for_magnitude(magnitude);
        // The same divisor prints the same digits: only a new style can change L (this keeps
        // 1e300 from recomputing 300 times past the largest style).
        if style != exponent {
            exponent = style;
            significand = three_significant_digits(x / 10f64.powi(i32::from(exponent)));
            printed_digits = decimal_integer_digits(&significand.absolute) + i16::from(exponent);
        }
        magnitude += 1;
    }
    (significand, exponent)
}

/// R4: compact output is never grouped (German `1250`, `123456`), following Dart `intl`, whose
/// compact formatter prints its fallback and significands without grouping separators.
pub(crate) const COMPACT_GROUPING: icu_decimal::options::GroupingStrategy =
    icu_decimal::options::GroupingStrategy::Never;

/// R5: currency amounts show no fraction digits when the amount rounded (R1) to the currency's
/// digits is whole (`$1,250`), else the currency's digits (`$12.50`).
///
/// Why: the app's documentation shows only whole amounts (`$1,250`), while ICU always pads to the
/// currency's digits (`$1,250.00`); showing cents only when there are some keeps both readable.
/// Returns the rounded amount with the fraction digits to show.
pub(crate) fn currency_amount(x: f64, currency_digits: u8) -> Decimal {
    let (sign, mut value) = round_half_away(x, currency_digits);
    let trimmed = value.clone().trimmed_end();
    if *trimmed.magnitude_range().start() >= 0 {
        value = trimmed;
    }
    Decimal::new(sign, value)
}

/// R6: the currency of a region, when the tournament does not set one (`settings.currency`):
/// CLDR's current tender of the region (`PL` → PLN, `SE` → SEK, `CH` → CHF, euro area → EUR),
/// US dollars for a region without one (or none).
///
/// Why: the app takes the currency from the device region; the seed's examples (en-US `$`, de-DE
/// `€`) are CLDR's answer, and a short hand-written table gave USD to every other region (pl-PL
/// showed `1250 $`). ICU4X does not ship CLDR's region → currency data, so it is generated into
/// `cldr_tables` from CLDR's supplemental `currencyData`.
///
/// ```
/// use alea_locale::currency_for_region;
/// assert_eq!(currency_for_region(Some("PL")), "PLN");
/// assert_eq!(currency_for_region(Some("AQ")), "USD");
/// ```
pub fn currency_for_region(region: Option<&str>) -> &'static str {
    region
        .and_then(crate::cldr::region_currency)
        .unwrap_or("USD")
}

/// R7: percent is x × 100 with no fraction digits, rounded by R1 (Dart `NumberFormat.percentPattern`
/// multiplies in f64, so the product's binary value is what gets rounded).
pub(crate) fn percent_value(x: f64) -> Decimal {
    let hundredfold = x * 100.0;
    let (sign, value) = if hundredfold.is_finite() {
        round_half_away(hundredfold, 0)
    } else {
        // |x| > 1.7e306 overflows in f64; such an x is whole, so scale its digits exactly.
        let (sign, value) = round_half_away(x, 0);
        (sign, value.multiplied_pow10(2))
    };
    Decimal::new(sign, value)
}

/// R7: the percent sign of the numbering system the digits are written in: CLDR's `arab`
/// symbols (`ar`: `٪` + U+061C ARABIC LETTER MARK) with Arabic-Indic digits, its `arabext` ones
/// (`fa`, `ps`: `٪`) with Extended Arabic-Indic digits; `None` keeps ICU4X's sign.
///
/// Why: ICU4X's percent pattern carries the `latn` sign of `ar` (`‎%‎` with LRMs) even when the
/// number is in Arabic-Indic digits (ar-EG printed `٢٥‎%‎`, ICU and CLDR `٢٥٪؜`).
pub(crate) fn native_percent_sign(formatted: &str) -> Option<&'static str> {
    if formatted
        .chars()
        .any(|c| ('\u{660}'..='\u{669}').contains(&c))
    {
        Some("\u{66a}\u{61c}")
    } else if formatted
        .chars()
        .any(|c| ('\u{6f0}'..='\u{6f9}').contains(&c))
    {
        Some("\u{66a}")
    } else {
        None
    }
}

/// The percent signs ICU4X's patterns may carry, longest first (see [`native_percent_sign`]).
pub(crate) const PERCENT_SIGNS: &[&str] = &["\u{200e}%\u{200e}", "\u{66a}\u{61c}", "\u{66a}", "%"];

/// R8: ordinal suffixes are English in every locale (the app appends `st nd rd th` whatever the
/// language), chosen by CLDR's English ordinal plural rules.
pub(crate) fn english_ordinal_suffix(category: icu_plurals::PluralCategory) -> &'static str {
    use icu_plurals::PluralCategory;
    match category {
        PluralCategory::One => "st",
        PluralCategory::Two => "nd",
        PluralCategory::Few => "rd",
        _ => "th",
    }
}

/// R9: the year variant of dates is CLDR's `yMMMd` skeleton of the locale (en `MMM d, y`, de
/// `d. MMM y`, ja `y年M月d日`, ar `d MMM y`).
///
/// Why: the app asks for the `yMMMd` skeleton. ICU4X 2.x has no skeleton matching and its `YMD`
/// medium is the locale's medium date, numeric in de (`20.07.2024`), ja (`2024/07/20`) and ar;
/// so the pattern comes from CLDR's availableFormats (generated into `cldr_tables`). `None`
/// only for a locale CLDR has no Gregorian data for (then ICU4X's `YMD` medium is used).
pub(crate) fn year_date_pattern(locale: &icu_locale::Locale) -> Option<&'static str> {
    crate::cldr::year_date_pattern(locale)
}

/// R9: date and time are joined by the locale's CLDR medium date-time pattern (`{1}, {0}` in en
/// and de: `Jul 20, 8:15:00 PM`, `20. Juli, 20:15:00`; `{1} {0}` in sv and ja); this separator
/// is used only if that pattern cannot be read off ICU4X's output.
///
/// Why: the app formats date and time together, so the locale's own combination applies; a
/// fixed `", "` gave `7月20日, 20:15:00` in ja where ICU gives `7月20日 20:15:00`.
pub(crate) const DATE_TIME_SEPARATOR: &str = ", ";

/// R10: the digital durations (`H:MM:SS`, `H:MM`, `M:SS`) are locale-invariant: the app builds
/// them with ASCII digits and `:` in every language.
pub(crate) const DIGITAL_DURATION_SEPARATOR: char = ':';

/// R11: the unit of an approximate duration: hours if **more than** 2 h, minutes if more than
/// 2 min, else seconds; the count is rounded by R1 (Dart's `round()`), so 2 h 50 min is `3 hr`
/// and exactly 2 h is `120 min`.
pub(crate) fn approximate_unit(seconds: f64) -> (ApproximateUnit, f64) {
    let magnitude = seconds.abs();
    let (unit, divisor) = if magnitude > 7200.0 {
        (ApproximateUnit::Hour, 3600.0)
    } else if magnitude > 120.0 {
        (ApproximateUnit::Minute, 60.0)
    } else {
        (ApproximateUnit::Second, 1.0)
    };
    (unit, seconds / divisor)
}

/// R11: an approximate duration starts from the nearest whole second, half away from zero
/// (1500 ms → 2 s, −1500 ms → −2 s), unlike the digital forms, which cut seconds off (R10).
///
/// Why: the seed says the approximate form rounds to the nearest ("auf die nächste gerundet"),
/// so a countdown showing `2 Sek.` at 1.5 s does not read as `1 Sek.` too early.
pub(crate) fn nearest_second(ms: f64) -> f64 {
    // R1 with no fraction digits is exactly `f64::round` (half away from zero, binary value).
    (ms / 1000.0).round()
}

/// The unit chosen by R11.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ApproximateUnit {
    Hour,
    Minute,
    Second,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r2(x: f64) -> String {
        three_significant_digits(x).to_string()
    }

    #[test]
    fn r1_rounds_the_binary_value_half_away_from_zero() {
        let show = |x: f64, d: u8| {
            let (sign, v) = round_half_away(x, d);
            Decimal::new(sign, v).to_string()
        };
        assert_eq!(show(62.5, 0), "63");
        assert_eq!(show(-2.5, 0), "-3");
        assert_eq!(show(0.125, 2), "0.13");
        assert_eq!(show(2.675, 2), "2.67"); // 2.67499999… in binary
        assert_eq!(show(12.5, 2), "12.50");
        assert_eq!(show(0.004, 2), "0.00");
        assert_eq!(show(-0.004, 2), "0.00");
        assert_eq!(show(1e300, 0).len(), 301);
        assert_eq!(show(5e-324, 2), "0.00");
        assert_eq!(show(9007199254740993.0, 1), "9007199254740992.0");
    }

    #[test]
    fn r2_keeps_three_significant_digits() {
        assert_eq!(r2(1.25), "1.25");
        assert_eq!(r2(61.25), "61.3");
        assert_eq!(r2(2.456), "2.46");
        assert_eq!(r2(0.123), "0.12");
        assert_eq!(r2(123.4), "123");
        assert_eq!(r2(9.996), "10");
        assert_eq!(r2(99.96), "100");
        assert_eq!(r2(0.0), "0");
        assert_eq!(r2(-1.5), "-1.5");
        assert_eq!(r2(123456.0), "123456");
    }

    #[test]
    fn r3_follows_the_printed_digit_count() {
        let english = |m: i16| match m {
            ..3 => 0,
            3..6 => 3,
            6..9 => 6,
            _ => 9,
        };
        let german = |m: i16| match m {
            ..6 => 0,
            6..9 => 6,
            _ => 9,
        };
        let show = |x: f64, f: &dyn Fn(i16) -> u8| {
            let (s, e) = compact_style(x, f);
            format!("{s}e{e}")
        };
        assert_eq!(show(999999.0, &english), "1e6");
        assert_eq!(show(999999.0, &german), "999999e0");
        assert_eq!(show(1250.0, &english), "1.25e3");
        assert_eq!(show(61250.0, &english), "61.3e3");
        assert_eq!(show(123456.0, &english), "123e3");
        assert_eq!(show(999.6, &english), "1e3");
        assert_eq!(show(2.456, &english), "2.46e0");
        assert_eq!(show(-1500000.0, &german), "-1.5e6");
    }

    #[test]
    fn r5_drops_cents_only_on_whole_amounts() {
        assert_eq!(currency_amount(1250.0, 2).to_string(), "1250");
        assert_eq!(currency_amount(12.5, 2).to_string(), "12.50");
        assert_eq!(currency_amount(12.004, 2).to_string(), "12");
        assert_eq!(currency_amount(12.5, 0).to_string(), "13");
        assert_eq!(currency_amount(312.5, 0).to_string(), "313");
    }

    #[test]
    fn r6_r11_tables() {
        assert_eq!(currency_for_region(Some("DE")), "EUR");
        assert_eq!(currency_for_region(Some("LI")), "CHF");
        assert_eq!(currency_for_region(Some("BR")), "BRL");
        assert_eq!(currency_for_region(Some("ZZ")), "USD");
        assert_eq!(currency_for_region(None), "USD");
        assert_eq!(approximate_unit(7200.0).0, ApproximateUnit::Minute);
        assert_eq!(approximate_unit(7201.0).0, ApproximateUnit::Hour);
        assert_eq!(approximate_unit(120.0).0, ApproximateUnit::Second);
        assert_eq!(nearest_second(1500.0), 2.0);
        assert_eq!(nearest_second(1499.0), 1.0);
        assert_eq!(nearest_second(-1500.0), -2.0);
    }
}
