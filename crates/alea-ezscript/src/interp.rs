//! The evaluator: walks the resolved tree over a stack of slots, drawing on a step budget.

use crate::ast::{BinOp, UnOp};
use crate::builtins::Builtin;
use crate::format::Formatter;
use crate::host::{Global, Host, Previous};
use crate::ir::*;
use crate::value::{Map, Value};
use alea_core::Span;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

mod call;
mod stmt;

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
    /// Bytes of native stack the nested user calls of a run may use, measured from where the
    /// run started (a backstop under `depth`: a call nested inside deep expressions, or a
    /// callback through a list method, takes more than a plain one). The default fits a
    /// default 2 MiB thread with room to spare: a plain recursive call takes about 1.2 KB
    /// (measured: 1,741 nested `1 + f(n - 1)` calls fill 2 MiB; docs/performance/ezscript.md),
    /// so `depth` is what stops ordinary recursion.
    pub stack: usize,
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
            stack: 1 << 20,
            memory: 64 << 20,
        }
    }
}

enum Slot {
    Unset,
    Val(Value),
    Cell(Cell),
}

pub struct Interp<'a> {
    pub protos: &'a [Arc<Proto>],
    pub script_names: &'a [Name],
    /// The program's text constants, and their values made in this run.
    texts: &'a [Name],
    text_values: Vec<Option<Value>>,
    stack: Vec<Slot>,
    base: usize,
    closure: Option<Rc<Closure>>,
    pub fuel: u64,
    /// Bytes left of [`SizeLimits::memory`].
    pub memory: usize,
    depth: u32,
    /// The address of a local of [`Interp::run_chunk`]: where the run's native stack starts.
    stack_start: usize,
    pub host: &'a dyn Host,
    pub formatter: &'a dyn Formatter,
    pub limits: SizeLimits,
    /// Inside the argument of `was` & co: locals may not be read.
    forbid_locals: Option<Was>,
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
            base: 0,
            closure: None,
            fuel,
            memory: limits.memory,
            depth: 0,
            stack_start: 0,
            host,
            formatter,
            limits,
            forbid_locals: None,
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
    pub fn run_chunk(&mut self, block: &Block) -> Result<Value, RunError> {
        let marker = 0u8;
        if self.depth == 0 {
            self.stack_start = native_stack_address(&marker);
        }
        let base = self.base;
        let height = self.stack.len();
        let result = self.block(block);
        self.base = base;
        self.stack.truncate(height);
        self.closure = None;
        self.depth = 0;
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

    #[inline(always)]
    fn enter_block(&mut self, block: &Block) {
        // Most blocks (loop bodies, `then` branches) declare nothing.
        if block.declares {
            self.declare_block(block);
        }
    }

    #[inline(never)]
    fn declare_block(&mut self, block: &Block) {
        for d in &block.decls {
            self.stack[self.base + d.slot as usize] = if d.boxed {
                Slot::Cell(Rc::new(RefCell::new(None)))
            } else {
                Slot::Unset
            };
        }
        for &(slot, proto) in &block.hoisted {
            let f = self.make_closure(proto);
            self.store(slot, f);
        }
    }

    #[inline(always)]
    fn block(&mut self, block: &Block) -> R<Value> {
        self.enter_block(block);
        for stmt in &block.stmts {
            self.exec(stmt)?;
        }
        match &block.tail {
            Some(e) => self.eval(e),
            None => Ok(Value::Nothing),
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

    #[inline]
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

    /// Evaluates a node: pays its steps ([`Node::cost`], computed at compile time), then runs
    /// its one arm. The hot kinds are here; the rest in [`Interp::eval_rest`], out of line, so
    /// this stays small.
    pub fn eval(&mut self, node: &Node) -> R<Value> {
        self.burn(node.cost as u64, node.span)?;
        let span = node.span;
        match &node.kind {
            NodeKind::Const(c) => Ok(match *c {
                Const::Number(x) => Value::Number(x),
                Const::Bool(b) => Value::Bool(b),
                Const::Nothing => Value::Nothing,
                Const::Text(i) => self.text_constant(i),
            }),
            NodeKind::Local(slot) => {
                // The common case inline: a plain slot outside `was()`.
                if self.forbid_locals.is_none()
                    && let Slot::Val(v) = &self.stack[self.base + *slot as usize]
                {
                    // A number without the out-of-line `clone`.
                    return Ok(match v {
                        Value::Number(x) => Value::Number(*x),
                        v => v.clone(),
                    });
                }
                self.read_local(*slot, span)
            }
            NodeKind::Upval(i) => {
                if self.forbid_locals.is_none()
                    && let Some(Closure::User { captures, .. }) = self.closure.as_deref()
                    && let Some(v) = &*captures[*i as usize].borrow()
                {
                    return Ok(v.clone());
                }
                self.read_upval(*i, span)
            }
            NodeKind::Binary(op, a, b) => self.binary(*op, a, b, span),
            NodeKind::LocalNum(op, slot, y, _) => {
                if self.forbid_locals.is_none()
                    && let Slot::Val(Value::Number(x)) = &self.stack[self.base + *slot as usize]
                {
                    return Ok(num_op(*op, *x, *y));
                }
                self.eval_rest(node)
            }
            NodeKind::If(cond, then, els) => {
                if self.condition(cond)? {
                    self.block(then)
                } else {
                    match els {
                        Some(e) => self.eval(e),
                        None => Ok(Value::Nothing),
                    }
                }
            }
            NodeKind::Block(b) => self.block(b),
            NodeKind::Call(callee, args) => self.call_node(callee, args, span),
            NodeKind::CallUpval(i, callee_span, args) => {
                self.call_upval(*i, *callee_span, args, span)
            }
            NodeKind::CallUpvalLocalNum {
                upval,
                callee_span,
                op,
                slot,
                y,
                local_span,
                arg_span,
            } => {
                let f = self.upval_function(*upval, *callee_span)?;
                let arg = match &self.stack[self.base + *slot as usize] {
                    Slot::Val(Value::Number(x)) if self.forbid_locals.is_none() => {
                        num_op(*op, *x, *y)
                    }
                    _ => {
                        let x = self.read_local(*slot, *local_span)?;
                        self.apply(*op, x, Value::Number(*y), *arg_span)?
                    }
                };
                self.call_with(f, arg, span)
            }
            _ => self.eval_rest(node),
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

    /// The node kinds that loops and calls rarely run, kept out of [`Interp::eval`] so its hot
    /// path stays small. The node's step is already paid.
    #[inline(never)]
    fn eval_rest(&mut self, node: &Node) -> R<Value> {
        let span = node.span;
        match &node.kind {
            NodeKind::Global(name) => self.global(name, span),
            NodeKind::LocalNum(op, slot, y, local_span) => {
                // The fused node's steps and fast path are in `eval`: not a number here.
                let x = self.read_local(*slot, *local_span)?;
                self.apply(*op, x, Value::Number(*y), span)
            }
            NodeKind::Unary(op, e) => {
                let v = self.eval(e)?;
                match (op, v) {
                    (UnOp::Neg, Value::Number(x)) => Ok(Value::Number(-x)),
                    (UnOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
                    (UnOp::Neg, v) => fail(
                        format!("Operator - cannot be applied to {}", v.type_name()),
                        span,
                    ),
                    (UnOp::Not, v) => fail(
                        format!("Operator ! needs true or false, got {}", v.type_name()),
                        span,
                    ),
                }
            }
            NodeKind::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.eval(item)?);
                }
                self.alloc_items(out.len(), span)?;
                Ok(Value::list(out))
            }
            NodeKind::Object(entries) => {
                let mut map = Map::with_capacity(entries.len());
                for (k, v) in entries {
                    let v = self.eval(v)?;
                    map.insert(Rc::from(&**k), v);
                }
                self.check_object(map.len(), span)?;
                self.alloc_items(2 * map.len(), span)?;
                Ok(Value::Object(Rc::new(map)))
            }
            NodeKind::Func(index) => Ok(self.make_closure(*index)),
            NodeKind::Member(obj, name) => {
                let recv = self.eval(obj)?;
                self.member(&recv, name, span)
            }
            NodeKind::Method(obj, name, args) => {
                let recv = self.eval(obj)?;
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a)?);
                }
                self.method(recv, name, values, span)
            }
            NodeKind::Index(obj, index) => {
                let recv = self.eval(obj)?;
                let key = self.eval(index)?;
                self.index(&recv, &key, span)
            }
            NodeKind::CallBuiltin(b, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a)?);
                }
                self.call_builtin(*b, &values, span)
            }
            NodeKind::Was(kind, arg) => self.was(*kind, arg, span),
            NodeKind::Const(_)
            | NodeKind::Local(_)
            | NodeKind::Upval(_)
            | NodeKind::Binary(..)
            | NodeKind::If(..)
            | NodeKind::Block(_)
            | NodeKind::Call(..)
            | NodeKind::CallUpval(..)
            | NodeKind::CallUpvalLocalNum { .. } => fail("internal: eval_rest on a hot node", span),
        }
    }

    /// A condition of an `if` or a loop, whose steps the `if` or the loop pass has paid.
    #[inline(always)]
    fn condition(&mut self, cond: &Cond) -> R<bool> {
        match cond {
            Cond::LocalCmp {
                op,
                slot,
                y,
                local_span,
                span,
            } => {
                if self.forbid_locals.is_none()
                    && let Slot::Val(Value::Number(x)) = &self.stack[self.base + *slot as usize]
                    && let Some(b) = compare(*op, *x, *y)
                {
                    return Ok(b);
                }
                self.local_cmp_slow(*op, *slot, *y, *local_span, *span)
            }
            Cond::Value(node) => match self.eval(node)? {
                Value::Bool(b) => Ok(b),
                _ => fail("Condition must evaluate to true or false.", node.span),
            },
        }
    }

    /// [`Cond::LocalCmp`] on a local that holds no number (or inside `was()`).
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

    fn was(&mut self, kind: Was, arg: &Node, span: Span) -> R<Value> {
        let host = self.host;
        let snapshot = match host.previous() {
            Previous::NotAvailable => {
                return fail(
                    format!("{} is not available in this field", kind.name()),
                    span,
                );
            }
            Previous::NoSnapshot => None,
            Previous::Snapshot(h) => Some(h),
        };
        let current = if kind == Was::Was {
            None
        } else {
            Some(self.eval(arg)?)
        };
        let earlier = match snapshot {
            None => Err(Flow::Err(Box::new(RunError {
                message: "was() has no earlier value".into(),
                span,
            }))),
            Some(prev) => {
                let saved_forbid = self.forbid_locals.replace(kind);
                self.host = prev;
                let r = self.eval(arg);
                self.host = host;
                self.forbid_locals = saved_forbid;
                r
            }
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
                    return fail("becameTrue() needs true or false", arg.span);
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

/// The address of a local: where the native stack is (safe code: the address is only compared,
/// never dereferenced).
#[inline(always)]
pub(crate) fn native_stack_address(local: &u8) -> usize {
    std::ptr::from_ref(local) as usize
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

/// A comparison of two numbers; `None` for the other operators.
#[inline(always)]
fn compare(op: BinOp, x: f64, y: f64) -> Option<bool> {
    Some(match op {
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        _ => return None,
    })
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
    use super::rem;

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
