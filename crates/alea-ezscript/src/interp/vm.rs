//! The one dispatch loop over [`Code`]: every op of every function runs here; a user call
//! pushes a [`Frame`] and continues in the callee's code, a return pops it, so EZScript
//! recursion never recurses natively. Native code re-enters the loop only to call a user
//! function for a list method (a callback, counted by `nested`) and for a `was` argument
//! (nested only as deep as the source; callbacks inside it are counted like any other).
//! Every op or case the loop does not do itself runs in [`Interp::step`] (`step.rs`), undone
//! before: one full implementation of each op. Loop passes on plain numbers run in
//! [`Interp::fast_loop`], a small function whose state stays in registers.

use super::{
    Closure, Flow, Interp, R, Slot, arith, compare_accepts, compare_num, fail, is_comparison,
};
use crate::ast::{BinOp, UnOp};
use crate::code::{BinInfo, Code, Leaf, LoopInfo, Op};
use crate::ir::{Const, Operand, cost};
use crate::value::{Map, Value};
use alea_core::Span;
use std::rc::Rc;
use std::sync::Arc;

/// `a op= b` on two local numbers, for both fast paths of compound assignment (the parser
/// makes only `+=`, `-=`, `*=`, `/=` and `%=`). The same results as [`super::num_op`]
/// without building a value.
#[inline(always)]
pub(super) fn compound(op: BinOp, a: f64, b: f64) -> f64 {
    match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => a / b,
        _ => super::rem(a, b),
    }
}

/// Pushes onto a vector whose room is checked first, growing out of line. Within the check the
/// push cannot grow, so nothing is called while the value exists and it is written straight
/// into the buffer; otherwise it is built on the native stack in two stores (tag, payload) and
/// copied with one 16-byte load, which the CPU cannot forward from them (a stall per push).
#[inline(always)]
pub(super) fn push_fast<T>(v: &mut Vec<T>, x: T) {
    if v.len() < v.capacity() {
        v.push(x);
    } else {
        push_grow(v, x);
    }
}

/// A step budget as its polling point at or below it (a multiple of
/// [`alea_core::POLL_STEPS`]) and the steps above that point.
#[inline(always)]
pub(super) fn split_fuel(fuel: u64) -> (u64, u64) {
    let below = fuel & (alea_core::POLL_STEPS - 1);
    (fuel - below, below)
}

#[cold]
#[inline(never)]
pub(super) fn push_grow<T>(v: &mut Vec<T>, x: T) {
    v.push(x);
}

/// Where a run goes on after an op run in full ([`Interp::step`]).
pub(super) enum Next<'a> {
    /// At `pc` of this code.
    Go(&'a Code, usize),
    /// Nowhere: the run's value.
    Done(Value),
}

impl<'a> Interp<'a> {
    /// Pushes `x op y`. Each arm pushes a value of a known kind: a value merged from branches
    /// would be built in memory byte by byte and copied whole, which stalls the CPU's store
    /// forwarding (measured: a third of fib's time).
    #[inline(always)]
    pub(super) fn push_num_op(&mut self, op: BinOp, x: f64, y: f64) {
        if is_comparison(op) {
            push_fast(&mut self.operands, Value::Bool(compare_num(op, x, y)));
        } else {
            push_fast(&mut self.operands, Value::Number(arith(op, x, y)));
        }
    }

    #[inline(always)]
    pub(super) fn pop(&mut self) -> Value {
        self.operands.pop().unwrap_or_default()
    }

    /// Leaves the running function, whose slots are dropped: back in its caller's frame (its
    /// code and position returned), or none when the caller is native (no frame of this run:
    /// `start` is where they begin). The one return of both [`Interp::run`] and
    /// [`Interp::step`].
    #[inline(always)]
    pub(super) fn leave(&mut self, start: usize) -> Option<(&'a Code, usize)> {
        self.pop_slots(self.base);
        if self.nframes == start {
            return None;
        }
        self.nframes -= 1;
        let frame = &mut self.frames[self.nframes];
        let to = (frame.code, frame.pc as usize);
        self.base = frame.base;
        if !frame.same {
            self.closure = frame.closure.take();
        }
        Some(to)
    }

