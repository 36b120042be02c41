//! `dicelab` runs a program of at most `SHALLOW_SOURCE_BYTES` on its main thread and a longer
//! one on the 64 MiB big-stack thread (issue 16: the thread cost a third of a short run's
//! whole-process time). The deepest-per-byte shapes at the boundary must work on both sides,
//! in every mode, with the same output.

mod support;

use alea_dicelab::SHALLOW_SOURCE_BYTES;

/// `unit` repeated until the program (with `tail`) is `len` bytes long.
fn fill(unit: &str, tail: &str, len: usize) -> String {
    let n = (len - tail.len()) / unit.len();
    let text = format!("{}{tail}", unit.repeat(n));
    assert!(text.len() <= len && text.len() + unit.len() > len);
    text
}

#[test]
fn deepest_programs_just_below_and_above_the_main_thread_limit_run() {
    for len in [SHALLOW_SOURCE_BYTES, SHALLOW_SOURCE_BYTES + 200] {
        // An even number of negations: the distribution of d6.
        let mut neg = fill("-", "d6", len);
        if (neg.len() - 2) % 2 == 1 {
            neg.remove(0);
        }
        let r = support::dicelab(&["-c"]).stdin(&neg).run();
        assert_eq!(r.code, 0, "{len}: {}", r.stderr);
        let d6 = support::dicelab(&["-c"]).stdin("d6").run();
        assert_eq!(r.stdout, d6.stdout, "{len} bytes of negations");
        for mode in ["-r", "-p"] {
            let r = support::dicelab(&[mode]).stdin(&neg).run();
            assert_eq!(r.code, 0, "{len} {mode}: {}", r.stderr);
            assert!(!r.stdout.is_empty());
        }
        // Nested lets and `1+(…)`: one level per few bytes, the largest frames measured.
        let lets = fill("let a = 2 in ", "d2", len);
        let r = support::dicelab(&["-c"]).stdin(&lets).run();
        assert_eq!(r.code, 0, "{len}: {}", r.stderr);
        assert_eq!(r.stdout, support::dicelab(&["-c"]).stdin("d2").run().stdout);
        let n = (len - 1) / 4;
        let adds = format!("{}1{}", "1+(".repeat(n), ")".repeat(n));
        let r = support::dicelab(&["-c"]).stdin(&adds).run();
        assert_eq!(r.code, 0, "{len}: {}", r.stderr);
        assert_eq!(
            r.stdout,
            format!("{:>3}\t1.000000\t\n", n + 1),
            "{len}: 1+(1+(…))"
        );
    }
}
