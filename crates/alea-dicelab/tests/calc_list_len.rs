//! A list longer than roll mode's limit is roll mode's error in calc too (issue 16): the same
//! text and the span of the node where the roll fails (the append that crosses the limit),
//! in the general (random) path as in the parts without dice. Every program here fails on
//! every roll, so roll mode's error does not depend on the seed.

mod support;

use support::{roll, run};

const FAILING: &[&str] = &[
    // A range, alone or after other parts of the list.
    "1..(d6*100000000)",
    "(d6, 1..10000000)",
    "(1..5000000, 1..(d2*6000000))",
    "sort (d6, 1..10000000)",
    "count (1..9999998, >3 (3#d6))",
    // `n#dK` checks its whole count at the `#`; other bodies fail at the copy that crosses.
    "100000000#d6",
    "d2*100000000#d6",
    "sum 20000000#d6",
    "sum (5000000#d6, 6000000#d6)",
    "(1..6000000, 6000000#d2)",
    "first 3 (20000000#d6)",
    "20000000#(d6+0)",
    "20000000#(d6,d6)",
    "3333334#(d2,d2,d2)",
    "let n = 20000000 + d2 in n#(d6+0)",
    // The body of a `foreach`, a `let`, a `while`.
    "foreach x in (d2, 2) do 1..(5000000+x)",
    "let x = d6 in (x, 1..10000000)",
    "while x = 1..(1000*d2) do (x, x)",
];

#[test]
fn list_length_errors_are_roll_modes() {
    for p in FAILING {
        let rolled = roll(p).expect_err(p);
        assert!(rolled.contains("list too long"), "{p}: {rolled}");
        let calculated = run(p).expect_err(p);
        assert_eq!(calculated, rolled, "{p}");
    }
}
