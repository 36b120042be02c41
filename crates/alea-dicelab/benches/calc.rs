//! The exact engine on the pool suite of issue 3 and the man-page examples (dicelab.md §5.3,
//! §9). `cargo bench -p alea-dicelab --bench calc`; scripts/bench-dicelab-calc.sh runs it next
//! to icepool and dicelab 0.7.

use alea_core::SourceFile;
use alea_dicelab::calc::{self, CalcOptions};

fn main() {
    divan::main();
}

/// The pool suite: 0.7 takes over a minute on each.
const POOL_SUITE: &[&str] = &[
    "sum(high 3 (20#d6))",
    "count >7 50#d10",
    "high 1 100#d20",
    "sum(high 3 (100#d6))",
    "let x = 7#d10 in high 1 (foreach y in 1..10 do sum (==y x))",
    "sum(100#d6)",
    "6#sum(drop low 1 4#d6)",
];

/// Man-page examples (dicelab.md §9) that 0.7 computes.
const MAN_PAGE: &[&str] = &[
    "count >7 5#d10",
    "let c=5#d10 in (count >7 c)-(count ==1 c)",
    "count (while x=d6 do ((count <6 x)#d6))",
    "d6.d6",
    "high 1 low 2 3#d20",
    "sum(while x=3#d6 do ((count ==6 x)#d6))",
    "let a = 3#d6 in let b = 2#d6 in count( (<(high 1 a) high 1 b), (<(high 1 low 2 a) low 1 b))",
];

fn calc_one(program: &str) -> usize {
    let file = SourceFile::new("<bench>", program);
    let (prog, errors) = alea_dicelab::parse(&file);
    assert!(errors.is_empty());
    match calc::calculate(&prog.statements[0], &CalcOptions::default()) {
        Ok(r) => r.render_dicelab(false).len(),
        Err(d) => d.message.len(),
    }
}

#[divan::bench(args = POOL_SUITE, sample_count = 10)]
fn pool_suite(program: &str) -> usize {
    calc_one(divan::black_box(program))
}

#[divan::bench(args = MAN_PAGE, sample_count = 10)]
fn man_page(program: &str) -> usize {
    calc_one(divan::black_box(program))
}
