//! How fast the model is per clock tick: loading the example file, deriving one state, and
//! simulated seconds (each re-derives everything). Run: `cargo bench -p alea-tournament`.
#![allow(missing_docs)]

use alea_tournament::{LoadOptions, NoScripts, Simulation, State, load};

const EXAMPLE: &str = include_str!("../../../examples/ezscript/tournament.json");

fn main() {
    divan::main();
}

#[divan::bench]
fn load_example() -> alea_tournament::Tournament {
    load(divan::black_box(EXAMPLE), &LoadOptions::default()).unwrap()
}

#[divan::bench]
fn derive_state(bencher: divan::Bencher) {
    let t = load(EXAMPLE, &LoadOptions::default()).unwrap();
    bencher.bench(|| State::without_scripts(divan::black_box(t.clone())));
}

#[divan::bench]
fn simulate_100_ticks(bencher: divan::Bencher) {
    let t = load(EXAMPLE, &LoadOptions::default()).unwrap();
    bencher.bench(|| Simulation::new(t.clone(), NoScripts).take(100).count());
}
