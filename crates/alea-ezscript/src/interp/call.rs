//! Calls of user functions: frames on the slot stack, and the fast paths of recursion (a
//! function calling itself with `local op number`, its body one `if`).
//!
//! A child of `interp` for the same reason as `stmt`: frames are the interpreter's private
//! state.

use super::{Closure, Interp, R, Slot, compare, fail, num_op};
use crate::builtins::{Builtin, plural};
use crate::ir::*;
use crate::value::Value;
use alea_core::Span;
use std::cell::RefCell;
use std::rc::Rc;

impl<'a> Interp<'a> {
    /// A function body: like [`Interp::block`], with a body that is one `if` (recursion's
    /// base case and step) run in the frame's own code, without a trip through `eval`.
    #[inline(always)]
    pub(super) fn function_body(&mut self, block: &Block) -> R<Value> {
        if let [stmt] = &block.stmts[..]
            && let StmtKind::Expr(e) = &stmt.kind
            && let NodeKind::If(cond, then, els) = &e.kind
        {
            self.enter_block(block);
            // `if local < number`: the `if`'s step and the condition's three at once, when
            // all four are there (otherwise step by step, running out at the same node).
            if let NodeKind::LocalNum(op, slot, y, _) = &cond.kind
                && self.forbid_locals.is_none()
                && let Slot::Val(Value::Number(x)) = &self.stack[self.base + *slot as usize]
                && let Some(b) = compare(*op, *x, *y)
                && self.fuel >= 4
            {
                self.fuel -= 4;
                // `else { a op b }` (the recursive step): the operator run here, its block's
                // and node's steps at once, without a trip through `eval`.
                if !b
                    && let Some(Node {
                        kind: NodeKind::Block(eb),
                        ..
                    }) = els.as_deref()
                    && !eb.declares
                    && let [s] = &eb.stmts[..]
                    && let StmtKind::Expr(Node {
                        kind: NodeKind::Binary(op, l, r),
                        span,
                    }) = &s.kind
                    && self.fuel >= 2
                {
                    self.fuel -= 2;
                    return self.binary(*op, l, r, *span);
                }
                return self.branch(b, then, els.as_deref());
            }
            self.burn(1, e.span)?;
            return self.if_node(cond, then, els.as_deref());
        }
        self.block(block)
    }

    /// A call node. `unpaid`: the call node's own step, when it is not paid yet (0 or 1).
    #[inline(always)]
    pub(super) fn call_node(
        &mut self,
        callee: &Node,
        args: &[Node],
        span: Span,
        unpaid: u64,
    ) -> R<Value> {
        // A function calling itself with `local op number` (recursion): the callee's step
        // and the argument's three charged at once (only when all four are there; otherwise
        // the general path below runs out at the same node as always), and the frame entered
        // without touching the closure (it stays the current one: no reference counting).
        if let [arg] = args
            && let (NodeKind::Upval(i), NodeKind::LocalNum(op, slot, y, _)) =
                (&callee.kind, &arg.kind)
            && self.forbid_locals.is_none()
            && let Some(proto) = self.self_callee(*i)
            && let Slot::Val(Value::Number(x)) = &self.stack[self.base + *slot as usize]
            && self.fuel >= 4 + unpaid
        {
            let v = num_op(*op, *x, *y);
            self.fuel -= 4 + unpaid;
            return self.self_call(proto, v, span);
        }
        if unpaid > 0 {
            self.burn(unpaid, span)?;
        }
        // A captured function (a named function calling itself or a sibling) without
        // going through a value; the callee node's step is still paid.
        let direct = match (&callee.kind, self.closure.as_deref(), self.forbid_locals) {
            (NodeKind::Upval(i), Some(Closure::User { captures, .. }), None) => {
                match &*captures[*i as usize].borrow() {
                    Some(Value::Function(f)) => Some(f.clone()),
                    _ => None,
                }
            }
            _ => None,
        };
        let f = match direct {
            Some(f) => {
                // `f(local op number)` (recursion): the callee's step and the argument's three
                // charged at once, the argument built straight into the new frame. Only when
                // all four steps are there; otherwise the general path below runs out of steps
                // at the same node as always.
                if let [arg] = args
                    && let NodeKind::LocalNum(op, slot, y, _) = &arg.kind
                    && let Slot::Val(Value::Number(x)) = &self.stack[self.base + *slot as usize]
                    && self.fuel >= 4
                    && let Closure::User { .. } = &*f
                {
                    let v = num_op(*op, *x, *y);
                    self.fuel -= 4;
                    let new_base = self.stack.len();
                    self.stack.push(Slot::Val(v));
                    return self.enter_frame(&f, new_base, 1, span);
                }
                self.burn(1, callee.span)?;
                f
            }
            None => match self.eval(callee)? {
                Value::Function(f) => f,
                f => return fail(format!("Cannot call {}", f.type_name()), callee.span),
            },
        };
        if let Closure::User { .. } = &*f {
            // Arguments go straight into the new frame.
            let new_base = self.stack.len();
            for a in args {
                match self.eval_leaf(a) {
                    Ok(v) => self.stack.push(Slot::Val(v)),
                    Err(e) => {
                        self.stack.truncate(new_base);
                        return Err(e);
                    }
                }
            }
            return self.enter_frame(&f, new_base, args.len(), span);
        }
        self.call_other(&f, args, span)
    }

