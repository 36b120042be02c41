//! Every calc (`C`) vector of dicelab.md §10 and the man-page examples of §9 through both
//! binaries: `dicelab -c` (0.7's 6-decimal format, byte for byte) and `alea dice --json
//! --exact` (the exact fractions).

mod support;

use std::process::Output;

fn dicelab(args: &[&str], program: &str) -> Output {
    support::dicelab(args).stdin(program).output()
}

fn alea(args: &[&str]) -> Output {
    support::alea(args).output()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `dicelab -c` output of a program that must succeed.
fn calc(args: &[&str], program: &str) -> String {
    let mut all = vec!["-c"];
    all.extend_from_slice(args);
    let o = dicelab(&all, program);
    assert_eq!(o.status.code(), Some(0), "{program}: {}", text(&o.stderr));
    text(&o.stdout)
}

// ---- A minimal unsigned big integer (base 10^9), enough to check fractions exactly. ----

#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u64>);

const BASE: u64 = 1_000_000_000;

impl Big {
    fn from(n: u64) -> Big {
        Big::parse(&n.to_string())
    }
    fn parse(s: &str) -> Big {
        let digits: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
        let mut limbs = Vec::new();
        for chunk in digits.rchunks(9) {
            limbs.push(chunk.iter().fold(0u64, |a, &d| a * 10 + u64::from(d)));
        }
        Big(limbs).norm()
    }
    fn norm(mut self) -> Big {
        while self.0.len() > 1 && self.0.last() == Some(&0) {
            self.0.pop();
        }
        if self.0.is_empty() {
            self.0.push(0);
        }
        self
    }
    fn mul(&self, o: &Big) -> Big {
        let mut r = vec![0u64; self.0.len() + o.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                let t = r[i + j] + a * b + carry;
                r[i + j] = t % BASE;
                carry = t / BASE;
            }
            let mut k = i + o.0.len();
            while carry > 0 {
                let t = r[k] + carry;
                r[k] = t % BASE;
                carry = t / BASE;
                k += 1;
            }
        }
        Big(r).norm()
    }
    fn add(&self, o: &Big) -> Big {
        let mut r = Vec::new();
        let mut carry = 0;
        for i in 0..self.0.len().max(o.0.len()) + 1 {
            let t = self.0.get(i).unwrap_or(&0) + o.0.get(i).unwrap_or(&0) + carry;
            r.push(t % BASE);
            carry = t / BASE;
        }
        Big(r).norm()
    }
    fn pow(&self, e: u32) -> Big {
        (0..e).fold(Big::from(1), |acc, _| acc.mul(self))
    }
}

/// The outcomes of `alea dice --json --exact` as (value, numerator, denominator).
fn exact(args: &[&str], program: &str) -> Vec<(Option<i32>, Big, Big)> {
    let mut all = vec!["dice", "--json", "--exact"];
    all.extend_from_slice(args);
    all.push(program);
    let o = alea(&all);
    assert_eq!(o.status.code(), Some(0), "{program}: {}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("JSON");
    v["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| {
            let (p, q) = o["exact"]
                .as_str()
                .and_then(|e| e.split_once('/'))
                .expect("p/q");
            (
                o["value"].as_i64().map(|v| v as i32),
                Big::parse(p),
                Big::parse(q),
            )
        })
        .collect()
}

/// Checks `alea dice --json --exact` against weights over consecutive values from `first`,
/// all over `den`, and `dicelab -c` against the same probabilities at 6 decimals.
fn weights(program: &str, first: i32, w: &[u64], den: u64) {
    let got = exact(&[], program);
    assert_eq!(got.len(), w.len(), "{program}: {got:?}");
    let dicelab_out = calc(&[], program);
    let mut expected = String::new();
    for (i, ((v, p, q), &wi)) in got.iter().zip(w).enumerate() {
        assert_eq!(*v, Some(first + i as i32), "{program}");
        // p/q == wi/den, and the fraction is reduced (checked by the engine's own tests).
        assert_eq!(
            p.mul(&Big::from(den)),
            q.mul(&Big::from(wi)),
            "{program}: value {v:?}"
        );
        expected.push_str(&format!(
            "{:>3}\t{:.6}\t\n",
            first + i as i32,
            wi as f64 / den as f64
        ));
    }
    assert_eq!(dicelab_out, expected, "{program}");
}

fn uniform(program: &str, first: i32, n: u64) {
    weights(program, first, &vec![1; n as usize], n);
}

