//! What every subcommand shares: the conventions of docs/cli.md in one place.
//!
//! * Exit statuses: [`EXIT_FAILED`] (1) when the program or its data failed (syntax, runtime,
//!   load), [`EXIT_USAGE`] (2) for a usage error; 0 otherwise. The drop-in `dicelab` binary keeps
//!   0.7's own statuses.
//! * Diagnostics: [`eprint_diagnostics`] (the one rendering, coloured on a terminal, plain with
//!   `NO_COLOR` or when piped) and, with `--json`, [`json_diagnostics`] on stdout.
//! * Output: [`stdout`] is the one writer of stdout; when the reader has gone (`| head`) the
//!   command ends at once, quietly and successfully.
//! * Reading programs ([`read_source`]), the REPL loop ([`run_repl`]).

use alea_core::{Diagnostic, SourceFile};
use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit status when the program or its data failed: a syntax error, a runtime error, a file
/// that does not load.
pub const EXIT_FAILED: u8 = 1;
/// Exit status of a usage error: a bad option, a missing argument, an unknown name.
pub const EXIT_USAGE: u8 = 2;

/// [`EXIT_FAILED`] as an [`ExitCode`].
pub fn failed() -> ExitCode {
    ExitCode::from(EXIT_FAILED)
}

/// Prints `error: MESSAGE` on stderr (clap's form for usage errors) and returns
/// [`EXIT_USAGE`].
pub fn usage_error(message: impl Into<String>) -> ExitCode {
    eprint_plain(&Diagnostic::error(message));
    ExitCode::from(EXIT_USAGE)
}

/// Prints diagnostics on stderr in the one format, coloured when stderr is a terminal (and
/// `NO_COLOR` is unset).
pub fn eprint_diagnostics(file: &SourceFile, diagnostics: &[Diagnostic]) {
    let mut err = anstream::stderr().lock();
    for d in diagnostics {
        let _ = err.write_all(d.render_styled(file).as_bytes());
    }
}

/// Prints one diagnostic that has no program text (an unknown preset, a missing file) on
/// stderr: `error: message`, then its notes and help.
pub fn eprint_plain(d: &Diagnostic) {
    let empty = SourceFile::new("", "");
    let plain = Diagnostic {
        span: None,
        ..d.clone()
    };
    let _ = anstream::stderr().write_all(plain.render_styled(&empty).as_bytes());
}

/// The one JSON shape of diagnostics, `{"diagnostics": [...]}`: each item is the file its span
/// points into (`None` for none) and the diagnostic.
pub fn json_diagnostics<'a, I>(items: I) -> serde_json::Value
where
    I: IntoIterator<Item = (Option<&'a SourceFile>, &'a Diagnostic)>,
{
    let list: Vec<_> = items.into_iter().map(|(f, d)| d.json(f)).collect();
    serde_json::json!({ "diagnostics": list })
}

/// Prints [`json_diagnostics`] of the diagnostics of one file as one line on stdout.
pub fn print_json_diagnostics(file: Option<&SourceFile>, diagnostics: &[Diagnostic]) {
    let v = json_diagnostics(diagnostics.iter().map(|d| (file, d)));
    let _ = writeln!(stdout(), "{v}");
}

/// The one writer of stdout (a lock on it, buffered by std line by line). A write to a closed
/// pipe ends the process at once with status 0: the reader has what it wanted (`| head`), and
/// nothing else is worth doing. Other write errors are returned.
pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

/// See [`stdout`].
pub struct Stdout(io::StdoutLock<'static>);

fn quiet_on_broken_pipe<T>(r: io::Result<T>) -> io::Result<T> {
    if let Err(e) = &r
        && e.kind() == io::ErrorKind::BrokenPipe
    {
        std::process::exit(0);
    }
    r
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        quiet_on_broken_pipe(self.0.write(buf))
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        quiet_on_broken_pipe(self.0.write_all(buf))
    }
    fn flush(&mut self) -> io::Result<()> {
        quiet_on_broken_pipe(self.0.flush())
    }
}

/// `println!` through [`stdout`]: never panics, ends quietly on a closed pipe.
#[macro_export]
macro_rules! outln {
    () => {{
        use ::std::io::Write as _;
        let _ = ::std::writeln!($crate::common::stdout());
    }};
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::writeln!($crate::common::stdout(), $($arg)*);
    }};
}

/// `print!` through [`stdout`]: never panics, ends quietly on a closed pipe.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::write!($crate::common::stdout(), $($arg)*);
    }};
}

/// Largest program file the CLI reads (16 MiB); bigger inputs are refused with a clear error
/// before any parser sees them.
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// How [`read_file`] turns a file's bytes into text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8, else an error naming the first invalid byte.
    Utf8,
    /// UTF-8, else every byte read as Latin-1 (Windows editors wrote OpenHoldem's bots in it),
    /// so a stray byte is reported where it is, with line:col, by the language's own checks.
    Utf8OrLatin1,
}

