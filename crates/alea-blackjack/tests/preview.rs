//! Early-game and preview-conditioned laws (issue 17 part 2): hand-derived cases, agreement
//! with the enumerated prefix law, and Monte Carlo agreement with a fixed seed.

use alea_blackjack::{PreviewError, Randomizer, Ratio, Spec, prefix_law, preview_law};

fn r(a: u64, b: u64) -> Ratio {
    Ratio::from_u64(a, b)
}

fn spec(s: &str) -> Spec {
    let text = alea_blackjack::preset_spec(s).unwrap_or(s);
    text.parse().unwrap()
}

fn law(s: &str, shown: &[&str], ahead: usize) -> alea_blackjack::PreviewLaw {
    preview_law(&spec(s), shown, ahead, 100_000).unwrap()
}

/// A 7-bag after I: the six others 1/6 each; after six shown pieces the seventh is certain
/// and the next bag starts uniform.
#[test]
fn seven_bag_by_hand() {
    let l = law("7bag", &["I"], 1);
    assert_eq!(l.probability_shown, r(1, 7));
    assert_eq!(l.next[0][0], Ratio::zero());
    assert!(l.next[0][1..].iter().all(|p| *p == r(1, 6)));
    let l = law("7bag", &["I", "J", "L", "O", "S", "T"], 2);
    assert_eq!(l.probability_shown, r(1, 5040));
    assert_eq!(l.next[0][6], Ratio::one());
    assert!(l.next[1].iter().all(|p| *p == r(1, 7)));
}

/// Early game of TGM-ACE: the first piece is I, J, L or T; the second is S with 1/6 and I with
/// (3/4)(1/6) = 1/8.
#[test]
fn early_game_by_hand() {
    let l = law("tgm-ace", &[], 2);
    assert!(l.probability_shown == Ratio::one());
    let p = |d: usize, n: &str| l.next[d][l.pieces.iter().position(|x| x == n).unwrap()].clone();
    assert_eq!(p(0, "I"), r(1, 4));
    assert_eq!(p(0, "S"), Ratio::zero());
    assert_eq!(p(1, "S"), r(1, 6));
    assert_eq!(p(1, "I"), r(1, 8));
}

/// TGM1 after a shown I: the history is Z,Z,Z,I, so each of the four rolls hits with 2/7; if
/// all hit, the last roll is I or Z. P(Z) = (2/7)^4/2 = 8/2401, each new piece 477/2401.
#[test]
fn tgm1_after_i() {
    let l = law("tgm1", &["I"], 1);
    assert_eq!(l.probability_shown, r(1, 4));
    let z = l.pieces.iter().position(|x| x == "Z").unwrap();
    let i = l.pieces.iter().position(|x| x == "I").unwrap();
    assert_eq!(l.next[0][z], r(8, 2401));
    assert_eq!(l.next[0][i], r(8, 2401));
    for (k, p) in l.next[0].iter().enumerate() {
        if k != z && k != i {
            assert_eq!(*p, r(477, 2401));
        }
    }
}

/// The forward algorithm equals the enumerated law of whole prefixes, conditioned.
#[test]
fn equals_prefix_law() {
    for s in [
        "tgm1",
        "I,I,J with 1 history",
        "3 bag of I,J,L,O",
        "sequence of I,J,L first L",
        "I,J,L,O with 2 history 2 rolls starting with O,O first I,J",
    ] {
        let sp = spec(s);
        let full = prefix_law(&sp, 3).unwrap();
        for (prefix, _) in full.iter().filter(|(p, _)| p.len() == 3) {
            let shown: Vec<&str> = prefix[..2]
                .iter()
                .map(|p| sp.pieces()[p.0 as usize].as_ref())
                .collect();
            let l = preview_law(&sp, &shown, 1, 100_000).unwrap();
            let matching: Vec<&(Vec<alea_blackjack::Piece>, Ratio)> =
                full.iter().filter(|(q, _)| q[..2] == prefix[..2]).collect();
            let total = matching.iter().fold(Ratio::zero(), |a, (_, p)| &a + p);
            assert_eq!(l.probability_shown, total, "{s} {shown:?}");
            for (q, p) in matching {
                assert_eq!(l.next[0][q[2].0 as usize], p / &total, "{s} {shown:?}");
            }
        }
    }
}

/// Monte Carlo: TGM2 games whose first piece is T, counted over the second piece.
#[test]
fn monte_carlo_agreement() {
    let sp = spec("tgm2");
    let l = preview_law(&sp, &["T"], 1, 100_000).unwrap();
    let mut counts = [0u64; 7];
    let mut games = 0u64;
    for seed in 0..40_000 {
        let mut d = Randomizer::new(&sp, seed);
        let first = d.deal();
        if d.name(first) != "T" {
            continue;
        }
        games += 1;
        counts[d.deal().0 as usize] += 1;
    }
    for (k, c) in counts.iter().enumerate() {
        let p = l.next[0][k].to_f64();
        let seen = *c as f64 / games as f64;
        let sd = (p * (1.0 - p) / games as f64).sqrt();
        assert!((p - seen).abs() <= 5.0 * sd + 1e-12, "{k}: {p} vs {seen}");
    }
}

#[test]
fn refusals() {
    assert_eq!(
        preview_law(&spec("7bag"), &["Q"], 1, 100).unwrap_err(),
        PreviewError::UnknownPiece("Q".into())
    );
    let e = preview_law(&spec("bag of A,B,C,D,E,F,G,H,I,J,K,L"), &[], 6, 100).unwrap_err();
    assert!(matches!(e, PreviewError::Exact(ref x) if x.code() == "X01"));
    // Many history states times every roll sequence: refused by the work budget, not run
    // for minutes.
    let e = preview_law(&spec("tgm2"), &["I", "J", "L", "T"], 10, 100_000).unwrap_err();
    assert!(matches!(e, PreviewError::Exact(ref x) if x.code() == "X03"));
    // An impossible preview has probability zero and no law.
    let l = law("7bag", &["I", "I"], 1);
    assert!(l.probability_shown.is_zero() && l.next.is_empty());
}
