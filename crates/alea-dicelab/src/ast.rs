//! The syntax tree of dicelab programs.
//!
//! Every node carries the [`Span`] of its whole text (parentheses are not nodes: `(1)+2`'s left
//! operand spans only the `1`). Operators and keywords keep their own span as well, since
//! runtime errors are reported at the operator (`1/0` at the `/`).
//!
//! **Variables.** The parser keeps names; the resolver ([`crate::resolve`]) then fills in
//! [`Var::slot`] and [`Binding::slot`] in place. A slot is the binding's *depth*: the number of
//! bindings (`let`, `while`, `foreach`) that enclose the binding site within its statement,
//! so an evaluator may keep the environment as a stack of values and read variable `slot` as
//! `stack[slot]`. An unbound variable keeps `slot: None`; reading it is a runtime error
//! (`unknown variable 'x'`), raised only if the variable is evaluated.
//!
//! **Lists.** The comma is right-associative in 0.7 (`1,2,3` prints as `,` `1` `,` `2` `3`).
//! Here a run of commas is one flat [`ExprKind::List`] with two or more items; the tree printer
//! prints it right-nested. A parenthesised list inside a list stays a separate node, as in 0.7.

use alea_core::Span;

/// A parsed program: its well-formed statements in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// Statements, in order.
    pub statements: Vec<Statement>,
}

/// One `;`-separated statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The expression.
    pub expr: Expr,
    /// The statement's text without the `;` (from its first to its last token).
    pub span: Span,
    /// How many binding depths the statement uses (1 + the deepest [`Binding::slot`], or 0).
    /// Filled in by the resolver.
    pub slots: u32,
}

/// An expression node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Its whole text.
    pub span: Span,
}

/// A variable reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    /// The name, case-sensitive.
    pub name: String,
    /// The binding depth it refers to; `None` when no enclosing binding has this name.
    pub slot: Option<u32>,
}

/// A variable introduced by `let`, `while` or `foreach`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The name.
    pub name: String,
    /// The name's span.
    pub span: Span,
    /// The binding depth (see the module docs).
    pub slot: u32,
}

/// Binary operators on single values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `^`
    Pow,
    /// `.`
    Concat,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Pow => "^",
            BinOp::Concat => ".",
        }
    }
}

/// `sum`, `prod`, `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Aggregate {
    /// Wrapping sum, `()` → 0.
    Sum,
    /// Wrapping product, `()` → 1.
    Prod,
    /// Length.
    Count,
}

impl Aggregate {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Aggregate::Sum => "sum",
            Aggregate::Prod => "prod",
            Aggregate::Count => "count",
        }
    }
}

/// `perm`, `sort`, `rev`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reorder {
    /// Uniform random permutation.
    Perm,
    /// Ascending.
    Sort,
    /// Reversed.
    Rev,
}

impl Reorder {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Reorder::Perm => "perm",
            Reorder::Sort => "sort",
            Reorder::Rev => "rev",
        }
    }
}

/// The selector of a filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Selector {
    /// `first n`
    First,
    /// `last n`
    Last,
    /// `low n`
    Low,
    /// `high n`
    High,
    /// `== x`
    Eq,
    /// `!= x`
    Ne,
    /// `< x`
    Lt,
    /// `> x`
    Gt,
    /// `<= x`
    Le,
    /// `>= x`
    Ge,
}

