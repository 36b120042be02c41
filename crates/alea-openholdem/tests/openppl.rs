//! Profiles, `##Name##` functions, OpenPPL rules and OpenHoldem 14's loading rules (issue 12),
//! on a small library and bots written for these tests (no OpenHoldem text).
//!
//! The table (spec §7.3's state): hero AhKh on the flop QhJh2c, so betround = 2; chair 1 bet 4
//! and the hero has nothing in, so call = 4; pots [6] plus the bet 4 make pot = 10; the flop's
//! bet is the big blind, bet = 1, so nbetstocall = ncallbets = 4; balance = 48.

use alea_core::SourceFile;
use alea_openholdem::{
    Request, Selection, TableState, compile_profile, describe_decision, evaluate,
};

const STATE: &str = r#"{"nchairs": 6, "userchair": 2, "dealerchair": 5, "sblind": 0.5, "bblind": 1, "pots": [6],
 "hero": ["Ah", "Kh"], "board": ["Qh", "Jh", "2c"],
 "players": [{"chair": 0, "balance": 95, "playing": false}, {"chair": 1, "balance": 120, "bet": 4},
   {"chair": 2, "balance": 48}, {"chair": 4, "balance": 80, "active": false},
   {"chair": 5, "balance": 60, "playing": false}]}"#;

/// A small library in the style of OH 14's: OpenPPL functions, a constant and a default.
const LIBRARY: &str = "##notes##
test library: one function per construct
##IsFlop##
betround = flop
##StackInBigBlinds##
balance / bblind
##HaveTopPair##
WHEN NOT IsFlop RETURN false FORCE
WHEN $AKs RETURN true FORCE
##DefaultTurn##
WHEN Others RETURN Check FORCE
";

fn files(list: &[(&str, &str)]) -> Vec<SourceFile> {
    list.iter().map(|(n, t)| SourceFile::new(*n, *t)).collect()
}

/// Loads the profile and evaluates `names`: (name, value, action) each, or the first error.
fn run(
    profile: &[(&str, &str)],
    names: &[&str],
) -> Result<Vec<(String, f64, Option<String>)>, String> {
    let c = compile_profile(files(profile), None);
    let Some(p) = c.program else {
        return Err(c
            .diagnostics
            .iter()
            .find(|d| d.diagnostic.is_error())
            .map(|d| d.diagnostic.message.clone())
            .unwrap_or_default());
    };
    let request = Request {
        selection: Selection::Named(names.iter().map(|s| s.to_string()).collect()),
        seed: 1,
        ..Request::default()
    };
    let e = evaluate(&p, Some(TableState::from_json(STATE).unwrap()), &request);
    if let Some(err) = e.error {
        return Err(err.diagnostic.message);
    }
    Ok(e.results
        .into_iter()
        .map(|r| (r.name, r.value, r.action))
        .collect())
}

fn value(profile: &[(&str, &str)], name: &str) -> f64 {
    match run(profile, &[name]) {
        Ok(r) => r[0].1,
        Err(e) => panic!("{name}: {e}"),
    }
}

fn load_error(profile: &[(&str, &str)]) -> String {
    match compile_profile(files(profile), None)
        .diagnostics
        .iter()
        .find(|d| d.diagnostic.is_error())
    {
        Some(d) => d.diagnostic.message.clone(),
        None => panic!("loads"),
    }
}

#[test]
fn a_profile_shares_functions_across_files() {
    // The bot uses the library's functions (CFormulaParser::ParseDefaultLibraries loads the
    // library and the bot into one collection).
    let bot = "##f$raise##\nIsFlop AND StackInBigBlinds > 40\n";
    assert_eq!(
        value(&[("lib.ohf", LIBRARY), ("bot.ohf", bot)], "f$raise"),
        1.0
    );
    // Alone, the bot names what is missing and where it comes from.
    let e = load_error(&[("bot.ohf", bot)]);
    assert_eq!(e, "undefined OpenPPL function 'IsFlop'");
}

#[test]
fn a_name_defined_in_two_files_is_reported_with_both_places() {
    let c = compile_profile(
        files(&[
            ("a.ohf", "##Limit##\n2\n"),
            ("b.ohf", "##Limit##\n3\n##f$call##\nLimit\n"),
        ]),
        None,
    );
    // CFunctionCollection::Add: the later definition replaces the earlier one.
    let p = c.program.as_ref().expect("loads");
    let w: Vec<&str> = c
        .diagnostics
        .iter()
        .map(|d| d.diagnostic.message.as_str())
        .collect();
    assert_eq!(
        w,
        ["'Limit' is defined twice in the profile: here and at a.ohf:1; this later one wins"]
    );
    assert_eq!(c.diagnostics[0].file, 1);
    let e = evaluate(
        p,
        None,
        &Request {
            selection: Selection::Named(vec!["f$call".into()]),
            ..Request::default()
        },
    );
    assert_eq!(e.results[0].value, 3.0);
    // The same body twice (a licence header in every library file) says nothing.
    let c = compile_profile(
        files(&[("a.ohf", "##L##\n1 // x\n"), ("b.ohf", "##L##\n1\n")]),
        None,
    );
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
}

