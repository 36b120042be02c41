//! `alea blackjack` end to end: deal, JSON shapes, canonical forms, diagnostics and exit codes,
//! exact and simulated statistics, plots, comparison, the tour, and every `console` example of
//! docs/blackjack.md.

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};

fn alea(args: &[&str]) -> Output {
    support::alea(args).output()
}

fn bj(args: &[&str]) -> Output {
    let mut all = vec!["blackjack"];
    all.extend_from_slice(args);
    alea(&all)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn status(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn deals_the_golden_sequence_with_words_joined() {
    let o = bj(&["bag", "of", "I,J,L,O,S,T,Z", "--seed", "0"]);
    assert_eq!(status(&o), 0);
    assert_eq!(
        stdout(&o),
        "L Z J I S O T Z T J I O L S I Z T J O S L L Z J I O T S\n"
    );
    assert_eq!(stderr(&o), "", "no seed report when --seed is given");
    let hex = bj(&["bag of I,J,L,O,S,T,Z", "--seed", "0x0"]);
    assert_eq!(stdout(&hex), stdout(&o));
    let tgm2 = bj(&["--preset", "tgm2", "--seed", "42", "-n", "8"]);
    assert_eq!(stdout(&tgm2), "T L I S J Z O T\n");
    let by_name = bj(&["tgm2", "--seed", "42", "-n", "8"]);
    assert_eq!(stdout(&by_name), stdout(&tgm2));
}

#[test]
fn os_seed_is_reported_and_reproducible() {
    let o = bj(&["I,J,L,O,S,T,Z", "-n", "40"]);
    assert_eq!(status(&o), 0);
    let err = stderr(&o);
    let seed = err
        .strip_prefix("seed: ")
        .and_then(|s| s.trim().parse::<u64>().ok())
        .expect("seed: S on stderr");
    let again = bj(&["I,J,L,O,S,T,Z", "-n", "40", "--seed", &seed.to_string()]);
    assert_eq!(stdout(&again), stdout(&o));
}

#[test]
fn json_deal_shape() {
    let o = bj(&[
        "S,Z with 1 history",
        "--seed",
        "18446744073709551615",
        "-n",
        "4",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"spec": "S,Z with 1 history", "seed": "18446744073709551615",
                           "pieces": ["S", "Z", "S", "Z"]})
    );
}

#[test]
fn huge_n_streams() {
    let o = bj(&["7bag", "--seed", "1", "-n", "3000000"]);
    assert_eq!(status(&o), 0);
    assert_eq!(o.stdout.len(), 6_000_000);
    let first: Vec<&[u8]> = o.stdout[..13].split(|&b| b == b' ').collect();
    assert_eq!(first.len(), 7, "pieces are space separated");
}

#[test]
fn canonical_forms() {
    for (input, want) in [
        ("BAG OF I , J", "bag of I,J"),
        ("  S , Z\n with 01 history ", "S,Z with 1 history"),
        ("Sequence Of I,J,L First L", "sequence of I,J,L first L"),
        (
            "tgm1",
            "I,J,L,O,S,T,Z with 4 history 4 rolls starting with Z,Z,Z,Z first I,J,L,T",
        ),
    ] {
        let o = bj(&[input, "--canonical"]);
        assert_eq!(
            (status(&o), stdout(&o)),
            (0, format!("{want}\n")),
            "{input:?}"
        );
    }
    let o = bj(&["--preset", "pairs", "--canonical"]);
    assert_eq!(status(&o), 2);
    assert!(stderr(&o).contains("built in"));
}

#[test]
fn static_errors_render_with_position_code_and_caret() {
    let cases = [
        (
            "I J",
            "<spec>:1:3: error[E01]: expected ',', 'with', 'first' or end of input, found 'J'\nI J\n  ^\n",
        ),
        (
            "bag of",
            "<spec>:1:7: error[E02]: expected a piece name after 'of', found end of input\nbag of\n      ^\n",
        ),
        (
            "I,J with 70000 history",
            "<spec>:1:10: error[E03]: number 70000 is too large (at most 65535)\nI,J with 70000 history\n         ^\n",
        ),
        (
            "3 bag of I,J",
            "<spec>:1:1: error[E04]: bag deal count 3 is outside 1..2 (the list has 2 pieces)\n3 bag of I,J\n^\n",
        ),
        (
            "I,J with 1 history 0 rolls",
            "<spec>:1:20: error[E05]: roll count must be at least 1\nI,J with 1 history 0 rolls\n                   ^\n",
        ),
        (
            "S,Z with 2 history",
            "<spec>:1:10: error[E06]: history length 2 must be less than the list length 2 unless rolls are given\nS,Z with 2 history\n         ^\n",
        ),
        (
            "I,J,L with 2 history starting with I,J,L",
            "<spec>:1:36: error[E07]: starting history has 3 pieces but the history length is 2\nI,J,L with 2 history starting with I,J,L\n                                   ^\n",
        ),
        (
            "I,J first K",
            "<spec>:1:11: error[E08]: piece 'K' in 'first' is not in the list\nI,J first K\n          ^\n",
        ),
    ];
    for (spec, want) in cases {
        let o = bj(&[spec, "--seed", "0"]);
        assert_eq!(status(&o), 1, "{spec}");
        assert!(stderr(&o).starts_with(want), "{spec}:\n{}", stderr(&o));
        assert!(stderr(&o).contains("= help: "), "{spec}: hint");
        assert_eq!(stdout(&o), "");
    }
    let o = bj(&["I,J,L,O,S,T,Z with 7 history"]);
    assert!(stderr(&o).contains(
        "= help: history length 7 needs at least 8 list entries; use `rolls` or a shorter history"
    ));
}

#[test]
fn json_errors() {
    // The one diagnostic shape of docs/cli.md.
    let o = bj(&["I;J", "--json"]);
    assert_eq!(status(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "E01");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["span"], serde_json::json!([1, 2]));
    assert_eq!(
        (&d["file"], &d["line"], &d["col"]),
        (&"<spec>".into(), &1.into(), &2.into())
    );
    assert!(d["message"].as_str().unwrap().contains("';'"));
    assert_eq!(stderr(&o), "");
    let o = bj(&["tgm3", "--exact", "--json"]);
    assert_eq!(status(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["diagnostics"][0]["code"], "X02");
    assert_eq!(v["diagnostics"][0]["line"], serde_json::Value::Null);
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["--preset", "nope"][..],
        &["S,Z", "--seed", "banana"],
        &["S,Z", "--tail", "2"],
        &["S,Z", "--stats", "--exact"],
        &["S,Z", "--canonical", "--exact"],
        &[],
    ] {
        let o = bj(args);
        assert_eq!(status(&o), 2, "{args:?}: {}", stderr(&o));
    }
    let o = bj(&["--preset", "nope"]);
    assert!(stderr(&o).contains(
        "known presets: memoryless, 7bag, 14bag, tgm-ace, tgm1, tgm2, lockjaw-mtb, nes, nes-real, gameboy, tgm3, pairs, 7+1bag, 7+2bag"
    ));
}

#[test]
fn exact_json_matches_the_spec_example() {
    let o = bj(&["S,Z", "--exact", "--json", "--tail", "1/10"]);
    assert_eq!(status(&o), 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let dist = serde_json::json!([{"gap":0,"probability":"1/2"},{"gap":1,"probability":"1/4"},
                                  {"gap":2,"probability":"1/8"},{"gap":3,"probability":"1/16"}]);
    assert_eq!(
        v,
        serde_json::json!({"spec": "S,Z", "pieces": ["S","Z"],
            "frequency": {"S": "1/2", "Z": "1/2"}, "repeat_probability": "1/2",
            "from_history_probability": null, "max_gap": {"S": null, "Z": null},
            "tail_limit": "1/10", "gap_tail": {"S": "1/16", "Z": "1/16"},
            "gap_distribution": {"S": dist, "Z": dist}})
    );
    // Keys follow the order of `pieces`, not the alphabet.
    let o = bj(&["Z,S", "--exact", "--json"]);
    let text = stdout(&o);
    assert!(text.find("\"Z\": \"1/2\"").unwrap() < text.find("\"S\": \"1/2\"").unwrap());
}

#[test]
fn exact_impossible_exits_1() {
    let o = bj(&["tgm3", "--exact"]);
    assert_eq!(status(&o), 1);
    assert_eq!(
        stderr(&o),
        "error[X02]: preset 'tgm3' has no finite state machine; use --stats\n"
    );
    let o = bj(&["tgm2", "--exact", "--max-states", "10"]);
    assert_eq!(status(&o), 1);
    assert_eq!(
        stderr(&o),
        "error[X01]: state space exceeds 10 states (it may need 48); \
         raise --max-states to 48 or use --stats\n"
    );
}

#[test]
fn exact_text_and_tgm2_history_probability() {
    let o = bj(&["tgm2", "--exact", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["from_history_probability"],
        "4574196964864/137023139315083"
    );
    assert_eq!(v["frequency"]["T"], "1/7");
    let o = bj(&["bag of I,J,L,O,S,T,Z", "--exact"]);
    let text = stdout(&o);
    assert!(text.contains("repeat probability: 1/49"), "{text}");
}

#[test]
fn stats_json_shape_and_values() {
    let o = bj(&[
        "S,Z with 1 history",
        "--stats",
        "--json",
        "-n",
        "1000",
        "--seed",
        "5",
    ]);
    assert_eq!(status(&o), 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["n"], 1000);
    assert_eq!(v["seed"], "5");
    assert_eq!(v["counts"], serde_json::json!({"S": 500, "Z": 500}));
    assert_eq!(v["repeat_rate"], 0.0);
    assert_eq!(
        v["gaps"]["S"],
        serde_json::json!({"count": 499, "mean": 1.0, "max": 1,
                           "histogram": [{"gap": 1, "count": 499}]})
    );
}

#[test]
fn plot_writes_a_deterministic_svg() {
    let dir = std::env::temp_dir().join(format!("alea-bj-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.svg");
    let b = dir.join("b.svg");
    for p in [&a, &b] {
        let o = bj(&[
            "bag of I,J,L,O,S,T,Z",
            "--exact",
            "--plot",
            p.to_str().unwrap(),
        ]);
        assert_eq!(status(&o), 0, "{}", stderr(&o));
    }
    let svg = std::fs::read_to_string(&a).unwrap();
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    assert_eq!(svg.matches("<polyline").count(), 7, "one series per piece");
    assert_eq!(svg, std::fs::read_to_string(&b).unwrap());
    let c = dir.join("c.svg");
    let o = bj(&[
        "tgm3",
        "--stats",
        "-n",
        "20000",
        "--seed",
        "1",
        "--plot",
        c.to_str().unwrap(),
    ]);
    assert_eq!(status(&o), 0);
    assert!(std::fs::read_to_string(&c).unwrap().contains("<polyline"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_side_by_side() {
    let o = bj(&[
        "--compare",
        "7bag",
        "tgm2",
        "S,Z with 1 history",
        "tgm3",
        "--seed",
        "1",
        "-n",
        "50000",
    ]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[1].starts_with("exact")
            && lines[1].contains(" 12 ")
            && lines[1].ends_with("bag of I,J,L,O,S,T,Z")
    );
    assert!(lines[4].starts_with("sim") && lines[4].ends_with("tgm3"));
    let o = bj(&["--compare", "7bag", "nes", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v[1]["repeat_probability"], "1/28");
}

#[test]
fn spec_from_a_file() {
    let path = repo().join("examples/blackjack/tgm2.bj");
    let o = bj(&["-f", path.to_str().unwrap(), "--canonical"]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "I,J,L,O,S,T,Z with 4 history 6 rolls starting with Z,S,S,Z first I,J,L,T\n"
    );
}

#[test]
fn tour_shows_every_seed_example() {
    let o = alea(&["tour"]);
    assert_eq!(status(&o), 0);
    let text = stdout(&o);
    for ex in [
        "bag of I,J,L,O,S,T,Z",
        "7 bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
        "I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T",
        "5 bag of I,T,J,J,L,L,O,O,S,S,S,Z,Z,Z",
        "Lardarse's more difficult",
    ] {
        assert!(text.contains(ex), "tour lacks {ex}");
    }
    assert!(text.contains("L Z J I S O T Z T J I O L S I Z T J O S L"));
}

/// Runs every ```console block of docs/blackjack.md: lines starting with `$ alea ` are
/// commands, the lines up to the next command are the expected stdout (exactly).
#[test]
fn docs_console_examples() {
    let doc = std::fs::read_to_string(repo().join("docs/blackjack.md")).unwrap();
    let mut ran = 0;
    let mut in_block = false;
    let mut cmd: Option<String> = None;
    let mut expected = String::new();
    let mut check = |cmd: &Option<String>, expected: &str| {
        if let Some(c) = cmd {
            let args = shell_words(c);
            let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            let o = alea(&args);
            assert_eq!(
                stdout(&o),
                expected,
                "docs example: {c}\nstderr: {}",
                stderr(&o)
            );
            ran += 1;
        }
    };
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            if in_block {
                check(&cmd, &expected);
                cmd = None;
                expected.clear();
                in_block = false;
            } else {
                in_block = line.trim() == "```console";
            }
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(c) = line.strip_prefix("$ alea ") {
            check(&cmd, &expected);
            cmd = Some(c.to_string());
            expected.clear();
        } else {
            expected.push_str(line);
            expected.push('\n');
        }
    }
    assert!(ran >= 5, "docs/blackjack.md has console examples ({ran})");
}

/// Splits a command line on spaces, honouring single quotes.
fn shell_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for ch in s.chars() {
        match ch {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(ch);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

#[test]
fn repl_reads_specs_and_commands() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(["repl", "blackjack"])
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"S,Z with 1 history\n:n 4\nbag of I\n:exact S,Z\nI J\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let text = stdout(&o);
    assert!(text.contains("S Z S Z S Z"), "{text}");
    assert!(text.contains("\nI I I I\n"), "{text}");
    assert!(text.contains("repeat probability: 1/2"), "{text}");
    assert!(text.contains("error[E01]"), "{text}");
}

#[test]
fn warnings_never_reject() {
    let o = bj(&["1 bag of I,J", "--seed", "0", "-n", "3"]);
    assert_eq!(status(&o), 0);
    assert_eq!(stdout(&o).split_whitespace().count(), 3);
    assert!(stderr(&o).starts_with("warning: '1 bag of L' is memoryless"));
}

#[test]
fn mistyped_preset_names_are_errors_with_suggestions() {
    let o = bj(&["tgm9"]);
    assert_eq!(status(&o), 2);
    assert!(
        stderr(&o).starts_with("error: unknown preset 'tgm9'; did you mean tgm1/tgm2/tgm3?"),
        "{}",
        stderr(&o)
    );
    let o = bj(&["--preset", "7bga"]);
    assert_eq!(status(&o), 2);
    assert!(stderr(&o).contains("did you mean 7bag?"), "{}", stderr(&o));
    // A one-piece list far from every preset name still deals.
    let o = bj(&["banana", "-n", "3", "--seed", "0"]);
    assert_eq!(stdout(&o), "banana banana banana\n");
}
