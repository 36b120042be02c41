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
    // Many history states times every outcome: refused by the work budget, not run for
    // minutes.
    let e = preview_law(
        &spec("A,B,C,D,E,F,G,H,I,J with 5 history 2 rolls"),
        &[],
        12,
        1_000_000,
    )
    .unwrap_err();
    assert!(
        matches!(e, PreviewError::Exact(ref x) if x.code() == "X03"),
        "{e}"
    );
    // An impossible preview has probability zero and no law.
    let l = law("7bag", &["I", "I"], 1);
    assert!(l.probability_shown.is_zero() && l.next.is_empty());
}

/// TGM2 shown I,J,L,T, ten deals ahead (refused by the work budget while the rolls were
/// enumerated; the roll formula makes it one outcome per card). The history is then exactly
/// {I,J,L,T}: each of them 4^5/7^6, each other piece (7^6 − 4^6)/(3·7^6). Every row is a law.
#[test]
fn tgm2_ten_ahead() {
    let l = law("tgm2", &["I", "J", "L", "T"], 10);
    assert_eq!(l.next.len(), 10);
    for (k, name) in l.pieces.iter().enumerate() {
        let want = if ["I", "J", "L", "T"].contains(&name.as_str()) {
            r(1024, 117_649)
        } else {
            r(37_851, 117_649)
        };
        assert_eq!(l.next[0][k], want, "{name}");
    }
    for row in &l.next {
        assert_eq!(row.iter().fold(Ratio::zero(), |a, b| &a + b), Ratio::one());
    }
    // The two-ahead law is the same two rows.
    assert_eq!(law("tgm2", &["I", "J", "L", "T"], 2).next[..], l.next[..2]);
}

fn long_run(s: &str, shown: &[&str], ahead: usize) -> alea_blackjack::PreviewLaw {
    alea_blackjack::preview_law_from(
        &spec(s),
        shown,
        ahead,
        100_000,
        alea_blackjack::PreviewStart::LongRun,
    )
    .unwrap()
}

const LONG_RUN_SPECS: &[&str] = &[
    "7bag",
    "14bag",
    "memoryless",
    "tgm1",
    "tgm2",
    "tgm-ace",
    "I,I,J,L",
    "3 bag of I,J,L,O",
    "sequence of I,J,L first L",
    "I,J,L,O with 2 history 2 rolls starting with O,O first I,J",
    "I,J,L,O,S,T,Z with 4 history",
    "I,J,L with 2 history",
];

/// Far into a game the next deal follows the long-run frequencies, and the deal after a shown
/// X is X again with P(gap = 0) = 1 − P(gap ≥ 1) of the drought table.
#[test]
fn long_run_preview_matches_the_chain() {
    for s in LONG_RUN_SPECS {
        let sp = spec(s);
        let e = alea_blackjack::exact(&sp, &alea_blackjack::ExactOptions::default()).unwrap();
        let l = long_run(s, &[], 1);
        assert_eq!(l.probability_shown, Ratio::one(), "{s}");
        assert_eq!(l.next[0], e.frequency, "{s}");
        let t = alea_blackjack::exact_tables(
            &alea_blackjack::Source::Spec(sp.clone()),
            &alea_blackjack::ExactTableOptions {
                joint: false,
                ..Default::default()
            },
        )
        .unwrap();
        for (x, p) in t.pieces.iter().enumerate() {
            if e.frequency[x].is_zero() {
                continue;
            }
            let after = long_run(s, &[&p.piece], 1);
            assert_eq!(after.probability_shown, e.frequency[x], "{s}");
            assert_eq!(
                after.next[0][x],
                &Ratio::one() - &p.drought[1],
                "{s} {}",
                p.piece
            );
        }
    }
}

/// A 7-bag far into a game, I shown: I again only across a bag boundary (1/49), each other
/// piece 8/49; the early-game law differs (the first I is the first card of a bag).
#[test]
fn long_run_seven_bag_by_hand() {
    let l = long_run("7bag", &["I"], 1);
    assert_eq!(l.next[0][0], r(1, 49));
    assert!(l.next[0][1..].iter().all(|p| *p == r(8, 49)));
    assert_eq!(law("7bag", &["I"], 1).next[0][0], Ratio::zero());
}

