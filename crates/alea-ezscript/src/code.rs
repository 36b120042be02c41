//! The flat executable form: each function and each top-level chunk is one [`Code`], a list of
//! [`Op`]s over an operand stack and the frame's slots, made once by `compile.rs` from the
//! resolved tree (`ir.rs`). Expressions push one value, statements leave the stack as they
//! found it, control flow is jumps (loops, `if`, `&&`/`||`, `break`/`continue`) and user
//! calls push a frame on the interpreter's frame stack instead of recursing natively.
//!
//! Steps: an op that stands for a node pays that node's steps ([`crate::ir::Node::cost`],
//! computed from [`crate::ir::cost`]) before it does anything else, at the node's place in
//! evaluation order; nodes with children pay theirs with a [`Op::Burn`] before the children
//! run (so a run runs out of steps at the same node as the tree it came from).
//!
//! Spans: `spans[pc]` is the span an op reports (errors, running out of steps); the few ops
//! that can fail at another node as well keep those spans in `extra`, from index `x` on.

use crate::ast::{BinOp, UnOp};
use crate::builtins::Builtin;
use crate::ir::{Const, Decl, Name, Operand, Var, Was};
use alea_core::Span;

/// An index of an op in its [`Code`].
pub type Pc = u32;

/// One instruction. Fields named `cost` are the steps the op pays first.
#[derive(Debug, Clone, Copy)]
pub enum Op {
    /// Pays the steps of a node whose children follow.
    Burn(u32),
    /// Pushes a constant.
    Const(Const, u32),
    /// Pushes a slot of the frame.
    Local(u32, u32),
    /// Pushes a captured variable.
    Upval(u32, u32),
    /// Pushes a name that is no local (`names[i]`): built-ins, then the host.
    Global(u32, u32),
    /// Pushes `local op number`; `extra[x]` is the local's span.
    LocalNum {
        op: BinOp,
        slot: u32,
        y: f64,
        cost: u32,
        x: u32,
    },
    /// Pushes a new closure of a function.
    Func(u32, u32),
    Unary(UnOp),
    /// Pops two operands, pushes the result.
    Binary(BinOp),
    /// `a op b` whose operands are both leaves (`bins[i]`), reading them in place instead of
    /// pushing and popping them: one op for the node and its children.
    BinLeaves(u32, u32),
    /// `&&` / `||` after its first operand (whose span is `extra[x]`): pops it; when it
    /// decides, pushes it and jumps to `end`.
    AndOr {
        op: BinOp,
        end: Pc,
        x: u32,
    },
    /// The second operand of `&&` / `||` must be true or false (the span is its own).
    NeedBool(BinOp),
    MakeList(u32),
    /// An object literal with the keys `keys[i]`, whose values are on the stack.
    MakeObject(u32),
    /// `.names[i]` of the popped value.
    Member(u32),
    /// `.names[name](args)`: the receiver and `nargs` arguments are popped.
    Method(u32, u32),
    Index,
    CallBuiltin(Builtin, u32),
    /// The value on top is to be called: it must be a function (the span is the callee's).
    CheckCallee,
    /// Pays `cost`, pushes the function in captured variable `i` (for a call; `extra[x]` is
    /// the callee's span).
    UpvalCallee {
        i: u32,
        /// The variable is the running function's own name, never assigned (decided by the
        /// compiler, [`crate::resolve::fixed_functions`]): it holds the running closure, which
        /// is taken instead of reading the variable (outside `was()`, where reading fails).
        own: bool,
        cost: u32,
        x: u32,
    },
    /// Calls the function under the `nargs` arguments on top.
    Call(u32),
    /// `upval(local op number)`, one op: `extra[x..x + 3]` are the callee's, the local's and
    /// the argument's spans.
    CallUpvalLocalNum {
        upval: u32,
        /// As [`Op::UpvalCallee`]'s.
        own: bool,
        /// `op` is `+` or `-` (decided by the compiler): a number's argument is `local + y`,
        /// `y` negated for `-` (`a - b` is `a + -b` in IEEE arithmetic, exactly), with no
        /// dispatch on the operator; the slow path negates it back.
        add: bool,
        /// With `own`: the running function's slots when it takes one parameter, not boxed
        /// (decided by the compiler, which knows the function whose body this is), so the call
        /// enters it with none of `enter`'s checks but the depth and the room; 0 otherwise.
        own_slots: u16,
        op: BinOp,
        slot: u32,
        y: f64,
        cost: u32,
        x: u32,
    },
    /// `was` & co.: fails when the host has no previous tick (before the argument runs).
    WasCheck(Was),
    /// `was` & co. after the current value (if any) is pushed: runs `subs[i]` against the
    /// previous tick and pushes the answer.
    WasEarlier(Was, u32),
    Jump(Pc),
    /// `break` / `continue`: drops the top `n` operands (what the loop's pass had not pushed
    /// when the `break` ran, counted by the compiler) and jumps.
    JumpTrunc(Pc, u32),
    /// Pops a condition; jumps when it is false.
    JumpIfFalse(Pc),
    /// Pays `cost`, then jumps to `target` unless `local op y` (`extra[x]` the local's span,
    /// `extra[x + 1]` the condition's).
    TestLocalCmp {
        op: BinOp,
        /// `op`'s accepted comparison results ([`crate::interp::accepts`]), decided by the
        /// compiler so the test reads them instead of deriving them from `op` every time.
        accepts: u8,
        slot: u32,
        y: f64,
        cost: u32,
        target: Pc,
        x: u32,
        /// The op after this one is a [`Op::ReturnLocal`] (`if local < 2 { local } else …` as a
        /// function's value; decided by the compiler, after its other passes): when the test
        /// passes, the dispatch loop's fast case runs that return too, without a dispatch of
        /// its own (it stays in place, and runs as itself when the fast case cannot).
        then_return: bool,
    },
    Pop,
    /// Enters a block: resets `blocks[i]`'s declared slots and creates its named functions.
    Enter(u32),
    /// Returns from a user function with the value on top.
    Return,
    /// [`Op::Binary`] then [`Op::Return`] (a function whose value is `a op b`), one op.
    ReturnBinary(BinOp),
    /// [`Op::ReturnBinary`] of `+`, its operator fixed by the compiler (no dispatch on it).
    ReturnAdd,
    /// [`Op::Local`] then [`Op::Return`] (a function whose value is a local).
    ReturnLocal(u32, u32),
    /// Ends a chunk (or a `was` argument) with the value on top.
    End,
    /// `local = v` / `local op= v`: the assignment `assigns[i]`, value on top.
    AssignLocal(u32),
    /// Any other assignment `assigns[i]`: the value, then the evaluated index keys on top.
    Assign(u32),
    /// `x op= number` / `x op= y` on local numbers, paying one node's step: then jumps to
    /// `skip`; otherwise runs the full assignment that follows.
    NumUpdate {
        slot: u32,
        op: BinOp,
        rhs: Operand,
        skip: Pc,
    },
    /// `for … in`: the popped value must be a list; pushes it and the next index.
    ForInStart,
    /// Pays a pass's step for the next item (slots `blocks[decls]` reset, then the index and
    /// the item stored), or pops the list and its index and jumps to `exit`.
    ForInNext {
        decls: u32,
        index: Option<u32>,
        item: u32,
        exit: Pc,
    },
    /// The end of a pass of a C-style `for` whose update is `x op= number`/`x op= y` and whose
    /// condition `local op number` (`loops[i]`): the update, the next pass's step and its
    /// condition in one op, jumping to the body or the exit. When the update's operands are
    /// not numbers it does nothing: the full update and the condition follow.
    LoopNext(u32),
    /// `break` / `continue` inside a `was` argument, which runs apart from its loop.
    BreakOut(bool),
}

