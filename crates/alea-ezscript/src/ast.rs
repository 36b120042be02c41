//! The syntax tree. Every node has a span; a parse error leaves an `Error` node in place so the
//! tree is always complete.

use alea_core::Span;
use std::rc::Rc;

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `&&`
    And,
    /// `||`
    Or,
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
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `!`
    Not,
}

/// A name and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The name.
    pub name: Rc<str>,
    /// Where.
    pub span: Span,
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// A function literal or declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncDef {
    /// The declared name, if any.
    pub name: Option<Ident>,
    /// Parameters.
    pub params: Vec<Ident>,
    /// Body.
    pub body: Block,
}

/// Expression kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A number literal.
    Number(f64),
    /// A text literal.
    Text(Rc<str>),
    /// `true` / `false`.
    Bool(bool),
    /// A name.
    Name(Rc<str>),
    /// `[a, b]`
    List(Vec<Expr>),
    /// `{k: v}`
    Object(Vec<(Ident, Expr)>),
    /// `-x`, `!x`
    Unary(UnOp, Box<Expr>),
    /// `a op b`
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c { } else …`
    If(Box<Expr>, Block, Option<Box<Expr>>),
    /// A block used as the `else` branch.
    Block(Block),
    /// `func(a) { … }`
    Func(Rc<FuncDef>),
    /// `x.name` (a property or key)
    Member(Box<Expr>, Ident),
    /// `x.name(args)`
    Method(Box<Expr>, Ident, Vec<Expr>),
    /// `x[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `f(args)`
    Call(Box<Expr>, Vec<Expr>),
    /// A syntax error (already reported).
    Error,
}

/// One step of an assignment target after its root name.
#[derive(Clone, Debug, PartialEq)]
pub enum PathStep {
    /// `.name`
    Key(Ident),
    /// `[expr]`
    Index(Expr),
}

/// `=`, or the operator of a compound assignment.
pub type AssignOp = Option<BinOp>;

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// What.
    pub kind: StmtKind,
    /// Where.
    pub span: Span,
}

/// Statement kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// An expression; its value may be the block's result.
    Expr(Expr),
    /// `target op= value`
    Assign {
        /// The root name.
        root: Ident,
        /// Keys and indices after it.
        path: Vec<PathStep>,
        /// `None` for `=`.
        op: AssignOp,
        /// The right-hand side.
        value: Expr,
    },
    /// `func name(…) { … }`, hoisted in its block.
    FuncDecl(Rc<FuncDef>),
    /// `for [index,] item in list { … }`
    ForIn {
        /// The index variable.
        index: Option<Ident>,
        /// The item variable.
        item: Ident,
        /// The list.
        list: Expr,
        /// Body.
        body: Block,
    },
    /// `for init; cond; update { … }`
    ForC {
        /// Runs once.
        init: Option<Box<Stmt>>,
        /// Tested before each pass.
        cond: Expr,
        /// Runs after each pass.
        update: Option<Box<Stmt>>,
        /// Body.
        body: Block,
    },
    /// `while cond { … }`
    While(Expr, Block),
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// A syntax error (already reported).
    Error,
}

/// `{ statements }` (or a whole script).
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The statements in order.
    pub stmts: Vec<Stmt>,
    /// Where.
    pub span: Span,
}
