//! The programs of benches/interp.rs in EZScript, Rhai and Lua 5.4, timed by the CPU time of
//! the running thread (`/proc/thread-self/schedstat`, nanoseconds on a CPU) instead of wall
//! time: on a loaded machine a wall-clock sample includes the time other processes held the
//! core, CPU time does not. Linux only. The kernel brings that counter up to date only at
//! scheduler ticks and switches, so one short run cannot be timed by it: each figure is the
//! CPU time of at least `N` runs in a row (default 5), and of at least 0.5 s of CPU time, divided
//! by the number of runs, in ms:
//!
//! ```sh
//! cargo run --release -p alea-ezscript --features peers --example cputime [N [ROUNDS]]
//! ```
//!
//! With `ROUNDS`, EZScript and Lua are timed alternately, `ROUNDS` times each (the order
//! swapped every round; each figure at least `N` runs and 0.1 s), and each row gives the
//! median time of each and the median and range of the per-round ratio Lua / EZScript (above
//! 1: EZScript faster): on a shared machine the speed of both drifts by tens of percent within
//! seconds, which a single figure each, taken one after the other, mixes into the ratio. Rhai
//! (far slower) is timed once.
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
fn mean_cpu(n: usize, f: impl FnMut()) -> f64 {
    mean_cpu_for(n, 500_000_000, f)
}

/// The mean CPU time of at least `n` runs of `f` lasting at least `min_ns` in all, in ms.
fn mean_cpu_for(n: usize, min_ns: u64, mut f: impl FnMut()) -> f64 {
    f(); // warm up
    let t = cpu_ns();
    let mut runs = 0;
    while runs < n || cpu_ns() - t < min_ns {
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
    let rounds: Option<usize> = std::env::args().nth(2).and_then(|s| s.parse().ok());
    if let Some(rounds) = rounds {
        alternating(n, rounds.max(1));
        return;
    }
    println!(
        "program\tEZScript\tRhai\tLua 5.4\t(mean of >= {n} runs and >= 0.5 s, ms of thread CPU time)"
    );
    for &(name, ez, rh, lu) in PROGRAMS {
        let w = Workload::new(ez, rh, lu);
        let env = w.env();
        let t_ez = mean_cpu(n, || w.run_ez(&env));
        let t_rhai = mean_cpu(n, || w.run_rhai());
        let t_lua = mean_cpu(n, || w.run_lua());
        println!("{name}\t{t_ez:.2}\t{t_rhai:.2}\t{t_lua:.2}");
    }
}

/// One program ready to run in each engine, the host's `data` list given to each.
struct Workload {
    program: Program,
    host: MapHost,
    engine: rhai::Engine,
    ast: rhai::AST,
    data: rhai::Array,
    // Kept alive for `lua_fn`.
    _lua: mlua::Lua,
    lua_fn: mlua::Function,
}

impl Workload {
    fn new(ez: &str, rh: &str, lu: &str) -> Self {
        let program = Program::compile(ez).expect("compiles");
        let host = MapHost::new().with(
            "data",
            Value::list((0..N_LIST).map(|i| Value::Number(i as f64)).collect()),
        );
        let mut engine = rhai::Engine::new();
        engine.set_max_expr_depths(0, 0);
        engine.set_max_call_levels(1000);
        let ast = engine.compile(rh).expect("compiles");
        let data: rhai::Array = (0..N_LIST as i64).map(rhai::Dynamic::from).collect();
        let lua = mlua::Lua::new();
        let table = lua
            .create_sequence_from((0..N_LIST as i64).map(|i| i as f64))
            .expect("a table");
        lua.globals().set("data", table).expect("a global");
        let lua_fn = lua.load(lu).into_function().expect("compiles");
        Workload {
            program,
            host,
            engine,
            ast,
            data,
            _lua: lua,
            lua_fn,
        }
    }

    /// EZScript's environment: an unlimited step budget (its check still runs).
    fn env(&self) -> Env<'_> {
        Env {
            fuel: u64::MAX / 2,
            limits: SizeLimits::default(),
            ..Env::with_host(&self.host)
        }
    }

    fn run_ez(&self, env: &Env<'_>) {
        std::hint::black_box(self.program.run(env).expect("runs"));
    }

    fn run_rhai(&self) {
        let mut scope = rhai::Scope::new();
        scope.push("data", self.data.clone());
        let v = self
            .engine
            .eval_ast_with_scope::<rhai::Dynamic>(&mut scope, &self.ast)
            .expect("runs");
        let _ = std::hint::black_box(v);
    }

    fn run_lua(&self) {
        std::hint::black_box(self.lua_fn.call::<mlua::Value>(()).expect("runs"));
    }
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// EZScript and Lua alternately, `rounds` times each (see the header).
fn alternating(n: usize, rounds: usize) {
    const MIN_NS: u64 = 100_000_000;
    println!(
        "program\tEZScript\tRhai\tLua 5.4\tLua/EZ median (range)\t(medians of {rounds} alternating rounds of >= {n} runs and >= 0.1 s, ms of thread CPU time; Rhai once)"
    );
    for &(name, ez, rh, lu) in PROGRAMS {
        let w = Workload::new(ez, rh, lu);
        let env = w.env();
        let mut t_ez = Vec::new();
        let mut t_lua = Vec::new();
        for round in 0..rounds {
            let time_ez = || mean_cpu_for(n, MIN_NS, || w.run_ez(&env));
            let time_lua = || mean_cpu_for(n, MIN_NS, || w.run_lua());
            if round % 2 == 0 {
                t_ez.push(time_ez());
                t_lua.push(time_lua());
            } else {
                t_lua.push(time_lua());
                t_ez.push(time_ez());
            }
        }
        let ratios: Vec<f64> = t_lua.iter().zip(&t_ez).map(|(l, e)| l / e).collect();
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(0.0, f64::max);

        let t_rhai = mean_cpu_for(1, MIN_NS, || w.run_rhai());
        println!(
            "{name}\t{:.2}\t{t_rhai:.2}\t{:.2}\t{:.2} ({lo:.2}-{hi:.2})",
            median(&t_ez),
            median(&t_lua),
            median(&ratios)
        );
    }
}
