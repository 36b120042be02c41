//! Issue 17, part 1: the gap law listed only as far as asked (the text report lists none), E[gap²]
//! from the integer system, and refusals of long lists that come before the work and name a
//! limit that works.

use alea_blackjack::{ExactError, ExactOptions, Ratio, Spec, exact, exact_preset};

fn opts() -> ExactOptions {
    ExactOptions {
        tail: Ratio::from_u64(1, 1000),
        ..ExactOptions::default()
    }
}

fn specs() -> Vec<String> {
    // Bounded and unbounded laws, symmetric and not, with and without rolls.
    [
        "bag of I,J,L,O,S,T,Z",
        "bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
        "7 bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
        "I,J,L,O,S,T,Z",
        "I,I,J,L,O,S,T,Z",
        "sequence of I,J,I,L",
        "I,J,L,O,S,T,Z with 4 history",
        "I,J,L,O,S,T,Z with 4 history 4 rolls",
        "I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T",
        "I,J,L with 2 history starting with I,J",
        "S,Z,T with 2 history 3 rolls",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Listing the first k gaps gives the full law's first k entries, its exact remaining mass as
/// the tail and its longest gap, for every k.
#[test]
fn a_short_list_is_the_full_law_cut_with_its_exact_tail() {
    for s in specs() {
        let spec = Spec::parse(&s).unwrap();
        let full = exact(&spec, &opts()).unwrap();
        for k in [0u64, 1, 3, 12] {
            let cut = exact(
                &spec,
                &ExactOptions {
                    list_gaps: Some(k),
                    ..opts()
                },
            )
            .unwrap();
            assert_eq!(cut.frequency, full.frequency, "{s}");
            assert_eq!(cut.repeat_probability, full.repeat_probability, "{s}");
            for (c, f) in cut.gaps.iter().zip(&full.gaps) {
                assert_eq!(c.max_gap, f.max_gap, "{s} k={k}");
                let n = c.distribution.len();
                assert!(n as u64 <= k, "{s}");
                assert_eq!(c.distribution[..], f.distribution[..n], "{s} k={k}");
                // The tail is everything not listed: 1 − Σ listed.
                let listed = c.distribution.iter().fold(Ratio::zero(), |a, b| &a + b);
                assert_eq!(&listed + &c.tail, Ratio::from_u64(1, 1), "{s} k={k}");
                assert_eq!(c.second_moment, f.second_moment, "{s}");
            }
        }
    }
}

/// E[gap²] from the integer system against Σ g² P(gap = g) on every bounded law, and against
/// the geometric law's (1 − p)(2 − p)/p² for memoryless lists.
#[test]
fn second_moment_matches_the_listed_law() {
    for s in specs() {
        let e = exact(&Spec::parse(&s).unwrap(), &opts()).unwrap();
        for g in &e.gaps {
            if g.max_gap.is_none() {
                continue;
            }
            let direct = g
                .distribution
                .iter()
                .enumerate()
                .fold(Ratio::zero(), |a, (k, p)| {
                    &a + &(&Ratio::from_u64((k * k) as u64, 1) * p)
                });
            assert_eq!(g.second_moment.as_ref(), Some(&direct), "{s}");
        }
    }
    // Memoryless, p = 1/7: E[gap²] = (6/7)(13/7)·49 = 78.
    let e = exact(&Spec::parse("I,J,L,O,S,T,Z").unwrap(), &opts()).unwrap();
    assert_eq!(e.gaps[0].second_moment, Some(Ratio::from_u64(78, 1)));
    // And a built-in preset's chains.
    let nes = exact_preset("nes-real", &opts()).unwrap().unwrap();
    assert!(nes.gaps.iter().all(|g| g.second_moment.is_some()));
}

/// A list over the work limit is refused before the work, naming the work it needs and a tail
/// that fits; raising either to the named value works.
#[test]
fn work_refusal_names_limits_that_work() {
    let spec = Spec::parse("I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T").unwrap();
    let tight = ExactOptions {
        tail: Ratio::from_u64(1, 1_000_000),
        max_work: 20_000,
        ..ExactOptions::default()
    };
    let err = exact(&spec, &tight).unwrap_err();
    let ExactError::TooLarge { hint, .. } = &err else {
        panic!("expected X03, got {err}");
    };
    let work: u64 = hint
        .split("raise --max-work to ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no work named: {hint}"));
    assert!(work > 20_000);
    let raised = ExactOptions {
        max_work: work,
        ..tight.clone()
    };
    let full = exact(&spec, &raised).unwrap();
    assert_eq!(
        full,
        exact(
            &spec,
            &ExactOptions {
                tail: tight.tail.clone(),
                ..opts()
            }
        )
        .unwrap()
    );
    let tail = hint
        .split("raise --tail to ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(Ratio::parse)
        .unwrap_or_else(|| panic!("no tail named: {hint}"));
    let shorter = ExactOptions { tail, ..tight };
    let got = exact(&spec, &shorter).unwrap();
    assert!(got.gaps[0].tail <= shorter.tail);
}

/// `with 4 history 1000 rolls`: the report without a list needs no tail option, and the full
/// list to 1/1000 agrees with it.
#[test]
fn many_rolls_without_a_list() {
    let spec = Spec::parse("I,J,L,O,S,T,Z with 4 history 1000 rolls").unwrap();
    let report = exact(
        &spec,
        &ExactOptions {
            list_gaps: Some(0),
            second_moment: false,
            ..ExactOptions::default()
        },
    )
    .unwrap();
    assert_eq!(report.frequency, vec![Ratio::from_u64(1, 7); 7]);
    assert!(
        report
            .gaps
            .iter()
            .all(|g| g.max_gap.is_none() && g.tail == Ratio::from_u64(1, 1))
    );
    let listed = exact(
        &spec,
        &ExactOptions {
            second_moment: false,
            ..opts()
        },
    )
    .unwrap();
    assert_eq!(listed.repeat_probability, report.repeat_probability);
    assert_eq!(
        listed.from_history_probability,
        report.from_history_probability
    );
    assert!(listed.gaps[0].distribution.len() > 10);
}
