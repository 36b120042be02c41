//! `alea ezscript` / `alea ez` end to end: the built binary on expressions, files, stdin,
//! templates, JSON, budgets and bad input; the examples in examples/ezscript; the tour.

mod support;

use std::process::Command;

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn alea(args: &[&str], stdin: Option<&str>) -> Out {
    let r = support::alea(args).stdin(stdin.unwrap_or("")).run();
    Out {
        code: r.code,
        stdout: r.stdout,
        stderr: r.stderr,
    }
}

fn example(name: &str) -> String {
    format!(
        "{}/../../examples/ezscript/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn expressions_files_and_stdin() {
    let out = alea(&["ez", "-e", "12 / 5"], None);
    assert_eq!((out.code, out.stdout.as_str()), (0, "2.4\n"));
    let out = alea(&["ezscript", "-e", "\"a\"\n+ \"b\""], None);
    assert_eq!((out.code, out.stdout.as_str()), (0, "ab\n"));
    let out = alea(&["ez", "-"], Some("x = [1, 2]\nx.map(func(e) { e * 2 })\n"));
    assert_eq!((out.code, out.stdout.as_str()), (0, "[2, 4]\n"));
    let cases = [
        ("payout_tiers.ez", "[180, 110, 70, 40]\n"),
        (
            "leaderboard.ez",
            "Dana 3.5\nMia 2\nRavi 2\nAlex R. 2\nTom 1.5\n…\n",
        ),
        ("closures.ez", "[3, [1, 2], [99, 2]]\n"),
    ];
    for (file, want) in cases {
        let out = alea(&["ez", &example(file)], None);
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (0, want, ""),
            "{file}"
        );
    }
}

#[test]
fn templates() {
    let out = alea(&["ez", "--template", &example("clock.tmpl")], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "Level 7 of 18 · 12:26 left · 1st, 2nd and 3rd paid\n\n"
    );
    // A failing insertion is empty (ezscript.md §10): reported as a warning, exit status 0;
    // with --strict it is an error and the exit status is 1.
    let out = alea(&["ez", "--template", "-e", "A{{ nope }}B{{ 1 }}"], None);
    assert_eq!((out.code, out.stdout.as_str()), (0, "AB1\n"));
    assert!(
        out.stderr
            .starts_with("<expr>:1:5: warning: Unknown name nope\n"),
        "{}",
        out.stderr
    );
    let out = alea(
        &["ez", "--strict", "--template", "-e", "A{{ nope }}B{{ 1 }}"],
        None,
    );
    assert_eq!((out.code, out.stdout.as_str()), (1, "AB1\n"));
    assert!(
        out.stderr
            .starts_with("<expr>:1:5: error: Unknown name nope\n"),
        "{}",
        out.stderr
    );
    let out = alea(
        &["ez", "--template", "--json", "-e", "A{{ 1 }}{{ nope }}"],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["text"], "A1");
    // The one diagnostic shape (docs/cli.md) plus the insertion.
    let d = &v["diagnostics"][0];
    assert_eq!(d["insertion"], 1);
    assert_eq!(d["message"], "Unknown name nope");
    assert_eq!(d["severity"], "warning");
    assert_eq!((&d["line"], &d["col"]), (&1.into(), &12.into()));
    assert_eq!(v["ok"], true);
}

#[test]
fn errors_have_position_snippet_and_caret() {
    let out = alea(&["ez", "-e", "if 1 { 2 }"], None);
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "<expr>:1:4: error: Condition must evaluate to true or false.\nif 1 { 2 }\n   ^\n"
    );
    let out = alea(&["ez", "-e", "x = 1\n[1 2]"], None);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "<expr>:2:4: error: Syntax error at 2:4: expected ], found number 2\n[1 2]\n   ^\n"
    );
}

