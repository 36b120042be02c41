//! Exact answers of alea-prob checked against closed forms and brute-force enumeration.

use alea_prob::{Budget, Dist, Order, Pool, ProbError, Ratio, Weight, binomial};
use num_bigint::BigUint;
use proptest::prelude::*;

fn die(n: i64) -> Dist<i64> {
    Dist::uniform(1..=n).unwrap()
}

fn weights(d: &Dist<i64>) -> Vec<(i64, String)> {
    d.iter().map(|(t, w)| (*t, w.to_string())).collect()
}

/// All sequences of `n` values from `faces` (brute force, for small cases).
fn enumerate(faces: &[i64], n: usize) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|v| {
                faces.iter().map(move |f| {
                    let mut w = v.clone();
                    w.push(*f);
                    w
                })
            })
            .collect();
    }
    out
}

#[test]
fn two_d6_by_convolution() {
    let mut b = Budget::default();
    let d = die(6).sum_iid(2, &mut b).unwrap();
    let expected: Vec<u64> = vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
    assert_eq!(d.total(), &Weight::from(36u64));
    for (i, w) in expected.iter().enumerate() {
        assert_eq!(d.weight(&(i as i64 + 2)), Weight::from(*w));
    }
}

#[test]
fn sum_of_zero_dice_is_zero() {
    let d = die(6).sum_iid(0, &mut Budget::default()).unwrap();
    assert_eq!(weights(&d), vec![(0, "1".to_string())]);
}

#[test]
fn drop_lowest_of_4d6() {
    // dicelab spec §10 vector 4: 3..18 ∝ 1,4,10,21,38,62,91,122,148,167,172,160,131,94,54,21 /1296
    let mut b = Budget::default();
    let d = Pool::iid(die(6), 4)
        .sum_extreme(Order::Descending, 3, &mut b)
        .unwrap();
    let expected = [
        1u64, 4, 10, 21, 38, 62, 91, 122, 148, 167, 172, 160, 131, 94, 54, 21,
    ];
    assert_eq!(d.total(), &Weight::from(1296u64));
    for (i, w) in expected.iter().enumerate() {
        assert_eq!(
            d.weight(&(i as i64 + 3)),
            Weight::from(*w),
            "value {}",
            i + 3
        );
    }
}

#[test]
fn highest_3_of_20d6() {
    // Vector 5: P(3) = 1/6^20, P(6) = 1048765/6^20, P(18) = 2454528801391101/6^20.
    let mut b = Budget::default();
    let d = Pool::iid(die(6), 20)
        .sum_extreme(Order::Descending, 3, &mut b)
        .unwrap();
    let six20 = BigUint::from(6u8).pow(20);
    let r = |n: u64| Ratio::new(BigUint::from(n), six20.clone());
    assert_eq!(d.probability(&3), r(1));
    assert_eq!(d.probability(&6), r(1048765));
    assert_eq!(d.probability(&18), r(2454528801391101));
    assert_eq!(d.len(), 16);
}

#[test]
fn highest_of_100d20() {
    // Vector 7: P(k) = (k^100 − (k−1)^100)/20^100.
    let mut b = Budget::default();
    let d = Pool::iid(die(20), 100)
        .keep_extreme(Order::Descending, 1, &mut b)
        .unwrap();
    let total = BigUint::from(20u8).pow(100);
    for k in 1..=20u32 {
        let num = BigUint::from(k).pow(100) - BigUint::from(k - 1).pow(100);
        assert_eq!(
            d.probability(&vec![i64::from(k)]),
            Ratio::new(num, total.clone())
        );
    }
}

#[test]
fn count_over_7_of_50d10_is_binomial() {
    // Vector 6: P(k) = C(50,k)·3^k·7^(50−k)/10^50, by the pool automaton and by count_iid.
    let mut b = Budget::default();
    let by_pool = Pool::iid(die(10), 50)
        .evaluate(
            Order::Ascending,
            0i64,
            |c, o, n| if *o > 7 { c + i64::from(n) } else { *c },
            |_| false,
            &mut b,
        )
        .unwrap();
    let direct = die(10).count_iid(50, |v| *v > 7);
    assert_eq!(by_pool, direct);
    let b3 = binomial(50, &Weight::from(3u64), &Weight::from(7u64));
    assert_eq!(by_pool, b3);
    let c50_10 = BigUint::from(10272278170u64);
    let expected = c50_10 * BigUint::from(3u8).pow(10) * BigUint::from(7u8).pow(40);
    assert_eq!(
        by_pool.probability(&10),
        Ratio::new(expected, BigUint::from(10u8).pow(50))
    );
}

#[test]
fn mixed_pool_matches_enumeration() {
    // 2d8 and 1d10: the sorted multiset of the 2 lowest.
    let mut b = Budget::default();
    let pool = Pool::from_groups(vec![(die(8), 2), (die(10), 1)]);
    let d = pool.keep_extreme(Order::Ascending, 2, &mut b).unwrap();
    let mut pairs = Vec::new();
    for x in 1..=8 {
        for y in 1..=8 {
            for z in 1..=10 {
                let mut v = vec![x, y, z];
                v.sort();
                v.truncate(2);
                pairs.push(v);
            }
        }
    }
    let brute = Dist::uniform(pairs).unwrap();
    assert_eq!(d, brute);
}

