//! The spec's vectors (tournament-data.md §9, ezscript.md §16 where no script engine or locale is
//! needed), validation errors with JSON paths, the clock simulation, payout rounding and the
//! examples of docs/tournament.md.

mod harness;

use alea_tournament::{
    LoadOptions, NoScripts, PayoutInputs, PayoutSource, ScriptHooks, Simulation, State, Tournament,
    Value, default_payout_percentages, load, local_time_text, remaining, round_payouts,
};
use proptest::prelude::*;

const EXAMPLE: &str = include_str!("../../../examples/ezscript/tournament.json");
const NOW: f64 = 1753035300000.0;

/// Rust stand-ins for the example file's payout script and points formula, so the vectors that
/// depend on them can be checked without the EZScript evaluator:
/// `places = 1 + totalBuyIns / 5; defaultPayoutPercentages(places).map(func(p) { p * netPrize })`
/// and `totalPlayerCount - playerId.toPlayer().place + 1`.
struct ExampleScripts {
    payout_calls: usize,
}

impl ScriptHooks for ExampleScripts {
    fn payout_amounts(&mut self, script: &str, inputs: &PayoutInputs) -> Option<Vec<f64>> {
        assert!(script.contains("defaultPayoutPercentages(places)"));
        assert_eq!(
            inputs.get("payouts"),
            None,
            "payout scripts cannot read payouts"
        );
        self.payout_calls += 1;
        let places = 1.0 + inputs.get("totalBuyIns")? / 5.0;
        let net = inputs.get("netPrize")?;
        Some(
            default_payout_percentages(places)
                .iter()
                .map(|p| p * net)
                .collect(),
        )
    }

    fn points(&mut self, formula: Option<&str>, state: &State, player: usize) -> Option<f64> {
        assert_eq!(
            formula,
            Some("totalPlayerCount - playerId.toPlayer().place + 1")
        );
        assert!(!state.points_ready());
        let total = state.global("totalPlayerCount")?.as_number()?;
        let id = state.data().players[player].id;
        let p = state.to_player(f64::from(id)).ok()?;
        let place = state.property(p, "place")?.as_number()?;
        assert_eq!(
            state.read_property(p, "points"),
            Some(Err("points cannot be read inside the points formula".into()))
        );
        Some(total - place + 1.0)
    }
}

fn example() -> Tournament {
    load(EXAMPLE, &LoadOptions::default()).expect("the example loads")
}

fn example_state() -> State {
    State::new(example(), &mut ExampleScripts { payout_calls: 0 })
}

