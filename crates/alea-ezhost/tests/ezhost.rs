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

/// The content field as the running clock shows it: the level counts down, the next level's
/// blinds appear after the level ends, and the alerts are those of `simulate`.
#[test]
fn simulate_with_content_renders_frames() {
    let s = session("en-US");
    let src = "Level {{ blindLevelNumber }}, {{ secondsLeftInLevel }} s left";
    let report = s.simulate_with_content(800, src, true, 100).unwrap();
    let frames: Vec<(u64, &str)> = report.frames.iter().map(|f| (f.tick, f.text())).collect();
    assert_eq!(frames.len(), 9, "{frames:?}");
    assert_eq!(
        frames[0],
        (0, s.eval(Kind::Content, Some(src), true).text.as_str())
    );
    assert_eq!(frames[0].1, "Level 7, 746 s left");
    assert_eq!(frames[1], (100, "Level 7, 646 s left"));
    assert_eq!(frames[8].0, 800);
    assert_eq!(frames[8].1, "Level 8, 1146 s left");
    assert_eq!(report.firings, s.simulate(800).unwrap().firings);
}

/// The clock view: frames for every tick of a window, one text per field, the clock's own
/// level and countdown, and the alerts of `simulate` up to the window's end.
#[test]
fn clock_view_renders_every_tick_of_a_window() {
    let s = session("en-US");
    let fields = [
        ("blindLevelNumber", false),
        (
            "{{ currentLevel.smallBlind }} / {{ currentLevel.bigBlind }}",
            true,
        ),
    ];
    let fields = alea_ezhost::ContentFields::compile(&fields);
    assert!(fields.diagnostics().all(<[_]>::is_empty));
    let report = s.clock_view(744, 748, &fields, &[], 0).unwrap();
    let ticks: Vec<u64> = report.frames.iter().map(|f| f.tick).collect();
    assert_eq!(ticks, vec![744, 745, 746, 747, 748]);
    let f = &report.frames[0];
    assert_eq!(f.texts, vec!["7".to_string(), "400 / 800".to_string()]);
    assert_eq!(
        (f.level_index, f.seconds_left_in_level, f.running),
        (8, 2.0, true)
    );
    // Level 7 (746 s left at the start) ends; the next level starts with its full length.
    let f = &report.frames[2];
    assert_eq!(f.texts, vec!["8".to_string(), "500 / 1000".to_string()]);
    assert_eq!(f.level_index, 9);
    assert_eq!(report.firings, s.simulate(748).unwrap().firings);
    // Only the firings after `since` (the last tick the caller showed).
    let all = s.simulate(800).unwrap().firings;
    assert!(all.iter().any(|f| f.tick <= 700) && all.iter().any(|f| f.tick > 700));
    let later = s.clock_view(744, 800, &fields, &[], 700).unwrap().firings;
    let expected: Vec<_> = all.into_iter().filter(|f| f.tick > 700).collect();
    assert_eq!(later, expected);
    let first = s.clock_view(0, 0, &fields, &[], 0).unwrap();
    assert_eq!(first.frames.len(), 1);
    assert_eq!(first.frames[0].seconds_left_in_level, 746.0);
    assert!(
        s.clock_view(0, alea_ezhost::MAX_SIMULATE_SECONDS + 1, &fields, &[], 0)
            .is_err()
    );
}

