//! Statistical agreement of sampling (`-e`) with the exact engine (`-c`): a chi-square test
//! for 20 programs with fixed seeds and a generous bound (|z| < 5, CONTRIBUTING.md).

use alea_core::SourceFile;
use alea_dicelab::calc::{self, CalcOptions, Outcome};

const ROLLS: u64 = 1_000_000;

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
    // `while` programs without truncated mass (a cut path has no sampling counterpart).
    "sum(while x = (7, d6) do ((count == 7 first 1 x)#100))",
    "sum(while x = d6 do (> 3 (x - 2)))",
    "let x = 7#d10 in high 1 (foreach y in 1..10 do sum (==y x))",
    "let x = 2#d8,d10 in (count >15 sum x)# let a = low 1 x in let b = high 1 low 2 x in \
     let c = high 1 x in if ==a ==b c then a+b+c else if ==a <c b then c \
     else if >a ==c b then b+c else b",
    "d6.d6 - d20 % 7",
];

#[test]
fn sampling_agrees_with_the_exact_distribution() {
    for (i, program) in PROGRAMS.iter().enumerate() {
        let file = SourceFile::new("<stat>", *program);
        let (prog, errors) = alea_dicelab::parse(&file);
        assert!(errors.is_empty(), "{program}: {errors:?}");
        let st = &prog.statements[0];
        let exact = calc::calculate(st, &CalcOptions::default()).expect(program);
        assert_eq!(exact.truncated_mass().to_string(), "0/1", "{program}");
        let hist = alea_dicelab::eval(st, ROLLS, 1000 + i as u64).expect(program);
        let observed = |o: Outcome| match o {
            Outcome::Empty => hist.empty,
            Outcome::Value(v) => hist.counts.get(&v).copied().unwrap_or(0),
        };
        // Every sampled value must be possible.
        for v in hist.counts.keys() {
            assert!(
                exact.probability(Outcome::Value(*v)).numer() != &0u8.into(),
                "{program}: sampled {v}, which calc says is impossible"
            );
        }
        // Bins with expected count < 5 are pooled into one.
        let n = hist.rolls as f64;
        let (mut stat, mut bins) = (0.0, 0usize);
        let (mut rare_expected, mut rare_observed) = (0.0, 0u64);
        for (o, p) in exact.outcomes() {
            let expected = p.to_f64() * n;
            if expected < 5.0 {
                rare_expected += expected;
                rare_observed += observed(o);
                continue;
            }
            let d = observed(o) as f64 - expected;
            stat += d * d / expected;
            bins += 1;
        }
        if rare_expected > 0.0 {
            let d = rare_observed as f64 - rare_expected;
            stat += d * d / rare_expected.max(1.0);
            bins += 1;
        }
        let df = (bins.max(2) - 1) as f64;
        let z = (stat - df) / (2.0 * df).sqrt();
        assert!(
            z < 5.0,
            "{program}: chi-square {stat:.1} with {df} df (z = {z:.1})"
        );
    }
}
