//! The parse-tree printer of dicelab.md §7, byte-identical to dicelab 0.7's `-p`.
//!
//! Pre-order, two spaces of indent per depth, children in source order. Lists print
//! right-nested, as 0.7's right-recursive comma builds them.

use crate::ast::{Expr, ExprKind, Selector};
use std::fmt::Write;

/// The tree of `expr` as 0.7 prints it (each line ends with `\n`).
pub fn print_tree(expr: &Expr) -> String {
    let mut out = String::new();
    write_tree(&mut out, expr, 0);
    out
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

fn write_tree(out: &mut String, expr: &Expr, depth: usize) {
    use ExprKind::*;
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
            write_tree(out, e, depth + 1);
        }
        Binary { op, lhs, rhs, .. } => {
            line(out, depth, op.symbol());
            write_tree(out, lhs, depth + 1);
            write_tree(out, rhs, depth + 1);
        }
        Die(e) => {
            line(out, depth, "d");
            write_tree(out, e, depth + 1);
        }
        Aggregate(op, e) => {
            line(out, depth, op.keyword());
            write_tree(out, e, depth + 1);
        }
        Repeat { count, body, .. } => {
            line(out, depth, "#");
            write_tree(out, count, depth + 1);
            write_tree(out, body, depth + 1);
        }
        Range { lo, hi, .. } => {
            line(out, depth, "..");
            write_tree(out, lo, depth + 1);
            write_tree(out, hi, depth + 1);
        }
        List(items) => {
            // `a, b, c` is `,` a (`,` b c) in 0.7.
            let mut d = depth;
            for (i, item) in items.iter().enumerate() {
                if i + 1 < items.len() {
                    line(out, d, ",");
                    write_tree(out, item, d + 1);
                    d += 1;
                } else {
                    write_tree(out, item, d);
                }
            }
        }
        Reorder(op, e) => {
            line(out, depth, op.keyword());
            write_tree(out, e, depth + 1);
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
            write_tree(out, n, depth + 1);
            write_tree(out, list, depth + 1);
        }
        If {
            cond,
            then_branch,
            else_branch,
        } => {
            line(out, depth, "if");
            write_tree(out, cond, depth + 1);
            line(out, depth, "then");
            write_tree(out, then_branch, depth + 1);
            line(out, depth, "else");
            write_tree(out, else_branch, depth + 1);
        }
        Let { var, value, body } => {
            line(out, depth, &format!("let {} = ", var.name));
            write_tree(out, value, depth + 1);
            write_tree(out, body, depth + 1);
        }
        While { var, init, body } => {
            line(out, depth, &format!("while {} ", var.name));
            write_tree(out, init, depth + 1);
            write_tree(out, body, depth + 1);
        }
        Foreach { var, list, body } => {
            line(out, depth, &format!("foreach {} ", var.name));
            write_tree(out, list, depth + 1);
            write_tree(out, body, depth + 1);
        }
    }
}
