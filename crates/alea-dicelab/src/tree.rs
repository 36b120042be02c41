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

/// Stops writing once `out` is longer than `limit` (so at most one line passes it).
fn write_tree(out: &mut String, expr: &Expr, depth: usize, limit: usize) {
    use ExprKind::*;
    if out.len() > limit {
        return;
    }
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
            write_tree(out, e, depth + 1, limit);
        }
        Binary { op, lhs, rhs, .. } => {
            line(out, depth, op.symbol());
            write_tree(out, lhs, depth + 1, limit);
            write_tree(out, rhs, depth + 1, limit);
        }
        Die(e) => {
            line(out, depth, "d");
            write_tree(out, e, depth + 1, limit);
        }
        Aggregate(op, e) => {
            line(out, depth, op.keyword());
            write_tree(out, e, depth + 1, limit);
        }
        Repeat { count, body, .. } => {
            line(out, depth, "#");
            write_tree(out, count, depth + 1, limit);
            write_tree(out, body, depth + 1, limit);
        }
        Range { lo, hi, .. } => {
            line(out, depth, "..");
            write_tree(out, lo, depth + 1, limit);
            write_tree(out, hi, depth + 1, limit);
        }
        List(items) => {
            // `a, b, c` is `,` a (`,` b c) in 0.7.
            let mut d = depth;
            for (i, item) in items.iter().enumerate() {
                // Each item nests one deeper: stop at the limit, or the indents alone are
                // quadratic.
                if out.len() > limit {
                    break;
                }
                if i + 1 < items.len() {
                    line(out, d, ",");
                    write_tree(out, item, d + 1, limit);
                    d += 1;
                } else {
                    write_tree(out, item, d, limit);
                }
            }
        }
        Reorder(op, e) => {
            line(out, depth, op.keyword());
            write_tree(out, e, depth + 1, limit);
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
            write_tree(out, n, depth + 1, limit);
            write_tree(out, list, depth + 1, limit);
        }
        If {
            cond,
            then_branch,
            else_branch,
        } => {
            line(out, depth, "if");
            write_tree(out, cond, depth + 1, limit);
            line(out, depth, "then");
            write_tree(out, then_branch, depth + 1, limit);
            line(out, depth, "else");
            write_tree(out, else_branch, depth + 1, limit);
        }
        Let { var, value, body } => {
            line(out, depth, &format!("let {} = ", var.name));
            write_tree(out, value, depth + 1, limit);
            write_tree(out, body, depth + 1, limit);
        }
        While { var, init, body } => {
            line(out, depth, &format!("while {} ", var.name));
            write_tree(out, init, depth + 1, limit);
            write_tree(out, body, depth + 1, limit);
        }
        Foreach { var, list, body } => {
            line(out, depth, &format!("foreach {} ", var.name));
            write_tree(out, list, depth + 1, limit);
            write_tree(out, body, depth + 1, limit);
        }
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
