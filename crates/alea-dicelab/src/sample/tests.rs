//! The compiled evaluator against the test oracle (the tree-walking roller, [`super::oracle`]):
//! roll by roll the same value or the same error (span and text), and the same draws, in
//! roll mode and in eval mode.

use super::cx::{div_k, select};
use super::oracle::Oracle;
use super::*;
use crate::ast::Selector;
use alea_core::{Rng, SourceFile};
use proptest::prelude::*;

/// Rolls `program` `rolls` times both ways from `seed`, in eval mode and in roll mode; panics
/// on the first difference. Returns how many eval-mode rolls failed.
fn agree(program: &str, seed: u64, rolls: usize) -> usize {
    let file = SourceFile::new("<t>", program);
    let (p, errors) = crate::parse(&file);
    assert!(errors.is_empty(), "{program}: {errors:?}");
    agree_parsed(program, &p, seed, rolls)
}

fn agree_parsed(program: &str, p: &crate::Program, seed: u64, rolls: usize) -> usize {
    let mut failed = 0;
    for statement in &p.statements {
        let mut sampler = Sampler::new(statement);
        let mut oracle = Oracle::new();
        let mut buf = Vec::new();
        let mut a = Rng::seed_from_u64(seed);
        let mut b = a.clone();
        for i in 0..rolls {
            let expected = oracle.roll_single(statement, &mut b, &mut buf);
            let got = sampler.roll_single(&mut a);
            failed += usize::from(expected.is_err());
            assert_eq!(got, expected, "{program}, eval roll {i}");
            assert_eq!(a, b, "{program}, eval roll {i}: draws differ");
        }
        many_agrees(program, statement, seed, rolls);
        let mut out = Vec::new();
        for i in 0..rolls.min(50) {
            let expected = oracle
                .roll_into(statement, &mut b, &mut buf)
                .map(|()| buf.clone());
            let got = sampler.roll_into(&mut a, &mut out).map(|()| out.clone());
            assert_eq!(got, expected, "{program}, roll {i}");
            assert_eq!(a, b, "{program}, roll {i}: draws differ");
        }
    }
    failed
}

/// Eval's batch loop ([`Sampler::roll_many`]) gives the values and the first error of
/// [`Sampler::roll_single`] one roll after another, with the same draws.
fn many_agrees(program: &str, statement: &crate::ast::Statement, seed: u64, rolls: usize) {
    let mut single = Sampler::new(statement);
    let mut a = Rng::seed_from_u64(seed);
    let mut expected = Vec::new();
    let mut expected_err = None;
    for _ in 0..rolls {
        match single.roll_single(&mut a) {
            Ok(v) => expected.push(v),
            Err(e) => {
                expected_err = Some(e);
                break;
            }
        }
    }
    let mut many = Sampler::new(statement);
    let mut b = Rng::seed_from_u64(seed);
    let mut got = Vec::new();
    // In uneven batches, as eval's loop calls it.
    let mut left = rolls as u64;
    let mut got_err = None;
    let mut batch = 1;
    while left > 0 && got_err.is_none() {
        let n = batch.min(left);
        got_err = many.roll_many(&mut b, n, |v| got.push(v)).err();
        left -= n;
        batch = batch * 3 + 1;
    }
    assert_eq!(got, expected, "{program}: batch values");
    assert_eq!(got_err, expected_err, "{program}: batch error");
    assert_eq!(a, b, "{program}: batch draws differ");
}

#[test]
fn man_page_examples_agree() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/dicelab");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("examples") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        agree(&text, 11, 2_000);
        n += 1;
    }
    assert!(n >= 10);
}

