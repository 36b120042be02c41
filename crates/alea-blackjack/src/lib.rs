//! alea-blackjack (under construction).
#![forbid(unsafe_code)]
