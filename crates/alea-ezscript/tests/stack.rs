//! Deep recursion ends in a clear error on a default thread (2 MiB of stack, what `cargo
//! test` gives each test), not in a stack overflow (issue 14 part 2): the call depth limit
//! (500) for ordinary recursion. User calls are frames on the interpreter's own stack, so with
//! a raised depth limit recursion goes as deep as that limit on a default thread; only
//! callbacks (list methods calling user functions) nest native runs of the evaluator, counted
//! by `SizeLimits::callbacks`.

use alea_ezscript::{Env, Program, SizeLimits};

fn run(src: &str, depth: u32) -> Result<String, String> {
    let env = Env {
        fuel: u64::MAX / 2,
        limits: SizeLimits {
            depth,
            ..SizeLimits::default()
        },
        ..Env::default()
    };
    let program = Program::compile(src).map_err(|d| format!("{d:?}"))?;
    program
        .run_display(&env)
        .map(|o| o.text)
        .map_err(|e| e.message)
}

/// Runs on a thread with the default stack of a spawned Rust thread.
fn on_default_thread(src: &'static str, depth: u32) -> Result<String, String> {
    std::thread::spawn(move || run(src, depth))
        .join()
        .expect("no panic")
}

#[test]
fn the_default_depth_limit_fits_a_default_thread() {
    let f = "func f(n) { if n == 0 { 0 } else { 1 + f(n - 1) } }; f(499)";
    assert_eq!(on_default_thread(f, 500), Ok("499".into()));
    let f = "func f(n) { if n == 0 { 0 } else { 1 + f(n - 1) } }; f(500)";
    assert_eq!(
        on_default_thread(f, 500),
        Err("Too much recursion (limit 500)".into())
    );
    // Callbacks count as calls.
    let f =
        "l = [1]; func f(n) { if n < 1 { 0 } else { l.map(func(x) { f(n - 1) }).count } }; f(1000)";
    assert_eq!(
        on_default_thread(f, 500),
        Err("Too much recursion (limit 500)".into())
    );
    // Exactly: each level is a call of `f` and a callback, two of the 500; the last `f` of
    // `f(249)` is the 499th call, that of `f(250)` would be the 501st.
    let f =
        "l = [1]; func f(n) { if n < 1 { 0 } else { l.map(func(x) { f(n - 1) }).count } }; f(249)";
    assert_eq!(on_default_thread(f, 500), Ok("1".into()));
    let f =
        "l = [1]; func f(n) { if n < 1 { 0 } else { l.map(func(x) { f(n - 1) }).count } }; f(250)";
    assert_eq!(
        on_default_thread(f, 500),
        Err("Too much recursion (limit 500)".into())
    );
}

/// With the native-stack guard gone (issue 14: calls no longer recurse natively), what it
/// stopped now runs to the end on a default thread, and callbacks stop at their count.
#[test]
fn only_the_depth_limit_and_the_callback_count_stop_deep_recursion() {
    let deep = [
        "func f(n) { if n < 1 { 0 } else { 1 + f(n - 1) } }; f(100000)",
        "func f(n) { if n < 1 { 0 } else { 1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+f(n - 1)))))))))))))))))))) } }; f(100000)",
    ];
    assert_eq!(on_default_thread(deep[0], 1_000_000), Ok("100000".into()));
    assert_eq!(on_default_thread(deep[1], 1_000_000), Ok("2000000".into()));
    assert_eq!(
        on_default_thread(deep[0], 100_000),
        Err("Too much recursion (limit 100000)".into())
    );
    let callbacks = "l = [1]; func f(n) { if n < 1 { 0 } else { l.map(func(x) { f(n - 1) }).count } }; f(100000)";
    assert_eq!(
        on_default_thread(callbacks, 1_000_000),
        Err("Too much recursion: callbacks nested more than 256 deep".into())
    );
}
