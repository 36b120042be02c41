//! Evaluations per second of a medium formula set (`examples/openholdem/bench.ohf`: 5 functions,
//! 2 hand lists, over 50 operator nodes) against a fixed state. One evaluation is one run (a
//! heartbeat): the 14 autoplayer functions in order, sharing the function cache.
//!
//! `cargo bench -p alea-openholdem --bench eval`
#![allow(missing_docs)]

use alea_core::SourceFile;
use alea_openholdem::{AUTOPLAYER_FUNCTIONS, Machine, TableState, compile_file};

fn main() {
    divan::main();
}

const FORMULAS: &str = include_str!("../../../examples/openholdem/bench.ohf");
const STATE: &str = include_str!("../../../examples/openholdem/state.json");

#[divan::bench]
fn heartbeat_all_autoplayer_functions(bencher: divan::Bencher) {
    let program = compile_file(SourceFile::new("bench.ohf", FORMULAS))
        .program
        .expect("bench.ohf loads");
    let mut m = Machine::new(&program);
    m.set_state(Box::new(TableState::from_json(STATE).expect("state")));
    // Absent autoplayer functions are 0 without evaluation; the defined ones run in order.
    let ids: Vec<u32> = AUTOPLAYER_FUNCTIONS
        .iter()
        .filter_map(|f| m.function_index(f))
        .collect();
    let mut out = Vec::new();
    bencher.bench_local(|| {
        m.begin_run();
        let _ = m.eval_many(&ids, &mut out);
        divan::black_box(out.iter().sum::<f64>())
    });
}

#[divan::bench]
fn compile_medium_formula_set() -> usize {
    let p = compile_file(SourceFile::new("bench.ohf", divan::black_box(FORMULAS))).program;
    p.map_or(0, |p| p.function_names().len())
}

/// The fixed cost of a run: three trivial autoplayer functions.
#[divan::bench]
fn heartbeat_three_constant_functions(bencher: divan::Bencher) {
    let text = "##f$raise##\n1\n##f$call##\n0\n##f$betsize##\n2\n";
    let program = compile_file(SourceFile::new("t.ohf", text))
        .program
        .expect("loads");
    let mut m = Machine::new(&program);
    m.set_state(Box::new(TableState::from_json(STATE).expect("state")));
    let ids: Vec<u32> = AUTOPLAYER_FUNCTIONS
        .iter()
        .filter_map(|f| m.function_index(f))
        .collect();
    let mut out = Vec::new();
    bencher.bench_local(|| {
        m.begin_run();
        let _ = m.eval_many(&ids, &mut out);
        divan::black_box(out.iter().sum::<f64>())
    });
}