    /// The code of the current closure when its captured variable `i` holds that same
    /// closure (a named function calling itself), from the program's list of functions (so
    /// it borrows nothing of `self`).
    #[inline(always)]
    fn self_callee(&self, i: u32) -> Option<&'a Proto> {
        let protos = self.protos;
        let Some(
            current @ Closure::User {
                captures,
                proto,
                index,
            },
        ) = self.closure.as_deref()
        else {
            return None;
        };
        match &*captures[i as usize].borrow() {
            Some(Value::Function(f)) if std::ptr::eq(Rc::as_ptr(f), current) => {}
            _ => return None,
        }
        let p = protos.get(*index as usize)?;
        Rc::ptr_eq(p, proto).then_some(&**p)
    }

    /// Runs the current closure, whose code is `proto`, on one argument: [`Interp::enter_frame`]
    /// without swapping the closure.
    fn self_call(&mut self, proto: &Proto, v: Value, span: Span) -> R<Value> {
        let new_base = self.stack.len();
        self.stack.push(Slot::Val(v));
        if proto.params.len() != 1 || proto.boxes_params || self.depth >= self.limits.depth {
            return self.self_call_slow(new_base, span);
        }
        let height = new_base + proto.slots as usize;
        if self.stack.len() < height {
            self.stack.resize_with(height, || Slot::Unset);
        }
        let saved_base = std::mem::replace(&mut self.base, new_base);
        self.depth += 1;
        let result = self.function_body(&proto.body);
        self.depth -= 1;
        self.base = saved_base;
        // Popped rather than truncated, and a number forgotten rather than dropped: it owns
        // nothing, and the drop glue would be an out-of-line call per slot.
        while self.stack.len() > new_base {
            match self.stack.pop() {
                Some(s @ (Slot::Val(Value::Number(_)) | Slot::Unset)) => std::mem::forget(s),
                other => drop(other),
            }
        }
        result
    }

    /// [`Interp::self_call`] with its errors (arity, recursion depth) or boxed parameter.
    #[cold]
    #[inline(never)]
    fn self_call_slow(&mut self, new_base: usize, span: Span) -> R<Value> {
        match self.closure.clone() {
            Some(f) => self.enter_frame(&f, new_base, 1, span),
            None => {
                self.stack.truncate(new_base);
                fail("internal: no current function", span)
            }
        }
    }

    /// A call of a built-in or host function value: arguments are collected into a list.
    #[inline(never)]
    fn call_other(&mut self, f: &Rc<Closure>, args: &[Node], span: Span) -> R<Value> {
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.eval(a)?);
        }
        self.call(f, &values, span)
    }
    /// Calls a function value with arguments.
    pub fn call(&mut self, f: &Rc<Closure>, args: &[Value], span: Span) -> R<Value> {
        match &**f {
            Closure::User { .. } => {
                let new_base = self.stack.len();
                // A plain loop: `extend` over a cloning iterator is not inlined for the one or
                // two arguments of a callback.
                self.stack.reserve(args.len());
                for a in args {
                    self.stack.push(Slot::Val(a.clone()));
                }
                self.enter_frame(f, new_base, args.len(), span)
            }
            Closure::Builtin(b) => self.call_builtin(*b, args, span),
            Closure::Native { f, .. } => f(args).or_else(|e| fail(e, span)),
        }
    }

    /// Calls a built-in function. `asString` renders through the run's bounded writer (its
    /// text limit, steps and memory), like every other display.
    pub(crate) fn call_builtin(&mut self, b: Builtin, args: &[Value], span: Span) -> R<Value> {
        if let (Builtin::AsString, [v]) = (b, args) {
            return Ok(Value::from(self.display(v, span)?));
        }
        b.call(args, self.host.now()).or_else(|e| fail(e, span))
    }

    /// Runs a user function whose `nargs` arguments are on the stack from `new_base`.
    fn enter_frame(
        &mut self,
        f: &Rc<Closure>,
        new_base: usize,
        nargs: usize,
        span: Span,
    ) -> R<Value> {
        let Closure::User { proto, .. } = &**f else {
            self.stack.truncate(new_base);
            return fail("internal: not a user function", span);
        };
        if nargs != proto.params.len() {
            self.stack.truncate(new_base);
            let who = match &proto.name {
                Some(n) => format!("Function {n}"),
                None => "Function".to_string(),
            };
            return fail(
                format!("{who} expects {}, got {nargs}", plural(proto.params.len())),
                span,
            );
        }
        if self.depth >= self.limits.depth {
            self.stack.truncate(new_base);
            return fail(
                format!("Too much recursion (limit {})", self.limits.depth),
                span,
            );
        }
        // Parameters are the first slots; box the captured ones.
        if proto.boxes_params {
            for d in proto.params.iter().filter(|d| d.boxed) {
                let i = new_base + d.slot as usize;
                let v = match std::mem::replace(&mut self.stack[i], Slot::Unset) {
                    Slot::Val(v) => Some(v),
                    _ => None,
                };
                self.stack[i] = Slot::Cell(Rc::new(RefCell::new(v)));
            }
        }
        let height = new_base + proto.slots as usize;
        if self.stack.len() < height {
            self.stack.resize_with(height, || Slot::Unset);
        }
        let saved_base = std::mem::replace(&mut self.base, new_base);
        let saved_closure = self.closure.replace(f.clone());
        self.depth += 1;
        let result = self.function_body(&proto.body);
        self.depth -= 1;
        self.closure = saved_closure;
        self.base = saved_base;
        self.stack.truncate(new_base);
        result
    }
}
