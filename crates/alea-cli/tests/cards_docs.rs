//! Runs every `console` example of docs/cards.md: each `$ alea …` line is executed and its
//! output (stdout, or stderr when the command fails) must equal the lines that follow it.

mod support;

/// Splits a command line into words, honouring "double" and 'single' quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

/// (command line, expected output) of every example.
fn examples(doc: &str) -> Vec<(String, String)> {
    let mut examples = Vec::new();
    let mut in_console = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_console = line == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            examples.push((cmd.to_string(), String::new()));
        } else if let Some((_, expected)) = examples.last_mut() {
            expected.push_str(line);
            expected.push('\n');
        }
    }
    examples
}

#[test]
fn every_console_example_of_the_reference_runs() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cards.md"))
        .expect("docs/cards.md");
    let examples = examples(&doc);
    assert!(
        examples.len() >= 8,
        "found only {} examples",
        examples.len()
    );
    for (cmd, expected) in examples {
        let args = words(&cmd);
        assert_eq!(args[0], "alea", "{cmd}");
        let out = support::alea(&args[1..]).output();
        let got = if out.status.success() {
            out.stdout
        } else {
            out.stderr
        };
        assert_eq!(String::from_utf8_lossy(&got), expected, "$ {cmd}");
    }
}
