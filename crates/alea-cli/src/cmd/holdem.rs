//! `alea holdem` (under construction).

use std::io::{self, Write};
use std::process::ExitCode;

/// Arguments of `alea holdem`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Program text or file (the language's own rules).
    pub input: Vec<String>,
}

/// Runs `alea holdem`.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("alea holdem: not implemented yet");
    ExitCode::from(2)
}

/// `alea repl holdem`.
pub fn repl() -> ExitCode {
    eprintln!("alea repl holdem: not implemented yet");
    ExitCode::from(2)
}

/// Runs the built-in examples of the language for `alea tour`.
pub fn tour(_out: &mut dyn Write) -> io::Result<()> {
    Ok(())
}
