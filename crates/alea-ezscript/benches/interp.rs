//! EZScript's interpreter against Rhai on the same programs, side by side in one run:
//! `cargo bench -p alea-ezscript --bench interp`. CPython's numbers come from
//! `benches/peers.py` (same programs); ratios are in docs/performance/ezscript.md.

use alea_ezscript::{Env, MapHost, Program, SizeLimits, Value, with_stack};

fn main() {
    // EZScript recurses on the native stack: run the benches on a big-stack thread.
    with_stack(divan::main);
}

const N_LIST: usize = 100_000;

/// (name, EZScript, Rhai)
const PROGRAMS: &[(&str, &str, &str)] = &[
    (
        "fib25",
        "func fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }; fib(25)",
        "fn fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } } fib(25)",
    ),
    (
        "loop1e6",
        "s = 0; for i = 0; i < 1000000; i += 1 { s += i }; s",
        "let s = 0; for i in 0..1000000 { s += i; } s",
    ),
    (
        "list_pipeline1e5",
        "data.map(func(x) { x * 7 % 1000 }).where(func(x) { x % 2 == 0 }).sort().reduce(func(a, b) { a + b })",
        "let v = data.map(|x| x * 7 % 1000).filter(|x| x % 2 == 0); v.sort(); v.reduce(|sum, x| sum + x, 0)",
    ),
    (
        "string_build1e4",
        "s = \"\"; for i = 0; i < 10000; i += 1 { s += \"ab\" }; s.count",
        "let s = \"\"; for i in 0..10000 { s += \"ab\"; } s.len()",
    ),
];

fn program(name: &str) -> (&'static str, &'static str) {
    let p = PROGRAMS.iter().find(|p| p.0 == name).expect("a program");
    (p.1, p.2)
}

fn ez_host() -> MapHost {
    MapHost::new().with(
        "data",
        Value::list((0..N_LIST).map(|i| Value::Number(i as f64)).collect()),
    )
}

fn ez_run(bencher: divan::Bencher, name: &str) {
    let program = Program::compile(program(name).0).expect("compiles");
    let host = ez_host();
    let env = Env {
        fuel: u64::MAX / 2,
        limits: SizeLimits::default(),
        ..Env::with_host(&host)
    };
    bencher.bench_local(|| program.run(&env).expect("runs"));
}

fn rhai_run(bencher: divan::Bencher, name: &str) {
    let mut engine = rhai::Engine::new();
    engine.set_max_expr_depths(0, 0);
    engine.set_max_call_levels(1000);
    let ast = engine.compile(program(name).1).expect("compiles");
    let data: rhai::Array = (0..N_LIST as i64).map(rhai::Dynamic::from).collect();
    bencher.bench_local(|| {
        let mut scope = rhai::Scope::new();
        scope.push("data", data.clone());
        engine
            .eval_ast_with_scope::<rhai::Dynamic>(&mut scope, &ast)
            .expect("runs")
    });
}

#[divan::bench(args = ["fib25", "loop1e6", "list_pipeline1e5", "string_build1e4"], sample_count = 10)]
fn ezscript(bencher: divan::Bencher, name: &str) {
    ez_run(bencher, name);
}

#[divan::bench(args = ["fib25", "loop1e6", "list_pipeline1e5", "string_build1e4"], sample_count = 10)]
fn rhai(bencher: divan::Bencher, name: &str) {
    rhai_run(bencher, name);
}
