//! A random number of copies of a pool (`sum d6#3#d6`: d6 lists of three d6) stays a pool, a
//! mixture over the count (calc/eval.rs `repeat_pool`), instead of enumerating every multiset
//! of up to 18 dice (which ran out of steps). The oracles: dicelab 0.7's own output, and the
//! general path, reached by the same program under an order-sensitive `first`.

use alea_core::SourceFile;
use alea_dicelab::calc::{self, CalcOptions};

fn run(program: &str) -> String {
    let file = SourceFile::new("<test>", program);
    let (prog, errors) = alea_dicelab::parse(&file);
    assert!(errors.is_empty(), "{program}: syntax errors {errors:?}");
    calc::calculate(&prog.statements[0], &CalcOptions::default())
        .map(|r| r.render_dicelab(true))
        .unwrap_or_else(|d| panic!("{program}: {}", d.message))
}

fn run_float(program: &str) -> String {
    let file = SourceFile::new("<test>", program);
    let (prog, _) = alea_dicelab::parse(&file);
    calc::calculate(&prog.statements[0], &CalcOptions::default())
        .map(|r| r.render_dicelab(false))
        .unwrap_or_else(|d| panic!("{program}: {}", d.message))
}

#[test]
fn sum_of_a_random_number_of_pools_is_what_dicelab_prints() {
    // `dicelab -c <<< 'sum d6#3#d6'` (0.7, Debian package), 106 lines.
    let want = include_str!("calc/sum_d6_3_d6.dicelab07.txt");
    assert_eq!(run_float("sum d6#3#d6"), want);
    // d6 copies of three dice are 3·d6 dice.
    assert_eq!(run("sum d6#3#d6"), run("sum (3*d6)#d6"));
}

#[test]
fn pool_path_equals_the_general_path() {
    // `first 1000` keeps every member but marks the list ordered, which takes the general
    // (enumerating) path; the value is the same list.
    for (agg, pool) in [
        ("sum", "d3#(d2#d4)"),
        ("count >2", "d3#(d2#d4)"),
        ("sum", "2#(d3#d4)"),
        ("high 1", "d3#2#d4"),
        ("sum", "(d3-1)#(d2#d3)"),
        ("count ==1", "(d2+1)#(d2#d3, d2)"),
        ("sum", "d2#(1..d2)"),
    ] {
        let fast = format!("{agg} {pool}");
        let slow = format!("{agg} first 1000 ({pool})");
        assert_eq!(run(&fast), run(&slow), "{fast}");
    }
}

#[test]
fn first_and_last_of_identical_dice_are_fewer_dice() {
    // Any k of n independent identical dice, in order, are k such dice: no enumeration of the
    // 6^20 sequences of 20#d6 (calc/eval.rs `positional_repeat`).
    for (program, same_as) in [
        ("sum(first 3 (20#d6))", "sum(3#d6)"),
        ("first 1 (20#d10)", "d10"),
        ("sum(drop first 17 (20#d6))", "sum(3#d6)"),
        ("sum(last 2 (1000#d20))", "sum(2#d20)"),
        ("sum(first 5 (3#d6))", "sum(3#d6)"),
    ] {
        assert_eq!(run(program), run(same_as), "{program}");
    }
    // Random counts, ordered reads and other lists: the general path (the list written with
    // a trailing `()`, which is not `n#die`) is the oracle.
    for program in [
        "count >3 (last 3 (d5#d6))",
        "sum(drop first 2 (d4#d3))",
        "first 1 (rev (first 2 (3#d4)))",
        "sum (first 2 (3#(d6,d4)))",
        "high 1 (first 2 (d3#(2#d4)))",
    ] {
        let general = program
            .replace("(d5#d6)", "((d5#d6),())")
            .replace("(d4#d3)", "((d4#d3),())")
            .replace("(3#d4)", "((3#d4),())")
            .replace("(3#(d6,d4))", "((3#(d6,d4)),())")
            .replace("(d3#(2#d4))", "((d3#(2#d4)),())");
        assert_ne!(program, general);
        assert_eq!(run(program), run(&general), "{program}");
    }
}

#[test]
fn foreach_over_a_pool_maps_each_die() {
    // `foreach y in POOL do G` read as a multiset, G one value per face: a pool of mapped dice
    // (calc/eval.rs `map_pool`). The twin `foreach y in (POOL, ()) do G` lists the multisets.
    for (pool, body) in [
        ("4#d6", "y*y"),
        ("4#d6", "y+d2"),
        ("d3#d4", "7-y"),
        ("(2#d4, 2#d6)", "d(y)"),
    ] {
        for agg in ["sum", "count >3", "high 1", "sum (low 2"] {
            let close = if agg.contains('(') { ")" } else { "" };
            let fast = format!("{agg} (foreach y in {pool} do {body}){close}");
            let slow = format!("{agg} (foreach y in (({pool}),()) do {body}){close}");
            assert_eq!(run(&fast), run(&slow), "{fast}");
        }
    }
    // Bodies that are not one value per face take the general path.
    for program in [
        "sum (foreach y in 3#d6 do if >3 y then y else ())",
        "sum (foreach y in 3#d6 do (y,y))",
    ] {
        let slow = program.replace("in 3#d6", "in ((3#d6),())");
        assert_eq!(run(program), run(&slow), "{program}");
    }
    // 100 dice: a convolution, where listing the multisets exceeds the budget.
    let fast = run("sum (foreach y in 100#d6 do y*y)");
    let file = SourceFile::new("<t>", "sum (foreach y in ((100#d6),()) do y*y)");
    let (prog, _) = alea_dicelab::parse(&file);
    assert!(calc::calculate(&prog.statements[0], &CalcOptions::default()).is_err());
    assert!(fast.starts_with("100\t1/653318623500070906096690267158057820537143710472954871543071966369497141477376\t\n"), "{}", &fast[..80]);
}
