//! Hostile inputs of issue 14 (a hostile-input audit): a value that shares its items renders
//! through one size-bounded writer, and memory is a budget of its own, whatever the steps.

use alea_ezscript::{Env, MAX_RENDER, Program, Template, Value};

/// `o = {a: o, b: o}` `levels` times: a tree of 2^levels nodes built in a few steps.
fn shared_tree(levels: u32) -> String {
    format!("o = {{a: 1}}; for i = 0; i < {levels}; i += 1 {{ o = {{a: o, b: o}} }}")
}

fn run(src: &str, fuel: u64) -> Result<Value, String> {
    let env = Env {
        fuel,
        ..Env::default()
    };
    Program::compile(src)
        .map_err(|d| d[0].message.clone())?
        .run(&env)
        .map_err(|e| e.message)
}

#[test]
fn rendering_a_shared_tree_ends_with_a_size_error() {
    {
        for levels in [20, 40] {
            let tree = shared_tree(levels);
            for tail in [
                "asString(o).count",
                "o.toString.count",
                "[o].join(\",\").count",
                "[o].map(asString)",
            ] {
                let src = format!("{tree}; {tail}");
                // The default budget, and one that would allow visiting the whole tree:
                // the text limit ends both, after 400 KB of text at most.
                for fuel in [250_000, 1_000_000_000] {
                    assert_eq!(run(&src, fuel).unwrap_err(), "Text is too long", "{src}");
                }
            }
        }
    }
}

#[test]
fn templates_and_json_of_a_shared_tree_are_bounded() {
    {
        let tree = shared_tree(40);
        let env = Env {
            fuel: 1_000_000_000,
            ..Env::default()
        };
        let t = Template::compile(&format!("{{{{ {tree}; o }}}}")).render(&env);
        assert_eq!(t.text, "");
        assert_eq!(t.errors[0].message, "Text is too long");
        let err = Program::compile(&format!("{tree}; o"))
            .unwrap()
            .run_display(&env)
            .unwrap_err();
        assert_eq!(err.message, "Text is too long");

        // The host's renderings stop at MAX_RENDER bytes.
        let o = Program::compile(&format!("{tree}; o"))
            .unwrap()
            .run(&env)
            .unwrap();
        let shown = o.display();
        assert!(shown.len() <= MAX_RENDER && shown.ends_with('…'));
        assert_eq!(o.to_json(), serde_json::json!("<too large>"));
        let mut visits = u64::MAX;
        assert!(o.to_json_bounded(&mut visits).is_none());
    }
}

#[test]
fn memory_is_a_budget_of_its_own() {
    {
        // 65,536 distinct texts of 64 KiB: 4 GiB if nothing stopped it.
        let src = "s = \"x\"; for i = 0; i < 16; i += 1 { s += s }
            l = [0]; for i = 0; i < 16; i += 1 { l = l + l }
            k = 0
            l.map(func(x) { k += 1; s + k }).count";
        assert_eq!(
            run(src, 1_000_000_000).unwrap_err(),
            "Script ran out of memory (limit 64 MiB)"
        );
        // Appending in place and list literals count too.
        let src = "s = \"x\"; for i = 0; i < 16; i += 1 { s += s }
            parts = []; n = 0
            while true { n += 1; t = s; t += n; parts = parts + [t] }";
        assert_eq!(
            run(src, 1_000_000_000).unwrap_err(),
            "Script ran out of memory (limit 64 MiB)"
        );
        // Small scripts are far from it, and a fresh run has the whole budget again.
        assert_eq!(
            run(
                "s = \"\"; for i = 0; i < 10000; i += 1 { s += \"ab\" }; s.count",
                1_000_000
            )
            .unwrap()
            .display(),
            "20000"
        );
    }
}
