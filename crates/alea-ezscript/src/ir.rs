//! The resolved tree: names are slots in a frame, captured variables, or globals looked up in
//! the built-ins and the host. Superinstructions (`local op number`, `if local < number`, a
//! call of a captured function, `{ e }` folded into `e`) are chosen here, at compile time, and
//! every node carries the steps it pays on entry, computed from the one table [`cost`].
//! `compile.rs` turns it into the flat code the evaluator runs (`code.rs`), one op (or a
//! step charge and its children's ops) per node, keeping these steps; the evaluator never
//! looks at the shape of the code it runs.

use crate::ast::{BinOp, UnOp};
use crate::builtins::Builtin;
use alea_core::Span;
use std::sync::Arc;

/// A name in compiled code: shared between threads (compiled programs are `Send + Sync`).
pub type Name = Arc<str>;

/// The one table of step costs (spec §11). Fused and folded nodes pay the sum of the costs
/// of the nodes they stand for; the compiled ops carry [`Node::cost`] and the loops'
/// `pass_cost`, and where no node is run they pay these constants themselves (a `for … in`
/// item's `PASS`, the right-hand `NODE` of a [`StmtKind::NumUpdate`]), never a number of their
/// own.
pub mod cost {
    /// One evaluated expression node.
    pub const NODE: u32 = 1;
    /// One pass of a `while` or C-style `for` loop, one item of `for … in`.
    pub const PASS: u32 = 1;
    /// `local op number`: the operator, the local and the number.
    pub const LOCAL_NUM: u32 = 3 * NODE;
}

/// An expression node.
#[derive(Debug)]
pub struct Node {
    pub kind: NodeKind,
    pub span: Span,
    /// Steps paid on entry: the node's own ([`cost::NODE`], or a fused node's sum), plus those
    /// of the children taken over by [`hoist`].
    pub cost: u32,
}

impl Node {
    /// A node paying one node's step.
    pub fn new(kind: NodeKind, span: Span) -> Node {
        Node {
            kind,
            span,
            cost: cost::NODE,
        }
    }

    /// Reading it has no effect (a constant, a variable, `local op number`): its steps can be
    /// paid by its parent before it runs.
    pub fn is_leaf(&self) -> bool {
        matches!(
            self.kind,
            NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Upval(_) | NodeKind::LocalNum(..)
        )
    }
}

/// The steps of a leaf child, taken over by its parent (which pays them on entry, in one
/// charge): 0 for other nodes, which pay their own. Only children that run before anything
/// with an effect may be hoisted (the first operand, a condition, leading leaf arguments):
/// then a run pays the same steps and runs out at the same node; the only difference is that,
/// when the steps run out inside the group, running out wins over a type error of a leaf.
pub fn hoist(node: &mut Node) -> u32 {
    if node.is_leaf() {
        std::mem::take(&mut node.cost)
    } else {
        0
    }
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
    Const(Const),
    /// A slot of the current frame (plain or boxed).
    Local(u32),
    /// A captured variable of the current closure.
    Upval(u32),
    /// A name that is no local: built-ins, then the host.
    Global(Name),
    List(Vec<Node>),
    Object(Vec<(Name, Node)>),
    Unary(UnOp, Box<Node>),
    Binary(BinOp, Box<Node>, Box<Node>),
    /// `local op number`, fused (counts as the three nodes it replaces).
    LocalNum(BinOp, u32, f64, Span),
    /// `if cond { … } else …`; the `else` branch is any node (a folded `{ e }`, a block,
    /// another `if`).
    If(Box<Cond>, Block, Option<Box<Node>>),
    Block(Block),
    /// Creates a closure of `protos[i]`.
    Func(u32),
    Member(Box<Node>, Name),
    Method(Box<Node>, Name, Vec<Node>),
    Index(Box<Node>, Box<Node>),
    Call(Box<Node>, Vec<Node>),
    /// A call whose callee is a captured variable (a named function calling itself or a
    /// sibling): the callee's step is the call's, the function taken without building a value.
    /// The flag: the callee is the running function itself, which the resolver proved (see
    /// [`crate::resolve::fixed_functions`]): the variable holds the running closure.
    CallUpval(u32, Span, Vec<Node>, bool),
    /// [`NodeKind::CallUpval`] with one argument `local op number` (recursion's `f(n - 1)`):
    /// the argument made straight into the new frame. Fields: the captured variable, the
    /// callee's span, then the argument's operator, slot, number, local's span and span.
    CallUpvalLocalNum {
        upval: u32,
        /// As [`NodeKind::CallUpval`]'s flag.
        own: bool,
        callee_span: Span,
        op: BinOp,
        slot: u32,
        y: f64,
        local_span: Span,
        arg_span: Span,
    },
    /// A call of a built-in function by its name (not shadowed by a local).
    CallBuiltin(Builtin, Vec<Node>),
    /// `was(x)`, `changed(x)`, `becameTrue(x)`.
    Was(Was, Box<Node>),
}

/// The condition of an `if` or a loop.
#[derive(Debug)]
pub enum Cond {
    /// `local < number` & co.: compared without building a value. Its steps
    /// ([`cost::LOCAL_NUM`]) are paid by the `if` or the loop pass.
    LocalCmp {
        op: BinOp,
        slot: u32,
        y: f64,
        /// The local's span and the whole condition's.
        local_span: Span,
        span: Span,
    },
    /// Any other expression, which must give true or false.
    Value(Node),
}

/// A constant of the source, in a form that can be shared between threads (a [`Value`] holds
/// `Rc`s).
#[derive(Debug, Clone, Copy)]
pub enum Const {
    Nothing,
    Bool(bool),
    Number(f64),
    /// The program's text constant of that index: made into a value once per run, on first
    /// use, then shared (so `s += "ab"` does not allocate the constant each time).
    Text(u32),
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
    /// A `.name` step, the text it indexes with.
    Key(Name, Span),
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
        name: Name,
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
        cond: Cond,
        /// [`cost::PASS`] and the condition's hoisted steps.
        pass_cost: u32,
        update: Option<Box<Stmt>>,
        body: Block,
    },
    While {
        cond: Cond,
        /// [`cost::PASS`] and the condition's hoisted steps.
        pass_cost: u32,
        body: Block,
    },
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
    /// The statements before the last expression (their values are not kept).
    pub stmts: Vec<Stmt>,
    /// The block's value: its last statement when that is an expression.
    pub tail: Option<Box<Node>>,
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
    pub name: Option<Name>,
    pub params: Vec<Decl>,
    /// Some parameter is captured by a closure (boxed on entry); most functions have none.
    pub boxes_params: bool,
    pub slots: u32,
    pub slot_names: Vec<Name>,
    pub captures: Vec<Capture>,
    pub capture_names: Vec<Name>,
    pub body: Block,
    /// The body in the flat form the evaluator runs ([`crate::compile::function`]).
    pub code: crate::code::Code,
    pub span: Span,
    /// What its program was compiled from: `script` or `template`, a newline, the source.
    /// Compiling is deterministic, so programs of equal origins have equal tables and a
    /// function value of one runs in the other (`interp/call.rs`, `enter`).
    pub origin: Arc<str>,
}
