//! The analysts' numbers of [`Analysis`]: hand-derived cases and agreement of fixed-seed
//! simulations with the exact values.

use alea_blackjack::{Analysis, AnalysisOptions, Fallback, Prob, Ratio, Source, analyse};

fn exact_of(text: &str) -> Analysis {
    analyse(&Source::resolve(text).unwrap(), &AnalysisOptions::default()).unwrap()
}

fn ratio(p: Option<Prob>) -> Ratio {
    match p {
        Some(Prob::Exact(r)) => r,
        other => panic!("expected an exact value, got {other:?}"),
    }
}

fn pow(a: u64, b: u64, k: u32) -> Ratio {
    Ratio::from_u64(a.pow(k), b.pow(k))
}

#[test]
fn seven_bag_gap_tables_by_hand() {
    let a = exact_of("7bag");
    // P(gap = g) = (7 − |g − 6|)/49, so P(gap ≥ k) = 1 − Σ_{g<k}.
    let mut below = Ratio::zero();
    for k in 0..=13u64 {
        assert_eq!(
            ratio(a.gap_at_least(0, k)),
            &Ratio::one() - &below,
            "k = {k}"
        );
        if k < 13 {
            below = &below + &Ratio::from_u64(7 - (k as i64 - 6).unsigned_abs(), 49);
        }
    }
    assert_eq!(ratio(a.gap_at_least(0, 1)), Ratio::from_u64(48, 49));
    assert_eq!(ratio(a.gap_at_least(0, 12)), Ratio::from_u64(1, 49));
    assert_eq!(ratio(a.mixed_gap_variance()), Ratio::from_u64(8, 1));
    assert_eq!(ratio(Some(a.mean_gap(3))), Ratio::from_u64(6, 1));
}

#[test]
fn memoryless_tails_by_hand() {
    let a = exact_of("memoryless");
    for k in [0u32, 1, 2, 12, 20] {
        assert_eq!(
            ratio(a.gap_at_least(2, u64::from(k))),
            pow(6, 7, k),
            "k = {k}"
        );
    }
    // Geometric gap: variance (1 − p)/p² = 42, tail included.
    assert_eq!(ratio(a.mixed_gap_variance()), Ratio::from_u64(42, 1));
    assert_eq!(ratio(a.mixed_gap_at_least(12)), pow(6, 7, 12));
}

#[test]
fn simulation_agrees_with_the_exact_tables() {
    for name in ["7bag", "tgm2", "nes", "pairs", "memoryless"] {
        let source = Source::resolve(name).unwrap();
        let exact = exact_of(name);
        let n = 200_000u64;
        let sim = analyse(
            &source,
            &AnalysisOptions {
                simulate: Some((5, n)),
                fallback: Fallback::None,
                ..AnalysisOptions::default()
            },
        )
        .unwrap();
        for k in [1u64, 4, 8, 12] {
            let p = ratio(exact.mixed_gap_at_least(k)).to_f64();
            let q = sim.mixed_gap_at_least(k).unwrap().to_f64();
            // Gaps of one run are dependent; a generous binomial z bound still catches a
            // wrong law (the mixed tables differ by far more between randomizers).
            let sd = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
            assert!(((q - p) / sd).abs() < 8.0, "{name} k={k}: {q} vs {p}");
        }
    }
}

#[test]
fn fallback_simulates_what_has_no_chain() {
    let source = Source::resolve("tgm3").unwrap();
    assert!(analyse(&source, &AnalysisOptions::default()).is_err());
    let a = analyse(
        &source,
        &AnalysisOptions {
            fallback: Fallback::Simulate {
                seed: 1,
                deals: 1000,
            },
            ..AnalysisOptions::default()
        },
    )
    .unwrap();
    assert!(!a.is_exact());
}
