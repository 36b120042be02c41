//! Cards and poker hands for alea: card parsing and printing, a fast table-driven evaluator
//! of 5 to 7 cards, hand categories and readable names (English and German), OpenHoldem's
//! `pokerval` and hand symbols, EZScript's card functions, and win/tie/lose equity by exact
//! enumeration or seeded, parallel Monte Carlo.
//!
//! ```
//! use alea_cards::{evaluate, parse_cards, Category};
//!
//! let hand = evaluate(&parse_cards("As Ks Ad Kd Ac").unwrap()).unwrap();
//! assert_eq!(hand.category(), Category::FullHouse);
//! assert_eq!(hand.name(), "Full House, Aces over Kings");
//! assert!(hand > evaluate(&parse_cards("A♠ K♥ Q♦ J♣ 10♥").unwrap()).unwrap());
//! ```
#![forbid(unsafe_code)]

mod card;
mod eval;
mod names;

pub use card::{
    Card, CardParseError, CardSet, Deck, MAX_PARSED_CARDS, Rank, Suit, deck, format_cards,
    parse_cards, unseen,
};
pub use eval::{
    Category, EvalError, HAND_CLASSES, Hand, HandRank, Tables, best_five, best_five_cards,
    evaluate, pack_value,
};
mod equity;
mod ez;
mod handrank;
mod handrank_tables;
mod symbols;

pub use equity::{
    DEFAULT_ITERATIONS, EXACT_MAX_DEALS, Equity, EquityError, EquityRequest, MAX_ITERATIONS,
    MAX_OPPONENTS, Method, TASK_ITERATIONS, Tally, enumerate, equity, simulate,
};
pub use ez::{
    EzCardError, cards_of, cards_to_poker_hand, ez_card, ez_card_number, poker_cards_to_category,
    poker_cards_to_hand_name, poker_cards_to_hand_type, poker_cards_to_text, poker_cards_to_value,
    poker_hand_to_cards, text_to_poker_hand,
};
pub use handrank::{HANDRANK_MAX_OPPONENTS, handrank, handrank_table};
pub use symbols::{
    HandPattern, HandSymbols, HoldingClass, SetFeatures, SymbolsError, hand_symbols, handrank_of,
    handrank_order, is_connector, is_pair, is_suited, pokerval, pokerval_category, pokerval_type,
    set_features,
};

/// The `rust` examples of docs/cards.md, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/cards.md")]
pub struct ReferenceExamples;
