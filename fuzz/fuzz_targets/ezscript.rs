#![no_main]
//! Fuzz target for EZScript: lexes, parses and runs any UTF-8 input as a script and as a
//! template, with a small step budget. Any panic, hang or runaway allocation is a bug.

use alea_ezscript::{Env, MapHost, Mode, Program, Template, Value, lex};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    // Runs on the fuzzer's own thread: since issue 14 nothing in EZScript needs a big stack.
    let _ = lex(src, 0, Mode::Code);
    let host = MapHost::new()
        .with("totalBuyIns", 24.0)
        .with(
            "players",
            Value::list(vec![Value::text("Ann"), Value::text("Bob")]),
        )
        .with_now(1753035300000.0);
    let env = Env {
        fuel: 20_000,
        ..Env::with_host(&host)
    };
    if let Ok(program) = Program::compile(src) {
        let _ = program.run_display(&env);
    }
    let _ = Template::compile(src).render(&env);
});
