//! `alea cards`: the built binary's output, JSON, errors and exit codes.

mod support;

use std::process::Output;

fn alea(args: &[&str]) -> Output {
    support::alea(args).output()
}

fn stdout(args: &[&str]) -> String {
    let out = alea(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(args)).unwrap()
}

#[test]
fn eval_prints_category_name_rank_and_pokerval() {
    let out = stdout(&["cards", "eval", "As Ks Qs Js Ts"]);
    assert_eq!(
        out,
        "cards     A♠ K♠ Q♠ J♠ 10♠\nbest      A♠ K♠ Q♠ J♠ 10♠\ncategory  Royal Flush\n\
         name      Royal Flush\nrank      7462 of 7462\npokerval  0x800EDCBA\n"
    );
    let out = stdout(&["cards", "eval", "A♠ K♥ K♦ 7♣ 7♥ 2♦ 10♣"]);
    assert!(out.contains("best      K♥ K♦ 7♥ 7♣ A♠\n"), "{out}");
    assert!(
        out.contains("name      Two Pair, Kings and Sevens\n"),
        "{out}"
    );
    let out = stdout(&["cards", "eval", "AsKsAdKdAc", "--lang", "de"]);
    assert!(out.contains("category  Full House\nname      Full House, Asse über Könige\n"));
}

#[test]
fn eval_json() {
    let v = json(&["cards", "eval", "5d 4c 3h 2s Ac 9d 9c", "--json"]);
    assert_eq!(v["category"], "Straight");
    assert_eq!(v["type"], "straight");
    assert_eq!(v["name"], "Straight, Five high");
    assert_eq!(v["rank"], 5854);
    assert_eq!(v["value"], 4_539_169);
    assert_eq!(v["pokerval"], (1u32 << 27) | 0x54321);
    assert_eq!(v["best"], serde_json::json!(["5d", "4c", "3h", "2s", "Ac"]));
}

#[test]
fn equity_exact_on_the_flop() {
    let v = json(&["cards", "equity", "AhKh", "--board", "Qh Jh 2c", "--json"]);
    assert_eq!(v["method"], "exact");
    assert_eq!(v["deals"], 1_070_190);
    assert!((v["win"].as_f64().unwrap() - 0.758671).abs() < 5e-7);
    assert!((v["tie"].as_f64().unwrap() - 0.009260).abs() < 5e-7);
    assert_eq!(v["margin"], 0.0);
    let text = stdout(&["cards", "equity", "AhKh", "--board", "Qh Jh 2c"]);
    assert_eq!(
        text,
        "hero A♥ K♥, board Q♥ J♥ 2♣, 1 random opponent\nexact: 1070190 deals enumerated\n\
         win      75.8671 %\ntie       0.9260 %\nlose     23.2069 %\nequity   76.3301 %\n"
    );
}

#[test]
fn equity_against_a_known_hand() {
    let v = json(&["cards", "equity", "Ad Ac", "--vs", "Kh Ks", "--json"]);
    assert_eq!(
        (v["wins"].as_u64(), v["losses"].as_u64(), v["ties"].as_u64()),
        (Some(1_388_072), Some(317_694), Some(6_538))
    );
}

#[test]
fn equity_monte_carlo_is_seeded() {
    let args = [
        "cards",
        "equity",
        "AhKh",
        "--board",
        "Qh Jh 2c",
        "--opponents",
        "3",
        "--iterations",
        "20000",
        "--seed",
        "5",
        "--json",
    ];
    let a = json(&args);
    assert_eq!(a, json(&args));
    assert_eq!(a["method"], "monte-carlo");
    assert_eq!(a["seed"], 5);
    assert_eq!(a["deals"], 20_000);
    let win = a["win"].as_f64().unwrap();
    assert!(win > 0.5 && win < 0.65, "{win}");
    assert!(a["margin"].as_f64().unwrap() > 0.0);
    let text = stdout(&[
        "cards",
        "equity",
        "AhKh",
        "--opponents",
        "2",
        "--iterations",
        "1000",
    ]);
    assert!(
        text.starts_with("hero A♥ K♥, 2 random opponents\nMonte Carlo: 1000 iterations, seed 0")
    );
    assert!(text.contains(" ± "));
    // --monte-carlo simulates even when enumeration is cheap.
    let v = json(&[
        "cards",
        "equity",
        "AhKh",
        "--board",
        "Qh Jh 2c 3d 4d",
        "--monte-carlo",
        "--iterations",
        "500",
        "--json",
    ]);
    assert_eq!(
        (v["method"].as_str(), v["deals"].as_u64()),
        (Some("monte-carlo"), Some(500))
    );
}

#[test]
fn errors_point_at_the_card_and_exit_1() {
    // docs/cli.md: invalid cards are data that failed (1); a bad option value is usage (2).
    let out = alea(&["cards", "equity", "AhKh", "--board", "Qh Xh 2c"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "<board>:1:4: error: invalid rank 'X' (expected 2-9, T or 10, J, Q, K, A)\nQh Xh 2c\n   ^\n"
    );
    let cases: [&[&str]; 5] = [
        &["cards", "eval", "As Ks"],
        &["cards", "eval", "As As Kd Qd Jd"],
        &["cards", "equity", "AhKhQh"],
        &["cards", "equity", "AhKh", "--board", "Ah 2c 3c"],
        &["cards", "equity", "AhKh", "--opponents", "23"],
    ];
    for args in cases {
        let out = alea(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(!out.stderr.is_empty() && out.stdout.is_empty(), "{args:?}");
    }
    let out = alea(&["cards", "equity", "AhKh", "--iterations", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let out = alea(&["cards", "eval", "As Ks"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: a hand needs 5, 6 or 7 cards, found 2\n"
    );
    // With --json the error is the one diagnostic shape on stdout.
    let out = alea(&["cards", "eval", "As Kx", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&String::from_utf8_lossy(&out.stdout)).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!((&d["file"], &d["col"]), (&"<cards>".into(), &5.into()));
}
