//! Every formatter on arbitrary f64 values (any bit pattern) and several locales: never panics,
//! and fails only with the documented errors.

use alea_locale::{FORMATTING_PROPERTIES, FormatError, LocaleError, LocaleFormatter};
use proptest::prelude::*;
use std::sync::OnceLock;

fn formatters() -> &'static [LocaleFormatter] {
    static FORMATTERS: OnceLock<Vec<LocaleFormatter>> = OnceLock::new();
    FORMATTERS.get_or_init(|| {
        ["en-US", "de-DE", "fr-FR", "ar-EG", "ja", "th", "de-CH"]
            .iter()
            .map(|tag| LocaleFormatter::new(tag, "Europe/Berlin", 1_753_035_300_000.0).unwrap())
            .collect()
    })
}

fn check(x: f64) {
    for formatter in formatters() {
        for property in FORMATTING_PROPERTIES {
            match formatter
                .format_property(property, x)
                .expect("a known property")
            {
                Ok(text) => assert!(!text.is_empty(), "{property}({x}) is empty"),
                Err(FormatError::NonFinite) => assert!(!x.is_finite(), "{property}({x})"),
                Err(FormatError::TimeOutOfRange) => {
                    assert!(x.abs() > 1e14, "{property}({x}) out of range")
                }
                Err(other) => panic!("{property}({x}) in {}: {other}", formatter.locale_tag()),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn any_bits(bits in any::<u64>()) {
        check(f64::from_bits(bits));
    }

    #[test]
    fn everyday_numbers(x in -1e13f64..1e13) {
        check(x);
        check(x.round());
        check(x / 1e6);
    }
}

#[test]
fn special_values() {
    for x in [
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        5e-324,
        f64::MAX,
        f64::MIN,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        9.5,
        999.5,
        999_999.5,
        -999_999.5,
        2f64.powi(53) + 2.0,
        8.64e15,
        -8.64e15,
    ] {
        check(x);
    }
}

#[test]
fn construction_errors() {
    let error = |locale: &str, zone: &str, currency: Option<&str>| {
        LocaleFormatter::with_currency(locale, zone, 0.0, currency).unwrap_err()
    };
    assert_eq!(
        error("en-US", "Mars/Olympus", None),
        LocaleError::UnknownTimeZone("Mars/Olympus".into())
    );
    assert_eq!(
        error("en-US", "UTC", Some("eur")).to_string(),
        "Invalid currency code \"eur\""
    );
    assert_eq!(
        error("!!", "UTC", None).to_string(),
        "Invalid locale \"!!\""
    );
    assert!(LocaleFormatter::new("en-US", "UTC", f64::NAN).is_err());
}

/// Issue 14: an unknown locale is an error naming the nearest CLDR locales, not silently
/// CLDR's root data.
#[test]
fn unknown_locales_name_the_nearest_known_ones() {
    let error = |locale: &str| LocaleFormatter::new(locale, "UTC", 0.0).unwrap_err();
    assert_eq!(
        error("zz-ZZ").to_string(),
        "Unknown locale \"zz-ZZ\"; did you mean az, dz, or lzz?"
    );
    assert!(matches!(
        error("zz-ZZ"),
        LocaleError::UnknownLocale { ref nearest, .. } if nearest.len() == 3
    ));
    assert_eq!(
        error("de-ZZ").to_string(),
        "Unknown locale \"de-ZZ\"; did you mean de-AT, de-BE, or de-CH?"
    );
    assert_eq!(
        error("dee").to_string(),
        "Unknown locale \"dee\"; did you mean de, dje, or ee?"
    );
    for known in ["de-CH", "es-419", "sr-Latn", "yue", "en-AQ", "und"] {
        assert!(LocaleFormatter::new(known, "UTC", 0.0).is_ok(), "{known}");
    }
}
