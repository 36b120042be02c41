//! The compiled sampler of eval mode: a statement compiled once into a tree of specialised
//! nodes that rolls without allocating (every node owns the scratch buffers it needs, and
//! each binding depth owns one environment buffer).
//!
//! It draws exactly what [`crate::roll`] draws, in the same order, and gives the same value.
//! It does not build error messages: on anything that might be an error (a step, list or
//! `while` limit, `d0`, `1/0`, an unknown variable, a list where a single value is needed)
//! it gives up ([`Bail`]), and the caller rolls the same roll again with the tree-walking
//! [`crate::Roller`] from the same RNG state, which reports the error with its span (or, if
//! giving up was too cautious, the value). Errors end the evaluation, so their cost does not
//! matter; what matters is that the compiled path never returns a value where the roller
//! reports an error.
//!
//! **Steps.** The roller counts evaluation steps and fails as soon as a roll passes
//! [`MAX_STEPS`]. Since steps only grow, a roll fails on steps exactly when its total passes
//! the limit; the compiler precomputes the steps of every part that always runs (a node's
//! *cost*), loops and `if` add the cost of their bodies when they run them, and a roll gives
//! up when the total passes the limit (checked in every loop, so it also stops early).

use crate::ast::{Aggregate, BinOp, Expr, ExprKind, Reorder, Selector, Statement};
use crate::ops;
use crate::roll::{MAX_LIST_LEN, MAX_STEPS, MAX_WHILE_ITERATIONS, compact};
use alea_core::Rng;

/// The compiled path gave up on a roll (see the module docs).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Bail;

type R<T> = Result<T, Bail>;

/// Nodes that give one value.
#[derive(Clone, Debug)]
enum S {
    Const(i32),
    /// A variable that must hold exactly one value.
    Var(usize),
    Neg(Box<S>),
    Bin(BinOp, Box<S>, Box<S>),
    /// `a / d` with a literal `d ≥ 2`: a multiplication by the precomputed
    /// `floor((2^64 - 1) / d) + 1` instead of a division (exact for 32-bit operands).
    DivK(Box<S>, u64),
    /// `dK` with a literal `K ≥ 1`.
    DieK(u64),
    Die(Box<S>),
    Agg {
        op: Aggregate,
        list: Box<L>,
        buf: Vec<i32>,
    },
    /// `sum x` on a variable: folds the bound value in place.
    AggVar {
        op: Aggregate,
        slot: usize,
    },
    /// `count >7 e`: folds the members that pass, without compacting.
    AggCmp {
        op: Aggregate,
        sel: Selector,
        drop: bool,
        x: Box<S>,
        list: Box<L>,
        buf: Vec<i32>,
    },
    AggCmpVar {
        op: Aggregate,
        sel: Selector,
        drop: bool,
        x: Box<S>,
        slot: usize,
    },
    /// `sum (drop low 1 e)`: folds the selected members in their own buffer (the order of the
    /// members does not matter to a fold).
    AggSel {
        op: Aggregate,
        sel: Selector,
        drop: bool,
        k: Box<S>,
        list: Box<L>,
        buf: Vec<i32>,
        scratch: Vec<i32>,
    },
    /// `high 1 e` / `low 1 e` where one value is needed: the extreme member.
    Extreme {
        largest: bool,
        list: Box<L>,
        buf: Vec<i32>,
    },
    /// A list expression where one value is needed.
    Single {
        list: Box<L>,
        buf: Vec<i32>,
    },
    /// Always an error (an unknown variable).
    Fail,
}

/// Nodes that append their members to an output buffer.
#[derive(Clone, Debug)]
enum L {
    Scalar(S),
    Var(usize),
    Empty,
    /// `n#dK` with a literal `K ≥ 1` (the roller's fast path, 2 steps a die).
    RepeatDice {
        n: S,
        k: u64,
    },
    Repeat {
        n: S,
        body: Box<L>,
        per: u64,
    },
    /// `n#e` with a single-value `e`.
    RepeatScalar {
        n: S,
        body: S,
        per: u64,
    },
    Range {
        lo: S,
        hi: S,
    },
    List(Vec<L>),
    Reorder(Reorder, Box<L>),
    FilterCmp {
        sel: Selector,
        drop: bool,
        x: S,
        list: Box<L>,
    },
    FilterSel {
        sel: Selector,
        drop: bool,
        k: S,
        list: Box<L>,
        buf: Vec<i32>,
        scratch: Vec<i32>,
    },
    If {
        cond: Box<L>,
        buf: Vec<i32>,
        then: Box<L>,
        then_cost: u64,
        other: Box<L>,
        other_cost: u64,
    },
    Let {
        slot: usize,
        value: Box<L>,
        buf: Vec<i32>,
        body: Box<L>,
    },
    Foreach {
        slot: usize,
        list: Box<L>,
        members: Vec<i32>,
        body: Box<L>,
        per: u64,
    },
    While {
        slot: usize,
        init: Box<L>,
        next: Vec<i32>,
        body: Box<L>,
        per: u64,
    },
    Fail,
}

