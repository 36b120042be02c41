#![no_main]
//! Fuzz target for Blackjack: parse any text; for valid specs check the canonical round trip,
//! deal (with `peek` and a save/restore), and run a small exact analysis. Never panics.

use alea_blackjack::{ExactOptions, Randomizer, Ratio, Spec, exact};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let spec = match Spec::parse(text) {
        Ok(s) => s,
        Err(e) => {
            // Spans lie inside the text (or are empty at its end).
            assert!(e.span.start <= e.span.end && e.span.end <= text.len());
            assert!(e.code.starts_with('E'));
            return;
        }
    };
    let canonical = spec.to_string();
    let again = Spec::parse(&canonical).expect("canonical form parses");
    assert_eq!(again, spec, "parse(canonical(s)) = s");
    assert_eq!(again.to_string(), canonical, "printing is idempotent");

    let seed = data
        .iter()
        .fold(0u64, |a, &b| a.wrapping_mul(31).wrapping_add(u64::from(b)));
    let mut dealer = Randomizer::new(&spec, seed);
    let preview = dealer.peek(8);
    let dealt: Vec<_> = dealer.by_ref().take(8).collect();
    assert_eq!(preview, dealt);
    let state = dealer.to_json();
    let restored = Randomizer::from_json(&state).expect("state restores");
    assert_eq!(restored.peek(16), dealer.peek(16));
    for p in dealer.take(64) {
        assert!((p.0 as usize) < spec.pieces().len());
    }

    // Small limits keep every input fast; errors are fine, panics are not.
    let opts = ExactOptions {
        tail: Ratio::from_u64(1, 100),
        max_states: 200,
        max_solve: 50,
        ..ExactOptions::default()
    };
    if spec.list_len() <= 64 {
        if let Ok(stats) = exact(&spec, &opts) {
            assert_eq!(stats.frequency.len(), spec.pieces().len());
        }
    }
});
