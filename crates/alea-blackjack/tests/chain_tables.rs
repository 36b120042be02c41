//! The exact chain tables (issue 17 part 2): hand-derived values, agreement with the listed gap
//! laws of `analyse`, and Monte Carlo agreement with fixed seeds.

use alea_blackjack::{
    AnalysisOptions, ExactOptions, ExactTableOptions, Prob, Ratio, Source, TableOptions, analyse,
    exact_tables, gap_at_least, stream_tables,
};

fn r(a: u64, b: u64) -> Ratio {
    Ratio::from_u64(a, b)
}

fn pow(x: &Ratio, k: u64) -> Ratio {
    (0..k).fold(Ratio::one(), |a, _| &a * x)
}

fn src(text: &str) -> Source {
    Source::resolve(text).unwrap()
}

fn tables(text: &str, opts: ExactTableOptions) -> alea_blackjack::ExactTables {
    exact_tables(&src(text), &opts).unwrap()
}

/// A 7-bag gap is g with probability (7 − |g − 6|)/49: 1/49, 2/49, … 7/49 … 1/49.
#[test]
fn seven_bag_drought_table() {
    let t = tables("7bag", ExactTableOptions::default());
    assert_eq!(t.pieces.len(), 7);
    let d = &t.pieces[0].drought;
    assert_eq!(d.len(), 25);
    assert_eq!(d[0], Ratio::one());
    assert_eq!(d[1], r(48, 49));
    assert_eq!(d[2], r(46, 49));
    assert_eq!(d[6], r(28, 49));
    assert_eq!(d[12], r(1, 49));
    assert_eq!(d[13], Ratio::zero());
    assert_eq!(d[24], Ratio::zero());
}

/// Memoryless: P(gap ≥ k) = (6/7)^k for every k, also far beyond the gaps `--exact` lists.
#[test]
fn memoryless_drought_any_k() {
    let q = r(6, 7);
    let t = tables("memoryless", ExactTableOptions::default());
    for (k, p) in t.pieces[3].drought.iter().enumerate() {
        assert_eq!(*p, pow(&q, k as u64), "k = {k}");
    }
    let g = gap_at_least(&src("memoryless"), 200, Some("T"), &ExactOptions::default()).unwrap();
    assert_eq!(g, vec![("T".to_string(), pow(&q, 200))]);
    // The listed law stops long before 200 and says so.
    let a = analyse(&src("memoryless"), &AnalysisOptions::default()).unwrap();
    assert_eq!(a.gap_at_least(0, 200), None);
}

/// Runs (floods): memoryless P(run ≥ l) = (1/7)^(l−1); a 7-bag repeats a piece only across
/// the bag boundary: P(run ≥ 2) = P(XX)/P(run starts) = (1/343)/(1/7 − 1/343) = 1/48.
#[test]
fn run_tables_by_hand() {
    let t = tables("memoryless", ExactTableOptions::default());
    for (l, p) in t.pieces[0].runs.iter().enumerate() {
        assert_eq!(*p, pow(&r(1, 7), l as u64));
    }
    assert_eq!(t.runs, t.pieces[0].runs);
    assert_eq!(t.pieces[0].run_start, r(6, 49));
    let b = tables("7bag", ExactTableOptions::default());
    assert_eq!(
        b.pieces[0].runs[..3],
        [Ratio::one(), r(1, 48), Ratio::zero()]
    );
    assert_eq!(b.runs[1], r(1, 48));
    // A sequence never repeats; a 14-bag can deal a piece three times in a row? No: two cards.
    let s = tables("sequence of I,J,L", ExactTableOptions::default());
    assert_eq!(s.runs[..2], [Ratio::one(), Ratio::zero()]);
}

