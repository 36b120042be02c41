//! Calls of user functions: frames on the interpreter's frame stack, slots on its slot stack.
//!
//! A child of `interp` for the same reason as `stmt`: frames are the interpreter's private
//! state.

use super::{Closure, Frame, Interp, R, Slot, fail};
use crate::builtins::{Builtin, plural};
use crate::code::Code;
use crate::value::Value;
use alea_core::Span;
use std::rc::Rc;
use std::sync::Arc;

impl<'a> Interp<'a> {
    /// The function in captured variable `i`, for a call; `callee_span` is asked for only when
    /// the slow path needs it (an indexed span costs a bounds check on every call).
    #[inline(always)]
    pub(super) fn upval_function(
        &mut self,
        i: u32,
        callee_span: impl Fn() -> Span,
    ) -> R<Rc<Closure>> {
        let f = match (self.closure.as_deref(), self.forbid_locals) {
            (Some(Closure::User { captures, .. }), None) => match captures.get(i as usize) {
                Some(c) => match &*c.borrow() {
                    Some(Value::Function(f)) => Some(f.clone()),
                    _ => None,
                },
                None => None,
            },
            _ => None,
        };
        match f {
            Some(f) => Ok(f),
            None => self.upval_function_slow(i, callee_span()),
        }
    }

    /// The running closure, for a call the compiler marked as the function calling itself by
    /// its own name (`own`: the captured variable holds this closure, see
    /// [`crate::resolve::fixed_functions`]); none when the variable must be read after all
    /// (inside `was()`, where reading it is the error).
    #[inline(always)]
    pub(super) fn own_closure(&self, own: bool) -> Option<Rc<Closure>> {
        if own && self.forbid_locals.is_none() {
            self.closure.clone()
        } else {
            None
        }
    }

    #[cold]
    #[inline(never)]
    fn upval_function_slow(&mut self, i: u32, callee_span: Span) -> R<Rc<Closure>> {
        match self.read_upval(i, callee_span)? {
            Value::Function(f) => Ok(f),
            f => fail(format!("Cannot call {}", f.type_name()), callee_span),
        }
    }

