//! alea-ezscript (under construction).
#![forbid(unsafe_code)]
