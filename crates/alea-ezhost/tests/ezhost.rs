//! Integration tests of alea-ezhost: the spec vectors (case files), payouts, points, field
//! kinds, the clock and `check`.

mod harness;

use alea_ezhost::Kind;
use harness::*;

#[test]
fn ezscript_spec_vectors() {
    let failures = run_cases("ezscript_spec.ez", include_str!("cases/ezscript_spec.ez"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn tournament_spec_vectors() {
    let failures = run_cases(
        "tournament_spec.ez",
        include_str!("cases/tournament_spec.ez"),
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn payout_file_script() {
    let s = session("en-US");
    let out = s.eval(Kind::Payout, None, false);
    assert!(out.ok, "{:?}", out.errors);
    assert_eq!(out.text, "1\t500\n2\t313\n3\t200\n4\t137\n5\t100");
    assert_eq!(
        out.value["amounts"],
        serde_json::json!([500, 312.5, 200, 137.5, 100])
    );
    assert_eq!(out.value["fallback"], serde_json::json!(false));
    let out = s.eval(Kind::Payout, Some("defaultPayoutPercentages(3)"), false);
    assert_eq!(out.value["amounts"], serde_json::json!([0.5, 0.3, 0.2]));
}

#[test]
fn points_file_formula() {
    let s = session("en-US");
    let out = s.eval(Kind::Points, None, false);
    assert!(out.ok, "{:?}", out.errors);
    assert_eq!(
        out.text,
        "15\tYuki Tanaka\t10\n16\tHugo Meyer\t9\n17\tCarol Dietz\t8\n18\tKira Novak\t7\n\
         18\tLuis Ortega\t7\n20\tErik Hansen\t5\n21\tQuentin Roy\t4\n22\tOscar Lind\t3\n\
         23\tNora Schulz\t2\n24\tInes Duarte\t1"
    );
    let mut o = options("en-US");
    o.player = Some(17.0);
    let s = alea_ezhost::Session::new(Some(TOURNAMENT), o).unwrap();
    let out = s.eval(Kind::Points, None, false);
    assert_eq!(out.text, "7");
}

#[test]
fn simulate_800_golden() {
    let s = session("en-US");
    let report = s.simulate(800).unwrap();
    let lines: Vec<String> = report.firings.iter().map(|f| f.line()).collect();
    assert_eq!(
        lines,
        [
            "2025-07-20 20:16:30 (+90s) knockout: 13 players remain",
            "2025-07-20 20:26:26 (+686s) near end of level",
            "2025-07-20 20:27:26 (+746s) blinds changed: The small blind is 500, and the big blind is 1000",
        ]
    );
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let json = report.firings[0].to_json();
    assert_eq!(
        json,
        serde_json::json!({"tick": 90, "now": 1753035390000u64, "time": "2025-07-20 20:16:30",
            "alert": "knockout", "tts": "13 players remain"})
    );
    let de = session("de-DE").simulate(800).unwrap();
    assert_eq!(de.firings.len(), 3);
    assert!(s.simulate(alea_ezhost::MAX_SIMULATE_SECONDS + 1).is_err());
}

#[test]
fn check_the_example_and_a_broken_file() {
    assert_eq!(session("en-US").check(), vec![]);
    let broken = TOURNAMENT
        .replace(
            "\"tts\": \"Three players left\"",
            "\"tts\": \"Three {{ nope }} left\"",
        )
        .replace(
            "\"condition\": \"currentPlayerCount < was(currentPlayerCount)\"",
            "\"condition\": \"payouts.count\"",
        )
        .replace(
            "defaultPayoutPercentages(places)",
            "playersActive.map(func(p) { 1 })",
        );
    let s = alea_ezhost::Session::new(Some(&broken), options("en-US")).unwrap();
    let file = alea_core::SourceFile::new("t.json", broken.clone());
    let rendered: Vec<String> = s
        .check()
        .iter()
        .map(|d| d.render_with(&file, alea_core::RenderOptions::single_caret()))
        .collect();
    let joined = rendered.join("");
    assert!(
        joined.contains("settings.payoutScript: playersActive is not available in this field"),
        "{joined}"
    );
    assert!(
        joined.contains("alerts[3].tts: Unknown name nope"),
        "{joined}"
    );
    assert!(
        joined.contains("alerts[4].condition: Condition must evaluate to true or false."),
        "{joined}"
    );
    // Positions are in the file: the name inside the JSON text.
    let tts_line = broken
        .lines()
        .position(|l| l.contains("{{ nope }}"))
        .unwrap()
        + 1;
    let col = broken
        .lines()
        .nth(tts_line - 1)
        .unwrap()
        .find("nope")
        .unwrap()
        + 1;
    assert!(
        joined.contains(&format!(
            "t.json:{tts_line}:{col}: error: alerts[3].tts: Unknown name nope"
        )),
        "{joined}"
    );
}
