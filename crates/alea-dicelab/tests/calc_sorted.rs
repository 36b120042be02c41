//! A pool bound by `let` and read through aggregates of `[drop] high|low k` of it, in both
//! directions (calc/classes.rs, `evaluate_sorted`, issue 16): the reads' joint value is one
//! pass over the faces in order, where the general path lists the multisets and stops at its
//! limit (`let x = 20#d10 in sum(high 3 x) - sum(low 2 x)`). Oracles: the general path on
//! small pools (the twin reads `x` through a list, `(x, 0#x)`); on big pools, each read's
//! marginal (the body with the other reads multiplied by 0 equals the one-read pool path),
//! the symmetry of a symmetric die (the k highest of faces 1..K are K + 1 minus the k lowest
//! of the mirrored dice, so `sum(high k) + sum(low k)` is symmetric about k·(K + 1)), and a
//! probability counted by hand. 0.7 agrees byte for byte on small pools
//! (crates/alea-cli/tests/dicelab_calc_faces.rs).

mod support;
use support::{exact, parse_and, run, twins};

use alea_dicelab::calc::{self, CalcOptions, CalcResult, Outcome};

fn result(program: &str) -> CalcResult {
    parse_and(program, |s| {
        calc::calculate(s, &CalcOptions::default()).unwrap_or_else(|e| panic!("{program}: {e:?}"))
    })
}

#[test]
fn sorted_reads_agree_with_the_general_path() {
    for program in [
        "let x = 5#d6 in sum (high 3 X) - sum (low 2 X)",
        "let x = 6#d6 in sum (high 2 X) + sum (drop high 2 X)",
        "let x = 5#d6 in count (>3 (high 3 X)) * 10 + sum (drop low 2 X)",
        "let x = 4#d6 in prod (high 2 X) + count (low 9 X) + sum (drop high 7 X)",
        "let x = 5#d4 in sum (high 2 X) * count (>2 X) - sum (low 1 X)",
        "let x = 5#d6 in sum (sort (high 2 X)) - sum (low 0 X) + sum (drop low 0 X)",
        "let k = 2 in let x = 5#d6 in sum (high k X) - sum (low k X)",
        "let x = 4#d6 in if >8 sum (high 2 X) then sum (low 2 X) else d6",
        // Random counts, mixed dice, and the same read twice.
        "let x = d3#d6 in sum (high 2 X) - sum (low 1 X)",
        "let x = (2#d4, 2#d6) in sum (high 1 X) * 10 + sum (low 1 X)",
        "let x = 4#d6 in sum (high 1 X) + sum (high 1 X) - sum (low 1 X)",
        // Not sorted reads: the general path (or another plan) either way.
        "let x = >2 (4#d6) in sum (high 1 X) - sum (low 1 X)",
        "let x = high 3 (5#d6) in sum (high 1 X) - sum (low 1 X)",
        "let x = 4#d6 in sum (high 1 (>2 X)) - sum (low 1 X)",
        "let x = 4#d6 in let k = 2 in sum (high k X) - sum (low 1 X)",
        "let x = 4#d6 in sum (high 2 X) + sum (high 1 X)",
    ] {
        let (fast, general) = twins(program);
        assert_eq!(exact(&fast), exact(&general), "{fast}");
    }
}

#[test]
fn errors_are_those_of_the_general_path() {
    for program in [
        "let x = 3#d6 in sum (low -1 X) + sum (high 2 X)",
        "let x = 3#d6 in 6 / (sum (high 1 X) - sum (low 1 X))",
        "let x = 3#d6 in d(sum (high 1 X) - sum (low 1 X))",
        "let x = 3#d6 in sum (high (1/0) X) + sum (low 1 X)",
        "let x = 3#d6 in sum (low (1..2) X) + sum (high 1 X)",
        // Too many states for the sorted pass too: the general path's limit, at the `#`.
        "let x = 100#d100 in sum (high 50 X) - sum (low 50 X)",
    ] {
        let (fast, general) = twins(program);
        let r = run(&fast);
        assert!(r.is_err(), "{fast}: {r:?}");
        assert_eq!(r, run(&general), "{fast}");
    }
}

#[test]
fn marginals_of_big_pools_are_the_one_read_pool() {
    for (program, direct) in [
        (
            "let x = 20#d10 in sum (high 3 x) + 0 * sum (low 2 x)",
            "sum (high 3 (20#d10))",
        ),
        (
            "let x = 20#d10 in 0 * sum (high 3 x) + sum (low 2 x)",
            "sum (low 2 (20#d10))",
        ),
        (
            "let x = 20#d10 in count (drop low 3 x) + sum (high 2 x) - sum (low 1 x) * 0",
            "17 + sum (high 2 (20#d10))",
        ),
        (
            "let x = 30#d6 in count (>4 x) + 0 * sum (high 3 x) * sum (low 3 x)",
            "count (>4 (30#d6))",
        ),
        (
            "let x = 30#d6 in sum (drop high 27 x) + 0 * sum (low 3 x)",
            "sum (low 3 (30#d6))",
        ),
    ] {
        assert_eq!(exact(program), exact(direct), "{program}");
    }
    // Still refused by the general path: the twin lists the multisets.
    let e = run("let x = 20#d10 in sum (high 3 (x, 0#x)) - sum (low 2 x)").unwrap_err();
    assert!(e.starts_with("1:9: calc limit in '#'"), "{e}");
}

#[test]
fn highest_plus_lowest_of_a_symmetric_die_is_symmetric() {
    for (program, centre) in [
        ("let x = 30#d6 in sum (high 3 x) + sum (low 3 x)", 3 * 7),
        ("let x = 20#d10 in sum (high 2 x) + sum (low 2 x)", 2 * 11),
    ] {
        let r = result(program);
        let outcomes = r.outcomes();
        assert!(outcomes.len() > 10, "{program}");
        for (o, p) in &outcomes {
            let v = o.value().expect("a value");
            assert_eq!(
                *p,
                r.probability(Outcome::Value(2 * centre - v)),
                "{program}: {v}"
            );
        }
    }
}

#[test]
fn the_largest_difference_is_counted_by_hand() {
    // sum (high 3) - sum (low 2) of 20#d10 is 30 - 2 exactly when at least three dice show 10
    // and at least two show 1: the sequences with t tens and o ones, C(20, t)·C(20 - t, o)·8^rest.
    let choose = |n: u128, k: u128| (0..k).fold(1u128, |c, i| c * (n - i) / (i + 1));
    let mut ways = 0u128;
    for t in 3..=20u128 {
        for o in 2..=(20 - t) {
            ways += choose(20, t) * choose(20 - t, o) * 8u128.pow((20 - t - o) as u32);
        }
    }
    let total = 10u128.pow(20);
    let gcd = |mut a: u128, mut b: u128| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let g = gcd(ways, total);
    let r = result("let x = 20#d10 in sum (high 3 x) - sum (low 2 x)");
    assert_eq!(
        r.probability(Outcome::Value(28)).to_string(),
        format!("{}/{}", ways / g, total / g)
    );
    assert_eq!(r.outcomes().last().map(|(o, _)| o.value()), Some(Some(28)));
}
