//! Executes the examples of docs/dicelab.md's section "Exact distributions (calc)": every
//! ```` ```console ```` block there is `$ COMMAND` and then exactly what COMMAND prints. The
//! commands are `dicelab ARGS <<< 'PROGRAM'` and `alea ARGS`, words split as the shell would
//! for plain words and single-quoted strings.

mod support;

/// Splits plain words and `'single-quoted strings'` like a POSIX shell.
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in command.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            ' ' if !quoted => {
                if started {
                    out.push(std::mem::take(&mut word));
                }
                started = false;
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quote in {command}");
    if started {
        out.push(word);
    }
    out
}

fn run(command: &str) -> (Option<i32>, String) {
    let w = words(command);
    let (bin, args, stdin) = match w.first().map(String::as_str) {
        Some("dicelab") => {
            let at = w
                .iter()
                .position(|x| x == "<<<")
                .expect("dicelab ... <<< 'PROGRAM'");
            (
                env!("CARGO_BIN_EXE_dicelab"),
                w[1..at].to_vec(),
                format!("{}\n", w[at + 1]),
            )
        }
        Some("alea") => (env!("CARGO_BIN_EXE_alea"), w[1..].to_vec(), String::new()),
        _ => panic!("unsupported command in the docs: {command}"),
    };
    let out = support::program(bin, &args).stdin(stdin).output();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn every_calc_example_prints_what_the_docs_say() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/dicelab.md");
    let doc = std::fs::read_to_string(path).expect("docs/dicelab.md");
    let section = doc
        .split("\n## Exact distributions (calc)\n")
        .nth(1)
        .expect("the calc section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut checked = 0;
    for block in section.split("```console\n").skip(1) {
        let body = block.split("```").next().expect("closed block");
        let (first, expected) = body.split_once('\n').expect("a command line");
        let command = first.strip_prefix("$ ").expect("block starts with '$ '");
        let (code, stdout) = run(command);
        assert_eq!(code, Some(0), "{command}");
        assert_eq!(stdout, expected, "{command}");
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} examples found");
}

#[test]
fn words_split_like_the_shell() {
    assert_eq!(
        words("alea dice --x 'a b' c''d"),
        ["alea", "dice", "--x", "a b", "cd"]
    );
}
