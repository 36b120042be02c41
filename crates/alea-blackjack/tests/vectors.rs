//! Every test vector of spec §10 (T1–T8), plus the §3 error examples.

use alea_blackjack::{ExactOptions, Randomizer, Ratio, Spec, exact, exact_preset};

const S: [&str; 12] = [
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
];

fn spec(s: &str) -> Spec {
    Spec::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn deal(r: &mut Randomizer, n: usize) -> Vec<String> {
    (0..n)
        .map(|_| {
            let p = r.deal();
            r.name(p).to_string()
        })
        .collect()
}

/// Deals 28 pieces and counts the generator outputs consumed, by replaying the RNG until its
/// state matches.
fn golden(r: Randomizer) -> (String, usize) {
    let start = r.rng().clone();
    let mut r = r;
    let names = deal(&mut r, 28);
    let end = r.rng().clone();
    let mut probe = start;
    let mut draws = 0;
    while probe != end {
        probe.next_u64();
        draws += 1;
        assert!(draws < 10_000, "draw count did not converge");
    }
    let sep = if names.iter().all(|n| n.len() == 1) {
        ""
    } else {
        " "
    };
    (names.join(sep), draws)
}

fn from(s: &str, seed: u64) -> Randomizer {
    match alea_blackjack::preset_names().contains(&s) {
        true => Randomizer::preset(s, seed).unwrap(),
        false => Randomizer::new(&spec(s), seed),
    }
}

#[test]
fn t1_seed_examples_parse_and_are_canonical() {
    for s in S {
        assert_eq!(spec(s).to_string(), s);
    }
}

#[test]
fn t2_canonical_forms() {
    for (input, canonical) in [
        ("BAG OF I , J", "bag of I,J"),
        ("14 bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z", S[1]),
        ("  S , Z\n with 01 history ", "S,Z with 1 history"),
        ("Sequence Of I,J,L First L", "sequence of I,J,L first L"),
    ] {
        let c = spec(input).to_string();
        assert_eq!(c, canonical, "{input:?}");
        assert_eq!(spec(&c).to_string(), c, "idempotent");
        assert_eq!(spec(&c), spec(input), "parse(canonical(s)) = s");
    }
    for s in [
        "1,2,3,4,5,6",
        "3 bag of 1,2,3,4,5,6",
        "5bag",
        "I,J with 1 history starting empty",
        "a_b,C9 with 1 history first C9,C9,a_b",
        alea_blackjack::preset_spec("tgm1").unwrap(),
        alea_blackjack::preset_spec("tgm2").unwrap(),
    ] {
        assert_eq!(spec(s).to_string(), s);
    }
}

#[test]
fn t3_rejected_with_codes_messages_and_spans() {
    let cases: &[(&str, &str, &str, (usize, usize))] = &[
        (
            "I J",
            "E01",
            "expected ',', 'with', 'first' or end of input, found 'J'",
            (2, 3),
        ),
        (
            "bag of I,J with 1 history",
            "E01",
            "'with … history' applies only to a plain list, not to 'bag of'",
            (11, 15),
        ),
        (
            "bag of",
            "E02",
            "expected a piece name after 'of', found end of input",
            (6, 6),
        ),
        (
            "I,J with 70000 history",
            "E03",
            "number 70000 is too large (at most 65535)",
            (9, 14),
        ),
        (
            "3 bag of I,J",
            "E04",
            "bag deal count 3 is outside 1..2 (the list has 2 pieces)",
            (0, 1),
        ),
        (
            "I,J with 1 history 0 rolls",
            "E05",
            "roll count must be at least 1",
            (19, 20),
        ),
        (
            "S,Z with 2 history",
            "E06",
            "history length 2 must be less than the list length 2 unless rolls are given",
            (9, 10),
        ),
        (
            "I,J,L with 2 history starting with I,J,L",
            "E07",
            "starting history has 3 pieces but the history length is 2",
            (35, 40),
        ),
        (
            "I,J first K",
            "E08",
            "piece 'K' in 'first' is not in the list",
            (10, 11),
        ),
    ];
    for &(src, code, message, (a, b)) in cases {
        let e = Spec::parse(src).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str(), e.span.clone()),
            (code, message, a..b),
            "{src}"
        );
        assert!(e.help.is_some(), "{src}: every static error has a hint");
    }
    for (src, code) in [
        ("I,,J", "E01"),
        ("I;J", "E01"),
        ("5bag of I", "E01"),
        ("I,J with history", "E01"),
        ("I,J with 1 history 2 roll", "E01"),
        ("sequence of I,J with 1 history", "E01"),
        ("I,J first I first J", "E01"),
        ("", "E02"),
        ("bag of bag", "E02"),
        ("first I", "E02"),
        ("0 bag of I,J", "E04"),
        ("I with 1 history", "E06"),
        ("I,J with 1 history starting with K", "E08"),
    ] {
        let e = Spec::parse(src).unwrap_err();
        assert_eq!(e.code, code, "{src:?}");
        assert!(e.help.is_some(), "{src:?}: every static error has a hint");
    }
}

