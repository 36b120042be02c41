//! Compiled programs and templates can be shared between threads (issue 14): a tournament app
//! compiles its fields once and evaluates them on any thread. Values are not (`Rc`, see
//! docs/performance/ezscript.md): each run makes its own.

use alea_ezscript::{Env, Program, Template};

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn compiled_programs_are_send_and_sync() {
    assert_send_sync::<Program>();
    assert_send_sync::<Template>();
}

#[test]
fn one_program_runs_on_many_threads() {
    let program = Program::compile(
        "func fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }; t = \"x\"; [fib(15), t + {a: 1}.a]",
    )
    .expect("compiles");
    let template = Template::compile("Level {{ 2 + 3 }}");
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let v = program.run(&Env::default()).expect("runs").display();
                    let t = template.render(&Env::default()).text;
                    (v, t)
                })
            })
            .collect();
        for h in handles {
            let (v, t) = h.join().expect("no panic");
            assert_eq!(v, "[610, x1]");
            assert_eq!(t, "Level 5");
        }
    });
}
