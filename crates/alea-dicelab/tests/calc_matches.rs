//! "Most matches" (`let x = POOL in high 1 (foreach y in A..B do sum (==y x))`, or `count`)
//! and its family are computed from the counts per face of the pool (calc/faces.rs). The
//! general path, which evaluates the body once per multiset of `x`, is the oracle: writing
//! `==y (x,())` for `==y x` keeps the program's meaning but reads `x` as a list, which the
//! counts per face do not cover.

use alea_core::SourceFile;
use alea_dicelab::calc::{self, CalcOptions};

fn run(program: &str) -> Result<String, String> {
    let file = SourceFile::new("<test>", program);
    let (prog, errors) = alea_dicelab::parse(&file);
    assert!(errors.is_empty(), "{program}: syntax errors {errors:?}");
    calc::calculate(&prog.statements[0], &CalcOptions::default())
        .map(|r| r.render_dicelab(true))
        .map_err(|d| d.message)
}

/// The fast program and its general-path twin give the same exact distribution.
fn same(pool: &str, agg: &str, lo: i32, hi: i32) {
    let fast = format!("let x = {pool} in high 1 (foreach y in {lo}..{hi} do {agg} (==y x))");
    let slow = format!("let x = {pool} in high 1 (foreach y in {lo}..{hi} do {agg} (==y (x,())))");
    let a = run(&fast).unwrap_or_else(|e| panic!("{fast}: {e}"));
    let b = run(&slow).unwrap_or_else(|e| panic!("{slow}: {e}"));
    assert_eq!(a, b, "{fast}");
    // Computed ranges are the same program.
    let computed =
        format!("let x = {pool} in high 1 (foreach y in ({lo}+0)..({hi}*1) do {agg} (==y x))");
    assert_eq!(run(&computed), Ok(a), "{computed}");
}

#[test]
fn original_program() {
    same("7#d10", "sum", 1, 10);
    same("7#d10", "count", 1, 10);
}

#[test]
fn pools_ranges_and_aggregates_agree_with_the_general_path() {
    for (n, k) in [(1, 6), (2, 2), (3, 4), (4, 3), (5, 6), (6, 8), (4, 12)] {
        let pool = format!("{n}#d{k}");
        // Whole range, inner part, non-faces on both sides, one value, no face at all.
        let ranges = [(1, k), (2, k - 1), (0, k + 2), (3, 3), (k + 1, k + 5)];
        for (lo, hi) in ranges {
            if lo > hi {
                continue;
            }
            for agg in ["sum", "count"] {
                same(&pool, agg, lo, hi);
            }
        }
    }
}

#[test]
fn other_pools_agree() {
    // Random counts (a mixture of pools), mixed dice, a kept subset (not plain: general path).
    for pool in ["d3#d4", "(3#d6, 2#d4)", "high 3 5#d6", "0#d6", "2#d6#d3"] {
        for agg in ["sum", "count"] {
            same(pool, agg, 1, 6);
            same(pool, agg, 2, 4);
        }
    }
}

#[test]
fn sum_is_the_value_times_the_matches_not_the_count() {
    // 2#d2: {1,1} → max(2, 0) = 2, {1,2} → max(1, 2) = 2, {2,2} → max(0, 4) = 4.
    let sum = run("let x = 2#d2 in high 1 (foreach y in 1..2 do sum (==y x))").unwrap();
    assert_eq!(sum, "  2\t3/4\t\n  4\t1/4\t\n");
    let count = run("let x = 2#d2 in high 1 (foreach y in 1..2 do count (==y x))").unwrap();
    assert_eq!(count, "  1\t1/2\t\n  2\t1/2\t\n");
}