/// Monte Carlo: one long TGM2 game, every T followed by the next two deals.
#[test]
fn long_run_monte_carlo() {
    let sp = spec("tgm2");
    let l = long_run("tgm2", &["T"], 2);
    let t = sp.pieces().iter().position(|p| &**p == "T").unwrap() as u16;
    let mut d = Randomizer::new(&sp, 7);
    let deals: Vec<u16> = (0..400_000).map(|_| d.deal().0).collect();
    for ahead in 0..2 {
        let mut counts = [0u64; 7];
        let mut n = 0u64;
        for w in deals[1000..].windows(3) {
            if w[0] == t {
                n += 1;
                counts[w[1 + ahead] as usize] += 1;
            }
        }
        for (k, c) in counts.iter().enumerate() {
            let p = l.next[ahead][k].to_f64();
            let seen = *c as f64 / n as f64;
            let sd = (p * (1.0 - p) / n as f64).sqrt();
            assert!(
                (p - seen).abs() <= 5.0 * sd + 1e-12,
                "{ahead} {k}: {p} vs {seen}"
            );
        }
    }
}

fn preset(
    name: &str,
    shown: &[&str],
    ahead: usize,
    from: alea_blackjack::PreviewStart,
) -> alea_blackjack::PreviewLaw {
    let s = alea_blackjack::Source::resolve(name).unwrap();
    alea_blackjack::preview_law_source(&s, shown, ahead, 100_000, from).unwrap()
}

/// Built-in presets: `nes` deals each piece with 1/8 + 1/56 = 1/7 first, then the previous
/// piece with 1/56 + 1/56 = 1/28 and each other with 1/8 + 2/56 = 9/56; far into a game every
/// finite preset's next deal follows its exact long-run frequencies; `tgm3` has no finite chain.
#[test]
fn built_in_presets() {
    use alea_blackjack::PreviewStart::{Game, LongRun};
    let l = preset("nes", &[], 1, Game);
    assert!(l.next[0].iter().all(|p| *p == r(1, 7)));
    let l = preset("nes", &["T"], 1, Game);
    for (k, name) in l.pieces.iter().enumerate() {
        let want = if name == "T" { r(1, 28) } else { r(9, 56) };
        assert_eq!(l.next[0][k], want, "{name}");
    }
    for name in ["nes", "nes-real", "gameboy", "7+1bag", "7+2bag", "pairs"] {
        let e = alea_blackjack::exact_preset(name, &alea_blackjack::ExactOptions::default())
            .unwrap()
            .unwrap();
        let l = preset(name, &[], 1, LongRun);
        assert_eq!(l.next[0], e.frequency, "{name}");
        // And a shown piece repeats with the chain's P(gap = 0).
        let s = alea_blackjack::Source::resolve(name).unwrap();
        let g = alea_blackjack::gap_at_least(
            &s,
            1,
            Some("S"),
            &alea_blackjack::ExactOptions::default(),
        )
        .unwrap();
        let after = preset(name, &["S"], 1, LongRun);
        let si = after.pieces.iter().position(|p| p == "S").unwrap();
        assert_eq!(after.next[0][si], &Ratio::one() - &g[0].1, "{name}");
    }
    let tgm3 = alea_blackjack::Source::resolve("tgm3").unwrap();
    let e = alea_blackjack::preview_law_source(&tgm3, &[], 1, 1000, Game).unwrap_err();
    assert!(matches!(e, PreviewError::Exact(ref x) if x.code() == "X02"));
}

/// Monte Carlo: `nes-real` and `gameboy` games, the second and third pieces after a first T.
#[test]
fn built_in_monte_carlo() {
    for name in ["nes-real", "gameboy", "7+1bag"] {
        let l = preset(name, &["T"], 2, alea_blackjack::PreviewStart::Game);
        let t = l.pieces.iter().position(|p| p == "T").unwrap() as u16;
        let mut counts = [[0u64; 7]; 2];
        let mut games = 0u64;
        for seed in 0..60_000 {
            let mut d = Randomizer::preset(name, seed).unwrap();
            if d.deal().0 != t {
                continue;
            }
            games += 1;
            for row in &mut counts {
                row[d.deal().0 as usize] += 1;
            }
        }
        for (j, row) in counts.iter().enumerate() {
            for (k, c) in row.iter().enumerate() {
                let p = l.next[j][k].to_f64();
                let seen = *c as f64 / games as f64;
                let sd = (p * (1.0 - p) / games as f64).sqrt();
                assert!(
                    (p - seen).abs() <= 5.0 * sd + 1e-12,
                    "{name} {j} {k}: {p} vs {seen}"
                );
            }
        }
    }
}