/// What [`Op::Enter`] and the loops reset.
#[derive(Debug, Default)]
pub struct BlockDecls {
    pub decls: Vec<Decl>,
    /// Named functions: (slot, proto).
    pub hoisted: Vec<(u32, u32)>,
}

/// An assignment's target.
#[derive(Debug)]
pub struct AssignInfo {
    pub var: Var,
    pub name: Name,
    pub name_span: Span,
    pub op: Option<BinOp>,
    /// The path: `Some(key)` for `.key`, `None` for an index taken from the stack, with spans.
    pub path: Vec<(Option<Name>, Span)>,
}

/// An operand of [`Op::BinLeaves`]: a read without effects (a local, a number, or
/// `local op number`).
#[derive(Debug, Clone, Copy)]
pub enum Leaf {
    Local(u32),
    Num(f64),
    LocalNum(BinOp, u32, f64),
}

/// The parts of an [`Op::BinLeaves`]: the operator, each operand with its span and (for a
/// local) its local's span.
#[derive(Debug)]
pub struct BinInfo {
    pub op: BinOp,
    pub a: (Leaf, Span, Span),
    pub b: (Leaf, Span, Span),
}

/// The parts of an [`Op::LoopNext`].
#[derive(Debug)]
pub struct LoopInfo {
    /// The update `slot op= rhs`, its right-hand side's span.
    pub slot: u32,
    pub op: BinOp,
    pub rhs: Operand,
    pub rhs_span: Span,
    /// The pass's steps, paid at the loop's span.
    pub pass_cost: u32,
    pub span: Span,
    /// The condition `cmp_slot cmp y`, the local's and the condition's spans.
    pub cmp: BinOp,
    pub cmp_slot: u32,
    pub y: f64,
    pub local_span: Span,
    pub cond_span: Span,
    pub body: Pc,
    pub exit: Pc,
    /// The body when it is one `slot op= rhs` on locals that skips straight back to the
    /// `LoopNext` (`for …; …; i += 1 { s += i }`): a superinstruction chosen by the compiler
    /// after its peephole passes ([`crate::compile`]), whose passes the evaluator's fast loop
    /// runs back to back without dispatching between the update and `LoopNext`.
    pub one_update: Option<(u32, BinOp, Operand)>,
    /// With [`LoopInfo::one_update`]: the counter and the update's target are two slots, the
    /// condition reads the counter and the counter's step is no slot of the two (so across
    /// passes every other operand is constant): the fast loop then holds both in registers
    /// for whole passes (decided here, from the code; the values' kinds are checked once).
    pub held: bool,
}