#[derive(Clone, Debug)]
enum Root {
    Scalar(S),
    List(L),
}

/// A compiled statement with its buffers. Keep one per thread.
#[derive(Clone, Debug)]
pub(crate) struct Sampler {
    root: Root,
    cost: u64,
    env: Vec<Vec<i32>>,
    out: Vec<i32>,
}

/// Deepest statement the compiler takes (deeper ones stay with the roller, which the caller
/// runs on a big stack).
pub(crate) const MAX_COMPILE_DEPTH: usize = 256;

struct Compiler {
    /// Bindings enclosing the node being compiled (the roller's environment stack height).
    depth: usize,
    slots: usize,
}

fn is_die_k(e: &Expr) -> Option<u64> {
    if let ExprKind::Die(size) = &e.kind
        && let ExprKind::Number(k) = size.kind
        && k >= 1
    {
        return Some(k as u64);
    }
    None
}

impl Compiler {
    fn slot(&self, v: &crate::ast::Var) -> Option<usize> {
        v.slot.map(|s| s as usize).filter(|&s| s < self.depth)
    }

    /// A scalar node and its steps (the roller's `scalar`: one step, then the operands).
    fn scalar(&mut self, e: &Expr) -> (S, u64) {
        use ExprKind::*;
        match &e.kind {
            Number(n) => (S::Const(*n), 1),
            Var(v) => match self.slot(v) {
                Some(s) => (S::Var(s), 1),
                None => (S::Fail, 1),
            },
            Neg(a) => {
                let (a, c) = self.scalar(a);
                (S::Neg(Box::new(a)), 1 + c)
            }
            Binary { op, lhs, rhs, .. } => {
                let (a, ca) = self.scalar(lhs);
                let (b, cb) = self.scalar(rhs);
                if let (BinOp::Div, S::Const(d @ 2..)) = (op, &b) {
                    return (S::DivK(Box::new(a), u64::MAX / *d as u64 + 1), 1 + ca + cb);
                }
                (S::Bin(*op, Box::new(a), Box::new(b)), 1 + ca + cb)
            }
            Die(a) => match is_die_k(e) {
                Some(k) => (S::DieK(k), 2),
                None => {
                    let (a, c) = self.scalar(a);
                    (S::Die(Box::new(a)), 1 + c)
                }
            },
            Aggregate(op, a) => {
                let (node, c) = self.aggregate(*op, a);
                (node, 1 + c)
            }
            _ => {
                let (list, c) = self.list(e);
                if let L::FilterSel {
                    sel: sel @ (Selector::Low | Selector::High),
                    drop: false,
                    k: S::Const(1),
                    list,
                    ..
                } = list
                {
                    let largest = sel == Selector::High;
                    let buf = Vec::new();
                    return (S::Extreme { largest, list, buf }, 1 + c);
                }
                (
                    S::Single {
                        list: Box::new(list),
                        buf: Vec::new(),
                    },
                    1 + c,
                )
            }
        }
    }