/// Why [`read_file`] gave no text; `Display` is the message ready to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The file could not be opened or read.
    Io {
        /// The path (`<stdin>` for `-`).
        path: String,
        /// The OS's reason, without "(os error N)".
        reason: String,
    },
    /// More than the limit of bytes.
    TooLarge {
        /// The path (`<stdin>` for `-`).
        name: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// Not UTF-8 (with [`Encoding::Utf8`]).
    NotUtf8 {
        /// The path (`<stdin>` for `-`).
        name: String,
        /// The offset of the first invalid byte.
        offset: usize,
    },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io { path, reason } => write!(f, "cannot read {path}: {reason}"),
            ReadError::TooLarge { name, limit } => {
                write!(f, "{name}: input larger than {} MiB", limit >> 20)
            }
            ReadError::NotUtf8 { name, offset } => {
                write!(
                    f,
                    "{name}: not valid UTF-8 (invalid byte at offset {offset})"
                )
            }
        }
    }
}

/// The one file reader of the CLI: `path`, or stdin when `path` is `-` (named `<stdin>`), at
/// most `limit` bytes (more is an error, read no further than one byte past it), as text by
/// `encoding`.
pub fn read_file(path: &str, encoding: Encoding, limit: u64) -> Result<SourceFile, ReadError> {
    let mut bytes = Vec::new();
    let name = if path == "-" { "<stdin>" } else { path };
    let io_error = |e: io::Error| ReadError::Io {
        path: name.to_string(),
        reason: io_reason(&e),
    };
    if path == "-" {
        io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(io_error)?;
    } else {
        std::fs::File::open(path)
            .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
            .map_err(io_error)?;
    }
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            name: name.to_string(),
            limit,
        });
    }
    let text = match (String::from_utf8(bytes), encoding) {
        (Ok(text), _) => text,
        (Err(e), Encoding::Utf8OrLatin1) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
        (Err(e), Encoding::Utf8) => {
            return Err(ReadError::NotUtf8 {
                name: name.to_string(),
                offset: e.utf8_error().valid_up_to(),
            });
        }
    };
    Ok(SourceFile::new(name, text))
}

/// Reads a program as UTF-8 with [`read_file`] and the CLI's size limit; the error is the
/// message ready to print (`cannot read FILE: …`, `FILE: not valid UTF-8 …`).
pub fn read_source(path: &str) -> Result<SourceFile, String> {
    read_file(path, Encoding::Utf8, MAX_SOURCE_BYTES).map_err(|e| e.to_string())
}

/// The OS error without Rust's "(os error N)" suffix.
fn io_reason(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
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
    crate::outln!(
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
                            crate::outln!("{}", repl.help);
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
                            crate::out!("{out}");
                            if !out.ends_with('\n') {
                                crate::outln!();
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

/// Shows that long work is under way: a spinner with the elapsed time on stderr, only when
/// stderr is a terminal (never in pipes, files or tests), cleared when dropped or finished.
/// For work the libraries do in one call (they do no I/O and report no progress), so it shows
/// activity and time, not a fraction; see docs/cli.md.
pub struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    /// Starts a spinner reading `message` (e.g. "simulating 1000000 deals").
    pub fn spinner(message: impl Into<String>) -> Progress {
        if !io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new_spinner();
        if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
            bar.set_style(style);
        }
        bar.set_message(message.into());
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        Progress(Some(bar))
    }

    /// A bar of `len` steps (for loops the CLI runs itself), with [`Progress::inc`].
    pub fn bar(len: u64, message: impl Into<String>) -> Progress {
        if !io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new(len);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} ({eta})")
        {
            bar.set_style(style);
        }
        bar.set_message(message.into());
        Progress(Some(bar))
    }

    /// Advances a bar by `n` steps.
    pub fn inc(&self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }

    /// True when something is drawn (stderr is a terminal).
    pub fn is_visible(&self) -> bool {
        self.0.is_some()
    }
}

/// Runs `work` (a library call that reports no progress) on this thread and, when stderr is a
/// terminal and the work is still running after a second, shows a spinner reading `message`
/// until it ends. A watcher thread waits for the second and draws; the work itself stays where
/// it is, so it needs neither `Send` nor a stack of its own (evaluation may recurse deeply).
pub fn with_progress<T>(message: impl FnOnce() -> String + Send, work: impl FnOnce() -> T) -> T {
    use std::sync::mpsc;
    if !io::stderr().is_terminal() {
        return work();
    }
    let (done, finished) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) =
                finished.recv_timeout(std::time::Duration::from_secs(1))
            {
                let _spinner = Progress::spinner(message());
                // Until the work ends (the sender is dropped).
                let _ = finished.recv();
            }
        });
        let v = work();
        drop(done);
        v
    })
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}
