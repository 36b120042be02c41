//! The parse-tree printer of dicelab.md §7, byte-identical to dicelab 0.7's `-p`.
//!
//! Pre-order, two spaces of indent per depth, children in source order. Lists print
//! right-nested, as 0.7's right-recursive comma builds them.

use crate::ast::{Expr, ExprKind, Selector};
use std::fmt::Write;

/// The tree of `expr` as 0.7 prints it (each line ends with `\n`).
pub fn print_tree(expr: &Expr) -> String {
    let mut out = String::new();
    write_tree(&mut out, expr, 0, usize::MAX);
    out
}

/// [`print_tree`] cut to its first whole lines within `max_bytes`, and whether it was cut.
/// The full text can grow with the square of the program (a list of n items nests n deep),
/// so a host that prints untrusted programs bounds it; the work is bounded likewise.
pub fn print_tree_bounded(expr: &Expr, max_bytes: usize) -> (String, bool) {
    let mut out = String::new();
    write_tree(&mut out, expr, 0, max_bytes);
    let cut = out.len() > max_bytes;
    if cut {
        // The last line pushed is the one that passed the limit.
        let keep = out[..max_bytes].rfind('\n').map_or(0, |i| i + 1);
        out.truncate(keep);
    }
    (out, cut)
}

fn line(out: &mut String, depth: usize, label: &str) {
    for _ in 0..depth {
        out.push_str("  ");
    }
    out.push_str(label);
    out.push('\n');
}

fn comparison_name(sel: Selector) -> &'static str {
    match sel {
        Selector::Eq => "eq",
        Selector::Ne => "ne",
        Selector::Lt => "lt",
        Selector::Gt => "gt",
        Selector::Le => "le",
        Selector::Ge => "ge",
        Selector::First => "first",
        Selector::Last => "last",
        Selector::Low => "low",
        Selector::High => "high",
    }
}

/// What is left to print: a subtree at a depth, or a fixed line (`then`, `else`, `,`).
enum Task<'a> {
    Tree(&'a Expr, usize),
    Line(usize, &'static str),
}

/// Stops writing once `out` is longer than `limit` (so at most one line passes it). Works
/// from a heap stack of [`Task`]s instead of recursing, so a 5,000-deep `sum sum … 1` chain
/// prints on a normal thread.
fn write_tree(out: &mut String, expr: &Expr, depth: usize, limit: usize) {
    use ExprKind::*;
    let mut stack = vec![Task::Tree(expr, depth)];
    // The tasks of one node, in printing order (pushed onto `stack` reversed).
    let mut next: Vec<Task> = Vec::new();
    while let Some(task) = stack.pop() {
        if out.len() > limit {
            return;
        }
        let (expr, depth) = match task {
            Task::Line(depth, label) => {
                line(out, depth, label);
                continue;
            }
            Task::Tree(expr, depth) => (expr, depth),
        };
        let deeper = depth + 1;
        match &expr.kind {
            Number(n) => {
                let mut s = String::new();
                let _ = write!(s, "{n}");
                line(out, depth, &s);
            }
            Var(v) => line(out, depth, &v.name),
            Empty => line(out, depth, "empty list"),
            Neg(e) => {
                line(out, depth, "-");
                next.push(Task::Tree(e, deeper));
            }
            Binary { op, lhs, rhs, .. } => {
                line(out, depth, op.symbol());
                next.extend([Task::Tree(lhs, deeper), Task::Tree(rhs, deeper)]);
            }
            Die(e) => {
                line(out, depth, "d");
                next.push(Task::Tree(e, deeper));
            }
            Aggregate(op, e) => {
                line(out, depth, op.keyword());
                next.push(Task::Tree(e, deeper));
            }
            Repeat { count, body, .. } => {
                line(out, depth, "#");
                next.extend([Task::Tree(count, deeper), Task::Tree(body, deeper)]);
            }
            Range { lo, hi, .. } => {
                line(out, depth, "..");
                next.extend([Task::Tree(lo, deeper), Task::Tree(hi, deeper)]);
            }
            List(items) => {
                // `a, b, c` is `,` a (`,` b c) in 0.7: each item nests one deeper.
                let mut d = depth;
                for (i, item) in items.iter().enumerate() {
                    if i + 1 < items.len() {
                        next.extend([Task::Line(d, ","), Task::Tree(item, d + 1)]);
                        d += 1;
                    } else {
                        next.push(Task::Tree(item, d));
                    }
                }
            }
            Reorder(op, e) => {
                line(out, depth, op.keyword());
                next.push(Task::Tree(e, deeper));
            }
            Filter {
                drop,
                selector,
                n,
                list,
                ..
            } => {
                let verb = if *drop { "drop" } else { "keep" };
                let label = if selector.is_comparison() {
                    format!("{verb} comparison {}", comparison_name(*selector))
                } else {
                    format!("{verb} {}", comparison_name(*selector))
                };
                line(out, depth, &label);
                next.extend([Task::Tree(n, deeper), Task::Tree(list, deeper)]);
            }
            If {
                cond,
                then_branch,
                else_branch,
            } => {
                line(out, depth, "if");
                next.extend([
                    Task::Tree(cond, deeper),
                    Task::Line(depth, "then"),
                    Task::Tree(then_branch, deeper),
                    Task::Line(depth, "else"),
                    Task::Tree(else_branch, deeper),
                ]);
            }
            Let { var, value, body } => {
                line(out, depth, &format!("let {} = ", var.name));
                next.extend([Task::Tree(value, deeper), Task::Tree(body, deeper)]);
            }
            While { var, init, body } => {
                line(out, depth, &format!("while {} ", var.name));
                next.extend([Task::Tree(init, deeper), Task::Tree(body, deeper)]);
            }
            Foreach { var, list, body } => {
                line(out, depth, &format!("foreach {} ", var.name));
                next.extend([Task::Tree(list, deeper), Task::Tree(body, deeper)]);
            }
        }
        stack.extend(next.drain(..).rev());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alea_core::SourceFile;

    fn first_expr(text: &str) -> Expr {
        let (program, errors) = crate::parse(&SourceFile::new("t", text));
        assert!(errors.is_empty(), "{errors:?}");
        program.statements.into_iter().next().unwrap().expr
    }

    #[test]
    fn a_bounded_tree_is_a_prefix_of_whole_lines() {
        let e = first_expr("sum(1, 2, 3, 4) + d6");
        let full = print_tree(&e);
        assert_eq!(print_tree_bounded(&e, full.len()), (full.clone(), false));
        let (cut, was_cut) = print_tree_bounded(&e, 20);
        assert!(was_cut && cut.len() <= 20 && cut.ends_with('\n'));
        assert!(full.starts_with(&cut));
    }

    #[test]
    fn a_long_list_stops_at_the_limit() {
        // 20 000 items: the whole tree would be about 400 MB of indentation.
        let items = vec!["1"; 20_000].join(",");
        let e = first_expr(&format!("sum({items})"));
        let (cut, was_cut) = print_tree_bounded(&e, 100_000);
        assert!(was_cut && cut.len() <= 100_000);
    }
}
