//! A host's time limit (`alea_core::Cancel`) is polled when the step budget crosses a multiple
//! of `POLL_STEPS`, in every kind of op (calls, returns, loops, the fast loop): a cancelled run
//! stops at the first such point, not before it (issue 14: the evaluator charges steps above
//! the next polling point in one subtraction).

use alea_core::{Cancel, POLL_STEPS};
use alea_ezscript::{Env, Program};

const TIME: &str = "Script stopped: the host's time limit was reached";

fn run(program: &Program, fuel: u64) -> (Result<String, String>, u64) {
    let env = Env {
        fuel,
        ..Env::default()
    };
    let (r, used) = program.run_metered(&env);
    (r.map(|v| format!("{v:?}")).map_err(|e| e.message), used)
}

#[test]
fn a_cancelled_run_stops_at_the_first_polling_point() {
    let cancel = Cancel::new();
    cancel.cancel();
    for src in [
        "func fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }; fib(12)",
        "s = 0; for i = 0; i < 3000; i += 1 { s += i }; s",
        "s = 0; i = 0; while i < 2000 { s += i * 2; i += 1 }; s",
        "[1, 2, 3, 4, 5, 6, 7, 8].map(func(x) { x * 2 }).where(func(x) { x > 4 }).reduce(func(a, b) { a + b })",
    ] {
        let program = Program::compile(src).expect("compiles");
        let (value, used) = run(&program, 100 * POLL_STEPS);
        let value = value.expect("runs");
        assert!(used < POLL_STEPS, "{src}: {used} steps");
        for k in [3, 100] {
            // Ends exactly on a polling point: no poll is crossed.
            let fuel = k * POLL_STEPS + used;
            let r = cancel.scope(|| run(&program, fuel));
            assert_eq!(r, (Ok(value.clone()), used), "{src}");
            // One step less: the last charge crosses it.
            let r = cancel.scope(|| run(&program, fuel - 1));
            assert_eq!(r.0, Err(TIME.to_string()), "{src}");
        }
    }
}
