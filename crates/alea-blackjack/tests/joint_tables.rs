//! Issue 17 part 2: bagginess and "some piece" game odds from the joint chain of all pieces:
//! hand-derived values and Monte Carlo agreement with the counted tables (fixed seeds).

use alea_blackjack::{ExactTableOptions, Ratio, Source, TableOptions, exact_tables, stream_tables};

fn src(text: &str) -> Source {
    Source::resolve(text).unwrap()
}

fn tables(text: &str) -> alea_blackjack::ExactTables {
    exact_tables(&src(text), &ExactTableOptions::default()).unwrap()
}

/// Memoryless: a window of 7 is a permutation with 7!/7^7; a bag of distinct pieces always;
/// a 14-bag's aligned half is distinct with (14·12·10·8·6·4·2)/(14·13·12·11·10·9·8), and so is
/// the other half.
#[test]
fn bagginess_by_hand() {
    assert_eq!(
        tables("memoryless").bagginess,
        Some(Ratio::from_u64(5040, 823_543))
    );
    assert_eq!(tables("7bag").bagginess, Some(Ratio::one()));
    assert_eq!(tables("tgm-ace").bagginess, Some(Ratio::one()));
    assert_eq!(
        tables("14bag").bagginess,
        Some(Ratio::from_u64(645_120, 17_297_280))
    );
    // A 7-card sequence deals permutations; shifted by `first`, still every window.
    assert_eq!(
        tables("sequence of I,J,L,O,S,T,Z").bagginess,
        Some(Ratio::one())
    );
    let t = tables("sequence of I,J,L,O,S,T,Z,I");
    // Eight cards, windows of 7 starting at 7j mod 8, so at every position equally often:
    // a window holds both I's (positions 0 and 7) unless it starts at 0 or 1.
    assert_eq!(t.window, 7);
    assert_eq!(t.bagginess, Some(Ratio::from_u64(2, 8)));
    // Built-in presets with a finite chain have both (built_in_presets_against_counts).
    let nes = tables("nes");
    assert!(nes.bagginess.is_some() && nes.some_piece_game_drought.is_some());
}

/// A 7-bag piece never waits 13 deals; memoryless pieces almost surely do within 100 deals;
/// "some piece" lies between the largest single piece's odds and their sum.
#[test]
fn some_piece_by_hand() {
    let t = exact_tables(
        &src("7bag"),
        &ExactTableOptions {
            game_drought: 13,
            ..ExactTableOptions::default()
        },
    )
    .unwrap();
    assert_eq!(t.some_piece_game_drought, Some(Ratio::zero()));
    for text in [
        "7bag",
        "14bag",
        "tgm1",
        "tgm2",
        "memoryless",
        "I,I,J,L with 2 history 2 rolls",
    ] {
        let t = tables(text);
        let some = t.some_piece_game_drought.clone().unwrap();
        let sum = t
            .pieces
            .iter()
            .fold(Ratio::zero(), |a, p| &a + &p.game_drought);
        for p in &t.pieces {
            assert!(p.game_drought <= some, "{text}");
        }
        assert!(some <= sum, "{text}");
    }
}

/// The exact joint tables against the counted ones: games are independent dealers, so the
/// share of games is within 5 binomial standard deviations; windows of one long stream are
/// nearly independent, so their share is given 8.
#[test]
fn monte_carlo_agreement() {
    for text in [
        "7bag",
        "14bag",
        "tgm1",
        "tgm2",
        "memoryless",
        "I,J,L,O,S,T,Z with 4 history",
    ] {
        let s = src(text);
        let exact = tables(text);
        let opts = TableOptions {
            deals: 700_000,
            games: 20_000,
            ..TableOptions::default()
        };
        let counted = stream_tables(|seed| s.randomizer(seed), 11, &opts);
        let p = exact.some_piece_game_drought.unwrap().to_f64();
        let sd = (p * (1.0 - p) / opts.games as f64).sqrt();
        assert!(
            (p - counted.game_drought).abs() <= 5.0 * sd + 1e-9,
            "{text}: some piece {p} vs {}",
            counted.game_drought
        );
        let b = exact.bagginess.unwrap().to_f64();
        let windows = (opts.deals / 7) as f64;
        let sd = (b * (1.0 - b) / windows).sqrt();
        assert!(
            (b - counted.bagginess).abs() <= 8.0 * sd + 1e-9,
            "{text}: bagginess {b} vs {}",
            counted.bagginess
        );
    }
}

/// The finite built-in presets: bagginess from the chain of window starts, "some piece" odds
/// where the rule names no piece (nes, the bag variants, pairs), S/Z runs on their own states;
/// all against the counted tables with fixed seeds. A pairs round holds two kinds, so no window
/// of 7 is a permutation.
#[test]
fn built_in_presets_against_counts() {
    assert_eq!(tables("pairs").bagginess, Some(Ratio::zero()));
    assert_eq!(tables("nes-real").some_piece_game_drought, None);
    let tgm3 = exact_tables(&src("tgm3"), &ExactTableOptions::default()).unwrap_err();
    assert_eq!(tgm3.code(), "X02");
    for name in ["nes", "nes-real", "gameboy", "7+1bag", "pairs"] {
        let s = src(name);
        let exact = tables(name);
        let opts = TableOptions {
            deals: 700_000,
            games: 20_000,
            ..TableOptions::default()
        };
        let counted = stream_tables(|seed| s.randomizer(seed), 5, &opts);
        let b = exact.bagginess.clone().unwrap().to_f64();
        let sd = (b * (1.0 - b) / 100_000.0).sqrt();
        assert!(
            (b - counted.bagginess).abs() <= 8.0 * sd + 1e-9,
            "{name}: {b} vs {}",
            counted.bagginess
        );
        if let Some(p) = &exact.some_piece_game_drought {
            let p = p.to_f64();
            let sd = (p * (1.0 - p) / opts.games as f64).sqrt();
            assert!(
                (p - counted.game_drought).abs() <= 5.0 * sd + 1e-9,
                "{name}"
            );
        }
        // S/Z runs: P(run ≥ 2) and P(run ≥ 3) against the counted blocks.
        let runs = exact.set_runs.clone().unwrap();
        let total: u64 = counted.set_runs.iter().map(|r| r.1).sum();
        for l in [2u64, 3] {
            let seen = counted
                .set_runs
                .iter()
                .filter(|r| r.0 >= l)
                .map(|r| r.1)
                .sum::<u64>() as f64
                / total as f64;
            let p = runs[l as usize - 1].to_f64();
            let sd = (p * (1.0 - p) / total as f64).sqrt();
            assert!(
                (p - seen).abs() <= 6.0 * sd + 1e-9,
                "{name} S/Z run ≥ {l}: {p} vs {seen}"
            );
        }
    }
}

/// S/Z runs where merging S and Z into one name is not exact (`first` names S under a rule
/// that remembers its start): from the dealer's own states. Both deal S,Z,T forever after the
/// first S, so every S/Z run has length 2.
#[test]
fn set_runs_of_start_dependent_specs() {
    for text in ["sequence of S,Z,T first S", "S,Z,T with 2 history first S"] {
        let t = tables(text);
        assert_eq!(
            t.set_runs,
            Some(vec![
                Ratio::one(),
                Ratio::one(),
                Ratio::zero(),
                Ratio::zero(),
                Ratio::zero(),
                Ratio::zero()
            ]),
            "{text}"
        );
    }
}
