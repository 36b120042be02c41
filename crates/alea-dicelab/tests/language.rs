//! Library-level tests of the dicelab language: parser invariants on every test program,
//! robustness on garbage, the draw order of §6, and eval's independence of the thread count.

use alea_core::{Rng, SourceFile};
use alea_dicelab::{Expr, Program, Roller, eval, parse, with_big_stack};
use std::path::Path;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Every program the test suites use: the parse cases, the man-page examples and the
/// examples of docs/dicelab.md.
fn corpus() -> Vec<String> {
    let mut programs = Vec::new();
    let cases = repo().join("crates/alea-cli/tests/dicelab/parse-cases.txt");
    let text = std::fs::read_to_string(cases).expect("parse cases");
    programs.extend(text.lines().filter(|l| !l.is_empty()).map(str::to_string));
    for entry in std::fs::read_dir(repo().join("examples/dicelab")).expect("examples") {
        let path = entry.expect("entry").path();
        programs.push(std::fs::read_to_string(path).expect("example"));
    }
    if let Ok(doc) = std::fs::read_to_string(repo().join("docs/dicelab.md")) {
        for line in doc.lines() {
            if let Some(rest) = line.strip_prefix("| `")
                && let Some((program, _)) = rest.split_once("` |")
            {
                programs.push(program.replace("\\|", "|"));
            }
        }
    }
    assert!(programs.len() > 60);
    programs
}

fn check_spans(e: &Expr, errors: &mut Vec<String>) {
    let mut prev_end = e.span.start;
    for child in e.children() {
        if !e.span.contains(child.span) {
            errors.push(format!("{:?} not inside {:?}", child.span, e.span));
        }
        if child.span.start < prev_end {
            errors.push(format!("{:?} starts before {prev_end}", child.span));
        }
        prev_end = child.span.end;
        check_spans(child, errors);
    }
}

#[test]
fn spans_increase_and_children_lie_inside_parents() {
    let mut parsed = 0;
    for program in corpus() {
        let file = SourceFile::new("<t>", program.clone());
        let (p, d) = parse(&file);
        if !d.is_empty() {
            continue;
        }
        let mut errors = Vec::new();
        let mut prev_end = 0;
        for s in &p.statements {
            assert!(s.span.contains(s.expr.span), "{program}");
            assert!(s.span.start >= prev_end, "{program}");
            prev_end = s.span.end;
            check_spans(&s.expr, &mut errors);
        }
        assert!(errors.is_empty(), "{program}: {errors:?}");
        parsed += 1;
    }
    assert!(parsed > 50);
}

fn roll_all(program: &Program, seed: u64) -> Vec<Result<Vec<i32>, String>> {
    let mut rng = Rng::seed_from_u64(seed);
    let mut roller = Roller::new();
    program
        .statements
        .iter()
        .map(|s| roller.roll(s, &mut rng).map_err(|d| d.message.clone()))
        .collect()
}