#[test]
fn vectors_1_to_4_and_8_to_22() {
    uniform("d6", 1, 6);
    weights("sum(2#d6)", 2, &[1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], 36);
    let three = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];
    weights("d6+d6+d6", 3, &three, 216);
    weights("sum perm 3#d6", 3, &three, 216);
    let four = [
        1, 4, 10, 21, 38, 62, 91, 122, 148, 167, 172, 160, 131, 94, 54, 21,
    ];
    weights("sum(drop low 1 4#d6)", 3, &four, 1296);
    weights(
        "sum foreach x in d3 do x#d4",
        1,
        &[16, 20, 25, 31, 22, 22, 20, 16, 10, 6, 3, 1],
        192,
    );
    uniform("let x=perm 1..4 in sum((last 1 x), sum x)", 11, 4);
    weights("low 1 3#d6", 1, &[91, 61, 37, 19, 7, 1], 216);
    weights("high 1 3#d6", 1, &[1, 7, 19, 37, 61, 91], 216);
    weights("last 1 perm (1,1,2)", 1, &[2, 1], 3);
    weights("d20/5", 0, &[4, 5, 5, 5, 1], 20);
    uniform("d100 % 4", 0, 4);
    let pow2 = exact(&[], "2 ^ d8");
    let values: Vec<Option<i32>> = pow2.iter().map(|o| o.0).collect();
    assert_eq!(values, (1..=8).map(|k| Some(1 << k)).collect::<Vec<_>>());
    assert!(
        pow2.iter()
            .all(|o| o.1 == Big::from(1) && o.2 == Big::from(8))
    );
    weights("d(d6)", 1, &[147, 87, 57, 37, 22, 10], 360);
    weights(
        "count >4 (d6#d6)",
        0,
        &[85120, 103104, 60096, 24256, 6336, 960, 64],
        279_936,
    );
    uniform("sum ((d2 - 1)#1)", 0, 2);
    for certain in [
        "sum 0#d6",
        "count ()",
        "sum 6..3",
        "sum foreach x in () do 100",
        "sum drop first 4 3#d6",
    ] {
        weights(certain, 0, &[1], 1);
    }
    weights("prod ((), ())", 1, &[1], 1);
    weights("if >4 2#d6 then 1 else 0", 0, &[4, 5], 9);
    weights("count == 42 d100", 0, &[99, 1], 100);
    // † differences from 0.7 (its `sum N#X` shortcut is wrong there).
    weights(
        "sum (d3-1)#d6",
        0,
        &[36, 6, 7, 8, 9, 10, 11, 6, 5, 4, 3, 2, 1],
        108,
    );
    weights(
        "let n = d4 in sum n#d6",
        1,
        &[
            216, 252, 294, 343, 400, 466, 326, 341, 350, 350, 338, 311, 266, 236, 200, 161, 122,
            86, 56, 35, 20, 10, 4, 1,
        ],
        5184,
    );
    weights("sum 2#(d6-7)", -12, &[1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], 36);
    weights("sum 2#(d3-2)", -2, &[1, 2, 3, 2, 1], 9);
}

#[test]
fn vectors_5_to_7_big_pools_exactly() {
    // 5: sum(high 3 (20#d6)).
    let got = exact(&[], "sum(high 3 (20#d6))");
    let den = Big::from(6).pow(20);
    assert_eq!(got.first().map(|o| o.0), Some(Some(3)));
    assert_eq!(got.last().map(|o| o.0), Some(Some(18)));
    for (v, w) in [(3, 1u64), (6, 1_048_765), (18, 2_454_528_801_391_101)] {
        let (_, p, q) = got.iter().find(|o| o.0 == Some(v)).expect("value");
        assert_eq!(p.mul(&den), q.mul(&Big::from(w)), "P({v})");
    }
    // 6: count >7 50#d10, P(k) = C(50,k)·3^k·7^(50−k)/10^50.
    let got = exact(&[], "count >7 50#d10");
    assert_eq!(got.len(), 51);
    let den = Big::from(10).pow(50);
    let mut binom = Big::from(1);
    for (k, (v, p, q)) in got.iter().enumerate() {
        assert_eq!(*v, Some(k as i32));
        let w = binom
            .mul(&Big::from(3).pow(k as u32))
            .mul(&Big::from(7).pow(50 - k as u32));
        assert_eq!(p.mul(&den), q.mul(&w), "count >7 50#d10: P({k})");
        // C(50,k+1) = C(50,k)·(50−k)/(k+1): multiply first, then divide exactly.
        binom = div_small(&binom.mul(&Big::from(50 - k as u64)), k as u64 + 1);
    }
    // 7: high 1 100#d20, P(k) = (k^100 − (k−1)^100)/20^100, i.e. P(k)·20^100 + (k−1)^100 = k^100.
    let got = exact(&[], "high 1 100#d20");
    assert_eq!(got.len(), 20);
    let den = Big::from(20).pow(100);
    for (k, (v, p, q)) in got.iter().enumerate() {
        let k = k as u64 + 1;
        assert_eq!(*v, Some(k as i32));
        // p/q·den + (k−1)^100 = k^100  ⇔  p·den + q·(k−1)^100 = q·k^100.
        let lhs = p.mul(&den).add(&q.mul(&Big::from(k - 1).pow(100)));
        assert_eq!(lhs, q.mul(&Big::from(k).pow(100)), "high 1 100#d20: P({k})");
    }
    // 0.7's 6-decimal format for the same big pools.
    let out = calc(&[], "high 1 100#d20");
    assert!(out.starts_with("  1\t0.000000\t\n") && out.ends_with(" 20\t0.994079\t\n"));
}

