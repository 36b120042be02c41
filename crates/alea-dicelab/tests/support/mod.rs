//! What the exact engine's test files share: parse one statement, calculate it, and show the
//! result as 0.7's `-c` text (with the cut mass) or the error as `LINE:COL: message`, so a
//! fast path and its general-path twin compare as text.

// Each test file uses its own subset.
#![allow(dead_code)]

use alea_core::SourceFile;
use alea_dicelab::ast::Statement;
use alea_dicelab::calc::{self, CalcOptions};

/// `f` of the first statement of `program`, which must parse without errors.
pub fn parse_and<T>(program: &str, f: impl FnOnce(&Statement) -> T) -> T {
    let file = SourceFile::new("<test>", program);
    let (prog, errors) = alea_dicelab::parse(&file);
    assert!(errors.is_empty(), "{program}: syntax errors {errors:?}");
    f(&prog.statements[0])
}

/// The distribution as `dicelab -c` prints it (probabilities as floats), then
/// `truncated MASS`; or the error as `LINE:COL: message`.
pub fn run(program: &str) -> Result<String, String> {
    let file = SourceFile::new("<test>", program);
    parse_and(program, |s| {
        calc::calculate(s, &CalcOptions::default())
            .map(|r| {
                format!(
                    "{}truncated {}\n",
                    r.render_dicelab(true),
                    r.truncated_mass()
                )
            })
            .map_err(|d| {
                let (line, col) = d.line_col(&file).unwrap_or((0, 0));
                format!("{line}:{col}: {}", d.message)
            })
    })
}

/// [`run`] of a program that must compute.
pub fn exact(program: &str) -> String {
    run(program).unwrap_or_else(|e| panic!("{program}: {e}"))
}

/// `program` with each read `x` (written `X`) once as itself and once as `(x, 0#x)`: the
/// same values, but `x` read through a list, which sends calc down the general path.
pub fn twins(program: &str) -> (String, String) {
    (program.replace('X', "x"), program.replace('X', "(x, 0#x)"))
}

/// Roll mode's value of `program` (seed 1), or its error as `LINE:COL: message`, to compare
/// with calc's.
pub fn roll(program: &str) -> Result<Vec<i32>, String> {
    let file = SourceFile::new("<test>", program);
    parse_and(program, |s| {
        let mut rng = alea_core::Rng::seed_from_u64(1);
        alea_dicelab::Roller::new().roll(s, &mut rng).map_err(|d| {
            let (line, col) = d.line_col(&file).unwrap_or((0, 0));
            format!("{line}:{col}: {}", d.message)
        })
    })
}
