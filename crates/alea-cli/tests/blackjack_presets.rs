//! `alea blackjack` with the real randomizers: `--rng arcade`, `--frames` and the new presets'
//! exact values (derived in crates/alea-blackjack/tests/real_presets.rs).

use std::process::{Command, Output};

fn bj(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_alea"))
        .arg("blackjack")
        .args(args)
        .output()
        .expect("run alea")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The LFSR from $8988, one step per frame: Z I L T J (hand-derived in real_presets.rs). With
/// no frame steps the picks differ, since only the spawn counter and rerolls move them.
#[test]
fn arcade_deals_from_the_lfsr() {
    let o = bj(&["nes-real", "--rng", "arcade", "-n", "5"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "Z I L T J\n");
    let o = bj(&[
        "nes-real", "--rng", "arcade", "--seed", "0x8988", "-n", "5", "--json",
    ]);
    assert_eq!(
        stdout(&o),
        "{\"spec\": \"nes-real --rng arcade\", \"seed\": \"35208\", \"pieces\": [\"Z\",\"I\",\"L\",\"T\",\"J\"]}\n"
    );
    // Frames 0: picks 1-3 as before (the first index only reads the high byte plus the
    // counter: $89+1, $89+2, $89+3 → 2, 3, 4 = Z, O, S).
    let o = bj(&["nes-real", "--rng", "arcade", "--frames", "0", "-n", "3"]);
    assert_eq!(stdout(&o), "Z O S\n");
}

#[test]
fn arcade_refusals_exit_2() {
    for args in [
        &["7bag", "--rng", "arcade"][..],
        &["tgm3", "--rng", "arcade"],
        &["nes-real", "--rng", "arcade", "--exact"],
        &["nes-real", "--rng", "arcade", "--seed", "65536"],
        &["nes-real", "--rng", "arcade", "--frames", "70000"],
        &["nes-real", "--rng", "fast"],
    ] {
        let o = bj(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn arcade_stats_count_the_lfsr_deals() {
    let o = bj(&[
        "nes-real", "--rng", "arcade", "--stats", "-n", "5", "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["n"], 5);
    assert_eq!(v["counts"]["L"], 1);
    assert_eq!(v["counts"]["Z"], 1);
}

#[test]
fn real_presets_exact_json() {
    let o = bj(&["nes-real", "--exact", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["repeat_probability"], "325/8064");
    assert_eq!(v["frequency"]["L"], "5/36");
    let o = bj(&["--preset", "7+1bag", "--exact", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["repeat_probability"], "11/224");
    let o = bj(&["gameboy", "--exact", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["frequency"]["O"], "551/3429");
}

/// `--tables` displays the library's counted tables: a 7-bag is fully baggy and never repeats
/// a piece three times in a row.
#[test]
fn tables_json_for_a_bag() {
    let o = bj(&["7bag", "--tables", "--json", "--seed", "0", "-n", "7000"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["bagginess"], 1.0);
    assert_eq!(v["window"], 7);
    assert_eq!(v["deals"], 7000);
    assert!(
        v["runs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["length"].as_u64() <= Some(2))
    );
    // The exact chain tables: 7-bag droughts 48/49, 46/49 … 1/49 at 12, floods 1/48.
    assert_eq!(v["exact"]["drought"]["I"][1], "48/49");
    assert_eq!(v["exact"]["drought"]["T"][12], "1/49");
    assert_eq!(v["exact"]["drought"]["T"][13], "0");
    assert_eq!(v["exact"]["runs"]["Z"][1], "1/48");
    assert_eq!(v["exact"]["all_runs"][1], "1/48");
    assert_eq!(v["exact"]["set_runs"][3], "1/720");
    assert_eq!(v["exact"]["game"]["length"], 100);
    let o = bj(&["7bag", "--tables", "--seed", "0", "-n", "7000"]);
    assert!(stdout(&o).contains("bagginess: 1.000000"));
    assert!(stdout(&o).contains("  12  0.020408"));
    assert_eq!(bj(&["7bag", "--tables", "--exact"]).status.code(), Some(2));
}

/// `--gap-at-least K` is exact for any K, also beyond the listed gaps ((6/7)^100 for a
/// memoryless piece), for one `--piece` or all; `tgm3` falls back to simulation and says so.
#[test]
fn gap_at_least_any_k() {
    let o = bj(&["7bag", "--gap-at-least", "12", "--piece", "I"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "spec: bag of I,J,L,O,S,T,Z\nP(gap >= 12), exact\nI          0.020408  1/49\n"
    );
    let o = bj(&["memoryless", "--gap-at-least", "100", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let q = alea_blackjack::Ratio::from_u64(6, 7);
    let expect = (0..100)
        .fold(alea_blackjack::Ratio::one(), |a, _| &a * &q)
        .to_string();
    assert_eq!(v["gap_at_least"]["S"], expect.as_str());
    assert_eq!(v["exact"], true);
    let o = bj(&[
        "tgm3",
        "--gap-at-least",
        "12",
        "-n",
        "20000",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["exact"], false);
    assert_eq!(v["simulated"]["deals"], 20000);
    assert!(v["gap_at_least"]["I"].as_f64().unwrap() > 0.0);
    assert!(String::from_utf8_lossy(&o.stderr).contains("X02"));
    assert_eq!(
        bj(&["7bag", "--gap-at-least", "3", "--piece", "Q"])
            .status
            .code(),
        Some(2)
    );
}

/// `--tables --plot` draws the exact drought curves through alea-plot.
#[test]
fn tables_plot_svg() {
    let dir = std::env::temp_dir().join(format!("alea-bj-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.svg");
    let o = bj(&[
        "tgm2",
        "--tables",
        "-n",
        "1000",
        "--seed",
        "0",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"));
    assert!(svg.contains("drought"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--preview` and `--early` display the library's exact preview law: TGM1 after a shown I
/// deals Z or I again only when all four rolls hit (8/2401 each); a 7-bag after I,J deals
/// each of the other five with 1/5.
#[test]
fn preview_and_early_game() {
    let o = bj(&["7bag", "--preview", "I,J", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["probability_shown"], "1/42");
    assert_eq!(v["next"][0]["deal"], 3);
    assert_eq!(v["next"][0]["law"]["J"], "0");
    assert_eq!(v["next"][0]["law"]["Z"], "1/5");
    let o = bj(&["tgm1", "--preview", "I", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["next"][0]["law"]["Z"], "8/2401");
    assert_eq!(v["next"][0]["law"]["T"], "477/2401");
    let o = bj(&["tgm-ace", "--early", "2"]);
    assert!(stdout(&o).contains("   1  0.250000  0.250000  0.250000  0.000000"));
    assert_eq!(bj(&["7bag", "--preview", "Q"]).status.code(), Some(2));
    // Built-in presets with a finite chain have exact preview laws too (nes: 1/7 first);
    // tgm3 has none (X02, status 1).
    let o = bj(&["nes", "--early", "1", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["next"][0]["law"]["T"], "1/7");
    assert_eq!(bj(&["tgm3", "--early", "2"]).status.code(), Some(1));
}

/// The exact mean gap includes the cut-off tail (Kac: 1/p − 1): 59 for a 60-piece memoryless
/// list, whose listed law stops at a tail of 10^-6 and would give 58.999.
#[test]
fn exact_mean_gap_keeps_the_tail() {
    let list: Vec<String> = (0..60).map(|i| format!("P{i}")).collect();
    let o = bj(&[&list.join(","), "--exact"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("P59              1/60   0.016667    59.000 unbounded"));
}

/// An unknown `--piece` is the library's X05, a usage error from every table mode, and never
/// simulated (tgm3 has no exact chain, yet the name is checked first).
#[test]
fn unknown_piece_is_a_usage_error_everywhere() {
    for args in [
        &["tgm3", "--gap-at-least", "3", "--piece", "Q"][..],
        &["tgm2", "--tables", "--piece", "Q", "-n", "10"][..],
        &["nes-real", "--gap-at-least", "3", "--piece", "Q"][..],
    ] {
        let o = bj(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("X05") && err.contains("no such piece 'Q'"),
            "{err}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

/// `with 4 history 1000 rolls`: the text report needs no `--tail` (no gap law is listed), and
/// `--json` at the default tail is refused with the work it needs and a tail that fits.
#[test]
fn many_rolls_report_and_refusal() {
    let spec = "I,J,L,O,S,T,Z with 4 history 1000 rolls";
    let o = bj(&[spec, "--exact"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("I                 1/7   0.142857     6.000 unbounded"),
        "{out}"
    );
    let o = bj(&[spec, "--exact", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let m = v["diagnostics"][0]["message"].as_str().unwrap();
    assert_eq!(v["diagnostics"][0]["code"], "X03");
    assert!(
        m.contains("raise --max-work to ") && m.contains("raise --tail to 1/1000"),
        "{m}"
    );
    let o = bj(&[spec, "--exact", "--json", "--tail", "1/1000"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["frequency"]["T"], "1/7");
}

/// `--preview --long-run`: far into a game a 7-bag deals I after I with 1/49 (across a bag
/// boundary), at the game's start never; `--long-run` needs `--preview`.
#[test]
fn preview_long_run() {
    let o = bj(&["7bag", "--preview", "I", "--long-run", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["start"], "long-run");
    assert_eq!(v["probability_shown"], "1/7");
    assert_eq!(v["next"][0]["law"]["I"], "1/49");
    assert_eq!(v["next"][0]["law"]["Z"], "8/49");
    let o = bj(&["7bag", "--preview", "I", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["start"], "game");
    assert_eq!(v["next"][0]["law"]["I"], "0");
    assert_eq!(
        bj(&["7bag", "--early", "2", "--long-run"]).status.code(),
        Some(2)
    );
}
