//! Shared by the integration tests: sessions on the example tournament with an explicit
//! locale, time zone and now (never the host's), and the case-file reader.

#![allow(dead_code)]

use alea_ezhost::{Kind, Options, Session};

/// The example tournament of the specs (`examples/ezscript/tournament.json`).
pub const TOURNAMENT: &str = include_str!("../../../../examples/ezscript/tournament.json");

/// 2025-07-20 20:15:00 Europe/Berlin.
pub const NOW: f64 = 1_753_035_300_000.0;

/// Options with everything explicit.
pub fn options(locale: &str) -> Options {
    Options {
        locale: locale.into(),
        time_zone: Some("Europe/Berlin".into()),
        host_time_zone: "UTC".into(),
        now: Some(NOW),
        host_now: 0.0,
        fuel: None,
        player: None,
    }
}

/// A session on the example tournament.
pub fn session(locale: &str) -> Session {
    Session::new(Some(TOURNAMENT), options(locale)).expect("the example loads")
}

/// One case of a case file.
#[derive(Debug)]
pub struct Case {
    pub line: usize,
    pub kind: Kind,
    pub template: bool,
    pub source: String,
    pub en: Option<String>,
    pub de: Option<String>,
    pub errors: Vec<String>,
}

/// Decodes `\n`, `\t`, `\\` and `\u{HEX}`.
pub fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('u') => {
                let hex: String = chars.by_ref().skip(1).take_while(|c| *c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
            }
            other => panic!("bad escape {other:?}"),
        }
    }
    out
}

/// Parses a case file (format in `tests/cases/ezscript_spec.ez`).
pub fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let expected = |rest: &str| unescape(rest.strip_prefix(' ').unwrap_or(rest));
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let case = cases.last_mut();
        if let Some(rest) = line.strip_prefix("en=>") {
            case.expect("a case").en = Some(expected(rest));
        } else if let Some(rest) = line.strip_prefix("de=>") {
            case.expect("a case").de = Some(expected(rest));
        } else if let Some(rest) = line.strip_prefix("=>") {
            let case = case.expect("a case");
            case.en = Some(expected(rest));
            case.de = Some(expected(rest));
        } else if let Some(rest) = line.strip_prefix("!! ") {
            case.expect("a case").errors.push(rest.to_string());
        } else {
            let (kind, template, src) = match line.split_once('|') {
                Some(("T", s)) => (Kind::Content, true, s),
                Some(("C", s)) => (Kind::Condition, false, s),
                Some(("A", s)) => (Kind::Alert, false, s),
                Some(("AT", s)) => (Kind::Alert, true, s),
                Some(("P", s)) => (Kind::Payout, false, s),
                Some(("K", s)) => (Kind::Points, false, s),
                _ => (Kind::Content, false, line),
            };
            cases.push(Case {
                line: n + 1,
                kind,
                template,
                source: src.replace('⏎', "\n"),
                en: None,
                de: None,
                errors: Vec::new(),
            });
        }
    }
    cases
}

/// Runs every case of a file in en-US and de-DE; returns the failures.
pub fn run_cases(name: &str, text: &str) -> Vec<String> {
    let sessions = [("en", session("en-US")), ("de", session("de-DE"))];
    let mut failures = Vec::new();
    let cases = parse_cases(text);
    assert!(!cases.is_empty(), "{name} has no cases");
    for case in &cases {
        for (lang, s) in &sessions {
            let expected = if *lang == "en" { &case.en } else { &case.de };
            let out = s.eval(case.kind, Some(&case.source), case.template);
            let messages: Vec<&str> = out
                .errors
                .iter()
                .map(|e| e.diagnostic.message.as_str())
                .collect();
            let mut problems = Vec::new();
            if let Some(exp) = expected
                && &out.text != exp
            {
                problems.push(format!("text {:?}, expected {:?}", out.text, exp));
            }
            if messages != case.errors {
                problems.push(format!("errors {messages:?}, expected {:?}", case.errors));
            }
            if out.ok != case.errors.is_empty() {
                problems.push(format!("ok = {}", out.ok));
            }
            if !problems.is_empty() {
                failures.push(format!(
                    "{name}:{} [{lang}] {:?}: {}",
                    case.line,
                    case.source,
                    problems.join("; ")
                ));
            }
        }
    }
    failures
}
