#![no_main]
//! Fuzz target for dicelab (filled in with the language).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = std::str::from_utf8(data);
});