#[test]
fn openppl_names_are_case_sensitive_with_a_hint() {
    // CFunctionCollection::GetSimilarNameWithDifferentCases.
    let e = load_error(&[
        ("lib.ohf", LIBRARY),
        ("bot.ohf", "##f$call##\nisflop2 + Isflop\n"),
    ]);
    assert_eq!(e, "unknown symbol 'isflop2'");
    let e = load_error(&[("lib.ohf", LIBRARY), ("bot.ohf", "##f$call##\nIsflop\n")]);
    assert_eq!(
        e,
        "undefined OpenPPL function 'Isflop'; did you mean 'IsFlop'?"
    );
}

#[test]
fn when_rules_return_the_first_action_that_holds() {
    // ParseOpenEndedWhenConditionSequence / EvaluateTernaryExpression: rules are tried in order.
    let bot = "##f$flop##
WHEN call > 10 Fold FORCE
WHEN HaveTopPair AND call <= 4 RaiseTo 6 FORCE
WHEN Others Call FORCE
";
    let r = run(&[("lib.ohf", LIBRARY), ("bot.ohf", bot)], &["f$flop"]).unwrap();
    // call = 4: the first rule is false, HaveTopPair (flop, AKs) and call <= 4 hold.
    assert_eq!(r[0], ("f$flop".into(), 6.0, Some("RaiseTo 6 bb".into())));
}

#[test]
fn open_ended_when_guards_the_rules_up_to_the_next_one() {
    // BackPatchOpenEndedWhenConditionSequence: an open-ended WHEN's false branch is the next
    // open-ended WHEN.
    let bot = "##f$flop##
WHEN betround = preflop
  WHEN Others RaiseMax FORCE
WHEN betround = flop
  WHEN call > 100 Fold FORCE
  WHEN call = 4 RaiseBy 50% FORCE
WHEN Others Fold FORCE
";
    // Not preflop: RaiseMax is skipped. On the flop, call = 4: RaiseBy 50% is
    // ncallbets + 0.5 * (pot / bet + nbetstocall) = 4 + 0.5 * (10 / 1 + 4) = 11 big blinds
    // (CParseTreeTerminalNodeBetsizeAction::Evaluate).
    assert_eq!(value(&[("bot.ohf", bot)], "f$flop"), 11.0);
}

#[test]
fn actions_and_their_decision_values() {
    // The values of OH 14's OpenPPL library constants; Allin and BetMax are RaiseMax,
    // Bet and RaiseMin are Raise, Play is Call, SitOut folds (kOpenPPLActionConstants).
    let cases = [
        ("Fold", -1_000_001.0, "Fold"),
        ("Check", 0.0, "Check (else Fold)"),
        ("Call", -1_000_010.0, "Call"),
        ("Play", -1_000_010.0, "Call"),
        ("Raise", -1_000_012.0, "Raise"),
        ("Bet", -1_000_012.0, "Raise"),
        ("RaiseHalfPot", -1_000_005.0, "RaiseHalfPot"),
        ("BetPot", -1_000_008.0, "RaisePot"),
        ("Allin", -1_000_009.0, "RaiseMax"),
        ("SitOut", -1_000_001.0, "Fold"),
        ("Beep", -1_000_000.0, "Beep"),
    ];
    for (action, v, shown) in cases {
        let bot = format!("##f$turn##\nWHEN Others {action} FORCE\n");
        let r = run(&[("bot.ohf", &bot)], &["f$turn"]).unwrap();
        assert_eq!((r[0].1, r[0].2.as_deref()), (v, Some(shown)), "{action}");
        assert_eq!(describe_decision(v), shown);
    }
    // RaiseBy N: ncallbets + N = 4 + 2; RETURN gives any value.
    assert_eq!(
        value(
            &[("b.ohf", "##f$turn##\nWHEN 1 RaiseBy 2 FORCE\n")],
            "f$turn"
        ),
        6.0
    );
    assert_eq!(
        value(
            &[("b.ohf", "##f$turn##\nWHEN 1 RETURN pot * 2 FORCE\n")],
            "f$turn"
        ),
        20.0
    );
}

