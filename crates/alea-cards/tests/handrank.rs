//! The committed handrank tables against the definition: a fresh, small Monte Carlo run of the
//! generator (`handrank_order`) orders every pair of clearly separated classes as the committed
//! exact heads-up table does, and its equities are within sampling error of the exact ones.

use alea_cards::{HoldingClass, handrank, handrank_order, handrank_table};

#[test]
fn heads_up_table_agrees_with_a_fresh_small_sample() {
    let deals = 20_000;
    let fresh = handrank_order(1, deals, 2026).unwrap();
    let committed = handrank_table(1);
    let position = |order: &[(HoldingClass, f64)], c: HoldingClass| {
        order.iter().position(|&(x, _)| x == c).unwrap()
    };
    // One class's estimate has standard error ≤ 0.5/√deals ≈ 0.0035; 0.025 is 7 of them.
    for &(class, exact) in committed {
        let estimate = fresh[position(&fresh, class)].1;
        assert!(
            (estimate - exact).abs() < 0.025,
            "{class}: {estimate} vs {exact}"
        );
    }
    // Pairs whose exact equities differ by 0.04 (over 5 standard errors of the difference).
    let mut checked = 0;
    for &(a, ea) in committed {
        for &(b, eb) in committed {
            if ea - eb > 0.04 {
                assert!(position(&fresh, a) < position(&fresh, b), "{a} above {b}");
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked} pairs checked");
}

#[test]
fn more_opponents_favour_suited_connectors_over_weak_offsuit_aces() {
    let rank = |name: &str, n| handrank(HoldingClass::parse(name).unwrap(), n).0;
    // Heads up, 88 beats AKs and AKs beats 77 (exact table). Against many opponents a hand
    // wins by making straights and flushes: suited connectors climb by dozens of places while
    // weak offsuit aces fall (differences far beyond sampling error).
    assert!(rank("88", 1) < rank("AKs", 1) && rank("AKs", 1) < rank("77", 1));
    assert!(rank("T9s", 9) + 20 < rank("T9s", 1));
    assert!(rank("76s", 9) + 20 < rank("76s", 1));
    assert!(rank("A2o", 9) > rank("A2o", 1) + 20);
    for n in 1..=9 {
        assert_eq!(rank("AA", n), 1);
        assert!(rank("72o", n) >= 160, "n = {n}");
    }
}
