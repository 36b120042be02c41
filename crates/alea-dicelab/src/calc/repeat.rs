//! `n#e` in calc: a count distribution and a body, as a lazy pool when the copies are
//! independent single-value dice or plain pools (`d6#3#d6` under `sum` is a mixture of pools,
//! not an enumeration of multisets), else as the concatenation of independent copies; and the
//! `first`/`last` of `n#die`, which keeps dice without enumerating sequences.

use super::eval::{Calc, MaxLen, R, Repr, Val, concat, limit};
use super::list_len;
use super::pool::LazyPool;
use crate::ast::{Expr, ExprKind};
use crate::ops::Operand;
use crate::roll::MAX_LIST_LEN;
use alea_core::Span;
use alea_prob::Dist;

impl Calc<'_> {
    pub(super) fn repeat(
        &mut self,
        e: &Expr,
        count: &Expr,
        op_span: Span,
        body: &Expr,
        ordered: bool,
    ) -> R<Repr> {
        let n = self.scalar(count, Operand::Count, op_span)?;
        if n.outcomes().all(|(k, _)| *k <= 0) {
            // The body is never evaluated, so its errors are unreachable (`0#(1/0)` is `()`).
            return Ok(Repr::Dist(n.map(|(_, cut)| Val::new(vec![], *cut))));
        }
        let body_repr = self.eval(body, ordered)?;
        self.repeat_built(e, n, op_span, body, body_repr, ordered)
    }

    /// `first k`/`last k` (or their `drop`) of `n#die` for a single-value die: the dice are
    /// independent and identical, so any k of them in order are distributed as `k#die`
    /// (order statistics of position need no enumeration): `sum(first 3 (20#d6))` is three
    /// dice, not 6^20 sequences; a random k (`first d4 (20#d10)`) keeps min(k, n) dice for
    /// each pair of counts. Falls back to the list when the body is not such a die.
    pub(super) fn positional_repeat(
        &mut self,
        k: &Dist<(i32, bool)>,
        drop: bool,
        list: &Expr,
        ordered: bool,
    ) -> R<Positional> {
        let ExprKind::Repeat {
            count,
            op_span,
            body,
        } = &list.kind
        else {
            return Ok(Positional::Other);
        };
        let n = self.scalar(count, Operand::Count, *op_span)?;
        if n.outcomes().all(|(c, _)| *c <= 0) {
            return Ok(Positional::Other);
        }
        // The list is evaluated in order (it is under `first`/`last`), as the general path
        // would; only its count is changed.
        let body_repr = self.eval(body, true)?;
        // Before the counts are cut to the kept ones: the roller builds the whole list.
        check_copies(list, &n, body, &body_repr)?;
        let die = matches!(&body_repr, Repr::Dist(b)
            if b.iter().all(|(v, _)| v.items().len() == 1 && !v.cut()));
        if !die || n.iter().any(|((_, cut), _)| *cut) {
            let l = self.repeat_built(list, n, *op_span, body, body_repr, true)?;
            return Ok(Positional::List(l));
        }
        // The kept count for each pair of counts (a random k as `first d4 x` too).
        let kept = k
            .product(
                &n,
                |&(k, _), &(c, cut)| {
                    let (k, c) = (k.max(0), c.max(0));
                    (if drop { (c - k).max(0) } else { c.min(k) }, cut)
                },
                &mut self.budget,
            )
            .map_err(limit(list.span, "#"))?;
        let r = self.repeat_built(list, kept, *op_span, body, body_repr, ordered)?;
        Ok(Positional::Kept(r))
    }

    /// `n#body` once the count and the body are evaluated.
    pub(crate) fn repeat_built(
        &mut self,
        e: &Expr,
        n: Dist<(i32, bool)>,
        op_span: Span,
        body: &Expr,
        body_repr: Repr,
        ordered: bool,
    ) -> R<Repr> {
        check_copies(e, &n, body, &body_repr)?;
        if let Repr::Pool(q) = &body_repr
            && !ordered
            && q.is_plain()
            && !n.iter().any(|((_, cut), _)| *cut)
            && let Some(pool) = repeat_pool(&n, q)
        {
            // `d6#3#d6` under `sum`: a random number of copies of a pool is a pool (a mixture
            // over the count), so sums and counts over it are convolutions, not enumerations
            // of every multiset of up to 18 dice.
            return Ok(Repr::Pool(pool));
        }
        let b = match body_repr {
            Repr::Dist(d) => d,
            Repr::Pool(p) => self.materialize(&p, body)?,
        };
        let die: Option<Dist<i32>> =
            if !ordered && b.iter().all(|(v, _)| v.items().len() == 1 && !v.cut()) {
                Some(b.map(|v| v.items()[0]))
            } else {
                None
            };
        if let (Some(die), false) = (&die, n.iter().any(|((_, cut), _)| *cut)) {
            let mut components = Vec::new();
            for (&(k, _), w) in n.iter() {
                let k = k.max(0) as usize;
                components.push((w.clone(), vec![(die.clone(), k as u32)]));
            }
            return Ok(Repr::Pool(LazyPool {
                components,
                filters: Vec::new(),
                keep: None,
            }));
        }
        // General case: n independent copies concatenated, for each count.
        let d = self.mix(&n, e.span, "#", |this, &(k, cut)| {
            let k = k.max(0) as usize;
            let mut acc = Dist::certain(Val::new(vec![], cut));
            for _ in 0..k {
                acc = concat(&acc, &b, ordered, &mut this.budget).map_err(limit(op_span, "#"))?;
            }
            Ok(acc)
        })?;
        Ok(Repr::Dist(d))
    }
}