    /// `op a`, without the aggregate's own step.
    fn aggregate(&mut self, op: Aggregate, a: &Expr) -> (S, u64) {
        if let ExprKind::Var(v) = &a.kind
            && let Some(slot) = self.slot(v)
        {
            return (S::AggVar { op, slot }, 1);
        }
        if let ExprKind::Filter {
            drop,
            selector,
            n,
            list,
            ..
        } = &a.kind
            && selector.is_comparison()
        {
            let (x, cx) = self.scalar(n);
            if let ExprKind::Var(v) = &list.kind
                && let Some(slot) = self.slot(v)
            {
                let node = S::AggCmpVar {
                    op,
                    sel: *selector,
                    drop: *drop,
                    x: Box::new(x),
                    slot,
                };
                return (node, cx + 1);
            }
            let (list, cl) = self.list(list);
            let node = S::AggCmp {
                op,
                sel: *selector,
                drop: *drop,
                x: Box::new(x),
                list: Box::new(list),
                buf: Vec::new(),
            };
            return (node, cx + cl);
        }
        let (list, c) = self.list(a);
        if let L::FilterSel {
            sel,
            drop,
            k,
            list,
            buf,
            scratch,
        } = list
        {
            let k = Box::new(k);
            let node = S::AggSel {
                op,
                sel,
                drop,
                k,
                list,
                buf,
                scratch,
            };
            return (node, c);
        }
        let node = S::Agg {
            op,
            list: Box::new(list),
            buf: Vec::new(),
        };
        (node, c)
    }

    /// Compiles the body of a binding one level deeper.
    fn bound(&mut self, body: &Expr) -> (usize, L, u64) {
        let slot = self.depth;
        self.depth += 1;
        self.slots = self.slots.max(self.depth);
        let (b, c) = self.list(body);
        self.depth -= 1;
        (slot, b, c)
    }

    /// A list node and its steps (the roller's `eval_into`).
    fn list(&mut self, e: &Expr) -> (L, u64) {
        use ExprKind::*;
        match &e.kind {
            Number(_) | Neg(_) | Binary { .. } | Die(_) | Aggregate(..) => {
                let (s, c) = self.scalar(e);
                (L::Scalar(s), c)
            }
            Var(v) => match self.slot(v) {
                Some(s) => (L::Var(s), 1),
                None => (L::Fail, 1),
            },
            Empty => (L::Empty, 0),
            Repeat { count, body, .. } => {
                let (n, cn) = self.scalar(count);
                if let Some(k) = is_die_k(body) {
                    return (L::RepeatDice { n, k }, cn);
                }
                let (b, cb) = self.list(body);
                if let L::Scalar(body) = b {
                    let per = 1 + cb;
                    return (L::RepeatScalar { n, body, per }, cn);
                }
                let node = L::Repeat {
                    n,
                    body: Box::new(b),
                    per: 1 + cb,
                };
                (node, cn)
            }
            Range { lo, hi, .. } => {
                let (lo, ca) = self.scalar(lo);
                let (hi, cb) = self.scalar(hi);
                (L::Range { lo, hi }, ca + cb)
            }
            List(items) => {
                let mut cost = 0;
                let nodes = items
                    .iter()
                    .map(|item| {
                        let (node, c) = self.list(item);
                        cost += c;
                        node
                    })
                    .collect();
                (L::List(nodes), cost)
            }
            Reorder(op, a) => {
                let (a, c) = self.list(a);
                (L::Reorder(*op, Box::new(a)), c)
            }
            Filter {
                drop,
                selector,
                n,
                list,
                ..
            } => {
                let (x, cx) = self.scalar(n);
                let (list, cl) = self.list(list);
                let list = Box::new(list);
                let node = if selector.is_comparison() {
                    L::FilterCmp {
                        sel: *selector,
                        drop: *drop,
                        x,
                        list,
                    }
                } else {
                    L::FilterSel {
                        sel: *selector,
                        drop: *drop,
                        k: x,
                        list,
                        buf: Vec::new(),
                        scratch: Vec::new(),
                    }
                };
                (node, cx + cl)
            }
            If {
                cond,
                then_branch,
                else_branch,
            } => {
                let (cond, cc) = self.list(cond);
                let (then, then_cost) = self.list(then_branch);
                let (other, other_cost) = self.list(else_branch);
                let node = L::If {
                    cond: Box::new(cond),
                    buf: Vec::new(),
                    then: Box::new(then),
                    then_cost,
                    other: Box::new(other),
                    other_cost,
                };
                (node, cc + 1)
            }
            Let { value, body, .. } => {
                let (value, cv) = self.list(value);
                let (slot, body, cb) = self.bound(body);
                let node = L::Let {
                    slot,
                    value: Box::new(value),
                    buf: Vec::new(),
                    body: Box::new(body),
                };
                (node, cv + cb)
            }
            Foreach { list, body, .. } => {
                let (list, cl) = self.list(list);
                let (slot, body, cb) = self.bound(body);
                let node = L::Foreach {
                    slot,
                    list: Box::new(list),
                    members: Vec::new(),
                    body: Box::new(body),
                    per: 1 + cb,
                };
                (node, cl)
            }
            While { init, body, .. } => {
                let (init, ci) = self.list(init);
                let (slot, body, cb) = self.bound(body);
                let node = L::While {
                    slot,
                    init: Box::new(init),
                    next: Vec::new(),
                    body: Box::new(body),
                    per: 1 + cb,
                };
                (node, ci)
            }
        }
    }
}

