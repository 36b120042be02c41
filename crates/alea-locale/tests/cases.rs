//! Data-driven formatting cases: every file in `tests/cases/` and every ```` ```cases ```` block
//! of `docs/locale.md`. The format is described at the top of `tests/cases/spec_vectors.txt`.
//! Time zone, "now" and locale are always given explicitly, never taken from the host.

use alea_locale::{FormatError, LocaleFormatter};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const DEFAULT_ZONE: &str = "Europe/Berlin";
const DEFAULT_NOW: f64 = 1_753_035_300_000.0;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Setup {
    locale: String,
    zone: String,
    now: String,
    currency: Option<String>,
    /// `callnow=MS`: the evaluation's now, passed per call (`format_property_at`).
    call_now: Option<String>,
}

struct Case {
    origin: String,
    setup: Setup,
    property: String,
    input: String,
    expected: String,
}

fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('\\') => out.push('\\'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let code = u32::from_str_radix(&hex, 16).expect("\\u needs 4 hex digits");
                out.push(char::from_u32(code).expect("a scalar value"));
            }
            other => panic!("unknown escape \\{other:?} in {text:?}"),
        }
    }
    out
}

fn parse_cases(origin: &str, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
        assert_eq!(
            fields.len(),
            4,
            "{origin}:{}: expected 4 fields: {line}",
            number + 1
        );
        let mut words = fields[0].split_whitespace();
        let mut setup = Setup {
            locale: words.next().expect("a locale").to_string(),
            zone: DEFAULT_ZONE.to_string(),
            now: DEFAULT_NOW.to_string(),
            currency: None,
            call_now: None,
        };
        for word in words {
            match word.split_once('=') {
                Some(("tz", zone)) => setup.zone = zone.to_string(),
                Some(("now", now)) => setup.now = now.to_string(),
                Some(("currency", code)) => setup.currency = Some(code.to_string()),
                Some(("callnow", now)) => setup.call_now = Some(now.to_string()),
                _ => panic!("{origin}:{}: unknown option {word}", number + 1),
            }
        }
        cases.push(Case {
            origin: format!("{origin}:{}", number + 1),
            setup,
            property: fields[1].to_string(),
            input: fields[2].to_string(),
            expected: unescape(fields[3]),
        });
    }
    cases
}

fn input_value(input: &str, now: f64) -> f64 {
    let number = |text: &str| -> f64 {
        match text {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            _ => text
                .parse()
                .unwrap_or_else(|_| panic!("bad number {text:?}")),
        }
    };
    if let Some(rest) = input.strip_prefix("now") {
        if let Some(offset) = rest.strip_prefix('+') {
            return now + number(offset);
        }
        if let Some(offset) = rest.strip_prefix('-') {
            return now - number(offset);
        }
        assert!(rest.is_empty(), "bad input {input:?}");
        return now;
    }
    number(input)
}

fn format(
    f: &LocaleFormatter,
    property: &str,
    x: f64,
    call_now: Option<f64>,
) -> Result<String, FormatError> {
    if property == "threeSignificantDigits" {
        return alea_locale::three_significant_digits(x);
    }
    f.format_property_at(property, x, call_now)
        .unwrap_or_else(|| panic!("unknown property {property}"))
}

fn run(cases: &[Case]) -> usize {
    let mut formatters: HashMap<Setup, LocaleFormatter> = HashMap::new();
    let mut failures = Vec::new();
    for case in cases {
        let now = input_value(&case.setup.now, DEFAULT_NOW);
        let formatter = formatters.entry(case.setup.clone()).or_insert_with(|| {
            LocaleFormatter::with_currency(
                &case.setup.locale,
                &case.setup.zone,
                now,
                case.setup.currency.as_deref(),
            )
            .unwrap_or_else(|e| panic!("{}: {e}", case.origin))
        });
        let call_now = case
            .setup
            .call_now
            .as_deref()
            .map(|t| input_value(t, DEFAULT_NOW));
        let input = input_value(&case.input, call_now.unwrap_or(now));
        let actual = match format(formatter, &case.property, input, call_now) {
            Ok(text) => text,
            Err(error) => format!("error: {error}"),
        };
        if actual != case.expected {
            failures.push(format!(
                "{}: {} {}({}): expected {:?}, got {:?}",
                case.origin, case.setup.locale, case.property, case.input, case.expected, actual
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
    cases.len()
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn case_file(name: &str) -> Vec<Case> {
    let path = manifest_dir().join("tests/cases").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    parse_cases(&format!("tests/cases/{name}"), &text)
}

#[test]
fn spec_vectors() {
    let count = run(&case_file("spec_vectors.txt"));
    assert!(count >= 120, "only {count} spec cases");
}

#[test]
fn other_locales_and_edges() {
    let count = run(&case_file("more.txt"));
    assert!(count >= 20, "only {count} cases");
}

/// Every ```` ```cases ```` block of docs/locale.md is executed.
#[test]
fn docs_examples() {
    let path: &Path = &manifest_dir().join("../../docs/locale.md");
    let text = std::fs::read_to_string(path).expect("docs/locale.md");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim()) {
            (None, "```cases") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "unclosed cases block in docs/locale.md");
    let cases: Vec<Case> = blocks
        .iter()
        .flat_map(|block| parse_cases("docs/locale.md", block))
        .collect();
    assert!(
        cases.len() >= 20,
        "docs/locale.md has only {} cases",
        cases.len()
    );
    run(&cases);
}
