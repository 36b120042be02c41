//! Errors are identical in every mode (issue 16): each failing program of
//! `tests/dicelab/errors.txt` fails at the same position with the same message in `dicelab -r`,
//! `-e` and `-c` and in `alea dice --roll`, `-e` and the default calc mode. The programs run as
//! the statements of one input, one per line, so six runs check the whole corpus; a runtime
//! error ends only its own statement.

use std::path::PathBuf;
use std::process::Command;

fn corpus() -> Vec<(String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/dicelab/errors.txt");
    let text = std::fs::read_to_string(&path).expect("read errors.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (program, error) = l.split_once('\t').expect("PROGRAM<TAB>ERROR");
            (program.to_string(), error.to_string())
        })
        .collect()
}

/// The first line of every diagnostic on stderr as `LINE:COL: message`, without the file
/// name and the `error: ` severity that `alea` writes (docs/cli.md) and 0.7's format has not.
fn errors(stderr: &[u8], file: &str) -> Vec<String> {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter_map(|l| l.strip_prefix(file).and_then(|l| l.strip_prefix(':')))
        .map(|l| l.replacen(": error: ", ": ", 1))
        .collect()
}

fn run(bin: &str, args: &[&str], file: &std::path::Path) -> std::process::Output {
    Command::new(bin)
        .args(args)
        .arg("-f")
        .arg(file)
        .output()
        .expect("run")
}

#[test]
fn every_mode_reports_the_same_error() {
    let cases = corpus();
    assert!(cases.len() >= 40, "the corpus is read");
    let dir = std::env::temp_dir().join(format!("alea-dicelab-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("errors.dl");
    let program: Vec<&str> = cases.iter().map(|(p, _)| p.as_str()).collect();
    std::fs::write(&file, program.join(";\n")).expect("write program");
    let name = file.to_str().expect("utf-8 path");
    let expected: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, (_, e))| format!("{}:{e}", i + 1))
        .collect();
    let dicelab = env!("CARGO_BIN_EXE_dicelab");
    let alea = env!("CARGO_BIN_EXE_alea");
    let runs: [(&str, &[&str]); 6] = [
        (dicelab, &["-r", "--seed", "1"]),
        (dicelab, &["-e", "-n", "200", "--seed", "1"]),
        (dicelab, &["-c"]),
        (alea, &["dice", "--roll", "--seed", "1"]),
        (alea, &["dice", "-n", "200", "--seed", "1"]),
        (alea, &["dice"]),
    ];
    for (bin, args) in runs {
        let o = run(bin, args, &file);
        // Runtime errors: 3 for the drop-in `dicelab`, 1 for `alea` (docs/cli.md).
        let status = if bin == dicelab { 3 } else { 1 };
        assert_eq!(o.status.code(), Some(status), "{bin} {args:?}");
        let got = errors(&o.stderr, name);
        for (i, want) in expected.iter().enumerate() {
            assert_eq!(
                got.get(i),
                Some(want),
                "{bin} {args:?}, program {:?}",
                cases[i].0
            );
        }
        assert_eq!(got.len(), expected.len(), "{bin} {args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn result_errors_are_the_same_in_eval_and_calc() {
    // A list result is an error of the modes that need a single value (dicelab.md §3).
    let want = "<stdin>:1:1: result is not a single value (list of 3 values)";
    for mode in ["-c", "-e"] {
        let o = Command::new(env!("CARGO_BIN_EXE_dicelab"))
            .arg(mode)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().expect("stdin").write_all(b"3#d6")?;
                c.wait_with_output()
            })
            .expect("run dicelab");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().next(), Some(want), "{mode}");
    }
}
