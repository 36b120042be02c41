//! alea-prob (under construction).
#![forbid(unsafe_code)]
