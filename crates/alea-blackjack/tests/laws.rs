//! T5 (laws from the start), T7 (invariants for every seed), state save/restore, streams, and
//! agreement of simulated statistics with exact ones for every seed example (|z| < 5).

use alea_blackjack::{
    ExactOptions, Piece, Randomizer, Ratio, Spec, exact, exact_preset, prefix_law, simulate,
    simulate_randomizer,
};
use alea_core::Rng;
use std::collections::HashMap;

fn spec(s: &str) -> Spec {
    Spec::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The law of the first `k` deals as text → probability.
fn law(s: &str, k: usize) -> HashMap<String, String> {
    let sp = spec(s);
    prefix_law(&sp, k)
        .expect("small enumeration")
        .into_iter()
        .map(|(seq, p)| {
            let names: String = seq
                .iter()
                .map(|x| sp.pieces()[x.0 as usize].as_ref())
                .collect();
            (names, p.to_string())
        })
        .collect()
}

fn expect(s: &str, k: usize, want: &[(&str, &str)]) {
    let got = law(s, k);
    let want: HashMap<String, String> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(got, want, "{s}");
}

#[test]
fn t5_laws_from_the_start() {
    expect(
        "I,J,L,O,S,T,Z with 4 history",
        1,
        &[("I", "1/3"), ("J", "1/3"), ("L", "1/3")],
    );
    expect(
        "S,Z with 1 history starting empty",
        4,
        &[("SZSZ", "1/2"), ("ZSZS", "1/2")],
    );
    expect(
        "I,I,J with 1 history",
        3,
        &[("IJI", "1/2"), ("III", "1/4"), ("IIJ", "1/4")],
    );
    expect("bag of I,J,L first J", 3, &[("JIL", "1/2"), ("JLI", "1/2")]);
    // S3 with `first I`: P(deal 2 = I) = 1/13.
    let second_i: Ratio = law("7 bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z first I", 2)
        .iter()
        .filter(|(k, _)| k.as_bytes()[1] == b'I')
        .map(|(_, p)| Ratio::parse(p).unwrap())
        .fold(Ratio::zero(), |a, b| &a + &b);
    assert_eq!(second_i, Ratio::from_u64(1, 13));
}

#[test]
fn t5_tgm_ace_first_deal_and_permutation() {
    let sp = spec(alea_blackjack::preset_spec("tgm-ace").unwrap());
    let first = law(&sp.to_string(), 1);
    assert_eq!(first.len(), 4);
    for k in ["I", "J", "L", "T"] {
        assert_eq!(first[k], "1/4");
    }
    for seed in 0..50 {
        let mut r = Randomizer::preset("tgm-ace", seed).unwrap();
        let mut seven: Vec<u16> = (0..7).map(|_| r.deal().0).collect();
        seven.sort_unstable();
        assert_eq!(seven, (0..7).collect::<Vec<u16>>());
    }
}

fn windows_ok(s: &str, window: usize, check: impl Fn(&[Piece]) -> bool) {
    let sp = spec(s);
    for seed in [0, 1, 2, 42, 0xdead_beef, u64::MAX] {
        let deals: Vec<Piece> = Randomizer::new(&sp, seed).take(window * 40).collect();
        for w in deals.chunks(window) {
            assert!(check(w), "{s} seed {seed}: window {w:?}");
        }
    }
}

#[test]
fn t7_invariants() {
    let perm = |n: u16| {
        move |w: &[Piece]| {
            let mut v: Vec<u16> = w.iter().map(|p| p.0).collect();
            v.sort_unstable();
            v == (0..n).collect::<Vec<_>>()
        }
    };
    windows_ok("bag of I,J,L,O,S,T,Z", 7, perm(7));
    windows_ok("bag of I,J,L,O,S,T,Z first T,S", 7, perm(7));
    // K bag of L: each aligned window of K deals is a sub-multiset of L.
    let s3 = spec("7 bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z");
    windows_ok(&s3.to_string(), 7, |w| {
        let mut count = [0u8; 7];
        w.iter().for_each(|p| count[p.0 as usize] += 1);
        count.iter().all(|&c| c <= 2)
    });
    // With distinct names and no rolls, no name repeats within H+1 deals.
    let sp = spec("I,J,L,O,S,T,Z with 4 history");
    for seed in 0..20 {
        let d: Vec<Piece> = Randomizer::new(&sp, seed).take(500).collect();
        for w in d.windows(5) {
            let mut v: Vec<u16> = w.iter().map(|p| p.0).collect();
            v.sort_unstable();
            v.dedup();
            assert_eq!(v.len(), 5, "seed {seed}");
        }
    }
    // first F: deal 1 ∈ F.
    let sp = spec("I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T");
    for seed in 0..200 {
        let p = Randomizer::new(&sp, seed).next().unwrap();
        assert!(["I", "J", "L", "T"].contains(&sp.pieces()[p.0 as usize].as_ref()));
    }
}

#[test]
fn t7_peek_and_restore() {
    let mut all: Vec<Randomizer> = [
        "bag of I,J,L,O,S,T,Z first I",
        "7 bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
        "I,J,L,O,S,T,Z,I2,I3,L3",
        "sequence of I,J,L first L",
        "I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T",
        "I,I,J with 2 history starting with J",
    ]
    .iter()
    .map(|s| Randomizer::new(&spec(s), 7))
    .collect();
    for name in alea_blackjack::preset_names() {
        all.push(Randomizer::preset(name, 7).unwrap());
    }
    for mut r in all {
        for step in 0..3 {
            let peeked = r.peek(20);
            let json = serde_json::to_string(&r).unwrap();
            let restored: Randomizer = serde_json::from_str(&json).unwrap();
            let dealt: Vec<Piece> = r.by_ref().take(20).collect();
            assert_eq!(peeked, dealt, "peek = next deals ({json})");
            let again: Vec<Piece> = restored.take(20).collect();
            assert_eq!(
                again, dealt,
                "restored state continues identically, step {step}"
            );
        }
    }
}

#[test]
fn restoring_rejects_bad_states() {
    let r = Randomizer::new(&spec("bag of I,J,L"), 1);
    let mut v = r.to_json();
    v["state"]["bag"]["remaining"] = serde_json::json!([0, 0, 1]);
    assert!(Randomizer::from_json(&v).is_err());
    let mut v = r.to_json();
    v["rng"] = serde_json::json!(["0", "0", "0", "0"]);
    assert!(Randomizer::from_json(&v).is_err());
    let mut v = r.to_json();
    v["format"] = serde_json::json!("other/1");
    assert!(Randomizer::from_json(&v).is_err());
    let h = Randomizer::new(&spec("I,J,L with 2 history"), 1);
    let mut v = h.to_json();
    v["state"]["history"] = serde_json::json!([0, 1, 2]);
    assert!(Randomizer::from_json(&v).is_err());
}

#[test]
fn players_get_independent_streams() {
    let sp = spec("bag of I,J,L,O,S,T,Z");
    let p0: Vec<Piece> = Randomizer::for_player(&sp, 9, 0).take(70).collect();
    let p1: Vec<Piece> = Randomizer::for_player(&sp, 9, 1).take(70).collect();
    assert_eq!(p0, Randomizer::new(&sp, 9).take(70).collect::<Vec<_>>());
    assert_ne!(p0, p1);
    let p1b: Vec<Piece> = Randomizer::with_rng(&sp, Rng::stream(9, 1))
        .take(70)
        .collect();
    assert_eq!(p1, p1b);
}

#[test]
fn equivalences_deal_identically() {
    // spec §2: L ≡ 1 bag of L ≡ L with 0 history ≡ L with H history 1 rolls;
    // sequence of L ≡ L with len(L)-1 history.
    for seed in [0, 5, 42] {
        let deals = |s: &str| -> String {
            let sp = spec(s);
            Randomizer::new(&sp, seed)
                .take(60)
                .map(|p| sp.pieces()[p.0 as usize].to_string())
                .collect()
        };
        let l = deals("I,J,L,O,S,T,Z");
        assert_eq!(deals("1 bag of I,J,L,O,S,T,Z"), l);
        assert_eq!(deals("I,J,L,O,S,T,Z with 0 history"), l);
        assert_eq!(deals("I,J,L,O,S,T,Z with 3 history 1 rolls"), l);
        assert_eq!(
            deals("sequence of I,J,L,O"),
            deals("I,J,L,O with 3 history")
        );
    }
}

/// |z| for an observed proportion against an exact probability over `n` trials.
fn z(observed: u64, n: u64, p: f64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let sd = (p * (1.0 - p) / n as f64).sqrt().max(1e-12);
    (observed as f64 / n as f64 - p).abs() / sd
}

/// `--stats` with 10^6 pieces agrees with `--exact` for every seed example and the built-in
/// presets with a chain: frequencies, repeat rate and the first gap probabilities.
#[test]
fn simulation_agrees_with_exact() {
    const N: u64 = 1_000_000;
    let seeds: Vec<String> = [
        "bag of I,J,L,O,S,T,Z",
        "bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
        "7 bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
        "I,J,L,O,S,T,Z",
        "I,J,L,O,S,T,Z,I2,I3,L3",
        "I,I,J,J,J,L,L,L,O,O,O,S,S,S,T,T,T,Z,Z,Z",
        "S,Z",
        "I,J,L,O,S,T,Z with 4 history",
        "S,Z with 1 history",
        "I,J,L,O,S,T,Z with 4 history 4 rolls first I,J,L,T",
        "I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T",
        "5 bag of I,T,J,J,L,L,O,O,S,S,S,Z,Z,Z",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut cases: Vec<(String, alea_blackjack::SimStats, alea_blackjack::ExactStats)> = seeds
        .iter()
        .map(|s| {
            let sp = spec(s);
            let e = exact(&sp, &ExactOptions::default()).unwrap();
            (s.clone(), simulate(&sp, 2026, N), e)
        })
        .collect();
    for name in ["nes", "pairs", "nes-real", "gameboy", "7+1bag", "7+2bag"] {
        let e = exact_preset(name, &ExactOptions::default())
            .unwrap()
            .unwrap();
        let sim = simulate_randomizer(Randomizer::preset(name, 2026).unwrap(), N);
        cases.push((name.to_string(), sim, e));
    }
    for (s, sim, e) in &cases {
        for i in 0..e.pieces.len() {
            let p = e.frequency[i].to_f64();
            assert!(
                z(sim.counts[i], sim.n, p) < 5.0,
                "{s} frequency of {}",
                e.pieces[i]
            );
            let gaps = &sim.gaps[i];
            for (g, q) in e.gaps[i].distribution.iter().enumerate().take(8) {
                let zz = z(gaps.at(g as u64), gaps.count, q.to_f64());
                assert!(zz < 5.0, "{s}: P(gap {g}) of {}: z = {zz}", e.pieces[i]);
            }
            if let Some(m) = e.gaps[i].max_gap {
                assert!(gaps.max.unwrap_or(0) <= m, "{s}: gap above max_gap");
            }
        }
        let rep = e.repeat_probability.to_f64();
        assert!(z(sim.repeats, sim.n - 1, rep) < 5.0, "{s}: repeat rate");
    }
}

#[allow(clippy::needless_range_loop)]
/// T6 `nes`: after any piece, each other piece follows with probability 9/56 and the same one
/// with 1/28 (simulated, |z| < 5).
#[test]
fn nes_successors() {
    let mut r = Randomizer::preset("nes", 3).unwrap();
    let mut pairs = [[0u64; 7]; 7];
    let mut from = [0u64; 7];
    let mut prev = r.deal().0 as usize;
    for _ in 0..500_000 {
        let p = r.deal().0 as usize;
        pairs[prev][p] += 1;
        from[prev] += 1;
        prev = p;
    }
    for a in 0..7 {
        for b in 0..7 {
            let p = if a == b { 1.0 / 28.0 } else { 9.0 / 56.0 };
            let zz = z(pairs[a][b], from[a], p);
            assert!(zz < 5.0, "{a}->{b}: z = {zz}");
        }
    }
}