impl Selector {
    /// The selector as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Selector::First => "first",
            Selector::Last => "last",
            Selector::Low => "low",
            Selector::High => "high",
            Selector::Eq => "==",
            Selector::Ne => "!=",
            Selector::Lt => "<",
            Selector::Gt => ">",
            Selector::Le => "<=",
            Selector::Ge => ">=",
        }
    }

    /// True for the comparisons (`== != < > <= >=`), false for `first last low high`.
    pub fn is_comparison(self) -> bool {
        !matches!(
            self,
            Selector::First | Selector::Last | Selector::Low | Selector::High
        )
    }

    /// Whether member `m` passes the comparison against `x` (false for non-comparisons):
    /// [`crate::ops::comparison`] without `drop`.
    pub fn compare(self, m: i32, x: i32) -> bool {
        crate::ops::comparison(self, false).is_some_and(|keep| keep.keeps(m, x))
    }
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// A literal.
    Number(i32),
    /// A variable reference.
    Var(Var),
    /// `()`
    Empty,
    /// Unary `-a`.
    Neg(Box<Expr>),
    /// `a OP b`.
    Binary {
        /// Which operator.
        op: BinOp,
        /// The operator's span.
        op_span: Span,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `dn`.
    Die(Box<Expr>),
    /// `sum e`, `prod e`, `count e`.
    Aggregate(Aggregate, Box<Expr>),
    /// `n#e`.
    Repeat {
        /// How many times (a single value).
        count: Box<Expr>,
        /// `#`'s span.
        op_span: Span,
        /// What is repeated.
        body: Box<Expr>,
    },
    /// `a..b`.
    Range {
        /// Lower end.
        lo: Box<Expr>,
        /// `..`'s span.
        op_span: Span,
        /// Upper end.
        hi: Box<Expr>,
    },
    /// `e1, e2, …` (two or more items).
    List(Vec<Expr>),
    /// `perm e`, `sort e`, `rev e`.
    Reorder(Reorder, Box<Expr>),
    /// `[drop|keep] SEL n e`.
    Filter {
        /// `drop` was written.
        drop: bool,
        /// The selector.
        selector: Selector,
        /// The selector's span (the span errors about `n` point at).
        selector_span: Span,
        /// The count or the comparison value.
        n: Box<Expr>,
        /// The list.
        list: Box<Expr>,
    },
    /// `if c then a else b`.
    If {
        /// Condition (true when non-empty).
        cond: Box<Expr>,
        /// Then branch.
        then_branch: Box<Expr>,
        /// Else branch.
        else_branch: Box<Expr>,
    },
    /// `let x = e in f`.
    Let {
        /// `x`.
        var: Binding,
        /// `e`.
        value: Box<Expr>,
        /// `f`.
        body: Box<Expr>,
    },
    /// `while x = e do f`.
    While {
        /// `x`.
        var: Binding,
        /// `e`.
        init: Box<Expr>,
        /// `f`.
        body: Box<Expr>,
    },
    /// `foreach x in e do f`.
    Foreach {
        /// `x`.
        var: Binding,
        /// `e`.
        list: Box<Expr>,
        /// `f`.
        body: Box<Expr>,
    },
}

impl Expr {
    /// The direct children in source order.
    pub fn children(&self) -> Vec<&Expr> {
        use ExprKind::*;
        match &self.kind {
            Number(_) | Var(_) | Empty => vec![],
            Neg(e) | Die(e) | Aggregate(_, e) | Reorder(_, e) => vec![e],
            Binary { lhs, rhs, .. } => vec![lhs, rhs],
            Repeat { count, body, .. } => vec![count, body],
            Range { lo, hi, .. } => vec![lo, hi],
            List(items) => items.iter().collect(),
            Filter { n, list, .. } => vec![n, list],
            If {
                cond,
                then_branch,
                else_branch,
            } => vec![cond, then_branch, else_branch],
            Let { value, body, .. } => vec![value, body],
            While { init, body, .. } => vec![init, body],
            Foreach { list, body, .. } => vec![list, body],
        }
    }

    /// Whether the expression is a *scalar* by syntax (dicelab.md §2 "Classes"): numbers,
    /// variables, unary `-`, `d`, the binary operators, `sum`, `prod` and `count`.
    pub fn is_scalar_class(&self) -> bool {
        use ExprKind::*;
        matches!(
            self.kind,
            Number(_) | Var(_) | Neg(_) | Binary { .. } | Die(_) | Aggregate(..)
        )
    }
}

/// Dropping a tree with native recursion needs a stack frame per level; a 5,000-deep
/// `sum sum … 1` chain (which dicelab 0.7 evaluates) would need far more stack than a normal
/// thread has. So a node with children moves them onto a heap stack and drops them one by
/// one, each after its own children were moved out: no recursion, whatever the depth.
impl Drop for Expr {
    fn drop(&mut self) {
        let mut stack = Vec::new();
        take_children(&mut self.kind, &mut stack);
        while let Some(mut e) = stack.pop() {
            take_children(&mut e.kind, &mut stack);
        }
    }
}

/// A leaf to leave behind in a box whose node was moved out.
fn hole() -> Expr {
    Expr {
        kind: ExprKind::Empty,
        span: Span::default(),
    }
}

/// Moves the children of `kind` that have children of their own onto `stack` (leaves drop
/// at once, without touching the stack).
fn take_children(kind: &mut ExprKind, stack: &mut Vec<Expr>) {
    use ExprKind::*;
    let mut take = |e: &mut Expr| {
        if !matches!(e.kind, Number(_) | Var(_) | Empty) {
            stack.push(std::mem::replace(e, hole()));
        }
    };
    match kind {
        Number(_) | Var(_) | Empty => {}
        Neg(e) | Die(e) | Aggregate(_, e) | Reorder(_, e) => take(e),
        Binary { lhs: a, rhs: b, .. }
        | Repeat {
            count: a, body: b, ..
        }
        | Range { lo: a, hi: b, .. }
        | Filter { n: a, list: b, .. }
        | Let {
            value: a, body: b, ..
        }
        | While {
            init: a, body: b, ..
        }
        | Foreach {
            list: a, body: b, ..
        } => {
            take(a);
            take(b);
        }
        List(items) => items.iter_mut().for_each(take),
        If {
            cond,
            then_branch,
            else_branch,
        } => {
            take(cond);
            take(then_branch);
            take(else_branch);
        }
    }
}
