//! The exact evaluator: every construct of dicelab.md §3 as a distribution over values.
//!
//! Randomness is independent everywhere except through variables, so each node is evaluated
//! to the distribution of its value *given the current bindings*; `let`, `foreach`, `while`
//! and random counts condition on a bound value and mix the results ([`Dist::bind`]). Under an
//! unordered mark (see `marks.rs`) lists are kept sorted, which turns sequences into multisets,
//! and `n#die` stays a lazy pool evaluated outcome by outcome.

use super::marks::{BindingOrder, node_key};
use super::ops;
use super::pool::{Keep, LazyPool};
use super::reads::{Positions, SingleReads};
use super::repeat::Positional;
use super::{classes, faces, list_len};
use crate::ast::{self, Expr, ExprKind, Selector};
use crate::ops::Operand;
use alea_core::{Diagnostic, Span};
use alea_prob::{Budget, Dist, Order, ProbError};
use std::collections::HashMap;

// A value of dicelab (a list) plus whether a `while` cut off its path (for the truncated
// mass report; values follow roll semantics either way), stored compactly.
pub(crate) use super::val::Val;

/// Steps charged per conditioned outcome in [`Calc::mix`].
const MIX_PART_STEPS: u64 = 32;

/// Steps charged per value of a `let` binding whose body is evaluated directly (binding,
/// evaluating and merging the value).
const LET_VALUE_STEPS: u64 = 16;

// The longest list calc builds is roll mode's (dicelab.md §3 limits), with its error
// ([`list_len`]).
use crate::roll::MAX_LIST_LEN;

/// What a node evaluates to: a distribution, or (unordered only) a lazy pool of dice.
#[derive(Clone)]
pub(crate) enum Repr {
    Dist(Dist<Val>),
    Pool(LazyPool),
}

pub(crate) struct Calc<'a> {
    pub budget: Budget,
    pub binding_order: BindingOrder,
    pub threshold: f32,
    pub env: Vec<Val>,
    /// Nodes without randomness (see `concrete.rs`).
    pub deterministic: std::collections::HashSet<usize>,
    /// The same nodes, with their compiled forms once evaluated (see `concrete.rs`).
    pub parts: HashMap<usize, super::concrete::Part>,
    /// Values fixed elsewhere for these nodes (by node key) while a body is evaluated, see
    /// `faces.rs` and `classes.rs`; `eval` reads them first.
    pub overrides: HashMap<usize, Val>,
    /// The nodes that are or contain a node `overrides` may hold: evaluated by the general
    /// path (not compiled) while any value is fixed.
    pub overridable: std::collections::HashSet<usize>,
    /// The `let`s read through counts per face, planned once before evaluation.
    pub faces: faces::Plan<'a>,
    /// The `let`s read only through aggregates of comparison filters (see `classes.rs`).
    pub classes: classes::Plan<'a>,
    /// The bindings read at most once (see `reads.rs`).
    pub single_reads: SingleReads<'a>,
    /// The single-read `let`s whose body is being evaluated with the value read in place (by
    /// key), with the value's representation, unordered and ordered, once evaluated: the value
    /// reads only slots outside the `let`, which do not change while its body is evaluated.
    pub in_place: HashMap<usize, [Option<Repr>; 2]>,
}

pub(crate) type R<T> = Result<T, Box<Diagnostic>>;

pub(crate) fn error_at(span: Span, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(msg).with_span(span))
}

/// Turns a budget error into a diagnostic naming the construct. Calc-only: the budget bounds
/// what calc builds (outcomes, steps over all rolls at once), which no single roll has; a
/// limit of one roll is roll mode's error (`ops.rs`, see `list_len.rs`).
pub(crate) fn limit(span: Span, construct: &str) -> impl FnOnce(ProbError) -> Box<Diagnostic> + '_ {
    move |e| error_at(span, format!("calc limit in '{construct}': {e}"))
}

fn construct_name(e: &Expr) -> &'static str {
    use ExprKind::*;
    match &e.kind {
        Number(_) => "number",
        Var(_) => "variable",
        Empty => "()",
        Neg(_) => "-",
        Binary { op, .. } => op.symbol(),
        Die(_) => "d",
        Aggregate(a, _) => a.keyword(),
        Repeat { .. } => "#",
        Range { .. } => "..",
        List(_) => ",",
        Reorder(r, _) => r.keyword(),
        Filter { selector, .. } => selector.symbol(),
        If { .. } => "if",
        Let { .. } => "let",
        While { .. } => "while",
        Foreach { .. } => "foreach",
    }
}

