#![no_main]
//! Tournament files: loading any bytes never panics; a file that loads derives its state and
//! runs a few clock ticks without panicking.

use alea_tournament::{LoadOptions, NoScripts, Simulation, State, load};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let options = LoadOptions::default();
    let Ok(tournament) = load(text, &options) else { return };
    let state = State::without_scripts(tournament.clone());
    let _ = state.global("playersRemaining");
    for tick in Simulation::new(tournament, NoScripts).take(5) {
        let _ = tick.current.global("currentLevel");
    }
});
