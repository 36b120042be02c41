//! The ICM symbols (issue 12 part 5: "ICM from stacks and payouts"), each value derived by hand
//! from a stated table.
//!
//! Meaning as OpenHoldem 14 gives it (`OpenHoldem/CSymbolEngineICM.cpp`: `EvaluateSymbol` for
//! how each outcome moves the chips, `EquityICM`/`P` for Malmuth–Harville, `GetChairFromDealPos`
//! for the position names). For three players with stacks a (the hero), b, c, T = a + b + c:
//! P1 = a/T, P2 = b/T · a/(a+c) + c/T · a/(a+b), P3 = 1 − P1 − P2, and with payouts
//! 0.5/0.3/0.2 the equity is 0.5·P1 + 0.3·P2 + 0.2·P3 = 0.2 + 0.3·P1 + 0.1·P2.

use alea_core::SourceFile;
use alea_openholdem::{Machine, TableState, compile_expr, compile_file};

/// Three chairs, preflop, the hero on the button (chair 0, deal position 3) with 50 behind;
/// chair 1 the small blind (10 in, 20 behind), chair 2 the big blind (20 in, 10 behind).
/// Pot 30, call 20. Payouts 50/30/20 %.
const TABLE: &str = r#"{"nchairs": 3, "userchair": 0, "dealerchair": 0, "sblind": 10,
 "bblind": 20, "payouts": [0.5, 0.3, 0.2],
 "players": [{"chair": 0, "balance": 50}, {"chair": 1, "balance": 20, "bet": 10},
   {"chair": 2, "balance": 10, "bet": 20}]}"#;

fn run(profile: Option<&str>, state: &str, expr: &str) -> (f64, Vec<String>) {
    let program = match profile {
        Some(text) => {
            let body = format!("{text}\n##f$test##\n{expr}\n");
            compile_file(SourceFile::new("bot.ohf", body)).program
        }
        None => compile_expr(None, SourceFile::new("<expr>", expr.to_string())).program,
    }
    .expect("loads");
    let mut m = Machine::new(&program);
    m.set_state(Box::new(TableState::from_json(state).unwrap()));
    m.begin_run();
    let v = match profile {
        Some(_) => m.run("f$test"),
        None => m.eval_expr(),
    }
    .unwrap_or_else(|e| panic!("{expr}: {}", e.diagnostic.message));
    let w = m
        .warnings()
        .iter()
        .map(|w| w.diagnostic.message.clone())
        .collect();
    (v, w)
}

fn close(name: &str, got: f64, want: f64) {
    assert!((got - want).abs() < 1e-12, "{name}: {got}, want {want}");
}

/// 0.2 + 0.3·P1 + 0.1·P2 (three players, payouts 0.5/0.3/0.2).
fn e3(p1: f64, p2: f64) -> f64 {
    0.2 + 0.3 * p1 + 0.1 * p2
}

