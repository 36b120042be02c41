//! `alea dice` and `alea tour`'s dicelab section.

mod support;

use std::process::{Command, Output};

fn alea(args: &[&str]) -> Output {
    support::alea(args).output()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn roll_and_json() {
    let o = alea(&["dice", "--roll", "--seed", "1", "sum 1..100; 3#d6"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "5050");
    assert_eq!(lines[1].split(' ').count(), 3);
    let o = alea(&["dice", "--roll", "--json", "--seed", "1", "sum 1..100"]);
    assert_eq!(stdout(&o), "{\"program\":\"sum 1..100\",\"roll\":[5050]}\n");
}

#[test]
fn eval_table_and_json() {
    let o = alea(&["dice", "--seed", "3", "-n", "60000", "d6"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains("value  probability  at least   at most"),
        "{out}"
    );
    let mean: f64 = out
        .split("mean ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|m| m.parse().ok())
        .expect("mean in the footer");
    assert!((mean - 3.5).abs() < 0.05, "{out}");
    assert_eq!(out.lines().filter(|l| l.contains('█')).count(), 6);
    let o = alea(&[
        "dice",
        "--json",
        "--seed",
        "3",
        "-e",
        "1000",
        "if >3 d6 then 1 else ()",
    ]);
    let line = stdout(&o);
    let v: serde_json::Value = serde_json::from_str(line.trim()).expect("one JSON line");
    assert_eq!(v["program"], "if >3 d6 then 1 else ()");
    assert_eq!(v["rolls"], 1000);
    assert_eq!(v["outcomes"][0]["value"], serde_json::Value::Null);
    assert_eq!(v["mean"], 1.0);
    // The same seed gives the same simulation.
    let again = alea(&[
        "dice",
        "--json",
        "--seed",
        "3",
        "-e",
        "1000",
        "if >3 d6 then 1 else ()",
    ]);
    assert_eq!(stdout(&again), line);
}

#[test]
fn errors_and_exit_codes() {
    // docs/cli.md: 1 the program failed (syntax or runtime), 2 usage; the one diagnostic format.
    let o = alea(&["dice", "2d6"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err,
        "<expr>:1:2: error: syntax error: unexpected 'd', expected ';' or end of input\n2d6\n ^\n"
    );
    let o = alea(&["dice", "--json", "2d6"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["diagnostics"][0]["col"], 2);
    let o = alea(&["dice", "--roll", "1/0; 4"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "4\n");
    let o = alea(&["dice", "--json", "--roll", "1/0"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["program"], "1/0");
    assert_eq!(v["diagnostics"][0]["message"], "division by zero");
    assert_eq!(v["diagnostics"][0]["col"], 2);
    let o = alea(&["dice", "-f", "/nonexistent.dl"]);
    assert_eq!(o.status.code(), Some(1));
    let o = alea(&["dice", "-f", "x.dl", "d6"]);
    assert_eq!(o.status.code(), Some(2));
    let o = alea(&["dice", "--no-such-option"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn tour_runs_the_man_page_examples() {
    // Only the dicelab section is checked: other languages' sections are their own tests.
    let o = alea(&["tour"]);
    let out = stdout(&o);
    assert!(out.contains("# Fibonacci"), "{out}");
    assert!(out.contains("roll: 1 1 2 \n"), "{out}");
    assert!(out.contains("100000 rolls: mean"), "{out}");
}

#[test]
fn eval_value_that_is_not_a_number_is_the_program() {
    // `-e`'s optional count must not swallow the program (issue 15).
    let o = alea(&["dice", "--seed", "2", "-n", "5000", "-e", "sum(3#d6)"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(out.starts_with("sum(3#d6)  (5000 rolls)\n"), "{out}");
    let o = alea(&["dice", "--seed", "2", "--json", "-e", "sum(3#d6)"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["program"], "sum(3#d6)");
    assert_eq!(v["rolls"], 1_000_000);
    // A number is still the count.
    let o = alea(&["dice", "--seed", "2", "--json", "-e", "300", "d6"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(
        (v["program"].as_str(), v["rolls"].as_u64()),
        (Some("d6"), Some(300))
    );
}

#[test]
fn roll_counts_beyond_the_limit_are_usage_errors() {
    for args in [
        &["dice", "-e", "1000000000", "d6"][..],
        &["dice", "-e", "0", "d6"],
        &["dice", "-n", "0", "d6"],
        &["dice", "-n", "100000001", "d6"],
        &["dice", "-e", "99999999999999999999999", "d6"],
    ] {
        let o = alea(args);
        let err = String::from_utf8_lossy(&o.stderr);
        // A usage error: status 2 (docs/cli.md).
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("the number of rolls must be from 1 to 100000000"),
            "{args:?}: {err}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_runtime_error_ends_its_statement_in_every_mode() {
    // Roll then calc: the error of the roll ends the statement, the next one runs.
    let o = alea(&["dice", "-r", "-c", "--no-bars", "d0; 2"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.matches("die size must be at least 1").count(),
        1,
        "{err}"
    );
    assert!(stdout(&o).starts_with("2\n2\n"), "{}", stdout(&o));
}

#[test]
fn the_repl_takes_programs_nested_as_deep_as_0_7_allows() {
    // Parsing, running and dropping a 9,990-deep statement recurse that deep: the REPL
    // runs them on the big stack (it overflowed the main thread's stack before).
    let chain = format!(
        "{}1\n{}1{}\n",
        "sum ".repeat(9_990),
        "(".repeat(9_990),
        ")".repeat(9_990)
    );
    let r = support::alea(&["repl", "dice"])
        .env(
            "HOME",
            std::env::temp_dir().to_str().expect("a UTF-8 temp dir"),
        )
        .stdin(chain)
        .run();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout.matches("mean 1.000000  sd 0.000000").count(),
        2,
        "{}",
        r.stdout
    );
}

#[test]
fn the_repl_computes_the_exact_distribution_by_default() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(["repl", "dice"])
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run alea repl dice");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"sum(2#d6)\n:roll\n:seed 1\nsum 1..100\n:eval 0\n:eval 500\nd2\n:calc\n3#d6\n")
        .expect("write");
    let o = child.wait_with_output().expect("wait");
    let text = stdout(&o);
    assert!(text.contains("     7     0.166667"), "{text}");
    assert!(text.contains("mean 7.000000"), "{text}");
    assert!(text.contains("mode: roll\n"), "{text}");
    assert!(text.contains("\n5050\n"), "{text}");
    assert!(
        text.contains("the number of rolls must be from 1 to 100000000 (got 0)"),
        "{text}"
    );
    assert!(text.contains("d2  (500 rolls)"), "{text}");
    assert!(text.contains("mode: calc"), "{text}");
    assert!(
        text.contains("result is not a single value (list of 3 values)"),
        "{text}"
    );
}

/// `alea dice` on a terminal with no program says it reads stdin. The terminal is util-linux
/// `script`'s pseudo-terminal; it is part of every Linux base system the CI uses.
#[test]
fn no_program_on_a_terminal_says_it_reads_stdin() {
    let script = std::path::Path::new("/usr/bin/script");
    if !script.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "util-linux `script` is needed for this test under CI"
        );
        return;
    }
    let cmd = format!("{} dice --roll", env!("CARGO_BIN_EXE_alea"));
    let mut child = Command::new(script)
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run script");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        // The program, then end-of-file (Ctrl-D) typed on the terminal.
        let _ = stdin.write_all(b"sum 1..10\n\x04");
    }
    let o = child.wait_with_output().expect("wait");
    let text = stdout(&o);
    assert!(text.contains("reading it from stdin"), "{text}");
    assert!(text.contains("55"), "{text}");
}
