//! Calls of user functions: frames on the slot stack.
//!
//! A child of `interp` for the same reason as `stmt`: frames are the interpreter's private
//! state.

use super::{Closure, Interp, R, Slot, fail, native_stack_address};
use crate::builtins::{Builtin, plural};
use crate::ir::*;
use crate::value::Value;
use alea_core::Span;
use std::cell::RefCell;
use std::rc::Rc;

impl Interp<'_> {
    /// A call node (its steps are paid): the callee, then the arguments.
    #[inline(always)]
    pub(super) fn call_node(&mut self, callee: &Node, args: &[Node], span: Span) -> R<Value> {
        match self.eval(callee)? {
            Value::Function(f) => self.call_function(f, args, span),
            f => fail(format!("Cannot call {}", f.type_name()), callee.span),
        }
    }

    /// A [`NodeKind::CallUpval`] (its steps, the callee's included, are paid): the captured
    /// function taken without going through `eval`.
    #[inline(always)]
    pub(super) fn call_upval(
        &mut self,
        i: u32,
        callee_span: Span,
        args: &[Node],
        span: Span,
    ) -> R<Value> {
        let f = self.upval_function(i, callee_span)?;
        self.call_function(f, args, span)
    }

    /// A [`NodeKind::CallUpvalLocalNum`] whose argument is made: a user function gets it
    /// straight in its new frame.
    #[inline(always)]
    pub(super) fn call_with(&mut self, f: Rc<Closure>, arg: Value, span: Span) -> R<Value> {
        if let Closure::User { .. } = &*f {
            let new_base = self.stack.len();
            self.stack.push(Slot::Val(arg));
            return self.enter_frame(f, new_base, 1, span);
        }
        self.call(&f, &[arg], span)
    }

    /// The function in captured variable `i`, for a call.
    #[inline(always)]
    pub(super) fn upval_function(&mut self, i: u32, callee_span: Span) -> R<Rc<Closure>> {
        let f = match (self.closure.as_deref(), self.forbid_locals) {
            (Some(Closure::User { captures, .. }), None) => match &*captures[i as usize].borrow() {
                Some(Value::Function(f)) => Some(f.clone()),
                _ => None,
            },
            _ => None,
        };
        match f {
            Some(f) => Ok(f),
            None => match self.read_upval(i, callee_span)? {
                Value::Function(f) => Ok(f),
                f => fail(format!("Cannot call {}", f.type_name()), callee_span),
            },
        }
    }

    /// Calls a function value on argument nodes: a user function gets them straight in its
    /// new frame; others as a list.
    #[inline(always)]
    fn call_function(&mut self, f: Rc<Closure>, args: &[Node], span: Span) -> R<Value> {
        if let Closure::User { .. } = &*f {
            let new_base = self.stack.len();
            for a in args {
                match self.eval(a) {
                    Ok(v) => self.stack.push(Slot::Val(v)),
                    Err(e) => {
                        self.stack.truncate(new_base);
                        return Err(e);
                    }
                }
            }
            return self.enter_frame(f, new_base, args.len(), span);
        }
        self.call_other(&f, args, span)
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
                self.enter_frame(f.clone(), new_base, args.len(), span)
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
    #[inline(always)]
    fn enter_frame(
        &mut self,
        f: Rc<Closure>,
        new_base: usize,
        nargs: usize,
        span: Span,
    ) -> R<Value> {
        let Closure::User { proto, .. } = &*f else {
            self.stack.truncate(new_base);
            return fail("internal: not a user function", span);
        };
        let marker = 0u8;
        let used = self.stack_start.abs_diff(native_stack_address(&marker));
        if nargs != proto.params.len()
            || self.depth >= self.limits.depth
            || used > self.limits.stack
        {
            return self.frame_error(&f, new_base, nargs, span);
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
        let result = self.block(&proto.body);
        self.depth -= 1;
        self.closure = saved_closure;
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

    /// A call that cannot enter its frame: the wrong number of arguments, or too deep.
    #[cold]
    #[inline(never)]
    fn frame_error(&mut self, f: &Closure, new_base: usize, nargs: usize, span: Span) -> R<Value> {
        self.stack.truncate(new_base);
        let Closure::User { proto, .. } = f else {
            return fail("internal: not a user function", span);
        };
        if nargs != proto.params.len() {
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
            return fail(
                format!("Too much recursion (limit {})", self.limits.depth),
                span,
            );
        }
        fail(
            format!(
                "Too much recursion: {} calls nested in deep expressions or callbacks use more \
                 than {} KiB of stack",
                self.depth,
                self.limits.stack >> 10
            ),
            span,
        )
    }
}
