//! Hopeless programs end with a budget error that names the construct, quickly and in bounded
//! memory (dicelab.md §3 "Limits"), instead of running for minutes or exhausting memory; their
//! feasible neighbours still compute exactly.
//!
//! No timing is asserted: each program below used to take from 6 s to minutes and gigabytes
//! (the step or size budget was charged after building, or per outcome whatever its size); a
//! regression shows up as a slow test run. Release timings are in
//! docs/performance/dicelab-calc.md.

use alea_core::SourceFile;
use alea_dicelab::calc::{self, CalcOptions, CalcResult, Outcome};

fn run(program: &str) -> Result<CalcResult, String> {
    let file = SourceFile::new("<test>", program);
    let (prog, errors) = alea_dicelab::parse(&file);
    assert!(errors.is_empty(), "{program}: syntax errors {errors:?}");
    calc::calculate(&prog.statements[0], &CalcOptions::default()).map_err(|d| {
        let (line, col) = d.line_col(&file).unwrap_or((0, 0));
        format!("{line}:{col}: {}", d.message)
    })
}

fn err(program: &str) -> String {
    match run(program) {
        Ok(r) => panic!(
            "{program}: expected an error, got {}",
            r.render_dicelab(false)
        ),
        Err(e) => e,
    }
}

fn exact(program: &str) -> String {
    match run(program) {
        Ok(r) => r.render_dicelab(true),
        Err(e) => panic!("{program}: {e}"),
    }
}

#[test]
fn ordered_repeats_fail_on_their_size() {
    // `first` makes x ordered and x is read twice: 10^20 (30^30) sequences, which fail by
    // size once the lists built so far would pass the cap (lists count by length).
    for (program, at) in [
        ("let x = 20#d10 in first 1 (x, x)", "1:11"),
        ("let x=30#d30 in first 3 (x, x)", "1:9"),
        // A list of pairs is not `n#die`: still listed in order.
        ("count (first 3 (30#(d30,d30)))", "1:19"),
    ] {
        let e = err(program);
        assert_eq!(
            e,
            format!("{at}: calc limit in '#': list has more than 10000000 outcomes or states"),
            "{program}"
        );
    }
    // A feasible neighbour: the first die of 3 in order is a d10.
    let d10: String = (1..=10).map(|v| format!("{v:>3}\t1/10\t\n")).collect();
    assert_eq!(exact("let x = 3#d10 in first 1 x"), d10);
    // `first k (n#die)` directly is k dice (no sequences listed): computed at any n.
    assert_eq!(exact("count (first 3 (30#d30))"), "  3\t1/1\t\n");
    assert_eq!(exact("first 1 (20#d10)"), d10);
    // Read once, a binding is its value read in place (issue 16): the same k dice.
    assert_eq!(exact("let x = 20#d10 in first 1 x"), d10);
    assert_eq!(
        exact("let x=30#d30 in sum (first 3 x)"),
        exact("sum (3#d30)")
    );
}

#[test]
fn products_of_big_dice_fail_before_building_pairs() {
    // prod(3#d1000) alone has 32 136 768 distinct values (more than the cap), so prod(10#d1000)
    // cannot be computed; repeated squaring meets d1000^4 (6·10^10 pairs) at its second step.
    let e = err("prod(10#d1000)");
    assert!(e.starts_with("1:1: calc limit in 'prod':"), "{e}");
    let e = err("prod(high 5 (10#d1000))");
    assert!(
        e.starts_with("1:1: calc limit in 'prod': pool evaluation"),
        "{e}"
    );
    let e = err("sum(d100 * d1000 * d1000)");
    assert!(e.starts_with("1:18: calc limit in '*':"), "{e}");
    // 5000 d1000 have weights of 50 000 bits: each convolution cell costs its length.
    let e = err("sum(5000#d1000)");
    assert!(
        e.starts_with("1:1: calc limit in 'sum': sum (convolution)"),
        "{e}"
    );
}

#[test]
fn let_with_a_direct_body_keeps_errors_and_cuts() {
    // The body is evaluated directly for each value: a reachable error is still an error.
    assert_eq!(err("let x = d6 in 6/(x-3)"), "1:16: division by zero");
    let r = run("let x = d4 in x*x").unwrap();
    assert_eq!(r.probability(Outcome::Value(9)).to_string(), "1/4");
}

#[test]
fn prod_of_a_pool_agrees_with_enumeration() {
    // The pool's repeated product against the ordered enumeration of the same dice.
    for (pool, listed) in [
        ("prod(4#d6)", "prod(first 4 (4#d6))"),
        ("prod(>3 4#d6)", "prod(>3 first 4 (4#d6))"),
        ("prod(3#(d5-3))", "prod(first 3 (3#(d5-3)))"),
        ("prod(2#d4, 3#d3)", "prod(first 5 (2#d4, 3#d3))"),
        ("prod(d3#d4)", "prod(first 3 (d3#d4))"),
    ] {
        assert_eq!(exact(pool), exact(listed), "{pool}");
    }
}

