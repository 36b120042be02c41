//! The resolved tree (`ir.rs`) to the flat form (`code.rs`), once per program: each node
//! becomes the ops that run it in evaluation order, each loop and `if` jumps. The
//! superinstructions the resolver chose (`local op number`, `if local < number`, calls of a
//! captured function) become single ops; a node's steps are paid where the tree paid them.
//!
//! The compiler counts the operands on the stack at each op (expressions push one, statements
//! none), so `break` and `continue` know how many to drop when they leave expressions.

use crate::ast::BinOp;
use crate::code::*;
use crate::ir::*;
use alea_core::Span;

struct Loop {
    /// Operands on the stack when a pass begins.
    height: u32,
    /// Each `break`'s op and the operands on the stack there.
    breaks: Vec<(usize, u32)>,
    continues: Vec<usize>,
}

struct Compiler {
    code: Code,
    height: u32,
    loops: Vec<Loop>,
    /// The [`Op::CallUpvalLocalNum`]'s `own_slots` of calls of the running function.
    own_slots: u16,
}

/// Compiles a function body (ends in [`Op::Return`]) of a function with `params` parameters,
/// of which one is boxed if `boxes_params`, and `slots` slots.
pub fn function(body: &Block, params: usize, boxes_params: bool, slots: u32) -> Code {
    let mut c = Compiler::new();
    if params == 1 && !boxes_params {
        c.own_slots = u16::try_from(slots).unwrap_or(0);
    }
    c.block_value(body);
    c.emit(Op::Return, Span::default(), -1);
    peephole(c.code)
}

/// Compiles a top-level chunk (ends in [`Op::End`]).
pub fn chunk(body: &Block) -> Code {
    let mut c = Compiler::new();
    c.block_value(body);
    c.emit(Op::End, Span::default(), -1);
    peephole(c.code)
}

/// Rewrites that keep every op where it is (jump targets stay valid): a jump to a return is
/// that return (an `if` that is a function's value ends in one), and a local read just before
/// a return is one op with it.
fn peephole(mut code: Code) -> Code {
    for pc in 0..code.ops.len() {
        if let Op::Jump(t) = code.ops[pc]
            && let Some(Op::Return) = code.ops.get(t as usize)
        {
            code.ops[pc] = Op::Return;
        }
    }
    for pc in 0..code.ops.len().saturating_sub(1) {
        if let (Op::Local(slot, cost), Op::Return) = (code.ops[pc], code.ops[pc + 1]) {
            code.ops[pc] = Op::ReturnLocal(slot, cost);
        }
    }
    #[cfg(test)]
    if NO_FOLD.get() {
        mark_one_update_loops(&mut code);
        return code;
    }
    fuse_binary_returns(&mut code);
    fold_burns(&mut code);
    mark_one_update_loops(&mut code);
    mark_tests_then_return(&mut code);
    code
}

/// Marks each [`Op::TestLocalCmp`] followed by an [`Op::ReturnLocal`] (`then_return`), as
/// finally compiled.
fn mark_tests_then_return(code: &mut Code) {
    for pc in 0..code.ops.len().saturating_sub(1) {
        let next_returns = matches!(code.ops[pc + 1], Op::ReturnLocal(..));
        if let Op::TestLocalCmp { then_return, .. } = &mut code.ops[pc] {
            *then_return = next_returns;
        }
    }
}

/// Which ops something jumps to (a jump, a loop's body or exit), by op (one past the end too).
fn jump_targets(code: &mut Code) -> Vec<bool> {
    let mut target = vec![false; code.ops.len() + 1];
    for op in &mut code.ops {
        if let Some(t) = targets(op) {
            target[*t as usize] = true;
        }
    }
    for l in &code.loops {
        target[l.body as usize] = true;
        target[l.exit as usize] = true;
    }
    target
}

