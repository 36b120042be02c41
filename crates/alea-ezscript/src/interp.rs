//! The evaluator's state and the helpers its ops share: frames of slots, an operand stack and
//! the frame stack of user calls (`vm.rs` runs the flat code of `code.rs` over them), drawing
//! on a step budget.

use crate::ast::BinOp;
use crate::builtins::Builtin;
use crate::code::{BlockDecls, Code};
use crate::format::Formatter;
use crate::host::{Global, Host, Previous};
use crate::ir::{Capture, Name, Proto, Was};
use crate::value::Value;
use alea_core::Span;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

mod call;
mod cycles;
mod step;
mod stmt;
mod vm;

/// A shared, possibly unset variable captured by a closure.
pub type Cell = Rc<RefCell<Option<Value>>>;

/// A native function provided by a host.
pub type NativeFn = dyn Fn(&[Value]) -> Result<Value, String>;

/// A function value.
pub enum Closure {
    /// A function written in EZScript, with its captured variables.
    User {
        /// Its code.
        proto: Arc<Proto>,
        /// Where `proto` is in its program's list of functions.
        index: u32,
        /// Its captured variables (shared with the scopes that define them).
        captures: Vec<Cell>,
    },
    /// A built-in function used as a value (`list.map(round)`).
    Builtin(Builtin),
    /// A host function (`defaultPayoutPercentages`).
    Native {
        /// Its name, for messages.
        name: Rc<str>,
        /// The function.
        f: Box<NativeFn>,
    },
}

impl Closure {
    /// A host function value.
    pub fn native(name: &str, f: impl Fn(&[Value]) -> Result<Value, String> + 'static) -> Value {
        Value::Function(Rc::new(Closure::Native {
            name: Rc::from(name),
            f: Box::new(f),
        }))
    }
}

impl fmt::Debug for Closure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Closure::User { proto, .. } => write!(f, "<function {:?}>", proto.name),
            Closure::Builtin(b) => write!(f, "<builtin {}>", b.name()),
            Closure::Native { name, .. } => write!(f, "<native {name}>"),
        }
    }
}

/// A run-time error: the spec's message and where it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    /// The message, exactly as the spec words it.
    pub message: String,
    /// The node that failed.
    pub span: Span,
}

pub enum Flow {
    Err(Box<RunError>),
    Break,
    Continue,
}

pub type R<T> = Result<T, Flow>;

pub fn fail<T>(message: impl Into<String>, span: Span) -> R<T> {
    Err(Flow::Err(Box::new(RunError {
        message: message.into(),
        span,
    })))
}

/// Size limits of spec §11.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeLimits {
    /// Characters in one text.
    pub text: usize,
    /// Items in one list.
    pub list: usize,
    /// Keys in one object.
    pub object: usize,
    /// User call depth (callbacks included).
    pub depth: u32,
    /// Runs of the evaluator nested in native code, each calling a user function from a list
    /// method (`map`, `where`, `sort` … with a function) or an object's function member: each
    /// takes native stack (user calls in code do not: they are frames on the interpreter's
    /// own stack, limited by `depth` alone), so they are counted. The default fits a default
    /// 2 MiB thread with room to spare, and lets `depth` stop ordinary recursion through
    /// callbacks (two calls per nesting).
    pub callbacks: u32,
    /// Bytes of texts, lists and objects one run may create, counted when each is made
    /// (deterministic: the same script stops at the same point on every machine). Steps run
    /// out first under the default budget; this bounds runs with a much larger `--fuel`.
    pub memory: usize,
}

impl Default for SizeLimits {
    fn default() -> Self {
        SizeLimits {
            text: 100_000,
            list: 100_000,
            object: 10_000,
            depth: 500,
            callbacks: 256,
            memory: 64 << 20,
        }
    }
}

// `Val` first: with this order the compiler tests "a number or unset" (`pop_slots`) in
// fewer instructions (measured by callgrind: fib25 -0.3 %, list pipeline -0.2 %).
pub(crate) enum Slot {
    Val(Value),
    Unset,
    Cell(Cell),
}

/// A caller's state, kept while its callee runs (the frame stack replaces native recursion).
struct Frame<'a> {
    code: &'a Code,
    pc: u32,
    /// The callee is the caller's closure, which stays the running one (a call of the running
    /// function by its own name, see [`crate::code::Op::CallUpvalLocalNum`]): no closure is
    /// kept here and none restored by the return.
    same: bool,
    base: usize,
    /// The caller's closure, while another runs.
    closure: Option<Rc<Closure>>,
}