#[test]
fn json_output() {
    let out = alea(&["ez", "--json", "-e", "[1, 0 / 0, \"a\", {b: 2.5}]"], None);
    assert_eq!(out.code, 0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"ok": true, "kind": "content", "value": [1, "NaN", "a", {"b": 2.5}],
            "text": "[1, NaN, a, {b: 2.5}]", "diagnostics": []})
    );
    let out = alea(&["ez", "--json", "-e", "1 + true"], None);
    assert_eq!(out.code, 1);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["value"], serde_json::Value::Null);
    assert_eq!(
        v["diagnostics"][0]["message"],
        "Operator + cannot be applied to double and bool"
    );
}

#[test]
fn budgets_and_hostile_input() {
    let out = alea(&["ez", "--fuel", "1000", "-e", "while true { }"], None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("error: Script ran out of steps"),
        "{}",
        out.stderr
    );
    let out = alea(&["ez", "-e", "for i = 0; i < 200000; i += 1 { }; 1"], None);
    assert_eq!(out.code, 1, "the default budget is 250000 steps");
    let out = alea(
        &[
            "ez",
            "--fuel",
            "10000000",
            "-e",
            "for i = 0; i < 200000; i += 1 { }; 1",
        ],
        None,
    );
    assert_eq!((out.code, out.stdout.as_str()), (0, "1\n"));
    let out = alea(&["ez", "-e", "func f(n) { f(n + 1) }; f(0)"], None);
    assert!(
        out.stderr.contains("Too much recursion (limit 500)"),
        "{}",
        out.stderr
    );
    let out = alea(
        &[
            "ez",
            "-e",
            "l = [1]; for i = 0; i < 64; i += 1 { l = l + l }",
        ],
        None,
    );
    assert!(out.stderr.contains("List is too long"), "{}", out.stderr);
    let brackets = "[".repeat(1 << 20);
    let out = alea(&["ez", "-"], Some(&brackets));
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("Script is too long"), "{}", out.stderr);
    let out = alea(&["ez", "-"], Some(&"(".repeat(5000)));
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("Nesting is too deep"), "{}", out.stderr);
}

#[test]
fn usage_errors() {
    let out = alea(&["ez"], None);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("-e SOURCE"), "{}", out.stderr);
    // A file that does not load: the data failed (1), not the command line.
    let out = alea(&["ez", "/nonexistent/x.ez"], None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("cannot read /nonexistent/x.ez"),
        "{}",
        out.stderr
    );
    let out = alea(&["ez", "--locale", "de", "-e", "1.5"], None);
    assert_eq!((out.code, out.stdout.as_str()), (0, "1.5\n"));
    let out = alea(&["ez", "--kind", "nonsense", "-e", "1"], None);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("nonsense"), "{}", out.stderr);
}

/// Issue 14, part 4: a source starting with `-`, a byte order mark, an unknown locale, and the
/// approximate duration rounded to the nearest second.
#[test]
fn seed_and_spec_conformance() {
    let out = alea(&["ez", "-e", "-20"], None);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "-20\n"),
        "{}",
        out.stderr
    );
    let out = alea(&["ez", "-e", "-2 * 3", "--locale", "de"], None);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "-6\n"),
        "{}",
        out.stderr
    );

    let out = alea(&["ez", "-"], Some("\u{feff}1 + 1\nnope"));
    assert_eq!(out.code, 1);
    // The position counts from after the mark: line 2, column 1.
    assert!(
        out.stderr
            .starts_with("<stdin>:2:1: error: Unknown name nope"),
        "{}",
        out.stderr
    );
    let dir = std::env::temp_dir().join(format!("alea-ez-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("bom.ez");
    std::fs::write(&script, "\u{feff}title").unwrap();
    let data = dir.join("bom.json");
    let json = std::fs::read_to_string(example("tournament.json")).unwrap();
    std::fs::write(&data, format!("\u{feff}{json}")).unwrap();
    let out = alea(
        &[
            "ez",
            "--data",
            data.to_str().unwrap(),
            script.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "Summer League #7\n"),
        "{}",
        out.stderr
    );
    let out = alea(&["ez", "-e", "\u{feff}2 + 2"], None);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "4\n"),
        "{}",
        out.stderr
    );
    let out = alea(&["ez", "check", data.to_str().unwrap()], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();

    let out = alea(&["ez", "--locale", "zz-ZZ", "-e", "1"], None);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: Unknown locale \"zz-ZZ\"; did you mean az, dz, or lzz?\n"
    );
    assert_eq!(out.stdout, "");

    for (locale, want) in [("de-DE", "2 Sek.\n"), ("en-US", "2 sec\n")] {
        let out = alea(
            &[
                "ez",
                "--locale",
                locale,
                "-e",
                "1500.toApproximateDurationString",
            ],
            None,
        );
        assert_eq!((out.code, out.stdout.as_str()), (0, want), "{}", out.stderr);
    }
}