fn sorted(mut v: Vec<i32>, ordered: bool) -> Vec<i32> {
    if !ordered {
        v.sort_unstable();
    }
    v
}

impl<'a> Calc<'a> {
    /// The distribution of `e`'s value (materialising a lazy pool).
    pub(crate) fn dist(&mut self, e: &Expr, ordered: bool) -> R<Dist<Val>> {
        match self.eval(e, ordered)? {
            Repr::Dist(d) => Ok(d),
            Repr::Pool(p) => self.materialize(&p, e),
        }
    }

    pub(crate) fn materialize(&mut self, p: &LazyPool, e: &Expr) -> R<Dist<Val>> {
        let d = p
            .materialize(&mut self.budget)
            .map_err(limit(e.span, construct_name(e)))?;
        Ok(d.map(|v| Val::list(v.clone())))
    }

    /// The distribution of a single-value operand; its error names `what` at `at` (the
    /// place the roller reports it, see [`ops::not_single`]).
    pub(crate) fn scalar(&mut self, e: &Expr, what: Operand, at: Span) -> R<Dist<(i32, bool)>> {
        let d = self.dist(e, false)?;
        d.try_map(|v| match v.items() {
            [x] => Ok((*x, v.cut())),
            other => Err(ops::not_single(what, at, other.len())),
        })
    }