fn assert_no_failures(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn example_vectors() {
    let state = example_state();
    assert_eq!(state.tournament().now, NOW);
    assert_eq!(state.payout_source(), PayoutSource::Script);
    assert_no_failures(harness::check_cases(
        &state,
        include_str!("cases/example.txt"),
        "cases/example.txt",
    ));
}

#[test]
fn example_without_scripts_falls_back_to_percentages() {
    let state = State::without_scripts(example());
    assert_eq!(state.payout_source(), PayoutSource::Percentages);
    assert_no_failures(harness::check_cases(
        &state,
        include_str!("cases/fallback.txt"),
        "cases/fallback.txt",
    ));
}

#[test]
fn payout_vectors_of_the_cli() {
    let state = example_state();
    let net = state.derived().net_prize;
    // `[0.55 * (netPrize - 50), 0.45 * (netPrize - 50), 50]` → 660, 540, 50.
    let custom = [0.55 * (net - 50.0), 0.45 * (net - 50.0), 50.0];
    assert_eq!(round_payouts(&custom, 1.0), vec![660.0, 540.0, 50.0]);
    // The tiers script → 180, 110, 70, 40 and `Remaining 850`.
    let tiers = round_payouts(&[180.0, 110.0, 70.0, 40.0], 1.0);
    assert_eq!(tiers, vec![180.0, 110.0, 70.0, 40.0]);
    assert_eq!(remaining(net, &tiers), 850.0);
    // A failing script: the percentages, 563, 338, 212, 137.
    let fallback = State::without_scripts(example());
    assert_eq!(fallback.payouts(), &[563.0, 338.0, 212.0, 137.0]);
    // `defaultPayoutPercentages(3)` → amounts [0.5, 0.3, 0.2].
    assert_eq!(default_payout_percentages(3.0), vec![0.5, 0.3, 0.2]);
    assert_eq!(
        default_payout_percentages(5.8),
        vec![0.4, 0.25, 0.16, 0.11, 0.08]
    );
}

#[test]
fn default_payout_percentages_rows_sum_to_one_hundred() {
    for n in 1..=20 {
        let row = default_payout_percentages(f64::from(n));
        assert_eq!(row.len(), n as usize);
        let percent: f64 = row.iter().map(|p| (p * 100.0).round()).sum();
        assert_eq!(percent, 100.0, "row {n}");
        assert!(
            row.windows(2).all(|w| w[0] >= w[1]),
            "row {n} is not descending"
        );
    }
    assert_eq!(default_payout_percentages(-3.0), Vec::<f64>::new());
    assert_eq!(default_payout_percentages(20.9).len(), 20);
}

#[test]
fn rounding_ties_and_surplus() {
    // Ties of fractional parts: better place first.
    assert_eq!(round_payouts(&[10.5, 10.5], 1.0), vec![11.0, 10.0]);
    // Ten places of 825 rounded to 10: the amounts sum to 82.5 units exactly, but their float
    // sum is 82.49999999999998; the total is 83 units (found by ezhost's property test).
    let amounts = [
        247.5,
        148.5,
        99.0,
        74.25,
        57.75000000000001,
        49.5,
        41.25,
        41.25,
        33.0,
        33.0,
    ];
    let rounded = round_payouts(&amounts, 10.0);
    assert_eq!(rounded.iter().sum::<f64>(), 830.0, "{rounded:?}");
    assert_eq!(round_payouts(&[0.25, 0.25], 1.0), vec![1.0, 0.0]);
    // Rounding to 5: q = 2.2, 1.6, 1.2 → T = 5: floors 2+1+1 = 4, one unit to 1.6.
    assert_eq!(round_payouts(&[11.0, 8.0, 6.0], 5.0), vec![10.0, 10.0, 5.0]);
    // Nine-decimal rounding absorbs binary noise: 0.1 + 0.2 is 0.3 units.
    assert_eq!(
        round_payouts(&[0.1 + 0.2, 0.7], 0.1),
        vec![0.30000000000000004, 0.7000000000000001]
    );
    assert_eq!(round_payouts(&[], 1.0), Vec::<f64>::new());
    assert_eq!(round_payouts(&[3.7], -1.0), vec![3.7]);
}

proptest! {
    #[test]
    fn rounding_preserves_the_total(
        amounts in prop::collection::vec(0.0f64..1e7, 0..21),
        round_to in prop::sample::select(vec![0.01, 0.5, 1.0, 5.0, 10.0, 25.0, 100.0]),
    ) {
        let rounded = round_payouts(&amounts, round_to);
        prop_assert_eq!(rounded.len(), amounts.len());
        let q: Vec<f64> = amounts.iter().map(|a| ((a / round_to) * 1e9).round() / 1e9).collect();
        let target = q.iter().sum::<f64>().round();
        let units: Vec<f64> = rounded.iter().map(|r| (r / round_to).round()).collect();
        prop_assert_eq!(units.iter().sum::<f64>(), target);
        for (u, x) in units.iter().zip(&q) {
            prop_assert!(*u == x.floor() || *u == x.floor() + 1.0, "{} from {}", u, x);
        }
    }

    #[test]
    fn percentage_payouts_of_random_prize_pools_keep_the_pool(
        pool in 0u32..10_000_000,
        places in 1u32..=20,
    ) {
        let pool = f64::from(pool);
        let amounts: Vec<f64> =
            default_payout_percentages(f64::from(places)).iter().map(|p| p * pool).collect();
        let rounded = round_payouts(&amounts, 1.0);
        prop_assert_eq!(rounded.iter().sum::<f64>(), pool);
        prop_assert!(rounded.iter().all(|x| x.fract() == 0.0 && *x >= 0.0));
    }
}

/// The example file's alert conditions, written in Rust over the previous/current snapshots
/// (the EZScript integration evaluates the real ones).
fn fired_alerts(tick: &alea_tournament::Tick) -> Vec<String> {
    let (prev, cur) = (&tick.previous, &tick.current);
    let num = |s: &State, name: &str| s.global(name).and_then(|v| v.as_number()).unwrap();
    let level_prop = |s: &State, name: &str| {
        let level = s
            .global("currentLevel")
            .and_then(|v| v.as_object())
            .unwrap();
        s.property(level, name).unwrap()
    };
    let mut fired = Vec::new();
    // near end of level: becameTrue(secondsLeftInLevel <= 60) && currentLevel.isBlindLevel
    let near = |s: &State| num(s, "secondsLeftInLevel") <= 60.0;
    if near(cur) && !near(prev) && level_prop(cur, "isBlindLevel") == Value::Bool(true) {
        fired.push("near end of level".to_string());
    }
    // blinds changed: (changed(levelIndex) || becameTrue(isInGame)) && blind level && bigBlind > 0
    let in_game = |s: &State| s.global("isInGame") == Some(Value::Bool(true));
    if (num(cur, "levelIndex") != num(prev, "levelIndex") || (in_game(cur) && !in_game(prev)))
        && level_prop(cur, "isBlindLevel") == Value::Bool(true)
        && level_prop(cur, "bigBlind").as_number().unwrap() > 0.0
    {
        fired.push(format!(
            "blinds changed: The small blind is {}, and the big blind is {}",
            level_prop(cur, "smallBlind").as_number().unwrap(),
            level_prop(cur, "bigBlind").as_number().unwrap()
        ));
    }
    // knockout: last entry is an enabled knockout && changed(log.entries.last.dt)
    let last = |s: &State| s.visible_log().last().cloned();
    if let Some(e) = last(cur)
        && e.type_name == "knockout"
        && e.is_enabled()
        && last(prev).map(|p| p.dt) != Some(e.dt)
    {
        fired.push(format!(
            "knockout: {} players remain",
            num(cur, "currentPlayerCount")
        ));
    }
    // three left: becameTrue(currentPlayerCount == 3)
    if num(cur, "currentPlayerCount") == 3.0 && num(prev, "currentPlayerCount") != 3.0 {
        fired.push("three left: Three players left".into());
    }
    fired
}

#[test]
fn simulate_800_seconds_of_the_example() {
    let sim = Simulation::new(example(), ExampleScripts { payout_calls: 0 });
    let mut lines = Vec::new();
    let mut last = None;
    for tick in sim.take(800) {
        assert_eq!(tick.now, NOW + tick.number as f64 * 1000.0);
        if tick.evaluates_alerts() {
            let time = local_time_text(tick.now, &tick.current.data().time_zone).unwrap();
            for alert in fired_alerts(&tick) {
                lines.push(format!("{time} (+{}s) {alert}", tick.number));
            }
        }
        last = Some(tick);
    }
    assert_eq!(
        lines,
        [
            "2025-07-20 20:16:30 (+90s) knockout: 13 players remain",
            "2025-07-20 20:26:26 (+686s) near end of level",
            "2025-07-20 20:27:26 (+746s) blinds changed: The small blind is 500, and the big blind is 1000",
        ]
    );
    let last = last.unwrap();
    let state = &last.current;
    assert_eq!(state.tournament().clock.level_index, 9);
    assert_eq!(
        state.tournament().clock.seconds_left_in_level,
        1200.0 - 54.0
    );
    // Active players gained 800 s of msActive (none of it on a break level).
    let dana = state.to_player(4.0).unwrap();
    assert_eq!(
        state.property(dana, "msActive"),
        Some(Value::Number(800_000.0))
    );
    assert_eq!(
        state.property(dana, "msSeated"),
        Some(Value::Number(800_000.0))
    );
    let alex = state.to_player(11.0).unwrap();
    assert_eq!(
        state.property(alex, "msActive"),
        Some(Value::Number(90_000.0))
    );
    assert_eq!(
        state.global("currentPlayerCount"),
        Some(Value::Number(13.0))
    );
    assert_eq!(
        state
            .global("log")
            .and_then(|l| state.property(l.as_object()?, "entries"))
            .map(|e| e.as_list().unwrap().len()),
        Some(40)
    );
}

#[test]
fn the_first_tick_compares_with_the_started_file_state() {
    let mut t = example();
    t.clock.running = false;
    let mut sim = Simulation::new(t, NoScripts);
    assert!(
        sim.start_state().tournament().clock.running,
        "a paused clock is started first"
    );
    let tick = sim.next().unwrap();
    assert_eq!(tick.number, 1);
    assert_eq!(tick.previous.tournament().now, NOW);
    assert_eq!(tick.current.tournament().clock.seconds_left_in_level, 745.0);
    assert!(tick.evaluates_alerts());
}

#[test]
fn clock_pauses_after_a_pause_after_level_and_stops_after_the_last() {
    let file = r#"{
      "settings": {"pauseAfterBreak": true},
      "levels": [
        {"type": "break", "minutes": 0.05},
        {"smallBlind": 1, "bigBlind": 2, "minutes": 0.05},
        {"type": "break", "minutes": 0.05},
        {"smallBlind": 2, "bigBlind": 4, "minutes": 0.05}
      ],
      "clock": {"now": 0, "running": true}
    }"#;
    let t = load(file, &LoadOptions::default()).unwrap();
    assert!(!t.clock.started, "pregame is not started");
    let ticks: Vec<_> = Simulation::new(t, NoScripts).take(20).collect();
    let at = |n: usize| ticks[n - 1].current.tournament().clock;
    // Pregame (3 s) with pauseAfter: pauses when level 1 starts.
    assert_eq!(at(2).level_index, 0);
    assert!(!at(2).started);
    assert_eq!(at(3).level_index, 1);
    assert!(!at(3).running, "a pauseAfter level pauses the clock");
    assert!(!ticks[3].evaluates_alerts());
    // Paused ticks change nothing but now.
    assert_eq!(at(10).level_index, 1);
    assert_eq!(at(10).seconds_left_in_level, 3.0);
    assert_eq!(ticks[9].current.tournament().now, 10_000.0);

    let mut t = ticks[19].current.tournament().clone();
    t.clock.running = true;
    let ticks: Vec<_> = Simulation::new(t, NoScripts).take(12).collect();
    let at = |n: usize| ticks[n - 1].current.tournament().clock;
    assert!(
        at(1).started,
        "running on a blind level starts the tournament"
    );
    assert_eq!(at(3).level_index, 2);
    assert!(at(3).running, "pauseAfterLevel is false");
    assert_eq!(at(6).level_index, 3);
    assert!(!at(6).running, "the break pauses");
    let mut t = ticks[11].current.tournament().clone();
    t.clock.running = true;
    let ticks: Vec<_> = Simulation::new(t, NoScripts).take(5).collect();
    let at = |n: usize| ticks[n - 1].current.tournament().clock;
    assert_eq!(
        (
            at(3).level_index,
            at(3).seconds_left_in_level,
            at(3).running
        ),
        (3, 0.0, false)
    );
    assert_eq!((at(5).level_index, at(5).seconds_left_in_level), (3, 0.0));
}

