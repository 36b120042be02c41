//! `alea dice` and `alea tour`'s dicelab section.

use std::process::{Command, Output};

fn alea(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(args)
        .output()
        .expect("run alea")
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
    let o = alea(&["dice", "2d6"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("<expr>:1:2: syntax error: unexpected 'd'"),
        "{err}"
    );
    let o = alea(&["dice", "--roll", "1/0; 4"]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(stdout(&o), "4\n");
    let o = alea(&["dice", "--json", "--roll", "1/0"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["error"]["message"], "division by zero");
    assert_eq!(v["error"]["column"], 2);
    let o = alea(&["dice", "-f", "/nonexistent.dl"]);
    assert_eq!(o.status.code(), Some(1));
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
