//! Locale resolution (ezscript.md §9.1): a BCP 47 tag, a missing region filled in by CLDR's
//! likely subtags (`de` → `de-DE`), and the environment fallback `LC_ALL` > `LANG` > `en-US`.

use crate::cldr;
use crate::error::LocaleError;
use icu_locale::{Locale, LocaleExpander};

/// The locale used when nothing else is given.
pub const DEFAULT_LOCALE: &str = "en-US";

/// Parses a BCP 47 tag (`de`, `de-DE`, `fr-CA`, `sr-Latn`; POSIX `de_DE.UTF-8` is accepted too)
/// and fills in a missing region from CLDR's likely subtags: `de` → `de-DE`, `en` → `en-US`,
/// `fr` → `fr-FR`. An explicit script, variants and `-u-` extensions are kept.
///
/// ```
/// assert_eq!(alea_locale::resolve_locale("de").unwrap().to_string(), "de-DE");
/// assert_eq!(alea_locale::resolve_locale("de_AT.UTF-8").unwrap().to_string(), "de-AT");
/// assert!(alea_locale::resolve_locale("not a tag").is_err());
/// assert_eq!(
///     alea_locale::resolve_locale("zz-ZZ").unwrap_err().to_string(),
///     "Unknown locale \"zz-ZZ\"; did you mean az, dz, or lzz?"
/// );
/// ```
pub fn resolve_locale(tag: &str) -> Result<Locale, LocaleError> {
    let cleaned = posix_to_bcp47(tag.trim());
    let mut locale: Locale = cleaned
        .parse()
        .map_err(|_| LocaleError::InvalidLocale(tag.to_string()))?;
    if locale.id.language.is_unknown() {
        // `und` (or an empty language): nothing to go on, use the default.
        locale = DEFAULT_LOCALE
            .parse()
            .map_err(|_| LocaleError::InvalidLocale(tag.to_string()))?;
    }
    let region_known = locale
        .id
        .region
        .is_none_or(|r| cldr::is_known_region(r.as_str()));
    if !cldr::is_known_language(locale.id.language.as_str()) || !region_known {
        return Err(LocaleError::UnknownLocale {
            tag: tag.to_string(),
            nearest: nearest_locales(&locale),
        });
    }
    if locale.id.region.is_none() {
        let mut maximized = locale.id.clone();
        LocaleExpander::new_common().maximize(&mut maximized);
        locale.id.region = maximized.region;
    }
    Ok(locale)
}

/// The locale tag the environment asks for, for callers without `--locale`: the first of
/// `LC_ALL`, `LANG` that is set, non-empty and not `C`/`POSIX`, else [`DEFAULT_LOCALE`].
/// The caller reads the variables (library crates do no I/O) and passes their values.
///
/// ```
/// assert_eq!(alea_locale::locale_from_env(None, Some("de_DE.UTF-8")), "de_DE.UTF-8");
/// assert_eq!(alea_locale::locale_from_env(Some("C"), Some("")), "en-US");
/// ```
pub fn locale_from_env(lc_all: Option<&str>, lang: Option<&str>) -> String {
    [lc_all, lang]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|v| !v.is_empty() && !matches!(*v, "C" | "POSIX") && !v.starts_with("C."))
        .unwrap_or(DEFAULT_LOCALE)
        .to_string()
}

/// The CLDR locales nearest to `locale`, at most three. An unknown language gets the nearest
/// languages (`zz` → `az`, `dz`, `zh`); a known language with an unknown region gets that
/// language's locales with the nearest regions. Edit distance, ties alphabetical.
fn nearest_locales(locale: &Locale) -> Vec<String> {
    let language = locale.id.language.as_str();
    let mut scored: Vec<(usize, &str)> = if cldr::is_known_language(language) {
        let region = locale
            .id
            .region
            .map_or(String::new(), |r| r.as_str().to_ascii_lowercase());
        cldr::locales()
            .iter()
            .filter_map(|known| {
                let rest = known.strip_prefix(language)?.strip_prefix('-')?;
                let known_region = rest.rsplit('-').next().unwrap_or(rest);
                Some((
                    edit_distance(&region, &known_region.to_ascii_lowercase()),
                    *known,
                ))
            })
            .collect()
    } else {
        // One entry per language: its bare tag (`az`), which every CLDR language has.
        cldr::locales()
            .iter()
            .filter(|known| !known.contains('-'))
            .map(|known| (edit_distance(language, known), *known))
            .collect()
    };
    scored.sort();
    scored
        .into_iter()
        .take(3)
        .map(|(_, t)| t.to_string())
        .collect()
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// `de_DE.UTF-8@euro` → `de-DE`: drop the codeset and modifier, `_` becomes `-`.
fn posix_to_bcp47(tag: &str) -> String {
    let end = tag.find(['.', '@']).unwrap_or(tag.len());
    tag[..end].replace('_', "-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn likely_subtags_fill_the_region() {
        for (tag, expected) in [
            ("de", "de-DE"),
            ("en", "en-US"),
            ("en-GB", "en-GB"),
            ("fr", "fr-FR"),
            ("ja", "ja-JP"),
            ("sr-Latn", "sr-Latn-RS"),
            ("und", "en-US"),
            ("de-CH-u-nu-latn", "de-CH-u-nu-latn"),
        ] {
            assert_eq!(resolve_locale(tag).unwrap().to_string(), expected, "{tag}");
        }
        assert_eq!(
            resolve_locale("e!").unwrap_err().to_string(),
            "Invalid locale \"e!\""
        );
    }
}