/// A tournament that pauses after each level: the view shows the paused clock until the user
/// starts it again (`resumes`), then it counts down from where it stopped.
#[test]
fn clock_view_resumes_a_paused_clock() {
    let paused = TOURNAMENT.replace("\"pauseAfterLevel\": false", "\"pauseAfterLevel\": true");
    assert_ne!(paused, TOURNAMENT);
    let s = alea_ezhost::Session::new(Some(&paused), options("en-US")).unwrap();
    let fields = alea_ezhost::ContentFields::compile(&[("blindLevelNumber", false)]);
    let still = s.clock_view(745, 760, &fields, &[], 0).unwrap();
    let f = |r: &alea_ezhost::SimulationReport, tick: u64| {
        let f = r.frames.iter().find(|f| f.tick == tick).unwrap();
        (f.texts[0].clone(), f.seconds_left_in_level, f.running)
    };
    assert_eq!(f(&still, 745), ("7".into(), 1.0, true));
    // Level 7 ends at tick 746 and the clock pauses with level 8's full 20 minutes.
    assert_eq!(f(&still, 746), ("8".into(), 1200.0, false));
    assert_eq!(f(&still, 760), ("8".into(), 1200.0, false));
    let resumed = s.clock_view(745, 760, &fields, &[750], 0).unwrap();
    assert_eq!(f(&resumed, 750), ("8".into(), 1200.0, false));
    assert_eq!(f(&resumed, 751), ("8".into(), 1199.0, true));
    assert_eq!(f(&resumed, 760), ("8".into(), 1190.0, true));
    // A resume where the clock runs changes nothing.
    let ignored = s.clock_view(745, 760, &fields, &[745], 0).unwrap();
    assert_eq!(ignored.frames, still.frames);
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
        .replace("becameTrue(currentPlayerCount == 3)", "e = 3; was(e) == 3")
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
        joined.contains(
            "alerts[3].condition: was() can only read tournament values; e is a local name"
        ),
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

/// Every ```` ```cases ```` and ```` ```simulate N ```` block of docs/ezscript-system.md.
#[test]
fn docs_examples() {
    let doc = include_str!("../../../docs/ezscript-system.md");
    let mut blocks = 0;
    let mut rest = doc;
    while let Some(start) = rest.find("```cases\n") {
        let body = &rest[start + 9..];
        let end = body.find("```").expect("closed block");
        let failures = run_cases("docs/ezscript-system.md", &body[..end]);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        blocks += 1;
        rest = &body[end + 3..];
    }
    assert!(blocks >= 6, "only {blocks} cases blocks");
    let start = doc.find("```simulate ").expect("a simulate block");
    let body = &doc[start + 12..];
    let (n, body) = body.split_once('\n').unwrap();
    let end = body.find("```").unwrap();
    let expected: Vec<&str> = body[..end].lines().collect();
    let report = session("en-US")
        .simulate(n.trim().parse().unwrap())
        .unwrap();
    let lines: Vec<String> = report.firings.iter().map(|f| f.line()).collect();
    assert_eq!(lines, expected);
}

#[test]
fn field_kind_cases() {
    let failures = run_cases("fields.ez", include_str!("cases/fields.ez"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn json_values_and_insertions() {
    let s = session("en-US");
    let out = s.eval(
        Kind::Content,
        Some(
            "[4.toPlayer(), currentLevel, chips[1], chops, log.entries[0], 0 / 0, nextLevel.nope]",
        ),
        false,
    );
    assert!(!out.ok);
    let out = s.eval(
        Kind::Content,
        Some("[4.toPlayer(), currentLevel, chips[1], log.entries[0], 0 / 0, highHandPlayer, previousX]"),
        false,
    );
    assert_eq!(out.errors[0].diagnostic.message, "Unknown name previousX");
    let out = s.eval(
        Kind::Content,
        Some("[4.toPlayer(), currentLevel, chips[1], log.entries[0], 0 / 0, 1.toTable()]"),
        false,
    );
    assert_eq!(
        out.to_json(),
        serde_json::json!({"ok": true, "kind": "content", "text": "[Dana Whitfield, , 100, buyIn, NaN, Red]",
            "errors": [],
            "value": [{"$type": "Player", "id": 4}, {"$type": "Level", "index": 8},
                {"$type": "Chip", "value": 100}, {"$type": "LogEntry", "index": 0}, "NaN",
                {"$type": "Table", "id": 1}]})
    );
    let out = s.eval(
        Kind::Content,
        Some("a {{ 1 }} b {{ nope }} c {{ 2.x }}"),
        true,
    );
    let insertions: Vec<Option<usize>> = out.errors.iter().map(|e| e.insertion).collect();
    assert_eq!(insertions, [Some(1), Some(2)]);
    assert_eq!(out.text, "a 1 b  c ");
}

#[test]
fn the_file_is_never_changed() {
    let s = session("en-US");
    let before = format!("{:?}", s.state());
    for src in [
        "p = 4.toPlayer(); p.name = \"x\"",
        "levels[0] = 1",
        "chips[0].value += 1",
    ] {
        let out = s.eval(Kind::Content, Some(src), false);
        assert_eq!(
            out.errors[0].diagnostic.message, "Tournament values are read-only",
            "{src}"
        );
    }
    s.simulate(30).unwrap();
    assert_eq!(format!("{:?}", s.state()), before);
}

#[test]
fn invalid_data_names_the_json_path() {
    let bad = TOURNAMENT.replacen(
        "\"name\": \"Alice Brandt\"",
        "\"name\": \"Alice Brandt\", \"chair\": 2",
        1,
    );
    let err = alea_ezhost::Session::new(Some(&bad), options("en-US")).unwrap_err();
    assert_eq!(err.to_string(), "players[0].chair: unknown key");
    let mut o = options("en-US");
    o.locale = "not a tag!".into();
    assert!(alea_ezhost::Session::new(None, o).is_err());
}

#[test]
fn other_locales_and_an_empty_tournament() {
    let fr = session("fr-FR");
    assert_eq!(
        fr.eval(Kind::Content, Some("1250.toCurrencyString"), false)
            .text,
        "1\u{202f}250\u{a0}€"
    );
    let empty = alea_ezhost::Session::new(None, options("en-US")).unwrap();
    let out = empty.eval(
        Kind::Content,
        Some("[players.count, payouts, title, now()]"),
        false,
    );
    assert_eq!(out.text, "[0, [0, 0, 0], , 1753035300000]");
    let out = empty.eval(Kind::Payout, None, false);
    assert!(out.ok);
    assert_eq!(out.value["fallback"], serde_json::json!(true));
}

mod rounding {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Payouts rounded to `payoutRoundTo` keep the total of the amounts (to whole units).
        #[test]
        fn payout_rounding_preserves_the_total(
            cost in 1u32..500, players in 2usize..40, round_to in prop::sample::select(vec![1.0, 5.0, 10.0, 25.0]),
            count in 1u32..20, adjustment in -100i32..100,
        ) {
            let ids: Vec<String> = (1..=players).map(|i| i.to_string()).collect();
            let names: Vec<String> = (1..=players)
                .map(|i| format!("{{\"id\": {i}, \"name\": \"P{i}\"}}"))
                .collect();
            let file = format!(
                "{{\"settings\": {{\"buyInCost\": {cost}, \"payoutRoundTo\": {round_to}, \"payoutCount\": {count}, \"payoutAdjustment\": {adjustment}}},
                  \"players\": [{}], \"log\": [{{\"type\": \"buyIn\", \"dt\": 0, \"players\": [{}]}}],
                  \"clock\": {{\"now\": 1000}}}}",
                names.join(","), ids.join(",")
            );
            let s = alea_ezhost::Session::new(Some(&file), options("en-US")).unwrap();
            let out = s.eval(Kind::Payout, None, false);
            let amounts: Vec<f64> = out.value["amounts"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            let payouts: Vec<f64> = out.value["payouts"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            let units: f64 = payouts.iter().map(|p| p / round_to).sum();
            // T = round(Σ q_i) with q_i = a_i / R to 9 decimals (tournament-data.md §4.3),
            // summed exactly in units of 10^-9 so that a tie is a tie.
            let nanos: i64 = amounts.iter().map(|a| (a / round_to * 1e9).round() as i64).sum();
            let half = if nanos < 0 { -500_000_000 } else { 500_000_000 };
            let expected = ((nanos + half) / 1_000_000_000) as f64;
            prop_assert!((units - expected).abs() < 1e-6, "{amounts:?} → {payouts:?}");
            for p in &payouts {
                prop_assert!((p / round_to - (p / round_to).round()).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn eval_many_matches_eval() {
    let s = session("de-DE");
    let fields = [
        (Kind::Content, "Level {{ blindLevelNumber }}", true),
        (Kind::Condition, "isBlindsLevel", false),
        (Kind::Payout, "[1, 2]", false),
    ];
    let many = s.eval_many(&fields);
    for (f, out) in fields.iter().zip(&many) {
        assert_eq!(&s.eval(f.0, Some(f.1), f.2), out);
    }
    assert_eq!(many[0].text, "Level 7");
}