/// What [`Calc::positional_repeat`] made of a `first`/`last` list.
pub(super) enum Positional {
    /// The kept dice: the filter's result.
    Kept(Repr),
    /// The list itself (its body is not a single-value die): the filter still applies.
    List(Repr),
    /// Not `n#die`: evaluate the list as usual.
    Other,
}

/// Most components of the pool [`repeat_pool`] builds before the general path takes over.
const MAX_REPEAT_COMPONENTS: usize = 4096;

/// `n#q` for a plain pool `q` and a count distribution `n` without cut paths: for each count k
/// with weight w, k independent copies of `q` (the concatenation of k mixtures, each
/// component a product of k components). Weights are put on one scale: the copies of a
/// k-count sum to T^k (T = the total weight of `q`), so they are scaled by T^(K−k), K the
/// largest count. `None` when the mixture would have too many components or dice.
fn repeat_pool(n: &Dist<(i32, bool)>, q: &LazyPool) -> Option<LazyPool> {
    use alea_prob::Weight;
    let total = q
        .components
        .iter()
        .fold(Weight::ZERO, |acc, (w, _)| acc.add(w));
    let max_k = n.outcomes().map(|(k, _)| (*k).max(0)).max()? as usize;
    let per_copy: u64 = q
        .components
        .iter()
        .map(|(_, g)| g.iter().map(|(_, c)| u64::from(*c)).sum::<u64>())
        .max()
        .unwrap_or(0);
    if per_copy.saturating_mul(max_k as u64) > u64::from(super::pool::MAX_POOL_DICE) {
        return None;
    }
    let mut components = Vec::new();
    for (&(k, _), w) in n.iter() {
        let k = k.max(0) as usize;
        let mut acc = LazyPool::single(Dist::certain(0), 0);
        for _ in 0..k {
            acc = acc.concat(q);
            if acc.components.len() > MAX_REPEAT_COMPONENTS {
                return None;
            }
        }
        let mut scale = w.clone();
        for _ in k..max_k {
            scale = scale.mul(&total);
        }
        for (cw, groups) in acc.components {
            components.push((scale.mul(&cw), groups));
        }
        if components.len() > MAX_REPEAT_COMPONENTS {
            return None;
        }
    }
    Some(LazyPool {
        components,
        filters: Vec::new(),
        keep: None,
    })
}

/// Roll mode's list-length error for `e` (`n#body`) when its longest roll, the most copies
/// each of the longest value of the body, is longer than the limit.
fn check_copies(e: &Expr, n: &Dist<(i32, bool)>, body: &Expr, body_repr: &Repr) -> R<()> {
    let per_copy = match body_repr {
        Repr::Dist(d) => d.max_len(),
        Repr::Pool(p) => p.max_raw_len(),
    };
    let most = n.outcomes().map(|(k, _)| (*k).max(0) as usize).max();
    if per_copy.saturating_mul(most.unwrap_or(0)) > MAX_LIST_LEN {
        return Err(list_len::repeat_too_long(
            e,
            body,
            Some(per_copy),
            MAX_LIST_LEN,
        ));
    }
    Ok(())
}