#[test]
fn mixture_and_bind() {
    let mut b = Budget::default();
    // d(d6): vector 14, 1..6 ∝ 147,87,57,37,22,10 /360.
    let d = die(6)
        .bind(|n| Ok::<_, ProbError>(die(*n)), &mut b)
        .unwrap();
    let expected = [147u64, 87, 57, 37, 22, 10];
    assert_eq!(d.total(), &Weight::from(360u64));
    for (i, w) in expected.iter().enumerate() {
        assert_eq!(d.weight(&(i as i64 + 1)), Weight::from(*w));
    }
    let sum: Weight = d.iter().fold(Weight::ZERO, |acc, (_, w)| acc.add(w));
    assert_eq!(&sum, d.total());
}

#[test]
fn condition_and_errors() {
    let d = die(6).condition(|v| *v > 4).unwrap();
    assert_eq!(d.probability(&5).to_string(), "1/2");
    assert_eq!(
        die(6).condition(|v| *v > 6),
        Err(ProbError::ImpossibleCondition)
    );
    let mut tiny = Budget::new(1_000_000, 10);
    let err = die(6)
        .product(&die(6), |a, b| a * 10 + b, &mut tiny)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "product of distributions has more than 10 outcomes or states"
    );
    let mut few_steps = Budget::new(100, 1000);
    let err = Pool::iid(die(6), 50)
        .sum_extreme(Order::Descending, 3, &mut few_steps)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "pool evaluation exceeded the step limit of 100"
    );
}

#[test]
fn moments_of_2d6() {
    let d = die(6).sum_iid(2, &mut Budget::default()).unwrap();
    let m = d.moments(|v| Some(*v)).unwrap();
    assert_eq!(m.mean.to_string(), "7/1");
    assert_eq!(m.variance.to_string(), "35/6");
    let neg = die(6).map(|v| -v).moments(|v| Some(*v)).unwrap();
    assert_eq!(neg.mean.to_string(), "-7/2");
    assert!((neg.mean.to_f64() + 3.5).abs() < 1e-15);
}

#[test]
fn huge_pools_are_fast_enough_to_test() {
    let mut b = Budget::default();
    let d = Pool::iid(die(6), 100)
        .sum_extreme(Order::Descending, 3, &mut b)
        .unwrap();
    assert_eq!(d.len(), 16);
    let sum: Weight = d.iter().fold(Weight::ZERO, |acc, (_, w)| acc.add(w));
    assert_eq!(&sum, d.total());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn pool_keep_matches_brute_force(faces in 1i64..6, n in 0usize..5, keep in 0u32..5, high in any::<bool>()) {
        let mut b = Budget::default();
        let order = if high { Order::Descending } else { Order::Ascending };
        let d = Pool::iid(die(faces), n as u32).sum_extreme(order, keep, &mut b).unwrap();
        let rolls = enumerate(&(1..=faces).collect::<Vec<_>>(), n);
        let brute = Dist::uniform(rolls.into_iter().map(|mut r| {
            r.sort();
            if high { r.reverse(); }
            r.iter().take(keep as usize).sum::<i64>()
        })).unwrap();
        prop_assert_eq!(d, brute);
    }

    #[test]
    fn convolution_matches_product(a in prop::collection::vec((-5i64..5, 1u64..4), 1..5),
                                   c in prop::collection::vec((-50i64..50, 1u64..4), 1..5)) {
        let mut b = Budget::default();
        let x = Dist::from_weights(a.into_iter().map(|(v, w)| (v, Weight::from(w)))).unwrap();
        let y = Dist::from_weights(c.into_iter().map(|(v, w)| (v, Weight::from(w)))).unwrap();
        let conv = x.convolve(&y, &mut b).unwrap();
        let prod = x.product(&y, |p, q| p + q, &mut b).unwrap();
        prop_assert_eq!(&conv, &prod);
        let total: Weight = conv.iter().fold(Weight::ZERO, |acc, (_, w)| acc.add(w));
        prop_assert_eq!(&total, conv.total());
    }

    #[test]
    fn f64_view_matches_division_for_small_ratios(a in 0u64..1_000_000, b in 1u64..1_000_000) {
        prop_assume!(a <= b);
        let r = Ratio::new(BigUint::from(a), BigUint::from(b));
        // Both operands are exact in f64 and IEEE division is correctly rounded.
        prop_assert_eq!(r.to_f64(), a as f64 / b as f64);
    }
}

#[test]
fn multisets_match_the_automaton() {
    let mut b = Budget::default();
    let d10 = die(10);
    let pool = Pool::iid(d10.clone(), 7);
    let direct = pool.multisets(&mut b).unwrap();
    assert_eq!(direct.len(), 11440);
    assert_eq!(
        direct,
        pool.keep_extreme(Order::Ascending, 7, &mut b).unwrap()
    );
    let mixed = Pool::from_groups(vec![(d10, 3), (die(4), 2)]);
    assert_eq!(
        mixed.multisets(&mut b).unwrap(),
        mixed.keep_extreme(Order::Ascending, 5, &mut b).unwrap()
    );
    let mut tiny = Budget::new(u64::MAX, 1000);
    let err = Pool::iid(die(6), 100).multisets(&mut tiny).unwrap_err();
    assert_eq!(
        err.to_string(),
        "multisets of a pool has more than 1000 outcomes or states"
    );
}
