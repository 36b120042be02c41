//! Step counts of small programs, measured before the interpreter's fast paths existed
//! (superinstructions for `local op number` conditions, `x op= number`, inline local reads):
//! a fast path may skip work, never steps (spec §11: 1 step per evaluated node), so a script
//! runs out of steps at the same point whatever path it takes.

use alea_ezscript::{Env, Program};

const CASES: &[(u64, &str)] = &[
    (607, "s = 0; for i = 0; i < 100; i += 1 { s += i }; s"),
    (
        1857,
        "func fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }; fib(10)",
    ),
    (131, "i = 0; while i < 50 { i += 2 }; i"),
    (6, "x = 5; x *= x; x -= 1; x %= 7; x /= 2; x"),
    (6, "x = 5; y = 3; x += y; x -= y; x *= y; x"),
    (67, "s = \"\"; for i = 0; i < 10; i += 1 { s += i }; s"),
    (11, "c = 0; f = func() { c += 1; c }; f(); f(); c"),
    (
        70,
        "[1, 2, 3, 4].map(func(x) { x * 7 % 10 }).where(func(x) { x % 2 == 0 }).sort().reduce(func(a, b) { a + b })",
    ),
    (8, "a = [1, 2]; a[0] += 5; a"),
    (21, "func g(n) { if n > 0 { n } else { -n } }; g(-3) + g(3)"),
    (
        6,
        "n = 3; if n >= 3 { \"a\" } else if n != 2 { \"b\" } else { \"c\" }",
    ),
    (
        27,
        "for x in [1, 2, 3] { if x == 2 { continue }; if x > 2 { break } }",
    ),
    (16, "func h(a, b) { t = a; t += b; t }; h(1, 2) + h(3, 4)"),
    (95, "k = 0; for i = 0; i <= 10; i += 1 { k += i * 2 }; k"),
    (47, "x = true; y = 1; while x { y += y; x = y < 100 }; y"),
];

#[test]
fn fast_paths_pay_the_same_steps() {
    for &(steps, src) in CASES {
        let program = Program::compile(src).expect("compiles");
        let outcome = program.run_display(&Env::default()).expect("runs");
        assert_eq!(outcome.steps, steps, "{src}");
        // One step less runs out (the steps include displaying the result).
        let env = Env {
            fuel: steps - 1,
            ..Env::default()
        };
        let err = program.run_display(&env).expect_err("runs out of steps");
        assert_eq!(err.message, "Script ran out of steps", "{src}");
    }
}
