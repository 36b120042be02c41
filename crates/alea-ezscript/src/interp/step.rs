//! [`Interp::step`]: the full implementation of every op, every case of it. The dispatch
//! loop of [`super::vm`] runs the common case of the common ops itself and hands every other
//! op or case here, undone, so each op's semantics is written once (the fast cases only
//! decide when they may skip this).

use super::vm::{Next, compound, need_bool, push_fast, split_fuel};
use super::{Closure, Interp, R, Slot, arith, compare_accepts, compare_num, fail, is_comparison};
use crate::ast::BinOp;
use crate::code::{Code, Op};
use crate::ir::{Const, Operand, Var, cost};
use crate::value::Value;

impl<'a> Interp<'a> {
    /// Runs op `at` of `code` in full, every case of it (the reference the fast paths of
    /// [`Interp::run`] follow): where the run goes on, or its value when the op ends it (the
    /// frames below `start` are the callers of this run). `self.fuel` is up to date before
    /// and after.
    ///
    /// The step budget lives in a local while the op runs: `self.fuel` is written back before
    /// anything else reads or charges it (the ops in [`Interp::cold`], every slow path, every
    /// exit) and read again after.
    #[inline(never)]
    pub(super) fn step(&mut self, start: usize, code: &'a Code, at: usize) -> R<Next<'a>> {
        let mut code = code;
        let mut pc = at + 1;
        // The step budget as `mark + left`: `mark` the polling point at or below it (a
        // multiple of POLL_STEPS), so a charge is one subtraction and one branch.
        let (mut mark, mut left) = split_fuel(self.fuel);
        // Pays `$n` steps for op `at`, or leaves the run (`self.fuel` written back). Steps left
        // above `mark` cover it except when the budget crosses a polling point or runs out.
        macro_rules! pay {
            ($n:expr, $at:expr) => {
                match left.checked_sub($n as u64) {
                    Some(l) => left = l,
                    None => {
                        let fuel = mark + left;
                        match fuel.checked_sub($n as u64) {
                            Some(f) => {
                                // A host's time limit (alea_core::Cancel), polled every
                                // POLL_STEPS.
                                if alea_core::Cancel::poll(fuel, f) {
                                    self.fuel = f;
                                    self.out_of_time(code.pay_span($at, fuel, true))?;
                                }
                                (mark, left) = split_fuel(f);
                            }
                            None => {
                                self.out_of_steps(code.pay_span($at, fuel, false))?;
                            }
                        }
                    }
                }
            };
        }
        // Runs `$e` with `self.fuel` up to date (it may charge steps or fail), then `?`.
        macro_rules! sync {
            ($e:expr) => {{
                self.fuel = mark + left;
                let r = $e;
                (mark, left) = split_fuel(self.fuel);
                r?
            }};
        }
        // `?` on `$e`, which neither charges nor reads steps: `self.fuel` written back only
        // when it fails.
        macro_rules! tryf {
            ($e:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(e) => {
                        self.fuel = mark + left;
                        return Err(e);
                    }
                }
            };
        }
        // Returns `$v` from the running function: to the caller's frame, or out of this run
        // when the caller is native. `$v` is evaluated where it is used, after the frame is
        // popped: a number's return passes `Value::Number(x)`, so the value is only made at
        // the push (from a float in a register; see `push_fast`).
        macro_rules! ret {
            ($v:expr) => {{
                match self.leave(start) {
                    Some((c, p)) => {
                        (code, pc) = (c, p);
                        push_fast(&mut self.operands, $v);
                    }
                    None => {
                        self.fuel = mark + left;
                        return Ok(Next::Done($v));
                    }
                }
            }};
        }
        'op: {
            match code.ops[at] {
                Op::Burn(n) => pay!(n, at),
                Op::Const(c, n) => {
                    pay!(n, at);
                    match c {
                        Const::Number(x) => push_fast(&mut self.operands, Value::Number(x)),
                        Const::Bool(b) => self.operands.push(Value::Bool(b)),
                        Const::Nothing => self.operands.push(Value::Nothing),
                        Const::Text(i) => {
                            let v = self.text_constant(i);
                            push_fast(&mut self.operands, v);
                        }
                    }
                }
                Op::Local(slot, n) => {
                    pay!(n, at);
                    // The common case inline: a plain slot outside `was()`.
                    match &self.stack[self.base + slot as usize] {
                        Slot::Val(Value::Number(x)) if self.forbid_locals.is_none() => {
                            let x = *x;
                            push_fast(&mut self.operands, Value::Number(x));
                        }
                        Slot::Val(v) if self.forbid_locals.is_none() => {
                            let v = v.clone();
                            push_fast(&mut self.operands, v);
                        }
                        _ => {
                            let v = sync!(self.read_local(slot, code.spans[at]));
                            push_fast(&mut self.operands, v);
                        }
                    }
                }
                Op::Upval(i, n) => {
                    pay!(n, at);
                    let fast = match (self.closure.as_deref(), self.forbid_locals) {
                        (Some(Closure::User { captures, .. }), None) => {
                            captures[i as usize].borrow().clone()
                        }
                        _ => None,
                    };
                    let v = match fast {
                        Some(v) => v,
                        None => sync!(self.read_upval(i, code.spans[at])),
                    };
                    push_fast(&mut self.operands, v);
                }
                Op::LocalNum {
                    op,
                    slot,
                    y,
                    cost: n,
                    x,
                } => {
                    pay!(n, at);
                    match &self.stack[self.base + slot as usize] {
                        Slot::Val(Value::Number(a)) if self.forbid_locals.is_none() => {
                            let a = *a;
                            self.push_num_op(op, a, y);
                        }
                        _ => {
                            let a = sync!(self.read_local(slot, code.extra[x as usize]));
                            let v = sync!(self.apply(op, a, Value::Number(y), code.spans[at]));
                            push_fast(&mut self.operands, v);
                        }
                    }
                }
                Op::Binary(op) => {
                    if let Some((a, b)) = self.two_numbers() {
                        self.push_num_op(op, a, b);
                        break 'op;
                    }
                    let y = self.pop();
                    let x = self.pop();
                    let v = sync!(self.apply_other(op, x, y, code.spans[at]));
                    push_fast(&mut self.operands, v);
                }
                Op::BinLeaves(i, n) => {
                    pay!(n, at);
                    let bin = &code.bins[i as usize];
                    match (self.leaf_num(bin.a.0), self.leaf_num(bin.b.0)) {
                        (Some(x), Some(y)) => self.push_num_op(bin.op, x, y),
                        _ => {
                            let v = sync!(self.bin_leaves_slow(bin, code.spans[at]));
                            push_fast(&mut self.operands, v);
                        }
                    }
                }
                Op::AndOr { op, end, x } => match self.pop() {
                    Value::Bool(b) => {
                        if (op == BinOp::And) != b {
                            push_fast(&mut self.operands, Value::Bool(b));
                            pc = end as usize;
                        }
                    }
                    v => {
                        self.fuel = mark + left;
                        return fail(need_bool(op, &v), code.extra[x as usize]);
                    }
                },
                Op::CheckCallee => {
                    if let Some(v) = self.operands.last()
                        && !matches!(v, Value::Function(_))
                    {
                        self.fuel = mark + left;
                        return fail(format!("Cannot call {}", v.type_name()), code.spans[at]);
                    }
                }
                Op::UpvalCallee { i, own, cost: n, x } => {
                    pay!(n, at);
                    let f = match self.own_closure(own) {
                        Some(f) => f,
                        None => tryf!(self.upval_function(i, || code.extra[x as usize])),
                    };
                    push_fast(&mut self.operands, Value::Function(f));
                }
                Op::Call(n) => {
                    let n = n as usize;
                    let callee = self.operands.len() - n - 1;
                    let Value::Function(f) = std::mem::take(&mut self.operands[callee]) else {
                        self.fuel = mark + left;
                        return fail("internal: not a function", code.spans[at]);
                    };
                    if let Closure::User { .. } = &*f {
                        let new_base = self.stack.len();
                        self.stack
                            .extend(self.operands.drain(callee + 1..).map(Slot::Val));
                        self.operands.truncate(callee);
                        code = tryf!(self.push_frame(f, new_base, n, code, pc, at, false));
                        pc = 0;
                    } else {
                        let args = self.operands.split_off(callee + 1);
                        self.operands.truncate(callee);
                        let v = sync!(self.call(&f, &args, code.spans[at]));
                        push_fast(&mut self.operands, v);
                    }
                }
                Op::CallUpvalLocalNum {
                    upval,
                    own,
                    add,
                    op,
                    slot,
                    y,
                    cost: n,
                    x,
                    ..
                } => {
                    pay!(n, at);
                    let x = x as usize;
                    let (f, own) = match self.own_closure(own) {
                        Some(f) => (f, true),
                        None => (tryf!(self.upval_function(upval, || code.extra[x])), false),
                    };
                    let new_base = self.stack.len();
                    // The argument straight into its slot (see `push_num_op`).
                    match &self.stack[self.base + slot as usize] {
                        Slot::Val(Value::Number(a)) if self.forbid_locals.is_none() => {
                            let a = *a;
                            if add {
                                let v = Value::Number(a + y);
                                push_fast(&mut self.stack, Slot::Val(v));
                            } else if is_comparison(op) {
                                let v = Value::Bool(compare_num(op, a, y));
                                push_fast(&mut self.stack, Slot::Val(v));
                            } else {
                                let v = Value::Number(arith(op, a, y));
                                push_fast(&mut self.stack, Slot::Val(v));
                            }
                        }
                        _ => {
                            let a = sync!(self.read_local(slot, code.extra[x + 1]));
                            let y = if op == BinOp::Sub { -y } else { y };
                            let v = sync!(self.apply(op, a, Value::Number(y), code.extra[x + 2]));
                            push_fast(&mut self.stack, Slot::Val(v));
                        }
                    }
                    if let Closure::User { .. } = &*f {
                        code = tryf!(self.push_frame(f, new_base, 1, code, pc, at, own));
                        pc = 0;
                    } else {
                        let arg = match self.stack.pop() {
                            Some(Slot::Val(v)) => v,
                            _ => Value::Nothing,
                        };
                        let v = sync!(self.call(&f, &[arg], code.spans[at]));
                        push_fast(&mut self.operands, v);
                    }
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
                Op::JumpTrunc(t, n) => {
                    self.operands.truncate(self.operands.len() - n as usize);
                    pc = t as usize;
                }
                Op::JumpIfFalse(t) => match self.pop() {
                    Value::Bool(true) => {}
                    Value::Bool(false) => pc = t as usize,
                    _ => {
                        self.fuel = mark + left;
                        return fail("Condition must evaluate to true or false.", code.spans[at]);
                    }
                },
                Op::TestLocalCmp {
                    op,
                    accepts,
                    slot,
                    y,
                    cost: n,
                    target,
                    x,
                    ..
                } => {
                    pay!(n, at);
                    let b = match &self.stack[self.base + slot as usize] {
                        Slot::Val(Value::Number(a)) if self.forbid_locals.is_none() => {
                            compare_accepts(accepts, *a, y)
                        }
                        _ => {
                            let x = x as usize;
                            let (local_span, span) = (code.extra[x], code.extra[x + 1]);
                            sync!(self.local_cmp_slow(op, slot, y, local_span, span))
                        }
                    };
                    if !b {
                        pc = target as usize;
                    }
                }
                Op::Pop => {
                    if let Some(v @ Value::Number(_)) = self.operands.pop() {
                        std::mem::forget(v);
                    }
                }
                Op::Return => match self.operands.last() {
                    // A number is read in place and forgotten (a popped value matched as a
                    // whole is dropped at the end of the match: a call of the drop glue).
                    Some(&Value::Number(x)) => {
                        std::mem::forget(self.operands.pop());
                        ret!(Value::Number(x));
                    }
                    _ => {
                        let v = self.pop();
                        ret!(v);
                    }
                },
                // `ReturnAdd` is `ReturnBinary(Add)` with its operator fixed for the fast case.
                Op::ReturnBinary(_) | Op::ReturnAdd => {
                    let op = match code.ops[at] {
                        Op::ReturnBinary(op) => op,
                        _ => BinOp::Add,
                    };
                    let v = match self.two_numbers() {
                        Some((a, b)) => super::num_op(op, a, b),
                        None => {
                            let y = self.pop();
                            let x = self.pop();
                            sync!(self.apply_other(op, x, y, code.spans[at]))
                        }
                    };
                    ret!(v);
                }
                Op::ReturnLocal(slot, n) => {
                    pay!(n, at);
                    let v = match &self.stack[self.base + slot as usize] {
                        Slot::Val(Value::Number(x)) if self.forbid_locals.is_none() => {
                            let x = *x;
                            ret!(Value::Number(x));
                            break 'op;
                        }
                        Slot::Val(v) if self.forbid_locals.is_none() => v.clone(),
                        _ => sync!(self.read_local(slot, code.spans[at])),
                    };
                    ret!(v);
                }
                Op::End => {
                    self.fuel = mark + left;
                    return Ok(Next::Done(self.pop()));
                }
                Op::AssignLocal(i) => {
                    let info = &code.assigns[i as usize];
                    let rhs = self.pop();
                    let span = code.spans[at];
                    if let (Var::Local(slot), None) = (&info.var, self.forbid_locals) {
                        let cell = &mut self.stack[self.base + *slot as usize];
                        match (info.op, cell, &rhs) {
                            (None, s @ (Slot::Val(_) | Slot::Unset), _) => {
                                *s = Slot::Val(rhs);
                                break 'op;
                            }
                            (
                                Some(BinOp::Add),
                                Slot::Val(Value::Text(_)),
                                Value::Text(_) | Value::Number(_) | Value::Bool(_),
                            ) => {
                                sync!(self.append_to_local(*slot, &rhs, span));
                                break 'op;
                            }
                            (Some(op), Slot::Val(Value::Number(a)), Value::Number(b)) => {
                                *a = compound(op, *a, *b);
                                break 'op;
                            }
                            _ => {}
                        }
                    }
                    sync!(self.assign(info, Vec::new(), rhs, span));
                }
                Op::NumUpdate {
                    slot,
                    op,
                    rhs,
                    skip,
                } => {
                    if self.forbid_locals.is_some() {
                        break 'op;
                    }
                    let b = match rhs {
                        Operand::Num(b) => b,
                        Operand::Local(y) => match &self.stack[self.base + y as usize] {
                            Slot::Val(Value::Number(b)) => *b,
                            _ => break 'op,
                        },
                    };
                    let i = self.base + slot as usize;
                    if !matches!(self.stack[i], Slot::Val(Value::Number(_))) {
                        break 'op;
                    }
                    // The right-hand node's step.
                    pay!(cost::NODE, at);
                    if let Slot::Val(Value::Number(a)) = &mut self.stack[i] {
                        *a = compound(op, *a, b);
                    }
                    pc = skip as usize;
                }
                Op::ForInNext {
                    decls,
                    index,
                    item,
                    exit,
                } => {
                    let n = self.operands.len();
                    let (Value::List(items), Value::Number(i)) =
                        (&self.operands[n - 2], &self.operands[n - 1])
                    else {
                        self.fuel = mark + left;
                        return fail("internal: no list to iterate", code.spans[at]);
                    };
                    let i = *i as usize;
                    let Some(v) = items.get(i).cloned() else {
                        self.operands.truncate(n - 2);
                        pc = exit as usize;
                        break 'op;
                    };
                    self.operands[n - 1] = Value::Number((i + 1) as f64);
                    pay!(cost::PASS, at);
                    let block = &code.blocks[decls as usize];
                    if !block.decls.is_empty() {
                        self.declare_block(block);
                    }
                    if let Some(ix) = index {
                        self.store(ix, Value::Number(i as f64));
                    }
                    self.store(item, v);
                }
                Op::LoopNext(i) => {
                    let fuel = mark + left;
                    let (next, after) = self.fast_loop(code, at, fuel);
                    // Passes may have run and stopped at this op again: the steps tell.
                    if next != at || after != fuel {
                        pc = next;
                        (mark, left) = split_fuel(after);
                        break 'op;
                    }
                    let l = &code.loops[i as usize];
                    if self.forbid_locals.is_some() {
                        break 'op;
                    }
                    let b = match l.rhs {
                        Operand::Num(b) => b,
                        Operand::Local(y) => match &self.stack[self.base + y as usize] {
                            Slot::Val(Value::Number(b)) => *b,
                            _ => break 'op,
                        },
                    };
                    let i = self.base + l.slot as usize;
                    if !matches!(self.stack[i], Slot::Val(Value::Number(_))) {
                        break 'op;
                    }
                    // The update's right-hand node, the update, then the pass's steps: one
                    // charge when both are there (running out in between leaves nothing
                    // anyone sees, as the run fails), else the first that runs out fails.
                    match fuel.checked_sub((cost::NODE + l.pass_cost) as u64) {
                        Some(f) if !alea_core::Cancel::poll(fuel, f) => {
                            (mark, left) = split_fuel(f)
                        }
                        _ => {
                            self.fuel = fuel;
                            self.burn(cost::NODE as u64, l.rhs_span)?;
                            self.burn(l.pass_cost as u64, l.span)?;
                            (mark, left) = split_fuel(self.fuel);
                        }
                    }
                    if let Slot::Val(Value::Number(a)) = &mut self.stack[i] {
                        *a = compound(l.op, *a, b);
                    }
                    let go = match &self.stack[self.base + l.cmp_slot as usize] {
                        Slot::Val(Value::Number(x)) => compare_num(l.cmp, *x, l.y),
                        _ => sync!(self.local_cmp_slow(
                            l.cmp,
                            l.cmp_slot,
                            l.y,
                            l.local_span,
                            l.cond_span
                        )),
                    };
                    pc = if go { l.body } else { l.exit } as usize;
                }
                // Every other op by name (no `_`: the jump table then covers every op, with
                // no range check before it).
                Op::Global(..)
                | Op::Func(..)
                | Op::Unary(_)
                | Op::NeedBool(_)
                | Op::MakeList(_)
                | Op::MakeObject(_)
                | Op::Member(_)
                | Op::Method(..)
                | Op::Index
                | Op::CallBuiltin(..)
                | Op::WasCheck(_)
                | Op::WasEarlier(..)
                | Op::Enter(_)
                | Op::Assign(_)
                | Op::ForInStart
                | Op::BreakOut(_) => {
                    self.fuel = mark + left;
                    self.cold(code, at)?;
                    (mark, left) = split_fuel(self.fuel);
                }
            }
        }
        self.fuel = mark + left;
        Ok(Next::Go(code, pc))
    }
}
