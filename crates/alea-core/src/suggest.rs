//! "Did you mean …?" for names checked against a known list (presets, locales, functions,
//! options), shared so every language suggests the same way.
//!
//! A candidate is suggested when its edit distance (Levenshtein, case-insensitive) from the
//! given name is at most a third of the name's length (at least 1), or when one is a prefix of
//! the other; only the closest candidates are kept, in the order given. Each comparison is
//! bounded by [`MAX_NAME`] characters, so a hostile name costs at most a fixed amount of work
//! per candidate: the whole check is linear in the number of candidates.

/// Names longer than this (in characters) are compared by their first `MAX_NAME` characters.
pub const MAX_NAME: usize = 64;

/// The candidates closest to `name` (at most five, in the order of `candidates`), or none when
/// nothing is close. An exact (case-insensitive) match is not a suggestion.
///
/// ```
/// use alea_core::suggest::did_you_mean;
/// let presets = ["7bag", "14bag", "tgm1", "tgm2", "tgm3", "nes"];
/// assert_eq!(did_you_mean("tgm9", presets), ["tgm1", "tgm2", "tgm3"]);
/// assert_eq!(did_you_mean("14bg", presets), ["14bag"]);
/// assert!(did_you_mean("zzzzzz", presets).is_empty());
/// ```
pub fn did_you_mean<'a, I>(name: &str, candidates: I) -> Vec<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let wanted: Vec<char> = name
        .chars()
        .take(MAX_NAME)
        .flat_map(char::to_lowercase)
        .collect();
    let limit = (wanted.len() / 3).max(1);
    let mut best: Vec<(usize, &'a str)> = Vec::new();
    for candidate in candidates {
        let have: Vec<char> = candidate
            .chars()
            .take(MAX_NAME)
            .flat_map(char::to_lowercase)
            .collect();
        if have == wanted {
            continue;
        }
        let prefix = !wanted.is_empty()
            && !have.is_empty()
            && (have.starts_with(&wanted) || wanted.starts_with(&have));
        let d = distance(&wanted, &have);
        let d = if prefix { d.min(limit) } else { d };
        if d <= limit {
            best.push((d, candidate));
        }
    }
    let Some(min) = best.iter().map(|b| b.0).min() else {
        return Vec::new();
    };
    best.into_iter()
        .filter(|b| b.0 == min)
        .map(|b| b.1)
        .take(5)
        .collect()
}

/// The help line for an unknown name: `did you mean tgm1, tgm2 or tgm3?`, or `None`.
///
/// ```
/// use alea_core::suggest::help;
/// assert_eq!(help("de-DD", ["de-DE", "en-US"]).as_deref(), Some("did you mean de-DE?"));
/// assert_eq!(help("x", ["abc"]), None);
/// ```
pub fn help<'a, I>(name: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'a str>,
{
    let found = did_you_mean(name, candidates);
    let (last, rest) = found.split_last()?;
    Some(if rest.is_empty() {
        format!("did you mean {last}?")
    } else {
        format!("did you mean {} or {last}?", rest.join(", "))
    })
}

/// Levenshtein distance with one row of memory.
fn distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        let d = |a: &str, b: &str| {
            distance(
                &a.chars().collect::<Vec<_>>(),
                &b.chars().collect::<Vec<_>>(),
            )
        };
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("abc", "abc"), 0);
        assert_eq!(d("f$raise", "f$rase"), 1);
    }

    #[test]
    fn closest_only_case_insensitive_and_prefixes() {
        let names = ["f$call", "f$raise", "f$rais", "f$prefold"];
        assert_eq!(did_you_mean("F$RAISE", names), ["f$rais"]);
        assert_eq!(did_you_mean("f$ca", names), ["f$call"]);
        assert_eq!(did_you_mean("--jsn", ["--json", "--plot"]), ["--json"]);
        assert!(did_you_mean("", names).is_empty());
    }

    #[test]
    fn long_names_are_bounded() {
        let long = "x".repeat(100_000);
        let many: Vec<String> = (0..1000).map(|i| format!("name{i}")).collect();
        assert!(did_you_mean(&long, many.iter().map(String::as_str)).is_empty());
        // Compared by their first MAX_NAME characters: one edit apart.
        let near = format!("{}y", "x".repeat(MAX_NAME - 1));
        assert_eq!(did_you_mean(&near, [long.as_str()]).len(), 1);
    }
}