fn div_small(a: &Big, d: u64) -> Big {
    let mut r = vec![0u64; a.0.len()];
    let mut rem = 0u64;
    for i in (0..a.0.len()).rev() {
        let cur = rem * BASE + a.0[i];
        r[i] = cur / d;
        rem = cur % d;
    }
    assert_eq!(rem, 0, "exact division");
    Big(r).norm()
}

#[test]
fn vectors_23_to_26_empty_outcomes_and_while() {
    assert_eq!(
        calc(&[], "if >3 d6 then 1 else ()"),
        " ()\t0.500000\t\n  1\t0.500000\t\n"
    );
    assert_eq!(calc(&[], "()"), " ()\t1.000000\t\n");
    let got = exact(&[], "()");
    assert_eq!(got, vec![(None, Big::from(1), Big::from(1))]);
    uniform(
        "sum(while x = (7, d6) do ((count == 7 first 1 x)#100))",
        108,
        6,
    );
    let w = "count (while x = 2#d6 do ((count ==6 x)#d6))";
    assert_eq!(
        calc(&["-t", "0.005"], w),
        "  2\t0.694444\t\n  3\t0.231481\t\n  4\t0.074074\t\n"
    );
    assert_eq!(
        calc(
            &["--threshold=0.005"],
            &format!("count (first 10 ({}))", &w[6..])
        ),
        "  2\t0.694444\t\n  3\t0.277778\t\n  4\t0.027778\t\n"
    );
}

#[test]
fn vectors_40_and_41_errors_in_calc() {
    for (program, message) in [
        ("d(d3-1)", "die size must be at least 1 (got 0)"),
        ("3#d6", "result is not a single value (list of 3 values)"),
        ("6#sum(drop low 1 4#d6)", "result is not a single value"),
        ("1/0", "division by zero"),
    ] {
        let o = dicelab(&["-c"], program);
        assert_eq!(o.status.code(), Some(3), "{program}");
        assert!(o.stdout.is_empty(), "{program}");
        let err = text(&o.stderr);
        assert!(
            err.starts_with("<stdin>:1:") && err.contains(message),
            "{program}: {err}"
        );
        // `alea dice` follows docs/cli.md (1), `dicelab` 0.7 (3).
        let o = alea(&["dice", program]);
        assert_eq!(o.status.code(), Some(1), "{program}");
        assert!(text(&o.stderr).contains(message), "{program}");
    }
    // An error in one statement does not stop the next; syntax errors stop everything.
    let o = dicelab(&["-c"], "1/0; d2");
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(text(&o.stdout), "  1\t0.500000\t\n  2\t0.500000\t\n");
    let o = dicelab(&["-c"], "d2; 2d6");
    assert_eq!((o.status.code(), o.stdout.is_empty()), (Some(2), true));
}

