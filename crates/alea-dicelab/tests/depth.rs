//! Issue 16: the chains dicelab 0.7 nests 5,000 to 9,990 deep parse, resolve, print, roll,
//! sample and drop on an ordinary thread (2 MiB, the size `std::thread::spawn` gives), without
//! `with_big_stack`: the parser reads prefix runs and parentheses with loops, the resolver and
//! the tree printer work from heap stacks, the compiled form holds a chain as one flat node
//! and syntax trees drop without recursion. (The exact engine's recursion still needs the big
//! stack: its deep chains run under `with_big_stack`, and must calculate in linear time.)

use alea_core::{Rng, SourceFile};
use alea_dicelab::calc::{self, CalcOptions};
use alea_dicelab::{Roller, eval, parse, print_tree, with_big_stack};

/// Runs `f` on a thread with an ordinary 2 MiB stack; a stack overflow aborts the test.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic");
}

fn run_all(text: String, want: i32) {
    on_small_stack(move || {
        let file = SourceFile::new("<deep>", text);
        let (program, errors) = parse(&file);
        assert!(errors.is_empty(), "{errors:?}");
        let statement = &program.statements[0];
        let tree = print_tree(&statement.expr);
        assert!(tree.lines().count() > 4_000);
        let mut rng = Rng::seed_from_u64(1);
        let rolled = Roller::new().roll(statement, &mut rng).expect("roll");
        assert_eq!(rolled, vec![want]);
        let h = eval(statement, 1000, 1).expect("eval");
        assert_eq!(h.counts.get(&want), Some(&1000));
        drop(program);
    });
}

#[test]
fn a_5000_deep_sum_chain_needs_no_big_stack() {
    run_all(format!("{}1", "sum ".repeat(5_000)), 1);
    run_all(format!("{}1", "count prod sum ".repeat(3_330)), 1);
}

#[test]
fn deep_negations_dice_and_parentheses_need_no_big_stack() {
    run_all(format!("{}1{}", "-(".repeat(4_990), ")".repeat(4_990)), 1);
    run_all(format!("{}1", "- ".repeat(4_991)), -1);
    run_all(format!("{}1", "d ".repeat(4_990)), 1);
    // Parentheses print no line of their own: wrap them around a long chain.
    let parens = format!(
        "{}{}1{}",
        "(".repeat(5_000),
        "sum ".repeat(4_900),
        ")".repeat(5_000)
    );
    run_all(parens, 1);
}

#[test]
fn a_9990_deep_chain_rolls_on_a_small_stack() {
    on_small_stack(|| {
        let text = format!("{}3#d6", "sum ".repeat(9_990));
        let (program, errors) = parse(&SourceFile::new("<deep>", text));
        assert!(errors.is_empty());
        let mut rng = Rng::seed_from_u64(1);
        let v = Roller::new()
            .roll(&program.statements[0], &mut rng)
            .expect("roll");
        assert!(matches!(v[..], [3..=18]), "{v:?}");
        let h = eval(&program.statements[0], 100, 1).expect("eval");
        assert_eq!(h.rolls, 100);
    });
}

/// The exact distribution of `text`, rendered as `dicelab -c` prints it.
fn calculate(text: String) -> String {
    with_big_stack(move || {
        let (program, errors) = parse(&SourceFile::new("<deep>", text));
        assert!(errors.is_empty(), "{errors:?}");
        calc::calculate(&program.statements[0], &CalcOptions::default())
            .expect("calc")
            .render_dicelab(true)
    })
}

/// Calc plans each `let` from its variable's reads, found in one pass over the statement
/// (searching every body for them was quadratic: 13 s for this chain).
#[test]
fn a_9990_deep_let_chain_calculates() {
    let chain = "let a = d2 in ".repeat(9_990);
    assert_eq!(calculate(format!("{chain}d2")), "  1\t1/2\t\n  2\t1/2\t\n");
    assert_eq!(calculate(format!("{chain}a")), "  1\t1/2\t\n  2\t1/2\t\n");
    let reads = "let a = d2 in let b = a + 1 in ".repeat(4_995);
    assert_eq!(calculate(format!("{reads}b")), "  2\t1/2\t\n  3\t1/2\t\n");
    // Parts without dice deep inside: each is compiled with an environment of the bindings
    // it reads and its own (`y`), not one as deep as its scope (that was 612 MB here).
    let constants = "let a = d2 in let b = 1 + 1 in ".repeat(4_995);
    assert_eq!(
        calculate(format!("{constants}a*b")),
        "  2\t1/2\t\n  4\t1/2\t\n"
    );
    let deep = "let c = 2 in let b = 1 + 1 in ".repeat(4_995);
    let part = "let a = d2 in sum (foreach y in 1..a do y + a + c + b)";
    assert_eq!(
        calculate(format!("{deep}{part}")),
        "  6\t1/2\t\n 15\t1/2\t\n"
    );
}