    pub(crate) fn eval(&mut self, e: &Expr, ordered: bool) -> R<Repr> {
        use ExprKind::*;
        let name = construct_name(e);
        if let Some(v) = self.overrides.get(&node_key(e)) {
            return Ok(Repr::Dist(Dist::certain(v.clone())));
        }
        if let Some(v) = self.concrete(e, ordered) {
            return Ok(Repr::Dist(Dist::certain(v?)));
        }
        self.budget
            .burn(1, "evaluation")
            .map_err(limit(e.span, name))?;
        let d = match &e.kind {
            Number(n) => Dist::certain(Val::one(*n, false)),
            Empty => Dist::certain(Val::list(vec![])),
            Var(v) => {
                if let Some(&(let_key, value)) = self.single_reads.vars.get(&node_key(e))
                    && self.in_place.contains_key(&let_key)
                {
                    return self.read_in_place(let_key, value, ordered);
                }
                match v.slot.and_then(|s| self.env.get(s as usize)) {
                    Some(val) => Dist::certain(val.clone()),
                    None => return Err(ops::unknown_variable(e.span, &v.name)),
                }
            }
            Neg(a) => {
                let d = self.scalar(a, Operand::Neg, e.span)?;
                d.map(|(x, cut)| Val::new(vec![x.wrapping_neg()], *cut))
            }
            Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                let sym = op.symbol();
                let a = self.scalar(lhs, Operand::Left(*op), *op_span)?;
                let b = self.scalar(rhs, Operand::Right(*op), *op_span)?;
                let mut err = None;
                // Pairs of plain numbers, made lists once merged: sorting millions of one-value
                // lists (a pointer chase per comparison) would dominate `d3000 * d3000`.
                let d = a
                    .product(
                        &b,
                        |(x, cx), (y, cy)| match ops::binary(*op, *x, *y) {
                            Ok(v) => (v, *cx || *cy),
                            Err(m) => {
                                err.get_or_insert(m);
                                (0, false)
                            }
                        },
                        &mut self.budget,
                    )
                    .map_err(limit(*op_span, sym))?;
                // Roll mode's text (`ops::binary`) at its span, the operator.
                if let Some(m) = err {
                    return Err(error_at(*op_span, m));
                }
                d.map(|&(v, cut)| Val::one(v, cut))
            }
            Die(a) => {
                let n = self.scalar(a, Operand::Die, e.span)?;
                let max = self.budget.max_outcomes();
                let span = e.span;
                self.mix(&n, span, "d", |this, &(n, cut)| {
                    if n < 1 {
                        return Err(ops::bad_die(span, n));
                    }
                    // Calc's own outcome cap: roll mode draws from any die size.
                    if n as usize > max {
                        return Err(error_at(
                            span,
                            format!("calc limit in 'd': a d{n} has more than {max} outcomes"),
                        ));
                    }
                    this.budget
                        .burn(n as u64, "die")
                        .map_err(limit(span, "d"))?;
                    Ok(Dist::uniform((1..=n).map(|v| Val::one(v, cut))).expect("n >= 1"))
                })?
            }
            Aggregate(agg, a) => match self.eval(a, false)? {
                Repr::Pool(p) => {
                    let d = p
                        .aggregate(*agg, &mut self.budget)
                        .map_err(limit(e.span, name))?;
                    d.map(|v| Val::one(*v, false))
                }
                Repr::Dist(d) => d.map(|v| {
                    let x = crate::ops::aggregate(*agg, v.items().iter().copied());
                    Val::one(x, v.cut())
                }),
            },
            Repeat {
                count,
                op_span,
                body,
            } => return self.repeat(e, count, *op_span, body, ordered),
            Range { lo, op_span, hi } => {
                let a = self.scalar(lo, Operand::RangeStart, *op_span)?;
                let b = self.scalar(hi, Operand::RangeEnd, *op_span)?;
                // Every pair has p > 0, so the longest list is reachable: checked (and its
                // size charged) before any list is built.
                let len = |x: i32, y: i32| i64::from(y) - i64::from(x) + 1;
                let longest = len(a.min().0, b.max().0);
                if longest > MAX_LIST_LEN as i64 {
                    return Err(list_len::too_long(e, MAX_LIST_LEN));
                }
                a.product_with_cost(
                    &b,
                    |(x, cx), (y, cy)| Val::new((*x..=*y).collect(), *cx || *cy),
                    longest.max(0) as u64 + 1,
                    &mut self.budget,
                )
                .map_err(limit(*op_span, ".."))?
            }
            List(items) => return self.list(e, items, ordered),
            Reorder(r, a) => {
                let inner = matches!(r, ast::Reorder::Rev) && ordered;
                let v = self.eval(a, inner)?;
                if !ordered {
                    // Only the multiset matters, and it is unchanged.
                    return Ok(v);
                }
                let d = match v {
                    Repr::Dist(d) => d,
                    Repr::Pool(p) => self.materialize(&p, a)?,
                };
                match r {
                    ast::Reorder::Sort => {
                        d.map(|v| Val::new(sorted(v.items().to_vec(), false), v.cut()))
                    }
                    ast::Reorder::Rev => d.map(|v| {
                        let mut items = v.items().to_vec();
                        items.reverse();
                        Val::new(items, v.cut())
                    }),
                    ast::Reorder::Perm => self.permutations(&d, e)?,
                }
            }
            Filter {
                drop,
                selector,
                selector_span,
                n,
                list,
            } => {
                return self.filter(e, *drop, *selector, *selector_span, n, list, ordered);
            }
            If {
                cond,
                then_branch,
                else_branch,
            } => {
                let c = self.dist(cond, false)?;
                let c = c.map(|v| (!v.items().is_empty(), v.cut()));
                let mut branches: HashMap<bool, Dist<Val>> = HashMap::new();
                for (&(taken, _), _) in c.iter() {
                    if let std::collections::hash_map::Entry::Vacant(slot) = branches.entry(taken) {
                        let branch = if taken { then_branch } else { else_branch };
                        slot.insert(self.dist(branch, ordered)?);
                    }
                }
                self.mix(&c, e.span, "if", |_, &(taken, cut)| {
                    Ok(with_cut(&branches[&taken], cut))
                })?
            }
            Let { var, value, body } => {
                let positions = self.positions(e, value);
                if (self.single_reads.lets.contains_key(&node_key(e))
                    || positions == Positions::Disjoint)
                    && !self.deterministic.contains(&node_key(value))
                    && let Some(r) = self.let_in_place(e, value, body, ordered)?
                {
                    return Ok(r);
                }
                let value_ordered = self
                    .binding_order
                    .get(&node_key(e))
                    .copied()
                    .unwrap_or(true);
                let faces = self.faces.get(&(node_key(e), ordered)).cloned();
                // A `let` that `reads.rs` binds to the dice at its ends (`high`/`low` reads in
                // one direction) keeps that path.
                let classes = match (value_ordered, positions) {
                    (false, Positions::General) => self.classes.get(&node_key(e)).cloned(),
                    _ => None,
                };
                let v = match (faces, classes) {
                    // x read only through aggregates of fixed comparison filters: the joint
                    // value of those reads, per class of faces (planned before evaluation).
                    // An error of the body is left to the general path, which meets the
                    // values of x in its own order and so reports the first error there.
                    (None, Some(c)) => match self.eval(value, false)? {
                        Repr::Pool(p) => {
                            let saved = self.budget.clone();
                            if let Some(joint) = c.evaluate(self, &p, var.slot, e.span)?
                                && let Ok(d) = c.mix_body(self, &joint, e, body, ordered)
                            {
                                return Ok(Repr::Dist(d));
                            }
                            self.budget = saved;
                            self.materialize(&p, value)?
                        }
                        Repr::Dist(d) => d,
                    },
                    // x read only through `==y x` (order-free, so x may be a multiset) in
                    // targets of its counts per face, planned before evaluation.
                    (Some(f), _) => match self.eval(value, false)? {
                        Repr::Pool(p) => match f.evaluate(self, &p)? {
                            Some(joint) => {
                                let d = f.mix_body(self, &joint, e, body, ordered)?;
                                return Ok(Repr::Dist(d));
                            }
                            None => self.materialize(&p, value)?,
                        },
                        Repr::Dist(d) => d,
                    },
                    (None, None) => match positions {
                        Positions::Ends(ends) => self.ends(value, ends)?,
                        _ => self.dist(value, value_ordered)?,
                    },
                };
                if v.len() == 1 {
                    let val = v.outcomes().next().expect("one outcome").clone();
                    let cut = val.cut();
                    self.env.push(val);
                    let r = self.eval(body, ordered);
                    self.env.pop();
                    let r = r?;
                    return Ok(match r {
                        Repr::Dist(d) => Repr::Dist(with_cut(&d, cut)),
                        pool => pool,
                    });
                }
                if self.is_concrete(body) {
                    return self.let_deterministic(e, &v, body, ordered);
                }
                self.mix(&v, e.span, "let", |this, val| {
                    this.env.push(val.clone());
                    let r = this.dist(body, ordered);
                    this.env.pop();
                    Ok(with_cut(&r?, val.cut()))
                })?
            }
            Foreach { list, body, .. } => return self.foreach(e, list, body, ordered),
            While { init, body, .. } => {
                let value_ordered = ordered
                    || self
                        .binding_order
                        .get(&node_key(e))
                        .copied()
                        .unwrap_or(true);
                return Ok(Repr::Dist(self.while_loop(
                    e,
                    init,
                    body,
                    ordered,
                    value_ordered,
                )?));
            }
        };
        self.budget
            .check_size(size(&d), "distribution")
            .map_err(limit(e.span, name))?;
        Ok(Repr::Dist(d))
    }

    fn list(&mut self, e: &Expr, items: &[Expr], ordered: bool) -> R<Repr> {
        let mut parts = Vec::with_capacity(items.len());
        // The longest roll of the parts so far: the roller appends them to one buffer and
        // fails at the part whose append crosses the limit (`list_len.rs`).
        let mut longest = 0usize;
        for item in items {
            let part = self.eval(item, ordered)?;
            let (raw, len) = match &part {
                Repr::Dist(d) => (d.max_len(), d.max_len()),
                Repr::Pool(p) => (p.max_raw_len(), p.max_len()),
            };
            if longest.saturating_add(raw) > MAX_LIST_LEN {
                return Err(list_len::too_long(item, MAX_LIST_LEN - longest));
            }
            longest += len;
            parts.push(part);
        }
        if !ordered {
            // Plain pools and single-value dice merge into one pool.
            let mut pool: Option<LazyPool> = Some(LazyPool::single(Dist::certain(0), 0));
            for p in &parts {
                let next = match (p, &pool) {
                    (Repr::Pool(q), Some(acc)) if q.is_plain() => Some(acc.concat(q)),
                    (Repr::Dist(d), Some(acc))
                        if d.iter().all(|(v, _)| v.items().len() == 1 && !v.cut()) =>
                    {
                        Some(acc.concat(&LazyPool::single(d.map(|v| v.items()[0]), 1)))
                    }
                    _ => None,
                };
                pool = next;
            }
            if let Some(p) = pool
                && parts.iter().any(|p| matches!(p, Repr::Pool(_)))
            {
                return Ok(Repr::Pool(p));
            }
        }
        let mut acc = Dist::certain(Val::list(vec![]));
        for (p, item) in parts.into_iter().zip(items) {
            let d = match p {
                Repr::Dist(d) => d,
                Repr::Pool(q) => self.materialize(&q, item)?,
            };
            acc = concat(&acc, &d, ordered, &mut self.budget).map_err(limit(e.span, ","))?;
        }
        Ok(Repr::Dist(acc))
    }

    #[allow(clippy::too_many_arguments)]
    fn filter(
        &mut self,
        e: &Expr,
        drop: bool,
        selector: Selector,
        selector_span: Span,
        n: &Expr,
        list: &Expr,
        ordered: bool,
    ) -> R<Repr> {
        let positional = matches!(selector, Selector::First | Selector::Last);
        let nd = self.scalar(n, Operand::Filter(selector), selector_span)?;
        // A reachable negative count fails before the list is evaluated, as in the roller
        // (so an error inside the list does not take its place).
        if !selector.is_comparison()
            && let Some(((k, _), _)) = nd.iter().find(|((k, _), _)| *k < 0)
        {
            return Err(ops::negative_count(selector_span, selector, *k));
        }
        let mut l = None;
        if !positional
            && !selector.is_comparison()
            && !drop
            && ordered
            && let Some(d) = self.kept_in_order(&nd, selector == Selector::High, list)?
        {
            // `high k (n#die)` in order: the kept dice without the sequences (`kept.rs`).
            l = Some(Repr::Dist(d));
        }
        if positional && nd.outcomes().all(|(_, cut)| !cut) {
            let read = self.through_reads(list);
            match self.positional_repeat(&nd, drop, read, ordered)? {
                Positional::Kept(r) => return Ok(r),
                Positional::List(r) => l = Some(r),
                Positional::Other => {}
            }
        }
        let l = match l {
            Some(l) => l,
            None => self.eval(list, positional || ordered)?,
        };
        if let (Repr::Pool(p), 1) = (&l, nd.len()) {
            let (k, cut) = *nd.outcomes().next().expect("one outcome");
            if !cut && p.keep.is_none() {
                let mut p = p.clone();
                if selector.is_comparison() {
                    p.filters.push((selector, drop, k));
                    return Ok(Repr::Pool(p));
                }
                if !positional {
                    if k < 0 {
                        return Err(ops::negative_count(selector_span, selector, k));
                    }
                    let order = if selector == Selector::High {
                        Order::Descending
                    } else {
                        Order::Ascending
                    };
                    p.keep = Some(Keep {
                        order,
                        n: k as u32,
                        drop,
                    });
                    return Ok(Repr::Pool(p));
                }
            }
        }
        let l = match l {
            Repr::Dist(d) => d,
            Repr::Pool(p) => self.materialize(&p, list)?,
        };
        let mut err = None;
        let cost = l.max_len() as u64 + 1;
        let d = nd
            .product_with_cost(
                &l,
                |(k, ck), v| match ops::filter(selector, drop, *k, v.items()) {
                    Ok(items) => Val::new(items, *ck || v.cut()),
                    Err(m) => {
                        err.get_or_insert(m);
                        Val::list(vec![])
                    }
                },
                cost,
                &mut self.budget,
            )
            .map_err(limit(e.span, selector.symbol()))?;
        // Roll mode's text (`ops::negative_count_message`) at its span, the selector.
        if let Some(m) = err {
            return Err(error_at(selector_span, m));
        }
        Ok(Repr::Dist(d))
    }

    fn foreach(&mut self, e: &Expr, list: &Expr, body: &Expr, ordered: bool) -> R<Repr> {
        let l = if ordered {
            self.dist(list, ordered)?
        } else {
            match self.eval(list, false)? {
                Repr::Pool(p) if p.is_plain() => match self.map_pool(&p, body)? {
                    Some(q) => return Ok(Repr::Pool(q)),
                    None => self.materialize(&p, list)?,
                },
                Repr::Pool(p) => self.materialize(&p, list)?,
                Repr::Dist(d) => d,
            }
        };
        let mut memo: HashMap<i32, Dist<Val>> = HashMap::new();
        let d = self.mix(&l, e.span, "foreach", |this, v| {
            let mut acc = Dist::certain(Val::new(vec![], v.cut()));
            for &x in v.items() {
                if let std::collections::hash_map::Entry::Vacant(slot) = memo.entry(x) {
                    this.env.push(Val::one(x, false));
                    let r = this.dist(body, ordered);
                    this.env.pop();
                    slot.insert(r?);
                }
                let (before, len) = (acc.max_len(), memo[&x].max_len());
                if before + len > MAX_LIST_LEN {
                    return Err(list_len::too_long(body, MAX_LIST_LEN - before));
                }
                acc = concat(&acc, &memo[&x], ordered, &mut this.budget)
                    .map_err(limit(e.span, "foreach"))?;
            }
            Ok(acc)
        })?;
        Ok(Repr::Dist(d))
    }

    /// `foreach y in POOL do G` read as a multiset, where G gives one value for each face:
    /// every member is mapped on its own (G's dice are fresh for each member), so the result
    /// is a pool of the mapped dice (each die the mixture over its faces of G's
    /// distribution), summed or kept outcome by outcome like any pool: `sum (foreach y in
    /// 100#d6 do y*y)` is a convolution, not an enumeration of multisets. `None` (the general
    /// path decides) when G fails, is cut or gives other than one value at some face.
    fn map_pool(&mut self, p: &LazyPool, body: &Expr) -> R<Option<LazyPool>> {
        let mut mapped: HashMap<i32, Dist<i32>> = HashMap::new();
        let mut components = Vec::with_capacity(p.components.len());
        for (w, groups) in &p.components {
            let mut out = Vec::with_capacity(groups.len());
            // Groups of no dice (the empty start of a concatenation) show no face: G is not
            // evaluated there, so its errors at such a face stay unreachable.
            for (die, n) in groups.iter().filter(|(_, n)| *n > 0) {
                let mut parts = Vec::with_capacity(die.len());
                for (&y, wy) in die.iter() {
                    let d = match mapped.get(&y) {
                        Some(d) => d.clone(),
                        None => {
                            self.env.push(Val::one(y, false));
                            let r = self.dist(body, false);
                            self.env.pop();
                            let Ok(r) = r else { return Ok(None) };
                            if !r.iter().all(|(v, _)| v.items().len() == 1 && !v.cut()) {
                                return Ok(None);
                            }
                            let d = r.map(|v| v.items()[0]);
                            mapped.insert(y, d.clone());
                            d
                        }
                    };
                    parts.push((wy.clone(), d));
                }
                let die =
                    Dist::mixture(parts, &mut self.budget).map_err(limit(body.span, "foreach"))?;
                out.push((die, *n));
            }
            components.push((w.clone(), out));
        }
        Ok(Some(LazyPool {
            components,
            filters: Vec::new(),
            keep: None,
        }))
    }

    /// A single-read `let`, or one read at disjoint positions (`reads.rs`): the body evaluated
    /// with the value read in place.
    /// The value is evaluated first, unordered, so that its errors are reported before the
    /// body's even when the read is never reached; `None` (conditioning on each value
    /// decides, with the budget as it was) when that fails or some path of the value was cut
    /// by a `while` (the cut marks the whole body's result).
    fn let_in_place(
        &mut self,
        e: &Expr,
        value: &Expr,
        body: &Expr,
        ordered: bool,
    ) -> R<Option<Repr>> {
        let key = node_key(e);
        let saved = self.budget.clone();
        let first = match self.eval(value, false) {
            Ok(Repr::Dist(d)) if d.outcomes().any(|v| v.cut()) => None,
            Ok(r) => Some(r),
            Err(_) => None,
        };
        let Some(first) = first else {
            self.budget = saved;
            return Ok(None);
        };
        // The slot stays taken (inner bindings keep their slots); nothing reads it.
        self.env.push(Val::list(vec![]));
        self.in_place.insert(key, [Some(first), None]);
        let r = self.eval(body, ordered);
        self.in_place.remove(&key);
        self.env.pop();
        r.map(Some)
    }

    /// The single value of `e` when it has no dice and reads only slots below `slot`.
    pub(crate) fn fixed(&mut self, e: &Expr, slot: u32) -> Option<i32> {
        fn outside(e: &Expr, slot: u32) -> bool {
            match &e.kind {
                ExprKind::Var(v) => v.slot.is_some_and(|s| s < slot),
                _ => e.children().into_iter().all(|c| outside(c, slot)),
            }
        }
        if !self.deterministic.contains(&node_key(e)) || !outside(e, slot) {
            return None;
        }
        let v = self.concrete(e, true)?.ok()?;
        match v.items() {
            [k] if !v.cut() => Some(*k),
            _ => None,
        }
    }

    /// The value of an in-place `let` at its one read, under the read's mark.
    fn read_in_place(&mut self, let_key: usize, value: &Expr, ordered: bool) -> R<Repr> {
        let i = usize::from(ordered);
        if let Some(r) = &self.in_place[&let_key][i] {
            return Ok(r.clone());
        }
        let r = self.eval(value, ordered)?;
        if let Some(slots) = self.in_place.get_mut(&let_key) {
            slots[i] = Some(r.clone());
        }
        Ok(r)
    }

    /// The expression a positional filter reads: an in-place `let`'s value for its read.
    fn through_reads<'e>(&self, mut list: &'e Expr) -> &'e Expr
    where
        'a: 'e,
    {
        while let Some(&(let_key, value)) = self.single_reads.vars.get(&node_key(list))
            && self.in_place.contains_key(&let_key)
        {
            list = value;
        }
        list
    }

    /// `let` whose body has no randomness: the body's value for each value of the binding,
    /// mapped in one pass (no per-value distribution to mix), with the size of the values
    /// checked as they are built.
    fn let_deterministic(
        &mut self,
        e: &Expr,
        v: &Dist<Val>,
        body: &Expr,
        ordered: bool,
    ) -> R<Repr> {
        let cap = self.budget.max_outcomes();
        let mut total = 0usize;
        let d = v.try_map(|val| {
            self.budget
                .burn(LET_VALUE_STEPS, "let")
                .map_err(limit(e.span, "let"))?;
            self.env.push(val.clone());
            let r = self.concrete(body, ordered);
            self.env.pop();
            let r = r.expect("the body is concrete")?;
            let r = if val.cut() { r.or_cut(true) } else { r };
            total = total.saturating_add(r.items().len() + 1);
            if total > cap {
                return Err(limit(e.span, "let")(ProbError::TooManyOutcomes {
                    what: "mixture of distributions",
                    limit: cap,
                }));
            }
            Ok(r)
        })?;
        Ok(Repr::Dist(d))
    }

    /// `perm` in an ordered position: every distinct arrangement is equally likely.
    fn permutations(&mut self, d: &Dist<Val>, e: &Expr) -> R<Dist<Val>> {
        let max = self.budget.max_outcomes();
        // Arrangements of different multisets differ, so the size of the result is known
        // before any is built: `first 1 (perm 12#d6)` (6^12 sequences) fails at once.
        let total = d.outcomes().fold(0u64, |acc, v| {
            acc.saturating_add(arrangements(v.items()).saturating_mul(v.items().len() as u64 + 1))
        });
        if total > max as u64 {
            return Err(limit(e.span, "perm")(ProbError::TooManyOutcomes {
                what: "permutation",
                limit: max,
            }));
        }
        self.mix(d, e.span, "perm", |this, v| {
            // n!/∏ c! arrangements of n + 1 units each, counted before any is built.
            let unit = v.items().len() as u64 + 1;
            let count = arrangements(v.items());
            if count.saturating_mul(unit) > max as u64 {
                return Err(limit(e.span, "perm")(ProbError::TooManyOutcomes {
                    what: "permutation",
                    limit: max,
                }));
            }
            this.budget
                .burn(count * unit, "permutation")
                .map_err(limit(e.span, "perm"))?;
            let mut items = v.items().to_vec();
            items.sort_unstable();
            let mut all = vec![items.clone()];
            while next_permutation(&mut items) {
                all.push(items.clone());
            }
            Ok(
                Dist::uniform(all.into_iter().map(|items| Val::new(items, v.cut())))
                    .expect("non-empty"),
            )
        })
    }

    /// `Σ P(t) · f(t)`: conditions on each outcome of `d` and mixes the results.
    ///
    /// The parts are merged as they come, whenever those not yet merged reach a quarter of the
    /// cap (lists count by length, see [`size`]), and the merged size is checked: memory stays
    /// within a small multiple of the cap, which a hopeless mixture (`let x = d100000 in 1..x`)
    /// reaches quickly, and merging costs at most a few times the size of the parts.
    pub(crate) fn mix<T: Ord + Clone>(
        &mut self,
        d: &Dist<T>,
        span: Span,
        what: &str,
        mut f: impl FnMut(&mut Self, &T) -> R<Dist<Val>>,
    ) -> R<Dist<Val>> {
        let cap = self.budget.max_outcomes();
        let too_big = || ProbError::TooManyOutcomes {
            what: "mixture of distributions",
            limit: cap,
        };
        let mut parts = Vec::with_capacity(d.len().min(1 << 16));
        let batch = (cap / 4).max(1 << 16);
        let mut pending = 0usize;
        let mut merge_at = batch;
        for (t, w) in d.iter() {
            // Conditioning costs a binding, an evaluation and a merge beyond the part's
            // outcomes: `let x = d1000 in let y = d1000 in let z = d1000 in x*y*z` (10^9
            // paths) must run out of steps in about a second.
            self.budget
                .burn(MIX_PART_STEPS, "mixture")
                .map_err(limit(span, what))?;
            let part = f(self, t)?;
            pending = pending.saturating_add(size(&part));
            parts.push((w.clone(), part));
            if pending > merge_at {
                let mut weight = alea_prob::Weight::ZERO;
                for (w, _) in &parts {
                    weight.add_assign(w);
                }
                let merged = Dist::mixture(std::mem::take(&mut parts), &mut self.budget)
                    .map_err(limit(span, what))?;
                pending = size(&merged);
                if pending > cap {
                    return Err(limit(span, what)(too_big()));
                }
                merge_at = pending.saturating_add(batch);
                parts.push((weight, merged));
            }
        }
        let d = Dist::mixture(parts, &mut self.budget).map_err(limit(span, what))?;
        if size(&d) > cap {
            return Err(limit(span, what)(too_big()));
        }
        Ok(d)
    }
}