#[test]
fn garbage_never_panics() {
    // A deterministic token soup: the parser and the roller must answer, never panic.
    let pieces = [
        "d",
        "6",
        "(",
        ")",
        ",",
        "#",
        "..",
        "+",
        "-",
        "*",
        "/",
        "%",
        "^",
        ".",
        "sum",
        "count",
        "perm",
        "high",
        "low",
        "first",
        "drop",
        "keep",
        "==",
        "<",
        "if",
        "then",
        "else",
        "let",
        "x",
        "=",
        "in",
        "while",
        "do",
        "foreach",
        ";",
        "\n#",
        "//",
        "@",
        "é",
        "0",
        "2147483648",
    ];
    let mut rng = Rng::seed_from_u64(2024);
    for _ in 0..3000 {
        let n = rng.below(25) as usize;
        let text: Vec<&str> = (0..n)
            .map(|_| pieces[rng.below(pieces.len() as u64) as usize])
            .collect();
        let text = text.join(" ");
        let file = SourceFile::new("<fuzz>", text);
        let (p, _) = parse(&file);
        let _ = roll_all(&p, 1);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    with_big_stack(|| {
        for open in ["(", "-", "d ", "sum ", "-(", "perm ", "1#", "2^"] {
            let text = format!("{}1", open.repeat(200_000));
            let file = SourceFile::new("<deep>", text);
            let (_, d) = parse(&file);
            assert_eq!(d.len(), 1, "{open}");
            assert_eq!(d[0].message, "program nested too deeply", "{open}");
        }
        let text = format!("{}1{}", "-(".repeat(4_990), ")".repeat(4_990));
        let (p, d) = parse(&SourceFile::new("<deep>", text));
        assert!(d.is_empty());
        assert_eq!(roll_all(&p, 0), vec![Ok(vec![1])]);
        // One level per `sum`, as 0.7's parser stack (issue 16): 9,990 of them parse, roll
        // and calculate; 10,001 are too deep.
        let text = format!("{}3#d6", "sum ".repeat(9_990));
        let (p, d) = parse(&SourceFile::new("<deep>", text));
        assert!(d.is_empty());
        // The roll succeeds with one sum of three dice (a length check alone would hold
        // for an error too).
        let rolled = roll_all(&p, 0);
        assert!(
            matches!(rolled.as_slice(), [Ok(v)] if v.len() == 1 && (3..=18).contains(&v[0])),
            "{rolled:?}"
        );
        let r = alea_dicelab::calc::calculate(&p.statements[0], &Default::default())
            .expect("a sum of three dice");
        assert_eq!(r.distribution().len(), 16);
        let text = format!("{}1", "sum ".repeat(10_001));
        let (_, d) = parse(&SourceFile::new("<deep>", text));
        assert_eq!(d[0].message, "program nested too deeply");
    });
}

#[test]
fn draws_follow_the_spec_order() {
    // `dn` is range_inclusive(1, n); `perm` is shuffle; statements share one stream.
    let file = SourceFile::new("<t>", "d6; d6+d20; perm (0,1,2,3,4,5,6)");
    let (p, d) = parse(&file);
    assert!(d.is_empty());
    let mut rng = Rng::seed_from_u64(0);
    let a = rng.range_inclusive(1, 6) as i32;
    let b = rng.range_inclusive(1, 6) as i32 + rng.range_inclusive(1, 20) as i32;
    let mut perm = vec![0, 1, 2, 3, 4, 5, 6];
    rng.shuffle(&mut perm);
    assert_eq!(roll_all(&p, 0), vec![Ok(vec![a]), Ok(vec![b]), Ok(perm)]);
    // rng.md's shuffle vector, seed 0.
    let file = SourceFile::new("<t>", "perm 0..6");
    let (p, _) = parse(&file);
    assert_eq!(roll_all(&p, 0), vec![Ok(vec![5, 3, 4, 0, 1, 6, 2])]);
    // A filter evaluates n, then e; `#` evaluates n, then e n times.
    let file = SourceFile::new("<t>", "high d3 (d6 # d6)");
    let (p, _) = parse(&file);
    let mut rng = Rng::seed_from_u64(9);
    let n = rng.range_inclusive(1, 3) as usize;
    let k = rng.range_inclusive(1, 6);
    let mut dice: Vec<i32> = (0..k).map(|_| rng.range_inclusive(1, 6) as i32).collect();
    let mut sorted = dice.clone();
    sorted.sort_unstable();
    let keep = sorted[sorted.len().saturating_sub(n)..].to_vec();
    let mut pool = keep.clone();
    dice.retain(|v| match pool.iter().position(|p| p == v) {
        Some(i) => {
            pool.remove(i);
            true
        }
        None => false,
    });
    assert_eq!(roll_all(&p, 9), vec![Ok(dice)]);
}

#[test]
fn eval_does_not_depend_on_the_thread_count() {
    let file = SourceFile::new("<t>", "sum(drop low 1 4#d6); if >3 d6 then d4 else ()");
    let (p, d) = parse(&file);
    assert!(d.is_empty());
    let rolls = 300_001; // several tasks, the last one short
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            p.statements
                .iter()
                .map(|s| eval(s, rolls, 77).expect("eval"))
                .collect::<Vec<_>>()
        })
    };
    let one = run(1);
    assert_eq!(one, run(3));
    assert_eq!(one[0].rolls, rolls);
    assert!(one[1].empty > 0);
}

#[test]
fn eval_agrees_with_the_exact_distribution() {
    // sum(2#d6): 2..12 ∝ 1,2,3,4,5,6,5,4,3,2,1 /36 (vector 2), |z| < 5 for every value.
    let file = SourceFile::new("<t>", "sum(2#d6)");
    let (p, _) = parse(&file);
    let n = 200_000u64;
    let h = eval(&p.statements[0], n, 3).expect("eval");
    let weights = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
    for (i, w) in weights.iter().enumerate() {
        let prob = f64::from(*w) / 36.0;
        let count = *h.counts.get(&(i as i32 + 2)).unwrap_or(&0) as f64;
        let z = (count - n as f64 * prob) / (n as f64 * prob * (1.0 - prob)).sqrt();
        assert!(z.abs() < 5.0, "value {}: z = {z}", i + 2);
    }
    assert_eq!(h.counts.values().sum::<u64>(), n);
}