#[test]
fn tricky_programs_agree() {
    let programs = [
        "d6.d6",
        "d6 - d6, d1 . d20, d3 / d2, d4 % d3, d2 ^ d6, 3#(d6 * d4), sum (d10 . d10)",
        "-d6 + 2*d4 - d8/d3 % 3 ^ 2",
        "d(d6)",
        "d20/3, (d20-10)/7, (0-2147483647-1)/2, (0-2147483647-1)/3, 2147483647/2147483647",
        "(d6-4)/2 . d3, (0-d6) . 0, (0-2147483647-1) . 12345, 2147483647 . 2147483647",
        "(d6-3) . (d3-2)",
        "d(d3-2)",
        "1/(d2-1)",
        "d6 . (d3-2)",
        "perm 1..5",
        "sum perm (1..5)",
        "count sort (3#d6, 2#d4)",
        "first 1 rev 3#d6",
        "last 1 perm (d6,d6,d6)",
        "sum(drop low 1 4#d6)",
        "prod (drop high 1 3#d4)",
        "count (keep low (d3-2) 3#d6)",
        "sum (first 2 3#d6), sum (last 1 (d6, d4)), count (high 2 (d6, (), d4))",
        "sum (drop high 2 (5#d6, 3))",
        "let y = high 1 ((d3-2)#d6) in d y",
        "low 1 (let x = 3#d6 in x)",
        "let x = 3#d6 in let h = high 1 x in let l = low 1 x in h - l",
        "sum(keep high 2 (d6, d8, d10))",
        "high 1 low 2 3#d20",
        // List-context extremes: of a variable (read in place), of nothing, of a selection
        // whose order they ignore, and that selection's order where it is kept.
        "let a = 3#d6 in (high 1 a, low 1 a, high 1 (), high 1 low 2 a, low 1 drop high 1 a)",
        "let b = (d3-1)#d6 in low 1 b, high 1 high 2 (d3-1)#d4, first 1 low 2 (d6, d6, d6)",
        // Comparison filters of one member (kept or dropped in place), of none and of more.
        "(<3 d6), (>= d4 high 1 (d3-1)#d6), count (== 2 low 1 3#d4), (!= 2 (d3, d3))",
        // A selection into an empty output (in place) and after other members (via a buffer).
        "let x = drop high 1 3#d6 in (first 1 x, d6, high 2 3#d6, last 1 low 3 4#d4)",
        "low (d3-2) 3#d6",
        "sum (first (d4-2) 5#d6)",
        "(d6-3)#d6",
        "sum ((d3)#(d6, d4))",
        "count ((d3-1)#(>3 2#d6))",
        "x",
        "let x = 3#d6 in x",
        "let x = d6 in x",
        "let x = () in x",
        "let x = 2#d6 in x + 1",
        "let x = (let y = d6 in y+1) in (let y = d4 in x*y)",
        "let a = d6 in let b = (let c = d3 in c+a) in a+b",
        "if >3 d6 then d4 else ()",
        "if (d2 - 1)#1 then 1 else 2#d6",
        "sum (if ==1 d2 then 3#d6 else 2#d6)",
        "foreach y in 1..d6 do y*d2",
        "sum(foreach y in 3#d6 do (y, d4))",
        "let x = 7#d10 in high 1 (foreach y in 1..10 do sum (==y x))",
        "count (while x=d6 do ((count <6 x)#d6))",
        "sum (while x=3#d6 do ((count ==6 x)#d6))",
        "count (while x = d2 do (>1 x))",
        "sum (let x = 1..3 in foreach z in x do (x, z))",
        "prod (2#d3)",
        "prod (>1 4#d3)",
        "count (!= 2 (1,2,3)), sum (<= 2 (1,2,3)), sum (>= 2 (1,2,3))",
        "sum(drop == 3 5#d4)",
        "d0",
        "3#d0",
        "count(1..3)#(d6,())",
        "()",
        "2#()",
        "-(sum (d3..d6))",
        "sum(foreach v in 3#d6 do -v)",
        "count ==d6 d6",
        // Folds over n#dK without a list, and comparisons on one value.
        "count >3 (d6-3)#d6, prod (<3 4#d4), sum (drop != 2 3#d3), count (drop >= 4 5#d6)",
        "sum (0-2)#d6, prod 0#d6, count >(1/0) 3#d6, sum (d0)#d6",
        "count >10 sum keep high 2 3#d6, sum (<= 3 d6), prod (drop == 2 d3), count (> 1 (1/0))",
        "let x = d6 in count == x 4#d6",
        // Chains of prefix operators, compiled flat.
        "sum sum d6, count sum prod (d3), - - d6, d d d6, sum count sum 3#d6, prod -(-(d4+1))",
        "d -(-(d3-2))",
        "sum sum -(1/0)",
        "d d (d3 - 1)",
        "let x = 1,2 in sum sum -x",
        // Pools of a literal size (straight-line fills for 2 to 8 dice, the loop beyond).
        "sum(2#d6), 3#d6, sum(4#d6), count >2 (5#d4), 6#d3, high 1 (7#d10), 8#d2, 9#d6, 1#d6",
        "let x = 4#d8 in sum(high 2 x) - sum(low 1 x)",
        "let y = 0#d6 in count y",
        "sum(2#d0)",
        "(d3-1)#(2#d6), sum(5#(d6, 2#d4)), let p = 3#d6 in sum (while x=p do ((count ==6 x)#d6))",
        // `n#e` with a single-value `e` (its own call in the fast mode).
        "count (while x=(d6/6) do ((count <1 x)#(d6/6))), sum(d3#(d6/2)), (d3-2)#d4+1",
        "sum(d3#(1/(d2-1)))",
        // Two dice and an operator as the whole statement (the roll loop evaluates the node).
        "d20 ^ d20",
        "d7 % d3",
        "d6 / d2",
        "d10 * d10",
        // A comparison filter of an extreme (the member tested before it is pushed).
        "(<3 high 1 ()), (>= d4 low 1 3#d6), count (== 2 high 1 (d3,d3))",
        "let a = 3#d6 in let b = 2#d6 in count((<(high 1 a) high 1 b), (<(high 1 low 2 a) low 1 b))",
        "let a = 3#d6 in (> (1/(d2-1)) high 1 a)",
        "let x = 4#d6 in (>2 low 1 drop high 1 x), (!=3 high 1 low 2 x)",
        // Folds of a bound variable's comparison filter (the loop chosen by the compiler).
        "let x = 5#d6 in (sum (==2 x), prod (>3 x), count (<=4 x), sum (drop >= 3 x))",
        "let x = (d3-1)#d4 in (count (!= 1 x), prod (drop < 2 x), sum (>(1/(d2-1)) x))",
    ];
    for p in programs {
        agree(p, 5, 200);
    }
    // Long lists, near and past the list limit: a few rolls.
    let heavy = [
        "count (1..20000000)",
        "count (30000#(1..500))",
        "count (10#(1..100000000))",
        "sum(20000#d6)",
        "count (foreach i in 1..1000 do 1..i)",
        "count (while x = 1 do x)",
        "count (while x = d2 do (while y = x do (<2 y)))",
    ];
    for p in heavy {
        agree(p, 5, 2);
    }
}

