//! `--lint`: the operator-precedence traps of spec §6 (the other lint warnings are collected
//! while loading, where the facts are known).

use crate::ast::{Ast, BinOp, Expr, UnOp};
use crate::compile::{Function, Located};
use crate::symbols;
use alea_core::{Diagnostic, SourceFile};

fn constant_value(ast: &Ast, file: &SourceFile, id: u32) -> Option<f64> {
    let n = ast.node(id);
    match n.expr {
        Expr::Num(v) => Some(v),
        Expr::Ident => symbols::constant(file.slice(n.op_span)),
        _ => None,
    }
}

fn is_bitwise(ast: &Ast, id: u32) -> bool {
    match ast.node(id).expr {
        Expr::Binary(op, ..) => op.is_bitwise(),
        Expr::Unary(UnOp::BitNot, _) => true,
        _ => false,
    }
}

/// Walks every function body (iteratively) and reports the traps.
pub(crate) fn precedence_traps(
    files: &[SourceFile],
    ast: &Ast,
    functions: &[Function],
    out: &mut Vec<Located>,
) {
    for f in functions {
        let Some(root) = f.root else { continue };
        let file = &files[f.file];
        let mut work = vec![root];
        while let Some(id) = work.pop() {
            let node = ast.node(id);
            if let Expr::Binary(op, l, r) = node.expr {
                let left = ast.node(l);
                if op.is_comparison()
                    && matches!(left.expr, Expr::Unary(UnOp::Not, _))
                    && left.span.start == left.op_span.start
                {
                    out.push(Located {
                        file: f.file,
                        diagnostic: Diagnostic::warning(format!(
                            "'{}' applies to the left operand only, not to the comparison",
                            file.slice(left.op_span)
                        ))
                        .with_span(left.op_span)
                        .with_help("write 'NOT (a > b)' or '(NOT a) > b' to make the intent clear"),
                    });
                }
                if matches!(op, BinOp::Eq | BinOp::Ne) {
                    for (bits, other) in [(l, r), (r, l)] {
                        if is_bitwise(ast, bits)
                            && constant_value(ast, file, other).is_some_and(|v| v >= 2147483648.0)
                        {
                            out.push(Located {
                                file: f.file,
                                diagnostic: Diagnostic::warning(
                                    "a bitwise result is signed 32-bit: comparing it with a constant ≥ 2^31 is always false",
                                )
                                .with_span(node.op_span)
                                .with_help("compare with '>=' instead, e.g. 'pokerval >= straightflush'"),
                            });
                        }
                    }
                }
            }
            work.extend(ast.children(id));
        }
    }
}