impl Sampler {
    /// Compiles `statement` (the caller keeps statements deeper than [`MAX_COMPILE_DEPTH`]
    /// away from the compiler).
    pub(crate) fn new(statement: &Statement) -> Sampler {
        let mut c = Compiler { depth: 0, slots: 0 };
        let e = &statement.expr;
        // The roller's eval mode: scalar classes other than a variable are rolled as one
        // value, everything else as a list that must have at most one member.
        let (root, cost) = if e.is_scalar_class() && !matches!(e.kind, ExprKind::Var(_)) {
            let (s, cost) = c.scalar(e);
            (Root::Scalar(s), cost)
        } else {
            let (l, cost) = c.list(e);
            (Root::List(l), cost)
        };
        Sampler {
            root,
            cost,
            env: vec![Vec::new(); c.slots],
            out: Vec::new(),
        }
    }

    /// One roll in eval mode: `None` for `()`, else the single value.
    pub(crate) fn roll_single(&mut self, rng: &mut Rng) -> R<Option<i32>> {
        let mut cx = Cx {
            rng,
            env: &mut self.env,
            steps: self.cost,
        };
        let v = match &mut self.root {
            Root::Scalar(s) => Some(s.eval(&mut cx)?),
            Root::List(l) => {
                self.out.clear();
                l.eval(&mut cx, &mut self.out)?;
                match self.out[..] {
                    [] => None,
                    [v] => Some(v),
                    _ => return Err(Bail),
                }
            }
        };
        cx.check()?;
        Ok(v)
    }
}

struct Cx<'a> {
    rng: &'a mut Rng,
    env: &'a mut [Vec<i32>],
    steps: u64,
}

impl Cx<'_> {
    #[inline]
    fn add(&mut self, steps: u64) -> R<()> {
        let before = self.steps;
        self.steps = self.steps.saturating_add(steps);
        // A host's time limit: bail, and the roller's rerun reports it.
        if alea_core::Cancel::poll(before, self.steps) {
            return Err(Bail);
        }
        self.check()
    }

    #[inline]
    fn check(&self) -> R<()> {
        if self.steps > MAX_STEPS {
            Err(Bail)
        } else {
            Ok(())
        }
    }

    /// `dk`: the roller's `range_inclusive(1, k)`, which is `1 + below(k)`.
    #[inline(always)]
    fn die(&mut self, k: u64) -> i32 {
        (1 + self.rng.below(k)) as i32
    }
}

#[inline]
fn check_len(len: usize) -> R<()> {
    if len > MAX_LIST_LEN {
        Err(Bail)
    } else {
        Ok(())
    }
}

#[inline]
fn fold(op: Aggregate, items: &[i32]) -> i32 {
    match op {
        Aggregate::Sum => items.iter().fold(0i32, |s, &x| s.wrapping_add(x)),
        Aggregate::Prod => items.iter().fold(1i32, |s, &x| s.wrapping_mul(x)),
        Aggregate::Count => items.len() as i32,
    }
}

#[inline]
fn fold_by(op: Aggregate, items: &[i32], keep: impl Fn(i32) -> bool) -> i32 {
    let kept = items.iter().copied().filter(|&m| keep(m));
    match op {
        Aggregate::Sum => kept.fold(0i32, |s, x| s.wrapping_add(x)),
        Aggregate::Prod => kept.fold(1i32, |s, x| s.wrapping_mul(x)),
        Aggregate::Count => kept.count() as i32,
    }
}

