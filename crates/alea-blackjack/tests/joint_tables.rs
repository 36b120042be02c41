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
    // Built-in presets have no card-level dealer here: counted only.
    let nes = tables("nes");
    assert_eq!((nes.bagginess, nes.some_piece_game_drought), (None, None));
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
