//! alea-cards (under construction).
#![forbid(unsafe_code)]
