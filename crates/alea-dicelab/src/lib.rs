//! alea-dicelab (under construction).
#![forbid(unsafe_code)]

pub mod calc;
