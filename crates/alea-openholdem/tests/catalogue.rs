//! The full symbol catalogue of OpenHoldem 14 (issue 12 part 5): every fixed name its symbol
//! engines provide is known, and each family's values, derived by hand from stated tables.
//!
//! Names: the engines' `SymbolsProvided` / `EvaluateSymbol` (OpenHoldem 14.0.2,
//! `OpenHoldem/CSymbolEngine*.cpp`); the values follow the meaning those functions give.

use alea_core::SourceFile;
use alea_openholdem::{Machine, Source, TableState, catalogue, compile_expr, format_value};

/// Six chairs, preflop, the button in chair 5, the hero in chair 2 with A♥K♥.
/// Dealt order from the seat after the button: 0 (SB 0.5), 1 (BB 1), 2 (hero), 3, 4, 5.
/// Chair 3 has folded, chair 4 is all-in for 20 (balance 0), chair 5 is "Alice" with 150.
const PREFLOP: &str = r#"{"nchairs": 6, "userchair": 2, "dealerchair": 5, "sblind": 0.5,
 "bblind": 1, "hero": ["Ah", "Kh"], "flags": [3, 7],
 "players": [{"chair": 0, "balance": 99.5, "bet": 0.5}, {"chair": 1, "balance": 99, "bet": 1},
   {"chair": 2, "balance": 100}, {"chair": 3, "balance": 100, "playing": false},
   {"chair": 4, "balance": 0, "bet": 20}, {"chair": 5, "name": "Alice", "balance": 150}]}"#;

