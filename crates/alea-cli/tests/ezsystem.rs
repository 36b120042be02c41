//! `alea ez` system options and `alea ez check`, called in-process through the library
//! (`SystemArgs` is what `alea ez` flattens into its arguments; the outputs are tested in
//! `alea-ezhost`; here: argument handling, file reading and exit statuses).

use alea_cli::cmd::ezsystem::{KindArg, SystemArgs, run_check, run_system};
use std::process::ExitCode;

fn example() -> String {
    format!(
        "{}/../../examples/ezscript/tournament.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn args(kind: KindArg) -> SystemArgs {
    SystemArgs {
        kind,
        data: Some(example()),
        locale: Some("en-US".into()),
        tz: Some("Europe/Berlin".into()),
        now: Some("2025-07-20T20:15:00+02:00".into()),
        player: None,
        simulate: None,
        strict: false,
    }
}

fn src(text: &str) -> Option<(String, String)> {
    Some(("<expr>".into(), text.into()))
}

#[test]
fn exit_statuses() {
    let ok = ExitCode::SUCCESS;
    let failed = ExitCode::from(1);
    let usage = ExitCode::from(2);
    let content = args(KindArg::Content);
    assert_eq!(
        run_system(src("currentPlayerCount"), false, false, None, &content),
        ok
    );
    assert_eq!(run_system(src("nope"), false, true, None, &content), failed);
    assert_eq!(
        run_system(src("A{{ nope }}"), true, false, None, &content),
        ok
    );
    let strict = SystemArgs {
        strict: true,
        ..args(KindArg::Content)
    };
    assert_eq!(
        run_system(src("A{{ nope }}"), true, false, None, &strict),
        failed
    );
    assert_eq!(run_system(None, false, false, None, &content), usage);
    let payout = args(KindArg::Payout);
    assert_eq!(run_system(None, false, false, None, &payout), ok);
    assert_eq!(
        run_system(src("payouts"), false, false, None, &payout),
        failed
    );
    let mut points = args(KindArg::Points);
    points.player = Some(17.0);
    assert_eq!(run_system(None, false, true, None, &points), ok);
    let mut sim = args(KindArg::Content);
    sim.simulate = Some(800);
    assert_eq!(run_system(None, false, false, None, &sim), ok);
    sim.simulate = Some(u64::MAX);
    assert_eq!(run_system(None, false, false, None, &sim), usage);
    let mut bad = args(KindArg::Content);
    bad.data = Some("/nonexistent/tournament.json".into());
    assert_eq!(run_system(src("1"), false, false, None, &bad), failed);
    let mut bad = args(KindArg::Content);
    bad.locale = Some("not a tag!".into());
    assert_eq!(run_system(src("1"), false, false, None, &bad), usage);
    let mut bad = args(KindArg::Content);
    bad.now = Some("noon".into());
    assert_eq!(run_system(src("1"), false, false, None, &bad), usage);
    let mut no_data = args(KindArg::Condition);
    no_data.data = None;
    assert_eq!(run_system(src(""), false, false, None, &no_data), ok);
    assert_eq!(
        run_system(src("while true { }"), false, false, Some(100), &no_data),
        failed
    );
}

#[test]
fn check_statuses() {
    assert_eq!(run_check(&example()), ExitCode::SUCCESS);
    let dir = std::env::temp_dir().join(format!("alea-ezsystem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = std::fs::read_to_string(example())
        .unwrap()
        .replace("Three players left", "Three {{ nope }} left");
    let path = dir.join("broken.json");
    std::fs::write(&path, broken).unwrap();
    assert_eq!(run_check(path.to_str().unwrap()), ExitCode::from(1));
    let invalid = dir.join("invalid.json");
    std::fs::write(&invalid, "{\"players\": [{\"name\": \"A\", \"chair\": 2}]}").unwrap();
    assert_eq!(run_check(invalid.to_str().unwrap()), ExitCode::from(1));
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 14, part 3: `--simulate` has one total budget. A week of the example tournament runs
/// (exit 0); 1,000 alerts of `while true { }; true` end the run with exit status 1 instead of
/// taking 0.5 s per simulated second.
#[test]
fn simulate_has_one_total_budget() {
    let mut week = args(KindArg::Content);
    week.simulate = Some(7 * 24 * 3600);
    assert_eq!(
        run_system(None, false, true, None, &week),
        ExitCode::SUCCESS
    );

    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(example()).unwrap()).unwrap();
    file["alerts"] = (0..1000)
        .map(|i| serde_json::json!({"title": format!("a{i}"), "condition": "while true { }; true"}))
        .collect();
    let dir = std::env::temp_dir().join(format!("alea-ezsim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("spin.json");
    std::fs::write(&path, file.to_string()).unwrap();
    let mut spin = week.clone();
    spin.data = Some(path.to_str().unwrap().into());
    assert_eq!(
        run_system(None, false, true, None, &spin),
        ExitCode::from(1)
    );
    std::fs::remove_dir_all(&dir).ok();
}