#[test]
fn every_outcome_moves_the_chips_as_oh14() {
    let cases: [(&str, f64); 14] = [
        // icm: stacks at the hand's start (balance + bet): 50, 30, 30; T = 110.
        // P1 = 5/11, P2 = 2 · 30/110 · 50/80 = 15/44.
        ("icm", e3(5.0 / 11.0, 15.0 / 44.0)),
        // icm_fold: the opponents take their bets back and split the rest (nothing): 50/30/30.
        ("icm_fold", e3(5.0 / 11.0, 15.0 / 44.0)),
        // icm_callwin: the hero takes the pot: 80, 20, 10. P1 = 8/11,
        // P2 = 20/110 · 80/90 + 10/110 · 80/100 = 16/99 + 4/55.
        ("icm_callwin", e3(8.0 / 11.0, 16.0 / 99.0 + 4.0 / 55.0)),
        // icm_alliwin0: no caller, the hero takes the pot: as icm_callwin.
        ("icm_alliwin0", e3(8.0 / 11.0, 16.0 / 99.0 + 4.0 / 55.0)),
        // icm_calllose: the hero's 20 and the pot (50) split by the two opponents: 30, 45, 35.
        // P1 = 3/11, P2 = 45/110 · 30/65 + 35/110 · 30/75 = 27/143 + 7/55.
        ("icm_calllose", e3(3.0 / 11.0, 27.0 / 143.0 + 7.0 / 55.0)),
        // icm_calltie: the pot plus the call (50) split three ways, the call not taken from
        // the hero (as OH 14): 50 + 50/3, 20 + 50/3, 10 + 50/3, i.e. 200/3, 110/3, 80/3; T = 130.
        // P1 = 20/39, P2 = 11/39 · 200/280 + 8/39 · 200/310 = 55/273 + 160/1209.
        (
            "icm_calltie",
            e3(20.0 / 39.0, 55.0 / 273.0 + 160.0 / 1209.0),
        ),
        // icm_alliwin2: both call (each all-in for less than the hero's 50) and lose: the hero
        // has all 110 chips and takes first place: 0.5.
        ("icm_alliwin2", 0.5),
        // icm_alliwin1: the shortest caller (chairs 1 and 2 both have 30 in all; the first,
        // chair 1) puts in its 20 and busts: 100, 0, 10. Two players left:
        // P1 = 10/11, P2 = 1/11 → 0.5 · 10/11 + 0.3 · 1/11 = 5.3/11.
        ("icm_alliwin1", 5.3 / 11.0),
        // icm_alliwinBB: chair 2 (deal position 2 of three) calls with its 10 and busts:
        // 90, 20, 0 → 0.5 · 9/11 + 0.3 · 2/11 = 5.1/11.
        ("icm_alliwinBB", 5.1 / 11.0),
        // icm_alliloseBB: chair 2 (30 in all, less than the hero's 50) wins the pot and 30 of
        // the hero's: 20, 20, 70. P1 = 2/11, P2 = 20/110 · 20/90 + 70/110 · 20/40 = 71/198.
        ("icm_alliloseBB", e3(2.0 / 11.0, 71.0 / 198.0)),
        // icm_allilose2: both call; their bets go back (30 each, pot 0), the hero loses 30 at
        // the level both cover and the two split it: 20, 45, 45.
        // P1 = 2/11, P2 = 2 · 45/110 · 20/65 = 36/143.
        ("icm_allilose2", e3(2.0 / 11.0, 36.0 / 143.0)),
        // icm_allitieBB: the pot split with chair 2: 65, 20, 25. P1 = 13/22,
        // P2 = 20/110 · 65/90 + 25/110 · 65/85 = 13/99 + 65/374.
        ("icm_allitieBB", e3(13.0 / 22.0, 13.0 / 99.0 + 65.0 / 374.0)),
        // The hero holds the dealer position: OH 14's kUndefined.
        ("icm_alliwinD", -1.0),
        // UTG exists from ten players seated.
        ("icm_alliloseUTG", -1.0),
    ];
    for (name, want) in cases {
        let (got, warnings) = run(None, TABLE, name);
        close(name, got, want);
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
    }
}

#[test]
fn the_start_of_hand_stack_and_a_busted_hero() {
    // start_balance 60 for the hero: 60, 30, 30; P1 = 1/2, P2 = 2 · 30/120 · 60/90 = 1/3.
    let state = TABLE.replace(
        r#"{"chair": 0, "balance": 50}"#,
        r#"{"chair": 0, "balance": 50, "start_balance": 60}"#,
    );
    close("icm", run(None, &state, "icm").0, e3(0.5, 1.0 / 3.0));
    // With a history the earlier rounds' bets count: on the flop with pots [60] and each of
    // the three having put 20 in preflop, stacks at the start are balance + 20: 70, 40, 30.
    // T = 140, P1 = 1/2, P2 = 40/140 · 70/100 + 30/140 · 70/110 = 1/5 + 3/22.
    let flop = r#"{"nchairs": 3, "userchair": 0, "dealerchair": 0, "sblind": 10, "bblind": 20,
      "payouts": [0.5, 0.3, 0.2], "pots": [60], "board": ["2c", "7d", "9h"],
      "players": [{"chair": 0, "balance": 50}, {"chair": 1, "balance": 20},
        {"chair": 2, "balance": 10}],
      "history": [[{"chair": 1, "action": "sb", "to": 10}, {"chair": 2, "action": "bb", "to": 20},
        {"chair": 0, "action": "call"}, {"chair": 1, "action": "call"}, {"chair": 2, "action": "check"}]]}"#;
    close("icm", run(None, flop, "icm").0, e3(0.5, 0.2 + 3.0 / 22.0));
    // A hero who calls all-in for 20 and loses has nothing: EquityICM places them behind the
    // two opponents seated, the third prize.
    let short = TABLE.replace(r#""balance": 50}"#, r#""balance": 20}"#);
    close("icm_calllose", run(None, &short, "icm_calllose").0, 0.2);
}