#[test]
fn a_knockout_ending_the_tournament_pauses_the_clock() {
    let file = r#"{
      "levels": [{"smallBlind": 1, "bigBlind": 2}],
      "players": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}],
      "log": [
        {"type": "buyIn", "dt": 0, "players": [1, 2]},
        {"type": "knockout", "dt": 5000, "players": [2], "byPlayers": [1]}
      ],
      "clock": {"now": 1000, "running": true},
      "handTimer": null
    }"#;
    assert_eq!(
        load(file, &LoadOptions::default()).unwrap_err().to_string(),
        "handTimer: unknown key"
    );
    let file = file.replace(",\n      \"handTimer\": null", "");
    let mut t = load(&file, &LoadOptions::default()).unwrap();
    t.clock.hand_timer.running = true;
    t.clock.hand_timer.seconds_left = 2.0;
    let ticks: Vec<_> = Simulation::new(t, NoScripts).take(6).collect();
    assert!(ticks[2].current.tournament().clock.running);
    assert!(
        !ticks[1].current.tournament().clock.hand_timer.running,
        "the hand timer stops at 0"
    );
    assert_eq!(
        ticks[1].current.tournament().clock.hand_timer.seconds_left,
        0.0
    );
    let end = &ticks[3].current;
    assert_eq!(end.tournament().now, 5000.0);
    assert_eq!(end.global("isPostgame"), Some(Value::Bool(true)));
    assert!(!end.tournament().clock.running);
    let a = end.to_player(1.0).unwrap();
    assert_eq!(end.property(a, "place"), Some(Value::Number(1.0)));
    let b = end.to_player(2.0).unwrap();
    assert_eq!(end.property(b, "place"), Some(Value::Number(2.0)));
    assert_eq!(end.property(b, "payout"), Some(Value::Number(0.0)));
    assert_eq!(end.global("payoutsToShow"), Some(Value::Number(0.0)));
}

