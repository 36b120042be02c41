//! Deeply nested values and sources are safe on a default 2 MiB thread (issue 14, "deep
//! recursion without giant threads"): a loop nests lists, objects and closures 100,000 deep
//! within the budgets, and dropping, displaying, comparing and sorting such values uses heap
//! worklists, not native stack; the deepest source the parser accepts (`MAX_NESTING`)
//! compiles and runs there too. Every test runs on an explicitly spawned 2 MiB thread, so an
//! overflow would abort the test binary.

use alea_ezscript::{
    Env, MAX_JSON_DEPTH, MAX_NESTING, Program, SizeLimits, Template, Value, parse_script,
};

const DEFAULT_THREAD: usize = 2 << 20;

/// Runs `f` on a spawned thread with a default Rust thread's 2 MiB of stack.
fn on_2mib<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(DEFAULT_THREAD)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic")
}

fn env() -> Env<'static> {
    Env {
        fuel: 100_000_000,
        ..Env::default()
    }
}

fn run(src: &str) -> Result<Value, String> {
    Program::compile(src)
        .map_err(|d| d[0].message.clone())?
        .run(&env())
        .map_err(|e| e.message)
}

fn shown(src: &str) -> Result<String, String> {
    run(src).map(|v| v.display())
}

/// A list nested `n` deep around `bottom`, built by a loop.
fn nested(name: &str, n: u32, bottom: &str) -> String {
    format!("{name} = {bottom}; for i = 0; i < {n}; i += 1 {{ {name} = [{name}] }}\n")
}

#[test]
fn a_100000_deep_list_is_dropped_displayed_and_compared_on_2mib() {
    on_2mib(|| {
        let l = nested("l", 100_000, "[]");
        // Dropped at the end of the run, and in the middle of one.
        assert_eq!(shown(&format!("{l}; l.count")), Ok("1".into()));
        assert_eq!(shown(&format!("{l}; l = 0; l")), Ok("0".into()));
        // Displayed: 200,000 characters pass the text limit; 40,000 levels fit it.
        for tail in [
            "asString(l).count",
            "l.toString.count",
            "[l].join(\",\").count",
        ] {
            assert_eq!(
                shown(&format!("{l}; {tail}")),
                Err("Text is too long".into()),
                "{tail}"
            );
        }
        let l40 = nested("l", 40_000, "[]");
        assert_eq!(
            shown(&format!("{l40}; asString(l).count")),
            Ok("80002".into())
        );
        // Compared: equal, and unequal only at the bottom.
        let m = nested("m", 100_000, "[]");
        let k = nested("k", 100_000, "[1]");
        assert_eq!(
            shown(&format!("{l}{m}; [l == m, l != m]")),
            Ok("[true, false]".into())
        );
        assert_eq!(
            shown(&format!("{l}{k}; [l == k, [l] == [k]]")),
            Ok("[false, false]".into())
        );
        assert_eq!(
            shown(&format!(
                "{l}{m}; [1, l, m].where(func(x) {{ x == m }}).count"
            )),
            Ok("2".into())
        );
        // Sorted by a key, and kept in a list that is then dropped.
        assert_eq!(
            shown(&format!(
                "{l}{k}; s = [[k, 2], [l, 1], [k, 3]].sort(func(p) {{ p[1] }}); [s.count, s[0][0] == l]"
            )),
            Ok("[3, true]".into())
        );
        // A template renders it through the same writer.
        let t = Template::compile(&format!("{{{{ {l40}; l }}}}")).render(&env());
        assert_eq!(t.text.len(), 80_002);
        assert!(t.errors.is_empty());
    });
}

#[test]
fn a_deep_value_returned_to_the_host_is_safe_there() {
    on_2mib(|| {
        let v = run(&format!("{}; l", nested("l", 100_000, "[1]"))).expect("runs");
        let w = run(&format!("{}; l", nested("l", 100_000, "[1]"))).expect("runs");
        assert!(v.equals(&w));
        assert_eq!(v, w);
        let text = v.display();
        assert_eq!(text, "[".repeat(100_001) + "1" + &"]".repeat(100_001));
        // JSON nests at most MAX_JSON_DEPTH levels (what serde_json reads back).
        assert_eq!(v.to_json(), serde_json::json!("<too deep>"));
        let mut budget = u64::MAX;
        assert!(v.to_json_bounded(&mut budget).is_none());
        // Debug output is the display rule, bounded.
        assert_eq!(format!("{v:?}").len(), "List()".len() + 200_003);
        drop(v);
        drop(w);
    });
}

#[test]
fn json_of_the_deepest_value_reads_back() {
    on_2mib(|| {
        let depth = MAX_JSON_DEPTH as u32;
        // `depth` lists around a number, and one more.
        let v = run(&format!("{}; l", nested("l", depth - 1, "[7]"))).expect("runs");
        let json = v.to_json();
        let text = json.to_string();
        assert_eq!(text.len(), 2 * MAX_JSON_DEPTH + 1);
        let back: serde_json::Value = serde_json::from_str(&text).expect("serde_json reads it");
        assert_eq!(Value::from_json(&back), v);
        let deeper = run(&format!("{}; l", nested("l", depth, "[7]"))).expect("runs");
        assert_eq!(deeper.to_json(), serde_json::json!("<too deep>"));
    });
}

