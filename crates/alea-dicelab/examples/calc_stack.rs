//! Measures calc's stack: `calc_stack KIND DEPTH STACK_KIB` parses a DEPTH-deep program on a
//! big stack, then runs `calc::calculate` on a thread of STACK_KIB and prints `ok` (a stack
//! overflow aborts the process). Bisect STACK_KIB with a shell loop; the figures are in
//! docs/performance/dicelab-calc.md ("Calc's stack").
#![allow(clippy::print_stdout)]
use alea_core::SourceFile;
use alea_dicelab::calc::{self, CalcOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (kind, depth, kib): (&str, usize, usize) =
        (&args[1], args[2].parse().unwrap(), args[3].parse().unwrap());
    let text = match kind {
        "sum" => format!("{}1", "sum ".repeat(depth)),
        "neg" => format!("{}d6", "-".repeat(depth)),
        "paren" => format!("{}d6{}", "(".repeat(depth), ")".repeat(depth)),
        "add" => format!("{}d6", "1+".repeat(depth)),
        "let" => format!("{}d2", "let a = d2 in ".repeat(depth)),
        "if" => format!(
            "{}d6{}",
            "if d2 then (".repeat(depth),
            ") else 1".repeat(depth)
        ),
        "foreach" => format!("{}d6", "sum foreach a in 1..2 do ".repeat(depth)),
        _ => panic!("kind"),
    };
    let program = alea_dicelab::with_big_stack(move || {
        let (p, e) = alea_dicelab::parse(&SourceFile::new("<s>", &text));
        assert!(e.is_empty(), "{e:?}");
        p
    });
    let r = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(kib << 10)
            .spawn_scoped(s, || {
                calc::calculate(&program.statements[0], &CalcOptions::default()).is_ok()
            })
            .unwrap()
            .join()
            .unwrap()
    });
    println!("{}", if r { "ok" } else { "err" });
    // Dropping the tree is recursive too: leak it, only calc is measured.
    std::mem::forget(program);
}