#[test]
fn no_rule_fires_gives_zero_or_the_default_function() {
    // CParseTreeTerminalNodeEndOfFunction: f$turn falls back to DefaultTurn when defined.
    let bot = "##f$turn##\nWHEN call > 100 Fold FORCE\n##f$x##\nWHEN 0 Fold FORCE\n";
    let r = run(
        &[("lib.ohf", LIBRARY), ("bot.ohf", bot)],
        &["f$turn", "f$x"],
    )
    .unwrap();
    assert_eq!(r[0].1, 0.0); // DefaultTurn: Check
    assert_eq!(r[1].1, 0.0);
}

#[test]
fn set_user_variables_and_go_on() {
    // CParseTreeOperatorNode::EvaluateTernaryExpression: a SET does not end the function;
    // CSymbolEngineOpenPPLUserVariables: a user variable is 1 once set, else 0.
    let bot = "##f$flop##
WHEN call = 4 SET user_facing_bet
WHEN call = 999 SET user_never
WHEN user_facing_bet AND NOT user_never RETURN 7 FORCE
WHEN Others RETURN 8 FORCE
";
    assert_eq!(value(&[("bot.ohf", bot)], "f$flop"), 7.0);
    let bot = "##f$flop##\nWHEN 1 SET me_st_seen_3\nWHEN 1 RETURN me_re_seen FORCE\n";
    assert_eq!(value(&[("bot.ohf", bot)], "f$flop"), 3.0);
}

#[test]
fn percent_is_percentage_in_openppl_and_modulo_elsewhere() {
    // CTokenizer::ScanForNextToken: '%' is percentage once a WHEN was seen in the function.
    assert_eq!(
        value(
            &[("b.ohf", "##f$x##\nWHEN 1 RETURN 50 % pot FORCE\n")],
            "f$x"
        ),
        5.0
    );
    assert_eq!(value(&[("b.ohf", "##f$x##\n7 % 3\n")], "f$x"), 1.0);
}

#[test]
fn openppl_parse_errors_say_what_is_expected() {
    let e = |body: &str| load_error(&[("b.ohf", &format!("##f$x##\n{body}\n"))]);
    // ExpectKeywordForce, CheckTokenForOpenPPLAction, ErrorMissingAction, CheckForEmptyWhen…
    assert_eq!(
        e("WHEN 1 Fold"),
        "missing keyword FORCE after Fold, found end of function"
    );
    assert_eq!(
        e("WHEN 1 FOLD FORCE"),
        "action 'FOLD' is spelled 'Fold' in OpenPPL"
    );
    assert_eq!(
        e("WHEN 1 2 Fold FORCE"),
        "missing action after the WHEN condition, found '2'"
    );
    assert_eq!(
        e("WHEN 1 user_x"),
        "missing action after the WHEN condition, found 'user_x'"
    );
    assert_eq!(e("WHEN"), "empty WHEN condition at the end of the function");
    assert_eq!(
        e("1 + 1 WHEN 1 Fold FORCE"),
        "unexpected 'WHEN' after end of expression"
    );
    assert_eq!(
        e("WHEN 1 Raise 3 FORCE"),
        "missing keyword FORCE after action Raise"
    );
}

#[test]
fn loading_is_as_lenient_as_openholdem_14() {
    let ok = |text: &str| {
        let c = compile_profile(files(&[("b.ohf", text)]), None);
        assert!(!c.has_errors(), "{text}: {:?}", c.diagnostics);
        c.program.unwrap()
    };
    // SkipShankyOptionSettings: text before the first header; notes and dll in any case.
    ok("a bot of mine\n##NOTES##\nx\n##DLL##\n##f$call##\n1\n");
    // f$srai is not among CheckForOutdatedFunction's names.
    ok("##f$srai##\n1\n");
    // COHScriptList::Set: AAo and KKs are the pairs.
    let p = ok("##list1##\nAAo KKs\n##f$call##\nlist1\n");
    let e = evaluate(
        &p,
        Some(TableState::from_json(STATE).unwrap()),
        &Request {
            selection: Selection::Named(vec!["f$call".into()]),
            ..Request::default()
        },
    );
    assert_eq!(e.results[0].value, 0.0); // AhKh is not a pair
    // CSymbolEngineConstants; LeftHandSide of CSymbolEngineMemorySymbols.
    let p = ok("##f$call##\ntrue + ace + king + ten + me_re_x_ignored\n");
    let e = evaluate(
        &p,
        None,
        &Request {
            selection: Selection::Named(vec!["f$call".into()]),
            ..Request::default()
        },
    );
    assert_eq!(e.results[0].value, 1.0 + 14.0 + 13.0 + 10.0);
    // The debug tab is a scratch pad: an unknown name is a warning.
    let p = ok("##f$debug##\nx = nosuchsymbol\n");
    assert!(
        p.lint_warnings()
            .iter()
            .any(|w| w.diagnostic.message.contains("nosuchsymbol"))
    );
    // A Latin-1 character in a comment: a positioned warning, not an error.
    let p = ok("##f$call##\n1 // caf\u{e9}\n");
    let w = &p.lint_warnings()[0];
    assert_eq!(w.diagnostic.line_col(&p.files()[0]), Some((2, 9)));
}