#[test]
fn tour_runs_the_examples() {
    let mut out = Vec::new();
    alea_cli::cmd::ezscript::tour(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("  => 2.4\n"), "{text}");
    assert!(text.contains("  => Dana, Mia, and Tom\n"), "{text}");
    assert!(
        text.contains("  => Level 7 of 18, 12:26 left, 3rd place\n"),
        "{text}"
    );
    assert!(
        text.contains("Condition must evaluate to true or false."),
        "{text}"
    );
}

/// Splits a tour command line the way a POSIX shell would for the quoting the tour uses
/// (words separated by spaces, single-quoted words kept whole).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Every `$ alea ez …` command the tour shows for the example tournament prints exactly
/// what the tour says it prints, when run from the repository root.
#[test]
fn tour_tournament_commands_are_real() {
    let mut out = Vec::new();
    alea_cli::cmd::ezscript::tour(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let part = text
        .split_once("# the example tournament\n")
        .expect("the tour shows the example tournament")
        .1;
    let root = format!("{}/../..", env!("CARGO_MANIFEST_DIR"));
    let mut commands = 0;
    for block in part.split("\n\n").filter(|b| b.starts_with("$ ")) {
        let (command, expected) = block.split_once('\n').unwrap();
        let words = shell_words(command.strip_prefix("$ alea ").unwrap());
        let run = Command::new(env!("CARGO_BIN_EXE_alea"))
            .current_dir(&root)
            .args(&words)
            .output()
            .expect("run alea");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert_eq!(run.status.code(), Some(0), "{command}");
        assert_eq!(stdout.trim_end(), expected.trim_end(), "{command}");
        commands += 1;
    }
    assert_eq!(commands, 4, "{part}");
}

#[test]
fn repl_positions_count_from_each_input() {
    // Issue 15: a syntax error in a late input named the line and column of all the inputs
    // joined (`Syntax error at 4:4`); it is the input's own.
    let out = alea(
        &["repl", "ez"],
        Some("x = 1\ny = 2\nz = 3\n[1 2]\nx + y + z\n"),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains(
            "<repl>:1:4: error: Syntax error at 1:4: expected ], found number 2\n[1 2]\n   ^\n"
        ),
        "{}",
        out.stdout
    );
    // The failed input is not kept; the accepted ones still are.
    assert!(out.stdout.ends_with("\n6\n"), "{}", out.stdout);
}

#[test]
fn memory_is_a_budget_of_its_own() {
    // Issue 14: with a huge step budget, distinct 64 KiB texts ended the process at 3.4 GB.
    let src = "s = \"x\"; for i = 0; i < 16; i += 1 { s += s }; l = [0]; for i = 0; i < 16; i += 1 { l = l + l }; k = 0; l.map(func(x) { k += 1; s + k }).count";
    let out = alea(&["ez", "--fuel", "1000000000", "-e", src], None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("Script ran out of memory (limit 64 MiB)"),
        "{}",
        out.stderr
    );
    let tree = "o = {a: 1}; for i = 0; i < 40; i += 1 { o = {a: o, b: o} }; asString(o).count";
    let out = alea(&["ez", "--fuel", "1000000000", "-e", tree], None);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("Text is too long"), "{}", out.stderr);
}
