//! alea-openholdem (under construction).
#![forbid(unsafe_code)]
