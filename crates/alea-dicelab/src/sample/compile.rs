//! From the syntax tree to the compiled form ([`super::node`]): picks the specialised node for
//! each shape and computes each node's *cost*, the steps of its parts that always run (see
//! the step rules in [`crate::sample`]).

use super::cx::{fold_dice_fn, fold_list_fn, pool_dice_fn};
use super::node::{L, Link, Need, S};
use crate::ast::{Aggregate, BinOp, Expr, ExprKind, Selector, Var};
use crate::ops::{self, Operand};

pub(super) struct Compiler {
    /// Bindings enclosing the node being compiled (the environment's height).
    depth: usize,
    /// The most bindings ever enclosing a node: the environment's size.
    pub(super) slots: usize,
    /// Nodes enclosing the node being compiled, and the most ever: how deep evaluating the
    /// compiled form recurses (a chain is one node).
    level: usize,
    pub(super) deepest: usize,
    /// For a part compiled alone ([`Compiler::part`]): the bindings enclosing it and the
    /// ones it reads, ascending. Its environment holds those first, then its own bindings,
    /// so its size does not grow with the depth the part sits at.
    outer: Option<(usize, Box<[usize]>)>,
}

fn die_k(e: &Expr) -> Option<(u64, alea_core::Span)> {
    if let ExprKind::Die(size) = &e.kind
        && let ExprKind::Number(k) = size.kind
        && k >= 1
    {
        return Some((k as u64, size.span));
    }
    None
}

/// The link `e` is, with its operand: `-a`, `d a` (but not `dK`, which has a node of its
/// own), or an aggregate of a single-value expression other than a variable (`sum x` has one).
fn link(e: &Expr) -> Option<(Link, &Expr)> {
    match &e.kind {
        ExprKind::Neg(a) => Some((Link::Neg, a)),
        ExprKind::Die(a) if die_k(e).is_none() => Some((Link::Die, a)),
        ExprKind::Aggregate(op, a)
            if a.is_scalar_class() && !matches!(a.kind, ExprKind::Var(_)) =>
        {
            Some((Link::Agg(*op), a))
        }
        _ => None,
    }
}

fn link_of(e: &Expr) -> Option<Link> {
    link(e).map(|(l, _)| l)
}

impl Compiler {
    pub(super) fn new() -> Compiler {
        Compiler {
            depth: 0,
            slots: 0,
            level: 0,
            deepest: 0,
            outer: None,
        }
    }

    /// A compiler for a part enclosed by `depth` bindings of which it reads `free`
    /// (ascending): calc's deterministic parts, see [`super::fixed`]. The part's environment
    /// has those slots at `0..free.len()`, in that order, and its own bindings after them.
    pub(super) fn part(depth: usize, free: Box<[usize]>) -> Compiler {
        Compiler {
            depth,
            slots: free.len(),
            level: 0,
            deepest: 0,
            outer: Some((depth, free)),
        }
    }

    /// The environment index of the binding at height `slot`.
    fn index(&self, slot: usize) -> usize {
        match &self.outer {
            None => slot,
            Some((start, free)) if slot < *start => free
                .binary_search(&slot)
                .expect("a part's reads of outer bindings are listed in `free`"),
            Some((start, free)) => free.len() + slot - start,
        }
    }

    fn slot(&self, v: &Var) -> Option<usize> {
        v.slot
            .map(|s| s as usize)
            .filter(|&s| s < self.depth)
            .map(|s| self.index(s))
    }

    /// A node giving one value, and its cost. `need` names the operand in a "needs a single
    /// value" error (only list expressions and variables can raise it).
    pub(super) fn scalar(&mut self, e: &Expr, need: Need) -> (S, u64) {
        self.level += 1;
        self.deepest = self.deepest.max(self.level);
        let r = self.scalar_node(e, need);
        self.level -= 1;
        r
    }

