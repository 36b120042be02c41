//! The conventions every `alea` command shares (docs/cli.md): exit statuses, the one
//! diagnostic format (plain when piped or with NO_COLOR, coloured when forced), the one JSON
//! shape of diagnostics, and a quiet success when stdout is a closed pipe.

mod support;

use support::{alea, dicelab, root};

const TOURNAMENT: &str = "examples/ezscript/tournament.json";

#[test]
fn exit_statuses_follow_one_convention() {
    // (arguments, status): 0 success, 1 the program or data failed, 2 usage.
    let cases: &[(&[&str], i32)] = &[
        (&["dice", "d6"], 0),
        (&["dice", "2d6"], 1),
        (&["dice", "1/0"], 1),
        (&["dice", "--width"], 2),
        (&["blackjack", "bag of I,J", "-n", "3", "--seed", "0"], 0),
        (&["blackjack", "I J"], 1),
        (&["blackjack", "tgm3", "--exact"], 1),
        (&["blackjack", "--preset", "nope"], 2),
        (&["holdem", "-e", "1 + 2"], 0),
        (&["holdem", "-e", "(1"], 1),
        (&["holdem", "/nonexistent.ohf"], 1),
        (&["holdem"], 2),
        (&["ez", "-e", "1 + 2"], 0),
        (&["ez", "-e", "1 +"], 1),
        (&["ez", "/nonexistent.ez"], 1),
        (&["ez", "--locale", "not a tag!", "-e", "1"], 2),
        (&["cards", "eval", "As Ks Qs Js Ts"], 0),
        (&["cards", "eval", "As Kx Qs Js Ts"], 1),
        (&["cards", "equity", "AhKh", "--iterations", "0"], 2),
        (&["no-such-command"], 2),
    ];
    for (args, want) in cases {
        let r = alea(args).dir(root()).run();
        assert_eq!(r.code, *want, "alea {args:?}: {}", r.stderr);
    }
    // The drop-in dicelab keeps 0.7's statuses: 2 after a syntax error, 3 after a runtime one.
    assert_eq!(dicelab(&["-r"]).stdin("2d6").run().code, 2);
    assert_eq!(dicelab(&["-r"]).stdin("1/0").run().code, 3);
}

#[test]
fn one_diagnostic_format_for_every_language() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["dice", "1 + "],
            "<expr>:1:5: error: syntax error: unexpected end of input, expected an expression\n",
        ),
        (&["blackjack", "I;J"], "<spec>:1:2: error[E01]: "),
        (&["holdem", "-e", "1 +"], "<expr>:1:4: error: "),
        (&["ez", "-e", "1 +"], "<expr>:1:4: error: "),
        (&["cards", "eval", "As Kx"], "<cards>:1:5: error: "),
    ];
    for (args, start) in cases {
        let r = alea(args).run();
        assert!(r.stderr.starts_with(start), "alea {args:?}:\n{}", r.stderr);
        // The source line, then the caret under the column.
        let lines: Vec<&str> = r.stderr.lines().collect();
        let col: usize = start
            .split(':')
            .nth(2)
            .and_then(|c| c.parse().ok())
            .unwrap();
        assert_eq!(
            lines[2].find('^'),
            Some(col - 1),
            "alea {args:?}:\n{}",
            r.stderr
        );
        assert!(!r.stderr.contains('\x1b'), "piped stderr is plain");
    }
}

#[test]
fn colour_only_when_forced_and_never_with_no_color() {
    let r = alea(&["dice", "2d6"]).env("CLICOLOR_FORCE", "1").run();
    assert!(r.stderr.contains("\x1b["), "{:?}", r.stderr);
    let r = alea(&["dice", "2d6"])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .run();
    assert!(!r.stderr.contains('\x1b'), "{:?}", r.stderr);
    assert!(r.stderr.starts_with("<expr>:1:2: error: "));
}

#[test]
fn json_diagnostics_have_one_shape() {
    let cases: &[&[&str]] = &[
        &["dice", "--json", "2d6"],
        &["blackjack", "--json", "I;J"],
        &["holdem", "--json", "-e", "1 +"],
        &["ez", "--json", "-e", "1 +"],
        &["cards", "eval", "--json", "As Kx"],
    ];
    for args in cases {
        let r = alea(args).run();
        assert_eq!(r.code, 1, "alea {args:?}");
        let v: serde_json::Value = serde_json::from_str(r.stdout.trim())
            .unwrap_or_else(|e| panic!("alea {args:?}: {e}: {}", r.stdout));
        let d = &v["diagnostics"][0];
        for key in ["severity", "message", "file", "line", "col", "rendered"] {
            assert!(d.get(key).is_some(), "alea {args:?}: no {key} in {d}");
        }
        assert_eq!(d["severity"], "error", "alea {args:?}");
        assert!(
            d["line"].is_u64() && d["col"].is_u64(),
            "alea {args:?}: {d}"
        );
    }
}

