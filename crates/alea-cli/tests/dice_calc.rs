//! `alea dice` in calc mode (dicelab.md §8): the default mode, table and footer, `--exact`,
//! JSON Lines shape, `--plot` SVG, `--compare`, options, budget errors and exit codes; and the
//! statistical agreement of `-e -n 1000000` with the exact distribution through the CLI.

mod support;

use std::process::Output;

fn alea(args: &[&str]) -> Output {
    support::alea(args).output()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

fn keys(v: &serde_json::Value) -> Vec<String> {
    v.as_object()
        .expect("object")
        .keys()
        .cloned()
        .collect::<Vec<_>>()
}

/// The keys of a JSON object in the order written (serde_json's map sorts them).
fn keys_in_order(line: &str, candidates: &[&str]) -> Vec<String> {
    let mut found: Vec<(usize, String)> = candidates
        .iter()
        .filter_map(|k| line.find(&format!("\"{k}\":")).map(|i| (i, k.to_string())))
        .collect();
    found.sort();
    found.into_iter().map(|f| f.1).collect()
}

#[test]
fn calc_is_the_default_mode_with_table_and_footer() {
    let o = alea(&["dice", "sum(2#d6)"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "sum(2#d6)");
    assert_eq!(lines[1], "  value  probability  at least   at most");
    assert_eq!(
        lines[2],
        format!(
            "      2     0.027778  1.000000  0.027778 {}",
            "█".repeat(6) + "▋"
        )
    );
    assert_eq!(
        lines[7],
        format!(
            "      7     0.166667  0.583333  0.583333 {}",
            "█".repeat(40)
        )
    );
    assert_eq!(lines.len(), 2 + 11 + 2, "{out}");
    assert_eq!(lines[13], "mean 7.000000  sd 2.415229  min 2  max 12");
    assert_eq!(lines[14], "p5: 3  p25: 5  p50: 7  p75: 9  p95: 11");
}

#[test]
fn exact_columns_percentiles_and_bar_options() {
    let o = alea(&[
        "dice",
        "--exact",
        "--no-bars",
        "--percentiles",
        "0,50,97.5,100",
        "sum(2#d6)",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("  value  probability exact  at least   at most\n"),
        "{out}"
    );
    assert!(
        out.contains("      7     0.166667   1/6  0.583333  0.583333\n"),
        "{out}"
    );
    assert!(out.contains("mean = 7/1  variance = 35/6\n"), "{out}");
    assert!(
        out.contains("p0: 2  p50: 7  p97.5: 12  p100: 12\n"),
        "{out}"
    );
    assert!(!out.contains('█'));
    let o = alea(&["dice", "--ascii", "--width", "10", "d4"]);
    let out = stdout(&o);
    assert_eq!(out.matches(" ##########\n").count(), 4, "{out}");
    let o = alea(&["dice", "--percentiles", "5,101", "d4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("'101'"));
}

#[test]
fn empty_outcome_and_truncated_mass_in_the_footer() {
    let o = alea(&["dice", "--exact", "if >3 d6 then d2 else ()"]);
    let out = stdout(&o);
    assert!(
        out.contains("     ()     0.500000   1/2         -         -"),
        "{out}"
    );
    assert!(
        out.contains("      1     0.250000   1/4  1.000000  0.500000"),
        "{out}"
    );
    assert!(out.contains("mean 1.500000  sd 0.500000  min 1  max 2\n"));
    assert!(out.contains("P(()) = 0.500000 = 1/2\n"));
    assert!(!out.contains("truncated"));
    let o = alea(&[
        "dice",
        "-t",
        "0.01",
        "count (while x=d6 do ((count <6 x)#d6))",
    ]);
    let out = stdout(&o);
    assert!(out.contains("      3     0.694444"), "{out}");
    assert!(
        out.contains("truncated mass = 0.694444 (while threshold 0.01)\n"),
        "{out}"
    );
    // `()` alone: no mean, no percentiles.
    let o = alea(&["dice", "()"]);
    let out = stdout(&o);
    assert!(
        out.contains("P(()) = 1.000000") && !out.contains("mean"),
        "{out}"
    );
}

#[test]
fn json_lines_have_exactly_the_spec_keys_in_order() {
    let o = alea(&[
        "dice",
        "--json",
        "--exact",
        " if >3 d6 then 1 else () ; 1/0; count (while x=d6 do ((count <6 x)#d6)); ()",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    let top = ["program", "outcomes", "mean", "sd", "truncated_mass"];
    assert_eq!(keys_in_order(lines[0], &top), top);
    assert_eq!(
        lines[0],
        "{\"program\":\"if >3 d6 then 1 else ()\",\"outcomes\":[{\"value\":null,\
         \"probability\":0.5,\"exact\":\"1/2\"},{\"value\":1,\"probability\":0.5,\"exact\":\
         \"1/2\"}],\"mean\":1.0,\"sd\":0.0,\"truncated_mass\":0.0}"
    );
    let v = json(lines[0]);
    assert_eq!(keys(&v).len(), 5);
    for outcome in v["outcomes"].as_array().expect("outcomes") {
        assert_eq!(keys(outcome).len(), 3);
    }
    // A failing statement: program, then the one diagnostic shape (docs/cli.md).
    assert_eq!(
        keys_in_order(lines[1], &["program", "diagnostics"]),
        ["program", "diagnostics"]
    );
    let v = json(lines[1]);
    assert_eq!(v["program"], "1/0");
    let d = &v["diagnostics"][0];
    assert_eq!(
        (&d["message"], &d["line"], &d["col"], &d["severity"]),
        (
            &"division by zero".into(),
            &1.into(),
            &29.into(),
            &"error".into()
        )
    );
    let v = json(lines[2]);
    assert_eq!(v["outcomes"][7]["exact"], "78125/279936");
    assert!((v["truncated_mass"].as_f64().expect("mass") - 78125.0 / 279936.0).abs() < 1e-15);
    assert_eq!(
        lines[3],
        "{\"program\":\"()\",\"outcomes\":[{\"value\":null,\"probability\":1.0,\"exact\":\"1/1\"}],\
         \"mean\":null,\"sd\":null,\"truncated_mass\":0.0}"
    );
    // Without --exact there is no `exact` key.
    let o = alea(&["dice", "--json", "d2"]);
    assert_eq!(
        stdout(&o),
        "{\"program\":\"d2\",\"outcomes\":[{\"value\":1,\"probability\":0.5},{\"value\":2,\
         \"probability\":0.5}],\"mean\":1.5,\"sd\":0.5,\"truncated_mass\":0.0}\n"
    );
    // Eval's shape: program, rolls, outcomes [value, count, probability], mean, sd.
    let o = alea(&["dice", "--json", "--seed", "7", "-e", "1000", "d2"]);
    let line = stdout(&o);
    let eval_keys = ["program", "rolls", "outcomes", "mean", "sd"];
    assert_eq!(keys_in_order(&line, &eval_keys), eval_keys);
    assert!(
        line.starts_with(
            "{\"program\":\"d2\",\"rolls\":1000,\"outcomes\":[{\"value\":1,\"count\":"
        )
    );
}

#[test]
fn budget_errors_name_the_construct() {
    let o = alea(&["dice", "d6; let x = 12#d20 in sum(x) * prod(x)"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with("<expr>:1:13: error: calc limit in '#'")
            && err.contains("more than 10000000"),
        "{err}"
    );
    // The statement before the failing one was still printed.
    assert!(stdout(&o).starts_with("d6\n"));
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("alea-dice-calc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn plot_writes_a_deterministic_svg() {
    let path = temp("silent.svg");
    let p = path.to_str().expect("utf-8 path");
    let program = "let x = 2#d8,d10 in (count >15 sum x)# let a = low 1 x in let b = high 1 low 2 \
                   x in let c = high 1 x in if ==a ==b c then a+b+c else if ==a <c b then c else \
                   if >a ==c b then b+c else b";
    let o = alea(&["dice", "--plot", p, program]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&path).expect("svg written");
    let o = alea(&["dice", "--no-bars", "--plot", p, program]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&path).expect("svg"),
        svg,
        "same input, same bytes"
    );
    assert!(svg.contains(r#"width="800" height="450""#) && svg.ends_with("</svg>\n"));
    assert!(
        svg.contains("if ==a &lt;c b then c"),
        "escaped statement in the title"
    );
    assert!(svg.contains(">mean 8.083019, sd 3.497802</text>"));
    // 13 damage values and the `()` bar set apart, with its label; the at-least line.
    assert_eq!(svg.matches("<rect x=").count(), 14);
    assert!(svg.contains("<title>(): 0.585938</title>") && svg.contains(">()</text>"));
    assert!(svg.contains("<title>6: 0.101562</title>"));
    assert_eq!(svg.matches("<polyline").count(), 1);
    assert!(svg.contains(">100%</text>") && svg.contains(">probability</text>"));
    assert!(!svg.contains("href"), "no external references");

    // More than one statement: a usage error, nothing written.
    let two = temp("two.svg");
    let o = alea(&["dice", "--plot", two.to_str().expect("path"), "d6; d8"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--plot draws one statement"));
    assert!(!two.exists());
    let _ = std::fs::remove_dir_all(path.parent().expect("dir"));
}

#[test]
fn compare_prints_one_column_per_program_and_overlays_the_chart() {
    let path = temp("compare.svg");
    let o = alea(&[
        "dice",
        "--compare",
        "--plot",
        path.to_str().expect("path"),
        "sum(3#d6)",
        "sum(drop low 1 4#d6); if >5 d6 then 20 else ()",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[..4],
        [
            "#1 sum(3#d6)",
            "#2 sum(drop low 1 4#d6)",
            "#3 if >5 d6 then 20 else ()",
            "  value           #1           #2           #3",
        ]
    );
    assert_eq!(lines[4], "     ()     0.000000     0.000000     0.833333");
    assert_eq!(lines[5], "      3     0.004630     0.000772     0.000000");
    assert!(out.contains("\n     20     0.000000     0.000000     0.166667\n"));
    assert!(out.ends_with(
        "   mean    10.500000    12.244599    20.000000\n     sd     2.958040     2.846844     \
         0.000000\n"
    ));
    let svg = std::fs::read_to_string(&path).expect("svg");
    assert_eq!(svg.matches("<polyline").count(), 3);
    assert!(svg.contains(">#2 sum(drop low 1 4#d6) (mean 12.244599, sd 2.846844)</text>"));
    // Exact fractions in the columns.
    let o = alea(&["dice", "--compare", "--exact", "d2", "d3"]);
    assert!(
        stdout(&o).contains("      3            0          1/3\n"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("      1          1/2          1/3\n"),
        "{}",
        stdout(&o)
    );
    // Several programs without --compare: a usage error.
    let o = alea(&["dice", "d2", "d3"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(path.parent().expect("dir"));
}

/// Chi-square agreement of `alea dice -e -n 1000000` with `alea dice --calc` (fixed seeds,
/// pooled bins with expected count < 5, |z| < 5). The engine's test (crates/alea-dicelab/tests/
/// calc_stat.rs) does this in-process for 20 programs. Through the CLI in the dev profile a
/// million rolls take 0.1 s to 6 s per program (`high 1 100#d20`), so by default this test runs
/// the six cheapest of the 20 programs; `ALEA_STAT_ALL=1` runs all 20 (as
/// `scripts/bench-dicelab-calc-cli.sh --stat` does, in release).
#[test]
fn simulation_agrees_with_the_exact_distribution() {
    const PROGRAMS: &[&str] = &[
        "d6",
        "sum(3#d6)",
        "sum(drop low 1 4#d6)",
        "sum(high 3 (20#d6))",
        "count >7 50#d10",
        "high 1 low 2 3#d20",
        "d(d6)",
        "count >4 (d6#d6)",
        "sum foreach x in d3 do x#d4",
        "let x=perm 1..4 in sum((last 1 x), sum x)",
        "last 1 perm (1,1,2)",
        "sum (d3-1)#d6",
        "let n = d4 in sum n#d6",
        "if >3 d6 then sum(2#d6) else ()",
        "let c=5#d10 in (count >7 c)-(count ==1 c)",
        "sum(while x = (7, d6) do ((count == 7 first 1 x)#100))",
        "sum(while x = d6 do (> 3 (x - 2)))",
        "high 1 100#d20",
        "d6.d6 - d20 % 7",
        "sum(d6, d8, d10)",
    ];
    const CHEAP: &[&str] = &[
        "d6",
        "sum(3#d6)",
        "sum(drop low 1 4#d6)",
        "d(d6)",
        "sum (d3-1)#d6",
        "if >3 d6 then sum(2#d6) else ()",
    ];
    let all = std::env::var_os("ALEA_STAT_ALL").is_some();
    let rolls = "1000000";
    for (i, program) in PROGRAMS.iter().enumerate() {
        if !all && !CHEAP.contains(program) {
            continue;
        }
        let calc = json(stdout(&alea(&["dice", "--json", program])).trim());
        let seed = (100 + i).to_string();
        let eval = json(
            stdout(&alea(&[
                "dice", "--json", "--seed", &seed, "-e", "-n", rolls, program,
            ]))
            .trim(),
        );
        let n = eval["rolls"].as_f64().expect("rolls");
        let observed = |value: &serde_json::Value| -> f64 {
            eval["outcomes"]
                .as_array()
                .expect("outcomes")
                .iter()
                .find(|o| &o["value"] == value)
                .map_or(0.0, |o| o["count"].as_f64().expect("count"))
        };
        let outcomes = calc["outcomes"].as_array().expect("outcomes");
        for o in eval["outcomes"].as_array().expect("outcomes") {
            assert!(
                outcomes.iter().any(|c| c["value"] == o["value"]),
                "{program}: sampled {}, impossible per calc",
                o["value"]
            );
        }
        let (mut stat, mut bins, mut rare_e, mut rare_o) = (0.0, 0usize, 0.0, 0.0);
        for c in outcomes {
            let expected = c["probability"].as_f64().expect("p") * n;
            if expected < 5.0 {
                rare_e += expected;
                rare_o += observed(&c["value"]);
                continue;
            }
            let d = observed(&c["value"]) - expected;
            stat += d * d / expected;
            bins += 1;
        }
        if rare_e > 0.0 {
            let d = rare_o - rare_e;
            stat += d * d / rare_e.max(1.0);
            bins += 1;
        }
        let df = (bins.max(2) - 1) as f64;
        let z = (stat - df) / (2.0 * df).sqrt();
        assert!(
            z < 5.0,
            "{program}: chi-square {stat:.1}, {df} df, z = {z:.1}"
        );
    }
}
