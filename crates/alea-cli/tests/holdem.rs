//! `alea holdem` end to end: output shapes, exit codes, diagnostics, state errors, lint, and
//! golden traces.
//!
//! Regenerate the golden files with `UPDATE_GOLDEN=1 cargo test -p alea-cli --test holdem`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/holdem")
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

/// Writes `text` to a temporary file named `name` and returns its path.
fn temp(name: &str, text: &str) -> String {
    let d = std::env::temp_dir().join(format!("alea-holdem-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

const STATE: &str = "examples/openholdem/state.json";

#[test]
fn expression_prints_the_bare_value() {
    let o = alea(&["-e", "1+2*3**4"]);
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr.as_str()),
        (0, "163\n", "")
    );
    let o = alea(&["-e", "-2 ** 2"]);
    assert_eq!(o.stdout, "-4\n");
    let o = alea(&["-e", "ln 0"]);
    assert_eq!(o.stdout, "-inf\n");
}

#[test]
fn parse_errors_have_position_line_and_caret() {
    let o = alea(&["-e", "(2 + 3]"]);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.stderr,
        "<expr>:1:7: error: expected ')' to close '(' at 1:1, found ']'\n(2 + 3]\n      ^\n  = note: 1:1: '(' opened here\n"
    );
    for bad in [
        "1 ? 2", "(1))", "()", "+5", "~~5", "12abc", "0b2", "1e400", "72o", "@", "WHEN 1", "prwn",
        "E",
    ] {
        let o = alea(&["-e", bad]);
        assert_eq!(o.code, 1, "{bad}");
        assert!(o.stderr.starts_with("<expr>:1:"), "{bad}: {}", o.stderr);
        assert!(o.stdout.is_empty());
    }
    let o = alea(&["-e", "prwn"]);
    assert!(
        o.stderr.starts_with(
            "<expr>:1:1: error: unknown symbol 'prwn'; did you mean 'prwin'?\nprwn\n^\n"
        )
    );
}

#[test]
fn file_functions_and_default_autoplayer_list() {
    let f = temp("ab.ohf", "##f$a##\nf$b * 2\n##f$b##\n3\n##f$call##\nf$a\n");
    let o = alea(&[&f, "--function", "f$a"]);
    assert_eq!((o.code, o.stdout.as_str()), (0, "6\n"));
    let o = alea(&[&f, "--function", "f$a", "--function", "f$b"]);
    assert_eq!(o.stdout, "f$a = 6\nf$b = 3\n");
    let o = alea(&[&f]);
    assert_eq!(o.code, 0);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 14);
    assert_eq!(lines[0], "f$beep = 0");
    assert_eq!(lines[11], "f$call = 6");
    assert_eq!(lines[13], "f$fold = 0");
    let o = alea(&["-e", "f$a + 1", &f]);
    assert_eq!(o.stdout, "7\n");
    let o = alea(&[&f, "--function", "f$nope"]);
    assert_eq!(o.code, 2);
}

#[test]
fn cycles_are_load_errors() {
    let f = temp("cycle.ohf", "##f$a##\nf$b\n##f$b##\nf$a + 1\n");
    let o = alea(&[&f, "--function", "f$a"]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.contains("error: cycle: f$a -> f$b -> f$a"),
        "{}",
        o.stderr
    );
    let f = temp(
        "cycle2.ohf",
        "##f$prwin_number_of_opponents##\nprwin > 0.5\n",
    );
    assert_eq!(alea(&[&f]).code, 1);
}

#[test]
fn division_by_zero_warns_and_strict_fails() {
    let f = temp("div.ohf", "##f$d##\n1/(2-2)\n");
    let o = alea(&[&f, "--function", "f$d"]);
    assert_eq!((o.code, o.stdout.as_str()), (0, "-1\n"));
    assert!(
        o.stderr.contains(
            ":2:2: warning: division by zero in f$d (divisor '2-2' is 0); result -1\n1/(2-2)\n ^\n"
        ),
        "{}",
        o.stderr
    );
    let o = alea(&[&f, "--function", "f$d", "--strict"]);
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains(":2:2: error: division by zero"));
    let o = alea(&["-e", "0 && 1/0", "--strict"]);
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr.as_str()),
        (0, "0\n", "")
    );
}