/// Game odds: memoryless, N = k: q^k; N = k + 1: q^k + p·q^k. A 7-bag needs 13 deals for a
/// 12-deal drought (X first in bag one, last in bag two, deals 2–13 without it: 1/49), and
/// a 14th deal adds nothing (deals 3–14 hold all of bag two).
#[test]
fn game_drought_by_hand() {
    let q = r(6, 7);
    let opts = |n, k| ExactTableOptions {
        game_length: n,
        game_drought: k,
        ..Default::default()
    };
    let t = tables("memoryless", opts(5, 5));
    assert_eq!(t.pieces[0].game_drought, pow(&q, 5));
    let t = tables("memoryless", opts(6, 5));
    assert_eq!(t.pieces[0].game_drought, &pow(&q, 5) * &r(8, 7));
    assert_eq!(
        tables("7bag", opts(12, 12)).pieces[0].game_drought,
        Ratio::zero()
    );
    assert_eq!(
        tables("7bag", opts(13, 12)).pieces[0].game_drought,
        r(1, 49)
    );
    assert_eq!(
        tables("7bag", opts(14, 12)).pieces[0].game_drought,
        r(1, 49)
    );
    // `first I,J,L,T` is a deal: S is never first, so it misses deals 1–6 exactly when it is
    // last of the first bag (1/6); I misses them when it is not first (3/4) and last (1/6).
    let ace = tables("tgm-ace", opts(6, 6));
    let by = |n: &str| {
        ace.pieces
            .iter()
            .find(|p| p.piece == n)
            .unwrap()
            .game_drought
            .clone()
    };
    assert_eq!(by("S"), r(1, 6));
    assert_eq!(by("I"), r(1, 8));
}

/// The drought table equals the listed exact gap laws (tail included) wherever both exist,
/// for spec and built-in presets, symmetric or not.
#[test]
fn drought_table_matches_listed_gap_laws() {
    for name in [
        "tgm1", "tgm2", "14bag", "nes-real", "gameboy", "7+2bag", "pairs",
    ] {
        let t = tables(name, ExactTableOptions::default());
        let a = analyse(&src(name), &AnalysisOptions::default()).unwrap();
        for (i, p) in t.pieces.iter().enumerate() {
            for (k, d) in p.drought.iter().enumerate() {
                if let Some(Prob::Exact(listed)) = a.gap_at_least(i, k as u64) {
                    assert_eq!(*d, listed, "{name} {} k={k}", p.piece);
                }
            }
        }
    }
    let only = tables(
        "tgm2",
        ExactTableOptions {
            piece: Some("S".into()),
            ..Default::default()
        },
    );
    assert_eq!(only.pieces.len(), 1);
    assert_eq!(only.pieces[0].piece, "S");
}

/// Monte Carlo agreement with fixed seeds: the mixed run law against `stream_tables`' run
/// counts, and one piece's game odds against dealt games.
#[test]
fn monte_carlo_agreement() {
    for name in ["tgm1", "nes-real", "memoryless"] {
        let s = src(name);
        let t = exact_tables(&s, &ExactTableOptions::default()).unwrap();
        let sim = stream_tables(
            |seed| s.randomizer(seed),
            17,
            &TableOptions {
                deals: 400_000,
                games: 0,
                ..Default::default()
            },
        );
        let runs: u64 = sim.runs.iter().map(|r| r.1).sum();
        let long: u64 = sim.runs.iter().filter(|r| r.0 >= 2).map(|r| r.1).sum();
        let (p, seen) = (t.runs[1].to_f64(), long as f64 / runs as f64);
        let sd = (p * (1.0 - p) / runs as f64).sqrt();
        assert!(
            (p - seen).abs() < 5.0 * sd + 1e-9,
            "{name}: runs≥2 {p} vs {seen}"
        );
        // Piece 0's game odds over 20000 games of 100 deals, drought 12.
        let games = 20_000;
        let mut hit = 0;
        for g in 0..games {
            let mut d = s.randomizer(1000 + g);
            let x = d
                .pieces()
                .iter()
                .position(|n| *n == t.pieces[0].piece)
                .unwrap();
            let (mut wait, mut got) = (0, false);
            for _ in 0..100 {
                wait = if d.deal().0 as usize == x {
                    0
                } else {
                    wait + 1
                };
                got |= wait >= 12;
            }
            hit += u64::from(got);
        }
        let (p, seen) = (t.pieces[0].game_drought.to_f64(), hit as f64 / games as f64);
        let sd = (p * (1.0 - p) / games as f64).sqrt();
        assert!((p - seen).abs() < 5.0 * sd, "{name}: game {p} vs {seen}");
    }
}

/// tgm3 has no finite chain, and a chain over the limit is refused with the size it needs.
#[test]
fn refusals() {
    let e = exact_tables(&src("tgm3"), &ExactTableOptions::default()).unwrap_err();
    assert_eq!(e.code(), "X02");
    let mut opts = ExactTableOptions::default();
    opts.exact.max_states = 10;
    let e = exact_tables(&src("tgm2"), &opts).unwrap_err();
    assert_eq!(e.code(), "X01");
    opts.exact.max_states = 100_000;
    opts.drought_to = alea_blackjack::MAX_TABLE_STEPS + 1;
    assert_eq!(exact_tables(&src("7bag"), &opts).unwrap_err().code(), "X03");
}