#[test]
fn big_multisets_and_permutations_fail_at_once() {
    // 40#d6 has C(45, 5) = 1 221 759 multisets of 40 values, listed when x is read twice.
    let e = err("let x = 40#d6 in (x, x)");
    assert_eq!(
        e,
        "1:9: calc limit in '#': multisets of a pool has more than 10000000 outcomes or states"
    );
    // Read once, x is the pool itself: the result is a list, as for `40#d6`.
    assert_eq!(
        err("let x = 40#d6 in x"),
        "1:1: result is not a single value (list of 40 values)"
    );
    let e = err("first 1 (sort 25#d20)");
    assert!(e.starts_with("1:15: calc limit in '#'"), "{e}");
    // 6^12 arrangements, counted before any is built.
    let e = err("first 1 (perm 12#d6)");
    assert_eq!(
        e,
        "1:10: calc limit in 'perm': permutation has more than 10000000 outcomes or states"
    );
    // Unordered, these are lists of many values: no enumeration at all.
    assert_eq!(
        err("sort 25#d20"),
        "1:1: result is not a single value (list of 25 values)"
    );
    assert_eq!(
        err("perm 12#d6"),
        "1:1: result is not a single value (list of 12 values)"
    );
    // Feasible neighbours.
    assert_eq!(exact("let x = 12#d6 in count (perm x)"), " 12\t1/1\t\n");
    let d6: String = (1..=6).map(|v| format!("{v:>3}\t1/6\t\n")).collect();
    assert_eq!(exact("first 1 (perm 3#d6)"), d6);
}

#[test]
fn big_mixtures_fail_on_their_size() {
    // 10^5 lists of up to 10^5 values (5·10^9 in all).
    let e = err("let x = d100000 in (1..x, x)");
    assert_eq!(
        e,
        "1:1: calc limit in 'let': mixture of distributions has more than 10000000 outcomes or \
         states"
    );
    // Read once, x is the die read in place: the range of each face, charged before building.
    let e = err("let x = d100000 in 1..x");
    assert_eq!(
        e,
        "1:21: calc limit in '..': product of distributions exceeded the step limit of 100000000"
    );
    // d1, …, d10^6 mixed: their common denominator has millions of bits.
    let e = err("d(d1000000)");
    assert!(
        e.starts_with("1:1: calc limit in 'd': mixture of distributions"),
        "{e}"
    );
    // Feasible: d(d6).
    let r = run("d(d6)").unwrap();
    assert_eq!(r.probability(Outcome::Value(1)).to_string(), "49/120");
}

#[test]
fn big_lists_in_loops_run_out_of_steps() {
    // 1000 lists of 10^7 values, each only counted: without dice, evaluated by the concrete
    // evaluator, which stops at roll mode's step limit (tests/calc_concrete.rs compares).
    let e = err("foreach y in 1..1000 do count (1..10000000)");
    assert_eq!(e, "1:32: evaluation step limit of 100000000 exceeded");
}

/// Big pools: the binomial table of a pool evaluation holds (n+1)(n+2)/2 coefficients of up to
/// n bits (3000 dice: about 1 GB), so its size is charged in words before it is built; a pool
/// whose dice all show one face needs no table at all (found by the fuzzer:
/// `d0991..2,9920#00%d180` took 16 GB).
#[test]
fn big_pools_charge_their_binomial_table() {
    assert_eq!(
        err("high 1 3000#d6"),
        "1:1: calc limit in 'high': pool evaluation has more than 10000000 outcomes or states"
    );
    assert_eq!(
        err("d0991..2,9920#00%d180"),
        "1:1: result is not a single value (list of 9920 values)"
    );
    assert_eq!(
        err("d9..2,9920#(0%d2)"),
        "1:1: result is not a single value (list of 9920 values)"
    );
    // A feasible neighbour: the highest of 1000 d2 is 2 unless every die shows 1.
    let p1 = "1/".to_string() + &num_pow2(1000);
    let out = exact("high 1 1000#d2");
    assert!(out.starts_with(&format!("  1\t{p1}\t\n")), "{out}");
}

/// 2^n in decimal, for the exact fraction above.
fn num_pow2(n: u32) -> String {
    let mut digits = vec![1u32];
    for _ in 0..n {
        let mut carry = 0;
        for d in &mut digits {
            let v = *d * 2 + carry;
            *d = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            digits.push(carry);
        }
    }
    digits.iter().rev().map(|d| d.to_string()).collect()
}