/// Evaluates `expr` against `state`: the value, or the error message; and the run's warnings.
fn eval(state: &str, expr: &str) -> (String, Vec<String>) {
    let c = compile_expr(None, SourceFile::new("<expr>", expr.to_string()));
    let Some(p) = c.program else {
        let e = c
            .diagnostics
            .iter()
            .find(|d| d.diagnostic.is_error())
            .map(|d| d.diagnostic.message.clone());
        return (format!("load error: {}", e.unwrap_or_default()), Vec::new());
    };
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

fn check(state: &str, cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for (expr, want) in cases {
        let (got, _) = eval(state, expr);
        if got != *want {
            failures.push(format!("{expr} => {got}, want {want}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_catalogue_is_pinned() {
    let c = catalogue();
    // 600 fixed names of OH 14's engines, the 25 named constants and `e`.
    assert_eq!(c.len(), 626);
    let count = |family: &str| c.iter().filter(|e| e.family == family).count();
    for (family, n, samples) in [
        (
            "chairs",
            14,
            &["cutoffchair", "utgchair", "headsupchair"][..],
        ),
        (
            "positions",
            32,
            &["dealposition", "betposition", "ac_betpos9"],
        ),
        (
            "poker values",
            56,
            &["srankbitspoker", "ishipair", "pcbits", "suitbitscommon3"],
        ),
        (
            "raisers and callers",
            27,
            &["raischair", "nopponentscalling", "raisbits4"],
        ),
        (
            "history",
            41,
            &["didchec", "nbetsround1", "didalliround4", "prevaction"],
        ),
        (
            "history (hi_)",
            96,
            &["hi_balance1", "hi_stack94", "hi_prwin4"],
        ),
        (
            "ICM",
            58,
            &["icm", "icm_alliwin9", "icm_alliloseUTG6", "icm_allitieD"],
        ),
        ("chip amounts", 53, &["balance_rank9", "maxbalance"]),
        (
            "general",
            35,
            &["elapsed", "handsplayed", "colourcode9", "debug0"],
        ),
        ("versus", 28, &["vs$prwin", "vs$prloslonow"]),
    ] {
        assert_eq!(count(family), n, "{family}");
        for s in samples {
            let e = c
                .iter()
                .find(|e| e.name == *s)
                .unwrap_or_else(|| panic!("{s}"));
            assert_eq!(e.family, family, "{s}");
        }
    }
    // Every name loads (none is "unknown"), and no name is listed twice.
    let mut seen = std::collections::HashSet::new();
    for e in c {
        assert!(seen.insert(&e.name), "{} twice", e.name);
        let (v, _) = eval(PREFLOP, &e.name);
        assert!(!v.starts_with("load error"), "{}: {v}", e.name);
        assert!(v.parse::<f64>().is_ok(), "{}: {v}", e.name);
        // Computed symbols never fall back to a default.
        if matches!(e.source, Source::Table | Source::Cards | Source::Constant) {
            let (_, w) = eval(PREFLOP, &e.name);
            assert!(w.is_empty(), "{}: {w:?}", e.name);
        }
    }
}

#[test]
fn chairs_and_positions() {
    // Deal positions count dealt chairs from the one after the button
    // (CSymbolEnginePokerAction::DealPosition): 0→1, 1→2, hero 2→3, 3→4, 4→5, button 5→6.
    // Bet positions count the players still playing (chair 3 folded): 0→1, 1→2, 2→3, 4→4, 5→5.
    // CSymbolEngineChairs counts back from the button by the players dealt (6): cut-off = deal
    // position 5 = chair 4, MP3 = 4 = chair 3, MP2 = 3 = chair 2; MP1 would be position 2, a
    // blind, so -1. UTG is deal position 3.
    // The hero has 2 dealt chairs before him (0, 1) and 3 after (3, 4, 5).
    // PreflopPos for 6 dealt maps deal position 3 to 4 (middle); PostflopPos for 5 playing maps
    // bet position 3 to 3.
    check(
        PREFLOP,
        &[
            ("dealposition", "3"),
            ("betposition", "3"),
            ("ac_dealpos5", "6"),
            ("ac_dealpos9", "0"),
            ("ac_betpos4", "4"),
            ("ac_betpos3", "0"),
            ("cutoffchair", "4"),
            ("mp3chair", "3"),
            ("mp2chair", "2"),
            ("mp1chair", "-1"),
            ("ep1chair", "-1"),
            ("utgchair", "2"),
            ("buttonchair", "5"),
            ("nchairsdealtright", "2"),
            ("nchairsdealtleft", "3"),
            ("ac_preflop_pos", "4"),
            ("ac_postflop_pos", "3"),
            // Four opponents playing: no heads-up chair. Smallest stack among them: chair 4
            // (0, all-in); biggest: chair 5 (150).
            ("headsupchair", "-1"),
            ("smallstackchair", "4"),
            ("bigstackchair", "5"),
        ],
    );
}

#[test]
fn players_blinds_chips_flags_and_names() {
    // Blinds: chairs 0 and 1 (bits 1 + 2 = 3), the big blind 2; the hero is no blind.
    // All-in: chair 4 (balance 0, playing): 2^4 = 16.
    // balance_rank: balance + bet per chair, largest first: 150 (5), 100 (0: 99.5 + 0.5),
    // 100 (1), 100 (2), 100 (3), 20 (4), then the empty chairs 6..9 with 0.
    // Into the pot beyond the blinds: 0.5 + 1 + 20 > 1.5, so not first in.
    // Flags 3 and 7 pressed: fmax 7. Chair 5's player is "Alice".
    check(
        PREFLOP,
        &[
            ("playersblindbits", "3"),
            ("opponentsblindbits", "3"),
            ("bblindbits", "2"),
            ("nplayersblind", "2"),
            ("nopponentsblind", "2"),
            ("playersallinbits", "16"),
            ("opponentsallinbits", "16"),
            ("maxnplayersdealt", "6"),
            ("balance_rank0", "150"),
            ("balance_rank4", "100"),
            ("balance_rank5", "20"),
            ("balance_rank6", "0"),
            ("ac_first_into_pot", "0"),
            ("fmax", "7"),
            ("isomaha", "0"),
            ("chair$Ali", "5"),
            ("chairbit$Alice", "32"),
            ("chair$Bob", "-1"),
            ("chairbit$Bob", "0"),
        ],
    );
}

#[test]
fn cards_and_hand_expressions() {
    // A♥K♥: hearts are suit 0, rank bits 2^14 + 2^13 + 2 (the ace's low bit) = 24578.
    // Preflop the pokerval's ranks are A K: both hole cards, bits 4 and 3, pcbits 24.
    // Hold'em has no third or fourth hole card: $$pc2 254 (no card), $$pr3 -1.
    check(
        PREFLOP,
        &[
            ("suitbitsplayer0", "24578"),
            ("suitbitsplayer3", "0"),
            ("suitbitscommon0", "0"),
            ("pcbits", "24"),
            ("npcbits", "2"),
            ("$$pc2", "254"),
            ("$$pr3", "-1"),
            ("hand$AK", "1"),
            ("hand$KA", "1"),
            ("hand$AKsuited", "1"),
            ("hand$Ah", "1"),
            ("hand$As", "0"),
            ("hand$AA", "0"),
            ("hand$A", "1"),
            ("board$A", "0"),
            ("ishipair", "0"),
        ],
    );
    // A♥5♥ on K♥9♥2♥: the flush A K 9 5 2 of hearts. pcbits: A is the top card (bit 4), 5 the
    // fourth (bit 1): 18. The hero holds the flush's ace, so ishiflush.
    // srankbits: hearts of the hero (A 5: 16384 + 32 + 2) | hearts of the board (K 9 2: 8192
    // + 512 + 4) = 25126; srankhi 14, sranklo 2; srankbitscommon 8708, srankhicommon 13.
    // rankbitspoker: the five ranks A K 9 5 2 with the ace's low bit: 25126.
    // Straight flushes: hearts A K 9 5 2: longest run 2 (A-2 and K-A); the best window A-5
    // holds A 2 5, so 2 cards are missing. The board's hearts K 9 2: run 1, window 9-K or A-5
    // holds 2, fill 3.
    let flush = r#"{"nchairs": 2, "userchair": 0, "dealerchair": 1, "bblind": 1,
      "hero": ["Ah", "5h"], "board": ["Kh", "9h", "2h"],
      "players": [{"chair": 0, "balance": 50}, {"chair": 1, "balance": 50}]}"#;
    check(
        flush,
        &[
            ("pcbits", "18"),
            ("npcbits", "2"),
            ("ishiflush", "1"),
            ("srankbits", "25126"),
            ("srankhi", "14"),
            ("sranklo", "2"),
            ("srankbitsplayer", "16418"),
            ("srankbitscommon", "8708"),
            ("srankhicommon", "13"),
            ("srankbitspoker", "25126"),
            ("rankbitspoker", "25126"),
            ("rankhipoker", "14"),
            ("ranklopoker", "2"),
            ("nstraightflush", "2"),
            ("nstraightflushfill", "2"),
            ("nstraightflushcommon", "1"),
            ("nstraightflushfillcommon", "3"),
            ("suitbitscommon0", "8708"),
            ("board$K92suited", "1"),
            ("board$K9", "1"),
            ("board$KK", "0"),
            ("board$Kh", "1"),
            ("board$Kc", "0"),
        ],
    );
    // K♣K♦ on Q♥9♥3♠: one pair of kings above the board's top card (Q): ishipair. J♣J♦ sits
    // between the board's Q and 3: ismidpair. 2♣2♦ is below the board's lowest card: islopair.
    let pair = |hero: &str| {
        format!(
            r#"{{"nchairs": 2, "userchair": 0, "dealerchair": 1, "hero": {hero},
          "board": ["Qh", "9h", "3s"],
          "players": [{{"chair": 0, "balance": 50}}, {{"chair": 1, "balance": 50}}]}}"#
        )
    };
    check(
        &pair(r#"["Kc", "Kd"]"#),
        &[
            ("ishipair", "1"),
            ("ismidpair", "0"),
            ("islopair", "0"),
            ("board$Q93", "1"),
        ],
    );
    check(
        &pair(r#"["Jc", "Jd"]"#),
        &[("ishipair", "0"), ("ismidpair", "1")],
    );
    check(
        &pair(r#"["2c", "2d"]"#),
        &[("islopair", "1"), ("ismidpair", "0")],
    );
    // 5♣4♣ on 8♦7♠6♥: the straight 4-8, but 9-T would make 6-T: not the highest. T♥9♣ makes
    // 6-T, and J-high would need 9 T J with only 7 8 on the board: the highest.
    let straight = |hero: &str| {
        format!(
            r#"{{"nchairs": 2, "userchair": 0, "dealerchair": 1, "hero": {hero},
          "board": ["8d", "7s", "6h"],
          "players": [{{"chair": 0, "balance": 50}}, {{"chair": 1, "balance": 50}}]}}"#
        )
    };
    check(&straight(r#"["5c", "4c"]"#), &[("ishistraight", "0")]);
    check(&straight(r#"["Th", "9c"]"#), &[("ishistraight", "1")]);
}

#[test]
fn hand_expression_errors_as_oh14() {
    // CheckForProbablyMistakenSpadesInsteadOfSuited: `AKs` reads as "A, K of spades".
    let (v, _) = eval(PREFLOP, "hand$AKs");
    assert!(v.contains("ends in 's' (spades)"), "{v}");
    // PrimeCodedRanks: "10" is not a rank.
    let (v, _) = eval(PREFLOP, "hand$A10");
    assert!(
        v.starts_with("load error: unknown symbol 'hand$A10'"),
        "{v}"
    );
}

#[test]
fn live_symbols_come_from_the_state_else_a_default_with_a_warning() {
    // Without "symbols": the documented default, and a warning naming the symbol.
    for (name, default) in [
        ("elapsed", "0"),
        ("pt_vpip3", "0"),
        ("dll$mystat", "0"),
        ("vs$prwin", "0"),
        ("sitename$pokerstars", "0"),
        ("icm_fold", "0"),
        ("ismyturn", "1"),
        ("isfinalanswer", "1"),
        ("didchec", "0"),
        ("raischair", "-1"),
    ] {
        let (v, w) = eval(PREFLOP, name);
        assert_eq!(v, default, "{name}");
        assert_eq!(w.len(), 1, "{name}: {w:?}");
        assert!(w[0].contains(&format!("'{name}'")), "{}", w[0]);
    }
    // log$ is 1 and msgbox$ 0 (CSymbolEngineVariousDataLookup), without a warning.
    assert_eq!(eval(PREFLOP, "log$hello && 1"), ("1".to_string(), vec![]));
    assert_eq!(eval(PREFLOP, "msgbox$hi"), ("0".to_string(), vec![]));
    // Given in the state: that value, no warning; "symbols" also overrides a computed one.
    let given = PREFLOP.replace(
        "\"flags\": [3, 7],",
        "\"flags\": [3, 7], \"symbols\": {\"elapsed\": 30, \"pt_vpip3\": 0.25, \"dealposition\": 1},",
    );
    assert_eq!(eval(&given, "elapsed"), ("30".to_string(), vec![]));
    assert_eq!(eval(&given, "pt_vpip3"), ("0.25".to_string(), vec![]));
    assert_eq!(eval(&given, "dealposition"), ("1".to_string(), vec![]));
    // A name outside the catalogue is an error naming its path.
    let bad = PREFLOP.replace("\"flags\": [3, 7],", "\"symbols\": {\"elapsd\": 3},");
    let e = TableState::from_json(&bad).unwrap_err().to_string();
    assert_eq!(e, "symbols.elapsd: not a symbol of the catalogue");
}