pub struct Interp<'a> {
    pub protos: &'a [Arc<Proto>],
    pub script_names: &'a [Name],
    /// The program's text constants, and their values made in this run.
    texts: &'a [Name],
    text_values: Vec<Option<Value>>,
    /// The slots of every active frame, the script's first.
    stack: Vec<Slot>,
    /// The operand stack of every active frame.
    operands: Vec<Value>,
    /// The callers of the running function: the first `nframes` (the vector only grows, so a
    /// call writes a frame's fields in place instead of building one and copying it).
    frames: Vec<Frame<'a>>,
    nframes: usize,
    /// Where the running frame's slots start.
    base: usize,
    closure: Option<Rc<Closure>>,
    pub fuel: u64,
    /// Bytes left of [`SizeLimits::memory`].
    pub memory: usize,
    /// Runs of the evaluator nested in native calls (callbacks, see [`SizeLimits::callbacks`]).
    nested: u32,
    pub host: &'a dyn Host,
    pub formatter: &'a dyn Formatter,
    pub limits: SizeLimits,
    /// Inside the argument of `was` & co: locals may not be read.
    forbid_locals: Option<Was>,
    cycles: cycles::Tracked,
}

impl<'a> Interp<'a> {
    pub fn new(
        protos: &'a [Arc<Proto>],
        script_names: &'a [Name],
        texts: &'a [Name],
        host: &'a dyn Host,
        formatter: &'a dyn Formatter,
        fuel: u64,
        limits: SizeLimits,
    ) -> Interp<'a> {
        let mut stack = Vec::with_capacity(256);
        stack.resize_with(script_names.len(), || Slot::Unset);
        Interp {
            protos,
            script_names,
            texts,
            text_values: Vec::new(),
            stack,
            operands: Vec::with_capacity(64),
            frames: Vec::with_capacity(64),
            nframes: 0,
            base: 0,
            closure: None,
            fuel,
            memory: limits.memory,
            nested: 0,
            host,
            formatter,
            limits,
            forbid_locals: None,
            cycles: Default::default(),
        }
    }

    #[inline]
    pub fn burn(&mut self, n: u64, span: Span) -> R<()> {
        match self.fuel.checked_sub(n) {
            Some(f) => {
                let before = std::mem::replace(&mut self.fuel, f);
                // A host's time limit (alea_core::Cancel), polled every POLL_STEPS steps.
                if alea_core::Cancel::poll(before, f) {
                    return self.out_of_time(span);
                }
                Ok(())
            }
            None => self.out_of_steps(span),
        }
    }

    #[cold]
    #[inline(never)]
    fn out_of_time(&mut self, span: Span) -> R<()> {
        self.fuel = 0;
        fail("Script stopped: the host's time limit was reached", span)
    }

    /// Out of line: every node pays for [`Interp::burn`], none for building this error.
    #[cold]
    #[inline(never)]
    pub(crate) fn out_of_steps(&mut self, span: Span) -> R<()> {
        self.fuel = 0;
        fail("Script ran out of steps", span)
    }

    fn slot_name(&self, slot: u32) -> Name {
        match self.closure.as_deref() {
            Some(Closure::User { proto, .. }) => proto.slot_names[slot as usize].clone(),
            _ => self.script_names[slot as usize].clone(),
        }
    }

    fn upval_name(&self, i: u32) -> Name {
        match self.closure.as_deref() {
            Some(Closure::User { proto, .. }) => proto.capture_names[i as usize].clone(),
            _ => Arc::from("?"),
        }
    }

    /// Runs a top-level chunk in the script frame.
    pub fn run_chunk(&mut self, code: &'a Code) -> Result<Value, RunError> {
        let height = self.stack.len();
        let operands = self.operands.len();
        let result = self.run(code);
        self.truncate_frames(0);
        self.pop_slots(height);
        self.operands.truncate(operands);
        self.base = 0;
        self.closure = None;
        self.nested = 0;
        self.forbid_locals = None;
        match result {
            Ok(v) => Ok(v),
            Err(Flow::Err(e)) => Err(*e),
            Err(_) => Err(RunError {
                message: "break outside a loop".into(),
                span: Span::default(),
            }),
        }
    }

    /// The user call depth: the frames of calls made from code, plus one for each callback
    /// running (a callback's own call pushes no frame: its caller is native).
    #[inline(always)]
    fn depth(&self) -> u32 {
        self.nframes as u32 + self.nested
    }

    /// Drops the frames from `n` on (what a failed run left).
    fn truncate_frames(&mut self, n: usize) {
        for f in self.frames.iter_mut().take(self.nframes).skip(n) {
            f.closure = None;
        }
        self.nframes = self.nframes.min(n);
    }

    /// Drops the slots from `height` on.
    #[inline(always)]
    fn pop_slots(&mut self, height: usize) {
        // Checked in place: a number owns nothing, so it is forgotten, not dropped (`truncate`
        // and a dropped `pop` both call the drop glue, a call and a jump table per slot; a
        // popped slot matched whole is copied out first). Numbers alone are one comparison of
        // the tag (with `Unset` too the slot's variant is decoded first).
        while self.stack.len() > height {
            if let Some(Slot::Val(Value::Number(_))) = self.stack.last() {
                std::mem::forget(self.stack.pop());
            } else {
                self.drop_slot();
            }
        }
    }

    /// Drops the top slot (any but a number: see [`Interp::pop_slots`]).
    #[inline(never)]
    fn drop_slot(&mut self) {
        self.stack.pop();
    }

    /// Resets a block's declared slots and creates its named functions.
    #[inline(never)]
    fn declare_block(&mut self, block: &BlockDecls) {
        for d in &block.decls {
            self.stack[self.base + d.slot as usize] = if d.boxed {
                Slot::Cell(self.new_cell(None))
            } else {
                Slot::Unset
            };
        }
        for &(slot, proto) in &block.hoisted {
            let f = self.make_closure(proto);
            self.store(slot, f);
        }
    }

    fn store(&mut self, slot: u32, v: Value) {
        let s = &mut self.stack[self.base + slot as usize];
        match s {
            Slot::Cell(c) => *c.borrow_mut() = Some(v),
            _ => *s = Slot::Val(v),
        }
    }

    fn make_closure(&mut self, index: u32) -> Value {
        let proto = self.protos[index as usize].clone();
        let captures = proto
            .captures
            .iter()
            .map(|c| match c {
                Capture::Local(slot) => match &self.stack[self.base + *slot as usize] {
                    Slot::Cell(cell) => cell.clone(),
                    // Not boxed yet (cannot happen: the resolver boxes every captured slot).
                    _ => Rc::new(RefCell::new(None)),
                },
                Capture::Upval(i) => match self.closure.as_deref() {
                    Some(Closure::User { captures, .. }) => captures[*i as usize].clone(),
                    _ => Rc::new(RefCell::new(None)),
                },
            })
            .collect();
        Value::Function(Rc::new(Closure::User {
            proto,
            index,
            captures,
        }))
    }

    fn check_local_allowed(&self, name: impl Fn() -> Name, span: Span) -> R<()> {
        if let Some(was) = self.forbid_locals {
            return fail(
                format!(
                    "{}() can only read tournament values; {} is a local name",
                    was.name(),
                    name()
                ),
                span,
            );
        }
        Ok(())
    }

    /// A local in any state (unset: a global of its name; inside `was()`: an error).
    #[inline(never)]
    fn read_local(&self, slot: u32, span: Span) -> R<Value> {
        let v = match &self.stack[self.base + slot as usize] {
            Slot::Val(v) => Some(v.clone()),
            Slot::Cell(c) => c.borrow().clone(),
            Slot::Unset => None,
        };
        match v {
            Some(v) => {
                self.check_local_allowed(|| self.slot_name(slot), span)?;
                Ok(v)
            }
            None => self.global(&self.slot_name(slot), span),
        }
    }

    #[inline(never)]
    fn read_upval(&self, i: u32, span: Span) -> R<Value> {
        let v = match self.closure.as_deref() {
            Some(Closure::User { captures, .. }) => captures[i as usize].borrow().clone(),
            _ => None,
        };
        match v {
            Some(v) => {
                self.check_local_allowed(|| self.upval_name(i), span)?;
                Ok(v)
            }
            None => self.global(&self.upval_name(i), span),
        }
    }

    /// A name that is not (or not yet) a local: built-ins, then the host.
    pub fn global(&self, name: &str, span: Span) -> R<Value> {
        if name.is_empty() {
            return fail("Syntax error", span);
        }
        if name == "PI" {
            return Ok(Value::Number(std::f64::consts::PI));
        }
        if let Some(b) = Builtin::by_name(name) {
            return Ok(Value::Function(Rc::new(Closure::Builtin(b))));
        }
        match self.host.global(name) {
            Global::Value(Ok(v)) => Ok(v),
            Global::Value(Err(e)) => fail(e, span),
            Global::NotAvailable => fail(format!("{name} is not available in this field"), span),
            Global::Unknown => {
                if matches!(name, "was" | "changed" | "becameTrue") {
                    fail(format!("{name} is not available in this field"), span)
                } else {
                    fail(format!("Unknown name {name}"), span)
                }
            }
        }
    }

    /// The value of text constant `i`, made on its first use in this run.
    fn text_constant(&mut self, i: u32) -> Value {
        let i = i as usize;
        if self.text_values.len() <= i {
            self.text_values.resize(self.texts.len().max(i + 1), None);
        }
        self.text_values[i]
            .get_or_insert_with(|| Value::text(&self.texts[i]))
            .clone()
    }

    /// A fused `local op number` condition on a local that holds no number (or inside
    /// `was()`).
    #[cold]
    #[inline(never)]
    fn local_cmp_slow(
        &mut self,
        op: BinOp,
        slot: u32,
        y: f64,
        local_span: Span,
        span: Span,
    ) -> R<bool> {
        let x = self.read_local(slot, local_span)?;
        match self.apply(op, x, Value::Number(y), span)? {
            Value::Bool(b) => Ok(b),
            _ => fail("Condition must evaluate to true or false.", span),
        }
    }

    /// `was` & co. when the previous tick is not available at all (checked before the
    /// argument's current value is made).
    fn was_check(&self, kind: Was, span: Span) -> R<()> {
        if let Previous::NotAvailable = self.host.previous() {
            return fail(
                format!("{} is not available in this field", kind.name()),
                span,
            );
        }
        Ok(())
    }

    /// The rest of `was` & co.: the argument (`sub`) against the previous tick, where its
    /// errors are answers (`changed`: changed), then the answer.
    fn was(&mut self, kind: Was, sub: &'a Code, current: Option<Value>, span: Span) -> R<Value> {
        let host = self.host;
        let earlier = match host.previous() {
            Previous::Snapshot(prev) => {
                let saved_forbid = self.forbid_locals.replace(kind);
                self.host = prev;
                let operands = self.operands.len();
                let r = self.run(sub);
                // It reads no locals, so calls no user function: only operands to drop.
                self.operands.truncate(operands);
                self.host = host;
                self.forbid_locals = saved_forbid;
                r
            }
            _ => Err(Flow::Err(Box::new(RunError {
                message: "was() has no earlier value".into(),
                span,
            }))),
        };
        match kind {
            Was::Was => earlier,
            Was::Changed => {
                let current = current.unwrap_or_default();
                match earlier {
                    Ok(e) => Ok(Value::Bool(!self.equal(&current, &e, span)?)),
                    Err(Flow::Err(_)) => Ok(Value::Bool(true)),
                    Err(other) => Err(other),
                }
            }
            Was::BecameTrue => {
                let Some(Value::Bool(now)) = current else {
                    let arg_span = sub.spans.last().copied().unwrap_or_default();
                    return fail("becameTrue() needs true or false", arg_span);
                };
                match earlier {
                    Ok(Value::Bool(before)) => Ok(Value::Bool(now && !before)),
                    Ok(_) | Err(Flow::Err(_)) => Ok(Value::Bool(now)),
                    Err(other) => Err(other),
                }
            }
        }
    }
}