#[test]
fn man_page_examples() {
    // 1, 2, 7, 11, 12 and the manual's first example.
    weights(
        "count >7 5#d10",
        0,
        &[16807, 36015, 30870, 13230, 2835, 243],
        100_000,
    );
    weights(
        "let c=5#d10 in (count >7 c)-(count ==1 c)",
        -5,
        &[
            1, 30, 375, 2520, 9810, 22356, 29430, 22680, 10125, 2430, 243,
        ],
        100_000,
    );
    weights(
        "high 1 low 2 3#d20",
        1,
        &[
            58, 166, 262, 346, 418, 478, 526, 562, 586, 598, 598, 586, 562, 526, 478, 418, 346,
            262, 166, 58,
        ],
        8000,
    );
    weights(
        "let a = 3#d6 in\n  let b = 2#d6 in\n    count( (<(high 1 a) high 1 b),\n           \
         (<(high 1 low 2 a) low 1 b))",
        0,
        &[2275, 2611, 2890],
        7776,
    );
    weights(
        "let c=5#d10 in\n  let succs = count >7 c in\n    let ones = count ==1 c in\n      \
         if >0 succs then high 1 (0,succs-ones)\n      else if >0 ones then -1 else 0",
        -1,
        &[9031, 26061, 29430, 22680, 10125, 2430, 243],
        100_000,
    );
    weights("count >10 sum keep high 2 3#d6", 0, &[173, 43], 216);
    // 3: rolls until a 6, cut after 7 pieces; the cut mass stays on 8.
    let out = calc(&[], "count (while x=d6 do ((count <6 x)#d6))");
    assert_eq!(out.lines().count(), 8);
    assert!(out.starts_with("  1\t0.166667\t\n") && out.ends_with("  8\t0.279082\t\n"));
    assert_eq!(
        calc(&["-t", "0.01"], "count (while x=d6 do ((count <6 x)#d6))"),
        "  1\t0.166667\t\n  2\t0.138889\t\n  3\t0.694444\t\n"
    );
    let o = alea(&["dice", "count (while x=d6 do ((count <6 x)#d6))"]);
    assert!(
        text(&o.stdout).contains("truncated mass = 0.279082 (while threshold 0.000001)\n"),
        "{}",
        text(&o.stdout)
    );
    // 4: 76 lines, the last (5/6)^75.
    let out = calc(&[], "count (while x=(d6/6) do ((count <1 x)#(d6/6)))");
    assert_eq!(out.lines().count(), 76);
    assert!(out.ends_with(" 76\t0.000001\t\n"), "{out}");
    // 5 and 10: lists are not single values.
    for program in [
        "6#sum(drop low 1 4#d6)",
        "let n = 20 in\n  let f = (1,1) in\n    foreach i in 1..n do\n      let f = (f,sum(high 2 \
         f)) in\n        if ==n i then f else ()",
    ] {
        let o = dicelab(&["-c"], program);
        assert_eq!(o.status.code(), Some(3));
        assert!(text(&o.stderr).contains("result is not a single value"));
    }
    // 6: d6.d6.
    let out = calc(&[], "d6.d6");
    let values: Vec<&str> = out
        .lines()
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    let expected: Vec<String> = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| format!("{:>3}", a * 10 + b)))
        .collect();
    assert_eq!(values, expected);
    assert!(out.lines().all(|l| l.ends_with("\t0.027778\t")));
    // 8: 3d6 rerolling 6s: 57 lines for 3..59.
    let out = calc(&[], "sum(while x=3#d6 do ((count ==6 x)#d6))");
    assert_eq!(out.lines().count(), 57);
    assert!(out.starts_with("  3\t0.004630\t\n") && out.ends_with(" 59\t0.000000\t\n"));
    assert!(out.contains(" 55\t0.000001\t\n"));
    // 9: 0.7 takes 382 s; the two exact ties print as correctly rounded.
    let out = calc(
        &[],
        "let x = 7#d10 in high 1 (foreach y in 1..10 do sum (==y x))",
    );
    assert_eq!(out.lines().count(), 33);
    assert!(out.starts_with("  4\t0.000084\t\n") && out.ends_with(" 70\t0.000000\t\n"));
    assert!(out.contains("  8\t0.039420\t\n") && out.contains(" 32\t0.002551\t\n"));
    assert!(out.contains(" 10\t0.213766\t\n"));
    // 13: Silent Death; 0.7 segfaults.
    let silent = "let x = 2#d8,d10 in\n  (count >15 sum x)#\n    let a = low 1 x in               \
                  // low die\n    let b = high 1 low 2 x in        // middle die\n    let c = \
                  high 1 x in              // high die\n      if ==a ==b c then a+b+c        // \
                  all equal\n      else if ==a <c b then c        // two low equal\n      else \
                  if >a ==c b then b+c      // two high equal\n      else b                     \
                  // all different";
    let out = calc(&[], silent);
    assert!(
        out.starts_with(" ()\t0.585938\t\n  4\t0.009375\t\n"),
        "{out}"
    );
    assert!(out.contains("  6\t0.101562\t\n"));
    let got = exact(&[], silent);
    let damage = [
        (4, 6),
        (5, 32),
        (6, 65),
        (7, 66),
        (8, 40),
        (9, 5),
        (10, 6),
        (12, 6),
        (14, 15),
        (16, 21),
        (18, 1),
        (21, 1),
        (24, 1),
    ];
    assert_eq!(got.len(), damage.len() + 1);
    assert_eq!(got[0].0, None);
    assert_eq!(got[0].1.mul(&Big::from(640)), got[0].2.mul(&Big::from(375)));
    for ((v, p, q), (dv, dw)) in got[1..].iter().zip(damage) {
        assert_eq!(*v, Some(dv));
        assert_eq!(p.mul(&Big::from(640)), q.mul(&Big::from(dw)), "damage {dv}");
    }
    let o = alea(&["dice", "--json", silent]);
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("JSON");
    let mean = v["mean"].as_f64().expect("mean");
    assert!((mean - 2142.0 / 265.0).abs() < 1e-12, "{mean}");
    assert!((v["sd"].as_f64().expect("sd") - 3.497802).abs() < 1e-6);
}
