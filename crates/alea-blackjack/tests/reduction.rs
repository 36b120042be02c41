//! The symmetry-reduced exact chain against the unreduced one (the dealer's own card-level
//! states) on every spec small enough for both, the exact values pinned before the reduction
//! (goldens), and the sizes the reduction makes instant.

use alea_blackjack::{ExactError, ExactOptions, Ratio, Spec, exact, exact_preset, exact_unreduced};

fn opts() -> ExactOptions {
    ExactOptions {
        tail: Ratio::from_u64(1, 1000),
        ..ExactOptions::default()
    }
}

/// Every spec of `tests/golden/exact.txt` computes the same `--exact --json` document as
/// before the reduction (recorded with `alea blackjack --exact --json --tail 1/1000 SPEC`).
#[test]
fn exact_values_are_unchanged() {
    let text = include_str!("golden/exact.txt");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 60);
    for pair in lines.chunks(2) {
        let (spec, want) = (pair[0], pair[1]);
        let got = match spec.strip_prefix("--preset ") {
            Some(name) => exact_preset(name, &opts()).unwrap().unwrap(),
            None => exact(&Spec::parse(spec).unwrap(), &opts()).unwrap(),
        };
        assert_eq!(got.to_json(), want, "{spec}");
    }
}

fn small_specs() -> Vec<String> {
    let lists = [
        "S,Z",
        "I,J,L",
        "I,I,J",
        "I,J,L,O",
        "I,I,J,J",
        "I,J,I,J",
        "I,I,I,J",
        "I,J,L,O,S",
    ];
    let mut out = Vec::new();
    for l in lists {
        let n = l.split(',').count();
        out.push(l.to_string());
        out.push(format!("sequence of {l}"));
        out.push(format!("sequence of {l} first J"));
        for k in 1..=n {
            out.push(format!("{k} bag of {l}"));
            out.push(format!("{k} bag of {l} first J,I"));
        }
        for h in 0..n {
            out.push(format!("{l} with {h} history"));
            out.push(format!("{l} with {h} history starting empty"));
            out.push(format!("{l} with {h} history first I,J"));
            if h > 0 {
                out.push(format!("{l} with {h} history starting with J"));
            }
        }
        // Card-level histories number up to n^h: keep them small enough to solve exactly.
        for h in (1..=n + 1).filter(|&h| n.pow(h as u32) <= 130) {
            for r in 1..=3 {
                out.push(format!("{l} with {h} history {r} rolls"));
                out.push(format!(
                    "{l} with {h} history {r} rolls starting empty first J"
                ));
            }
        }
    }
    out
}

#[test]
fn reduced_chain_equals_unreduced_chain() {
    let mut compared = 0;
    for text in small_specs() {
        let spec = match Spec::parse(&text) {
            Ok(s) => s,
            Err(_) => continue, // e.g. 'first J' on a list without J
        };
        let reduced = exact(&spec, &opts()).unwrap_or_else(|e| panic!("{text}: {e}"));
        let full = exact_unreduced(&spec, &opts()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(reduced.frequency, full.frequency, "{text}");
        assert_eq!(
            reduced.repeat_probability, full.repeat_probability,
            "{text}"
        );
        assert_eq!(
            reduced.from_history_probability, full.from_history_probability,
            "{text}"
        );
        assert_eq!(reduced.gaps, full.gaps, "{text}");
        assert!(reduced.states <= full.states, "{text}");
        compared += 1;
    }
    assert!(compared > 300, "{compared} specs compared");
}

fn names(n: usize) -> String {
    (0..n)
        .map(|i| format!("p{i}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn large_symmetric_specs_are_exact() {
    let bag52 = exact(
        &Spec::parse(&format!("bag of {}", names(52))).unwrap(),
        &opts(),
    )
    .unwrap();
    assert_eq!(bag52.gaps[0].max_gap, Some(102));
    assert_eq!(bag52.repeat_probability, Ratio::from_u64(1, 52 * 52));
    let m60 = exact(&Spec::parse(&names(60)).unwrap(), &ExactOptions::default()).unwrap();
    assert_eq!(m60.frequency[59], Ratio::from_u64(1, 60));
    // Memoryless: P(gap = g) = (1/60)(59/60)^g.
    assert_eq!(
        m60.gaps[7].distribution[2],
        Ratio::from_u64(59 * 59, 60 * 60 * 60)
    );
    let h29 = exact(
        &Spec::parse(&format!("{} with 4 history", names(29))).unwrap(),
        &ExactOptions::default(),
    )
    .unwrap();
    assert_eq!(h29.repeat_probability, Ratio::zero());
    assert_eq!(h29.gaps[3].distribution[4], Ratio::from_u64(1, 25));
    let h6 = exact(
        &Spec::parse("I,J,L,O,S,T,Z with 6 history 6 rolls").unwrap(),
        &ExactOptions::default(),
    )
    .unwrap();
    assert!(h6.states < 200, "{} states", h6.states);
    let many_rolls = exact(
        &Spec::parse("I,J,L,O,S,T,Z with 4 history 1000 rolls").unwrap(),
        &opts(),
    )
    .unwrap();
    assert!(many_rolls.from_history_probability.unwrap() < Ratio::from_u64(1, 1_000_000));
}

#[test]
fn refusals_name_the_size_and_the_option_that_works() {
    let spec = Spec::parse("I,J,L,O,S,T,Z with 6 history 6 rolls").unwrap();
    let small = ExactOptions {
        max_states: 10,
        ..ExactOptions::default()
    };
    let Err(ExactError::TooManyStates {
        needed: Some(needed),
        limit: 10,
    }) = exact(&spec, &small)
    else {
        panic!("expected X01 with the size");
    };
    let e = exact(&spec, &small).unwrap_err().to_string();
    assert!(e.contains("raise --max-states to"), "{e}");
    let raised = ExactOptions {
        max_states: needed as usize,
        ..ExactOptions::default()
    };
    assert!(exact(&spec, &raised).is_ok());
    let tight = ExactOptions {
        max_solve: 3,
        ..ExactOptions::default()
    };
    let Err(ExactError::ClassTooLarge { size, limit: 3 }) = exact(&spec, &tight) else {
        panic!("expected X04");
    };
    let raised = ExactOptions {
        max_solve: size,
        ..ExactOptions::default()
    };
    assert!(exact(&spec, &raised).is_ok());
}

#[test]
fn lumped_state_counts() {
    let states = |s: &str| exact(&Spec::parse(s).unwrap(), &opts()).unwrap().states;
    assert_eq!(states(alea_blackjack::preset_spec("tgm2").unwrap()), 28);
    assert_eq!(states("I,J,L,O,S,T,Z with 6 history 6 rolls"), 144);
    assert_eq!(states("I,J,L,O,S,T,Z with 4 history"), 5);
}
