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

fn resolve(expr: &mut Expr, scope: &mut Vec<String>, max: &mut u32) {
    use ExprKind::*;
    match &mut expr.kind {
        Number(_) | Empty => {}
        Var(v) => {
            v.slot = scope.iter().rposition(|n| *n == v.name).map(|i| i as u32);
        }
        Neg(e) | Die(e) | Aggregate(_, e) | Reorder(_, e) => resolve(e, scope, max),
        Binary { lhs, rhs, .. } => {
            resolve(lhs, scope, max);
            resolve(rhs, scope, max);
        }
        Repeat {
            count: a, body: b, ..
        }
        | Range { lo: a, hi: b, .. }
        | Filter { n: a, list: b, .. } => {
            resolve(a, scope, max);
            resolve(b, scope, max);
        }
        List(items) => {
            for item in items {
                resolve(item, scope, max);
            }
        }
        If {
            cond,
            then_branch,
            else_branch,
        } => {
            resolve(cond, scope, max);
            resolve(then_branch, scope, max);
            resolve(else_branch, scope, max);
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
            resolve(bound, scope, max);
            var.slot = scope.len() as u32;
            scope.push(var.name.clone());
            *max = (*max).max(scope.len() as u32);
            resolve(body, scope, max);
            scope.pop();
        }
    }
}