/// `op (SEL x items)` for a comparison selector, without building the filtered list.
fn fold_cmp(op: Aggregate, sel: Selector, drop: bool, x: i32, items: &[i32]) -> i32 {
    match sel {
        Selector::Eq => fold_by(op, items, |m| (m == x) != drop),
        Selector::Ne => fold_by(op, items, |m| (m != x) != drop),
        Selector::Lt => fold_by(op, items, |m| (m < x) != drop),
        Selector::Gt => fold_by(op, items, |m| (m > x) != drop),
        Selector::Le => fold_by(op, items, |m| (m <= x) != drop),
        _ => fold_by(op, items, |m| (m >= x) != drop),
    }
}

/// `a / d` (truncating) for `d ≥ 2`, with `m = floor((2^64 - 1) / d) + 1`: `|a| < 2^32`, so
/// the high half of `|a|·m` is `floor(|a| / d)` (Lemire, Kaser & Kurz 2019).
#[inline]
fn div_k(a: i32, m: u64) -> i32 {
    let q = ((u128::from(a.unsigned_abs()) * u128::from(m)) >> 64) as u32;
    // |a / d| ≤ 2^30 for d ≥ 2, so the quotient fits and its sign follows `a`.
    if a < 0 {
        (q as i32).wrapping_neg()
    } else {
        q as i32
    }
}

/// [`ops::concat`] for `b ≥ 0`: `a·10^k ± b` wrapped to 32 bits, computed in wrapping 32-bit
/// arithmetic (which agrees with the exact result modulo 2^32).
#[inline]
fn concat(a: i32, b: i32) -> i32 {
    let mut scale = 10i32;
    let mut rest = b / 10;
    while rest > 0 {
        scale = scale.wrapping_mul(10);
        rest /= 10;
    }
    let head = a.wrapping_mul(scale);
    if a < 0 {
        head.wrapping_sub(b)
    } else {
        head.wrapping_add(b)
    }
}

/// `high k`/`low k`/… of a list into `buf`: the count first (a negative count is left to the
/// roller, which reports it), then the members, then the selection.
fn selected(
    cx: &mut Cx,
    (sel, drop): (Selector, bool),
    k: &mut S,
    list: &mut L,
    buf: &mut Vec<i32>,
    scratch: &mut Vec<i32>,
    ordered: bool,
) -> R<()> {
    let k = k.eval(cx)?;
    if k < 0 {
        return Err(Bail);
    }
    buf.clear();
    list.eval(cx, buf)?;
    select(sel, drop, k as usize, buf, scratch, ordered);
    Ok(())
}

/// [`ops::select_count`], with direct paths for the commonest `low`/`high` filters (keep one
/// member, or all but one) that give the same members without sorting a copy. Without
/// `ordered`, the members may come out in another order (for a fold).
fn select(
    sel: Selector,
    drop: bool,
    n: usize,
    list: &mut Vec<i32>,
    scratch: &mut Vec<i32>,
    ordered: bool,
) {
    let len = list.len();
    let n = n.min(len);
    let (m, smallest) = match (sel, drop) {
        (Selector::Low, false) => (n, true),
        (Selector::High, false) => (n, false),
        (Selector::Low, true) => (len - n, false),
        (Selector::High, true) => (len - n, true),
        _ => return ops::select_count(sel, drop, n, list, scratch),
    };
    if m >= len || m == 0 || (m > 1 && m + 1 < len) {
        return ops::select_count(sel, drop, n, list, scratch);
    }
    if m == 1 {
        // The one extreme member (equal members are the same value).
        let best = if smallest {
            list.iter().copied().min()
        } else {
            list.iter().copied().max()
        };
        list.clear();
        list.extend(best);
        return;
    }
    // All but one: the opposite extreme goes, its last occurrence (earliest are kept).
    let mut at = 0;
    for i in 1..len {
        let (v, w) = (list[i], list[at]);
        if (smallest && v >= w) || (!smallest && v <= w) {
            at = i;
        }
    }
    if ordered {
        list.remove(at);
    } else {
        list.swap_remove(at);
    }
}

impl S {
    /// Leaves are evaluated in the caller (most operands are leaves), the rest in
    /// [`S::eval_node`]: this saves a call per leaf.
    #[inline(always)]
    fn eval(&mut self, cx: &mut Cx) -> R<i32> {
        match self {
            S::Const(n) => Ok(*n),
            S::DieK(k) => Ok(cx.die(*k)),
            _ => self.eval_node(cx),
        }
    }