/// `x % y` (Euclidean, like `f64::rem_euclid`). Positive whole numbers below 2^53 take an
/// integer remainder, which is exact and equal to it, instead of the libm `fmod` call.
#[inline(always)]
pub fn rem(x: f64, y: f64) -> f64 {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if x > 0.0 && y > 0.0 && x < EXACT && y < EXACT {
        // Whole when the truncating conversion round-trips (no libm `trunc` call).
        let (a, b) = (x as u64, y as u64);
        if a as f64 == x && b as f64 == y {
            return (a % b) as f64;
        }
    }
    x.rem_euclid(y)
}

/// Which comparison results each comparison operator accepts, as bits indexed by
/// [`order_bits`]: 1 for unordered (a NaN), 2 for less, 4 for equal, 8 for greater.
pub(crate) const fn accepts(op: BinOp) -> u8 {
    match op {
        BinOp::Lt => 2,
        BinOp::Le => 2 | 4,
        BinOp::Gt => 8,
        BinOp::Ge => 4 | 8,
        BinOp::Eq => 4,
        BinOp::Ne => 1 | 2 | 8,
        _ => 0,
    }
}

/// The bit of [`accepts`] for `x` against `y`. Branches rather than a jump table on the
/// operator: a loop's or an `if`'s comparison mostly goes the same way, which predicts well.
#[inline(always)]
fn order_bits(x: f64, y: f64) -> u8 {
    if x < y {
        2
    } else if x > y {
        8
    } else if x == y {
        4
    } else {
        1
    }
}

