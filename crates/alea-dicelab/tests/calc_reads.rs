//! A binding read at most once, outside any loop of its body, is its value read in place
//! (calc/reads.rs, issue 16): `let x = 20#d10 in first 1 x` is one die, as `first 1 (20#d10)`
//! is, instead of 10^20 sequences. Oracles: the general path (the twin program reads `x` a
//! second time in `0#x`, which adds nothing but makes the binding read twice, so calc
//! conditions on every value of `x`), and, on pools too big for it, the same dice written
//! directly (hand equivalence: the dice are independent and identically distributed, so
//! any k of them in any positions are k dice). 0.7 agrees byte for byte on small pools
//! (crates/alea-cli/tests/dicelab_calc_faces.rs).

mod support;
use support::{exact, run, twins};

#[test]
fn single_reads_agree_with_the_general_path() {
    for program in [
        "let x = 4#d6 in first 1 X",
        "let x = 4#d6 in sum (last 2 X)",
        "let x = 5#d4 in sum (drop first 2 X)",
        "let x = d3#d6 in sum (first 2 X)",
        "let x = 3#d6 in sum X",
        "let x = 3#d6 in high 1 (first 2 X)",
        "let x = 3#d6 in first 1 (rev X)",
        "let x = 3#d6 in let y = d4 in y * sum (first 2 X)",
        "let x = (d4, 2#d6) in sum (first 2 X)",
        "let x = d6 in let y = 1 + sum X in y * 2",
        "sum (foreach y in 1..3 do let z = y#d6 in last 1 (z, 0#z))",
        "let x = 3#d6 in if >3 first 1 X then 1 else 0",
        "let x = 3#d6 in if 0 then 1 else sum X",
        // A cut path (the while) marks the whole result: conditioned on, not read in place.
        "let x = while v = d6 do if ==6 v then d6 else () in sum X",
    ] {
        let (once, twice) = twins(program);
        assert_eq!(exact(&once), exact(&twice), "{once}");
    }
    // Never read: the body alone, the value's errors still reported.
    assert_eq!(exact("let x = 20#d10 in 5"), "  5\t1/1\t\ntruncated 0/1\n");
    assert_eq!(
        run("let x = d0 in 5"),
        Err("1:9: die size must be at least 1 (got 0)".to_string())
    );
    // The value's error comes before the body's, as when conditioning.
    for program in ["let x = d0 in (1/0) + sum X", "let x = d6 in (1/0) + sum X"] {
        let (once, twice) = twins(program);
        assert!(run(&once).is_err(), "{once}");
        assert_eq!(run(&once), run(&twice), "{once}");
    }
}

#[test]
fn pools_too_big_to_list_in_order_are_computed() {
    for (program, direct) in [
        ("let x = 20#d10 in first 1 x", "d10"),
        ("let x = 20#d10 in sum (last 3 x)", "sum (3#d10)"),
        ("let x = 20#d10 in sum (first 3 x)", "sum (3#d10)"),
        ("let x = 10#d6 in sum (drop first 1 x)", "sum (9#d6)"),
        ("let x = 30#d30 in sum (drop last 27 x)", "sum (3#d30)"),
        ("let x = 20#d10 in sum x", "sum (20#d10)"),
        ("let x = 20#d10 in high 1 (first 5 x)", "high 1 (5#d10)"),
        (
            "sum (foreach y in 1..3 do let z = 20#d10 in first 1 z)",
            "sum (3#d10)",
        ),
        (
            "let a = 20#d10 in let b = first 7 a in sum b",
            "sum (7#d10)",
        ),
        (
            "let x = 20#d10 in let y = d6 in y + sum (first 1 x)",
            "d6 + d10",
        ),
        // A random count keeps min(k, n) dice for each pair of counts.
        ("sum (first d4 (20#d10))", "sum (d4#d10)"),
        ("let x = 20#d10 in sum (first d4 x)", "sum (d4#d10)"),
        (
            "let x = 20#d10 in sum (drop last d4 x)",
            "sum ((20-d4)#d10)",
        ),
        ("sum (last d6 (d3#d10))", "sum ((sum (low 1 (d6, d3)))#d10)"),
    ] {
        assert_eq!(exact(program), exact(direct), "{program}");
    }
}

