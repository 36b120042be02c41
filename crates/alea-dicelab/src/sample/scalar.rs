//! Evaluation of the nodes that give one value.

use super::cx::{Cx, R, div_k, fold_cmp, fold_cmp_by, fold_cmp_short, select, two_dice};
use super::node::{Link, Need, S};
use crate::ast::BinOp;
use crate::ops;

/// The "needs a single value" error of a list of `len` members.
fn not_single(cx: &mut Cx, need: Need, len: usize) -> super::cx::Stop {
    cx.fail(ops::not_single(need.what, need.at, len))
}

/// `a op b`, its error reported at `op_span`.
#[inline(always)]
fn binary(cx: &mut Cx, op: BinOp, a: i32, b: i32, op_span: alea_core::Span) -> R<i32> {
    match op {
        BinOp::Concat if b >= 0 => Ok(ops::concat_unchecked(a, b)),
        _ => ops::binary(op, a, b).map_err(|e| cx.fail(ops::arithmetic(op_span, e))),
    }
}

impl S {
    /// Leaves are evaluated in the caller (most operands are leaves), the rest in
    /// [`S::eval_node`]: this saves a call per leaf.
    #[inline(always)]
    pub(crate) fn eval<const P: bool>(&mut self, cx: &mut Cx) -> R<i32> {
        match self {
            S::Const(n, span) => {
                cx.own::<P>(1, *span)?;
                Ok(*n)
            }
            S::DieK { k, span, k_span } => {
                cx.own::<P>(1, *span)?;
                cx.own::<P>(1, *k_span)?;
                Ok(cx.die(*k))
            }
            S::Var { slot, span, .. } if !P => match cx.env[*slot][..] {
                [v] => Ok(v),
                _ => self.eval_node::<P>(cx),
            },
            // The fold of a bound variable (`count <6 x` in a loop body) in the fast mode,
            // where its own steps are charged ahead.
            S::AggCmpVar {
                op,
                cmp,
                fold,
                x,
                slot,
                ..
            } if !P => {
                let x = x.operand(cx)?;
                Ok(fold_cmp_by(*op, *cmp, x, &cx.env[*slot], *fold))
            }
            _ => self.eval_node::<P>(cx),
        }
    }

    /// [`S::BinDice`]: its step, the two dice, the operator. Inline in [`S::eval_node`] and
    /// in the roll loop of a statement that is one such node (`d6.d6`), where it saves the
    /// node's call.
    #[inline(always)]
    pub(crate) fn bin_dice<const P: bool>(&mut self, cx: &mut Cx) -> R<i32> {
        let S::BinDice {
            op,
            k,
            steps,
            span,
            op_span,
        } = self
        else {
            return self.eval_node::<P>(cx);
        };
        cx.own::<P>(1, *span)?;
        let (a, b) = if P {
            // Each die's steps before its draw, as the two `DieK` operands charge them.
            cx.own::<P>(1, steps[0])?;
            cx.own::<P>(1, steps[1])?;
            let a = cx.die(k[0]);
            cx.own::<P>(1, steps[2])?;
            cx.own::<P>(1, steps[3])?;
            (a, cx.die(k[1]))
        } else {
            two_dice(cx.rng, *k)
        };
        binary(cx, *op, a, b, *op_span)
    }

    /// An operand in the fast mode: a constant or a single-member variable here, anything
    /// else by its call.
    #[inline(always)]
    fn operand(&mut self, cx: &mut Cx) -> R<i32> {
        match self {
            S::Const(n, _) => Ok(*n),
            S::Var { slot, .. } => match cx.env[*slot][..] {
                [v] => Ok(v),
                _ => self.eval_node::<false>(cx),
            },
            _ => self.eval_node::<false>(cx),
        }
    }

