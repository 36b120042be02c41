//! A pool bound by `let` and read several times through `count`/`sum`/`prod` of comparison
//! filters (calc/classes.rs, issue 16): the reads' joint value is a convolution over the dice,
//! so `let x = 30#d6 in count (>3 x) + count (<2 x)` is computed from 496 count vectors where
//! the general path lists 324 632 multisets and stops at its limit. Oracles: the general path
//! on small pools (the twin program reads `x` through a list, `(x, 0#x)`, which no filter read
//! is, so calc conditions on every value of `x`); on pools too big for it, the same dice
//! written with one read (hand equivalences); and hand-computed probabilities. 0.7 agrees
//! byte for byte on small pools (crates/alea-cli/tests/dicelab_calc_faces.rs).

mod support;
use support::{exact, parse_and, run, twins};

use alea_dicelab::calc::{self, CalcOptions, Outcome};

#[test]
fn filter_reads_agree_with_the_general_path() {
    for program in [
        "let x = 4#d6 in count (>3 X) + count (<2 X)",
        "let x = 4#d6 in count (>3 X) - count (==1 X)",
        "let x = 4#d6 in sum (>3 X) * count (<=2 X)",
        "let x = 3#d6 in prod (>1 X) + sum (drop ==6 X)",
        "let x = 4#d6 in (count X) - sum (<5 (>1 X))",
        "let x = 3#d6 in count (sort (>3 X)) + count (<2 X)",
        "let x = 4#d6 in count (>=4 X) * 10 + count (!=2 X)",
        // Random counts, mixed dice, a filtered pool.
        "let x = d3#d6 in count (>3 X) + count (<2 X)",
        "let x = (2#d4, 2#d6) in sum (>2 X) - count (==1 X)",
        "let x = >2 (4#d6) in count (>4 X) + count (<4 X)",
        "let x = (d2-1)#(2#d6) in count (>4 X) + sum (<3 X)",
        // Thresholds from outside the `let`, reads anywhere in the body.
        "let k = 3 in let x = 4#d6 in count (>k X) + count (<k X)",
        "let x = 4#d6 in if >1 count (>4 X) then count (<3 X) else d6",
        "let x = 4#d6 in sum (foreach y in 1..2 do count (>3 X))",
        "let x = 3#d6 in let c = count (>3 X) in c * c - count (==1 X)",
        "let x = 3#d6 in (count (>3 X), sum (<3 X))",
        // Not filter reads of a pool without a keep: the general path either way.
        "let x = high 2 (4#d6) in count (>3 X) + count (<2 X)",
        "let x = 4#d6 in let k = 3 in count (>k X) + count (<k X)",
        "let x = 4#d6 in sum (foreach y in 1..3 do count (>y X))",
        "let x = 3#d6 in count (>3 X) + sum (first 1 X)",
    ] {
        let (fast, general) = twins(program);
        assert_eq!(exact(&fast), exact(&general), "{fast}");
    }
}

#[test]
fn errors_are_those_of_the_general_path() {
    for program in [
        "let x = 3#d6 in 6 / count (>3 X) + count (<2 X)",
        "let x = 3#d6 in d(count (>3 X) - count (<2 X))",
        "let x = 3#d6 in count (>(1/0) X) + count (<2 X)",
        "let x = 3#d6 in count (>3 X) + count (<2 X) + 2#1",
        "let x = 3#d6 in count (>(1..2) X) + count (<2 X)",
    ] {
        let (fast, general) = twins(program);
        let r = run(&fast);
        assert!(r.is_err(), "{fast}: {r:?}");
        assert_eq!(r, run(&general), "{fast}");
    }
}

#[test]
fn pools_too_big_to_list_are_computed() {
    // Linear bodies: one read of a pool (binomials, or a pool of mapped dice) gives the same.
    for (program, direct) in [
        (
            "let x = 30#d6 in count (>3 x) + count (<2 x)",
            "count (drop ==2 (drop ==3 (30#d6)))",
        ),
        (
            "let x = 40#d6 in count (>3 x) + count (<2 x)",
            "count (drop ==2 (drop ==3 (40#d6)))",
        ),
        (
            "let x = 30#d6 in count (>3 x) - count (==1 x)",
            "sum (foreach y in 30#d6 do if >3 y then 1 else if ==1 y then -1 else 0)",
        ),
        (
            "let x = 30#d10 in sum (>7 x) - count (==1 x)",
            "sum (foreach y in 30#d10 do if >7 y then y else if ==1 y then -1 else 0)",
        ),
        (
            "let x = 100#d6 in count (>4 x) - count (==1 x) + count (<7 x)",
            "sum (foreach y in 100#d6 do if >4 y then 2 else if ==1 y then 0 else 1)",
        ),
    ] {
        assert_eq!(exact(program), exact(direct), "{program}");
    }
    // Still refused by the general path: the twin lists the multisets.
    let e = run("let x = 30#d6 in count (>3 (x, 0#x)) + count (<2 x)").unwrap_err();
    assert!(e.starts_with("1:9: calc limit in '#'"), "{e}");
}

#[test]
fn hand_computed_joint_counts() {
    let p = |program: &str, v: i32| {
        parse_and(program, |s| {
            calc::calculate(s, &CalcOptions::default())
                .unwrap()
                .probability(Outcome::Value(v))
                .to_string()
        })
    };
    // Each die is in {1, 4, 5, 6} with p = 2/3: Bin(2, 2/3).
    let two = "let x = 2#d6 in count (>3 x) + count (<2 x)";
    assert_eq!(
        [p(two, 0), p(two, 1), p(two, 2)],
        ["1/9", "4/9", "4/9"].map(String::from)
    );
    // (high, low) counts of 2 dice, high = {5, 6}, low = {1}: the product is 1 only for one
    // die in each class, 2 · (2/6) · (1/6) = 1/9.
    let product = "let x = 2#d6 in count (>4 x) * count (<2 x)";
    assert_eq!(p(product, 1), "1/9");
    assert_eq!(p(product, 0), "8/9");
    // 30 dice, 3 classes: the body (a, b) -> a·31 + b is one-to-one, so the outcomes are the
    // 496 count vectors.
    let r = parse_and("let x = 30#d6 in count (>3 x) * 31 + count (<2 x)", |s| {
        calc::calculate(s, &CalcOptions::default()).unwrap()
    });
    assert_eq!(r.outcomes().len(), 496);
    // All 30 dice above 3, (1/2)^30.
    assert_eq!(
        r.probability(Outcome::Value(30 * 31)).to_string(),
        "1/1073741824"
    );
}
