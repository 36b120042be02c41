//! Counts per face: `let x = POOL in …` where the body reads `x` only through `==y x` (or
//! `drop !=y x`), with `y` running over a fixed list by `foreach` (the "most matches" family,
//! in any spelling).
//!
//! For a pool `x`, `==y x` is `c_y` copies of `y`, where `c_y` is how many (kept) dice show
//! `y`, whatever the order of `x`. So a `foreach y in D do G` (`D` and `G` without dice) whose
//! only reads of `x` are `==y x` has the value `g(y₁, c_y₁), g(y₂, c_y₂), …` for the `y`s of
//! `D`: it depends only on the counts per face. Such a foreach is a *target*. The pool
//! automaton ([`LazyPool::run_with`]) visits each face with its count and collects every
//! target's pieces, so the work grows with the number of distinct target values, not with the
//! number of multisets of dice: `let x = 20#d10 in low 1 (foreach y in 1..(5*2) do count (==y
//! x))` is computed where enumerating its 10^7 multisets is not.
//!
//! **The plan** ([`plan`]) is made once per statement, before evaluation: for each `let` and
//! evaluation mark, its targets, or nothing. A body may hold several targets (`(high 1 T),
//! (low 1 T')`), reached through any constructs (`let m = T in …`, a `foreach z` around `T`,
//! arithmetic), provided every target is read as a multiset (its pieces are kept sorted, and a
//! `keep high k` / `keep low k` directly around it keeps only k values in the state), reads no
//! variable bound between the `let` and itself (so it has one value per value of `x`), and no
//! target lies inside another.
//!
//! **Evaluation**: the joint distribution of the targets' values is computed over the pool;
//! then, for each joint outcome, the body is evaluated with every target node standing for its
//! value ([`Calc::overrides`]), and the results are mixed. Nothing else in the body reads `x`.

use super::eval::{Calc, R, Val};
use super::marks::{BindingOrder, node_key};
use super::pool::{Groups, LazyPool};
use super::uses::Uses;
use crate::ast::{Expr, ExprKind, Reorder, Selector};
use alea_prob::Dist;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The plan of a statement: for each `let` (by node key) and evaluation mark (ordered or
/// not), the counts-per-face reading of its body, when it has one.
pub(crate) type Plan<'a> = HashMap<(usize, bool), FacePlan<'a>>;

/// The planning pass: recognises every `let` whose value has dice, once, under both marks,
/// before anything is evaluated (a `let` inside a loop is evaluated many times; its shape does
/// not change).
pub(crate) fn plan<'a>(
    uses: &Uses<'a>,
    deterministic: &HashSet<usize>,
    binding_order: &BindingOrder,
) -> Plan<'a> {
    let mut out = Plan::new();
    for (e, var, body) in uses.random_lets(deterministic) {
        let cx = Context {
            let_slot: var.slot,
            deterministic,
            binding_order,
        };
        for ordered in [false, true] {
            if let Some(f) = cx.recognise(uses.paths(e, body), ordered) {
                out.insert((node_key(e), ordered), f);
            }
        }
    }
    out
}

/// The targets of one `let` body.
#[derive(Clone)]
pub(crate) struct FacePlan<'a> {
    targets: Vec<Target<'a>>,
}

/// A node whose value depends only on the counts per face of `x`.
#[derive(Clone)]
struct Target<'a> {
    /// The node that stands for its value: the foreach, or the keep around it.
    node: &'a Expr,
    /// The foreach's list `D`, body `G` and variable slot.
    list: &'a Expr,
    body: &'a Expr,
    y_slot: u32,
    /// `keep high k` (true) or `keep low k` around the foreach, with its count expression.
    keep: Option<(bool, &'a Expr)>,
    /// For each slot bound between the `let` and the foreach: the value of a `let` without
    /// dice that reads only slots outside (or such lets), evaluated once per evaluation of
    /// the target; `None` for a binding the target does not read.
    between: Vec<Option<&'a Expr>>,
}

struct Context<'c> {
    let_slot: u32,
    deterministic: &'c HashSet<usize>,
    binding_order: &'c BindingOrder,
}

/// The slot of `y` when `filter` is `==y x` or `drop !=y x` applied to the node `x`.
fn use_form(filter: &Expr, x: &Expr) -> Option<u32> {
    match &filter.kind {
        ExprKind::Filter {
            drop,
            selector,
            n,
            list,
            ..
        } if std::ptr::eq(&**list, x)
            && matches!(
                (drop, selector),
                (false, Selector::Eq) | (true, Selector::Ne)
            ) =>
        {
            match &n.kind {
                ExprKind::Var(y) => y.slot,
                _ => None,
            }
        }
        _ => None,
    }
}

