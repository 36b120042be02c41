#![no_main]
//! Cards: parsing any text, evaluating what parses, and the EZScript card functions on any
//! numbers never panic.

use alea_cards::{evaluate, parse_cards, poker_cards_to_text, poker_hand_to_cards};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(cards) = parse_cards(text) {
            let _ = evaluate(&cards);
        }
    }
    let numbers: Vec<f64> =
        data.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect();
    if let Some(&first) = numbers.first() {
        let _ = poker_hand_to_cards(first);
    }
    let _ = poker_cards_to_text(&numbers);
});
