//! Exact distributions of dicelab programs (under construction; owned by the calc engineer).
