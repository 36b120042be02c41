//! The programs of benches/interp.rs in EZScript, Rhai and Lua 5.4, timed by the CPU time of
//! the running thread (`/proc/thread-self/schedstat`, nanoseconds on a CPU) instead of wall
//! time: on a loaded machine a wall-clock sample includes the time other processes held the
//! core, CPU time does not. Linux only. The kernel brings that counter up to date only at
//! scheduler ticks and switches, so one short run cannot be timed by it: each figure is the
//! CPU time of at least `N` runs in a row (default 5), and of at least 0.5 s of CPU time, divided
//! by the number of runs, in ms:
//!
//! ```sh
//! cargo run --release -p alea-ezscript --features peers --example cputime [N]
//! ```
#![allow(dead_code)]
// An example that reports to the terminal.
#![allow(clippy::print_stdout)]

use alea_ezscript::{Env, MapHost, Program, SizeLimits, Value};

const N_LIST: usize = 100_000;

include!("../benches/shared/programs.rs");

/// Nanoseconds this thread has run on a CPU.
fn cpu_ns() -> u64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat (Linux)");
    s.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number")
}

/// The mean CPU time of at least `n` runs of `f` lasting at least 0.5 s in all, in ms.
fn mean_cpu(n: usize, mut f: impl FnMut()) -> f64 {
    f(); // warm up
    let t = cpu_ns();
    let mut runs = 0;
    while runs < n || cpu_ns() - t < 500_000_000 {
        f();
        runs += 1;
    }
    (cpu_ns() - t) as f64 / 1e6 / runs as f64
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    {
        println!(
            "program\tEZScript\tRhai\tLua 5.4\t(mean of >= {n} runs and >= 0.5 s, ms of thread CPU time)"
        );
        for &(name, ez, rh, lu) in PROGRAMS {
            let program = Program::compile(ez).expect("compiles");
            let host = MapHost::new().with(
                "data",
                Value::list((0..N_LIST).map(|i| Value::Number(i as f64)).collect()),
            );
            let env = Env {
                fuel: u64::MAX / 2,
                limits: SizeLimits::default(),
                ..Env::with_host(&host)
            };
            let t_ez = mean_cpu(n, || {
                std::hint::black_box(program.run(&env).expect("runs"));
            });

            let mut engine = rhai::Engine::new();
            engine.set_max_expr_depths(0, 0);
            engine.set_max_call_levels(1000);
            let ast = engine.compile(rh).expect("compiles");
            let data: rhai::Array = (0..N_LIST as i64).map(rhai::Dynamic::from).collect();
            let t_rhai = mean_cpu(n, || {
                let mut scope = rhai::Scope::new();
                scope.push("data", data.clone());
                let v = engine
                    .eval_ast_with_scope::<rhai::Dynamic>(&mut scope, &ast)
                    .expect("runs");
                let _ = std::hint::black_box(v);
            });

            let lua = mlua::Lua::new();
            let table = lua
                .create_sequence_from((0..N_LIST as i64).map(|i| i as f64))
                .expect("a table");
            lua.globals().set("data", table).expect("a global");
            let f = lua.load(lu).into_function().expect("compiles");
            let t_lua = mean_cpu(n, || {
                std::hint::black_box(f.call::<mlua::Value>(()).expect("runs"));
            });
            println!("{name}\t{t_ez:.2}\t{t_rhai:.2}\t{t_lua:.2}");
        }
    }
}
