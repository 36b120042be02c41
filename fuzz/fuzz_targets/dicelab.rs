#![no_main]
//! Fuzz target for dicelab: the parser, the tree printer, the roller and the exact engine must
//! never panic, whatever the input (limits end in diagnostics).

use alea_core::{Rng, SourceFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.len() > 4096 {
        return;
    }
    let file = SourceFile::new("<fuzz>", text);
    alea_dicelab::with_big_stack(|| {
        let (program, _diagnostics) = alea_dicelab::parse(&file);
        let mut rng = Rng::seed_from_u64(data.len() as u64);
        let mut roller = alea_dicelab::Roller::new();
        for statement in &program.statements {
            let _ = alea_dicelab::print_tree(&statement.expr);
            let _ = roller.roll(statement, &mut rng);
            // A small budget: the fuzzer looks for panics, not for slow but bounded programs.
            let options = alea_dicelab::calc::CalcOptions {
                max_steps: 200_000,
                max_outcomes: 10_000,
                ..Default::default()
            };
            let _ = alea_dicelab::calc::calculate(statement, &options);
        }
    });
});