#[test]
fn disjoint_positional_reads_are_independent_dice() {
    // Small pools: the same as the general path (the twin reads x once more in `0#x`).
    for program in [
        "let x = 4#d6 in sum (first 1 X) + sum (last 1 X)",
        "let x = 5#d4 in sum (first 2 X) - sum (last 2 X)",
        "let x = 4#d6 in sum (first 2 X) * sum (drop first 2 X)",
        "let x = 4#d6 in let k = 2 in sum (first k X) + sum (last k X)",
        // Overlapping positions: the general path either way.
        "let x = 3#d6 in sum (first 2 X) + sum (last 2 X)",
        "let x = 4#d6 in sum (drop last 1 X) + sum (last 2 X)",
    ] {
        let (once, twice) = twins(program);
        assert_eq!(exact(&once), exact(&twice), "{once}");
    }
    // Big pools: disjoint positions are that many fresh dice.
    for (program, direct) in [
        (
            "let x = 20#d10 in sum (first 1 x) + sum (last 1 x)",
            "sum (2#d10)",
        ),
        (
            "let x = 20#d10 in sum (first 3 x) - sum (drop first 3 x)",
            "sum (3#d10) - sum (17#d10)",
        ),
        (
            "let x = 30#d6 in sum (high 1 (first 2 x)) + sum (low 1 (last 2 x))",
            "sum (high 1 (2#d6)) + sum (low 1 (2#d6))",
        ),
    ] {
        assert_eq!(exact(program), exact(direct), "{program}");
    }
    // Overlapping reads of a big pool still list its sequences.
    let e = run("let x = 20#d10 in sum (first 3 x) + sum (last 18 x)").unwrap_err();
    assert!(e.starts_with("1:11: calc limit in '#'"), "{e}");
}

#[test]
fn overlapping_reads_see_the_end_dice_and_the_kept_middle() {
    // Small pools: the same as the general path.
    for program in [
        "let x = 5#d6 in sum (first 2 X) + sum (first 1 X)",
        "let x = 5#d4 in sum (first 2 X) * sum (last 1 X) - sum (first 1 X)",
        "let k = 2 in let x = 5#d6 in sum (first k X) + sum (first 1 X)",
        "let x = 5#d6 in if >3 first 1 X then sum (first 3 X) else 0",
        "let x = 4#d6 in sum (last 2 X) - sum (last 1 X)",
        "let x = 4#d6 in sum (high 1 (first 3 X)) + sum (first 1 X)",
        // Order statistics under an aggregate, with or without positional reads.
        "let x = 5#d6 in sum (high 1 X) + sum (first 1 X)",
        "let x = 5#d6 in sum (low 2 X) * sum (last 1 X) - sum (first 2 X)",
        "let x = 5#d6 in sum (high 1 X) + sum (high 2 X)",
        "let x = 5#d6 in count (sort (high 2 X)) + prod (first 1 X)",
        "let x = 3#d6 in sum (high 5 X) - sum (last 1 X)",
        // Reads covering every die, a `drop`, both directions, an order statistic read in
        // order: the general path either way.
        "let x = 4#d6 in sum (first 3 X) + sum (last 2 X)",
        "let x = 4#d6 in sum (drop last 1 X) + sum (first 1 X)",
        "let x = 4#d6 in sum (high 1 X) + sum (low 1 X)",
        "let x = 4#d6 in sum (drop high 1 X) + sum (first 1 X)",
        "let x = 4#d6 in sum (first 1 (high 2 X)) + sum (first 1 X)",
    ] {
        let (once, twice) = twins(program);
        assert_eq!(exact(&once), exact(&twice), "{once}");
    }
    // Big pools: only the dice at the ends are conditioned on.
    assert_eq!(
        exact("let x = 20#d10 in sum (first 2 x) + sum (first 1 x)"),
        exact("2*d10 + d10")
    );
    // The first die a and the highest of all: a + max(a, the highest of the other 19).
    assert_eq!(
        exact("let x = 20#d10 in sum (high 1 x) + sum (first 1 x)"),
        exact("let a = d10 in a + sum (high 1 (a, 19#d10))")
    );
    let body = "sum (first 3 X) - sum (last 2 X) * sum (first 1 X)";
    assert_eq!(
        exact(&format!("let x = 20#d6 in {}", body.replace('X', "x"))),
        exact(&format!(
            "let x = 6#d6 in {}",
            body.replace('X', "(x, 0#x)")
        ))
    );
}
