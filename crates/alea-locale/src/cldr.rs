//! CLDR data that ICU4X 2.x does not ship, read from the generated `cldr_tables` (CLDR's JSON
//! release; `scripts/gen-locale-tables.py` regenerates it): each region's currency, the list of
//! CLDR locales, and the `yMMMd` skeleton's pattern per locale.

use crate::cldr_tables::{LOCALES, REGION_CURRENCY, YEAR_DATE_PATTERNS};
use icu_locale::{Locale, LocaleExpander};

fn lookup<'t>(table: &'t [(&str, &str)], key: &str) -> Option<&'t str> {
    table
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .map(|i| table[i].1)
}

/// The current ISO 4217 currency of a region (`PL` → `PLN`), `None` for a region CLDR does not
/// list or one without a current tender (`AQ`).
pub(crate) fn region_currency(region: &str) -> Option<&'static str> {
    lookup(REGION_CURRENCY, region).filter(|code| !code.is_empty())
}

/// Whether CLDR knows the region: a two-letter region it has currency data for, or a numeric
/// UN M.49 area (`419`, Latin America).
pub(crate) fn is_known_region(region: &str) -> bool {
    region.bytes().all(|b| b.is_ascii_digit()) || lookup(REGION_CURRENCY, region).is_some()
}

/// Whether some CLDR locale has this language subtag (`de`, `yue`).
pub(crate) fn is_known_language(language: &str) -> bool {
    LOCALES
        .iter()
        .any(|tag| tag.split('-').next() == Some(language))
}

/// Every CLDR locale tag (`de`, `de-CH`, `sr-Latn`), for suggestions.
pub(crate) fn locales() -> &'static [&'static str] {
    LOCALES
}

/// CLDR's `yMMMd` pattern for the locale (`MMM d, y`, `d. MMM y`, `y年M月d日`).
///
/// The table names locales as CLDR does (default script omitted: `en-GB`, `zh-Hant`), so the
/// locale is looked up as language-script-region and then without its last subtag, with the
/// script written only when it is not the language's default (`zh-TW` → `zh-Hant-TW`,
/// `zh-Hant`, `zh`; `de-CH` → `de-CH`, `de`). The generator drops an entry equal to what this
/// lookup finds one step up.
pub(crate) fn year_date_pattern(locale: &Locale) -> Option<&'static str> {
    let expander = LocaleExpander::new_common();
    let language = locale.id.language;
    let mut full = locale.id.clone();
    full.variants.clear();
    expander.maximize(&mut full);
    let mut base = icu_locale::LanguageIdentifier::from((language, None, None));
    expander.maximize(&mut base);
    let mut tag = language.to_string();
    if let Some(script) = full.script.filter(|s| Some(*s) != base.script) {
        tag = format!("{tag}-{script}");
    }
    if let Some(region) = full.region {
        tag = format!("{tag}-{region}");
    }
    let mut candidate = tag.as_str();
    loop {
        if let Some(pattern) = lookup(YEAR_DATE_PATTERNS, candidate) {
            return Some(pattern);
        }
        candidate = &candidate[..candidate.rfind('-')?];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(tag: &str) -> Option<&'static str> {
        year_date_pattern(&tag.parse().unwrap())
    }

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert!(REGION_CURRENCY.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(YEAR_DATE_PATTERNS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(LOCALES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn regions_and_patterns() {
        for (region, code) in [
            ("PL", "PLN"),
            ("SE", "SEK"),
            ("CN", "CNY"),
            ("IN", "INR"),
            ("EG", "EGP"),
            ("BR", "BRL"),
            ("CH", "CHF"),
            ("DE", "EUR"),
            ("US", "USD"),
        ] {
            assert_eq!(region_currency(region), Some(code), "{region}");
        }
        assert_eq!(region_currency("AQ"), None);
        assert_eq!(region_currency("ZZ"), None);
        assert!(is_known_region("419") && is_known_region("AQ") && !is_known_region("ZZ"));
        assert!(is_known_language("de") && !is_known_language("zz"));
        assert_eq!(pattern("en-US"), Some("MMM d, y"));
        assert_eq!(pattern("en-GB"), Some("d MMM y"));
        assert_eq!(pattern("de-AT"), Some("d. MMM y"));
        assert_eq!(pattern("ja-JP"), Some("y年M月d日"));
        assert_eq!(pattern("ar-EG"), Some("d MMM y"));
        assert_eq!(pattern("zh-TW"), Some("y年M月d日"));
    }
}
