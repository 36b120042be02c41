//! The README's quick tour runs: every `alea …` and `dicelab …` command line of its `sh`
//! blocks (except the interactive `repl` and the long-running `serve`) exits with status 0
//! and prints something, run by bash from the repository root with the built binaries first
//! on PATH. Charts go to a temporary directory.

use std::path::Path;
use std::process::Command;

fn commands(readme: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        pending.push_str(line.trim_end_matches('\\'));
        if line.ends_with('\\') {
            continue;
        }
        let command = std::mem::take(&mut pending);
        let program = command.split_whitespace().next().unwrap_or("");
        let interactive = command.starts_with("alea repl") || command.starts_with("alea serve");
        if matches!(program, "alea" | "dicelab") && !interactive {
            out.push(command);
        }
    }
    out
}

#[test]
fn quick_tour_commands_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_alea")).parent().unwrap();
    assert!(Path::new(env!("CARGO_BIN_EXE_dicelab")).exists());
    let tmp = std::env::temp_dir().join(format!("alea-readme-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let list = commands(&readme);
    assert!(list.len() >= 20, "{list:#?}");
    for command in &list {
        let command = command.replace("--plot ", &format!("--plot {}/", tmp.display()));
        let run = Command::new("bash")
            .args(["-c", &command])
            .current_dir(&root)
            .env("PATH", &path)
            .output()
            .expect("bash runs");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{command}\n{stdout}\n{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(!stdout.trim().is_empty(), "{command} printed nothing");
    }
    assert!(tmp.join("abilities.svg").exists() && tmp.join("gaps.svg").exists());
    let _ = std::fs::remove_dir_all(&tmp);
}