#[test]
fn deep_objects_and_closure_chains_are_freed_on_2mib() {
    on_2mib(|| {
        let o = "o = {}; for i = 0; i < 100000; i += 1 { o = {a: o, i: i} }\n";
        assert_eq!(shown(&format!("{o}; o.i")), Ok("99999".into()));
        let p = "p = {}; for i = 0; i < 100000; i += 1 { p = {a: p, i: i} }\n";
        assert_eq!(shown(&format!("{o}{p}; o == p")), Ok("true".into()));
        assert_eq!(
            shown(&format!("{o}; o.toString.count")),
            Err("Text is too long".into())
        );
        // Each call of `wrap` makes a new variable `h` holding the previous closure: a chain
        // of 100,000 closures, each owning the next through its captured variable.
        let chain = "func wrap(h) { func() { h } }
            f = func() { [0] }; for i = 0; i < 100000; i += 1 { f = wrap(f) }\n";
        assert_eq!(
            shown(&format!("{chain}; f()()()()")),
            Ok("<function>".into())
        );
        let v = run(&format!("{chain}; [f, {{g: f}}]")).expect("runs");
        assert_eq!(v.display(), "[<function>, {g: <function>}]");
        drop(v);
        // Lists of closures that capture lists that hold closures.
        let mixed = "func keep(x) { func() { x } }
            v = []; for i = 0; i < 50000; i += 1 { v = [keep({a: v})] }\n";
        assert_eq!(shown(&format!("{mixed}; v.count")), Ok("1".into()));
    });
}

/// Values that hold the same container twice (a DAG, not a tree): the container is freed at
/// its last holder, inside the drop of its parent, which a plain drop would recurse into.
#[test]
fn shared_containers_100000_deep_are_freed_and_compared_on_2mib() {
    on_2mib(|| {
        let twice = "l = []; for i = 0; i < 100000; i += 1 { l = [l, l] }";
        assert_eq!(shown(&format!("{twice}; 1")), Ok("1".into()));
        assert_eq!(shown(&format!("{twice}; l == l")), Ok("true".into()));
        assert_eq!(shown(&format!("{twice}; l = 0; l")), Ok("0".into()));
        let objects = "o = {}; for i = 0; i < 100000; i += 1 { o = {a: o, b: o} }";
        assert_eq!(shown(&format!("{objects}; 1")), Ok("1".into()));
        let closures = "f = func() { 1 }; for i = 0; i < 100000; i += 1 { g = f; f = func() { [g, g].count } }";
        assert_eq!(shown(&format!("{closures}; f()")), Ok("2".into()));
        // Comparing two equal DAGs visits every path: the steps bound it.
        let both = "l = []; m = []; for i = 0; i < 100000; i += 1 { l = [l, l]; m = [m, m] }";
        assert_eq!(
            shown(&format!("{both}; l == m")),
            Err("Script ran out of steps".into())
        );
    })
}

/// The deepest source of each shape the parser accepts: grows `shape(n)` until it reports
/// `Nesting is too deep`, and returns the last one it accepted.
fn deepest(shape: impl Fn(usize) -> String) -> String {
    let mut n = 1;
    loop {
        let (_, diags) = parse_script(&shape(n + 1));
        if diags.iter().any(|d| d.message == "Nesting is too deep") {
            break;
        }
        n += 1;
        assert!(n < 1_000, "nesting is bounded");
    }
    let src = shape(n);
    let (_, diags) = parse_script(&src);
    assert!(diags.is_empty(), "{src}: {diags:?}");
    src
}

/// A source of nesting `n`.
type Shape = Box<dyn Fn(usize) -> String + Send>;

#[test]
fn sources_nested_to_the_parser_limit_run_on_2mib() {
    let rep = |s: &str, n: usize| s.repeat(n);
    let shapes: Vec<(&str, Shape)> = vec![
        (
            "parens",
            Box::new(move |n| rep("(", n) + "1" + &rep(")", n)),
        ),
        (
            "sums",
            Box::new(move |n| rep("1 + (", n) + "1" + &rep(")", n)),
        ),
        ("lists", Box::new(move |n| rep("[", n) + "1" + &rep("]", n))),
        (
            "objects",
            Box::new(move |n| rep("{a: ", n) + "1" + &rep("}", n)),
        ),
        ("negations", Box::new(move |n| rep("-", n) + "1")),
        ("nots", Box::new(move |n| rep("!", n) + "true")),
        (
            "calls",
            Box::new(move |n| {
                "func f(x) { x + 1 }; ".to_owned() + &rep("f(", n) + "0" + &rep(")", n)
            }),
        ),
        (
            "indexes",
            Box::new(move |n| "l = [0]; ".to_owned() + &rep("l[", n) + "0" + &rep("]", n)),
        ),
        (
            "ifs",
            Box::new(move |n| rep("if true { ", n) + "1" + &rep(" }", n)),
        ),
        (
            "whiles",
            Box::new(move |n| {
                "k = 0; ".to_owned() + &rep("while k < 1 { ", n) + "k += 1" + &rep(" }", n) + "; k"
            }),
        ),
        (
            "functions",
            Box::new(move |n| rep("(func() { ", n) + "1" + &rep(" })()", n)),
        ),
        (
            "closures",
            Box::new(move |n| "x = 1; ".to_owned() + &rep("func() { ", n) + "x" + &rep(" }", n)),
        ),
    ];
    on_2mib(move || {
        for (name, shape) in &shapes {
            let src = deepest(shape);
            let program = Program::compile(&src).unwrap_or_else(|d| panic!("{name}: {d:?}"));
            let env = Env {
                limits: SizeLimits::default(),
                ..Env::default()
            };
            let out = program.run_display(&env);
            assert!(out.is_ok(), "{name} at the nesting limit: {:?}", out.err());
            // Also as a template insertion.
            let t = Template::compile(&format!("{{{{ {src} }}}}")).render(&env);
            assert!(t.errors.is_empty(), "{name}: {:?}", t.errors);
        }
    });
    // (MAX_NESTING is what `deepest` found; stated so a change of the limit is seen here.)
    assert_eq!(MAX_NESTING, 128);
}
