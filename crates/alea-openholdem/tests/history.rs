//! Betting history in the state (issue 12 part 6): the symbols OH 14's history, raisers,
//! callers and positions engines provide, computed from the hand's actions.

use alea_core::SourceFile;
use alea_openholdem::{Machine, TableState, compile_expr, format_value};

/// Six chairs, the button in 5, the hero in 2, blinds 0.5/1, everyone starts with 100.
/// Preflop: 0 posts 0.5, 1 posts 1, the hero raises to 3, 3 folds, 4 calls 3, 5 raises to 9,
/// 0 and 1 fold, the hero calls 9, 4 calls 9. The pot is 0.5 + 1 + 3 · 9 = 28.5.
/// Flop Q♥9♥3♠: the hero checks, 4 bets 10, 5 raises to 30; the hero is to act with 91.
const HAND: &str = r#"{"nchairs": 6, "userchair": 2, "dealerchair": 5, "sblind": 0.5, "bblind": 1,
 "pots": [28.5], "hero": ["Ah", "Kh"], "board": ["Qh", "9h", "3s"],
 "players": [{"chair": 0, "balance": 99.5, "playing": false}, {"chair": 1, "balance": 99, "playing": false},
   {"chair": 2, "balance": 91}, {"chair": 3, "balance": 100, "playing": false},
   {"chair": 4, "balance": 81, "bet": 10}, {"chair": 5, "balance": 61, "bet": 30}],
 "history": [
   [{"chair": 0, "action": "sb", "to": 0.5}, {"chair": 1, "action": "bb", "to": 1},
    {"chair": 2, "action": "raise", "to": 3}, {"chair": 3, "action": "fold"},
    {"chair": 4, "action": "call"}, {"chair": 5, "action": "raise", "to": 9},
    {"chair": 0, "action": "fold"}, {"chair": 1, "action": "fold"},
    {"chair": 2, "action": "call"}, {"chair": 4, "action": "call"}],
   [{"chair": 2, "action": "check"}, {"chair": 4, "action": "bet", "to": 10},
    {"chair": 5, "action": "raise", "to": 30}]]}"#;

fn eval(state: &str, expr: &str) -> (String, Vec<String>) {
    let p = compile_expr(None, SourceFile::new("<expr>", expr.to_string()))
        .program
        .unwrap_or_else(|| panic!("{expr} does not load"));
    let mut m = Machine::new(&p);
    m.set_state(Box::new(TableState::from_json(state).unwrap()));
    m.begin_run();
    let v = m
        .eval_expr()
        .map_or_else(|e| e.diagnostic.message.clone(), format_value);
    let w = m
        .warnings()
        .iter()
        .map(|w| w.diagnostic.message.clone())
        .collect();
    (v, w)
}