    /// Calls a function value with arguments from native code (list methods' callbacks, an
    /// object's function member): a user function runs in a nested run of the evaluator,
    /// counted against [`super::SizeLimits::callbacks`].
    pub fn call(&mut self, f: &Rc<Closure>, args: &[Value], span: Span) -> R<Value> {
        match &**f {
            Closure::User { .. } => {
                if self.nested >= self.limits.callbacks {
                    return fail(
                        format!(
                            "Too much recursion: callbacks nested more than {} deep",
                            self.limits.callbacks
                        ),
                        span,
                    );
                }
                let new_base = self.stack.len();
                // A plain loop: `extend` over a cloning iterator is not inlined for the one or
                // two arguments of a callback.
                self.stack.reserve(args.len());
                for a in args {
                    super::vm::push_fast(&mut self.stack, Slot::Val(a.clone()));
                }
                let code = self.enter(f, new_base, args.len(), || span, None)?;
                let (frames, operands) = (self.nframes, self.operands.len());
                let saved_base = std::mem::replace(&mut self.base, new_base);
                let saved_closure = self.closure.replace(f.clone());
                self.nested += 1;
                let result = self.run(code);
                self.nested -= 1;
                if result.is_err() {
                    // Unwind what the failed run left: its frames, slots and operands.
                    self.truncate_frames(frames);
                    self.pop_slots(new_base);
                    self.operands.truncate(operands);
                }
                self.base = saved_base;
                self.closure = saved_closure;
                result
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

    /// Gets user function `f`, whose `nargs` arguments are in the slots from `new_base`, ready
    /// to run (the checks, captured parameters boxed, its other slots unset); returns its code.
    /// `running`: `f` is the running closure and this its code (a call marked `own`), so it
    /// was checked to be this program's when it was entered.
    #[inline(always)]
    fn enter(
        &mut self,
        f: &Closure,
        new_base: usize,
        nargs: usize,
        span: impl Fn() -> Span,
        running: Option<&'a Code>,
    ) -> R<&'a Code> {
        let protos = self.protos;
        let Closure::User { index, proto, .. } = f else {
            self.stack.truncate(new_base);
            return fail("internal: not a user function", span());
        };
        // A function value can outlive its run and reach a later run through a host. Its code
        // names its program's functions and texts by index (`Op::Func`, `Const`), so it runs
        // only against its own program's tables, or an equal program's (compiled from the same
        // source: the same tables); carrying the tables in every closure would cost each call.
        // A function of another program is an error, not a wrong index.
        let (proto, code) = match running {
            Some(code) => {
                debug_assert!(std::ptr::eq(code, &protos[*index as usize].code));
                (proto, code)
            }
            None => match protos.get(*index as usize) {
                Some(p) if Arc::ptr_eq(p, proto) || p.origin == proto.origin => (p, &p.code),
                _ => return self.foreign_error(new_base, span()),
            },
        };
        if nargs != proto.params.len() || self.depth() >= self.limits.depth {
            return self.frame_error(f, new_base, nargs, span());
        }
        if proto.boxes_params {
            for d in proto.params.iter().filter(|d| d.boxed) {
                let i = new_base + d.slot as usize;
                let v = match std::mem::replace(&mut self.stack[i], Slot::Unset) {
                    Slot::Val(v) => Some(v),
                    _ => None,
                };
                self.stack[i] = Slot::Cell(self.new_cell(v));
            }
        }
        let height = new_base + proto.slots as usize;
        if self.stack.len() < height {
            self.stack.resize_with(height, || Slot::Unset);
        }
        Ok(code)
    }

    /// A call from code: checks and enters `f` (arguments in the slots from `new_base`),
    /// keeping the caller (`code`, going on at `pc`) on the frame stack; returns the callee's
    /// code. `at` is the call's op, for errors; `own`: `f` is the running closure (its code
    /// is `code`), from [`Interp::own_closure`].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_frame(
        &mut self,
        f: Rc<Closure>,
        new_base: usize,
        nargs: usize,
        code: &'a Code,
        pc: usize,
        at: usize,
        own: bool,
    ) -> R<&'a Code> {
        let running = own.then_some(code);
        let callee = self.enter(&f, new_base, nargs, || code.spans[at], running)?;
        let base = std::mem::replace(&mut self.base, new_base);
        let closure = self.closure.replace(f);
        match self.frames.get_mut(self.nframes) {
            Some(frame) => {
                frame.code = code;
                frame.pc = pc as u32;
                frame.same = false;
                frame.base = base;
                // A frame above the running ones holds no closure (a return takes it, an
                // unwind clears it): the caller's is written without dropping what was there
                // (a test and a branch per call).
                debug_assert!(frame.closure.is_none());
                std::mem::forget(std::mem::replace(&mut frame.closure, closure));
            }
            None => self.frames.push(Frame {
                code,
                pc: pc as u32,
                same: false,
                base,
                closure,
            }),
        }
        self.nframes += 1;
        Ok(callee)
    }

    /// A call of a function value made by another program (see [`Interp::enter`]).
    #[cold]
    #[inline(never)]
    fn foreign_error<T>(&mut self, new_base: usize, span: Span) -> R<T> {
        self.pop_slots(new_base);
        fail(
            "Cannot call a function of another program: a function value runs only in the program that defined it",
            span,
        )
    }

    /// A call that cannot enter its frame: the wrong number of arguments, or too deep.
    #[cold]
    #[inline(never)]
    fn frame_error<T>(&mut self, f: &Closure, new_base: usize, nargs: usize, span: Span) -> R<T> {
        self.pop_slots(new_base);
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
        fail(
            format!("Too much recursion (limit {})", self.limits.depth),
            span,
        )
    }
}