/// `a op b` just before a return is one op with it ([`Op::ReturnBinary`], [`Op::ReturnAdd`]), unless something
/// jumps to that return (it stays, for the jumps; only the fused op's own path skips it).
fn fuse_binary_returns(code: &mut Code) {
    let target = jump_targets(code);
    for pc in 0..code.ops.len().saturating_sub(1) {
        if let (Op::Binary(op), Op::Return) = (code.ops[pc], code.ops[pc + 1])
            && !target[pc + 1]
        {
            code.ops[pc] = match op {
                BinOp::Add => Op::ReturnAdd,
                op => Op::ReturnBinary(op),
            };
        }
    }
}

/// Records each counted loop whose body, as finally compiled, is one numeric update that
/// skips straight back to its `LoopNext` ([`LoopInfo::one_update`]), so the evaluator never
/// inspects the code to find out.
fn mark_one_update_loops(code: &mut Code) {
    for pc in 0..code.ops.len() {
        let Op::LoopNext(i) = code.ops[pc] else {
            continue;
        };
        let l = &code.loops[i as usize];
        let update = match code.ops.get(l.body as usize) {
            Some(&Op::NumUpdate {
                slot,
                op,
                rhs,
                skip,
            }) if skip as usize == pc => Some((slot, op, rhs)),
            _ => None,
        };
        let counter = l.slot;
        let held = match update {
            Some((target, _, _)) => {
                target != counter
                    && l.cmp_slot == counter
                    && match l.rhs {
                        Operand::Num(_) => true,
                        Operand::Local(y) => y != counter && y != target,
                    }
            }
            None => false,
        };
        code.loops[i as usize].one_update = update;
        code.loops[i as usize].held = held;
    }
}

/// A node as an operand of [`Op::BinLeaves`]: a leaf whose steps its parent took over.
fn leaf(n: &Node) -> Option<(Leaf, Span, Span)> {
    #[cfg(test)]
    if NO_FOLD.get() {
        return None;
    }
    if n.cost != 0 {
        return None;
    }
    let leaf = match n.kind {
        NodeKind::Local(slot) => (Leaf::Local(slot), n.span, n.span),
        NodeKind::Const(Const::Number(x)) => (Leaf::Num(x), n.span, n.span),
        NodeKind::LocalNum(op, slot, y, local_span) => {
            (Leaf::LocalNum(op, slot, y), n.span, local_span)
        }
        _ => return None,
    };
    Some(leaf)
}