/// A comparison operator on two numbers (other operators: false).
#[inline(always)]
pub(crate) fn compare_num(op: BinOp, x: f64, y: f64) -> bool {
    compare_accepts(accepts(op), x, y)
}

/// [`compare_num`] with the operator's [`accepts`] already known.
#[inline(always)]
pub(crate) fn compare_accepts(accepts: u8, x: f64, y: f64) -> bool {
    accepts & order_bits(x, y) != 0
}

/// Whether `op` compares (gives true or false on numbers).
#[inline(always)]
pub(crate) fn is_comparison(op: BinOp) -> bool {
    accepts(op) != 0
}

/// An arithmetic operator on two numbers (comparisons and `&&`/`||`: NaN, never asked).
#[inline(always)]
pub(crate) fn arith(op: BinOp, x: f64, y: f64) -> f64 {
    match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => x / y,
        BinOp::Rem => rem(x, y),
        _ => f64::NAN,
    }
}

/// A binary operator on two numbers (`And`/`Or` never reach here: they need booleans).
#[inline(always)]
pub fn num_op(op: BinOp, x: f64, y: f64) -> Value {
    match op {
        BinOp::Add => Value::Number(x + y),
        BinOp::Sub => Value::Number(x - y),
        BinOp::Mul => Value::Number(x * y),
        BinOp::Div => Value::Number(x / y),
        BinOp::Rem => Value::Number(rem(x, y)),
        BinOp::Eq => Value::Bool(x == y),
        BinOp::Ne => Value::Bool(x != y),
        BinOp::Lt => Value::Bool(x < y),
        BinOp::Gt => Value::Bool(x > y),
        BinOp::Le => Value::Bool(x <= y),
        BinOp::Ge => Value::Bool(x >= y),
        BinOp::And | BinOp::Or => Value::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::{BinOp, compare_num, num_op, rem};
    use crate::value::Value;

    /// A slot is a value with two more states in the value's spare tag values: 16 bytes too.
    #[test]
    fn a_slot_is_16_bytes() {
        assert_eq!(std::mem::size_of::<super::Slot>(), 16);
    }

    #[test]
    fn compare_num_matches_the_operators() {
        let xs = [
            f64::NAN,
            f64::NEG_INFINITY,
            -1.0,
            -0.0,
            0.0,
            0.5,
            1.0,
            f64::INFINITY,
        ];
        for op in [
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::Eq,
            BinOp::Ne,
        ] {
            for &x in &xs {
                for &y in &xs {
                    let Value::Bool(want) = num_op(op, x, y) else {
                        panic!("{op:?} compares");
                    };
                    assert_eq!(compare_num(op, x, y), want, "{x} {op:?} {y}");
                }
            }
        }
    }

    #[test]
    fn rem_matches_rem_euclid() {
        let xs = [
            0.0,
            -0.0,
            1.0,
            2.0,
            7.0,
            999.0,
            1000.0,
            1e15,
            9_007_199_254_740_991.0,
            2f64.powi(53),
            2f64.powi(60),
            0.5,
            7.5,
            -7.0,
            -7.5,
            f64::INFINITY,
            f64::NAN,
            1e-300,
        ];
        for &x in &xs {
            for &y in &xs {
                for (x, y) in [(x, y), (-x, y), (x, -y)] {
                    let (got, want) = (rem(x, y), x.rem_euclid(y));
                    assert!(
                        got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                        "{x} % {y}: {got} != {want}"
                    );
                }
            }
        }
    }
}