#[test]
fn shadowing_and_other_shapes_still_agree() {
    let pairs = [
        (
            "let x = 3#d6 in high 1 (foreach x in 1..6 do sum (==x x))",
            "let x = 3#d6 in high 1 (foreach x in 1..6 do sum (==x (x,())))",
        ),
        (
            "let x = 4#d6 in high 1 (foreach y in 1..6 do sum (>=y x))",
            "let x = 4#d6 in high 1 (foreach y in 1..6 do sum (>=y (x,())))",
        ),
        // The family: other spellings, kept subsets, G depending on y, D with repeats and
        // outer variables, the foreach under `sort`, `if` and a comparison filter.
        (
            "let x = 4#d6 in low 1 (foreach y in 1..6 do count (==y x))",
            "let x = 4#d6 in low 1 (foreach y in 1..6 do count (==y (x,())))",
        ),
        (
            "let x = 5#d6 in sum (high 2 (foreach y in 1..6 do count (==y x)))",
            "let x = 5#d6 in sum (high 2 (foreach y in 1..6 do count (==y (x,()))))",
        ),
        (
            "let x = 5#d6 in sum (drop low 2 (foreach y in 1..6 do count (==y x)))",
            "let x = 5#d6 in sum (drop low 2 (foreach y in 1..6 do count (==y (x,()))))",
        ),
        (
            "let x = 4#d4 in high 1 (foreach y in 0..6 do y*10 + count (==y x))",
            "let x = 4#d4 in high 1 (foreach y in 0..6 do y*10 + count (==y (x,())))",
        ),
        (
            "let x = 4#d6 in count >1 (foreach y in (1,1,2,6,9) do (count (==y x), y))",
            "let x = 4#d6 in count >1 (foreach y in (1,1,2,6,9) do (count (==y (x,())), y))",
        ),
        (
            "let n = 5 in let x = 4#d6 in high 1 sort (foreach y in 1..n do sum (==y x))",
            "let n = 5 in let x = 4#d6 in high 1 sort (foreach y in 1..n do sum (==y (x,())))",
        ),
        (
            "let x = 3#d6 in if (foreach y in 1..3 do >1 count (==y x)) then 1 else 2",
            "let x = 3#d6 in if (foreach y in 1..3 do >1 count (==y (x,()))) then 1 else 2",
        ),
        (
            "let x = (2#d4, d6) in high 1 (foreach y in 1..6 do count (==y x))",
            "let x = (2#d4, d6) in high 1 (foreach y in 1..6 do count (==y (x,())))",
        ),
    ];
    for (a, b) in pairs {
        assert_eq!(run(a), run(b), "{a}");
    }
}

#[test]
fn pools_too_big_to_enumerate_are_computed() {
    // 40#d6 has more multisets than the general path may enumerate; the counts per face do
    // not need them, in any spelling.
    let slow = run("let x = 40#d6 in high 1 (foreach y in 1..6 do count (==y (x,())))");
    assert!(slow.is_err());
    let fast = run("let x = 40#d6 in high 1 (foreach y in 1..6 do count (==y x))").unwrap();
    let computed = run("let x = 40#d6 in high 1 (foreach y in 1..(2*3) do count (==y x))");
    assert_eq!(computed.as_ref(), Ok(&fast));
    let low = run("let x = 20#d10 in low 1 (foreach y in (0+1)..10 do count (==y x))").unwrap();
    assert!(low.starts_with("  0	"), "{low}");
    let two = run("let x = 20#d10 in sum(high 2 (foreach y in 1..10 do sum (==y x)))");
    assert!(two.is_ok(), "{two:?}");
    // The most common face shows at least ⌈40/6⌉ = 7 times, and all 40 with p = 6/6^40.
    assert!(fast.starts_with("  7\t"), "{fast}");
    assert!(
        fast.ends_with(" 40\t1/2227915756473955677973140996096\t\n"),
        "{fast}"
    );
}

#[test]
fn every_spelling_of_the_family_is_computed_from_the_counts() {
    // The pairs of `shadowing_and_other_shapes_still_agree` prove the spellings right on
    // small pools, where the general path would agree even if the counts per face were not
    // used. On 40 dice only the counts per face can answer: each spelling must succeed where
    // its `(x,())` twin (the general path) exceeds its budget.
    for body in [
        "sum (high 2 (foreach y in 1..6 do count (==y X)))",
        "sum (drop low 2 (foreach y in 1..6 do count (==y X)))",
        "high 1 (foreach y in 0..6 do y*10 + count (==y X))",
        "count >1 (foreach y in (1,1,2,6,9) do (count (==y X), y))",
        "if (foreach y in 1..3 do >9 count (==y X)) then 1 else 2",
    ] {
        let fast = format!("let x = 40#d6 in {}", body.replace('X', "x"));
        let slow = format!("let x = 40#d6 in {}", body.replace('X', "(x,())"));
        assert!(run(&fast).is_ok(), "{fast}: {:?}", run(&fast));
        assert!(
            run(&slow).is_err(),
            "{slow} no longer needs the counts per face"
        );
    }
}