#[test]
fn t3_hint_for_short_lists() {
    let e = Spec::parse("I,J,L,O,S,T,Z with 7 history").unwrap_err();
    assert_eq!(
        e.help.as_deref(),
        Some("history length 7 needs at least 8 list entries; use `rolls` or a shorter history")
    );
}

#[test]
fn t4_deterministic_for_any_seed() {
    for (s, expected) in [
        ("sequence of I,J,L,O,S,T,Z", "IJLOSTZIJLOSTZ"),
        (S[8], "SZSZSZSZ"),
        ("S,Z with 1 history first Z", "ZSZSZSZS"),
        ("I,I,J with 2 history", "IIJIIJIIJ"),
        ("sequence of I,J,L first L", "LIJLIJLIJ"),
        ("I with 0 history", "IIIIII"),
    ] {
        for seed in [0, 1, 42, u64::MAX] {
            let mut r = Randomizer::new(&spec(s), seed);
            assert_eq!(
                deal(&mut r, expected.len()).concat(),
                expected,
                "{s} seed {seed}"
            );
        }
    }
}

#[test]
fn t8_golden_seed_0() {
    let cases: &[(&str, &str, usize)] = &[
        (S[3], "LLLIOIZTLILIIIILSILLJIIJOLIS", 28),
        (S[0], "LZJISOTZTJIOLSIZTJOSLLZJIOTS", 24),
        (S[1], "LZZITTOLISOSJJIILOZJJSZLTOTS", 26),
        (S[2], "LZZITTOTJIZZSSILOIJSJIIJLTZL", 28),
        (S[5], "LLLIOIZTLILIJIIOSJLOLJILOLJS", 28),
        (S[6], "SSSSSSZZSSSSSSSSZSSSSSSSSSSZ", 28),
        (S[7], "ILOJTIZSJLIOSJLTOIJSLOIJTSLO", 28),
        (S[9], "JLIOZTLIISJOLISZJLJOSLIJLSOT", 53),
        ("tgm1", "JLIOZTLIISJOLISZJLJOSLIJLSOT", 53),
        (S[10], "JLIOZTLILSJOIZLJOSILTOSILZTJ", 68),
        ("tgm2", "JLIOZTLILSJOIZLJOSILTOSILZTJ", 68),
        (S[11], "LZZIZIZSJZLITZZLSTJLJTIZLLTO", 28),
        ("tgm-ace", "JLZISOTZTJIOLSIZTJOSLLZJIOTS", 24),
        (
            "S,Z with 1 history starting empty",
            "SZSZSZSZSZSZSZSZSZSZSZSZSZSZ",
            1,
        ),
        ("nes", "ZOZTOTIZTZTTZLTZOZJTZOTLTZOZ", 33),
        ("tgm3", "JITOSZIJLTTOZISLJZTSLJOZTLIO", 64),
        ("pairs", "OTTTOOLOLLOOSOOSSOSOSSOOSLSL", 55),
        (
            S[4],
            "O O O I S I I3 I3 L I O I J I I S Z J O S L J I L S O J Z",
            28,
        ),
    ];
    for &(s, expected, draws) in cases {
        assert_eq!(golden(from(s, 0)), (expected.to_string(), draws), "{s}");
    }
}

#[test]
fn t8_golden_seed_42() {
    for (s, expected, draws) in [
        (S[10], "TLSIJZOTSILOJSZTILOZSTJLOSIT", 49),
        ("tgm2", "TLISJZOTSILOJSZTILOZSTJLOSIT", 49),
        ("tgm3", "TLOIZTJOLISJZTLOSZIJTLOZSJIL", 59),
    ] {
        assert_eq!(golden(from(s, 42)), (expected.to_string(), draws), "{s}");
    }
}

fn r(s: &str) -> Ratio {
    Ratio::parse(s).unwrap()
}

