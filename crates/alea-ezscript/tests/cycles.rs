//! A run frees the reference cycles it made (issue 14, values): a recursive function captures
//! the variable that holds it, so counting alone never freed it, and a clock evaluating such a
//! field every second leaked each run. What a run returns, or a host keeps, stays intact (and
//! a cycle that so leaves its run is no longer collected: fields return texts and numbers).

use alea_ezscript::{Closure, Env, MapHost, Program, Value};
use std::cell::RefCell;
use std::rc::{Rc, Weak};

/// A host whose `keep(v)` remembers a weak reference to each function passed (so the test
/// sees whether it was freed without keeping it alive).
fn keeper() -> (MapHost, Rc<RefCell<Vec<Weak<Closure>>>>) {
    let kept: Rc<RefCell<Vec<Weak<Closure>>>> = Rc::default();
    let k = kept.clone();
    let host = MapHost::new().with(
        "keep",
        Closure::native("keep", move |args| {
            for a in args {
                if let Value::Function(f) = a {
                    k.borrow_mut().push(Rc::downgrade(f));
                }
            }
            Ok(Value::Nothing)
        }),
    );
    (host, kept)
}

fn run(host: &MapHost, src: &str) -> Value {
    Program::compile(src)
        .unwrap_or_else(|d| panic!("{src}: {d:?}"))
        .run(&Env::with_host(host))
        .unwrap_or_else(|e| panic!("{src}: {e:?}"))
}

#[test]
fn cycles_through_captured_variables_are_freed_when_the_run_ends() {
    for src in [
        // A recursive function, at the top and inside a function.
        "func f(n) { if n == 0 { 0 } else { f(n - 1) } }; keep(f); f(3)",
        "func outer() { func f(n) { if n == 0 { 0 } else { f(n - 1) } }; keep(f); f(2) }; outer()",
        // Mutual recursion.
        "func even(n) { if n == 0 { true } else { odd(n - 1) } }
         func odd(n) { if n == 0 { false } else { even(n - 1) } }
         keep(even, odd); even(10)",
        // Through a list and an object held by the captured variable.
        "h = []; h = [func() { h }]; keep(h[0]); 1",
        "h = []; h = [[1], {a: [2]}, [[3]], func() { h }]; keep(h[3]); 1",
        "o = {}; o = {f: func() { o.f }}; keep(o.f); 1",
        // A parameter captured by the closure stored back into it, in a loop of calls.
        "func wrap(x) { x = [x, func() { x }]; keep(x[1]); 0 }
         for i = 0; i < 2000; i += 1 { wrap(i) }; 1",
    ] {
        let (host, kept) = keeper();
        run(&host, src);
        let kept = kept.borrow();
        assert!(!kept.is_empty(), "{src}");
        assert!(
            kept.iter().all(|w| w.upgrade().is_none()),
            "{src}: a function leaked"
        );
    }
}

#[test]
fn what_a_run_returns_or_a_host_keeps_stays_intact() {
    // The first run returns its recursive function; a second run of the same program calls
    // it (a function value runs in the program that made it): its variable still holds it.
    let src = "func f(n) { if n == 0 { 7 } else { f(n - 1) } }
        keep(f)
        if first { [f] } else { old[0](5) }";
    let (host, kept) = keeper();
    let f = run(&host.with("first", true).with("old", 0.0), src);
    assert!(kept.borrow()[0].upgrade().is_some());
    let (host, _) = keeper();
    let again = host.with("first", false).with("old", f.clone());
    assert_eq!(run(&again, src).display(), "7");
    // (A cycle that leaves its run is the host's: freeing it later is not tracked.)

    // Two closures sharing a variable, returned: both still see it.
    let src = "func counter() { n = 0; func tick() { n += 1; n }; func again() { tick() }; [tick, again] }
        if first { counter() } else { old[0](); old[1](); old[1]() }";
    let pair = run(&MapHost::new().with("first", true).with("old", 0.0), src);
    let host = MapHost::new().with("first", false).with("old", pair);
    assert_eq!(run(&host, src).display(), "3");
}

#[test]
fn a_100000_closure_cycle_is_freed_on_a_2mib_thread() {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            // Each closure holds the previous through its own variable `h`; the first holds
            // `first`, which at the end holds the last: one cycle of 200,000 nodes.
            let src = "func wrap(h) { func() { h } }
                first = 0
                f = func() { first }
                keep(f)
                for i = 0; i < 100000; i += 1 { f = wrap(f) }
                first = f
                1";
            let (host, kept) = keeper();
            let env = Env {
                fuel: 10_000_000,
                ..Env::with_host(&host)
            };
            let out = Program::compile(src).unwrap().run(&env).unwrap();
            assert_eq!(out.display(), "1");
            assert!(kept.borrow()[0].upgrade().is_none(), "the cycle leaked");
        })
        .unwrap()
        .join()
        .expect("no panic");
}
