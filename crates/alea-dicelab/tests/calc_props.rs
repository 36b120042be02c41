//! Property tests of the exact engine: order-insensitive rewrites give identical distributions,
//! and exact probabilities always sum to 1.

use alea_core::SourceFile;
use alea_dicelab::calc::{self, CalcOptions, CalcResult};
use proptest::prelude::*;

fn calc(program: &str) -> Result<CalcResult, String> {
    let file = SourceFile::new("<prop>", program);
    let (prog, errors) = alea_dicelab::parse(&file);
    assert!(errors.is_empty(), "{program}: {errors:?}");
    calc::calculate(&prog.statements[0], &CalcOptions::default()).map_err(|d| d.message)
}

/// Small random list expressions, each parenthesised so that it composes.
fn list_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (2u32..7).prop_map(|k| format!("(d{k})")),
        (0u32..4, 2u32..5).prop_map(|(n, k)| format!("({n}#d{k})")),
        (1i32..4).prop_map(|n| format!("({n})")),
        Just("()".to_string()),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}, {b})")),
            (0u32..3, inner.clone()).prop_map(|(n, e)| format!("(high {n} {e})")),
            (0u32..3, inner.clone()).prop_map(|(n, e)| format!("(drop low {n} {e})")),
            (1u32..4, inner.clone()).prop_map(|(n, e)| format!("(> {n} {e})")),
            (0u32..2, inner.clone()).prop_map(|(n, e)| format!("(first {n} {e})")),
            (1u32..3, inner.clone()).prop_map(|(n, e)| format!("({n}#{e})")),
            inner
                .clone()
                .prop_map(|e| format!("(foreach v in {e} do (v, d2))")),
            inner.prop_map(|e| format!("(let z = {e} in (last 1 z, sum z))")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn sum_and_count_ignore_order(e in list_expr()) {
        for agg in ["sum", "count", "prod"] {
            let base = calc(&format!("{agg} {e}"));
            for rewrite in ["sort", "rev", "perm"] {
                let other = calc(&format!("{agg} {rewrite} {e}"));
                prop_assert_eq!(&base, &other, "{} {} {}", agg, rewrite, e);
            }
            if let Ok(r) = base {
                let d = r.distribution();
                let mut sum = alea_prob::Weight::ZERO;
                for (_, w) in d.iter() {
                    sum.add_assign(w);
                }
                prop_assert_eq!(&sum, d.total());
                let f: f64 = r.outcomes().iter().map(|(_, p)| p.to_f64()).sum();
                prop_assert!((f - 1.0).abs() < 1e-12);
            }
        }
    }
}
