//! `dicelab`: a drop-in replacement for dicelab 0.7 (under construction).
#![forbid(unsafe_code)]
#![allow(clippy::print_stdout, clippy::print_stderr)]

fn main() -> std::process::ExitCode {
    eprintln!("dicelab: not implemented yet");
    std::process::ExitCode::from(2)
}