    fn eval_node(&mut self, cx: &mut Cx) -> R<i32> {
        match self {
            S::Const(n) => Ok(*n),
            S::Var(s) => match cx.env[*s][..] {
                [v] => Ok(v),
                _ => Err(Bail),
            },
            S::Neg(a) => Ok(a.eval(cx)?.wrapping_neg()),
            S::Bin(op, a, b) => {
                let a = a.eval(cx)?;
                let b = b.eval(cx)?;
                match op {
                    BinOp::Concat if b >= 0 => Ok(concat(a, b)),
                    _ => ops::binary(*op, a, b).map_err(|_| Bail),
                }
            }
            S::DivK(a, m) => Ok(div_k(a.eval(cx)?, *m)),
            S::DieK(k) => Ok(cx.die(*k)),
            S::Die(a) => {
                let n = a.eval(cx)?;
                if n < 1 {
                    return Err(Bail);
                }
                Ok(cx.die(n as u64))
            }
            S::Agg { op, list, buf } => {
                buf.clear();
                list.eval(cx, buf)?;
                Ok(fold(*op, buf))
            }
            S::AggVar { op, slot } => Ok(fold(*op, &cx.env[*slot])),
            S::AggCmp {
                op,
                sel,
                drop,
                x,
                list,
                buf,
            } => {
                let x = x.eval(cx)?;
                buf.clear();
                list.eval(cx, buf)?;
                Ok(fold_cmp(*op, *sel, *drop, x, buf))
            }
            S::AggCmpVar {
                op,
                sel,
                drop,
                x,
                slot,
            } => {
                let x = x.eval(cx)?;
                Ok(fold_cmp(*op, *sel, *drop, x, &cx.env[*slot]))
            }
            S::AggSel {
                op,
                sel,
                drop,
                k,
                list,
                buf,
                scratch,
            } => {
                selected(cx, (*sel, *drop), k, list, buf, scratch, false)?;
                Ok(fold(*op, buf))
            }
            S::Extreme { largest, list, buf } => {
                let members = match **list {
                    L::Var(slot) => &cx.env[slot][..],
                    _ => {
                        buf.clear();
                        list.eval(cx, buf)?;
                        &buf[..]
                    }
                };
                let best = if *largest {
                    members.iter().max()
                } else {
                    members.iter().min()
                };
                best.copied().ok_or(Bail)
            }
            S::Single { list, buf } => {
                buf.clear();
                list.eval(cx, buf)?;
                match buf[..] {
                    [v] => Ok(v),
                    _ => Err(Bail),
                }
            }
            S::Fail => Err(Bail),
        }
    }
}

impl L {
    /// Single values are pushed in the caller, the rest goes to [`L::eval_node`].
    #[inline(always)]
    fn eval(&mut self, cx: &mut Cx, out: &mut Vec<i32>) -> R<()> {
        match self {
            L::Scalar(s) => {
                let v = s.eval(cx)?;
                out.push(v);
                check_len(out.len())
            }
            _ => self.eval_node(cx, out),
        }
    }

