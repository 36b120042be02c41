//! `--simulate` has one total budget (issue 14, part 3): alerts or hooks that loop forever end
//! the simulation with `out_of_steps` after `MAX_SIMULATE_STEPS` steps in all, and a simulated
//! week of the example tournament runs to the end (its clock stops after the last level).

mod harness;

use alea_ezhost::{MAX_SIMULATE_SECONDS, Session};
use harness::*;

const WEEK: u64 = 7 * 24 * 3600;

fn with(edit: impl FnOnce(&mut serde_json::Value)) -> Session {
    let mut file: serde_json::Value = serde_json::from_str(TOURNAMENT).unwrap();
    edit(&mut file);
    Session::new(Some(&file.to_string()), options("en-US")).unwrap()
}

#[test]
fn a_thousand_endless_alerts_spend_one_budget() {
    let s = with(|file| {
        let spin = |i| serde_json::json!({"title": format!("spin {i}"), "condition": "while true { }; true"});
        file["alerts"] = (0..1000).map(spin).collect();
    });
    let report = s.simulate(WEEK).unwrap();
    // Each condition may use its own 50,000 steps: 5·10⁷ per tick, so the 10⁸ of the whole
    // simulation are spent on the second tick (before: 0.5 s per simulated second, all week).
    assert_eq!(report.out_of_steps, Some(2));
    assert!(report.firings.is_empty());
    // Tick 1: every alert ran out of its own steps (one error each); tick 2 ended the run.
    assert_eq!(report.errors.len(), 1000);
    assert!(
        report
            .errors
            .iter()
            .all(|e| e.tick == 1 && e.diagnostic.message == "Script ran out of steps")
    );
}

#[test]
fn an_endless_points_formula_spends_the_same_budget() {
    let s = with(|file| file["settings"]["pointsFormula"] = "while true { }; 0".into());
    let report = s.simulate(WEEK).unwrap();
    // Ten placed players, 250,000 steps each per derived state: 40 states use 10⁸.
    let stopped = report.out_of_steps.expect("the budget is spent");
    assert!(stopped <= 40, "{stopped}");
}

#[test]
fn a_week_of_the_example_tournament_runs_to_the_end() {
    assert_eq!(WEEK, MAX_SIMULATE_SECONDS);
    let s = session("en-US");
    let report = s.simulate(WEEK).unwrap();
    assert_eq!(report.out_of_steps, None);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let lines: Vec<String> = report.firings.iter().map(|f| f.line()).collect();
    // The first firings are those of `simulate(800)`; the last is the final blind level's end.
    assert_eq!(
        lines[..3],
        s.simulate(800)
            .unwrap()
            .firings
            .iter()
            .map(|f| f.line())
            .collect::<Vec<_>>()[..]
    );
    let last = lines.last().unwrap();
    assert!(last.contains("near end of level"), "{last}");
    assert_eq!(lines.len(), 24, "{lines:#?}");
}
