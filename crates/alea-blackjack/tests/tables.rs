//! The counted tables (src/tables.rs) against hand-derived values, with fixed seeds (|z| < 5).

use alea_blackjack::{Randomizer, Spec, StreamTables, TableOptions, stream_tables};

fn tables(spec: &str, opts: &TableOptions) -> StreamTables {
    let s: Spec = spec.parse().unwrap();
    stream_tables(|seed| Randomizer::new(&s, seed), 2026, opts)
}

fn share(h: &[(u64, u64)], len: u64) -> (u64, u64) {
    let total: u64 = h.iter().map(|x| x.1).sum();
    (h.iter().find(|x| x.0 == len).map_or(0, |x| x.1), total)
}

fn z(hit: u64, n: u64, p: f64) -> f64 {
    (hit as f64 / n as f64 - p).abs() / (p * (1.0 - p) / n as f64).sqrt()
}

/// Memoryless 7 pieces: a same-piece run goes on with 1/7, so P(length = l) = (1/7)^(l−1)·6/7;
/// an S/Z run goes on with 2/7: (2/7)^(l−1)·5/7.
#[test]
fn memoryless_runs_are_geometric() {
    let t = tables(
        "I,J,L,O,S,T,Z",
        &TableOptions {
            deals: 400_000,
            games: 0,
            ..TableOptions::default()
        },
    );
    for l in 1..=3u64 {
        let (hit, n) = share(&t.runs, l);
        let p = (1.0f64 / 7.0).powi(l as i32 - 1) * 6.0 / 7.0;
        assert!(z(hit, n, p) < 5.0, "run {l}");
        let (hit, n) = share(&t.set_runs, l);
        let p = (2.0f64 / 7.0).powi(l as i32 - 1) * 5.0 / 7.0;
        assert!(z(hit, n, p) < 5.0, "S/Z run {l}");
    }
}

/// 7-bag: every aligned window of 7 is a permutation (bagginess 1); no piece waits 13 deals
/// (at most 12 between two, at most 6 before the first), but 12 happens.
#[test]
fn seven_bag_is_fully_baggy_and_droughts_stop_at_12() {
    let base = TableOptions {
        deals: 70_000,
        games: 2000,
        game_length: 200,
        ..TableOptions::default()
    };
    let t = tables(
        "bag of I,J,L,O,S,T,Z",
        &TableOptions {
            drought: 13,
            ..base.clone()
        },
    );
    assert_eq!(t.bagginess, 1.0);
    assert_eq!(t.window, 7);
    assert_eq!(t.game_drought, 0.0);
    assert!(t.runs.iter().all(|r| r.0 <= 2));
    let t = tables(
        "bag of I,J,L,O,S,T,Z",
        &TableOptions {
            drought: 12,
            ..base
        },
    );
    assert!(t.game_drought > 0.0);
    // Memoryless windows are rarely permutations: 7!/7^7 ≈ 0.00612.
    let t = tables(
        "I,J,L,O,S,T,Z",
        &TableOptions {
            deals: 700_000,
            games: 0,
            ..TableOptions::default()
        },
    );
    let p = 5040.0 / 823_543.0;
    assert!(z((t.bagginess * 100_000.0).round() as u64, 100_000, p) < 5.0);
}

/// Game-length odds, memoryless, 10 deals, drought 10: only a piece missing from all 10 deals
/// qualifies, so P = Σ_{j=1..6} (−1)^(j+1) C(7,j) (1 − j/7)^10 (inclusion–exclusion).
#[test]
fn game_drought_odds_by_inclusion_exclusion() {
    let t = tables(
        "I,J,L,O,S,T,Z",
        &TableOptions {
            deals: 0,
            games: 40_000,
            game_length: 10,
            drought: 10,
            ..TableOptions::default()
        },
    );
    let binom = [1.0, 7.0, 21.0, 35.0, 35.0, 21.0, 7.0];
    let p: f64 = (1..=6)
        .map(|j| {
            let sign = if j % 2 == 1 { 1.0 } else { -1.0 };
            sign * binom[j] * (1.0 - j as f64 / 7.0).powi(10)
        })
        .sum();
    let hit = (t.game_drought * 40_000.0).round() as u64;
    assert!(z(hit, 40_000, p) < 5.0, "{} vs {p}", t.game_drought);
}

/// A sequence deals no repeats; with S and Z adjacent in it, every S/Z run has length 2.
#[test]
fn sequence_runs_are_single() {
    let t = tables(
        "sequence of I,J,L,O,S,Z,T",
        &TableOptions {
            deals: 700,
            games: 0,
            ..TableOptions::default()
        },
    );
    assert_eq!(t.runs, vec![(1, 700)]);
    assert_eq!(t.set_runs, vec![(2, 100)]);
    assert_eq!(t.bagginess, 1.0);
}