#[test]
fn what_openholdem_14_refuses() {
    let e = |text: &str| load_error(&[("b.ohf", text)]);
    // CFunctionCollection::CheckForOutdatedFunction.
    assert_eq!(
        e("##f$alli##\n1\n"),
        "outdated function 'f$alli': f$alli was replaced by f$allin"
    );
    assert_eq!(
        e("##f$P##\n1\n"),
        "outdated function 'f$P': f$P was replaced by f$prwin_number_of_opponents"
    );
    // CFormulaParser::ParseFormula: "Found unknown function type".
    assert_eq!(e("##bankroll##\n1000\n"), "unknown section kind 'bankroll'");
    // COHScriptList::ErrorOldStyleFormat.
    assert!(e("##list1##\nAK\n").starts_with("old-style list member 'AK'"));
    // IsOutdatedSymbol.
    assert!(e("##f$call##\nnopponents\n").starts_with("outdated symbol 'nopponents'"));
    // CheckForMisspelledOpenPPLMainFunction.
    assert!(e("##f$Flop##\n1\n").starts_with("misspelled OpenPPL main function"));
}

#[test]
fn shanky_style_files_split_as_openholdem_14() {
    // CFormulaFileSplitter::SkipShankyOptionSettings / IsShankyFunction: after `custom` (or
    // option settings `name = value`) a line `preflop` … `river` is the header of f$preflop …
    // f$river; the rules below it are OpenPPL.
    let bot = "custom\n\npreflop\nWHEN Others Call FORCE\nflop // c-bet\nWHEN call > 10 Fold FORCE\nWHEN Others RaiseBy 3 FORCE\n";
    let r = run(&[("s.ohf", bot)], &["f$preflop", "f$flop"]).unwrap();
    assert_eq!(r[0].1, alea_openholdem::action_constant("Call").unwrap());
    // call is 4 and ncallbets 4: RaiseBy 3 is ncallbets + 3 = 7 big blinds.
    assert_eq!(r[1].1, 7.0);
    let warnings_of = |text: &str| -> Vec<String> {
        let c = compile_profile(files(&[("s.ohf", text)]), None);
        c.program
            .expect("loads")
            .lint_warnings()
            .iter()
            .map(|d| d.diagnostic.message.clone())
            .collect()
    };
    let warnings: Vec<String> = warnings_of(bot)
        .into_iter()
        .filter(|w| w.contains("Shanky"))
        .collect();
    assert!(
        warnings.len() == 1 && warnings[0].starts_with("Shanky-style bot logic"),
        "{warnings:?}"
    );
    // Option settings without `custom`: loads, with OH 14's warning.
    let w = warnings_of("MaxStake = 10\npreflop\nWHEN Others Fold FORCE\n");
    assert!(
        w.iter()
            .any(|m| m == "Shanky-style code without the keyword 'custom'"),
        "{w:?}"
    );
    // Betting rounds alone are not headers: "Input file does not contain any bot-logic", with
    // a note on what would make them so.
    let c = compile_profile(
        files(&[("b.ohf", "preflop\nWHEN Others Fold FORCE\n")]),
        None,
    );
    let d = &c.diagnostics[0].diagnostic;
    assert!(
        d.is_error()
            && d.message
                .contains("Input file does not contain any bot-logic")
    );
    assert!(
        d.notes.iter().any(|n| n.contains("'custom'")),
        "{:?}",
        d.notes
    );
}

#[test]
fn multiplexed_names() {
    // CSymbolEngineMultiplexer: NAME_POSTFIX is NAME followed by the postfix's value.
    let lib = "##Seat0##\n10\n##Seat5##\n15\n##f$x##\nSeat_dealerchair + Seat_flop\n##Seat2##\n2\n";
    // dealerchair = 5 → Seat5 = 15; flop = 2 → Seat2 = 2.
    assert_eq!(value(&[("b.ohf", lib)], "f$x"), 17.0);
}

#[test]
fn the_default_selection_is_the_openppl_decision() {
    let bot = "##f$preflop##\nWHEN Others Fold FORCE\n##f$flop##\nWHEN Others Call FORCE\n";
    let c = compile_profile(files(&[("b.ohf", bot)]), None);
    let e = evaluate(c.program.as_ref().unwrap(), None, &Request::default());
    let got: Vec<(&str, Option<&str>)> = e
        .results
        .iter()
        .map(|r| (r.name.as_str(), r.action.as_deref()))
        .collect();
    assert_eq!(got, [("f$preflop", Some("Fold")), ("f$flop", Some("Call"))]);
}
