//! `high k (n#die)` and `low k (n#die)` read in order (calc/kept.rs, issue 16): the kept dice
//! in the order they were rolled, from the counts per face instead of the die^n sequences, so
//! `sum(first 1 (high 3 (20#d6)))` is computed where listing 6^20 sequences is not. Oracles:
//! the general path (the twin writes the pool as `(n#die, ())`, the same list, which is not
//! `n#die` itself), a hand-enumerated case, and 0.7 byte for byte on small pools
//! (crates/alea-cli/tests/dicelab_calc_faces.rs).

mod support;
use support::{exact, run};

use alea_core::SourceFile;
use alea_dicelab::calc::{self, CalcOptions, Outcome};

#[test]
fn kept_dice_in_order_agree_with_the_general_path() {
    for pool in ["6#d6", "7#d3", "5#d4", "5#(d4+d4)", "6#(d3*2)"] {
        for body in [
            "first 1 (high 3 X)",
            "sum (first 2 (high 3 X))",
            "first 1 (low 2 X)",
            "last 1 (high 2 X)",
            "sum (drop first 1 (high 3 X))",
            "first 1 (high 1 X)",
            "first 1 (high 4 X)",
            "sum (last 2 (low 4 X))",
            "first 1 (high 0 X)",
            // k = n: every die is kept, the general path either way.
            "first 1 (high 5 X)",
        ] {
            let fast = body.replace('X', &format!("({pool})"));
            let general = body.replace('X', &format!("(({pool}), ())"));
            assert_eq!(run(&fast), run(&general), "{fast}");
        }
    }
    // Errors of the count or the die are the general path's.
    for body in ["first 1 (high 3 X)", "first 1 (low (1/0) X)"] {
        for pool in ["4#d0", "(1/0)#d6"] {
            // The same columns in both.
            let fast = body.replace('X', &format!("(({pool}))"));
            let general = body.replace('X', &format!("(({pool}), ())"));
            let r = run(&fast);
            assert!(r.is_err(), "{fast}");
            assert_eq!(r, run(&general), "{fast}");
        }
    }
}

#[test]
fn hand_enumerated_ties_keep_the_earliest() {
    // 3#d2, the 8 sequences: 111 -> [1,1], 112 -> [1,2], 121 -> [1,2], 211 -> [2,1], and the
    // four with two or three 2s -> [2,2]; the first kept is 1 in 3 of 8.
    assert_eq!(
        exact("first 1 (high 2 (3#d2))"),
        "  1\t3/8\t\n  2\t5/8\t\ntruncated 0/1\n"
    );
}

#[test]
fn big_pools_are_computed() {
    let file = SourceFile::new("<test>", "sum(first 1 (high 3 (20#d6)))");
    let (prog, _) = alea_dicelab::parse(&file);
    let r = calc::calculate(&prog.statements[0], &CalcOptions::default()).unwrap();
    // The first of the three kept dice is a 6 at least when all three are 6s, and at most
    // when one of them is: between P(three 6s) and P(at least one 6).
    let p = r.probability(Outcome::Value(6)).to_f64();
    let sixes = |i: i32| {
        let choose = (0..i).fold(1.0, |c, j| c * f64::from(20 - j) / f64::from(j + 1));
        choose * (1.0f64 / 6.0).powi(i) * (5.0f64 / 6.0).powi(20 - i)
    };
    let at_least_three = 1.0 - sixes(0) - sixes(1) - sixes(2);
    let at_least_one = 1.0 - sixes(0);
    assert!(at_least_three < p && p < at_least_one, "{p}");
    // With one kept die, the first is the highest.
    assert_eq!(exact("first 1 (high 1 (20#d6))"), exact("high 1 (20#d6)"));
    // On 8 dice, the general path still agrees.
    assert_eq!(
        exact("sum(first 1 (high 3 (8#d4)))"),
        exact("sum(first 1 (high 3 ((8#d4), ())))")
    );
}
