//! The resolver: fills in variable slots (see [`crate::ast`] for what a slot is).
//!
//! Scope is lexical: a variable is visible only in the body of its binding (`in …`, `do …`),
//! and inner bindings shadow outer ones. The bound expression of `let`/`while`/`foreach` is
//! resolved in the outer scope.

use crate::ast::{Expr, ExprKind, Program, Statement};

/// Resolves every statement of `program` in place.
pub fn resolve_program(program: &mut Program) {
    for s in &mut program.statements {
        resolve_statement(s);
    }
}

/// Resolves one statement in place and records how many slots it needs.
pub fn resolve_statement(statement: &mut Statement) {
    let mut scope: Vec<String> = Vec::new();
    let mut max = 0u32;
    resolve(&mut statement.expr, &mut scope, &mut max);
    statement.slots = max;
}

/// What is left to resolve: a subtree, or the end of a binding's scope (its body done).
enum Task<'a> {
    Expr(&'a mut Expr),
    Bind(&'a mut crate::ast::Binding),
    Unbind,
}

/// Resolves from a heap stack of [`Task`]s instead of recursing, so a 5,000-deep chain needs
/// no deep stack. A binding's value is resolved before the name enters the scope; its body
/// after, and the name leaves when the body is done.
fn resolve(expr: &mut Expr, scope: &mut Vec<String>, max: &mut u32) {
    use ExprKind::*;
    let mut stack = vec![Task::Expr(expr)];
    while let Some(task) = stack.pop() {
        let expr = match task {
            Task::Expr(e) => e,
            Task::Bind(var) => {
                var.slot = scope.len() as u32;
                scope.push(var.name.clone());
                *max = (*max).max(scope.len() as u32);
                continue;
            }
            Task::Unbind => {
                scope.pop();
                continue;
            }
        };
        // Children are pushed last first, so they resolve in source order.
        match &mut expr.kind {
            Number(_) | Empty => {}
            Var(v) => {
                v.slot = scope.iter().rposition(|n| *n == v.name).map(|i| i as u32);
            }
            Neg(e) | Die(e) | Aggregate(_, e) | Reorder(_, e) => stack.push(Task::Expr(e)),
            Binary { lhs: a, rhs: b, .. }
            | Repeat {
                count: a, body: b, ..
            }
            | Range { lo: a, hi: b, .. }
            | Filter { n: a, list: b, .. } => {
                stack.push(Task::Expr(b));
                stack.push(Task::Expr(a));
            }
            List(items) => stack.extend(items.iter_mut().rev().map(Task::Expr)),
            If {
                cond,
                then_branch,
                else_branch,
            } => {
                stack.push(Task::Expr(else_branch));
                stack.push(Task::Expr(then_branch));
                stack.push(Task::Expr(cond));
            }
            Let {
                var,
                value: bound,
                body,
            }
            | While {
                var,
                init: bound,
                body,
            }
            | Foreach {
                var,
                list: bound,
                body,
            } => {
                stack.push(Task::Unbind);
                stack.push(Task::Expr(body));
                stack.push(Task::Bind(var));
                stack.push(Task::Expr(bound));
            }
        }
    }
}