#[test]
fn memory_and_caching() {
    let f = temp(
        "mem.ohf",
        "##f$c##\nme_inc_n\n##f$m##\nf$c + f$c + me_re_n\n",
    );
    let o = alea(&[&f, "--function", "f$m"]);
    assert_eq!(o.stdout, "1\n");
    let o = alea(&[&f, "--function", "f$m", "--json", "--seed", "7"]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["memory"]["n"], 1.0);
    assert_eq!(v["seed"], 7);
    assert_eq!(v["results"][0]["name"], "f$m");
}

#[test]
fn hand_lists_against_states() {
    let f = temp("l.ohf", "##list7##\nAA KK AKs // premium\n");
    let s1 = temp(
        "s1.json",
        r#"{"userchair":0,"dealerchair":0,"players":[{"chair":0}],"hero":["Ah","Kh"]}"#,
    );
    let s2 = temp(
        "s2.json",
        r#"{"userchair":0,"dealerchair":0,"players":[{"chair":0}],"hero":["Ah","Kd"]}"#,
    );
    assert_eq!(
        alea(&["-e", "list7 + islist7", &f, "--state", &s1]).stdout,
        "2\n"
    );
    assert_eq!(
        alea(&["-e", "list7 + islist7", &f, "--state", &s2]).stdout,
        "0\n"
    );
    for bad in ["##list1##\nAK\n", "hello\n", "##asdf##\n"] {
        let f = temp("bad.ohf", bad);
        assert_eq!(alea(&[&f]).code, 1, "{bad}");
    }
}

#[test]
fn state_errors_name_the_json_path() {
    let s = temp(
        "bad1.json",
        r#"{"userchair":0,"dealerchair":0,"players":[{"chair":0},{"chair":1},{"chair":12}]}"#,
    );
    let o = alea(&["-e", "call", "--state", &s]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr
            .ends_with("bad1.json: error: players[2].chair: 12 is out of range 0..9\n"),
        "{}",
        o.stderr
    );
    let s = temp(
        "bad2.json",
        "{\n  \"userchair\": 0,\n  \"dealerchair\": ,\n}\n",
    );
    let o = alea(&["-e", "call", "--state", &s]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.contains("bad2.json:3:18: error: invalid JSON"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .contains("  \"dealerchair\": ,\n                 ^\n"),
        "{}",
        o.stderr
    );
    let o = alea(&["-e", "call"]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr
            .contains("error: symbol 'call' needs a table state")
    );
    let o = alea(&["-e", "call", "--state", "no/such/file.json"]);
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("cannot read no/such/file.json"));
}

#[test]
fn spec_state_symbols_via_cli() {
    let o = alea(&["-e", "betround * 1000 + call * 100 + pot", "--state", STATE]);
    assert_eq!(o.stdout, "2410\n");
    // Card symbols come from alea-cards (spec §7.3).
    let o = alea(&["-e", "pokerval", "--state", STATE]);
    assert_eq!((o.code, o.stdout.as_str()), (0, "974002\n"), "{}", o.stderr);
    let o = alea(&[
        "-e",
        "nouts * 10000 + ncardsbetter * 1000 + nhandshi",
        "--state",
        STATE,
    ]);
    assert_eq!(o.stdout, "189432\n");
    let o = alea(&["-e", "handrank169 * 10000 + handrank2652", "--state", STATE]);
    assert_eq!(o.stdout, "80092\n");
    // prwin: seeded, so the same command prints the same value; §7.3's figure within 0.005.
    let args = [
        "-e",
        "prwin",
        "--state",
        STATE,
        "--seed",
        "3",
        "--iterations",
        "100000",
    ];
    let o = alea(&args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let prwin: f64 = o.stdout.trim().parse().unwrap();
    assert!((prwin - 0.758671).abs() < 0.005, "{prwin}");
    assert_eq!(alea(&args).stdout, o.stdout);
    let o = alea(&["-e", "prwin", "--state", STATE, "--seed", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["prwin"]["iterations"], 10000);
    assert_eq!(v["prwin"]["opponents"], 1);
    let sum: f64 = ["prwin", "prtie", "prlos"]
        .iter()
        .map(|k| v["prwin"][k].as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 1e-12, "{sum}");
}

#[test]
fn json_output_shape() {
    let o = alea(&["-e", "1/0 + ln 0", "--json", "--seed", "1"]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["results"][0]["value"], "-inf");
    let d = &v["diagnostics"][0];
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64(), d["col"].as_u64()),
        (Some("<expr>"), Some(1), Some(2))
    );
    assert_eq!(d["severity"], "warning");
    let o = alea(&["-e", "1 +", "--json"]);
    assert_eq!(o.code, 1);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["severity"], "error");
    let o = alea(&["-e", "1 + 2", "--json", "--trace"]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["trace"][0]["label"], "1 + 2");
    assert_eq!(v["trace"][0]["kind"], "operator");
}

