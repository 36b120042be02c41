//! Every normative vector of `rng.md` (copied verbatim from `shared/specs/rng-vectors.json`).

use alea_core::Rng;
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("rng-vectors.json")).unwrap()
}

fn u(v: &Value) -> u64 {
    v.as_str()
        .map(|s| s.parse().unwrap())
        .unwrap_or_else(|| v.as_u64().unwrap())
}

fn i(v: &Value) -> i64 {
    v.as_str()
        .map(|s| s.parse().unwrap())
        .unwrap_or_else(|| v.as_i64().unwrap())
}

fn seeded(case: &Value) -> Rng {
    Rng::seed_from_u64(u(&case["seed"]))
}

/// How many `next_u64` calls separate a fresh generator for `case` from `rng`.
fn draws_taken(case: &Value, rng: &Rng) -> u64 {
    let mut fresh = seeded(case);
    for n in 0..10_000 {
        if &fresh == rng {
            return n;
        }
        fresh.next_u64();
    }
    panic!("state not reached within 10000 draws");
}

fn check_draws(case: &Value, rng: &Rng) {
    if let Some(d) = case.get("draws") {
        assert_eq!(draws_taken(case, rng), u(d), "draw count for {case}");
    }
}

fn cases<'a>(v: &'a Value, key: &str) -> &'a Vec<Value> {
    let list = v[key].as_array().unwrap();
    assert!(!list.is_empty(), "no {key} vectors");
    list
}

#[test]
fn seeding() {
    let v = vectors();
    for case in cases(&v, "seeding") {
        let want: Vec<u64> = case["state"].as_array().unwrap().iter().map(u).collect();
        assert_eq!(seeded(case).state().to_vec(), want, "seed {}", case["seed"]);
    }
}

#[test]
fn next_u64() {
    let v = vectors();
    for case in cases(&v, "next_u64") {
        let mut rng = seeded(case);
        for want in case["outputs"].as_array().unwrap() {
            assert_eq!(rng.next_u64(), u(want), "seed {}", case["seed"]);
        }
    }
}

#[test]
fn below() {
    let v = vectors();
    for case in cases(&v, "below") {
        let mut rng = seeded(case);
        let n = u(&case["n"]);
        let got: Vec<u64> = case["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|_| rng.below(n))
            .collect();
        let want: Vec<u64> = case["values"].as_array().unwrap().iter().map(u).collect();
        assert_eq!(got, want, "below({n}) seed {}", case["seed"]);
        check_draws(case, &rng);
    }
}

#[test]
fn range_inclusive() {
    let v = vectors();
    for case in cases(&v, "range_inclusive") {
        let mut rng = seeded(case);
        let (lo, hi) = (i(&case["lo"]), i(&case["hi"]));
        let want: Vec<i64> = case["values"].as_array().unwrap().iter().map(i).collect();
        let got: Vec<i64> = want.iter().map(|_| rng.range_inclusive(lo, hi)).collect();
        assert_eq!(
            got, want,
            "range_inclusive({lo},{hi}) seed {}",
            case["seed"]
        );
        check_draws(case, &rng);
    }
}

#[test]
fn shuffle() {
    let v = vectors();
    for case in cases(&v, "shuffle") {
        let mut rng = seeded(case);
        let mut a: Vec<u64> = case["input"].as_array().unwrap().iter().map(u).collect();
        rng.shuffle(&mut a);
        let want: Vec<u64> = case["output"].as_array().unwrap().iter().map(u).collect();
        assert_eq!(a, want, "seed {}", case["seed"]);
        check_draws(case, &rng);
    }
}

#[test]
fn choose() {
    let v = vectors();
    for case in cases(&v, "choose") {
        let mut rng = seeded(case);
        let items: Vec<&str> = case["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        let want: Vec<&str> = case["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        let got: Vec<&str> = want.iter().map(|_| *rng.choose(&items).unwrap()).collect();
        assert_eq!(got, want);
        check_draws(case, &rng);
    }
}

#[test]
fn unit_f64() {
    let v = vectors();
    for case in cases(&v, "unit_f64") {
        let mut rng = seeded(case);
        for want in case["values"].as_array().unwrap() {
            let want: f64 = want.as_str().unwrap().parse().unwrap();
            assert_eq!(rng.unit_f64().to_bits(), want.to_bits());
        }
        check_draws(case, &rng);
    }
}

#[test]
fn jump_and_streams() {
    let v = vectors();
    for case in cases(&v, "jump") {
        let k = u(&case["jumps"]);
        let mut rng = Rng::stream(u(&case["seed"]), k);
        let want: Vec<u64> = case["state"].as_array().unwrap().iter().map(u).collect();
        assert_eq!(rng.state().to_vec(), want, "stream({}, {k})", case["seed"]);
        for want in case["outputs"].as_array().unwrap() {
            assert_eq!(rng.next_u64(), u(want));
        }
    }
}

#[test]
fn edge_cases() {
    let mut rng = Rng::seed_from_u64(7);
    let before = rng.clone();
    assert_eq!(rng.below(1), 0);
    assert_eq!(rng, before, "below(1) draws nothing");
    let mut one = [9];
    rng.shuffle(&mut one);
    assert_eq!(rng.choose(&one), Some(&9));
    assert_eq!(rng, before, "one-element shuffle and choose draw nothing");
    let full = rng.range_inclusive(i64::MIN, i64::MAX);
    let mut raw = before.clone();
    assert_eq!(full, i64::MIN.wrapping_add(raw.next_u64() as i64));
    assert!(Rng::from_state([0; 4]).is_none());
    assert_eq!(Rng::from_state(before.state()), Some(before));
}
