//! The real randomizers (issue 17 §3): `nes-real`, `gameboy`, `7+1bag`, `7+2bag` under an
//! ideal RNG, and `nes-real` on the NES's own LFSR (`--rng arcade`). Every expected value is
//! derived by hand in its comment from the rule as the sources state it (src/presets.rs).

use alea_blackjack::{
    ArcadeError, ExactOptions, NES_POWER_ON, Randomizer, Ratio, exact_preset, nes_lfsr_step,
};

fn exact(name: &str) -> alea_blackjack::ExactStats {
    exact_preset(name, &ExactOptions::default())
        .expect("preset exists")
        .expect("preset has a chain")
}

fn r(n: u64, d: u64) -> Ratio {
    Ratio::from_u64(n, d)
}

fn freq(e: &alea_blackjack::ExactStats, piece: &str) -> Ratio {
    let i = e.pieces.iter().position(|p| p == piece).unwrap();
    e.frequency[i].clone()
}

/// NES, real rule. The first roll a = 0..7 is kept unless a = 7 or its piece is the previous
/// one (2 of 8 values); the reroll r = 0..7 then deals index (r + s) mod 7, s the previous
/// piece's orientation ID. Two values of r (0 and 7) land on index s mod 7, the others on one
/// index each, so P(repeat | previous p) = 2/8 · k/8 with k = 2 if s mod 7 = index(p), else 1.
/// Spawn IDs T=2 J=7 Z=8 O=10 S=11 L=14 I=18 against indices 0..6: only O (10 mod 7 = 3) and
/// S (11 mod 7 = 4) match. So P(repeat) = 1/32 + (f_O + f_S)/32. The stationary law of the
/// 7-state chain (solved separately with exact fractions) has f_O = 1/7 and f_S = 37/252,
/// so P(repeat) = (1 + 73/252)/32 = 325/8064 ≈ 4.03 %, against 1/28 ≈ 3.57 % for the
/// spec's simplified `nes`.
#[test]
fn nes_real_repeat_probability() {
    let e = exact("nes-real");
    assert_eq!(freq(&e, "O"), r(1, 7));
    assert_eq!(freq(&e, "S"), r(37, 252));
    assert_eq!(freq(&e, "L"), r(5, 36));
    assert_eq!(freq(&e, "I"), r(5, 36));
    assert_eq!(freq(&e, "T"), r(1369, 9331));
    assert_eq!(freq(&e, "Z"), r(1334, 9331));
    assert_eq!(freq(&e, "J"), r(47989, 335916));
    let from_frequencies = &(&Ratio::one() + &(&freq(&e, "O") + &freq(&e, "S"))) * &r(1, 32);
    assert_eq!(e.repeat_probability, from_frequencies);
    assert_eq!(e.repeat_probability, r(325, 8064));
    assert_eq!(exact("nes").repeat_probability, r(1, 28));
}

/// Before the first piece the game's spawn ID is 0 (RAM cleared at reset): no index repeats it,
/// so only a = 7 rerolls, and then (r + 0) mod 7 sends r = 0 and r = 7 to T. The first deal
/// is T with 1/8 + 2/64 = 10/64 and each other piece with 1/8 + 1/64 = 9/64.
#[test]
fn nes_real_first_deal() {
    let n = 700_000u64;
    let mut t = 0u64;
    for seed in 0..n {
        let mut d = Randomizer::preset("nes-real", seed).unwrap();
        let p = d.deal();
        if d.name(p) == "T" {
            t += 1;
        }
    }
    let p = 10.0 / 64.0;
    let z = (t as f64 / n as f64 - p).abs() / (p * (1.0 - p) / n as f64).sqrt();
    assert!(z < 5.0, "P(first = T): z = {z}");
}

/// The LFSR: new bit 15 = bit 1 XOR bit 9, shift right. From $8988 = 1000 1001 1000 1000:
/// bits 1 and 9 are 0 and 0, so the next value is $8988 >> 1 = $44C4 = 17604; then $2262 =
/// 8802 (bits 1, 9 of $44C4: 0, 0), then $1131 = 4401 (bits 1, 9 of $2262: 1, 1). These are
/// the values kirbysayshi/tetris-prng lists (17604, 8802, 4401).
#[test]
fn lfsr_sequence() {
    let mut v = NES_POWER_ON;
    let mut seen = Vec::new();
    for _ in 0..3 {
        v = nes_lfsr_step(v);
        seen.push(v);
    }
    assert_eq!(seen, [17604, 8802, 4401]);
    // $1131 = 0001 0001 0011 0001: bit 1 = 0, bit 9 = 0 → $0898.
    assert_eq!(nes_lfsr_step(0x1131), 0x0898);
    // $0003: bit 1 = 1, bit 9 = 0 → bit 15 set: $8001.
    assert_eq!(nes_lfsr_step(0x0003), 0x8001);
    // The orbit of $8988 has 32767 values (tetris-prng: "32767 unique values").
    let mut v = nes_lfsr_step(NES_POWER_ON);
    let mut period = 1u32;
    while v != NES_POWER_ON {
        v = nes_lfsr_step(v);
        period += 1;
        assert!(period <= 65536, "not periodic");
    }
    assert_eq!(period, 32767);
}