    /// Runs `code` in the current frame until it ends ([`Op::End`]) or the frame it runs in
    /// returns ([`Op::Return`] with no caller pushed by this run). On an error the frames
    /// this run pushed are left for the caller to unwind.
    ///
    /// The dispatch loop here is small: it runs the common case of the common ops (plain
    /// numbers, calls of user functions, returns) and nothing else, so its state (the code,
    /// the position, the steps) stays in registers. Any other op or case it leaves undone and
    /// runs in full out of line ([`Interp::step`], the one implementation of every op); a fast
    /// case does exactly what `step` does in that case, checking everything it needs before
    /// doing anything. Inside `was()` (no locals readable) every op runs in full, and so in
    /// the tests' plain runs (`compile::NO_FOLD`), the oracle the fast cases are compared with.
    pub(super) fn run(&mut self, code: &'a Code) -> R<Value> {
        let start = self.nframes;
        let mut code = code;
        let mut pc = 0usize;
        #[cfg(test)]
        let full = self.forbid_locals.is_some() || crate::compile::NO_FOLD.get();
        #[cfg(not(test))]
        let full = self.forbid_locals.is_some();
        if full {
            loop {
                match self.step(start, code, pc)? {
                    Next::Go(c, p) => (code, pc) = (c, p),
                    Next::Done(v) => return Ok(v),
                }
            }
        }
        let (mut mark, mut left) = split_fuel(self.fuel);
        // A call enters at once while the frames below this are fewer: within the depth limit
        // and a frame to write in place (else `step` pushes one).
        let mut frame_limit = self.frame_limit();
        // Pays `$n` steps, or leaves the op to `step` (nothing done yet) when they cross a
        // polling point or run out.
        macro_rules! pay {
            ($n:expr, $full:lifetime) => {
                match left.checked_sub($n as u64) {
                    Some(l) => left = l,
                    None => break $full,
                }
            };
        }
        // Returns `$v` (a value made only now, after the frame is popped: see `push_fast`).
        macro_rules! ret {
            ($v:expr) => {{
                match self.leave(start) {
                    Some((c, p)) => {
                        (code, pc) = (c, p);
                        push_fast(&mut self.operands, $v);
                    }
                    None => {
                        self.fuel = mark + left;
                        return Ok($v);
                    }
                }
            }};
        }
        'ops: loop {
            let at = pc;
            'full: {
                pc = at + 1;
                match code.ops[at] {
                    Op::Burn(n) => pay!(n, 'full),
                    Op::Const(Const::Number(x), n) => {
                        pay!(n, 'full);
                        push_fast(&mut self.operands, Value::Number(x));
                    }
                    Op::Local(slot, n) => match &self.stack[self.base + slot as usize] {
                        Slot::Val(Value::Number(x)) => {
                            let x = *x;
                            pay!(n, 'full);
                            push_fast(&mut self.operands, Value::Number(x));
                        }
                        _ => break 'full,
                    },
                    Op::LocalNum {
                        op,
                        slot,
                        y,
                        cost: n,
                        ..
                    } => match &self.stack[self.base + slot as usize] {
                        Slot::Val(Value::Number(a)) => {
                            let a = *a;
                            pay!(n, 'full);
                            self.push_num_op(op, a, y);
                        }
                        _ => break 'full,
                    },
                    Op::Binary(op) => match self.two_numbers() {
                        Some((a, b)) => self.push_num_op(op, a, b),
                        None => break 'full,
                    },
                    Op::BinLeaves(i, n) => {
                        let bin = &code.bins[i as usize];
                        match (self.leaf_num(bin.a.0), self.leaf_num(bin.b.0)) {
                            (Some(x), Some(y)) => {
                                pay!(n, 'full);
                                self.push_num_op(bin.op, x, y);
                            }
                            _ => break 'full,
                        }
                    }
                    Op::CallUpvalLocalNum {
                        upval,
                        own,
                        add: true,
                        own_slots,
                        slot,
                        y,
                        cost: n,
                        ..
                    } => {
                        let Slot::Val(Value::Number(a)) = &self.stack[self.base + slot as usize]
                        else {
                            break 'full;
                        };
                        let a = *a;
                        // The callee (none: the running closure, which stays the running
                        // one), its code and its slots, with `enter`'s checks passed at once
                        // (or the call runs in full). A call of the running function whose
                        // entry the compiler checked (`own_slots`) has none left to pass.
                        let (f, callee, slots) = if own_slots != 0 {
                            (None, code, own_slots as usize)
                        } else {
                            let f = match (own, self.closure.as_deref()) {
                                (true, Some(_)) => None,
                                (false, Some(Closure::User { captures, .. })) => match captures
                                    .get(upval as usize)
                                    .map(|c| c.borrow())
                                    .as_deref()
                                {
                                    Some(Some(Value::Function(f))) => Some(f.clone()),
                                    _ => break 'full,
                                },
                                _ => break 'full,
                            };
                            let Some(Closure::User { index, proto, .. }) =
                                f.as_deref().or(self.closure.as_deref())
                            else {
                                break 'full;
                            };
                            let callee = if own {
                                code
                            } else {
                                match self.protos.get(*index as usize) {
                                    Some(p) if Arc::ptr_eq(p, proto) => &p.code,
                                    _ => break 'full,
                                }
                            };
                            if proto.params.len() != 1 || proto.boxes_params {
                                break 'full;
                            }
                            let slots = proto.slots as usize;
                            (f, callee, slots)
                        };
                        let new_base = self.stack.len();
                        if self.nframes >= frame_limit || self.stack.capacity() - new_base < slots {
                            break 'full;
                        }
                        pay!(n, 'full);
                        // The argument straight into its slot (see `push_num_op`), the
                        // callee's other slots unset, the caller kept in the frame above.
                        push_fast(&mut self.stack, Slot::Val(Value::Number(a + y)));
                        for _ in 1..slots {
                            push_fast(&mut self.stack, Slot::Unset);
                        }
                        let frame = &mut self.frames[self.nframes];
                        frame.code = code;
                        frame.pc = pc as u32;
                        frame.base = std::mem::replace(&mut self.base, new_base);
                        frame.same = f.is_none();
                        if let Some(f) = f {
                            // Frames above the running ones hold no closure (see
                            // `push_frame`).
                            let caller = self.closure.replace(f);
                            std::mem::forget(std::mem::replace(&mut frame.closure, caller));
                        }
                        self.nframes += 1;
                        (code, pc) = (callee, 0);
                    }
                    Op::Jump(t) => {
                        pc = t as usize;
                        // A loop's back edge: its next passes in the tight loop while they can.
                        if pc < at {
                            let fuel;
                            (pc, fuel) = self.fast_loop(code, pc, mark + left);
                            (mark, left) = split_fuel(fuel);
                        }
                    }
                    Op::JumpIfFalse(t) => match self.operands.last() {
                        Some(&Value::Bool(b)) => {
                            std::mem::forget(self.operands.pop());
                            if !b {
                                pc = t as usize;
                            }
                        }
                        _ => break 'full,
                    },
                    Op::TestLocalCmp {
                        accepts,
                        slot,
                        y,
                        cost: n,
                        target,
                        then_return,
                        ..
                    } => match &self.stack[self.base + slot as usize] {
                        Slot::Val(Value::Number(a)) => {
                            let a = *a;
                            pay!(n, 'full);
                            if !compare_accepts(accepts, a, y) {
                                pc = target as usize;
                            } else if then_return
                                && let Op::ReturnLocal(slot, n) = code.ops[pc]
                                && let Slot::Val(Value::Number(x)) =
                                    &self.stack[self.base + slot as usize]
                                && let Some(l) = left.checked_sub(n as u64)
                            {
                                // The `ReturnLocal` after the test, as its own arm below runs
                                // it (when it cannot, it runs as the next op).
                                let x = *x;
                                left = l;
                                ret!(Value::Number(x));
                            }
                        }
                        _ => break 'full,
                    },
                    Op::Pop => match self.operands.last() {
                        Some(Value::Number(_)) => std::mem::forget(self.operands.pop()),
                        _ => break 'full,
                    },
                    Op::Return => match self.operands.last() {
                        Some(&Value::Number(x)) => {
                            std::mem::forget(self.operands.pop());
                            ret!(Value::Number(x));
                        }
                        _ => break 'full,
                    },
                    Op::ReturnBinary(op) => match self.two_numbers() {
                        Some((a, b)) => {
                            if is_comparison(op) {
                                ret!(Value::Bool(compare_num(op, a, b)));
                            } else {
                                ret!(Value::Number(arith(op, a, b)));
                            }
                        }
                        None => break 'full,
                    },
                    Op::ReturnAdd => match self.two_numbers() {
                        Some((a, b)) => ret!(Value::Number(a + b)),
                        None => break 'full,
                    },
                    Op::ReturnLocal(slot, n) => match &self.stack[self.base + slot as usize] {
                        Slot::Val(Value::Number(x)) => {
                            let x = *x;
                            pay!(n, 'full);
                            ret!(Value::Number(x));
                        }
                        _ => break 'full,
                    },
                    // Every other op by name (no `_`: the jump table then covers every op,
                    // with no range check before it).
                    Op::Const(..)
                    | Op::Upval(..)
                    | Op::Global(..)
                    | Op::Func(..)
                    | Op::Unary(_)
                    | Op::AndOr { .. }
                    | Op::NeedBool(_)
                    | Op::MakeList(_)
                    | Op::MakeObject(_)
                    | Op::Member(_)
                    | Op::Method(..)
                    | Op::Index
                    | Op::CallBuiltin(..)
                    | Op::CallUpvalLocalNum { .. }
                    | Op::CheckCallee
                    | Op::UpvalCallee { .. }
                    | Op::Call(_)
                    | Op::WasCheck(_)
                    | Op::WasEarlier(..)
                    | Op::JumpTrunc(..)
                    | Op::Enter(_)
                    | Op::End
                    | Op::AssignLocal(_)
                    | Op::Assign(_)
                    | Op::NumUpdate { .. }
                    | Op::ForInStart
                    | Op::ForInNext { .. }
                    | Op::LoopNext(_)
                    | Op::BreakOut(_) => break 'full,
                }
                continue 'ops;
            }
            // The op in full.
            self.fuel = mark + left;
            match self.step(start, code, at)? {
                Next::Go(c, p) => (code, pc) = (c, p),
                Next::Done(v) => return Ok(v),
            }
            (mark, left) = split_fuel(self.fuel);
            frame_limit = self.frame_limit();
        }
    }

    /// The calls from code a run may enter in place (see [`Interp::run`]): below the depth
    /// limit (`depth` counts the callbacks running, which stay as they are during a run) and
    /// with a frame to write.
    pub(super) fn frame_limit(&self) -> usize {
        let depth = self.limits.depth.saturating_sub(self.nested) as usize;
        depth.min(self.frames.len())
    }

    /// The two operands on top when both are numbers, popped.
    #[inline(always)]
    pub(super) fn two_numbers(&mut self) -> Option<(f64, f64)> {
        let n = self.operands.len();
        if n >= 2
            && let (Value::Number(a), Value::Number(b)) =
                (&self.operands[n - 2], &self.operands[n - 1])
        {
            let (a, b) = (*a, *b);
            // Numbers own nothing: forgotten, not dropped (a `truncate` would run the drop
            // glue, a jump table per operand).
            std::mem::forget(self.operands.pop());
            std::mem::forget(self.operands.pop());
            return Some((a, b));
        }
        None
    }

    /// Runs the ops from `pc` while they are loop ops on plain numbers (a pass's update,
    /// condition and steps, jumps, `x op= y`), in a small function of its own: no helper is
    /// called, so the position and the steps stay in registers. Stops, with nothing of that op
    /// done, at the first op that needs more (another kind, a value that is no number, steps
    /// running out or a time-limit poll due: the dispatch loop runs it in full); returns where
    /// it stopped and the steps left (every pass pays steps, so an unchanged budget means
    /// nothing ran).
    #[inline(never)]
    pub(super) fn fast_loop(&mut self, code: &Code, mut pc: usize, mut fuel: u64) -> (usize, u64) {
        #[cfg(test)]
        if crate::compile::NO_FOLD.get() {
            return (pc, fuel);
        }
        if self.forbid_locals.is_some() {
            return (pc, fuel);
        }
        let base = self.base;
        let frame = &mut self.stack[base..];
        'ops: loop {
            match code.ops[pc] {
                Op::Jump(t) => pc = t as usize,
                Op::Burn(n) => {
                    let Some(f) = charge(fuel, n) else { break };
                    fuel = f;
                    pc += 1;
                }
                Op::NumUpdate {
                    slot,
                    op,
                    rhs,
                    skip,
                } => {
                    let Some(f) = num_update(frame, slot, op, rhs, fuel) else {
                        break;
                    };
                    fuel = f;
                    pc = skip as usize;
                }
                Op::TestLocalCmp {
                    accepts,
                    slot,
                    y,
                    cost: n,
                    target,
                    ..
                } => {
                    let Some(a) = num(frame, slot) else { break };
                    let Some(f) = charge(fuel, n) else { break };
                    fuel = f;
                    pc = if compare_accepts(accepts, a, y) {
                        pc + 1
                    } else {
                        target as usize
                    };
                }
                Op::LoopNext(i) => {
                    let here = pc;
                    let l = &code.loops[i as usize];
                    // A body the compiler found to be one `x op= y` (it skips straight back
                    // here): its passes run in this inner loop, without going through the
                    // dispatch above; each op still checks and pays exactly as its own arm does.
                    let update = l.one_update;
                    loop {
                        if let (true, Some(u)) = (l.held, update)
                            && let Some((done, f)) = held_passes(frame, l, u, fuel)
                        {
                            fuel = f;
                            if done {
                                pc = l.exit as usize;
                                break;
                            }
                        }
                        // One pass op by op: the one that reaches a polling point or the end
                        // of the budget, or of a loop whose operands are not held.
                        let Some((go, f)) = loop_next(frame, l, fuel) else {
                            break 'ops;
                        };
                        fuel = f;
                        if !go {
                            pc = l.exit as usize;
                            break;
                        }
                        pc = l.body as usize;
                        let Some((slot, op, rhs)) = update else {
                            break;
                        };
                        let Some(f) = num_update(frame, slot, op, rhs, fuel) else {
                            break 'ops;
                        };
                        fuel = f;
                        pc = here;
                    }
                }
                _ => break,
            }
        }
        (pc, fuel)
    }

    /// A leaf's number, when it is one and readable here (else the slow path decides).
    #[inline(always)]
    pub(super) fn leaf_num(&self, leaf: Leaf) -> Option<f64> {
        if self.forbid_locals.is_some() {
            return None;
        }
        let local = |slot: u32| match &self.stack[self.base + slot as usize] {
            Slot::Val(Value::Number(x)) => Some(*x),
            _ => None,
        };
        match leaf {
            Leaf::Num(x) => Some(x),
            Leaf::Local(slot) => local(slot),
            Leaf::LocalNum(op, slot, y) if !is_comparison(op) => Some(arith(op, local(slot)?, y)),
            Leaf::LocalNum(..) => None,
        }
    }

    /// A leaf's value in evaluation order, with the errors its op would give.
    pub(super) fn leaf_value(&mut self, (leaf, span, local_span): (Leaf, Span, Span)) -> R<Value> {
        match leaf {
            Leaf::Num(x) => Ok(Value::Number(x)),
            Leaf::Local(slot) => self.read_local(slot, span),
            Leaf::LocalNum(op, slot, y) => {
                let x = self.read_local(slot, local_span)?;
                self.apply(op, x, Value::Number(y), span)
            }
        }
    }

    /// [`Op::BinLeaves`] on anything but two numbers.
    #[cold]
    #[inline(never)]
    pub(super) fn bin_leaves_slow(&mut self, bin: &BinInfo, span: Span) -> R<Value> {
        let x = self.leaf_value(bin.a)?;
        let y = self.leaf_value(bin.b)?;
        self.apply(bin.op, x, y, span)
    }

    /// Pays op `at`'s `n` steps from `self.fuel` (see [`Code::pay_span`]).
    pub(super) fn charge(&mut self, n: u32, code: &Code, at: usize) -> R<()> {
        let fuel = self.fuel;
        match fuel.checked_sub(n as u64) {
            Some(f) => {
                self.fuel = f;
                if alea_core::Cancel::poll(fuel, f) {
                    return self.out_of_time(code.pay_span(at, fuel, true));
                }
                Ok(())
            }
            None => self.out_of_steps(code.pay_span(at, fuel, false)),
        }
    }

    /// The ops that are no loop's or call's hot path, out of line so the dispatch loop stays
    /// small; none of them jumps. `self.fuel` is up to date.
    #[inline(never)]
    pub(super) fn cold(&mut self, code: &'a Code, at: usize) -> R<()> {
        match code.ops[at] {
            Op::Global(i, n) => {
                self.charge(n, code, at)?;
                let v = self.global(&code.names[i as usize], code.spans[at])?;
                self.operands.push(v);
            }
            Op::Func(i, n) => {
                self.charge(n, code, at)?;
                let f = self.make_closure(i);
                self.operands.push(f);
            }
            Op::Unary(op) => {
                let v = self.pop();
                let span = code.spans[at];
                let r = match (op, v) {
                    (UnOp::Neg, Value::Number(x)) => Value::Number(-x),
                    (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
                    (UnOp::Neg, v) => {
                        return fail(
                            format!("Operator - cannot be applied to {}", v.type_name()),
                            span,
                        );
                    }
                    (UnOp::Not, v) => {
                        return fail(
                            format!("Operator ! needs true or false, got {}", v.type_name()),
                            span,
                        );
                    }
                };
                self.operands.push(r);
            }
            Op::NeedBool(op) => {
                if let Some(v) = self.operands.last()
                    && !matches!(v, Value::Bool(_))
                {
                    return fail(need_bool(op, v), code.spans[at]);
                }
            }
            Op::MakeList(n) => {
                let items = self.operands.split_off(self.operands.len() - n as usize);
                self.alloc_items(items.len(), code.spans[at])?;
                self.operands.push(Value::list(items));
            }
            Op::MakeObject(k) => {
                let keys = &code.keys[k as usize];
                let values = self.operands.split_off(self.operands.len() - keys.len());
                let mut map = Map::with_capacity(keys.len());
                for (k, v) in keys.iter().zip(values) {
                    map.insert(Rc::from(&**k), v);
                }
                let span = code.spans[at];
                self.check_object(map.len(), span)?;
                self.alloc_items(2 * map.len(), span)?;
                self.operands.push(Value::Object(Rc::new(map)));
            }
            Op::Member(i) => {
                let recv = self.pop();
                let v = self.member(&recv, &code.names[i as usize], code.spans[at])?;
                self.operands.push(v);
            }
            Op::Method(i, n) => {
                let args = self.operands.split_off(self.operands.len() - n as usize);
                let recv = self.pop();
                let v = self.method(recv, &code.names[i as usize], args, code.spans[at])?;
                self.operands.push(v);
            }
            Op::Index => {
                let key = self.pop();
                let recv = self.pop();
                let v = self.index(&recv, &key, code.spans[at])?;
                self.operands.push(v);
            }
            Op::CallBuiltin(b, n) => {
                let args = self.operands.split_off(self.operands.len() - n as usize);
                let v = self.call_builtin(b, &args, code.spans[at])?;
                self.operands.push(v);
            }
            Op::WasCheck(kind) => self.was_check(kind, code.spans[at])?,
            Op::WasEarlier(kind, i) => {
                let current = match kind {
                    crate::ir::Was::Was => None,
                    _ => Some(self.pop()),
                };
                let v = self.was(kind, &code.subs[i as usize], current, code.spans[at])?;
                self.operands.push(v);
            }
            Op::Enter(i) => self.declare_block(&code.blocks[i as usize]),
            Op::Assign(i) => {
                let info = &code.assigns[i as usize];
                let n = info.path.iter().filter(|(k, _)| k.is_none()).count();
                let keys = self.operands.split_off(self.operands.len() - n);
                let rhs = self.pop();
                self.assign(info, keys, rhs, code.spans[at])?;
            }
            Op::ForInStart => match self.pop() {
                v @ Value::List(_) => {
                    self.operands.push(v);
                    self.operands.push(Value::Number(0.0));
                }
                v => {
                    return fail(
                        format!("for … in needs a List, got {}", v.type_name()),
                        code.spans[at],
                    );
                }
            },
            Op::BreakOut(is_break) => {
                return Err(if is_break {
                    Flow::Break
                } else {
                    Flow::Continue
                });
            }
            _ => return fail("internal: a hot op in cold", code.spans[at]),
        }
        Ok(())
    }
}

/// Pays `n` steps in [`Interp::fast_loop`]: none when they run out or a time-limit poll is due
/// (the dispatch loop then pays them in full).
#[inline(always)]
pub(super) fn charge(fuel: u64, n: u32) -> Option<u64> {
    let f = fuel.checked_sub(n as u64)?;
    ((fuel ^ f) < alea_core::POLL_STEPS).then_some(f)
}

/// A frame slot's number, if it holds one.
#[inline(always)]
pub(super) fn num(frame: &[Slot], slot: u32) -> Option<f64> {
    match frame.get(slot as usize) {
        Some(Slot::Val(Value::Number(x))) => Some(*x),
        _ => None,
    }
}

/// [`Op::NumUpdate`] in [`Interp::fast_loop`]: the steps left, or none (nothing done).
#[inline(always)]
pub(super) fn num_update(
    frame: &mut [Slot],
    slot: u32,
    op: BinOp,
    rhs: Operand,
    fuel: u64,
) -> Option<u64> {
    let b = match rhs {
        Operand::Num(b) => b,
        Operand::Local(y) => num(frame, y)?,
    };
    // The target checked and borrowed once (the right-hand side is read first, as a copy: it
    // may be the same slot).
    let Some(Slot::Val(Value::Number(s))) = frame.get_mut(slot as usize) else {
        return None;
    };
    let f = charge(fuel, cost::NODE)?;
    *s = compound(op, *s, b);
    Some(f)
}

/// [`Op::LoopNext`] in [`Interp::fast_loop`]: whether the next pass runs and the steps left,
/// or none (nothing done).
#[inline(always)]
pub(super) fn loop_next(frame: &mut [Slot], l: &LoopInfo, fuel: u64) -> Option<(bool, u64)> {
    let b = match l.rhs {
        Operand::Num(b) => b,
        Operand::Local(y) => num(frame, y)?,
    };
    // The condition's local, when it is not the counter (usually it is: then it reads the
    // updated value and needs no read of its own).
    let same = l.cmp_slot == l.slot;
    let c = if same { 0.0 } else { num(frame, l.cmp_slot)? };
    let Some(Slot::Val(Value::Number(s))) = frame.get_mut(l.slot as usize) else {
        return None;
    };
    let f = charge(fuel, cost::NODE + l.pass_cost)?;
    let a = compound(l.op, *s, b);
    *s = a;
    let x = if same { a } else { c };
    Some((compare_num(l.cmp, x, l.y), f))
}

/// Whole passes of a loop marked [`LoopInfo::held`], each [`loop_next`] then the body's
/// [`num_update`], with the counter and the update's target in registers (written back at the
/// end): as many passes as fit before the step budget's next polling point (so no pass can
/// run out of steps or need a poll: each charge would pass [`charge`]'s test), paying the same
/// steps in the same order. Whether the loop ended (else it stopped before a `LoopNext`, with
/// nothing of that pass done) and the steps left; none when an operand is no number (nothing
/// done).
#[inline(never)]
pub(super) fn held_passes(
    frame: &mut [Slot],
    l: &LoopInfo,
    (target, uop, urhs): (u32, BinOp, Operand),
    fuel: u64,
) -> Option<(bool, u64)> {
    let b = match l.rhs {
        Operand::Num(b) => b,
        Operand::Local(y) => num(frame, y)?,
    };
    // The update's right-hand side: a constant, or one of the two held slots.
    let (r, from_counter, from_target) = match urhs {
        Operand::Num(r) => (r, false, false),
        Operand::Local(y) if y == l.slot => (0.0, true, false),
        Operand::Local(y) if y == target => (0.0, false, true),
        Operand::Local(y) => (num(frame, y)?, false, false),
    };
    let i = num(frame, l.slot)?;
    let t = num(frame, target)?;
    let (next, update) = ((cost::NODE + l.pass_cost) as u64, cost::NODE as u64);
    let passes = (fuel & (alea_core::POLL_STEPS - 1)) / (next + update);
    let held = Held {
        passes,
        next,
        update,
        cmp: l.cmp,
        y: l.y,
        b,
        r,
        from_counter,
        from_target,
    };
    // The operators chosen here, once, not at every pass: `+` and `-` (nearly every counted
    // loop) get passes of their own with nothing called inside, so both values stay in
    // registers (a call, as `%` may make, would spill them to memory around every pass).
    let (i, t, done, spent) = match (l.op, uop) {
        (BinOp::Add, BinOp::Add) => held.run(i, t, |a, b| a + b, |a, b| a + b),
        (BinOp::Add, BinOp::Sub) => held.run(i, t, |a, b| a + b, |a, b| a - b),
        (BinOp::Sub, BinOp::Add) => held.run(i, t, |a, b| a - b, |a, b| a + b),
        (BinOp::Sub, BinOp::Sub) => held.run(i, t, |a, b| a - b, |a, b| a - b),
        (op, uop) => held.run(i, t, |a, b| compound(op, a, b), |a, b| compound(uop, a, b)),
    };
    frame[l.slot as usize] = Slot::Val(Value::Number(i));
    frame[target as usize] = Slot::Val(Value::Number(t));
    Some((done, fuel - spent))
}

/// The constants of [`held_passes`]'s passes.
struct Held {
    passes: u64,
    next: u64,
    update: u64,
    cmp: BinOp,
    y: f64,
    b: f64,
    r: f64,
    from_counter: bool,
    from_target: bool,
}

impl Held {
    /// Up to `passes` passes from counter `i` and target `t`: the two values after them,
    /// whether the loop ended, and the steps paid. One function per pair of operators (a
    /// loop that may call `fmod` spills its values around the whole function it is in).
    #[inline(never)]
    pub(super) fn run(
        &self,
        mut i: f64,
        mut t: f64,
        step: impl Fn(f64, f64) -> f64,
        update: impl Fn(f64, f64) -> f64,
    ) -> (f64, f64, bool, u64) {
        let mut spent = 0;
        for _ in 0..self.passes {
            i = step(i, self.b);
            spent += self.next;
            if !compare_num(self.cmp, i, self.y) {
                return (i, t, true, spent);
            }
            let r = if self.from_counter {
                i
            } else if self.from_target {
                t
            } else {
                self.r
            };
            t = update(t, r);
            spent += self.update;
        }
        (i, t, false, spent)
    }
}

/// The error of `&&` / `||` on an operand that is not true or false.
pub(super) fn need_bool(op: BinOp, v: &Value) -> String {
    format!(
        "Operator {} needs true or false, got {}",
        op.symbol(),
        v.type_name()
    )
}
