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
    let file = match crate::cmd::holdem::read_file(path) {
        Ok(f) => f,
        Err(message) => {
            eprintln!("alea holdem upgrade: {message}");
            return crate::common::failed();
        }
    };
    let text = file.text();
    let u = alea_openholdem::upgrade(text);
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
