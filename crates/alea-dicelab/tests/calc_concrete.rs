//! Calc's deterministic parts (no `d`, no `perm`) are evaluated by the one concrete evaluator
//! (issue 16): their errors and limits are roll mode's, at the same span with the same text;
//! their steps are charged to calc's budget; and a part reading a variable whose value a
//! `while` cut is marked cut exactly when the general path marks it.

mod support;

use alea_dicelab::calc::{self, CalcOptions};
use support::{exact, parse_and, roll, run};

/// Programs whose error is raised in a deterministic part, in roll mode and in calc.
const FAILING: &[&str] = &[
    "1/0",
    "let x = 1..3 in x + 1",
    "foreach y in 1..3 do 6 / (y - 2)",
    "let x = 2 in count (1..x) # (1/0)",
    "while x=1 do x",
    "sum (1..20000000)",
    "foreach y in 1..1000 do count (1..10000000)",
    "let x = 3 in if >2 x then d(x - 3) else 1",
    "first -1 (1,2,3)",
    "let x = 1 in let y = (x,x) in -y",
    "undefined + 1",
];

#[test]
fn errors_in_deterministic_parts_are_roll_modes() {
    for p in FAILING {
        let rolled = roll(p).expect_err(p);
        let calculated = run(p).expect_err(p);
        assert_eq!(calculated, rolled, "{p}");
    }
}

/// A deterministic part inside a random one: the part's error is roll mode's too, reached
/// with probability > 0 in calc (and on every roll in roll mode).
#[test]
fn errors_under_dice_are_roll_modes() {
    for p in [
        "let x = d6 in foreach y in 1..x do 1/(y - y)",
        "let x = d6 in (while z=1 do z), x",
        "let x = (1,2) in d6 + x * 2",
    ] {
        let rolled = roll(p).expect_err(p);
        let calculated = run(p).expect_err(p);
        assert_eq!(calculated, rolled, "{p}");
    }
}

/// Each evaluation of a deterministic body stays within roll mode's limit, and calc's budget,
/// charged with their steps, stops the statement.
#[test]
fn deterministic_steps_are_charged_to_the_budget() {
    let p = "let x = d1000 in count (1..(x * 100)) + x";
    let few = CalcOptions {
        max_steps: 1_000_000,
        ..CalcOptions::default()
    };
    let e = parse_and(p, |s| {
        calc::calculate(s, &few).map(|_| ()).map_err(|d| d.message)
    })
    .expect_err("more steps than the budget");
    assert_eq!(
        e,
        "calc limit in 'evaluation': evaluation exceeded the step limit of 1000000"
    );
    assert!(run(p).is_ok());
}

/// `X` read as itself (deterministic parts compiled) and as `(x, 0#d1)` (the same value, but
/// with a die: every node around it takes calc's general path).
fn both(program: &str) -> (String, String) {
    (
        exact(&program.replace('X', "x")),
        exact(&program.replace('X', "(x, 0#d1)")),
    )
}

#[test]
fn cut_flags_match_the_general_path() {
    for p in [
        // x is cut on some paths and read on some branches only: the compiled part is
        // marked cut whenever x is, the general path only where x is read, and the `let`
        // binding x marks its whole body cut either way.
        "let x = count (while z=d6 do ((count <6 z)#d6)) in let b = d2 in if ==1 b then X else 0",
        "let x = count (while z=d6 do ((count <6 z)#d6)) in let b = d3 in if >1 b then b + sum X else b + 7",
        "let x = sum(while z=3#d6 do ((count ==6 z)#d6)) in sum (foreach y in 1..2 do (if ==1 y then X else y))",
        "let x = while z=d4 do ((count ==4 z)#d4) in count (foreach y in 1..3 do (>y X))",
        // A deterministic keep count and a filter reading the cut value.
        "let x = count (while z=d6 do ((count <6 z)#d6)) in high 1 (d6, d6, X)",
        "let x = count (while z=d6 do ((count <6 z)#d6)) in let w = 1 + sum X in d4 + w",
    ] {
        let (compiled, general) = both(p);
        assert_eq!(compiled, general, "{p}");
        assert!(!compiled.ends_with("truncated 0\n"), "{p}: {compiled}");
    }
}

/// The cut mass of a body that reads a cut variable on one branch only is the variable's.
#[test]
fn cut_mass_of_a_branch_read() {
    let w = "count (while z=d6 do ((count <6 z)#d6))";
    let alone = exact(w);
    let mass = alone.lines().last().unwrap().to_string();
    let branch = exact(&format!(
        "let x = {w} in let b = d2 in if ==1 b then x else 0"
    ));
    assert_eq!(branch.lines().last().unwrap(), mass);
}

/// Values fixed for nodes while a body is evaluated (counts per face, filter reads) reach
/// deterministic parts around those nodes: such parts take the general path then, with the
/// same result as when nothing is fixed (`(x, 0#d1)` defeats the fixing plans).
#[test]
fn fixed_values_inside_deterministic_parts() {
    for p in [
        "let x = 5#d6 in 1 + sum (high 1 (foreach y in 1..6 do count (==y X)))",
        "let x = 5#d6 in (count (>3 X)) * 2 + (count (<2 X))",
        "let x = 4#d6 in let z = 3#d6 in count (>3 X) + count (>4 z)",
        "let x = 4#d6 in let z = 3#d6 in sum (high 1 (foreach y in 1..6 do count (==y X))) + count (>4 z)",
        "let x = 6#d4 in let n = 2 in sum (high n (foreach y in 1..4 do count (==y X)))",
    ] {
        let (fixed, general) = both(p);
        assert_eq!(fixed, general, "{p}");
    }
}
