//! `alea holdem` on profiles (issue 12): directories and several files, OpenPPL decisions,
//! `upgrade`, the lint summary, a closed pipe and the REPL's undefined functions. The bots and
//! the library are written for these tests.

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn alea(args: &[&str]) -> Out {
    let r = support::alea(&[&["holdem"], args].concat())
        .dir(root())
        .run();
    Out {
        code: r.code,
        stdout: r.stdout,
        stderr: r.stderr,
    }
}

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alea-profiles-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(d: &Path, name: &str, text: &str) -> String {
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

const STATE: &str = "examples/openholdem/state.json";

const LIBRARY: &str = "##IsFlop##\nbetround = flop\n##HaveBigSuited##\n$AKs OR $AQs\n";

#[test]
fn a_directory_is_a_profile_and_the_decision_names_its_action() {
    let d = dir("dir");
    let lib = d.join("lib");
    std::fs::create_dir_all(&lib).unwrap();
    write(&lib, "a.ohf", LIBRARY);
    write(&lib, "notes.txt", "not a formula file");
    let bot = write(
        &d,
        "bot.ohf",
        "##f$flop##\nWHEN IsFlop AND HaveBigSuited RaiseTo 6 FORCE\nWHEN Others Fold FORCE\n",
    );
    let lib = lib.to_string_lossy().into_owned();
    // The spec's table is on the flop with AhKh: the first rule holds.
    let o = alea(&[&lib, &bot, "--state", STATE]);
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr.as_str()),
        (0, "f$flop = 6 (RaiseTo 6 bb)\n", "")
    );
    let o = alea(&[&lib, &bot, "--state", STATE, "--json"]);
    assert!(
        o.stdout.contains(r#""action":"RaiseTo 6 bb""#),
        "{}",
        o.stdout
    );
    let o = alea(&[&lib, &bot, "--lint"]);
    assert_eq!((o.code, o.stdout.as_str()), (0, "0 errors, 0 warnings\n"));
    // Without the library the bot's names are unknown.
    let o = alea(&[&bot, "--lint"]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.contains("undefined OpenPPL function 'IsFlop'"),
        "{}",
        o.stderr
    );
    let empty = d.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = alea(&[&empty.to_string_lossy()]);
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("no .ohf file"), "{}", o.stderr);
}

#[test]
fn trace_and_function_work_on_profiles() {
    let d = dir("trace");
    let lib = write(&d, "lib.ohf", LIBRARY);
    let bot = write(&d, "bot.ohf", "##f$call##\nIsFlop\n");
    let o = alea(&[
        &lib,
        &bot,
        "--state",
        STATE,
        "--function",
        "f$call",
        "--trace",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // The trace names the file each function comes from.
    assert!(o.stdout.contains("IsFlop = 1 ["), "{}", o.stdout);
    assert!(o.stdout.contains("lib.ohf:1]"), "{}", o.stdout);
    assert!(o.stdout.ends_with("\n1\n"), "{}", o.stdout);
}

#[test]
fn lint_summarises_unknown_names_with_counts() {
    let d = dir("lint");
    let bot = write(
        &d,
        "bot.ohf",
        "##f$a##\nzork + zork + blorp\n##f$b##\nzork\n",
    );
    let o = alea(&[&bot, "--lint"]);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.stdout,
        "unknown name zork: 3 uses\nunknown name blorp: 1 use\n4 errors, 0 warnings\n"
    );
}

#[test]
fn upgrade_rewrites_an_old_bot_that_then_loads() {
    let d = dir("upgrade");
    let old = write(
        &d,
        "old.ohf",
        "WinHoldem bot\n##bankroll##\n500\n##f$alli##\nbr == 4\n##list1##\nAA AK\n##f$call##\nlist1\n",
    );
    let o = alea(&[&old, "--lint"]);
    assert_eq!(o.code, 1);
    let o = alea(&["upgrade", &old]);
    assert_eq!(o.code, 0);
    assert!(
        o.stderr.contains("renamed ##f$alli## to ##f$allin##"),
        "{}",
        o.stderr
    );
    let new = write(&d, "new.ohf", &o.stdout);
    let o = alea(&[&new, "--lint"]);
    assert_eq!(
        (o.code, o.stdout.as_str()),
        (0, "0 errors, 0 warnings\n"),
        "{}",
        o.stderr
    );
    let o = alea(&["upgrade"]);
    assert_eq!(o.code, 2);
}

#[test]
fn a_latin1_byte_in_a_comment_is_a_positioned_warning() {
    let d = dir("latin1");
    let p = d.join("l1.ohf");
    std::fs::write(&p, b"##f$call##\n1 // caf\xe9\n").unwrap();
    let p = p.to_string_lossy().into_owned();
    let o = alea(&[&p, "--lint"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("l1.ohf:2:9: warning: non-ASCII character"),
        "{}",
        o.stderr
    );
    let o = alea(&[&p, "--function", "f$call"]);
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr.as_str()),
        (0, "1\n", "")
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let d = dir("pipe");
    let body: Vec<String> = (0..3000).map(|i| format!("zz{i}")).collect();
    let bot = write(&d, "big.ohf", &format!("##f$a##\n{}\n", body.join(" + ")));
    let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(["holdem", &bot, "--lint"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Read one line, then close the pipe (like `| head -1`).
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    let _ = std::io::Read::read(&mut out, &mut first);
    drop(out);
    let status = child.wait().unwrap();
    assert_ne!(status.code(), Some(101), "panicked on a closed pipe");
}

#[test]
fn the_repl_refuses_an_undefined_function() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(["repl", "holdem"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"f$call + 1\n1 + 1\n:quit\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("undefined function 'f$call'"), "{text}");
    assert!(text.contains('2'), "{text}");
}