#[test]
fn history_symbols_from_the_actions() {
    let cases = [
        // The hero's actions (CSymbolEngineHistory): raised and called preflop, checked now.
        ("didrais", "0"),
        ("didchec", "1"),
        ("didraisround1", "1"),
        ("didcallround1", "1"),
        ("didfoldround1", "0"),
        ("didchecround2", "1"),
        ("didbetsizeround1", "0"),
        // k_prevaction_check.
        ("prevaction", "0"),
        // Six dealt preflop; on the flop 2, 4 and 5 remain.
        ("nplayersround1", "6"),
        ("nplayersround2", "3"),
        ("nplayersround", "3"),
        // The largest bet in bets of the round (the big blind): 9 preflop, 30 now.
        ("nbetsround1", "9"),
        ("nbetsround2", "30"),
        ("nbetsround", "30"),
        // Raises: preflop 2 (3 > 1) and 5 (9 > 3): 4 + 32; the flop 4 (10) and 5 (30): 16 + 32.
        ("raisbits1", "36"),
        ("raisbits2", "48"),
        ("lastraised1", "5"),
        ("lastraised2", "5"),
        ("lastraised3", "-1"),
        // Calls preflop: 4 (twice) and the hero: 16 + 4.
        ("callbits1", "20"),
        ("callbits2", "0"),
        // Folds preflop: 3, 0, 1: 8 + 1 + 2.
        ("foldbits1", "11"),
        ("raischair", "5"),
        ("lastraiserchair", "5"),
        ("firstraiserchair", "4"),
        ("nopponentstruelyraising", "2"),
        ("nopponentscalling", "0"),
        ("firstcallerchair", "-1"),
        // Positions against the raiser (chair 5): playing 2, 4, 5 from the button's left, so
        // the raiser's bet position is 3, his deal position 6; the hero's bet position is 1 and
        // callposition = (1 + 3 − 3) mod 3 = 1. The raiser acts after the hero.
        ("betpositionrais", "3"),
        ("dealpositionrais", "6"),
        ("callposition", "1"),
        ("ac_agchair_after", "1"),
        // The raiser is the button: PreflopPos 6 of 6 dealt is 6.
        ("ac_prefloprais_pos", "6"),
        // Table symbols: 2 (0 in) and 4 (10 in) are below 30; no opponent has 0 in.
        ("nplayerscallshort", "2"),
        ("nopponentschecking", "0"),
        // hi_: balances when the hero acted. After preflop the hero had 91 (nothing in on the
        // flop yet), chair 4 had 81 + 10 = 91, chair 5 61 + 30 = 91; the hero did not act on
        // the turn: 0. The stacks of those still in after preflop: 91, 91, 91.
        ("hi_balance1", "91"),
        ("hi_balance2", "91"),
        ("hi_balance3", "0"),
        ("hi_balance41", "91"),
        ("hi_balance51", "91"),
        ("hi_stack01", "91"),
        ("hi_stack31", "0"),
    ];
    let mut failures = Vec::new();
    for (expr, want) in cases {
        let (got, w) = eval(HAND, expr);
        if got != want || !w.is_empty() {
            failures.push(format!("{expr} => {got} {w:?}, want {want}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // prwin of an earlier round only a live table saw: a default with a warning.
    let (v, w) = eval(HAND, "hi_prwin1");
    assert_eq!((v.as_str(), w.len()), ("0", 1));
}

#[test]
fn without_a_history_the_defaults_warn() {
    let state = HAND.split(",\n \"history\"").next().unwrap().to_string() + "}";
    let (v, w) = eval(&state, "raischair");
    assert_eq!(v, "-1");
    assert!(w[0].contains("betting history"), "{w:?}");
    // The state's "symbols" (and so --set) win over the history.
    let given = HAND.replace("\"pots\"", "\"symbols\": {\"raischair\": 4}, \"pots\"");
    assert_eq!(eval(&given, "raischair"), ("4".to_string(), vec![]));
}

#[test]
fn history_errors_name_the_path() {
    let err = |from: &str, to: &str| {
        TableState::from_json(&HAND.replace(from, to))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(
            r#""action": "bet", "to": 10"#,
            r#""action": "bet", "to": 0"#
        ),
        "history[1][1].to: a raise to 0 does not exceed the bet of 0"
    );
    assert_eq!(
        err(
            r#"{"chair": 3, "action": "fold"}"#,
            r#"{"chair": 7, "action": "fold"}"#
        ),
        "history[0][3].chair: chair 7 has no entry in players"
    );
    assert!(
        err(r#""action": "check""#, r#""action": "limp""#)
            .starts_with("history[1][0].action: unknown action \"limp\"")
    );
    assert_eq!(
        err(r#""to": 30}]]"#, r#""to": 30}], [], []]"#),
        "history: 4 rounds, but the board makes this betting round 2"
    );
}

/// OpenPPL-style history symbols, written for this test in the way OH 14's OpenPPL library
/// builds its own on OpenHoldem's (`didraisround_preflop`, `prevaction`, `nopponentscalling`
/// …, through the multiplexer's `_preflop`/`_flop`/`_lastraiserchair` postfixes).
const HISTORY_LIBRARY: &str = "##BotRaisedBeforeFlop##
didraisround_preflop > 0 OR didbetsizeround_preflop > 0
##BotCalledBeforeFlop##
didcallround_preflop > 0
##BotCheckedOnFlop##
didchecround_flop > 0
##BotsActionsOnThisRound##
didcall + didrais + didbetsize
##BotsActionsOnThisRoundIncludingChecks##
didchec + didcall + didrais + didbetsize
##BotsLastAction##
WHEN prevaction = 2 OR prevaction = 3 RETURN Raise FORCE
WHEN prevaction = 1 RETURN Call FORCE
WHEN prevaction = 0 RETURN Check FORCE
WHEN prevaction = -1 RETURN Fold FORCE
WHEN Others RETURN None FORCE
##CallsSinceLastPlay##
WHEN BotsActionsOnThisRoundIncludingChecks = 0 RETURN 0 FORCE
WHEN Others RETURN nopponentscalling FORCE
##RaisesSinceLastPlay##
WHEN BotsActionsOnThisRoundIncludingChecks = 0 RETURN 0 FORCE
WHEN Others RETURN nopponentstruelyraising FORCE
##LastRaisersBet##
currentbet_lastraiserchair
##RaisesOnFlop##
`raisbits_flop
##PlayersDealtPreflop##
nplayersround_preflop
##LargestBetPreflop##
nbetsround_preflop
##f$flop##
WHEN BotsLastAction = Check AND RaisesSinceLastPlay >= 2 AND BotRaisedBeforeFlop Fold FORCE
WHEN Others Call FORCE
";

#[test]
fn openppl_history_symbols_from_the_actions() {
    use alea_openholdem::{Request, Selection, action_constant, compile_profile, evaluate};
    let c = compile_profile(vec![SourceFile::new("history.ohf", HISTORY_LIBRARY)], None);
    let p = c.program.expect("the library loads");
    // Derived from HAND: the hero raised to 3 and called 9 preflop, checked the flop; then
    // chair 4 bet 10 and chair 5 (the button) raised to 30.
    let cases: [(&str, f64); 13] = [
        // didraisround1 = 1, didcallround1 = 1, didchecround2 = 1.
        ("BotRaisedBeforeFlop", 1.0),
        ("BotCalledBeforeFlop", 1.0),
        ("BotCheckedOnFlop", 1.0),
        // On the flop only a check: 0 actions that count, 1 with checks.
        ("BotsActionsOnThisRound", 0.0),
        ("BotsActionsOnThisRoundIncludingChecks", 1.0),
        // prevaction 0 (check).
        ("BotsLastAction", action_constant("Check").unwrap()),
        // Since the check nobody called; chairs 4 and 5 raised.
        ("CallsSinceLastPlay", 0.0),
        ("RaisesSinceLastPlay", 2.0),
        // lastraiserchair 5, currentbet5 = 30.
        ("LastRaisersBet", 30.0),
        // raisbits2 = 2⁴ + 2⁵: two raisers.
        ("RaisesOnFlop", 2.0),
        ("PlayersDealtPreflop", 6.0),
        ("LargestBetPreflop", 9.0),
        // Checked, raised twice behind, having raised preflop: the rule folds.
        ("f$flop", action_constant("Fold").unwrap()),
    ];
    let request = Request {
        selection: Selection::Named(cases.iter().map(|(n, _)| n.to_string()).collect()),
        seed: 1,
        ..Request::default()
    };
    let e = evaluate(&p, Some(TableState::from_json(HAND).unwrap()), &request);
    assert!(e.ok(), "{:?}", e.error.map(|x| x.diagnostic.message));
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    for ((name, want), got) in cases.iter().zip(&e.results) {
        assert_eq!((got.name.as_str(), got.value), (*name, *want), "{name}");
    }
    assert_eq!(e.results[12].action.as_deref(), Some("Fold"));
    // The same library preflop without a history: the OpenHoldem symbols take their
    // start-of-hand defaults with a warning each (no action yet: prevaction -2 → None).
    let before = r#"{"nchairs": 6, "userchair": 2, "dealerchair": 5, "sblind": 0.5, "bblind": 1,
      "hero": ["Ah", "Kh"], "players": [{"chair": 0, "balance": 99.5, "bet": 0.5},
      {"chair": 1, "balance": 99, "bet": 1}, {"chair": 2, "balance": 100}]}"#;
    let request = Request {
        selection: Selection::Named(vec!["BotsLastAction".into(), "BotRaisedBeforeFlop".into()]),
        seed: 1,
        ..Request::default()
    };
    let e = evaluate(&p, Some(TableState::from_json(before).unwrap()), &request);
    assert_eq!(e.results[0].value, action_constant("None").unwrap());
    assert_eq!(e.results[1].value, 0.0);
    assert!(!e.warnings.is_empty());
}

/// Library functions that read the OpenPPL library's memory of earlier rounds, the way OH 14's
/// own `BotsLastPreflopAction` and `NumberOfRaisesBeforeFlop` do (written for this test).
const MEMORY_LIBRARY: &str = "##BotsLastPreflopAction##
me_re_MemBotsLastPreflopAction
##BotsLastFlopAction##
me_re_MemBotsLastFlopAction
##NumberOfRaisesBeforeFlop##
me_re_MemRaisesBeforeFlop
##NumberOfRaisesOnFlop##
me_re_MemRaisesOnFlop
##BotsLastTurnAction##
me_re_MemBotsLastTurnAction
##RaisesStored##
me_re_MemRaises
##CallsStored##
me_re_MemCalls
##ChecksStored##
me_re_MemChecks
";

/// Preflop, the hero (chair 2) to act a third time: it raised to 3, chair 3 re-raised to 9,
/// chair 4 called, 5, 0 and 1 folded, the hero raised to 27, chair 3 raised to 81.
const THREE_BETS: &str = r#"{"nchairs": 6, "userchair": 2, "dealerchair": 5, "sblind": 0.5,
 "bblind": 1, "hero": ["Ah", "Kh"],
 "players": [{"chair": 0, "balance": 99.5, "playing": false}, {"chair": 1, "balance": 99, "playing": false},
   {"chair": 2, "balance": 73, "bet": 27}, {"chair": 3, "balance": 19, "bet": 81},
   {"chair": 4, "balance": 91, "bet": 9}, {"chair": 5, "balance": 100, "playing": false}],
 "history": [[{"chair": 0, "action": "sb", "to": 0.5}, {"chair": 1, "action": "bb", "to": 1},
   {"chair": 2, "action": "raise", "to": 3}, {"chair": 3, "action": "raise", "to": 9},
   {"chair": 4, "action": "call"}, {"chair": 5, "action": "fold"}, {"chair": 0, "action": "fold"},
   {"chair": 1, "action": "fold"}, {"chair": 2, "action": "raise", "to": 27},
   {"chair": 3, "action": "raise", "to": 81}]]}"#;

#[test]
fn the_openppl_librarys_memory_of_earlier_rounds_comes_from_the_history() {
    use alea_openholdem::{Request, Selection, action_constant, compile_profile, evaluate};
    let c = compile_profile(vec![SourceFile::new("memory.ohf", MEMORY_LIBRARY)], None);
    let p = c.program.expect("loads");
    let names = [
        "BotsLastPreflopAction",
        "NumberOfRaisesBeforeFlop",
        "BotsLastFlopAction",
        "NumberOfRaisesOnFlop",
        "BotsLastTurnAction",
        "RaisesStored",
        "CallsStored",
        "ChecksStored",
    ];
    let run = |state: &str| -> Vec<f64> {
        let request = Request {
            selection: Selection::Named(names.iter().map(|s| s.to_string()).collect()),
            seed: 1,
            ..Request::default()
        };
        let e = evaluate(&p, Some(TableState::from_json(state).unwrap()), &request);
        assert!(e.ok(), "{:?}", e.error);
        e.results.iter().map(|r| r.value).collect()
    };
    let k = |n: &str| action_constant(n).unwrap();
    // HAND, on the flop: the hero's last preflop action was the call of 9, after one raise by
    // an opponent (chair 5 to 9; the hero's own raise to 3 does not count). On the flop the
    // library stored the hero's check, before any raise; the turn's cell keeps the hand-reset
    // value None.
    // The flop's running counters: the hero checked first, before anyone acted: 0, 0, 0.
    assert_eq!(
        run(HAND),
        [k("Call"), 1.0, k("Check"), 0.0, k("None"), 0.0, 0.0, 0.0]
    );
    // The same hand on the turn, after a flop of: hero checks, 4 bets 10, 5 raises to 30, the
    // hero calls, 4 calls. The hero faced one raise there (the opening bet is not a raise).
    let turn = HAND
        .replace(r#""pots": [28.5]"#, r#""pots": [118.5]"#)
        .replace(r#"["Qh", "9h", "3s"]"#, r#"["Qh", "9h", "3s", "2d"]"#)
        .replace(
            r#"{"chair": 2, "balance": 91}"#,
            r#"{"chair": 2, "balance": 61}"#,
        )
        .replace(r#""balance": 81, "bet": 10"#, r#""balance": 61"#)
        .replace(r#""balance": 61, "bet": 30"#, r#""balance": 61"#)
        .replace(
            r#"{"chair": 5, "action": "raise", "to": 30}]]"#,
            r#"{"chair": 5, "action": "raise", "to": 30}, {"chair": 2, "action": "call"},
               {"chair": 4, "action": "call"}], []]"#,
        );
    // The turn has no action yet: its counters are the new round's 0.
    assert_eq!(
        run(&turn),
        [k("Call"), 1.0, k("Call"), 1.0, k("None"), 0.0, 0.0, 0.0]
    );
    // THREE_BETS: before the hero's last action (the raise to 27) it had faced chair 3's raise
    // to 9 and chair 4's call: MemRaises 1, MemCalls 1 (no checks preflop). The library then
    // counts Raises = 1 + chair 3's raise since = 2, as at the table. The hero's last preflop
    // action so far was a raise.
    let r = run(THREE_BETS);
    assert_eq!((r[0], r[1]), (k("Raise"), 1.0));
    assert_eq!(&r[5..], [1.0, 1.0, 0.0]);
    // The state's own memory wins over the history's.
    let given = turn.replace(
        r#""pots": [118.5]"#,
        r#""pots": [118.5], "memory": {"MemRaisesBeforeFlop": 5}"#,
    );
    assert_eq!(run(&given)[1], 5.0);
}
