//! The one helper for running the built binaries in integration tests (`mod support;`).
//!
//! ```ignore
//! let r = support::alea(&["dice", "d6"]).run();
//! let r = support::dicelab(&["-c"]).stdin("2d6").run();
//! let r = support::alea(&["ez", "-"]).stdin(script).env("NO_COLOR", "1").dir(root()).run();
//! ```
//!
//! Colour variables of the caller are removed, so outputs are plain unless a test sets them.
//! [`require`] is the one rule for tests that need an outside program (dicelab 0.7, Chromium,
//! node): without it such a test is skipped visibly, except under `CI=true`, where it fails.
#![allow(dead_code, clippy::print_stderr)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// What a run produced.
#[derive(Debug)]
pub struct Run {
    /// The exit status (-1 when killed by a signal).
    pub code: i32,
    /// Stdout, lossily decoded.
    pub stdout: String,
    /// Stderr, lossily decoded.
    pub stderr: String,
    /// Stdout as bytes.
    pub stdout_bytes: Vec<u8>,
}

/// A command to run: one of the workspace binaries (or any program) with arguments.
pub struct Cmd {
    command: Command,
    stdin: Option<Vec<u8>>,
}

/// The workspace root (examples/ and docs/ are relative to it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `alea ARGS…`.
pub fn alea<S: AsRef<OsStr>>(args: &[S]) -> Cmd {
    program(env!("CARGO_BIN_EXE_alea"), args)
}

/// `dicelab ARGS…` (the drop-in binary of this crate).
pub fn dicelab<S: AsRef<OsStr>>(args: &[S]) -> Cmd {
    program(env!("CARGO_BIN_EXE_dicelab"), args)
}

/// Any program with arguments.
pub fn program<S: AsRef<OsStr>>(path: impl AsRef<OsStr>, args: &[S]) -> Cmd {
    let mut command = Command::new(path);
    command
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env_remove("NO_COLOR");
    Cmd {
        command,
        stdin: None,
    }
}

impl Cmd {
    /// Text for stdin (otherwise stdin is empty).
    pub fn stdin(mut self, text: impl AsRef<[u8]>) -> Cmd {
        self.stdin = Some(text.as_ref().to_vec());
        self
    }

    /// Sets an environment variable.
    pub fn env(mut self, key: &str, value: &str) -> Cmd {
        self.command.env(key, value);
        self
    }

    /// Runs in `dir`.
    pub fn dir(mut self, dir: impl AsRef<Path>) -> Cmd {
        self.command.current_dir(dir);
        self
    }

    /// The underlying command, for tests that drive the process themselves.
    pub fn command(self) -> Command {
        self.command
    }

    /// Runs to the end. Stdin is written from a thread, so a program that exits before reading
    /// all of it (or writes a lot first) neither deadlocks nor fails the test.
    pub fn run(self) -> Run {
        let out = self.output();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            stdout_bytes: out.stdout,
        }
    }

    /// Runs to the end like [`Cmd::run`], returning std's [`Output`] (for tests that compare
    /// bytes or look at the [`std::process::ExitStatus`]).
    pub fn output(mut self) -> Output {
        let mut child = self
            .command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the program");
        let input = self.stdin.take().unwrap_or_default();
        let mut pipe = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
        let out = child.wait_with_output().expect("wait for the program");
        let _ = writer.join();
        out
    }

    /// Runs with stdout closed from the start (`| head -0`): the program's first write fails
    /// with a broken pipe. Returns the exit status and stderr.
    pub fn run_with_closed_stdout(mut self) -> (i32, String) {
        let mut child = self
            .command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the program");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait for the program");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

/// True under CI (`CI=true`, set by `.ci/run`), where every outside program must be present.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Whether a test that needs the outside program `what` can run. `found` is whether it was
/// found. Under CI a missing program fails the test (`.ci/run` installs it); elsewhere the test
/// says SKIPPED on stderr and returns, so a developer without it can still run the suite.
pub fn require(what: &str, found: bool) -> bool {
    require_in(what, found, in_ci())
}

/// [`require`] with the CI flag given (testable without touching the environment).
pub fn require_in(what: &str, found: bool, ci: bool) -> bool {
    if found {
        return true;
    }
    assert!(
        !ci,
        "{what} is missing, and CI=true needs it (.ci/run installs it)"
    );
    eprintln!("SKIPPED: {what} is not installed");
    false
}

/// The path of `name` on PATH, if any.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}
