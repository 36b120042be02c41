//! `alea holdem upgrade FILE`: an old bot rewritten for OpenHoldem 14, on stdout; what changed,
//! on stderr. Exit status 0, 1 when the file cannot be read, 2 without exactly one file.

use std::io::{self, Write};
use std::process::ExitCode;

/// Runs `alea holdem upgrade FILE`.
pub fn run(args: &[String]) -> ExitCode {
    let [path] = args else {
        return crate::common::usage_error(
            "alea holdem upgrade: give one formula file (the result goes to stdout)",
        );
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            let s = e.to_string();
            let s = s.split(" (os error").next().unwrap_or("");
            eprintln!("alea holdem upgrade: cannot read {path}: {s}");
            return crate::common::failed();
        }
    };
    // Old bots are often Latin-1: read bytes that are not UTF-8 as Latin-1.
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    };
    let u = alea_openholdem::upgrade(&text);
    let mut err = io::stderr().lock();
    for (line, what) in &u.changes {
        let _ = writeln!(err, "{path}:{line}: {what}");
    }
    if u.changes.is_empty() {
        let _ = writeln!(err, "{path}: nothing to upgrade");
    }
    let _ = crate::common::stdout().write_all(u.text.as_bytes());
    ExitCode::SUCCESS
}
