//! Evaluations per second of a medium formula set (`examples/openholdem/bench.ohf`: 5 functions,
//! 2 hand lists, over 50 operator nodes) against a fixed state. One evaluation is one run (a
//! heartbeat): the 14 autoplayer functions in order, sharing the function cache.
//!
//! The OpenPPL-sized profile (issue 12): a generated library of 2,900 OpenPPL functions in 29
//! files (WHEN rules, open-ended guards, actions, expressions, calls between them) and a bot
//! with the four main functions; loading it, and one run of the main functions.
//!
//! `cargo bench -p alea-openholdem --bench eval`
#![allow(missing_docs)]

use alea_core::SourceFile;
use alea_openholdem::{
    AUTOPLAYER_FUNCTIONS, Machine, Program, TableState, compile_file, compile_profile,
};

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

/// Functions of the generated library (OH 14's OpenPPL library and a bot: about 3,000).
const LIBRARY_FUNCTIONS: usize = 2_900;

/// The generated profile: 29 library files of 100 functions, then the bot. Each function
/// calls lower-numbered ones only, so the profile has no cycle; on the bench's table every
/// function's rules reach the next lower one, so a run of the main functions evaluates all
/// 2,900 (the worst case: a real bot reaches a fraction of its library).
fn openppl_profile() -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut text = String::new();
    for i in 0..LIBRARY_FUNCTIONS {
        // The first functions have no lower ones to call: they use a constant.
        let call = |k: usize| {
            if i >= k {
                format!("Lib{}", i - k)
            } else {
                "1".to_string()
            }
        };
        let (a, b) = (call(1), call(3));
        let body = match i % 4 {
            0 => format!(
                "WHEN betround >= {} RETURN {a} + call FORCE\nWHEN Others RETURN pot / bblind FORCE\n",
                1 + i % 2
            ),
            1 => format!("(balance / bblind > {}) AND {b} OR $AKs\n", i % 50),
            2 => format!(
                "WHEN call >= {}\n  WHEN {a} RaiseBy 50% FORCE\n  WHEN Others Call FORCE\nWHEN Others Fold FORCE\n",
                i % 4
            ),
            _ => format!("nplayersplaying * {} + {a} - {b}\n", i % 7),
        };
        text.push_str(&format!("##Lib{i}##\n// generated\n{body}"));
        if i % 100 == 99 {
            files.push(SourceFile::new(
                format!("lib{}.ohf", i / 100),
                std::mem::take(&mut text),
            ));
        }
    }
    let top = LIBRARY_FUNCTIONS - 1;
    let bot = format!(
        "##f$preflop##\nWHEN Lib{top} > 100 RaiseTo 3 FORCE\nWHEN Others Call FORCE\n\
         ##f$flop##\nWHEN Lib{} RaiseBy 75% FORCE\nWHEN Others Check FORCE\n\
         ##f$turn##\nWHEN Lib{} > 0\n  WHEN Lib{} RaisePot FORCE\nWHEN Others Fold FORCE\n\
         ##f$river##\nWHEN Others RETURN Lib{top} FORCE\n",
        top - 1,
        top - 2,
        top - 3
    );
    files.push(SourceFile::new("bot.ohf", bot));
    files
}

fn load_openppl_profile() -> Program {
    compile_profile(openppl_profile(), None)
        .program
        .expect("the generated profile loads")
}

/// Loading about 3,000 functions (target: under 100 ms).
#[divan::bench]
fn load_openppl_sized_profile(bencher: divan::Bencher) {
    bencher.with_inputs(openppl_profile).bench_values(|files| {
        compile_profile(files, None)
            .program
            .map_or(0, |p| p.function_names().len())
    });
}

/// One run of `f$preflop` … `f$river` on that profile (target: under 1 ms).
#[divan::bench]
fn heartbeat_openppl_main_functions(bencher: divan::Bencher) {
    let program = load_openppl_profile();
    let mut m = Machine::new(&program);
    m.set_state(Box::new(TableState::from_json(STATE).expect("state")));
    let ids: Vec<u32> = ["f$preflop", "f$flop", "f$turn", "f$river"]
        .iter()
        .map(|f| m.function_index(f).expect("defined"))
        .collect();
    let mut out = Vec::new();
    bencher.bench_local(|| {
        m.begin_run();
        let _ = m.eval_many(&ids, &mut out);
        divan::black_box(out.iter().sum::<f64>())
    });
}