/// Every variable read in `e` has a slot for which `ok` holds.
pub(crate) fn reads_only(e: &Expr, ok: impl Fn(u32) -> bool) -> bool {
    let mut stack = vec![e];
    while let Some(n) = stack.pop() {
        if let ExprKind::Var(v) = &n.kind
            && let Some(s) = v.slot
            && !ok(s)
        {
            return false;
        }
        stack.extend(n.children());
    }
    true
}

impl Context<'_> {
    fn det(&self, e: &Expr) -> bool {
        self.deterministic.contains(&node_key(e))
    }

    /// Recognises the body of the `let` under the mark `ordered`.
    /// `uses`: the paths from `body` down to each read of the `let`'s variable.
    fn recognise<'a>(&self, uses: Vec<Vec<&'a Expr>>, ordered: bool) -> Option<FacePlan<'a>> {
        let x = self.let_slot;
        if uses.is_empty() {
            return None;
        }
        // Each use belongs to the nearest foreach binding its `y`, inside that foreach's body.
        let mut found: Vec<(&'a Expr, Vec<&'a Expr>)> = Vec::new();
        for u in &uses {
            let [.., filter, var] = u.as_slice() else {
                return None;
            };
            let y = use_form(filter, var)?;
            let at = u
                .iter()
                .rposition(|e| matches!(&e.kind, ExprKind::Foreach { var, .. } if var.slot == y))?;
            let ExprKind::Foreach { body: g, .. } = &u[at].kind else {
                return None;
            };
            if !u.get(at + 1).is_some_and(|c| std::ptr::eq(*c, &**g)) {
                return None;
            }
            if !found.iter().any(|(f, _)| std::ptr::eq(*f, u[at])) {
                found.push((u[at], u[..at].to_vec()));
            }
        }
        let mut targets = Vec::new();
        let mut ancestors: Vec<BTreeSet<usize>> = Vec::new();
        for (foreach, path) in found {
            let ExprKind::Foreach { var, list, body: g } = &foreach.kind else {
                return None;
            };
            let y_slot = var.slot;
            // The bindings on the way: a `let` without dice reading only fixed slots has one
            // value here (`let n = 2*5 in … foreach y in 1..n …`); any other may not be read.
            let mut between: Vec<Option<&'a Expr>> = vec![None; (y_slot - x - 1) as usize];
            for (i, node) in path.iter().enumerate() {
                let child = path.get(i + 1).copied().unwrap_or(foreach);
                if let ExprKind::Let { var, value, body } = &node.kind
                    && std::ptr::eq(&**body, child)
                {
                    let fixed = |s: u32| {
                        s < x || (s > x && s < y_slot && between[(s - x - 1) as usize].is_some())
                    };
                    if self.det(value) && reads_only(value, fixed) {
                        between[(var.slot - x - 1) as usize] = Some(&**value);
                    }
                }
            }
            let fixed = |s: u32| {
                s <= x
                    || s >= y_slot
                    || between
                        .get((s - x - 1) as usize)
                        .is_some_and(|b| b.is_some())
            };
            if !self.det(list) || !self.det(g) || !reads_only(foreach, fixed) {
                return None;
            }
            // Read as a multiset: its value may be kept sorted.
            if self.mark(&path, foreach, ordered)? {
                return None;
            }
            // A keep around it, possibly through reorders (`high 2 (sort (foreach …))`: under
            // an unordered mark only the multiset matters), keeps k values in the state.
            let mut j = path.len();
            while j > 0 && matches!(path[j - 1].kind, ExprKind::Reorder(..)) {
                j -= 1;
            }
            let inner = path.get(j).copied().unwrap_or(foreach);
            let keep = match j.checked_sub(1).map(|i| &path[i].kind) {
                Some(ExprKind::Filter {
                    drop: false,
                    selector: s @ (Selector::High | Selector::Low),
                    n,
                    list,
                    ..
                }) if std::ptr::eq(&**list, inner)
                    && self.det(n)
                    && reads_only(n, |s| s != x && fixed(s)) =>
                {
                    Some((*s == Selector::High, &**n))
                }
                _ => None,
            };
            let (node, above) = match keep {
                Some(_) => (path[j - 1], &path[..j - 1]),
                None => (foreach, &path[..]),
            };
            // The target's value is kept sorted: it must be read as a multiset itself.
            if self.mark(above, node, ordered)? {
                return None;
            }
            ancestors.push(above.iter().map(|e| node_key(e)).collect());
            targets.push(Target {
                node,
                list,
                body: g,
                y_slot,
                keep,
                between,
            });
        }
        // No target inside another (its value would be read with x bound to counts).
        for t in &targets {
            if ancestors.iter().any(|a| a.contains(&node_key(t.node))) {
                return None;
            }
        }
        Some(FacePlan { targets })
    }

    /// The evaluation mark at `target` below the `path` from the body (whose mark is
    /// `ordered`), as the evaluator passes it down; `None` through a `while`, whose marks this
    /// pass does not follow.
    fn mark(&self, path: &[&Expr], target: &Expr, ordered: bool) -> Option<bool> {
        let mut mark = ordered;
        for (i, node) in path.iter().enumerate() {
            let child = path.get(i + 1).copied().unwrap_or(target);
            let is = |e: &Expr| std::ptr::eq(e, child);
            mark = match &node.kind {
                ExprKind::Aggregate(..) => false,
                ExprKind::Reorder(Reorder::Sort | Reorder::Perm, _) => false,
                ExprKind::Reorder(Reorder::Rev, _) => mark,
                ExprKind::Filter { selector, n, .. } => {
                    if is(n) {
                        false
                    } else if matches!(selector, Selector::First | Selector::Last) {
                        true
                    } else {
                        mark
                    }
                }
                ExprKind::If { cond, .. } if is(cond) => false,
                ExprKind::If { .. } => mark,
                // Single-value operands are evaluated unordered.
                ExprKind::Neg(_) | ExprKind::Die(_) | ExprKind::Binary { .. } => false,
                ExprKind::Range { .. } => false,
                ExprKind::Repeat { count, .. } if is(count) => false,
                ExprKind::Repeat { .. } => mark,
                ExprKind::List(_) | ExprKind::Foreach { .. } => mark,
                ExprKind::Let { value, .. } if is(value) => self
                    .binding_order
                    .get(&node_key(node))
                    .copied()
                    .unwrap_or(true),
                ExprKind::Let { .. } => mark,
                ExprKind::While { .. } => return None,
                ExprKind::Number(_) | ExprKind::Var(_) | ExprKind::Empty => return None,
            };
        }
        Some(mark)
    }
}