#[cfg(test)]
thread_local! {
    /// Compiles without [`fold_burns`], [`Op::BinLeaves`] and [`Op::ReturnBinary`] / [`Op::ReturnAdd`], and runs loops without the
    /// evaluator's `fast_loop`: the oracle of the test below (set while compiling and running).
    pub(crate) static NO_FOLD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The jump targets of an op.
fn targets(op: &mut Op) -> Option<&mut Pc> {
    match op {
        Op::Jump(t)
        | Op::JumpTrunc(t, _)
        | Op::JumpIfFalse(t)
        | Op::AndOr { end: t, .. }
        | Op::TestLocalCmp { target: t, .. }
        | Op::NumUpdate { skip: t, .. }
        | Op::ForInNext { exit: t, .. } => Some(t),
        _ => None,
    }
}

/// The steps an op pays first, if it pays any.
fn cost_of(op: &mut Op) -> Option<&mut u32> {
    match op {
        Op::Const(_, c)
        | Op::Local(_, c)
        | Op::Upval(_, c)
        | Op::Global(_, c)
        | Op::Func(_, c)
        | Op::ReturnLocal(_, c)
        | Op::BinLeaves(_, c)
        | Op::LocalNum { cost: c, .. }
        | Op::UpvalCallee { cost: c, .. }
        | Op::CallUpvalLocalNum { cost: c, .. }
        | Op::TestLocalCmp { cost: c, .. } => Some(c),
        _ => None,
    }
}

/// A node's [`Op::Burn`] followed by its first child's op (which pays steps itself, often
/// none: a leaf whose steps its parent took over) becomes that op paying both, one dispatch
/// and one charge fewer; [`Code::pre`] keeps where the steps would have run out. Not when
/// something jumps to the child's op (it would pay the parent's steps again).
fn fold_burns(code: &mut Code) {
    let n = code.ops.len();
    let target = jump_targets(code);
    let mut keep = vec![true; n];
    let mut pre = Vec::new();
    for pc in 0..n.saturating_sub(1) {
        if let Op::Burn(b) = code.ops[pc]
            && !target[pc + 1]
            && let Some(c) = cost_of(&mut code.ops[pc + 1])
        {
            *c += b;
            keep[pc] = false;
            pre.push((pc + 1, b, code.spans[pc]));
        }
    }
    if pre.is_empty() {
        return;
    }
    // Old positions to new: a removed burn's position is its op's.
    let mut new_pc = vec![0 as Pc; n + 1];
    let mut next = 0;
    for pc in 0..n {
        new_pc[pc] = next;
        if keep[pc] {
            next += 1;
        }
    }
    new_pc[n] = next;
    let ops = std::mem::take(&mut code.ops);
    let spans = std::mem::take(&mut code.spans);
    for (pc, (mut op, span)) in ops.into_iter().zip(spans).enumerate() {
        if !keep[pc] {
            continue;
        }
        if let Some(t) = targets(&mut op) {
            *t = new_pc[*t as usize];
        }
        code.ops.push(op);
        code.spans.push(span);
    }
    for l in &mut code.loops {
        l.body = new_pc[l.body as usize];
        l.exit = new_pc[l.exit as usize];
    }
    code.pre = pre
        .into_iter()
        .map(|(pc, b, span)| (new_pc[pc], b, span))
        .collect();
}

impl Compiler {
    fn new() -> Compiler {
        Compiler {
            code: Code::default(),
            height: 0,
            loops: Vec::new(),
            own_slots: 0,
        }
    }

    fn here(&self) -> Pc {
        self.code.ops.len() as Pc
    }

    /// Appends an op that changes the number of operands by `delta`; returns where it is.
    fn emit(&mut self, op: Op, span: Span, delta: i32) -> usize {
        self.code.ops.push(op);
        self.code.spans.push(span);
        self.height = (self.height as i32 + delta) as u32;
        self.code.ops.len() - 1
    }

    fn extra(&mut self, spans: &[Span]) -> u32 {
        let x = self.code.extra.len() as u32;
        self.code.extra.extend_from_slice(spans);
        x
    }

    fn name(&mut self, name: &Name) -> u32 {
        self.code.names.push(name.clone());
        self.code.names.len() as u32 - 1
    }

    fn burn(&mut self, cost: u32, span: Span) {
        // Paying nothing cannot run out: no op.
        if cost > 0 {
            self.emit(Op::Burn(cost), span, 0);
        }
    }

    /// Points the jump at `at` to `target`.
    fn patch(&mut self, at: usize, target: Pc) {
        match &mut self.code.ops[at] {
            Op::Jump(t)
            | Op::JumpTrunc(t, _)
            | Op::JumpIfFalse(t)
            | Op::AndOr { end: t, .. }
            | Op::TestLocalCmp { target: t, .. }
            | Op::NumUpdate { skip: t, .. }
            | Op::ForInNext { exit: t, .. } => *t = target,
            _ => {}
        }
    }

    fn block_decls(&mut self, decls: &[Decl], hoisted: &[(u32, u32)]) -> u32 {
        self.code.blocks.push(BlockDecls {
            decls: decls.to_vec(),
            hoisted: hoisted.to_vec(),
        });
        self.code.blocks.len() as u32 - 1
    }

    fn block_head(&mut self, b: &Block) {
        if b.declares {
            let i = self.block_decls(&b.decls, &b.hoisted);
            self.emit(Op::Enter(i), Span::default(), 0);
        }
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    /// A block whose value is kept (pushes one operand).
    fn block_value(&mut self, b: &Block) {
        self.block_head(b);
        match &b.tail {
            Some(e) => self.expr(e),
            None => {
                self.emit(Op::Const(Const::Nothing, 0), Span::default(), 1);
            }
        }
    }

    /// A loop body: its value is dropped.
    fn body(&mut self, b: &Block) {
        self.block_head(b);
        if let Some(e) = &b.tail {
            self.expr(e);
            self.emit(Op::Pop, e.span, -1);
        }
    }

    /// A condition that jumps when false, paying `cost` first at `span`; returns the jump.
    fn test(&mut self, cond: &Cond, cost: u32, span: Span) -> usize {
        match cond {
            Cond::LocalCmp {
                op,
                slot,
                y,
                local_span,
                span: cond_span,
            } => {
                let x = self.extra(&[*local_span, *cond_span]);
                let op = Op::TestLocalCmp {
                    op: *op,
                    accepts: crate::interp::accepts(*op),
                    slot: *slot,
                    y: *y,
                    cost,
                    target: 0,
                    x,
                    then_return: false,
                };
                self.emit(op, span, 0)
            }
            Cond::Value(node) => {
                self.burn(cost, span);
                self.expr(node);
                self.emit(Op::JumpIfFalse(0), node.span, -1)
            }
        }
    }

    fn expr(&mut self, n: &Node) {
        let span = n.span;
        let cost = n.cost;
        match &n.kind {
            NodeKind::Const(c) => {
                self.emit(Op::Const(*c, cost), span, 1);
            }
            NodeKind::Local(slot) => {
                self.emit(Op::Local(*slot, cost), span, 1);
            }
            NodeKind::Upval(i) => {
                self.emit(Op::Upval(*i, cost), span, 1);
            }
            NodeKind::Global(name) => {
                let i = self.name(name);
                self.emit(Op::Global(i, cost), span, 1);
            }
            NodeKind::LocalNum(op, slot, y, local_span) => {
                let x = self.extra(&[*local_span]);
                let op = Op::LocalNum {
                    op: *op,
                    slot: *slot,
                    y: *y,
                    cost,
                    x,
                };
                self.emit(op, span, 1);
            }
            NodeKind::Func(i) => {
                self.emit(Op::Func(*i, cost), span, 1);
            }
            NodeKind::List(items) => {
                self.burn(cost, span);
                for item in items {
                    self.expr(item);
                }
                self.emit(
                    Op::MakeList(items.len() as u32),
                    span,
                    1 - items.len() as i32,
                );
            }
            NodeKind::Object(entries) => {
                self.burn(cost, span);
                for (_, v) in entries {
                    self.expr(v);
                }
                self.code
                    .keys
                    .push(entries.iter().map(|(k, _)| k.clone()).collect());
                let keys = self.code.keys.len() as u32 - 1;
                self.emit(Op::MakeObject(keys), span, 1 - entries.len() as i32);
            }
            NodeKind::Unary(op, e) => {
                self.burn(cost, span);
                self.expr(e);
                self.emit(Op::Unary(*op), span, 0);
            }
            NodeKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                self.burn(cost, span);
                self.expr(a);
                let x = self.extra(&[a.span]);
                let at = self.emit(Op::AndOr { op: *op, end: 0, x }, span, -1);
                self.expr(b);
                self.emit(Op::NeedBool(*op), b.span, 0);
                let end = self.here();
                self.patch(at, end);
            }
            NodeKind::Binary(op, a, b) if leaf(a).is_some() && leaf(b).is_some() => {
                let (Some(la), Some(lb)) = (leaf(a), leaf(b)) else {
                    return;
                };
                self.code.bins.push(BinInfo {
                    op: *op,
                    a: la,
                    b: lb,
                });
                let i = self.code.bins.len() as u32 - 1;
                self.emit(Op::BinLeaves(i, cost), span, 1);
            }
            NodeKind::Binary(op, a, b) => {
                self.burn(cost, span);
                self.expr(a);
                self.expr(b);
                self.emit(Op::Binary(*op), span, -1);
            }
            NodeKind::If(cond, then, els) => {
                let test = self.test(cond, cost, span);
                self.block_value(then);
                let jump = self.emit(Op::Jump(0), span, -1);
                let else_at = self.here();
                self.patch(test, else_at);
                match els {
                    Some(e) => self.expr(e),
                    None => {
                        self.emit(Op::Const(Const::Nothing, 0), span, 1);
                    }
                }
                let end = self.here();
                self.patch(jump, end);
            }
            NodeKind::Block(b) => {
                self.burn(cost, span);
                self.block_value(b);
            }
            NodeKind::Member(obj, name) => {
                self.burn(cost, span);
                self.expr(obj);
                let i = self.name(name);
                self.emit(Op::Member(i), span, 0);
            }
            NodeKind::Method(obj, name, args) => {
                self.burn(cost, span);
                self.expr(obj);
                for a in args {
                    self.expr(a);
                }
                let i = self.name(name);
                self.emit(Op::Method(i, args.len() as u32), span, -(args.len() as i32));
            }
            NodeKind::Index(obj, index) => {
                self.burn(cost, span);
                self.expr(obj);
                self.expr(index);
                self.emit(Op::Index, span, -1);
            }
            NodeKind::Call(callee, args) => {
                self.burn(cost, span);
                self.expr(callee);
                self.emit(Op::CheckCallee, callee.span, 0);
                for a in args {
                    self.expr(a);
                }
                self.emit(Op::Call(args.len() as u32), span, -(args.len() as i32));
            }
            NodeKind::CallUpval(i, callee_span, args, own) => {
                let x = self.extra(&[*callee_span]);
                let op = Op::UpvalCallee {
                    i: *i,
                    own: *own,
                    cost,
                    x,
                };
                self.emit(op, span, 1);
                for a in args {
                    self.expr(a);
                }
                self.emit(Op::Call(args.len() as u32), span, -(args.len() as i32));
            }
            NodeKind::CallUpvalLocalNum {
                upval,
                own,
                callee_span,
                op,
                slot,
                y,
                local_span,
                arg_span,
            } => {
                let x = self.extra(&[*callee_span, *local_span, *arg_span]);
                let add = matches!(op, BinOp::Add | BinOp::Sub);
                let op = Op::CallUpvalLocalNum {
                    upval: *upval,
                    own: *own,
                    add,
                    own_slots: if *own { self.own_slots } else { 0 },
                    op: *op,
                    slot: *slot,
                    y: if *op == BinOp::Sub { -*y } else { *y },
                    cost,
                    x,
                };
                self.emit(op, span, 1);
            }
            NodeKind::CallBuiltin(b, args) => {
                self.burn(cost, span);
                for a in args {
                    self.expr(a);
                }
                let op = Op::CallBuiltin(*b, args.len() as u32);
                self.emit(op, span, 1 - args.len() as i32);
            }
            NodeKind::Was(kind, arg) => {
                self.burn(cost, span);
                self.emit(Op::WasCheck(*kind), span, 0);
                let mut delta = 1;
                if *kind != Was::Was {
                    self.expr(arg);
                    delta = 0;
                }
                // The argument once more, run apart against the previous tick (its errors
                // are answers there, not failures of the run).
                let mut sub = Compiler::new();
                sub.expr(arg);
                sub.emit(Op::End, arg.span, -1);
                self.code.subs.push(sub.code);
                let i = self.code.subs.len() as u32 - 1;
                self.emit(Op::WasEarlier(*kind, i), span, delta);
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        let span = s.span;
        match &s.kind {
            StmtKind::Expr(e) => {
                self.expr(e);
                self.emit(Op::Pop, e.span, -1);
            }
            StmtKind::Assign {
                var,
                name,
                name_span,
                path,
                op,
                value,
            } => {
                self.expr(value);
                let mut keys = Vec::with_capacity(path.len());
                for step in path {
                    match step {
                        PathIr::Key(k, s) => keys.push((Some(k.clone()), *s)),
                        PathIr::Index(e) => {
                            self.expr(e);
                            keys.push((None, e.span));
                        }
                    }
                }
                let indexed = keys.iter().filter(|(k, _)| k.is_none()).count() as i32;
                let local = matches!(var, Var::Local(_)) && path.is_empty();
                self.code.assigns.push(AssignInfo {
                    var: var.clone(),
                    name: name.clone(),
                    name_span: *name_span,
                    op: *op,
                    path: keys,
                });
                let i = self.code.assigns.len() as u32 - 1;
                let op = if local {
                    Op::AssignLocal(i)
                } else {
                    Op::Assign(i)
                };
                self.emit(op, span, -1 - indexed);
            }
            StmtKind::NumUpdate {
                slot,
                op,
                rhs,
                rhs_span,
                full,
            } => {
                let op = Op::NumUpdate {
                    slot: *slot,
                    op: *op,
                    rhs: *rhs,
                    skip: 0,
                };
                let at = self.emit(op, *rhs_span, 0);
                self.stmt(full);
                let end = self.here();
                self.patch(at, end);
            }
            StmtKind::While {
                cond,
                pass_cost,
                body,
            } => {
                let head = self.here();
                let exit = self.test(cond, *pass_cost, span);
                self.loop_body(body, self.height);
                self.patch_continues(head);
                self.emit(Op::Jump(head), span, 0);
                self.end_loop(exit);
            }
            StmtKind::ForC {
                decls,
                init,
                cond,
                pass_cost,
                update,
                body,
            } => {
                if !decls.is_empty() {
                    let i = self.block_decls(decls, &[]);
                    self.emit(Op::Enter(i), span, 0);
                }
                if let Some(init) = init {
                    self.stmt(init);
                }
                if let (
                    Some(Stmt {
                        kind:
                            StmtKind::NumUpdate {
                                slot,
                                op,
                                rhs,
                                rhs_span,
                                full,
                            },
                        ..
                    }),
                    Cond::LocalCmp {
                        op: cmp,
                        slot: cmp_slot,
                        y,
                        local_span,
                        span: cond_span,
                    },
                ) = (update.as_deref(), cond)
                {
                    // The counted loop: the body, then one op for the update, the next pass's
                    // step and its condition; the first pass (and any pass whose update is
                    // not on numbers) goes through the plain update and condition.
                    let first = self.emit(Op::Jump(0), span, 0);
                    let body_at = self.here();
                    self.loop_body(body, self.height);
                    let cont = self.here();
                    self.patch_continues(cont);
                    self.code.loops.push(LoopInfo {
                        slot: *slot,
                        op: *op,
                        rhs: *rhs,
                        rhs_span: *rhs_span,
                        pass_cost: *pass_cost,
                        span,
                        cmp: *cmp,
                        cmp_slot: *cmp_slot,
                        y: *y,
                        local_span: *local_span,
                        cond_span: *cond_span,
                        body: body_at,
                        exit: 0,
                        one_update: None,
                        held: false,
                    });
                    let i = self.code.loops.len() - 1;
                    self.emit(Op::LoopNext(i as u32), span, 0);
                    self.stmt(full);
                    let test_at = self.here();
                    self.patch(first, test_at);
                    let exit = self.test(cond, *pass_cost, span);
                    self.emit(Op::Jump(body_at), span, 0);
                    self.end_loop(exit);
                    self.code.loops[i].exit = self.here();
                    return;
                }
                let head = self.here();
                let exit = self.test(cond, *pass_cost, span);
                self.loop_body(body, self.height);
                let cont = self.here();
                self.patch_continues(cont);
                if let Some(update) = update {
                    self.stmt(update);
                }
                self.emit(Op::Jump(head), span, 0);
                self.end_loop(exit);
            }
            StmtKind::ForIn {
                decls,
                index,
                item,
                list,
                body,
            } => {
                let before = self.height;
                self.expr(list);
                self.emit(Op::ForInStart, list.span, 1);
                let head = self.here();
                let decls = self.block_decls(decls, &[]);
                let next = Op::ForInNext {
                    decls,
                    index: *index,
                    item: *item,
                    exit: 0,
                };
                let at = self.emit(next, span, 0);
                self.loop_body(body, self.height);
                self.patch_continues(head);
                self.emit(Op::Jump(head), span, 0);
                // The list and its index are gone at the exit, also after `break`.
                self.height = before;
                let lp = self.loops.pop().expect("pushed by loop_body");
                let exit = self.here();
                self.patch(at, exit);
                for (b, height) in lp.breaks {
                    self.code.ops[b] = Op::JumpTrunc(exit, height - before);
                }
            }
            StmtKind::Break | StmtKind::Continue => {
                let is_break = matches!(s.kind, StmtKind::Break);
                let Some(lp) = self.loops.last() else {
                    // Inside a `was` argument: the loop is in the code around it.
                    self.emit(Op::BreakOut(is_break), span, 0);
                    return;
                };
                // The operands above the pass's are dropped (the compiler knows how many).
                let drop = self.height - lp.height;
                let at = self.emit(Op::JumpTrunc(0, drop), span, 0);
                let height = self.height;
                let lp = self.loops.last_mut().expect("checked above");
                if is_break {
                    lp.breaks.push((at, height));
                } else {
                    lp.continues.push(at);
                }
            }
        }
    }

    /// A loop's body, with a new loop context (left on `loops` for the caller to finish).
    fn loop_body(&mut self, body: &Block, height: u32) {
        self.loops.push(Loop {
            height,
            breaks: Vec::new(),
            continues: Vec::new(),
        });
        self.body(body);
    }

    fn patch_continues(&mut self, target: Pc) {
        let lp = self.loops.last_mut().expect("in a loop");
        let continues = std::mem::take(&mut lp.continues);
        for c in continues {
            self.patch(c, target);
        }
    }

    /// Ends a `while` or C-style `for`: its condition's jump and the `break`s go here.
    fn end_loop(&mut self, exit: usize) {
        let lp = self.loops.pop().expect("pushed by loop_body");
        let end = self.here();
        self.patch(exit, end);
        for (b, _) in lp.breaks {
            self.patch(b, end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NO_FOLD;
    use crate::{Env, Program};

    /// `src` compiled plain (no folding, no two-leaf op, no fast loop) and as shipped.
    fn plain_and_folded(src: &str) -> (Program, Program) {
        NO_FOLD.set(true);
        let plain = Program::compile(src);
        NO_FOLD.set(false);
        let folded = Program::compile(src);
        // A source this test's author got wrong would test nothing: say so.
        match (plain, folded) {
            (Ok(p), Ok(f)) => (p, f),
            _ => panic!("{src} does not compile"),
        }
    }

    /// The displayed value and steps, or the error and its span, of one run with `fuel` steps;
    /// `plain` runs every op in full (`Interp::step`: no fast case of the dispatch loop, no
    /// fast loop).
    fn outcome(
        p: &Program,
        plain: bool,
        fuel: u64,
    ) -> Result<(String, u64), (String, alea_core::Span)> {
        let env = Env {
            fuel,
            ..Env::default()
        };
        NO_FOLD.set(plain);
        let r = match p.run_display(&env) {
            Ok(o) => Ok((o.text, o.steps)),
            Err(e) => Err((e.message, e.span)),
        };
        NO_FOLD.set(false);
        r
    }

    /// Folding a node's steps into its first child's op, and reading leaves in place, change
    /// no outcome: at every step
    /// budget from none to enough, the same value, or the same error at the same span.
    #[test]
    fn folded_steps_run_out_where_the_tree_did() {
        let sources = [
            "func fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }; fib(6)",
            "s = 0; for i = 0; i < 10; i += 1 { s += i * 2 - 1 }; s",
            "[1, 2, 3, 4].map(func(x) { x * 7 % 10 }).where(func(x) { x % 2 == 0 }).sort()",
            "x = 3; y = [x + 1, {a: x * 2}, \"t\" + x]; y[1].a + y[0] + (if x > 2 && x < 5 { 1 } else { 0 })",
            "n = 0; while n < 5 { n += 1; if n == 3 { continue } }; -n + (n * n) % 4",
            "f = func(a, b) { a + b * 2 }; f(1, 2) + f(f(3, 4), 5)",
            "t = \"\"; for x in [1, 2, 3] { t += x; t = t + \"-\" }; t.count + nope",
            "g = func(k) { if k > 0 { g(k - 1) + 1 } else { \"a\" + k } }; g(4)",
            "a = 2; b = \"x\"; c = a * 3 < a + 7; d = (a % 3) - a / 4; e = a + 1 == 3; b + a * 2 + nope",
            "u = 1; v = [u - 2 > 0, u + u, u * 2 % 3]; w = v[0] == false; q = true; q + 1",
            "k = 0; for i = 0; i < 300; i += 1 { }; j = 0; while j < 200 { j += 2; k -= j }; k",
            // Bodies of one update (fast_loop's inner pass loop): on the counter itself, on a
            // text (the update leaves the tight loop after the pass's end was paid), by a local.
            "for i = 0; i < 30; i += 1 { i += 2 }; t = \"a\"; for i = 0; i < 4; i += 1 { t += i }; t",
            "d = 3; m = 1; for i = 1; i <= 12; i *= 2 { m *= d }; for k = 9; k > 0; k -= d { m -= k }; m",
            // Held passes (counter and target in registers): the update reading its own
            // target, `%` and `-`, a step that is a local, a condition other than `<`.
            "m = 1; for i = 0; i < 20; i += 1 { m += m }; r = 500; for j = 1; j < 50; j += 3 { r %= j }; m + r",
            "d = 2; q = 0; for k = 90; k >= 0; k -= d { q -= k }; for k = 0; k != 7; k += 1 { q /= 2 }; q",
            // Calls and returns (the evaluator's fast cases against every op run in full): a
            // wrong argument count, a text through `ReturnAdd`, a truth value as argument,
            // the depth limit, a recursive function called through a variable (not its own
            // name), returns of a text local and of a comparison.
            "func f(a, b) { if a > 0 { f(a - 1) } else { 0 } }; f(3, 1)",
            "func h(n) { if n < 1 { \"x\" } else { h(n - 1) + n } }; h(5)",
            "func c(n) { if n == true { 1 } else { c(n < 5) } }; c(3) + c(9)",
            "func d(n) { d(n + 1) }; d(0)",
            "func mk() { g = func(x) { if x < 1 { 0 } else { g(x - 1) + 2 } }; g }; mk()(3)",
            "func t(s, n) { if n < 1 { s } else { t(s + n, n - 1) } }; e = func(a, b) { a < b }; [t(\"\", 3), e(1, 2)]",
            // Own calls keep the running closure: callbacks, captures and names inside them.
            "func r(n) { if n < 1 { [1].map(func(x) { x + n }) } else { r(n - 1) + [n] } }; r(3)",
            "func e(n) { if n < 1 { m + 1 } else { e(n - 1) } }; e(3)",
            // A captured (boxed) parameter, and more slots than parameters.
            "func b(n) { g = func() { n }; if n < 1 { g() } else { b(n - 1) + g() } }; b(3)",
            "func s(n) { k = n * 2; if n < 1 { k } else { s(n - 1) + k } }; s(4) + s(-1)",
        ];
        for src in sources {
            let (plain, folded) = plain_and_folded(src);
            let mut fuel = 0;
            loop {
                let want = outcome(&plain, true, fuel);
                assert_eq!(
                    outcome(&folded, false, fuel),
                    want,
                    "{src} with {fuel} steps"
                );
                if want.is_ok() || fuel > 5000 {
                    break;
                }
                fuel += 1;
            }
        }
    }

    /// The same across the step budget's polling points (every `POLL_STEPS` steps, where the
    /// tight loop hands over to the dispatch loop) and the end of a long loop's budget.
    #[test]
    fn long_loops_stop_where_the_plain_loop_does() {
        let src = "s = 0; for i = 0; i < 40000; i += 1 { s += i }; w = 0; while w < 9000 { w += 1 }; s + w";
        let (plain, folded) = plain_and_folded(src);
        let poll = alea_core::POLL_STEPS;
        let budgets = (0..40)
            .flat_map(|k| [poll + k, 2 * poll + k, 3 * poll - k, 209_000 + 10 * k])
            .chain([250_000, 1 << 20]);
        for fuel in budgets {
            assert_eq!(
                outcome(&folded, false, fuel),
                outcome(&plain, true, fuel),
                "{fuel} steps"
            );
        }
    }
}
