//! One module per language (and one for the card helpers).

pub mod blackjack;
pub mod cards;
pub mod dice;
pub mod ezscript;
pub mod ezsystem;
pub mod holdem;
pub mod holdem_upgrade;
pub mod serve;
