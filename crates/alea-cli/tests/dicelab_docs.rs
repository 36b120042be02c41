//! Executes every example of docs/dicelab.md: each row of a `| program | dicelab --seed 1 |`
//! table is rolled with `dicelab --seed 1` and must print the documented output.

mod support;

fn roll(program: &str) -> (i32, String) {
    let r = support::dicelab(&["--seed", "1"]).stdin(program).run();
    (r.code, r.stdout)
}

#[test]
fn every_documented_example_prints_what_the_docs_say() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/dicelab.md");
    let doc = std::fs::read_to_string(path).expect("docs/dicelab.md");
    let mut in_table = false;
    let mut checked = 0;
    for line in doc.lines() {
        if line.starts_with("| program | `dicelab --seed 1` |") {
            in_table = true;
            continue;
        }
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        if !in_table || line.starts_with("|---") {
            continue;
        }
        let cells: Vec<&str> = line.split(" | ").collect();
        let program = cells[0]
            .trim_start_matches("| `")
            .strip_suffix('`')
            .expect("program cell");
        let expected = cells[1]
            .strip_prefix('`')
            .and_then(|c| c.strip_suffix('`'))
            .expect("output cell");
        let (code, stdout) = roll(program);
        let shown = match stdout.trim_end() {
            "" => "(empty)".to_string(),
            s => s.to_string(),
        };
        assert_eq!(code, 0, "{program}");
        assert_eq!(shown, expected, "{program}");
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} examples found");
}
