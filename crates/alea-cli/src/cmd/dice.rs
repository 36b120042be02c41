//! `alea dice` (under construction).

use std::io::{self, Write};
use std::process::ExitCode;

/// Arguments of `alea dice`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Program text or file (the language's own rules).
    pub input: Vec<String>,
}

/// Runs `alea dice`.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("alea dice: not implemented yet");
    ExitCode::from(2)
}

/// `alea repl dice`.
pub fn repl() -> ExitCode {
    eprintln!("alea repl dice: not implemented yet");
    ExitCode::from(2)
}

/// Runs the built-in examples of the language for `alea tour`.
pub fn tour(_out: &mut dyn Write) -> io::Result<()> {
    Ok(())
}