fn exact_of(s: &str) -> alea_blackjack::ExactStats {
    exact(&spec(s), &ExactOptions::default()).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn t6_seven_bag() {
    let e = exact_of(S[0]);
    assert_eq!(e.repeat_probability, r("1/49"));
    for i in 0..7 {
        assert_eq!(e.frequency[i], r("1/7"));
        assert_eq!(e.gaps[i].max_gap, Some(12));
        let want: Vec<Ratio> = (0..=12i64)
            .map(|g| Ratio::from_u64((7 - (g - 6).abs()) as u64, 49))
            .collect();
        assert_eq!(e.gaps[i].distribution, want);
    }
}

#[test]
fn t6_fourteen_bag() {
    let e = exact_of(S[1]);
    assert_eq!(e.repeat_probability, r("4/49"));
    let i = &e.gaps[0];
    assert_eq!(i.max_gap, Some(24));
    assert_eq!(i.distribution[0], r("4/49"));
    assert_eq!(i.distribution[12], r("3/91"));
    assert_eq!(i.distribution[23], r("2/8281"));
    assert_eq!(i.distribution[24], r("1/16562"));
}

#[test]
fn t6_memoryless_lists() {
    for (s, freqs, repeat) in [
        (S[3], vec!["1/7"; 7], "1/7"),
        (S[4], vec!["1/10"; 10], "1/10"),
        (
            S[5],
            vec!["1/10", "3/20", "3/20", "3/20", "3/20", "3/20", "3/20"],
            "29/200",
        ),
    ] {
        let e = exact_of(s);
        assert_eq!(e.repeat_probability, r(repeat), "{s}");
        for (i, f) in freqs.iter().enumerate() {
            let p = r(f);
            assert_eq!(e.frequency[i], p, "{s}");
            assert_eq!(e.gaps[i].max_gap, None);
            let q = &Ratio::one() - &p;
            let mut want = p.clone();
            for g in 0..e.gaps[i].distribution.len() {
                assert_eq!(e.gaps[i].distribution[g], want, "{s} gap {g}");
                want = &want * &q;
            }
        }
    }
}

#[test]
fn t6_s7_json() {
    let opts = ExactOptions {
        tail: r("1/10"),
        ..ExactOptions::default()
    };
    let e = exact(&spec("S,Z"), &opts).unwrap();
    let dist = r#"[{"gap":0,"probability":"1/2"},{"gap":1,"probability":"1/4"},{"gap":2,"probability":"1/8"},{"gap":3,"probability":"1/16"}]"#;
    let want = format!(
        "{{\"spec\": \"S,Z\", \"pieces\": [\"S\",\"Z\"], \"frequency\": {{\"S\": \"1/2\", \"Z\": \"1/2\"}}, \
         \"repeat_probability\": \"1/2\", \"from_history_probability\": null, \
         \"max_gap\": {{\"S\": null, \"Z\": null}}, \"tail_limit\": \"1/10\", \
         \"gap_tail\": {{\"S\": \"1/16\", \"Z\": \"1/16\"}}, \
         \"gap_distribution\": {{\"S\": {dist}, \"Z\": {dist}}}}}"
    );
    assert_eq!(e.to_json(), want);
}

#[test]
fn t6_sequence_and_history_rolls() {
    let e = exact_of("sequence of I,J,L,O,S,T,Z");
    assert_eq!(e.repeat_probability, Ratio::zero());
    for g in &e.gaps {
        assert_eq!(g.max_gap, Some(6));
        assert_eq!(g.distribution[6], Ratio::one());
    }
    let want = r("4574196964864/137023139315083");
    for s in [
        S[10],
        "I,J,L,O,S,T,Z with 4 history 6 rolls",
        alea_blackjack::preset_spec("tgm2").unwrap(),
    ] {
        assert_eq!(
            exact_of(s).from_history_probability,
            Some(want.clone()),
            "{s}"
        );
    }
}

#[test]
fn t6_nes() {
    let e = exact_preset("nes", &ExactOptions::default())
        .unwrap()
        .unwrap();
    assert_eq!(e.repeat_probability, r("1/28"));
    assert!(e.frequency.iter().all(|f| *f == r("1/7")));
}

#[test]
fn t5_long_run_of_duplicate_history() {
    let e = exact_of("I,I,J with 1 history");
    assert_eq!(e.frequency[0], r("2/3"));
    assert_eq!(e.repeat_probability, r("1/3"));
    assert_eq!(e.gaps[0].distribution, vec![r("1/2"), r("1/2")]);
    assert_eq!(e.gaps[0].max_gap, Some(1));
}

/// Several closed classes (spec §8): each weighted by its entry probability. With `starting
/// empty` the first three cards of `I,I,J,J with 3 history` fix one of six cyclic orders; four
/// of them keep the two I's together (repeat 1/2), two alternate (repeat 0).
#[test]
fn several_recurrent_classes_are_weighted_by_entry() {
    let e = exact_of("I,I,J,J with 3 history starting empty");
    assert_eq!(e.repeat_probability, r("1/3"));
    assert_eq!(e.gaps[0].distribution, vec![r("1/3"), r("1/3"), r("1/3")]);
    assert_eq!(e.gaps[0].max_gap, Some(2));
    // The default start picks the list's own cyclic order.
    assert_eq!(
        exact_of("I,I,J,J with 3 history").repeat_probability,
        r("1/2")
    );
    assert_eq!(
        exact_of("I,J,I,J with 3 history").repeat_probability,
        Ratio::zero()
    );
    let e = exact_of("sequence of I,I,J first J");
    assert_eq!(e.frequency, vec![r("2/3"), r("1/3")]);
    assert_eq!(
        e.gaps[1].distribution,
        vec![Ratio::zero(), Ratio::zero(), Ratio::one()]
    );
}
