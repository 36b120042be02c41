//! Runs every example of docs/ezscript.md: an `ezscript` block ends with `// => TEXT` (the
//! displayed value) or `// !! MESSAGE` (the error); an `ez-template` block is followed by a
//! `text` block with the rendered output; the `rust` block is the crate's doc example.

use alea_ezscript::{Env, Program, Template};

fn blocks(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if let Some(lang) = line.strip_prefix("```")
            && !lang.is_empty()
        {
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            out.push((lang.to_string(), body.join("\n")));
        }
    }
    out
}

fn check(lang: &str, body: &str, next: Option<&(String, String)>) -> Option<Result<(), String>> {
    let env = Env::default();
    match lang {
        "ezscript" => {
            let (src, want) = body.rsplit_once('\n')?;
            let result = Program::compile(src)
                .map_err(|d| d[0].message.clone())
                .and_then(|p| p.run_display(&env).map(|o| o.text).map_err(|e| e.message));
            Some(
                match (want.strip_prefix("// => "), want.strip_prefix("// !! ")) {
                    (Some(value), _) if result.as_deref() == Ok(value) => Ok(()),
                    (_, Some(error))
                        if result.as_ref().err().map(String::as_str) == Some(error) =>
                    {
                        Ok(())
                    }
                    _ => Err(format!("{src}\n  got {result:?}, want {want}")),
                },
            )
        }
        "ez-template" => {
            let (_, want) = next.filter(|n| n.0 == "text")?;
            let got = Template::compile(body).render(&env);
            Some(if &got.text == want && got.errors.is_empty() {
                Ok(())
            } else {
                Err(format!("{body}\n  got {got:?}, want {want:?}"))
            })
        }
        _ => None,
    }
}

#[test]
fn every_example_of_the_reference_runs() {
    let doc = include_str!("../../../docs/ezscript.md");
    let blocks = blocks(doc);
    let results: Vec<Result<(), String>> = {
        blocks
            .iter()
            .enumerate()
            .filter_map(|(i, (lang, body))| check(lang, body, blocks.get(i + 1)))
            .collect()
    };
    assert!(results.len() >= 30, "only {} examples ran", results.len());
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_embedding_example_runs() {
    use alea_ezscript::MapHost;
    let program = Program::compile("totalBuyIns / 5").unwrap();
    let host = MapHost::new().with("totalBuyIns", 24.0);
    let value = program.run(&Env::with_host(&host)).unwrap();
    assert_eq!(value.display(), "4.8");
}
