//! Runs one EZScript benchmark program (benches/shared/programs.rs) a number of times, for profilers:
//!
//! ```sh
//! CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo build --release -p alea-ezscript --example profile
//! valgrind --tool=callgrind target/release/examples/profile loop1e6 1
//! ```
#![allow(dead_code)]

use alea_ezscript::{Env, MapHost, Program, SizeLimits, Value};

include!("../benches/shared/programs.rs");

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "fib25".into());
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let source = PROGRAMS
        .iter()
        .find(|p| p.0 == name)
        .map(|p| p.1)
        .expect("a program name from benches/shared/programs.rs");
    {
        let program = Program::compile(source).expect("compiles");
        let host = MapHost::new().with(
            "data",
            Value::list((0..100_000).map(|i| Value::Number(f64::from(i))).collect()),
        );
        let env = Env {
            fuel: u64::MAX / 2,
            limits: SizeLimits::default(),
            ..Env::with_host(&host)
        };
        for _ in 0..times {
            std::hint::black_box(program.run(&env).expect("runs"));
        }
    }
}
