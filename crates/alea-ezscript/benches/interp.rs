//! EZScript's interpreter against Rhai and Lua 5.4 (mlua, vendored) on the same programs, side
//! by side in one run: `cargo bench -p alea-ezscript --features peers --bench interp` (the
//! peers are optional dependencies, so `cargo test` never builds them). CPython's numbers come
//! from `benches/peers.py` (same programs); ratios are in docs/performance/ezscript.md.

use alea_ezscript::{Env, MapHost, Program, SizeLimits, Value};

fn main() {
    divan::main();
}

const N_LIST: usize = 100_000;

// 25 samples each: on the loaded 2-core machine the fastest of 10 was often still a contended
// one; the docs quote the fastest sample.

// The programs, shared with examples/profile.rs.
include!("shared/programs.rs");

fn program(name: &str) -> (&'static str, &'static str, &'static str) {
    let p = PROGRAMS.iter().find(|p| p.0 == name).expect("a program");
    (p.1, p.2, p.3)
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

fn lua_run(bencher: divan::Bencher, name: &str) {
    let lua = mlua::Lua::new();
    let data = lua
        .create_sequence_from((0..N_LIST as i64).map(|i| i as f64))
        .expect("a table");
    lua.globals().set("data", data).expect("a global");
    let f = lua
        .load(program(name).2)
        .set_name(name)
        .into_function()
        .expect("compiles");
    bencher.bench_local(|| f.call::<mlua::Value>(()).expect("runs"));
}

#[divan::bench(args = ["fib25", "loop1e6", "list_pipeline1e5", "string_build1e4"], sample_count = 25)]
fn ezscript(bencher: divan::Bencher, name: &str) {
    ez_run(bencher, name);
}

#[divan::bench(args = ["fib25", "loop1e6", "list_pipeline1e5", "string_build1e4"], sample_count = 25)]
fn rhai(bencher: divan::Bencher, name: &str) {
    rhai_run(bencher, name);
}

#[divan::bench(args = ["fib25", "loop1e6", "list_pipeline1e5", "string_build1e4"], sample_count = 25)]
fn lua(bencher: divan::Bencher, name: &str) {
    lua_run(bencher, name);
}