/// `nes-real --rng arcade --seed 0x8988 --frames 1`, pick by pick (spawn count c, high byte h
/// of the LFSR, first index (h + c) & 7, spawn ID s of the previous piece):
/// 1. c=1, h=$89: 138 & 7 = 2 → Z (s was 0). LFSR → $44C4.
/// 2. c=2, h=$44: 70 & 7 = 6 → I. LFSR → $2262.
/// 3. c=3, h=$22: 37 & 7 = 5 → L. LFSR → $1131.
/// 4. c=4, h=$11: 21 & 7 = 5 → L again, so reroll: LFSR → $0898, (h & 7 = 0) + 14 = 14,
///    mod 7 = 0 → T. Then the frame step: $0898 → $044C.
/// 5. c=5, h=$04: 9 & 7 = 1 → J.
#[test]
fn arcade_picks_from_power_on() {
    let d = Randomizer::preset_arcade("nes-real", u64::from(NES_POWER_ON), 1).unwrap();
    let names: String = d.peek(5).iter().map(|&p| d.name(p).to_string()).collect();
    assert_eq!(names, "ZILTJ");
    // A restored state continues identically.
    let mut a = d.clone();
    for _ in 0..100 {
        a.deal();
    }
    let json = serde_json::to_string(&a).unwrap();
    let mut b: Randomizer = serde_json::from_str(&json).unwrap();
    for _ in 0..100 {
        assert_eq!(a.deal(), b.deal());
    }
}

#[test]
fn arcade_refusals() {
    assert!(matches!(
        Randomizer::preset_arcade("tgm3", 1, 1),
        Err(ArcadeError::NoArcadeRng(_))
    ));
    assert!(matches!(
        Randomizer::preset_arcade("nes-real", 70_000, 1),
        Err(ArcadeError::BadState(70_000))
    ));
    assert!(matches!(
        Randomizer::preset_arcade("nes-reel", 1, 1),
        Err(ArcadeError::UnknownPreset(_))
    ));
    let msg = Randomizer::preset_arcade("7bag", 1, 1)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("nes-real"), "{msg}");
}

/// Game Boy: codes L=0 J=1 I=2 O=3 Z=4 S=5 T=6; a candidate is rerolled (up to three tries)
/// when it and the preview are bitwise subsets of the active piece. With O (011) active and J
/// (001) in preview, L, J, I, O (000, 001, 010, 011) are rerolled: each comes out only on the
/// third try, (4/7)² · 1/7 = 16/343, and T, S, Z each 1/7 + 4/49 + 16/343 = 93/343. Counted
/// over a long run after every O-then-J.
#[test]
fn gameboy_after_o_then_j() {
    let mut d = Randomizer::preset("gameboy", 11).unwrap();
    let mut after = std::collections::HashMap::<String, u64>::new();
    let mut total = 0u64;
    let (mut a, mut b) = (String::new(), String::new());
    for _ in 0..3_000_000 {
        let p = d.deal();
        let c = d.name(p).to_string();
        if a == "O" && b == "J" {
            *after.entry(c.clone()).or_default() += 1;
            total += 1;
        }
        a = std::mem::replace(&mut b, c);
    }
    for (piece, p) in [
        ("L", 16.0 / 343.0),
        ("J", 16.0 / 343.0),
        ("I", 16.0 / 343.0),
        ("O", 16.0 / 343.0),
        ("T", 93.0 / 343.0),
        ("S", 93.0 / 343.0),
        ("Z", 93.0 / 343.0),
    ] {
        let got = after.get(piece).copied().unwrap_or(0);
        let z = (got as f64 / total as f64 - p).abs() / (p * (1.0 - p) / total as f64).sqrt();
        assert!(z < 5.0, "P({piece} | O, J) : z = {z} ({got} of {total})");
    }
}

/// Game Boy long run under an ideal RNG (the 49-state chain solved separately with exact
/// fractions): O, S, T are the common pieces (551/3429 ≈ 16.1 %), L the rarest.
#[test]
fn gameboy_exact() {
    let e = exact("gameboy");
    for p in ["O", "S", "T"] {
        assert_eq!(freq(&e, p), r(551, 3429), "{p}");
    }
    for p in ["J", "I", "Z"] {
        assert_eq!(freq(&e, p), r(88217, 644652), "{p}");
    }
    assert_eq!(freq(&e, "L"), r(7693, 71628));
    assert_eq!(e.repeat_probability, r(7693, 71628));
}

/// 7+1 bag: a round is a shuffle of the seven pieces and one uniform extra. Inside a round the
/// one doubled piece makes each of the 7 adjacent pairs equal with 2/(8·7), 1/4 repeats per
/// round; across rounds the last and first deal are independent and each piece starts a round
/// with 1/7, so 1/7 more. Repeats per 8 deals: 1/4 + 1/7 = 11/28, P(repeat) = 11/224.
/// 7+2 bag: E[Σ m(m−1)] over the round's multiplicities is 6/7 · 4 + 1/7 · 6 = 30/7, so an
/// adjacent pair is equal with (30/7)/72 = 5/84; 8 pairs give 10/21, plus 1/7 across rounds:
/// 13/21 per 9 deals, P(repeat) = 13/189. Both have frequency 1/7 and gaps at most
/// 2·(7+E)−2 (a piece first in one round and last in the next).
#[test]
fn bag_plus_exact() {
    for (name, repeat, max) in [("7+1bag", r(11, 224), 14), ("7+2bag", r(13, 189), 16)] {
        let e = exact(name);
        assert_eq!(e.repeat_probability, repeat, "{name}");
        for i in 0..7 {
            assert_eq!(e.frequency[i], r(1, 7), "{name}");
            assert_eq!(e.gaps[i].max_gap, Some(max), "{name}");
        }
    }
    // Each round of 7+1 holds every piece at least once.
    let mut d = Randomizer::preset("7+1bag", 5).unwrap();
    for _ in 0..1000 {
        let mut round: Vec<u16> = (0..8).map(|_| d.deal().0).collect();
        round.sort();
        round.dedup();
        assert_eq!(round.len(), 7);
    }
}
