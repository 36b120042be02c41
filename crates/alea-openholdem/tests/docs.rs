//! Executes every example of `docs/openholdem.md`: each line of a ```holdem block is
//! `EXPRESSION => VALUE`, evaluated as `alea holdem -e` does; the trace example of the command
//! line section is checked too.

use alea_core::SourceFile;
use alea_openholdem::{Machine, TableState, compile_expr, compile_file, format_value};

const DOC: &str = include_str!("../../../docs/openholdem.md");

fn holdem_blocks() -> Vec<(usize, String, String)> {
    blocks("```holdem")
}

/// The `EXPRESSION => VALUE` lines of the blocks opened by `fence`.
fn blocks(fence: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for (i, line) in DOC.lines().enumerate() {
        if line.trim() == fence {
            inside = true;
        } else if line.trim() == "```" {
            inside = false;
        } else if inside {
            let (expr, want) = line.rsplit_once("=>").expect("EXPR => VALUE");
            out.push((i + 1, expr.trim().to_string(), want.trim().to_string()));
        }
    }
    out
}

#[test]
fn every_documented_example_evaluates_as_shown() {
    let examples = holdem_blocks();
    assert!(examples.len() >= 80, "{}", examples.len());
    let mut failures = Vec::new();
    for (line, expr, want) in examples {
        let c = compile_expr(None, SourceFile::new("<expr>", expr.clone()));
        let got = match &c.program {
            Some(p) => {
                let mut m = Machine::new(p);
                m.begin_run();
                m.eval_expr()
                    .map_or_else(|e| e.diagnostic.message.clone(), format_value)
            }
            None => format!("{:?}", c.diagnostics),
        };
        if got != want {
            failures.push(format!(
                "docs/openholdem.md:{line}: {expr} => {got}, documented {want}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The ```holdem-state examples: evaluated against the documented state with seed 1 (card
/// symbols through the default evaluator, alea-cards).
#[test]
fn every_documented_card_symbol_evaluates_as_shown() {
    let json = DOC
        .split("```json\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let examples = blocks("```holdem-state");
    assert!(examples.len() >= 15, "{}", examples.len());
    let mut failures = Vec::new();
    for (line, expr, want) in examples {
        let p = compile_expr(None, SourceFile::new("<expr>", expr.clone()))
            .program
            .unwrap();
        let mut m = Machine::new(&p);
        m.set_state(Box::new(TableState::from_json(json).unwrap()));
        m.set_seed(1);
        m.begin_run();
        let got = m
            .eval_expr()
            .map_or_else(|e| e.diagnostic.message.clone(), format_value);
        if got != want {
            failures.push(format!(
                "docs/openholdem.md:{line}: {expr} => {got}, documented {want}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn documented_state_and_trace() {
    let json = DOC
        .split("```json\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let state = TableState::from_json(json).unwrap();
    let bot = "##list1##\nAA KK AKs\n##f$raise##\nlist1 && call <= 4 && nopponentsplaying < 3\n";
    let p = compile_file(SourceFile::new("bot.ohf", bot))
        .program
        .unwrap();
    let mut m = Machine::new(&p);
    m.set_state(Box::new(state));
    m.enable_trace();
    m.begin_run();
    assert_eq!(m.eval("f$raise").unwrap(), 1.0);
    let trace: Vec<String> = m
        .take_trace()
        .iter()
        .map(|t| format!("  {}", t.render()))
        .collect();
    let documented = "  f$raise = 1 [bot.ohf:3]\n";
    let block = DOC
        .split(documented)
        .nth(1)
        .unwrap()
        .split("  ```")
        .next()
        .unwrap();
    let want: Vec<&str> = std::iter::once(documented.trim_end())
        .chain(block.lines())
        .collect();
    assert_eq!(trace, want);
}

/// The OpenPPL example (the ```ohf block) evaluated against the documented state as
/// `alea holdem FILE --state` does: each ```openppl-result line is `f$name => value (action)`.
#[test]
fn documented_openppl_decision() {
    use alea_openholdem::{Request, Selection, evaluate};
    let json = DOC
        .split("```json\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let bot = DOC
        .split("```ohf\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let p = compile_file(SourceFile::new("bot.ohf", bot))
        .program
        .expect("the documented bot loads");
    let e = evaluate(
        &p,
        Some(TableState::from_json(json).unwrap()),
        &Request {
            selection: Selection::Decision,
            seed: 1,
            ..Request::default()
        },
    );
    let got: Vec<(String, String, String)> = e
        .results
        .iter()
        .map(|r| {
            let shown = format!(
                "{} ({})",
                format_value(r.value),
                r.action.clone().unwrap_or_default()
            );
            (r.name.clone(), "=>".into(), shown)
        })
        .collect();
    let want: Vec<(String, String, String)> = blocks("```openppl-result")
        .into_iter()
        .map(|(_, name, value)| (name, "=>".into(), value))
        .collect();
    assert!(!want.is_empty());
    assert_eq!(got, want);
}

#[test]
fn the_symbol_table_matches_the_catalogue() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openholdem.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let (begin, end) = (
        "<!-- symbol table: begin -->\n",
        "<!-- symbol table: end -->",
    );
    let a = doc.find(begin).expect("begin marker") + begin.len();
    let b = doc.find(end).expect("end marker");
    let want = alea_openholdem::markdown_table();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, format!("{}{want}{}", &doc[..a], &doc[b..])).unwrap();
        return;
    }
    assert_eq!(
        &doc[a..b],
        want,
        "docs/openholdem.md's symbol table is stale: run UPDATE_DOCS=1 cargo test -p alea-openholdem --test docs"
    );
    // Every name of the catalogue is in the table.
    for e in alea_openholdem::catalogue() {
        assert!(doc[a..b].contains(&format!("`{}`", e.name)), "{}", e.name);
    }
}
