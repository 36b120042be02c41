//! A deterministic stand-in for the fuzz target in CI: mutated versions of every case-file
//! source go through the lexer, parser, resolver and evaluator (as scripts and as templates)
//! on a small budget. Nothing may panic, and every error must point inside the source.

use alea_core::Rng;
use alea_ezscript::{Env, MapHost, Program, Template, Value};

const PIECES: &[&str] = &[
    "(", ")", "[", "]", "{", "}", "{{", "}}", "\"", ",", ";", "\n", ".", "=", "+=", "-", "!", "&&",
    "||", "<", "==", "func", "if", "else", "for", "in", "while", "break", "x", "f(x)", "0", "1e9",
    "\\u{41}", "[]", "{}", "// c\n", "é", "♠", " ",
];

fn sources() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let mut cur = String::new();
        for line in text.lines() {
            if line.starts_with("=>") || line.starts_with("!!") || line.starts_with("T=>") {
                out.push(std::mem::take(&mut cur));
            } else if !line.starts_with('#') && !line.starts_with("T!!") && !line.is_empty() {
                cur.push_str(line);
                cur.push('\n');
            }
        }
    }
    out
}

fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = src.chars().collect();
    for _ in 0..rng.range_inclusive(1, 4) {
        let at = rng.range_inclusive(0, chars.len() as i64) as usize;
        match rng.range_inclusive(0, 2) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 => {
                let piece = PIECES[rng.range_inclusive(0, PIECES.len() as i64 - 1) as usize];
                for (k, c) in piece.chars().enumerate() {
                    chars.insert(at + k, c);
                }
            }
            _ => {
                let end = (at + rng.range_inclusive(0, 8) as usize).min(chars.len());
                let dup: Vec<char> = chars[at.min(end)..end].to_vec();
                for (k, c) in dup.into_iter().enumerate() {
                    chars.insert(end + k, c);
                }
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_sources_never_panic() {
    let sources = sources();
    assert!(sources.len() > 100);
    let checked = {
        let host = MapHost::new()
            .with("totalBuyIns", 24.0)
            .with("levels", Value::list(vec![Value::Number(1.0)]))
            .with_now(1753035300000.0);
        let env = Env {
            fuel: 20_000,
            ..Env::with_host(&host)
        };
        let mut rng = Rng::seed_from_u64(7);
        let mut n = 0;
        for round in 0..60 {
            for src in &sources {
                let m = if round == 0 {
                    src.clone()
                } else {
                    mutate(src, &mut rng)
                };
                let len = m.len() as u32;
                match Program::compile(&m) {
                    Ok(p) => {
                        if let Err(e) = p.run_display(&env) {
                            assert!(e.span.end <= len, "{m:?}: {e:?}");
                        }
                    }
                    Err(diags) => {
                        for d in diags {
                            assert!(d.span.is_none_or(|s| s.end <= len), "{m:?}: {d:?}");
                        }
                    }
                }
                let t = Template::compile(&m).render(&env);
                for d in t.errors {
                    assert!(d.span.is_none_or(|s| s.end <= len), "{m:?}: {d:?}");
                }
                n += 1;
            }
        }
        n
    };
    assert!(checked > 1000);
}