#[test]
fn step_limit_errors_agree() {
    // 100M steps pass the limit only at the very end of the roll: the fast mode's costs
    // charged ahead pass it first, and the precise rerun must report it where the oracle does.
    assert_eq!(agree("count (2000#(1..800000))", 1, 1), 1);
    assert_eq!(agree("sum(30000000#d2)", 1, 1), 1);
    // The error that comes first wins: a division by zero before the limit is reached.
    assert_eq!(agree("count (20000000#(1/0))", 1, 1), 1);
    assert_eq!(agree("count (200000000#(1/0, d6))", 1, 1), 1);
    assert_eq!(agree("count (9000000#d6, 2000000#(1))", 1, 1), 1);
    assert_eq!(agree("count (9000000#d6, 900000#(1))", 1, 1), 0);
    // Past the limit inside literal pools (the fast mode's charge, then the precise rerun).
    assert_eq!(agree("count(9000000#(sum(8#d2)))", 1, 1), 1);
    assert_eq!(agree("count(6000000#(3#d2))", 1, 1), 1);
    assert_eq!(agree("count(30000000#(d2/2))", 1, 1), 1);
    // The list limit passed by an extreme's member, which its filter keeps.
    assert_eq!(agree("count(10000001#(<7 low 1 (d6,d6)))", 1, 1), 1);
    // The precise rerun of a bound variable's folds.
    let p = "let x = 3#d6 in count(9000000#((count >3 x) + (sum (<5 x)) + (prod (==2 x))))";
    assert_eq!(agree(p, 1, 1), 1);
    // A foreach's bodies are charged ahead at once (past the limit here): the division by
    // zero in the first member is the error.
    let p = "count (foreach y in 9000000#1 do y/(y-1)+y+y+y+y+y+y+y+y+y+y+y+y+y+y)";
    assert_eq!(agree(p, 1, 1), 1);
}