/// One target's pieces, ready for the automaton.
struct Ready {
    /// How many times each value occurs in D.
    mult: BTreeMap<i32, usize>,
    /// g(y, c) for every count c a die pool can give face y, or `None` where G fails (the
    /// failure matters only if that count is reachable).
    g: HashMap<(i32, u32), Option<Vec<i32>>>,
    keep: Option<(bool, usize)>,
}

impl Ready {
    fn reduce(&self, mut items: Vec<i32>) -> Vec<i32> {
        items.sort_unstable();
        if let Some((high, k)) = self.keep
            && items.len() > k
        {
            if high {
                items.drain(..items.len() - k);
            } else {
                items.truncate(k);
            }
        }
        items
    }
}

impl<'a> FacePlan<'a> {
    /// The nodes whose values [`FacePlan::mix_body`] fixes.
    pub(crate) fn fixed_nodes(&self) -> impl Iterator<Item = &'a Expr> + '_ {
        self.targets.iter().map(|t| t.node)
    }

    /// The joint distribution of the targets' values for `x` bound to `pool` (the
    /// environment is the `let`'s, without `x`), one sorted list per target; `None` when the
    /// general path must decide (a keep count that is not a single non-negative value, whose
    /// error the filter reports; a `while` cut inside D or G; G failing at a reachable count).
    pub(crate) fn evaluate(
        &self,
        calc: &mut Calc<'_>,
        pool: &LazyPool,
    ) -> R<Option<Dist<Vec<Vec<i32>>>>> {
        let let_slot = calc.env.len() as u32;
        // The most dice that can show each value, over the components.
        let mut most: BTreeMap<i32, u32> = BTreeMap::new();
        for (_, groups) in &pool.components {
            let mut here: BTreeMap<i32, u32> = BTreeMap::new();
            for (die, n) in groups {
                for v in die.outcomes() {
                    *here.entry(*v).or_default() += n;
                }
            }
            for (v, n) in here {
                let m = most.entry(v).or_default();
                *m = (*m).max(n);
            }
        }
        let mut cut = false;
        let mut ready = Vec::with_capacity(self.targets.len());
        for t in &self.targets {
            // The environment of the foreach: x (bound to counts below), then the bindings
            // between, evaluated in order or left as never-read placeholders.
            calc.env.push(Val::list(vec![]));
            for b in &t.between {
                // An error here may be unreachable (the binding may sit in a branch never
                // taken): the general path decides.
                let v = match b {
                    Some(value) => match calc.concrete(value, true) {
                        Some(Ok(v)) => v,
                        // Or a node inside may stand for a fixed value: the general path.
                        _ => {
                            calc.env.truncate(let_slot as usize);
                            return Ok(None);
                        }
                    },
                    None => Val::list(vec![]),
                };
                calc.env.push(v);
            }
            debug_assert_eq!(calc.env.len(), t.y_slot as usize);
            let r = self.prepare(t, calc, &most, let_slot, &mut cut);
            calc.env.truncate(let_slot as usize);
            match r {
                Some(r) => ready.push(r),
                None => return Ok(None),
            }
        }
        if cut {
            return Ok(None);
        }
        let failed = Cell::new(false);
        let piece = |r: &Ready, y: i32, c: u32, out: &mut Vec<i32>| match r.g.get(&(y, c)) {
            Some(Some(p)) => {
                for _ in 0..r.mult[&y] {
                    out.extend_from_slice(p);
                }
            }
            _ => failed.set(true),
        };
        // Values of D that no die of a component can show have c = 0 there. The automaton
        // visits the faces of the component's dice, leaving out groups of no dice (the empty
        // start of a concatenation, or a count of 0), so those show no face here either.
        let init = |groups: &Groups| -> Vec<Vec<i32>> {
            let faces: BTreeSet<i32> = groups
                .iter()
                .filter(|(_, n)| *n > 0)
                .flat_map(|(d, _)| d.outcomes().copied())
                .collect();
            ready
                .iter()
                .map(|r| {
                    let mut items = Vec::new();
                    for &y in r.mult.keys().filter(|y| !faces.contains(y)) {
                        piece(r, y, 0, &mut items);
                    }
                    r.reduce(items)
                })
                .collect()
        };
        let span = self.targets[0].node.span;
        let d = pool
            .run_with(
                init,
                |state: &Vec<Vec<i32>>, v, c| {
                    let mut next = state.clone();
                    for (r, items) in ready.iter().zip(next.iter_mut()) {
                        if r.mult.contains_key(&v) {
                            let mut more = std::mem::take(items);
                            piece(r, v, c, &mut more);
                            *items = r.reduce(more);
                        }
                    }
                    next
                },
                false,
                &mut calc.budget,
            )
            .map_err(super::eval::limit(span, "foreach"))?;
        if failed.get() {
            return Ok(None);
        }
        Ok(Some(d))
    }

