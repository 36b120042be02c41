//! The resolved tree the interpreter runs: names are slots in a frame, captured variables,
//! or globals looked up in the built-ins and the host.

use crate::Value;
use crate::ast::{BinOp, UnOp};
use crate::builtins::Builtin;
use alea_core::Span;
use std::rc::Rc;

/// An expression node.
#[derive(Debug)]
pub struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

/// Special forms that read the previous tick (spec §12.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum Was {
    Was,
    Changed,
    BecameTrue,
}

impl Was {
    pub fn name(self) -> &'static str {
        match self {
            Was::Was => "was",
            Was::Changed => "changed",
            Was::BecameTrue => "becameTrue",
        }
    }
}

/// `repr(u8)`: an explicit tag byte, so dispatching on a node reads one byte instead of
/// decoding a niche inside `Const`'s value (measurably cheaper in the evaluator's hot loop).
#[derive(Debug)]
#[repr(u8)]
pub enum NodeKind {
    Const(Value),
    /// A slot of the current frame (plain or boxed).
    Local(u32),
    /// A captured variable of the current closure.
    Upval(u32),
    /// A name that is no local: built-ins, then the host.
    Global(Rc<str>),
    List(Vec<Node>),
    Object(Vec<(Rc<str>, Node)>),
    Unary(UnOp, Box<Node>),
    Binary(BinOp, Box<Node>, Box<Node>),
    /// `local op number`, fused (counts as the three nodes it replaces).
    LocalNum(BinOp, u32, f64, Span),
    If(Box<Node>, Block, Option<Box<Node>>),
    Block(Block),
    /// Creates a closure of `protos[i]`.
    Func(u32),
    Member(Box<Node>, Rc<str>),
    Method(Box<Node>, Rc<str>, Vec<Node>),
    Index(Box<Node>, Box<Node>),
    Call(Box<Node>, Vec<Node>),
    /// A call of a built-in function by its name (not shadowed by a local).
    CallBuiltin(Builtin, Vec<Node>),
    /// `was(x)`, `changed(x)`, `becameTrue(x)`.
    Was(Was, Box<Node>),
}

/// Where an assignment's root variable lives.
#[derive(Debug, Clone)]
pub enum Var {
    Local(u32),
    Upval(u32),
    /// No local of that name: `=` would have declared one, so this only occurs for compound
    /// assignment (an error at run time).
    Missing,
}

#[derive(Debug)]
pub enum PathIr {
    /// A `.name` step, as the text value it indexes with.
    Key(Value, Span),
    Index(Node),
}

#[derive(Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// `repr(u8)` for the same reason as [`NodeKind`].
#[derive(Debug)]
#[repr(u8)]
pub enum StmtKind {
    Expr(Node),
    Assign {
        var: Var,
        name: Rc<str>,
        name_span: Span,
        path: Vec<PathIr>,
        op: Option<BinOp>,
        value: Node,
    },
    ForIn {
        /// Slots of the loop variables, fresh each pass.
        decls: Vec<Decl>,
        index: Option<u32>,
        item: u32,
        list: Node,
        body: Block,
    },
    ForC {
        decls: Vec<Decl>,
        init: Option<Box<Stmt>>,
        cond: Node,
        update: Option<Box<Stmt>>,
        body: Block,
    },
    While(Node, Block),
    /// `x op= number` or `x op= y` on a local without a path: the same assignment as `full`
    /// with the operands resolved, for the interpreter's numeric fast path (loop counters and
    /// accumulators); anything else (a text, an unset local, inside `was`) runs `full`.
    NumUpdate {
        slot: u32,
        op: BinOp,
        rhs: Operand,
        rhs_span: Span,
        full: Box<Stmt>,
    },
    Break,
    Continue,
}

/// The right-hand side of a [`StmtKind::NumUpdate`].
#[derive(Debug, Clone, Copy)]
pub enum Operand {
    Num(f64),
    Local(u32),
}

/// A slot declared by a scope; boxed slots hold a shared cell (they are captured by a closure).
#[derive(Debug, Clone, Copy)]
pub struct Decl {
    pub slot: u32,
    pub boxed: bool,
}

#[derive(Debug)]
pub struct Block {
    /// `decls` or `hoisted` is not empty (one test on entering the block, which most blocks
    /// skip).
    pub declares: bool,
    /// Slots first assigned in this block: reset on entry.
    pub decls: Vec<Decl>,
    /// Named functions declared in this block: (slot, proto), created on entry.
    pub hoisted: Vec<(u32, u32)>,
    pub stmts: Vec<Stmt>,
}

/// Where a closure gets a captured variable from, when it is created.
#[derive(Debug, Clone, Copy)]
pub enum Capture {
    /// A boxed slot of the creating frame.
    Local(u32),
    /// A captured variable of the creating closure.
    Upval(u32),
}

/// A function's code.
#[derive(Debug)]
pub struct Proto {
    pub name: Option<Rc<str>>,
    pub params: Vec<Decl>,
    /// Some parameter is captured by a closure (boxed on entry); most functions have none.
    pub boxes_params: bool,
    pub slots: u32,
    pub slot_names: Vec<Rc<str>>,
    pub captures: Vec<Capture>,
    pub capture_names: Vec<Rc<str>>,
    pub body: Block,
    pub span: Span,
}
