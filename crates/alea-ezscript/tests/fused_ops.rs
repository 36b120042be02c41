//! Ops whose operator the compiler fixed (issue 14) give the operator's own values and
//! errors: a call's `local ± number` argument computed as `local + y` (`y` negated for `-`),
//! a returned `a + b`; and a condition `local op number` in one op.

use alea_ezscript::{Env, Program};

fn run(src: &str) -> String {
    let program = Program::compile(src).expect("compiles");
    match program.run(&Env::default()) {
        Ok(v) => format!("{v:?}"),
        Err(e) => format!("{} at {:?}", e.message, e.span),
    }
}

#[test]
fn a_call_argument_is_the_operators_value() {
    let values = [
        "0", "-0", "1 / 0", "-1 / 0", "0 / 0", "0.1", "-7.5", "1e308", "\"a\"", "true",
    ];
    for op in ["+", "-", "*", "/", "%", "<", "=="] {
        for y in ["0", "1", "2", "0.1", "1e308"] {
            for v in values {
                // `n` a local, the callee a captured function: the fused call.
                let fused = format!("func id(a) {{ a }}; func f(n) {{ id(n {op} {y}) }}; f({v})");
                let plain =
                    format!("func id(a) {{ a }}; func f(n) {{ m = n {op} {y}; id(m) }}; f({v})");
                let (a, b) = (run(&fused), run(&plain));
                if a.contains(" at ") {
                    // Errors: the same message (spans differ between the two sources).
                    let msg = |s: &str| s.split(" at ").next().unwrap_or_default().to_string();
                    assert_eq!(msg(&a), msg(&b), "{fused}");
                } else {
                    assert_eq!(a, b, "{fused}");
                }
            }
        }
    }
}

/// `func f(a, b) { a op b }` returns `a op b` in one op (`+` with its operator fixed by the
/// compiler): the same value or error as through a variable.
#[test]
fn a_returned_operation_is_the_operators_value() {
    let values = [
        "0", "-0", "1 / 0", "0 / 0", "0.1", "-7", "\"a\"", "true", "[1]",
    ];
    for op in ["+", "-", "*", "<"] {
        for a in values {
            for b in values {
                let fused = format!("func f(a, b) {{ a {op} b }}; f({a}, {b})");
                let plain = format!("func f(a, b) {{ m = a {op} b; m }}; f({a}, {b})");
                let (x, y) = (run(&fused), run(&plain));
                let msg = |s: &str| s.split(" at ").next().unwrap_or_default().to_string();
                assert_eq!(msg(&x), msg(&y), "{fused}");
            }
        }
    }
}

/// `if n op y` (one op, TestLocalCmp) decides as the comparison's value does.
#[test]
fn a_condition_is_the_comparisons_value() {
    let values = [
        "0", "-0", "1 / 0", "-1 / 0", "0 / 0", "1.5", "2", "-7", "\"a\"", "true",
    ];
    for op in ["<", "<=", ">", ">=", "==", "!="] {
        for y in ["0", "2", "1.5"] {
            for v in values {
                let fused = format!("func f(n) {{ if n {op} {y} {{ 1 }} else {{ 2 }} }}; f({v})");
                let plain =
                    format!("func f(n) {{ c = n {op} {y}; if c {{ 1 }} else {{ 2 }} }}; f({v})");
                let (x, z) = (run(&fused), run(&plain));
                let msg = |s: &str| s.split(" at ").next().unwrap_or_default().to_string();
                assert_eq!(msg(&x), msg(&z), "{fused}");
            }
        }
    }
}