    fn scalar_node(&mut self, e: &Expr, need: Need) -> (S, u64) {
        use ExprKind::*;
        // Walk down a run of links with a loop (see [`S::Chain`]); the innermost link is
        // compiled as usual.
        let mut links = Vec::new();
        let mut cur = e;
        while let Some((link, child)) = link(cur)
            && link_of(child).is_some()
        {
            links.push((link, cur.span));
            cur = child;
        }
        if !links.is_empty() {
            // Every link is one step; the innermost is a link too, never a list or a
            // variable, so it cannot raise "needs a single value".
            let (inner, c) = self.scalar(cur, need);
            let cost = links.len() as u64 + c;
            let node = S::Chain {
                links: links.into_boxed_slice(),
                inner: Box::new(inner),
            };
            return (node, cost);
        }
        let span = e.span;
        match &e.kind {
            Number(n) => (S::Const(*n, span), 1),
            Var(v) => match self.slot(v) {
                Some(slot) => (S::Var { slot, span, need }, 1),
                None => {
                    let name = v.name.clone().into_boxed_str();
                    // The roller's `scalar` steps once, then `eval_into` once more.
                    (
                        S::Unknown {
                            span,
                            name,
                            steps: 2,
                        },
                        1,
                    )
                }
            },
            Neg(a) => {
                let (a, c) = self.scalar(a, Need::of(Operand::Neg, span));
                (S::Neg(Box::new(a), span), 1 + c)
            }
            Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                let (a, ca) = self.scalar(lhs, Need::of(Operand::Left(*op), *op_span));
                let (b, cb) = self.scalar(rhs, Need::of(Operand::Right(*op), *op_span));
                if let (BinOp::Div, S::Const(d @ 2.., d_span)) = (op, &b) {
                    let node = S::DivK {
                        a: Box::new(a),
                        m: u64::MAX / *d as u64 + 1,
                        span,
                        d_span: *d_span,
                    };
                    return (node, 1 + ca + cb);
                }
                if let (
                    S::DieK {
                        k: ka,
                        span: a_span,
                        k_span: ka_span,
                    },
                    S::DieK {
                        k: kb,
                        span: b_span,
                        k_span: kb_span,
                    },
                ) = (&a, &b)
                {
                    let node = S::BinDice {
                        op: *op,
                        k: [*ka, *kb],
                        steps: [*a_span, *ka_span, *b_span, *kb_span],
                        span,
                        op_span: *op_span,
                    };
                    return (node, 1 + ca + cb);
                }
                let node = S::Bin {
                    op: *op,
                    a: Box::new(a),
                    b: Box::new(b),
                    span,
                    op_span: *op_span,
                };
                (node, 1 + ca + cb)
            }
            Die(a) => match die_k(e) {
                Some((k, k_span)) => (S::DieK { k, span, k_span }, 2),
                None => {
                    let (a, c) = self.scalar(a, Need::of(Operand::Die, span));
                    (S::Die(Box::new(a), span), 1 + c)
                }
            },
            Aggregate(op, a) => {
                let (node, c) = self.aggregate(*op, a, span);
                (node, 1 + c)
            }
            _ => {
                let (list, c) = self.list(e);
                if let L::Extreme {
                    largest,
                    list,
                    buf,
                    one_span,
                    ..
                } = list
                {
                    let node = S::Extreme {
                        largest,
                        list,
                        buf,
                        span,
                        one_span,
                        need,
                    };
                    return (node, 1 + c);
                }
                let node = S::Single {
                    list: Box::new(list),
                    buf: Vec::new(),
                    span,
                    need,
                };
                (node, 1 + c)
            }
        }
    }

    /// `op a`, without the aggregate's own step.
    fn aggregate(&mut self, op: Aggregate, a: &Expr, span: alea_core::Span) -> (S, u64) {
        if let ExprKind::Var(v) = &a.kind
            && let Some(slot) = self.slot(v)
        {
            let var_span = a.span;
            return (
                S::AggVar {
                    op,
                    slot,
                    span,
                    var_span,
                },
                1,
            );
        }
        if let ExprKind::Repeat {
            count,
            op_span,
            body,
        } = &a.kind
            && die_k(body).is_some()
        {
            let (n, cn) = self.scalar(count, Need::of(Operand::Count, *op_span));
            let (k, _) = die_k(body).unwrap_or((1, span));
            let node = S::AggDice {
                x: None,
                fold: fold_dice_fn(op, None),
                n: Box::new(n),
                k,
                span,
                repeat_span: a.span,
            };
            return (node, cn);
        }
        if let ExprKind::Filter {
            drop,
            selector,
            selector_span,
            n,
            list,
        } = &a.kind
            && let Some(cmp) = ops::comparison(*selector, *drop)
        {
            let (x, cx) = self.scalar(n, Need::of(Operand::Filter(*selector), *selector_span));
            if let ExprKind::Var(v) = &list.kind
                && let Some(slot) = self.slot(v)
            {
                let node = S::AggCmpVar {
                    op,
                    cmp,
                    fold: fold_list_fn(op, cmp),
                    x: Box::new(x),
                    slot,
                    span,
                    var_span: list.span,
                };
                return (node, cx + 1);
            }
            if let ExprKind::Repeat {
                count,
                op_span,
                body,
            } = &list.kind
                && let Some((k, _)) = die_k(body)
            {
                let (n, cn) = self.scalar(count, Need::of(Operand::Count, *op_span));
                let node = S::AggDice {
                    x: Some(Box::new(x)),
                    fold: fold_dice_fn(op, Some(cmp)),
                    n: Box::new(n),
                    k,
                    span,
                    repeat_span: list.span,
                };
                return (node, cx + cn);
            }
            let (list, cl) = self.list(list);
            if let L::Scalar(s, _) = list {
                let node = S::AggCmpOne {
                    op,
                    cmp,
                    x: Box::new(x),
                    s: Box::new(s),
                    span,
                };
                return (node, cx + cl);
            }
            let node = S::AggCmp {
                op,
                cmp,
                x: Box::new(x),
                list: Box::new(list),
                buf: Vec::new(),
                span,
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
            sel_span,
            ..
        } = list
        {
            let node = S::AggSel {
                op,
                sel,
                drop,
                k: Box::new(k),
                list,
                buf,
                scratch,
                span,
                sel_span,
            };
            return (node, c);
        }
        let node = S::Agg {
            op,
            list: Box::new(list),
            buf: Vec::new(),
            span,
        };
        (node, c)
    }

    /// Compiles the body of a binding one level deeper.
    fn bound(&mut self, body: &Expr) -> (usize, L, u64) {
        let slot = self.index(self.depth);
        self.depth += 1;
        self.slots = self.slots.max(slot + 1);
        let (b, c) = self.list(body);
        self.depth -= 1;
        (slot, b, c)
    }

    /// A node appending its members, and its cost.
    pub(super) fn list(&mut self, e: &Expr) -> (L, u64) {
        self.level += 1;
        self.deepest = self.deepest.max(self.level);
        let r = self.list_node(e);
        self.level -= 1;
        r
    }

    fn list_node(&mut self, e: &Expr) -> (L, u64) {
        use ExprKind::*;
        let span = e.span;
        match &e.kind {
            Number(_) | Neg(_) | Binary { .. } | Die(_) | Aggregate(..) => {
                // Never a list, so `need` is never used.
                let (s, c) = self.scalar(e, Need::of(Operand::Neg, span));
                (L::Scalar(s, span), c)
            }
            Var(v) => match self.slot(v) {
                Some(slot) => (L::Var { slot, span }, 1),
                None => {
                    let name = v.name.clone().into_boxed_str();
                    (L::Unknown { span, name }, 1)
                }
            },
            Empty => (L::Empty, 0),
            Repeat {
                count,
                op_span,
                body,
            } => {
                let (n, cn) = self.scalar(count, Need::of(Operand::Count, *op_span));
                if let Some((k, _)) = die_k(body) {
                    let literal = match n {
                        S::Const(c, _) => Some(c),
                        _ => None,
                    };
                    let many = pool_dice_fn(literal);
                    return (L::RepeatDice { n, k, span, many }, cn);
                }
                let (b, cb) = self.list(body);
                let per = 1 + cb;
                if let L::Scalar(body, body_span) = b {
                    let node = L::RepeatScalar {
                        n,
                        body,
                        per,
                        span,
                        body_span,
                    };
                    return (node, cn);
                }
                let body = Box::new(b);
                (L::Repeat { n, body, per, span }, cn)
            }
            Range { lo, op_span, hi } => {
                let (lo, ca) = self.scalar(lo, Need::of(Operand::RangeStart, *op_span));
                let (hi, cb) = self.scalar(hi, Need::of(Operand::RangeEnd, *op_span));
                (L::Range { lo, hi, span }, ca + cb)
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
                selector_span,
                n,
                list,
            } => {
                let need = Need::of(Operand::Filter(*selector), *selector_span);
                let (x, cx) = self.scalar(n, need);
                let (list, cl) = self.list(list);
                let list = Box::new(list);
                let node = if let Some(cmp) = ops::comparison(*selector, *drop) {
                    match *list {
                        L::Extreme {
                            largest,
                            list,
                            buf,
                            span,
                            one_span,
                        } => L::CmpExtreme {
                            cmp,
                            x,
                            largest,
                            list,
                            buf,
                            span,
                            one_span,
                        },
                        list => L::FilterCmp {
                            cmp,
                            x,
                            list: Box::new(list),
                        },
                    }
                } else if let (Selector::Low | Selector::High, false, S::Const(1, one_span)) =
                    (selector, drop, &x)
                {
                    let mut list = list;
                    // An extreme does not depend on the order of its list's members.
                    if let L::FilterSel { ordered, .. } = &mut *list {
                        *ordered = false;
                    }
                    L::Extreme {
                        largest: *selector == Selector::High,
                        list,
                        buf: Vec::new(),
                        span,
                        one_span: *one_span,
                    }
                } else {
                    L::FilterSel {
                        sel: *selector,
                        drop: *drop,
                        k: x,
                        list,
                        buf: Vec::new(),
                        scratch: Vec::new(),
                        span,
                        sel_span: *selector_span,
                        ordered: true,
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
                    span,
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
                    span,
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
                    span,
                };
                (node, ci)
            }
        }
    }
}

impl Need {
    pub(super) fn of(what: Operand, at: alea_core::Span) -> Need {
        Need { what, at }
    }
}