#[test]
fn invalid_files_name_the_json_path() {
    let cases = include_str!("cases/invalid.txt");
    let mut failures = Vec::new();
    let mut checked = 0;
    for (n, line) in cases.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (json, expected) = line.split_once(" => ").expect("JSON => MESSAGE");
        checked += 1;
        match load(json, &LoadOptions::default()) {
            Ok(_) => failures.push(format!(
                "invalid.txt:{}: loaded, expected {expected}",
                n + 1
            )),
            Err(e) if e.to_string() != expected => failures.push(format!(
                "invalid.txt:{}: expected {expected}\n  got      {e}",
                n + 1
            )),
            Err(_) => {}
        }
    }
    assert!(checked > 20);
    assert_no_failures(failures);
}

#[test]
fn json_syntax_errors_have_a_position() {
    let err = load("{\n  \"players\": [,]\n}", &LoadOptions::default()).unwrap_err();
    assert_eq!((err.line, err.column), (2, 15));
    assert_eq!(err.path, "");
    assert!(err.message.contains("expected value"), "{}", err.message);
}

/// A time beyond a JavaScript Date's range is an error: at 1e300 ms a one-second tick would
/// not move the clock (found by `odd_values_never_crash`).
#[test]
fn times_out_of_range_are_errors() {
    let err = load(r#"{"clock": {"now": 1e300}}"#, &LoadOptions::default()).unwrap_err();
    assert_eq!(err.path, "clock.now");
    assert!(err.message.contains("out of range"), "{}", err.message);
    assert!(load(r#"{"clock": {"now": -8.64e15}}"#, &LoadOptions::default()).is_ok());
}

#[test]
fn options_override_now_and_zone() {
    let opts = LoadOptions {
        now: Some(5.0),
        time_zone: Some("America/New_York".into()),
        ..Default::default()
    };
    let t = load(EXAMPLE, &opts).unwrap();
    assert_eq!(t.now, 5.0);
    assert_eq!(t.data().time_zone, "America/New_York");
    let state = State::without_scripts(t);
    assert_eq!(
        state
            .global("log")
            .map(|l| state.property(l.as_object().unwrap(), "entries").unwrap()),
        Some(Value::List(vec![]))
    );
    assert_eq!(state.global("currentPlayerCount"), Some(Value::Number(0.0)));
    // Offset-less times are local in the zone.
    let file = r#"{"clock": {"now": "2025-07-20T20:15:00", "timeZone": "Europe/Berlin"}}"#;
    assert_eq!(load(file, &LoadOptions::default()).unwrap().now, NOW);
    let empty = Tournament::empty(&LoadOptions {
        host_now: 7.0,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(empty.now, 7.0);
    let state = State::without_scripts(empty);
    assert_eq!(state.global("currentLevel"), Some(Value::Nothing));
    // payoutPercentages default to row 3, times a netPrize of 0.
    let zeros = vec![Value::Number(0.0); 3];
    assert_eq!(state.global("payouts"), Some(Value::List(zeros)));
    assert_eq!(state.global("isPregame"), Some(Value::Bool(true)));
}

#[test]
fn every_global_name_answers() {
    let state = example_state();
    for name in alea_tournament::GLOBAL_NAMES {
        assert!(state.global(name).is_some(), "{name}");
    }
    assert_eq!(state.global("nope"), None);
    let objects = [
        alea_tournament::Obj::Player(0),
        alea_tournament::Obj::Table(0),
        alea_tournament::Obj::Level(0),
        alea_tournament::Obj::Chip(0),
        alea_tournament::Obj::Log,
        alea_tournament::Obj::LogEntry(0),
        alea_tournament::Obj::HandTimer,
        alea_tournament::Obj::Tournament,
    ];
    for obj in objects {
        for name in alea_tournament::property_names(obj) {
            assert!(
                state.property(obj, name).is_some(),
                "{} {name}",
                obj.type_name()
            );
        }
        assert_eq!(state.property(obj, "nope"), None);
    }
}

#[test]
fn docs_examples() {
    let doc = include_str!("../../../docs/tournament.md");
    let mut blocks = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if let Some(tag) = line.strip_prefix("```") {
            let tag = tag.trim().to_string();
            let body: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            blocks.push((tag, body.join("\n")));
        }
    }
    let mut checked = 0;
    let mut file = None;
    for (tag, body) in &blocks {
        match tag.as_str() {
            "json" => file = Some(body.clone()),
            "cases" => {
                let t = load(
                    file.as_deref().expect("a json block first"),
                    &LoadOptions::default(),
                )
                .unwrap_or_else(|e| panic!("docs example does not load: {e}"));
                assert_no_failures(harness::check_cases(
                    &State::without_scripts(t),
                    body,
                    "docs/tournament.md",
                ));
                checked += 1;
            }
            "error" => {
                let err = load(
                    file.as_deref().expect("a json block first"),
                    &LoadOptions::default(),
                )
                .expect_err("docs example should fail");
                assert_eq!(err.to_string(), body.trim());
                checked += 1;
            }
            _ => {}
        }
    }
    assert!(
        checked >= 3,
        "docs/tournament.md has too few checked examples"
    );
}

#[test]
fn object_keys_for_json() {
    let state = example_state();
    let dana = state.to_player(4.0).unwrap();
    assert_eq!(state.object_key(dana), Some(("id", 4.0)));
    assert_eq!(
        state.object_key(alea_tournament::Obj::Chip(1)),
        Some(("value", 100.0))
    );
    assert_eq!(
        state.object_key(alea_tournament::Obj::LogEntry(3)),
        Some(("index", 3.0))
    );
    assert_eq!(state.object_key(alea_tournament::Obj::Log), None);
    assert_eq!(state.display_object(dana), "Dana Whitfield");
    assert_eq!(state.display_object(alea_tournament::Obj::Chip(0)), "25");
    assert_eq!(state.display_object(alea_tournament::Obj::Log), "<Log>");
}

/// Every path of a JSON value, for the mutation test below.
fn json_paths(v: &serde_json::Value, path: Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    out.push(path.clone());
    match v {
        serde_json::Value::Object(map) => {
            for (k, x) in map {
                let mut p = path.clone();
                p.push(PathStep::Key(k.clone()));
                json_paths(x, p, out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                let mut p = path.clone();
                p.push(PathStep::Index(i));
                json_paths(x, p, out);
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn at_path<'a>(v: &'a mut serde_json::Value, path: &[PathStep]) -> &'a mut serde_json::Value {
    path.iter().fold(v, |v, step| match step {
        PathStep::Key(k) => &mut v[k.as_str()],
        PathStep::Index(i) => &mut v[*i],
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Any one value of the example replaced by something odd: loading never panics, and what
    /// loads derives, answers every name and runs the clock without panicking.
    #[test]
    fn odd_values_never_crash(
        pick in any::<prop::sample::Index>(),
        replacement in prop::sample::select(vec![
            "null", "0", "-1", "1e300", "-1e300", "0.5", "99", "true", "\"x\"", "[]", "{}", "[1, 2]",
            "\"2025-07-20T20:15:00\"", "{\"a\": [1]}",
        ]),
        delete in any::<bool>(),
    ) {
        let mut json: serde_json::Value = serde_json::from_str(EXAMPLE).unwrap();
        let mut paths = Vec::new();
        json_paths(&json, Vec::new(), &mut paths);
        let path = pick.get(&paths).clone();
        match (delete, path.split_last()) {
            (true, Some((PathStep::Key(k), parent))) => {
                if let Some(map) = at_path(&mut json, parent).as_object_mut() {
                    map.remove(k);
                }
            }
            _ => *at_path(&mut json, &path) = serde_json::from_str(replacement).unwrap(),
        }
        let text = json.to_string();
        match load(&text, &LoadOptions::default()) {
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
                let _ = e.to_diagnostic(&text);
            }
            Ok(t) => {
                let state = State::without_scripts(t.clone());
                for name in alea_tournament::GLOBAL_NAMES {
                    prop_assert!(state.global(name).is_some());
                }
                for tick in Simulation::new(t, NoScripts).take(3) {
                    prop_assert!(tick.current.tournament().now > tick.previous.tournament().now);
                }
            }
        }
    }

    /// Random bytes: an error, never a panic.
    #[test]
    fn random_text_never_crashes(text in "\\PC{0,64}") {
        if let Err(e) = load(&text, &LoadOptions::default()) {
            let _ = e.to_diagnostic(&text);
        }
    }
}

#[test]
fn states_can_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<State>();
    send_sync::<Tournament>();
    send_sync::<alea_tournament::Tick>();
    let state = example_state();
    let count = std::thread::spawn(move || state.global("currentPlayerCount"))
        .join()
        .unwrap();
    assert_eq!(count, Some(Value::Number(14.0)));
}

#[test]
fn a_clock_index_set_out_of_range_by_a_host_does_not_crash() {
    let mut t = example();
    t.clock.level_index = 500;
    t.clock.seconds_left_in_level = 1.0;
    let state = State::without_scripts(t.clone());
    assert_eq!(state.global("currentLevel"), Some(Value::Nothing));
    assert_eq!(state.global("isBlindsLevel"), Some(Value::Bool(false)));
    let ticks: Vec<_> = Simulation::new(t, NoScripts).take(2).collect();
    assert!(
        !ticks[1].current.tournament().clock.running,
        "past the last level the clock stops"
    );
}

const RULES: &str = r#"{
  "settings": {"buyInCost": 10, "bountyChipCost": 4, "needChipToWinChip": true,
               "payoutCount": 2, "payoutAdjustment": -0.1},
  "players": [{"name": "Ann A"}, {"name": "Bo B"}, {"name": "Cy C"}, {"name": "Di D"},
              {"name": "Ed E"}],
  "log": [
    {"type": "buyIn", "dt": 0, "players": [1, 2, 3, 4, 5]},
    {"type": "bountyChip", "dt": 0, "players": [1, 2, 3, 4]},
    {"type": "knockout", "dt": 10, "players": [4], "byPlayers": [5]},
    {"type": "knockout", "dt": 20, "players": [3], "byPlayers": [1, 2]},
    {"type": "rebuy", "dt": 25, "players": [3]},
    {"type": "leftGame", "dt": 30, "players": [2]},
    {"type": "buyIn", "dt": 35, "players": [5], "status": "disabled"},
    {"type": "knockout", "dt": 40, "players": [3, 5], "byPlayers": [1]}
  ],
  "clock": {"now": 100}
}"#;

/// Rules the example does not exercise: needChipToWinChip, split bounties, leftGame, re-entry,
/// disabled entries, postgame places, shared places' payouts, ids assigned in file order, no
/// tables, a relative payout adjustment.
#[test]
fn derivation_rules() {
    let t = load(RULES, &LoadOptions::default()).unwrap();
    let cases = "
        # 5 buy-ins of 10 and a free rebuy, adjusted by -10 %
        totalBuyIns = 5
        totalRebuys = 1
        totalCollected = 50
        netPrize = 45
        # default row 2 (65 %, 35 %) of 45 = 29.25, 15.75 → 29, 16
        payouts = [29, 16]
        log.entries.count = 8
        totalPlayerCount = 5
        currentPlayerCount = 1
        isPostgame = true
        isInGame = false
        isPregame = false
        player(1).place = 1
        player(3).place = 2
        player(5).place = 2
        player(3).placeCount = 2
        player(2).place = 4
        player(4).place = 5
        playersEliminated.shortName = [Cy, Ed, Bo, Di]
        playersWithPayouts.shortName = [Ann, Cy, Ed]
        payoutsToShow = 0
        player(1).payout = 29
        player(3).payout = 8
        player(2).payout = 0
        player(3).timesEliminated = 2
        player(2).timesEliminated = 0
        player(4).hasBountyChip = true
        player(4).bountyChipValue = 4
        player(4).totalWinnings = 4
        player(5).bountyChipsWon = 0
        player(5).totalEliminated = 1
        player(1).bountyChipsWon = 0.5
        player(1).bountyChipWinnings = 2
        player(2).bountyChipWinnings = 2
        player(1).totalEliminated = 2.5
        player(1).totalWinnings = 35
        player(3).totalPaid = 10
        player(3).hasBountyChip = false
        eliminationsUntilBubbleBurst = 0
        tables = []
        player(1).tableId = null
    ";
    assert_no_failures(harness::check_cases(
        &State::without_scripts(t),
        cases,
        "derivation_rules",
    ));

    // A chop overrides the payout of the players it names.
    let chopped = RULES.replace(
        r#""clock""#,
        r#""chops": [{"place": 1, "type": "custom", "players": [1, 3], "payouts": [25, 20]}], "clock""#,
    );
    let state = State::without_scripts(load(&chopped, &LoadOptions::default()).unwrap());
    let cases = "
        player(1).payout = 25
        player(3).payout = 20
        player(5).payout = 8
        chops.count = 1
        chops[0].totalPayout = 45
        chops[0].players = [1, 3]
        chops[0].type = custom
        chops[0].percents = []
    ";
    assert_no_failures(harness::check_cases(
        &state,
        cases,
        "derivation_rules (chop)",
    ));

    // Before the last knockout (now 35): three active (Cy re-entered), places shift with it.
    let mut earlier = load(RULES, &LoadOptions::default()).unwrap();
    earlier.now = 35.0;
    let state = State::without_scripts(earlier);
    let cases = "
        currentPlayerCount = 3
        isPostgame = false
        player(1).place = 0
        player(2).place = 4
        player(4).place = 5
        player(3).isActive = true
        player(3).place = 0
        playersActive.shortName = [Ann, Cy, Ed]
        eliminationsUntilBubbleBurst = 1
        log.entries.last.status = disabled
    ";
    assert_no_failures(harness::check_cases(
        &state,
        cases,
        "derivation_rules (earlier)",
    ));
}

#[test]
fn size_limits_end_in_errors() {
    let levels = vec![r#"{"bigBlind": 2}"#; 101].join(", ");
    let err = load(
        &format!(r#"{{"levels": [{levels}]}}"#),
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "levels: too many items (at most 100)");
    let levels = vec![r#"{"bigBlind": 2}"#; 100].join(", ");
    assert!(
        load(
            &format!(r#"{{"levels": [{levels}]}}"#),
            &LoadOptions::default()
        )
        .is_ok()
    );
    let percents = vec!["0.01"; 21].join(", ");
    let err = load(
        &format!(r#"{{"settings": {{"payoutPercentages": [{percents}]}}}}"#),
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "settings.payoutPercentages: too many items (at most 20)"
    );
    // serde_json's own nesting guard: deep input is an error, not a stack overflow.
    let deep = format!(
        r#"{{"chips": [{{"value": 1, "params": {{"a": {}1{}}}}}]}}"#,
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let err = load(&deep, &LoadOptions::default()).unwrap_err();
    assert!(err.message.contains("recursion limit"), "{}", err.message);
}

#[test]
fn the_host_formats_ante_text() {
    struct Compact;
    impl ScriptHooks for Compact {
        fn ante_text(&mut self, ante: f64) -> String {
            format!("<{ante}>")
        }
    }
    let state = State::new(example(), &mut Compact);
    assert_eq!(state.global("anteText"), Some(Value::Text("<100>".into())));
    assert_eq!(state.derived().ante_text_amount, Some(100.0));
    let mut at_break = example();
    at_break.clock.level_index = 5;
    let state = State::new(at_break, &mut Compact);
    assert_eq!(state.global("anteText"), Some(Value::Text(String::new())));
}