/// The size of a distribution of lists against the outcome cap: each outcome counts one plus
/// its length, roughly proportional to its memory.
pub(crate) fn size(d: &Dist<Val>) -> usize {
    d.outcomes().map(|v| v.items().len() + 1).sum()
}

/// The number of distinct arrangements of `items` (saturating).
fn arrangements(items: &[i32]) -> u64 {
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    // Multiply in the multinomial one factor at a time: C(seen, run position) stays exact.
    let mut count: u128 = 1;
    let mut seen: u128 = 0;
    let mut run: u128 = 0;
    for (i, x) in sorted.iter().enumerate() {
        run = if i > 0 && sorted[i - 1] == *x {
            run + 1
        } else {
            1
        };
        seen += 1;
        count = count.saturating_mul(seen) / run;
        if count > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    count as u64
}

pub(crate) fn with_cut(d: &Dist<Val>, cut: bool) -> Dist<Val> {
    if cut {
        d.map(|v| v.or_cut(true))
    } else {
        d.clone()
    }
}

/// The distribution of `a` followed by an independent `b` (sorted when unordered).
pub(crate) fn concat(
    a: &Dist<Val>,
    b: &Dist<Val>,
    ordered: bool,
    budget: &mut Budget,
) -> Result<Dist<Val>, ProbError> {
    let len = a.max_len() + b.max_len();
    if len > MAX_LIST_LEN {
        return Err(ProbError::TooManyOutcomes {
            what: "list",
            limit: MAX_LIST_LEN,
        });
    }
    // A list of len values costs len + 1 steps to build and counts len + 1 against the cap:
    // `20#d10` in order has 10^k lists of k values after k dice, and must fail on its size
    // (memory), not after its count alone reaches the cap.
    let unit = len + 1;
    let uncut = |d: &Dist<Val>| d.outcomes().all(|v| !v.cut());
    if ordered && (same_len(a) || same_len(b)) && uncut(a) && uncut(b) {
        // In order, lists of one length concatenate injectively: every pair is a distinct
        // outcome, so the size is known before building anything.
        let pairs = a.len().saturating_mul(b.len());
        budget.check_size(pairs.saturating_mul(unit), "list")?;
    }
    a.product_with_cost(
        b,
        |x, y| {
            let mut items = Vec::with_capacity(x.items().len() + y.items().len());
            items.extend_from_slice(x.items());
            items.extend_from_slice(y.items());
            Val::new(sorted(items, ordered), x.cut() || y.cut())
        },
        unit as u64,
        budget,
    )
}

fn same_len(d: &Dist<Val>) -> bool {
    let mut lens = d.outcomes().map(|v| v.items().len());
    let first = lens.next();
    lens.all(|l| Some(l) == first)
}

pub(crate) trait MaxLen {
    fn max_len(&self) -> usize;
}

impl MaxLen for Dist<Val> {
    fn max_len(&self) -> usize {
        self.outcomes().map(|v| v.items().len()).max().unwrap_or(0)
    }
}

fn next_permutation(v: &mut [i32]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let mut i = v.len() - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = v.len() - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}