#[test]
fn prize_functions_win_over_the_states_payouts() {
    // f$icm_prize1..3 = 0.7, 0.3, 0: a defined prize (even 0) replaces payouts[i]; at the
    // start stacks 50/30/30 P1 = 5/11, P2 = 15/44 → 0.7 · 5/11 + 0.3 · 15/44.
    let profile = "##f$icm_prize1##\n0.7\n##f$icm_prize2##\n0.3\n##f$icm_prize3##\n0\n";
    let (v, w) = run(Some(profile), TABLE, "icm");
    close("icm", v, 0.7 * 5.0 / 11.0 + 0.3 * 15.0 / 44.0);
    assert!(w.is_empty(), "{w:?}");
    // Only the first defined: the state's 0.3 and 0.2 follow it, summing to 1.2: OH 14
    // refuses a sum outside (0, 1]: a warning and 0.
    let (v, w) = run(Some("##f$icm_prize1##\n0.7\n"), TABLE, "icm");
    assert_eq!(v, 0.0);
    assert!(
        w.len() == 1 && w[0].contains("(0, 1]") && w[0].contains("1.2"),
        "{w:?}"
    );
}

#[test]
fn without_payouts_a_warning_says_how_to_give_them() {
    let state = TABLE.replace(r#""payouts": [0.5, 0.3, 0.2],"#, "");
    let (v, w) = run(None, &state, "icm_fold");
    assert_eq!(v, 0.0);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("'icm_fold'")
            && w[0].contains("f$icm_prize1..9")
            && w[0].contains("\"payouts\""),
        "{}",
        w[0]
    );
    // A value in the state's "symbols" still wins, without a warning.
    let given = state.replace(
        r#""sblind": 10,"#,
        r#""sblind": 10, "symbols": {"icm_fold": 0.25},"#,
    );
    assert_eq!(run(None, &given, "icm_fold"), (0.25, vec![]));
}

#[test]
fn payouts_are_checked() {
    let bad = |payouts: &str| {
        TableState::from_json(&TABLE.replace("[0.5, 0.3, 0.2]", payouts))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(bad("[0.5, -0.1]"), "payouts[1]: must be ≥ 0, found -0.1");
    assert!(bad("[1, 0, 0, 0, 0, 0, 0, 0, 0, 0]").contains("at most 9"));
    assert_eq!(bad("0.5"), "payouts: expected an array, found a number");
}

#[test]
fn heads_up_the_dealer_is_the_small_blind() {
    // GetChairFromDealPos: with two players seated SB is the dealer (the hero here, 10 in and
    // 40 behind) and BB the other chair (20 in, 30 behind). Pot 30; payouts 70/30 %.
    let hu = r#"{"nchairs": 2, "userchair": 0, "dealerchair": 0, "sblind": 10, "bblind": 20,
      "payouts": [0.7, 0.3],
      "players": [{"chair": 0, "balance": 40, "bet": 10}, {"chair": 1, "balance": 30, "bet": 20}]}"#;
    let cases = [
        // The hero's own position.
        ("icm_alliwinSB", -1.0),
        // BB calls with its 30 (50 in all, not more than the hero's 50) and loses: the hero
        // has all 100 chips: first prize.
        ("icm_alliwinBB", 0.7),
        // BB wins: the hero loses its 40 behind and busts: the prize behind the one opponent.
        ("icm_alliloseBB", 0.3),
        // Split: 40 + 15 = 55 and 30 + 15 = 45 → 0.7 · 0.55 + 0.3 · 0.45.
        ("icm_allitieBB", 0.7 * 0.55 + 0.3 * 0.45),
        // The dealer is the hero.
        ("icm_allitieD", -1.0),
    ];
    for (name, want) in cases {
        let (got, w) = run(None, hu, name);
        close(name, got, want);
        assert!(w.is_empty(), "{name}: {w:?}");
    }
}

#[test]
fn a_misspelled_icm_name_gets_suggestions() {
    let c = compile_expr(None, SourceFile::new("<expr>", "icm_alliwinBBB"));
    let d = &c.diagnostics[0].diagnostic;
    assert!(
        d.message
            .starts_with("unknown symbol 'icm_alliwinBBB'; did you mean 'icm_alliwinBB'"),
        "{}",
        d.message
    );
}