    fn eval_node(&mut self, cx: &mut Cx, out: &mut Vec<i32>) -> R<()> {
        match self {
            L::Scalar(s) => {
                let v = s.eval(cx)?;
                out.push(v);
                check_len(out.len())
            }
            L::Var(s) => {
                let value = &cx.env[*s];
                check_len(out.len() + value.len())?;
                out.extend_from_slice(value);
                Ok(())
            }
            L::Empty => Ok(()),
            L::RepeatDice { n, k } => {
                let n = n.eval(cx)?.max(0) as usize;
                check_len(out.len().saturating_add(n))?;
                cx.add(2 * n as u64)?;
                out.reserve(n);
                let k = *k;
                for _ in 0..n {
                    let v = cx.die(k);
                    out.push(v);
                }
                Ok(())
            }
            L::Repeat { n, body, per } => {
                let n = n.eval(cx)?.max(0) as u64;
                cx.add(n * *per)?;
                for _ in 0..n {
                    body.eval(cx, out)?;
                    cx.check()?;
                }
                Ok(())
            }
            L::RepeatScalar { n, body, per } => {
                let n = n.eval(cx)?.max(0) as usize;
                cx.add(n as u64 * *per)?;
                // The roller checks the length after each push; past the limit it fails at
                // the latest on the last one.
                check_len(out.len().saturating_add(n))?;
                for _ in 0..n {
                    let v = body.eval(cx)?;
                    out.push(v);
                }
                Ok(())
            }
            L::Range { lo, hi } => {
                let a = lo.eval(cx)?;
                let b = hi.eval(cx)?;
                if a <= b {
                    let n = (i64::from(b) - i64::from(a) + 1) as usize;
                    check_len(out.len().saturating_add(n))?;
                    cx.add(n as u64 / 16)?;
                    out.extend(a..=b);
                }
                Ok(())
            }
            L::List(items) => {
                for item in items {
                    item.eval(cx, out)?;
                }
                Ok(())
            }
            L::Reorder(op, a) => {
                let start = out.len();
                a.eval(cx, out)?;
                let tail = &mut out[start..];
                match op {
                    Reorder::Perm => cx.rng.shuffle(tail),
                    Reorder::Sort => tail.sort_unstable(),
                    Reorder::Rev => tail.reverse(),
                }
                Ok(())
            }
            L::FilterCmp { sel, drop, x, list } => {
                let k = x.eval(cx)?;
                let start = out.len();
                list.eval(cx, out)?;
                let d = *drop;
                match sel {
                    Selector::Eq => compact(out, start, |m| (m == k) != d),
                    Selector::Ne => compact(out, start, |m| (m != k) != d),
                    Selector::Lt => compact(out, start, |m| (m < k) != d),
                    Selector::Gt => compact(out, start, |m| (m > k) != d),
                    Selector::Le => compact(out, start, |m| (m <= k) != d),
                    _ => compact(out, start, |m| (m >= k) != d),
                }
                Ok(())
            }
            L::FilterSel {
                sel,
                drop,
                k,
                list,
                buf,
                scratch,
            } => {
                selected(cx, (*sel, *drop), k, list, buf, scratch, true)?;
                out.extend_from_slice(buf);
                check_len(out.len())
            }
            L::If {
                cond,
                buf,
                then,
                then_cost,
                other,
                other_cost,
            } => {
                let taken = match &mut **cond {
                    // `if >0 x`: whether any member passes, without a list.
                    L::FilterCmp { sel, drop, x, list } if matches!(**list, L::Var(_)) => {
                        let x = x.eval(cx)?;
                        let L::Var(slot) = **list else {
                            return Err(Bail);
                        };
                        fold_cmp(Aggregate::Count, *sel, *drop, x, &cx.env[slot]) > 0
                    }
                    cond => {
                        buf.clear();
                        cond.eval(cx, buf)?;
                        !buf.is_empty()
                    }
                };
                if taken {
                    cx.add(*then_cost)?;
                    then.eval(cx, out)
                } else {
                    cx.add(*other_cost)?;
                    other.eval(cx, out)
                }
            }
            L::Let {
                slot,
                value,
                buf,
                body,
            } => {
                // The value may use this depth's buffer for its own bindings: evaluate it
                // aside, then bind it.
                buf.clear();
                value.eval(cx, buf)?;
                std::mem::swap(buf, &mut cx.env[*slot]);
                body.eval(cx, out)
            }
            L::Foreach {
                slot,
                list,
                members,
                body,
                per,
            } => {
                members.clear();
                list.eval(cx, members)?;
                for &m in members.iter() {
                    cx.add(*per)?;
                    let bound = &mut cx.env[*slot];
                    bound.clear();
                    bound.push(m);
                    body.eval(cx, out)?;
                }
                Ok(())
            }
            L::While {
                slot,
                init,
                next,
                body,
                per,
            } => {
                next.clear();
                init.eval(cx, next)?;
                std::mem::swap(next, &mut cx.env[*slot]);
                let mut iterations = 0u64;
                while !cx.env[*slot].is_empty() {
                    let current = &cx.env[*slot];
                    check_len(out.len() + current.len())?;
                    out.extend_from_slice(current);
                    iterations += 1;
                    if iterations > MAX_WHILE_ITERATIONS {
                        return Err(Bail);
                    }
                    cx.add(*per)?;
                    next.clear();
                    body.eval(cx, next)?;
                    std::mem::swap(next, &mut cx.env[*slot]);
                }
                Ok(())
            }
            L::Fail => Err(Bail),
        }
    }
}

#[cfg(test)]
mod tests;