    /// D, the keep count and the table of G for one target, in the environment of its
    /// foreach (without `y`); `None` when the general path must decide (also on an error in
    /// D or the count, which the general path reports if it is reachable).
    fn prepare(
        &self,
        t: &Target<'_>,
        calc: &mut Calc<'_>,
        most: &BTreeMap<i32, u32>,
        let_slot: u32,
        cut: &mut bool,
    ) -> Option<Ready> {
        // `None` from `concrete` (a node inside may stand for a fixed value) leaves the
        // decision to the general path too.
        let values = calc.concrete(t.list, true)?.ok()?;
        *cut |= values.cut();
        let keep = match t.keep {
            Some((high, n)) => {
                let kv = calc.concrete(n, true)?.ok()?;
                match kv.items() {
                    [k] if *k >= 0 && !kv.cut() => Some((high, *k as usize)),
                    _ => return None,
                }
            }
            None => None,
        };
        let mut mult: BTreeMap<i32, usize> = BTreeMap::new();
        for v in values.items() {
            *mult.entry(*v).or_default() += 1;
        }
        // G with x = c copies of y and y = y.
        let mut g = HashMap::new();
        for &y in mult.keys() {
            for c in 0..=most.get(&y).copied().unwrap_or(0) {
                calc.env[let_slot as usize] = Val::list(vec![y; c as usize]);
                calc.env.push(Val::one(y, false));
                let r = calc.concrete(t.body, true);
                calc.env.pop();
                let r = r?.ok().map(|v| {
                    *cut |= v.cut();
                    v.items().to_vec()
                });
                g.insert((y, c), r);
            }
        }
        Some(Ready { mult, g, keep })
    }

    /// Evaluates `body` (the `let`'s, with `x` unread) once per joint value of the targets,
    /// each target node standing for its value, and mixes the results.
    pub(crate) fn mix_body(
        &self,
        calc: &mut Calc<'_>,
        joint: &Dist<Vec<Vec<i32>>>,
        e: &Expr,
        body: &Expr,
        ordered: bool,
    ) -> R<Dist<Val>> {
        calc.mix(joint, e.span, "let", |this, values| {
            for (t, v) in self.targets.iter().zip(values) {
                this.overrides
                    .insert(node_key(t.node), Val::new(v.clone(), false));
            }
            // `x` is bound to a placeholder so the slots of inner bindings stay in place.
            this.env.push(Val::list(vec![]));
            let r = this.dist(body, ordered);
            this.env.pop();
            for t in &self.targets {
                this.overrides.remove(&node_key(t.node));
            }
            r
        })
    }
}