    pub(crate) fn eval_node<const P: bool>(&mut self, cx: &mut Cx) -> R<i32> {
        match self {
            S::Const(..) | S::DieK { .. } => self.eval::<P>(cx),
            S::Chain { links, inner } => {
                // The links' own steps come first, outer to inner, as each link is entered.
                for &(_, span) in links.iter() {
                    cx.own::<P>(1, span)?;
                }
                let mut v = inner.eval::<P>(cx)?;
                for &(link, span) in links.iter().rev() {
                    v = match link {
                        Link::Neg => v.wrapping_neg(),
                        Link::Die => {
                            if v < 1 {
                                return Err(cx.fail(ops::bad_die(span, v)));
                            }
                            cx.die(v as u64)
                        }
                        Link::Agg(op) => ops::aggregate(op, [v]),
                    };
                }
                Ok(v)
            }
            S::Var { slot, span, need } => {
                cx.own::<P>(1, *span)?;
                match cx.env[*slot][..] {
                    [v] => Ok(v),
                    ref other => {
                        let len = other.len();
                        // The roller reads the variable as a list (one more step), then fails.
                        cx.add::<P>(1, *span)?;
                        Err(not_single(cx, *need, len))
                    }
                }
            }
            S::Unknown { span, name, steps } => {
                cx.own::<P>(1, *span)?;
                cx.add::<P>(*steps - 1, *span)?;
                Err(cx.fail(ops::unknown_variable(*span, name)))
            }
            S::Neg(a, span) => {
                cx.own::<P>(1, *span)?;
                Ok(a.eval::<P>(cx)?.wrapping_neg())
            }
            S::Bin {
                op,
                a,
                b,
                span,
                op_span,
            } => {
                cx.own::<P>(1, *span)?;
                let a = a.eval::<P>(cx)?;
                let b = b.eval::<P>(cx)?;
                binary(cx, *op, a, b, *op_span)
            }
            S::BinDice { .. } => self.bin_dice::<P>(cx),
            S::DivK { a, m, span, d_span } => {
                cx.own::<P>(1, *span)?;
                let a = a.eval::<P>(cx)?;
                cx.own::<P>(1, *d_span)?;
                Ok(div_k(a, *m))
            }
            S::Die(a, span) => {
                cx.own::<P>(1, *span)?;
                let n = a.eval::<P>(cx)?;
                if n < 1 {
                    return Err(cx.fail(ops::bad_die(*span, n)));
                }
                Ok(cx.die(n as u64))
            }
            S::Agg {
                op,
                list,
                buf,
                span,
            } => {
                cx.own::<P>(1, *span)?;
                buf.clear();
                list.eval::<P>(cx, buf)?;
                Ok(ops::aggregate(*op, buf.iter().copied()))
            }
            S::AggVar {
                op,
                slot,
                span,
                var_span,
            } => {
                cx.own::<P>(1, *span)?;
                cx.own::<P>(1, *var_span)?;
                Ok(ops::aggregate(*op, cx.env[*slot].iter().copied()))
            }
            S::AggDice {
                x,
                fold,
                n,
                k,
                span,
                repeat_span,
            } => {
                cx.own::<P>(1, *span)?;
                let x = match x {
                    Some(x) => x.eval::<P>(cx)?,
                    None => 0,
                };
                let n = n.eval::<P>(cx)?.max(0) as usize;
                cx.check_len(n, *repeat_span)?;
                cx.add::<P>(2 * n as u64, *repeat_span)?;
                Ok(fold(cx.rng, n, *k, x))
            }
            S::AggCmp {
                op,
                cmp,
                x,
                list,
                buf,
                span,
            } => {
                cx.own::<P>(1, *span)?;
                let x = x.eval::<P>(cx)?;
                buf.clear();
                list.eval::<P>(cx, buf)?;
                Ok(fold_cmp(*op, *cmp, x, buf))
            }
            S::AggCmpOne {
                op,
                cmp,
                x,
                s,
                span,
            } => {
                cx.own::<P>(1, *span)?;
                let x = x.eval::<P>(cx)?;
                let v = s.eval::<P>(cx)?;
                Ok(fold_cmp_short(*op, *cmp, x, &[v]))
            }
            S::AggCmpVar {
                fold,
                x,
                slot,
                span,
                var_span,
                ..
            } => {
                cx.own::<P>(1, *span)?;
                let x = x.eval::<P>(cx)?;
                cx.own::<P>(1, *var_span)?;
                Ok(fold(x, &cx.env[*slot]))
            }
            S::AggSel {
                op,
                sel,
                drop,
                k,
                list,
                buf,
                scratch,
                span,
                sel_span,
            } => {
                cx.own::<P>(1, *span)?;
                let k = k.eval::<P>(cx)?;
                if k < 0 {
                    return Err(cx.fail(ops::negative_count(*sel_span, *sel, k)));
                }
                buf.clear();
                list.eval::<P>(cx, buf)?;
                select(*sel, *drop, k as usize, buf, scratch, false);
                Ok(ops::aggregate(*op, buf.iter().copied()))
            }
            S::Extreme {
                largest,
                list,
                buf,
                span,
                one_span,
                need,
            } => {
                cx.own::<P>(1, *span)?;
                cx.own::<P>(1, *one_span)?;
                match list.extreme::<P>(cx, *largest, buf)? {
                    Some(v) => Ok(v),
                    None => Err(not_single(cx, *need, 0)),
                }
            }
            S::Single {
                list,
                buf,
                span,
                need,
            } => {
                cx.own::<P>(1, *span)?;
                buf.clear();
                list.eval::<P>(cx, buf)?;
                match buf[..] {
                    [v] => Ok(v),
                    _ => Err(not_single(cx, *need, buf.len())),
                }
            }
        }
    }
}