#[test]
fn a_closed_stdout_ends_quietly_with_success() {
    // Mostly outputs bigger than a pipe buffer, so the write fails however the race goes.
    let big: &[&[&str]] = &[
        &["dice", "--roll", "100000#d6"],
        &[
            "blackjack",
            "bag of I,J,L,O,S,T,Z",
            "-n",
            "200000",
            "--seed",
            "0",
        ],
        &[
            "holdem",
            "examples/openholdem/bot.ohf",
            "--state",
            "examples/openholdem/state.json",
            "--trace",
        ],
        &["ez", "--data", TOURNAMENT, "--simulate", "604800"],
        &["ez", "-e", "1 + 2"],
        &["cards", "eval", "As Ks Qs Js Ts"],
        &["tour"],
    ];
    for args in big {
        let (code, stderr) = alea(args).dir(root()).run_with_closed_stdout();
        assert_eq!(code, 0, "alea {args:?}: {stderr}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "alea {args:?}: {stderr}"
        );
    }
    let mut cmd = dicelab(&["-r"]).command();
    let mut child = cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("dicelab");
    drop(child.stdout.take());
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        let _ = stdin.write_all("100000#d6; 100000#d6".as_bytes());
    }
    let out = child.wait_with_output().expect("dicelab ends");
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn completions_and_man_pages_come_from_the_clap_definitions() {
    for (shell, marker) in [
        ("bash", "_alea()"),
        ("zsh", "#compdef alea"),
        ("fish", "complete -c alea"),
    ] {
        let r = alea(&["completions", shell]).run();
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        assert!(r.stdout.contains(marker), "{shell}");
        for sub in [
            "dice",
            "blackjack",
            "holdem",
            "ezscript",
            "cards",
            "completions",
        ] {
            assert!(r.stdout.contains(sub), "{shell}: {sub}");
        }
    }
    assert_eq!(alea(&["completions", "cmd.exe"]).run().code, 2);
    let r = alea(&["man"]).run();
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains(".TH alea 1"), "{}", r.stdout);
    assert!(r.stdout.contains("blackjack"));
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("man-{}", std::process::id()));
    let r = alea(&["man", "--dir", dir.to_str().expect("utf-8 path")]).run();
    assert_eq!(r.code, 0, "{}", r.stderr);
    let dice = std::fs::read_to_string(dir.join("alea-dice.1")).expect("alea-dice.1");
    assert!(dice.contains(".TH alea-dice 1"), "{dice}");
    assert!(dice.contains("\\-\\-seed"), "{dice}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn progress_is_never_drawn_when_stderr_is_not_a_terminal() {
    for args in [
        &["blackjack", "tgm2", "--stats", "-n", "20000", "--seed", "0"][..],
        &["dice", "-e", "20000", "--seed", "1", "sum(3#d6)"],
    ] {
        let r = alea(args).run();
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(
            !r.stderr.contains("simulating") && !r.stderr.contains("sampling"),
            "{args:?}: {:?}",
            r.stderr
        );
    }
}

#[test]
fn a_missing_outside_program_skips_locally_and_fails_under_ci() {
    assert!(support::require_in("present", true, true));
    assert!(!support::require_in("absent", false, false));
    let under_ci = std::panic::catch_unwind(|| support::require_in("absent", false, true));
    assert!(
        under_ci.is_err(),
        "CI=true must fail when a program is missing"
    );
}

#[test]
fn one_file_reader_for_every_command() {
    // common::read_file: the same "cannot read PATH: reason" everywhere (the drop-in dicelab
    // keeps 0.7's own message), UTF-8 errors with the byte offset, and Latin-1 read as such
    // for OpenHoldem's bots, in the profile loader and in `upgrade` alike.
    for args in [
        &["dice", "-f", "/nonexistent/x.dl"][..],
        &["ez", "/nonexistent/x.ez"],
        &["holdem", "/nonexistent/x.ohf"],
        &["holdem", "upgrade", "/nonexistent/x.ohf"],
        &["blackjack", "-f", "/nonexistent/x.bj"],
    ] {
        let r = alea(args).run();
        assert_eq!(r.code, 1, "alea {args:?}: {}", r.stderr);
        let path = args.last().unwrap();
        assert!(
            r.stderr
                .contains(&format!("cannot read {path}: No such file or directory")),
            "alea {args:?}: {}",
            r.stderr
        );
    }
    let r = dicelab(&["-f", "/nonexistent/x.dl", "-c"]).run();
    assert!(
        r.stderr
            .contains("Could not open file \"/nonexistent/x.dl\": No such file or directory"),
        "{}",
        r.stderr
    );
    let dir = std::env::temp_dir().join(format!("alea-reader-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let latin1 = dir.join("old.ohf");
    std::fs::write(&latin1, b"##f$a##\n// caf\xe9\n1 + 1\n").unwrap();
    let up = alea(&["holdem".as_ref(), "upgrade".as_ref(), latin1.as_os_str()]).run();
    assert_eq!(up.code, 0, "{}", up.stderr);
    assert!(up.stdout.contains("// café"), "{}", up.stdout);
    let run = alea(&[
        "holdem".as_ref(),
        latin1.as_os_str(),
        "--function".as_ref(),
        "f$a".as_ref(),
    ])
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bad = dir.join("bad.ez");
    std::fs::write(&bad, b"1 + \xff").unwrap();
    let ez = alea(&["ez".as_ref(), bad.as_os_str()]).run();
    assert_eq!(ez.code, 1);
    assert!(
        ez.stderr
            .contains("not valid UTF-8 (invalid byte at offset 4)"),
        "{}",
        ez.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