/// Runs inside a set (S/Z floods): memoryless P(run ≥ l) = (2/7)^(l−1); for bags and TGM
/// histories the exact law agrees with counted runs (fixed seed); a rule whose start names
/// set pieces and matters is left to the counted table.
#[test]
fn set_runs_exact() {
    let t = tables("memoryless", ExactTableOptions::default());
    assert_eq!(t.set, ["S", "Z"]);
    let law = t.set_runs.unwrap();
    for (l, p) in law.iter().enumerate() {
        assert_eq!(*p, pow(&r(2, 7), l as u64));
    }
    // A 7-bag: at most 4 in a row (S,Z ending one bag and starting the next: (1/21)² per
    // bag). Runs start per bag: 2/7·5/7 at the first deal plus 6·(2/7)(5/6) = 80/49, so
    // P(run ≥ 4) = (1/441)/(80/49) = 1/720.
    let b = tables("7bag", ExactTableOptions::default())
        .set_runs
        .unwrap();
    assert_eq!(b[3], r(1, 720));
    assert_eq!(b[4], Ratio::zero());
    for name in ["7bag", "tgm2", "14bag"] {
        let s = src(name);
        let law = exact_tables(&s, &ExactTableOptions::default())
            .unwrap()
            .set_runs
            .unwrap();
        let sim = stream_tables(
            |seed| s.randomizer(seed),
            5,
            &TableOptions {
                deals: 400_000,
                games: 0,
                ..Default::default()
            },
        );
        let runs: u64 = sim.set_runs.iter().map(|r| r.1).sum();
        for l in 2..4u64 {
            let long: u64 = sim.set_runs.iter().filter(|r| r.0 >= l).map(|r| r.1).sum();
            let (p, seen) = (law[l as usize - 1].to_f64(), long as f64 / runs as f64);
            let sd = (p * (1.0 - p) / runs as f64).sqrt();
            assert!(
                (p - seen).abs() < 5.0 * sd + 1e-9,
                "{name} l={l}: {p} vs {seen}"
            );
        }
    }
    // Built-in presets: exact on their own states (Monte Carlo in joint_tables.rs).
    let nes = tables("nes", ExactTableOptions::default())
        .set_runs
        .unwrap();
    assert_eq!(nes[0], Ratio::one());
    assert!(nes[1] > Ratio::zero() && nes[1] < Ratio::one());
    // Two cards always free: one recurrent class, the start is forgotten, so it is exact.
    let t = tables(
        "I,J,S,Z with 2 history starting with S,Z",
        ExactTableOptions::default(),
    );
    assert!(t.set_runs.is_some());
    // One card free: the start (which names S and Z) decides the cycle, J,S,Z,I forever, so
    // on the dealer's own states every S/Z run has length 2.
    let t = tables(
        "I,J,S,Z with 3 history starting with S,Z,I",
        ExactTableOptions::default(),
    );
    let (one, zero) = (Ratio::one(), Ratio::zero());
    assert_eq!(
        t.set_runs,
        Some(vec![
            one.clone(),
            one,
            zero.clone(),
            zero.clone(),
            zero.clone(),
            zero
        ])
    );
}

/// The fallback lives in the library: exact when possible, else counted with the seed (and
/// the reason kept), or the error with `Fallback::None`.
#[test]
fn gap_at_least_fallback() {
    use alea_blackjack::{Fallback, gap_at_least_or_simulate};
    let sim = Fallback::Simulate {
        seed: 3,
        deals: 50_000,
    };
    let g = gap_at_least_or_simulate(&src("7bag"), 12, Some("I"), &ExactOptions::default(), &sim)
        .unwrap();
    assert_eq!(g.rows, vec![("I".to_string(), Prob::Exact(r(1, 49)))]);
    assert_eq!(g.simulated, None);
    let g =
        gap_at_least_or_simulate(&src("tgm3"), 12, None, &ExactOptions::default(), &sim).unwrap();
    assert_eq!(g.simulated, Some((3, 50_000)));
    assert_eq!(g.why.unwrap().code(), "X02");
    assert_eq!(g.rows.len(), 7);
    assert!(
        g.rows
            .iter()
            .all(|(_, p)| matches!(p, Prob::Observed(x) if *x > 0.0 && *x < 0.1))
    );
    let e = gap_at_least_or_simulate(
        &src("tgm3"),
        12,
        None,
        &ExactOptions::default(),
        &Fallback::None,
    )
    .unwrap_err();
    assert_eq!(e.code(), "X02");
}