#[test]
fn planned_families_agree_with_the_general_path_and_scale() {
    // Each spelling (issue 16: kept subsets, filtered pools, random counts, the foreach bound
    // by a `let`, `drop !=y`, counts and ranges computed through `let`s, a target inside
    // another foreach, two targets, other dice around it), with P the pool and X its reads.
    let bodies = [
        ("high 30 (P)", "high 1 (foreach y in 1..6 do count (==y X))"),
        (
            "drop low 1 (P)",
            "high 1 (foreach y in 1..6 do count (==y X))",
        ),
        (">1 (P)", "high 1 (foreach y in 1..6 do count (==y X))"),
        (
            "P",
            "let m = foreach y in 1..6 do count (==y X) in high 1 m",
        ),
        ("P", "high 1 (foreach y in 1..6 do count (drop !=y X))"),
        (
            "P",
            "let k = 2 in sum (high k (foreach y in 1..k*3 do sum (==y X)))",
        ),
        (
            "P",
            "let n = 6 in let m = n - 2 in high 1 (foreach y in m..n do y * count (==y X))",
        ),
        (
            "P",
            "count (foreach z in 1..2 do high 1 (foreach y in 1..6 do count (==y X)))",
        ),
        (
            "P",
            "let h = high 1 (foreach y in 1..6 do count (==y X)) in h * h",
        ),
        (
            "P",
            "sum ((high 1 (foreach y in 1..6 do count (==y X))), (low 1 (foreach y in 1..6 do count (==y X))))",
        ),
        (
            "P",
            "let h = high 1 (foreach y in 1..6 do count (==y X)) in d4 - h",
        ),
        (
            "P",
            "sum (high 2 (sort (foreach y in 1..6 do sum (==y X))))",
        ),
        (
            "P",
            "sum (low 2 (perm (rev (foreach y in 1..6 do sum (==y X)))))",
        ),
    ];
    for (pool, body) in bodies {
        // Small pools: the general path (x read as a list) is the oracle, exactly.
        for small in ["5#d6", "d3#d6", "(2#d4, 2#d6)"] {
            let value = pool.replace('P', small);
            let fast = format!("let x = {value} in {}", body.replace('X', "x"));
            let slow = format!("let x = {value} in {}", body.replace('X', "(x,())"));
            assert_eq!(run(&fast), run(&slow), "{fast}");
            assert!(run(&fast).is_ok(), "{fast}: {:?}", run(&fast));
        }
        // 40 dice (60 when a filter drops a face): only the counts per face can answer.
        let big = if pool.starts_with('>') {
            "60#d6"
        } else {
            "40#d6"
        };
        let value = pool.replace('P', big);
        let fast = format!("let x = {value} in {}", body.replace('X', "x"));
        let slow = format!("let x = {value} in {}", body.replace('X', "(x,())"));
        assert!(run(&fast).is_ok(), "{fast}: {:?}", run(&fast));
        assert!(
            run(&slow).is_err(),
            "{slow} no longer needs the counts per face"
        );
    }
}

#[test]
fn reads_that_are_not_counts_per_face_take_the_general_path() {
    // A target reading a binding made inside the body (y depends on z), x read whole next to
    // a target, or a target inside another: the plan declines and the general path answers.
    for program in [
        "let x = 4#d6 in sum (foreach z in 1..2 do high 1 (foreach y in 1..6 do z * count (==y x)))",
        "let x = 4#d6 in sum (x, high 1 (foreach y in 1..6 do count (==y x)))",
        "let x = 4#d6 in let w = d2 in high 1 (foreach y in 1..6 do w * count (==y x))",
        "let x = 4#d6 in sum (foreach y in 1..6 do count (foreach z in 1..count (==y x) do count (==z x)))",
        // A kept value read in order through `perm` is a random arrangement, not sorted.
        "let x = 4#d6 in first 1 (high 2 (perm (foreach y in 1..6 do sum (==y x))))",
    ] {
        let twin = program
            .replace("==y x", "==y (x,())")
            .replace("==z x", "==z (x,())");
        let twin = twin.replace("sum (x,", "sum ((x,()),");
        assert_eq!(run(program), run(&twin), "{program}");
        assert!(run(program).is_ok(), "{program}: {:?}", run(program));
    }
}

#[test]
fn faces_no_die_shows_count_zero_in_every_component() {
    // D values outside every die, in pools concatenated from an empty start or with a count
    // that may be 0 (components whose dice show no face at all): each such value has 0
    // matches there. Found by a random differential run against the general path.
    for program in [
        "let x = (2#d4, d6) in count (foreach y in 0..7 do sum (==y X))",
        "let x = (d2-1)#(2#d4) in let m = foreach y in 0..7 do count (==y X) - 2 in sum m",
        "let x = (d2-1)#(2#d4) in high 1 (foreach y in (0,9,9) do 10 + count (==y X))",
    ] {
        let fast = program.replace('X', "x");
        let slow = program.replace('X', "(x,())");
        assert_eq!(run(&fast), run(&slow), "{fast}");
        assert!(run(&fast).is_ok(), "{fast}");
    }
}
