//! Operators on values (`+`, comparisons, deep equality) and the size and display rules every
//! new value passes through (text/list/object limits, the display rule's step cost).
//!
//! Split from `interp.rs` because none of this depends on frames, slots or control flow: it
//! only needs the step budget and the size limits, and it is shared by expressions, compound
//! assignment, list methods and members.

use crate::ast::BinOp;
use crate::interp::{Interp, R, fail, num_op};
use crate::render::{Render, RenderError};
use crate::value::Value;
use alea_core::Span;

/// What a list item counts against [`crate::SizeLimits::memory`]: a fixed 24 bytes (what a
/// `Value` took when the budget was set), not `size_of::<Value>()`, so where a script runs out
/// of memory does not move when the value's layout does (it is 16 bytes now).
pub const ITEM_BYTES: usize = 24;

impl Interp<'_> {
    /// A binary operator on two values (also used by compound assignment).
    #[inline]
    pub fn apply(&mut self, op: BinOp, x: Value, y: Value, span: Span) -> R<Value> {
        if let (Value::Number(a), Value::Number(b)) = (&x, &y) {
            return Ok(num_op(op, *a, *b));
        }
        self.apply_other(op, x, y, span)
    }

    /// [`Interp::apply`] on anything but two numbers (out of line: arithmetic stays small).
    #[inline(never)]
    pub(crate) fn apply_other(&mut self, op: BinOp, x: Value, y: Value, span: Span) -> R<Value> {
        let bad = |x: &Value, y: &Value| {
            format!(
                "Operator {} cannot be applied to {} and {}",
                op.symbol(),
                x.type_name(),
                y.type_name()
            )
        };
        match op {
            BinOp::Eq => Ok(Value::Bool(self.equal(&x, &y, span)?)),
            BinOp::Ne => Ok(Value::Bool(!self.equal(&x, &y, span)?)),
            BinOp::Add => match (&x, &y) {
                (Value::Text(_), Value::Text(_) | Value::Number(_) | Value::Bool(_))
                | (Value::Number(_) | Value::Bool(_), Value::Text(_)) => {
                    // Texts, numbers and bools: as long as their parts, no steps of their own.
                    let mut r = Render::new(usize::MAX, u64::MAX);
                    let _ = r.display(&x, false);
                    let _ = r.display(&y, false);
                    self.text(r.out, span)
                }
                (Value::List(a), Value::List(b)) => {
                    let n = a.len() + b.len();
                    self.check_list(n, span)?;
                    self.burn(n as u64, span)?;
                    self.alloc_items(n, span)?;
                    let mut out = Vec::with_capacity(n);
                    out.extend(a.iter().cloned());
                    out.extend(b.iter().cloned());
                    Ok(Value::list(out))
                }
                _ => fail(bad(&x, &y), span),
            },
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => match (&x, &y) {
                (Value::Text(a), Value::Text(b)) => {
                    let ord = a.cmp(b);
                    Ok(Value::Bool(match op {
                        BinOp::Lt => ord.is_lt(),
                        BinOp::Gt => ord.is_gt(),
                        BinOp::Le => ord.is_le(),
                        _ => ord.is_ge(),
                    }))
                }
                _ => fail(bad(&x, &y), span),
            },
            _ => fail(bad(&x, &y), span),
        }
    }

    /// Deep equality, drawing one step per item compared (shared lists can be huge trees):
    /// [`crate::value::deep_equal`], the one implementation, iterative so nesting depth costs
    /// no native stack.
    pub fn equal(&mut self, x: &Value, y: &Value, span: Span) -> R<bool> {
        crate::value::deep_equal(x, y, || self.burn(1, span))
    }

    /// A new text, checked against the size limit and paid for (1 step per 64 bytes).
    pub fn text(&mut self, s: String, span: Span) -> R<Value> {
        self.burn((s.len() / 64) as u64, span)?;
        if s.len() > self.limits.text && s.chars().count() > self.limits.text {
            return fail("Text is too long", span);
        }
        self.alloc(s.len(), span)?;
        Ok(Value::from(s))
    }

    pub fn check_list(&self, n: usize, span: Span) -> R<()> {
        if n > self.limits.list {
            return fail("List is too long", span);
        }
        Ok(())
    }

    pub fn check_object(&self, n: usize, span: Span) -> R<()> {
        if n > self.limits.object {
            return fail("Object is too big", span);
        }
        Ok(())
    }

    /// The display rule within the text limit, paying one step per item visited and one per
    /// 64 bytes of text: [`Render`], the writer every rendering shares, bounded by the text
    /// limit and the steps left.
    pub fn display(&mut self, v: &Value, span: Span) -> R<String> {
        let mut r = Render::new(4 * self.limits.text, self.fuel);
        let done = r.display(v, false);
        match done {
            Err(RenderError::OutOfSteps) => return self.out_of_steps(span).map(|_| String::new()),
            // (`TooDeep` is JSON's alone.)
            Err(RenderError::TooLong | RenderError::TooDeep) => {
                self.burn(r.steps, span)?;
                return fail("Text is too long", span);
            }
            Ok(()) => self.burn(r.steps, span)?,
        }
        let out = r.out;
        if out.len() > self.limits.text && out.chars().count() > self.limits.text {
            return fail("Text is too long", span);
        }
        self.alloc(out.len(), span)?;
        Ok(out)
    }

    /// Takes `bytes` from the run's memory budget ([`crate::SizeLimits::memory`]): every text, list
    /// and object a run creates is counted when it is made, so memory is a budget of its own
    /// whatever the step budget (`--fuel 1000000000` cannot reach gigabytes).
    #[inline]
    pub fn alloc(&mut self, bytes: usize, span: Span) -> R<()> {
        match self.memory.checked_sub(bytes) {
            Some(m) => {
                self.memory = m;
                Ok(())
            }
            None => self.out_of_memory(span),
        }
    }

    #[cold]
    #[inline(never)]
    fn out_of_memory(&mut self, span: Span) -> R<()> {
        self.memory = 0;
        fail(
            format!(
                "Script ran out of memory (limit {} MiB)",
                self.limits.memory >> 20
            ),
            span,
        )
    }

    /// Takes the memory of a new list of `n` items, at [`ITEM_BYTES`] each.
    #[inline]
    pub fn alloc_items(&mut self, n: usize, span: Span) -> R<()> {
        self.alloc(n.saturating_mul(ITEM_BYTES), span)
    }
}