fn list_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (2u32..7).prop_map(|k| format!("(d{k})")),
        (0u32..4, 2u32..5).prop_map(|(n, k)| format!("({n}#d{k})")),
        (-1i32..4).prop_map(|n| format!("({n})")),
        Just("()".to_string()),
        Just("v".to_string()),
        Just("z".to_string()),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} + {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} / {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} . {b})")),
            inner.clone().prop_map(|e| format!("(d{e})")),
            (0u32..3, inner.clone()).prop_map(|(n, e)| format!("(high {n} {e})")),
            (inner.clone(), inner.clone()).prop_map(|(n, e)| format!("(drop low {n} {e})")),
            (inner.clone(), inner.clone()).prop_map(|(n, e)| format!("(> {n} {e})")),
            (inner.clone(), inner.clone()).prop_map(|(n, e)| format!("(count == {n} {e})")),
            (inner.clone(), inner.clone()).prop_map(|(n, e)| format!("(sum <= {n} {e})")),
            (0u32..2, inner.clone()).prop_map(|(n, e)| format!("(first {n} {e})")),
            (inner.clone(), inner.clone()).prop_map(|(n, e)| format!("({n}#{e})")),
            inner.clone().prop_map(|e| format!("(sum {e})")),
            inner.clone().prop_map(|e| format!("(perm {e})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}..{b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("(if {c} then {a} else {b})")),
            (inner.clone(), inner.clone()).prop_map(|(e, b)| format!("(foreach v in {e} do {b})")),
            (inner.clone(), inner.clone()).prop_map(|(e, b)| format!("(let z = {e} in {b})")),
            inner.prop_map(|e| format!("(count (while v = {e} do (<2 v)))")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_programs_agree(e in list_expr(), seed in 0u64..1000) {
        // The generator writes some programs the grammar rejects (`d()`); skip those.
        let file = SourceFile::new("<t>", &e);
        let (p, errors) = crate::parse(&file);
        if errors.is_empty() {
            agree_parsed(&e, &p, seed, 20);
        }
    }
}

proptest! {
    #[test]
    fn select_matches_ops(
        list in proptest::collection::vec(1i32..5, 0..9),
        n in 0usize..10,
        high in any::<bool>(),
        drop in any::<bool>(),
    ) {
        let sel = if high { Selector::High } else { Selector::Low };
        let mut expected = list.clone();
        ops::select_count(sel, drop, n, &mut expected, &mut Vec::new());
        let mut got = list.clone();
        select(sel, drop, n, &mut got, &mut Vec::new(), true);
        prop_assert_eq!(&got, &expected);
        let mut unordered = list.clone();
        select(sel, drop, n, &mut unordered, &mut Vec::new(), false);
        unordered.sort_unstable();
        expected.sort_unstable();
        prop_assert_eq!(unordered, expected);
    }
}

proptest! {
    #[test]
    fn div_k_matches_division(a in any::<i32>(), d in 2i32..=i32::MAX) {
        prop_assert_eq!(div_k(a, u64::MAX / d as u64 + 1), a.wrapping_div(d));
    }
}

#[test]
fn div_k_edges() {
    for d in [2i32, 3, 6, 7, 10, 1 << 30, i32::MAX] {
        let m = u64::MAX / d as u64 + 1;
        for a in [
            i32::MIN,
            i32::MIN + 1,
            -7,
            -1,
            0,
            1,
            5,
            6,
            7,
            i32::MAX - 1,
            i32::MAX,
        ] {
            assert_eq!(div_k(a, m), a.wrapping_div(d), "{a} / {d}");
        }
    }
}
