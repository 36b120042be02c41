#![no_main]
//! Fuzz target for OpenHoldem formulas: the lexer, the parser, `.ohf` sections and lists, name
//! resolution, cycle detection, and evaluation (with and without trace) against a fixed state.
//! The input is used both as a whole formula file and as an `-e` expression. Card symbols use
//! the default evaluator (alea-cards); prwin is capped at a few iterations so a formula asking
//! for a billion cannot stall the fuzzer.

use alea_core::SourceFile;
use alea_openholdem::{Machine, RunOptions, TableState, compile_expr, compile_file};
use libfuzzer_sys::fuzz_target;

const STATE: &str = r#"{"nchairs": 6, "userchair": 2, "dealerchair": 5, "sblind": 0.5, "bblind": 1,
 "pots": [6], "hero": ["Ah", "Kh"], "board": ["Qh", "Jh", "2c"],
 "players": [{"chair": 1, "balance": 120, "bet": 4}, {"chair": 2, "balance": 48}]}"#;

const OPTIONS: RunOptions = RunOptions {
    strict: false,
    opponents: None,
    iterations: None,
    max_iterations: Some(64),
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let state = TableState::from_json(STATE).expect("fixed state is valid");
    let _ = TableState::from_json(text);
    let file = compile_file(SourceFile::new("fuzz.ohf", text));
    for d in &file.diagnostics {
        let _ = d.render(&file.files);
    }
    if let Some(p) = &file.program {
        let mut m = Machine::new(p);
        m.set_options(OPTIONS);
        m.set_state(Box::new(state.clone()));
        m.enable_trace();
        for name in p.function_names() {
            let _ = m.run(name);
        }
        let _ = m.eval_debug();
        for line in m.take_trace() {
            let _ = line.render();
        }
    }
    let expr = compile_expr(None, SourceFile::new("<expr>", text));
    if let Some(p) = &expr.program {
        let mut m = Machine::new(p);
        m.set_options(OPTIONS);
        m.set_state(Box::new(state));
        m.begin_run();
        let _ = m.eval_expr();
    }
});