#[test]
fn lint_cases() {
    let f = temp(
        "lint.ohf",
        "##2014-01-01##\nstray\n##list1##\nAA\n##list2##\nKK\n##f$x##\nlist1 + me_re_never\n\
         ##f$raise##\nNOT betround > 1 || (pokerval & 0xFF000000) == straightflush\n\
         ##f$call##\nf$raise\n##f$call##\n0\n",
    );
    let o = alea(&[&f, "--lint"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout, "0 errors, 7 warnings\n");
    for w in [
        "the body of section '2014-01-01' is ignored",
        "list 'list2' is never used",
        "function 'f$x' is never used and is not a standard function",
        "memory cell 'never' is read but never written",
        "'NOT' applies to the left operand only",
        "comparing it with a constant ≥ 2^31 is always false",
        "section 'f$call' is defined twice",
    ] {
        assert!(o.stderr.contains(w), "missing {w:?} in\n{}", o.stderr);
    }
    let f = temp("lint2.ohf", "##f$a##\nprwn + f$b\n##f$b##\nf$a\n");
    let o = alea(&[&f, "--lint"]);
    assert_eq!(o.code, 1);
    // Issue 12: a summary line per unknown name, with its count, before the totals.
    assert_eq!(o.stdout, "unknown name prwn: 1 use\n2 errors, 0 warnings\n");
    assert!(o.stderr.contains("did you mean 'prwin'?"));
    assert!(o.stderr.contains("cycle: f$a -> f$b -> f$a"));
}

#[test]
fn debug_tab_format() {
    let o = alea(&[
        "examples/openholdem/bot.ohf",
        "--state",
        STATE,
        "--function",
        "f$debug",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stdout,
        "       0.286 = call / (pot + call)\n0b111100000000000 = rankbits & 0x7C00\n"
    );
}

/// Golden traces: each `tests/holdem/*.args` file holds the arguments (one per line); the
/// expected stdout is beside it as `.out`.
#[test]
fn golden_traces() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut n = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "args"))
    {
        let args_text = std::fs::read_to_string(&path).unwrap();
        let args: Vec<&str> = args_text.lines().filter(|l| !l.is_empty()).collect();
        let o = alea(&args);
        let got = format!(
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            o.code, o.stdout, o.stderr
        );
        let out = path.with_extension("out");
        if update {
            std::fs::write(&out, &got).unwrap();
        } else {
            let want = std::fs::read_to_string(&out).unwrap_or_default();
            assert_eq!(
                got,
                want,
                "{} (UPDATE_GOLDEN=1 regenerates)",
                path.display()
            );
        }
        n += 1;
    }
    assert!(n >= 3);
}

#[test]
fn repl_has_the_example_table_loaded() {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(["repl", "holdem"])
        .current_dir(root())
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run alea repl");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"call + pot\n(1 +\n2)\n:trace\n$AKs && call <= 4\n:quit\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"14"), "{out}");
    assert!(lines.contains(&"3"), "{out}");
    assert!(lines.contains(&"trace on"), "{out}");
    assert!(lines.contains(&"  call <= 4 = 1"), "{out}");
}

#[test]
fn set_overrides_any_symbol() {
    let state = "examples/openholdem/state.json";
    // `elapsed` is live-only: a default with a warning, or the value given by --set.
    let r = alea(&["-e", "elapsed", "--state", state]);
    assert_eq!((r.code, r.stdout.trim()), (0, "0"), "{}", r.stderr);
    assert!(r.stderr.contains("'elapsed'"), "{}", r.stderr);
    let r = alea(&[
        "-e",
        "elapsed + userchair",
        "--state",
        state,
        "--set",
        "elapsed=30",
        "--set",
        "userchair=7",
    ]);
    assert_eq!((r.code, r.stdout.trim(), r.stderr.as_str()), (0, "37", ""));
    // Usage errors: not a catalogue name, not a number, no state.
    for (args, msg) in [
        (
            &["--state", state, "--set", "elapsd=1"][..],
            "'elapsd' is not a symbol of the catalogue",
        ),
        (
            &["--state", state, "--set", "elapsed=x"],
            "'x' is not a number",
        ),
        (&["--set", "elapsed=1"], "--set needs a table state"),
    ] {
        let r = alea(&[&["-e", "1"], args].concat());
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(msg), "{args:?}: {}", r.stderr);
    }
}