/// One compiled function body, chunk or `was` argument.
#[derive(Debug, Default)]
pub struct Code {
    pub ops: Vec<Op>,
    pub spans: Vec<Span>,
    pub extra: Vec<Span>,
    pub names: Vec<Name>,
    pub keys: Vec<Vec<Name>>,
    pub blocks: Vec<BlockDecls>,
    pub assigns: Vec<AssignInfo>,
    pub subs: Vec<Code>,
    pub loops: Vec<LoopInfo>,
    pub bins: Vec<BinInfo>,
    /// Ops that also pay a parent node's steps ahead of their own (a [`Op::Burn`] folded into
    /// the op after it): (op, the parent's steps, the parent's span), by op.
    pub pre: Vec<(Pc, u32, Span)>,
}

impl Code {
    /// Where op `at` ran out of steps (or, `stopped`, met the host's time limit) when it had
    /// `fuel` left: at the parent whose steps it pays first if those were more than `fuel`
    /// (or crossed the time limit's polling point), else at the op itself.
    #[cold]
    pub fn pay_span(&self, at: usize, fuel: u64, stopped: bool) -> Span {
        if let Ok(i) = self.pre.binary_search_by_key(&(at as Pc), |p| p.0) {
            let (_, pre, span) = self.pre[i];
            let pre = pre as u64;
            let first = if stopped {
                fuel >= pre && alea_core::Cancel::poll(fuel, fuel - pre)
            } else {
                fuel < pre
            };
            if first {
                return span;
            }
        }
        self.spans[at]
    }
}
