//! What every subcommand shares: reading programs, printing diagnostics, the REPL loop.

use alea_core::{Diagnostic, RenderOptions, SourceFile};
use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;

/// Largest program file the CLI reads (16 MiB); bigger inputs are refused with a clear error
/// before any parser sees them.
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Reads a program from `path`, or from stdin when `path` is `-`. The error message is ready to
/// print (`cannot read FILE: …`, `FILE: not valid UTF-8 …`).
pub fn read_source(path: &str) -> Result<SourceFile, String> {
    let (name, bytes) = if path == "-" {
        let mut buf = Vec::new();
        io::stdin()
            .lock()
            .take(MAX_SOURCE_BYTES + 1)
            .read_to_end(&mut buf)
            .map_err(|e| format!("cannot read <stdin>: {e}"))?;
        ("<stdin>".to_string(), buf)
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot read {path}: {}", io_reason(&e)))?;
        let mut buf = Vec::new();
        file.take(MAX_SOURCE_BYTES + 1)
            .read_to_end(&mut buf)
            .map_err(|e| format!("cannot read {path}: {}", io_reason(&e)))?;
        (path.to_string(), buf)
    };
    if buf_too_big(&bytes) {
        return Err(format!(
            "{name}: input larger than {} MiB",
            MAX_SOURCE_BYTES >> 20
        ));
    }
    String::from_utf8(bytes)
        .map(|text| SourceFile::new(name.clone(), text))
        .map_err(|e| {
            format!(
                "{name}: not valid UTF-8 (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            )
        })
}

fn buf_too_big(bytes: &[u8]) -> bool {
    bytes.len() as u64 > MAX_SOURCE_BYTES
}

/// The OS error without Rust's "(os error N)" suffix.
fn io_reason(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Prints diagnostics to stderr with the given render options.
pub fn eprint_diagnostics(file: &SourceFile, diagnostics: &[Diagnostic], opts: RenderOptions) {
    for d in diagnostics {
        eprint!("{}", d.render_with(file, opts));
    }
}

/// True when stdin is an interactive terminal.
pub fn stdin_is_terminal() -> bool {
    io::stdin().is_terminal()
}

/// What a REPL handler says about the text typed so far.
pub enum ReplStep {
    /// The statement is not complete yet: keep reading lines.
    Incomplete,
    /// Print this (may be empty) and start a new statement.
    Done(String),
}

/// A language's REPL: its name, help text and line handler.
pub struct Repl<'a> {
    /// Language name, used for the prompt and history file.
    pub name: &'a str,
    /// Printed by `:help`.
    pub help: &'a str,
    /// Called with the whole pending text (all lines of a multi-line statement) and a
    /// command (`:load …`) when the line starts with `:` and is not a built-in command.
    pub handle: Box<dyn FnMut(&str) -> ReplStep + 'a>,
}

/// Runs a REPL with file history in `~/.alea_history_NAME`, multi-line statements, `:help` and
/// `:quit`. Returns when the user types `:quit` or end-of-file.
pub fn run_repl(mut repl: Repl<'_>) -> std::process::ExitCode {
    use rustyline::error::ReadlineError;
    let mut editor = match rustyline::DefaultEditor::new() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("alea repl: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    let history = history_path(repl.name);
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    println!(
        "alea {} REPL. :help for help, :quit or Ctrl-D to leave.",
        repl.name
    );
    let mut pending = String::new();
    loop {
        let prompt = if pending.is_empty() {
            format!("{}> ", repl.name)
        } else {
            "...> ".to_string()
        };
        match editor.readline(&prompt) {
            Ok(line) => {
                let trimmed = line.trim();
                if pending.is_empty() {
                    match trimmed {
                        ":quit" | ":q" | ":exit" => break,
                        ":help" | ":h" | ":?" => {
                            println!("{}", repl.help);
                            continue;
                        }
                        "" => continue,
                        _ => {}
                    }
                }
                let _ = editor.add_history_entry(line.as_str());
                if !pending.is_empty() {
                    pending.push('\n');
                }
                pending.push_str(&line);
                match (repl.handle)(&pending) {
                    ReplStep::Incomplete => {}
                    ReplStep::Done(out) => {
                        if !out.is_empty() {
                            print!("{out}");
                            if !out.ends_with('\n') {
                                println!();
                            }
                        }
                        pending.clear();
                    }
                }
            }
            Err(ReadlineError::Interrupted) => pending.clear(),
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("alea repl: {e}");
                break;
            }
        }
    }
    if let Some(h) = &history {
        let _ = editor.save_history(h);
    }
    std::process::ExitCode::SUCCESS
}

fn history_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(format!(".alea_history_{name}")))
}
