//! Dealing throughput and exact-analysis time (docs/performance/blackjack.md).
//!
//! Run with `cargo bench -p alea-blackjack`.
#![allow(missing_docs)]

use alea_blackjack::{ExactOptions, Randomizer, Spec, exact};
use divan::{Bencher, black_box, counter::ItemsCount};

fn main() {
    divan::main();
}

const DEALS: usize = 100_000;

/// Pieces per second for each dealing rule.
#[divan::bench(args = [
    "bag of I,J,L,O,S,T,Z",
    "bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
    "I,J,L,O,S,T,Z",
    "I,J,L,O,S,T,Z with 4 history",
    "I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T",
])]
fn deal(bencher: Bencher, spec: &str) {
    let spec = Spec::parse(spec).unwrap();
    bencher
        .counter(ItemsCount::new(DEALS))
        .with_inputs(|| Randomizer::new(&spec, 42))
        .bench_local_values(|r| {
            let mut acc = 0u32;
            for p in r.take(DEALS) {
                acc = acc.wrapping_add(u32::from(p.0));
            }
            black_box(acc)
        });
}

/// Built-in presets.
#[divan::bench(args = ["nes", "tgm3", "pairs"])]
fn deal_preset(bencher: Bencher, name: &str) {
    bencher
        .counter(ItemsCount::new(DEALS))
        .with_inputs(|| Randomizer::preset(name, 42).unwrap())
        .bench_local_values(|r| {
            let mut acc = 0u32;
            for p in r.take(DEALS) {
                acc = acc.wrapping_add(u32::from(p.0));
            }
            black_box(acc)
        });
}

/// Exact analysis of the seed's examples (TGM-class history specs are the slowest).
#[divan::bench(args = [
    "bag of I,J,L,O,S,T,Z",
    "bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
    "7 bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
    "I,I,J,J,J,L,L,L,O,O,O,S,S,S,T,T,T,Z,Z,Z",
    "I,J,L,O,S,T,Z with 4 history",
    "I,J,L,O,S,T,Z with 4 history 4 rolls first I,J,L,T",
    "I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T",
    "5 bag of I,T,J,J,L,L,O,O,S,S,S,Z,Z,Z",
], sample_count = 5)]
fn exact_analysis(spec: &str) {
    let spec = Spec::parse(spec).unwrap();
    black_box(exact(&spec, &ExactOptions::default()).unwrap());
}
