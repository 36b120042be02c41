//! Function values that leave their run: a host may keep one and pass it into a later run of
//! the same program, or of one compiled from the same source (it works), or of another program (a clear error at the call, never a
//! panic: its code names its own program's functions and texts by index).

use alea_ezscript::{Env, MapHost, Program, Value};

const FOREIGN: &str = "Cannot call a function of another program: a function value runs only in the program that defined it";

/// A function value made by a run of `src`.
fn function_from(program: &Program) -> Value {
    let v = program.run(&Env::default()).unwrap();
    assert!(matches!(v, Value::Function(_)), "{v:?}");
    v
}

/// The source text an error points at.
fn at(src: &str, err: &alea_ezscript::RunError) -> String {
    src[err.span.start as usize..err.span.end as usize].to_string()
}

// Functions, texts and a nested closure: everything a foreign program's tables would get wrong.
const MAKER: &str =
    "func helper(x) { x * 10 }; func add(x) { t = \"n=\"; func() { t + helper(x) } }; add";

#[test]
fn another_programs_function_is_an_error_at_the_call() {
    let f = function_from(&Program::compile(MAKER).unwrap());
    let host = MapHost::new().with("g", f);
    for src in [
        "g(2)",
        "h = func(y) { y }; h(g(1))",
        "[1, 2].map(g)",
        "o = {m: g}; o.m(3)",
    ] {
        let err = Program::compile(src)
            .unwrap()
            .run(&Env::with_host(&host))
            .unwrap_err();
        assert_eq!(err.message, FOREIGN, "{src}");
        assert!(src.contains(&at(src, &err)), "{src}: {:?}", err.span);
    }
    let src = "1 + g(2)";
    let err = Program::compile(src)
        .unwrap()
        .run(&Env::with_host(&host))
        .unwrap_err();
    assert_eq!(at(src, &err), "g(2)");
}

#[test]
fn the_same_programs_function_runs_in_a_later_run() {
    // One program that returns `add` when there is no `g`, and calls `g` when there is.
    let src = "func helper(x) { x * 10 }; func add(x) { t = \"n=\"; func() { t + helper(x) } }; \
               if g == false { add } else { g(4)() }";
    let program = Program::compile(src).unwrap();
    let f = program
        .run(&Env::with_host(&MapHost::new().with("g", false)))
        .unwrap();
    assert!(matches!(f, Value::Function(_)));
    let host = MapHost::new().with("g", f);
    assert_eq!(
        program.run(&Env::with_host(&host)).unwrap().display(),
        "n=40"
    );
    // A program compiled again from the same source has the same tables: the function runs.
    let again = Program::compile(src).unwrap();
    assert_eq!(again.run(&Env::with_host(&host)).unwrap().display(), "n=40");
    // One more character makes it another program.
    let other = Program::compile(&format!("{src} ")).unwrap();
    let err = other.run(&Env::with_host(&host)).unwrap_err();
    assert_eq!(err.message, FOREIGN);
}

/// A recursive function's calls of itself run the running closure (the compiler's `own`
/// calls): that holds for a function value kept from an earlier run, whose variable the end
/// of that run did not empty (it was still held), and in a program compiled from the same
/// source.
#[test]
fn a_kept_recursive_function_recurses_in_a_later_run() {
    let src = "func fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }; \
               if g == false { fib } else { g(10) + fib(5) }";
    let program = Program::compile(src).unwrap();
    let f = program
        .run(&Env::with_host(&MapHost::new().with("g", false)))
        .unwrap();
    assert!(matches!(f, Value::Function(_)));
    let host = MapHost::new().with("g", f);
    assert_eq!(program.run(&Env::with_host(&host)).unwrap().display(), "60");
    let again = Program::compile(src).unwrap();
    assert_eq!(again.run(&Env::with_host(&host)).unwrap().display(), "60");
}
