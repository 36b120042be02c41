//! The evaluation context (RNG, environment, step counter), the two step-accounting modes
//! and the value helpers the nodes share.

use crate::ast::{Aggregate, Selector};
use crate::ops::{self, Cmp};
use crate::roll::{MAX_LIST_LEN, MAX_STEPS};
use alea_core::{Diagnostic, Rng, Span};

/// A roll stopped early. Why waits in [`Cx::error`]: a runtime error (with its span, exact
/// in both modes), or none when the fast mode saw a limit that it checks ahead of time and
/// the precise mode decides (a rerun). Keeping the error out of the result makes a node's
/// `R<i32>` 8 bytes, returned in a register instead of through memory at every node call.
#[derive(Debug)]
pub(crate) struct Stop;

pub(crate) type R<T> = Result<T, Stop>;

/// The evaluation context. `P` (on the methods and every node's `eval`) selects the step
/// accounting: `false` is the fast mode (costs charged ahead, per region), `true` the precise
/// mode (each node charges its own steps at the roller's moment and span).
pub(crate) struct Cx<'a> {
    pub rng: &'a mut Rng,
    pub env: &'a mut [Vec<i32>],
    pub steps: u64,
    /// The error of a roll that stopped with one (see [`Stop`]).
    pub error: Option<Box<Diagnostic>>,
}

impl<'a> Cx<'a> {
    pub fn new(rng: &'a mut Rng, env: &'a mut [Vec<i32>]) -> Cx<'a> {
        Cx {
            rng,
            env,
            steps: 0,
            error: None,
        }
    }
}

impl Cx<'_> {
    /// Stops the roll with `d`.
    #[cold]
    #[inline(never)]
    pub fn fail(&mut self, d: Box<Diagnostic>) -> Stop {
        self.error = Some(d);
        Stop
    }

    /// Why the roll stopped: its error, or `None` for a rerun in the precise mode.
    pub fn take_error(&mut self) -> Option<Box<Diagnostic>> {
        self.error.take()
    }

    /// The list-length limit, checked where the roller checks it.
    #[inline(always)]
    pub fn check_len(&mut self, len: usize, span: Span) -> R<()> {
        if len > MAX_LIST_LEN {
            return Err(self.fail(ops::list_too_long(span, MAX_LIST_LEN)));
        }
        Ok(())
    }

    /// Charges `n` steps that happen at this moment in both modes (a die loop's `2n`, a
    /// range's `n/16`), reported at `span`.
    #[inline(always)]
    pub fn add<const P: bool>(&mut self, n: u64, span: Span) -> R<()> {
        let before = self.steps;
        self.steps = self.steps.saturating_add(n);
        // One test on the hot path: past the limit, or across a multiple of POLL_STEPS.
        if self.steps > MAX_STEPS || (before ^ self.steps) >= alea_core::POLL_STEPS {
            return self.add_slow::<P>(before, span);
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn add_slow<const P: bool>(&mut self, before: u64, span: Span) -> R<()> {
        if self.steps > MAX_STEPS {
            if P {
                return Err(self.fail(ops::step_limit(span, MAX_STEPS)));
            }
            // Costs charged ahead may pass the limit before the roll really does.
            return Err(Stop);
        }
        // A host's time limit (alea_core::Cancel), polled every POLL_STEPS steps.
        if alea_core::Cancel::poll(before, self.steps) {
            return Err(self.fail(ops::cancelled(span)));
        }
        Ok(())
    }

    /// A node's own steps: charged here in the precise mode, ahead in the fast mode.
    #[inline(always)]
    pub fn own<const P: bool>(&mut self, n: u64, span: Span) -> R<()> {
        if P { self.add::<P>(n, span) } else { Ok(()) }
    }

    /// Costs charged ahead (a loop body's, a branch's): in the fast mode only.
    #[inline(always)]
    pub fn ahead<const P: bool>(&mut self, n: u64, span: Span) -> R<()> {
        if P { Ok(()) } else { self.add::<P>(n, span) }
    }

    /// `dk`: `range_inclusive(1, k)`, which is `1 + below(k)`.
    #[inline(always)]
    pub fn die(&mut self, k: u64) -> i32 {
        die(self.rng, k)
    }
}

/// `dk` drawn from `rng` (see [`Cx::die`]).
#[inline(always)]
pub(crate) fn die(rng: &mut Rng, k: u64) -> i32 {
    (1 + rng.below(k)) as i32
}

/// `d(k[0])` then `d(k[1])`, drawn from a local copy of the generator kept in registers.
#[inline(always)]
pub(crate) fn two_dice(rng: &mut Rng, k: [u64; 2]) -> (i32, i32) {
    let mut local = rng.clone();
    let a = die(&mut local, k[0]);
    let b = die(&mut local, k[1]);
    *rng = local;
    (a, b)
}

/// The list-length limit checked ahead of the pushes (fast mode only; the precise mode
/// checks after each push).
#[inline]
pub(crate) fn check_len_ahead<const P: bool>(len: usize) -> R<()> {
    if !P && len > MAX_LIST_LEN {
        return Err(Stop);
    }
    Ok(())
}

/// Keeps the members of `out[start..]` that pass `keep`, in order.
#[inline]
pub(crate) fn compact(out: &mut Vec<i32>, start: usize, keep: impl Fn(i32) -> bool) {
    let mut w = start;
    for r in start..out.len() {
        let m = out[r];
        if keep(m) {
            out[w] = m;
            w += 1;
        }
    }
    out.truncate(w);
}

/// `op` once per aggregate, with `$a` a constant equal to `$op` (see [`each_cmp`]).
macro_rules! each_aggregate {
    ($op:expr, $a:ident => $body:expr) => {
        match $op {
            Aggregate::Sum => {
                const $a: Aggregate = Aggregate::Sum;
                $body
            }
            Aggregate::Prod => {
                const $a: Aggregate = Aggregate::Prod;
                $body
            }
            Aggregate::Count => {
                const $a: Aggregate = Aggregate::Count;
                $body
            }
        }
    };
}

/// `$body` once per comparison, with `$c` a constant equal to `$cmp`: each copy inlines the
/// one rule ([`Cmp::keeps`]) with a constant test, so its loop does not decide the test per
/// member, and a closure that names only constants is a plain function (a [`FoldDice`]).
macro_rules! each_cmp {
    ($cmp:expr, $c:ident => $body:expr) => {
        match $cmp {
            Cmp::Eq => {
                const $c: Cmp = Cmp::Eq;
                $body
            }
            Cmp::Ne => {
                const $c: Cmp = Cmp::Ne;
                $body
            }
            Cmp::Lt => {
                const $c: Cmp = Cmp::Lt;
                $body
            }
            Cmp::Gt => {
                const $c: Cmp = Cmp::Gt;
                $body
            }
            Cmp::Le => {
                const $c: Cmp = Cmp::Le;
                $body
            }
            Cmp::Ge => {
                const $c: Cmp = Cmp::Ge;
                $body
            }
        }
    };
}

/// `SEL x` on `out[start..]`: keeps the members that `cmp` keeps against `x`.
pub(crate) fn compact_cmp(out: &mut Vec<i32>, start: usize, cmp: Cmp, x: i32) {
    each_cmp!(cmp, C => compact(out, start, |m| C.keeps(m, x)))
}

/// `op` of a one-member list's comparison filter, in the caller: the test first, then the
/// aggregate (as the caller's code would be written).
#[inline(always)]
fn fold_one(op: Aggregate, cmp: Cmp, x: i32, m: i32) -> i32 {
    let kept = cmp.keeps(m, x);
    ops::aggregate_kept(op, std::iter::once(m), move |_| kept)
}

/// [`fold_cmp`] with a one-member list (a loop's bound die, `count <6 x`) folded in the
/// caller: one comparison instead of a call and the per-comparison loop's setup.
#[inline(always)]
pub(crate) fn fold_cmp_short(op: Aggregate, cmp: Cmp, x: i32, items: &[i32]) -> i32 {
    if let [m] = *items {
        return fold_one(op, cmp, x, m);
    }
    fold_cmp(op, cmp, x, items)
}

/// [`fold_cmp_short`] whose longer lists go to `fold`, the loop the compiler chose for `op`
/// and `cmp` ([`fold_list_fn`]).
#[inline(always)]
pub(crate) fn fold_cmp_by(op: Aggregate, cmp: Cmp, x: i32, items: &[i32], fold: FoldList) -> i32 {
    if let [m] = *items {
        return fold_one(op, cmp, x, m);
    }
    fold(x, items)
}

/// `op (SEL x items)` for the comparison `cmp`, without building the filtered list.
#[inline(never)]
pub(crate) fn fold_cmp(op: Aggregate, cmp: Cmp, x: i32, items: &[i32]) -> i32 {
    each_cmp!(cmp, C => ops::aggregate_kept(op, items.iter().copied(), |m| C.keeps(m, x)))
}

/// A fold of a list's comparison filter chosen once by the compiler ([`fold_list_fn`]):
/// `fold(x, items)` is `op (SEL x items)`; a bound variable's fold (`sum (==y x)` in a
/// `foreach`) calls its loop directly instead of deciding the comparison and the aggregate
/// at every call, as [`fold_cmp`] does.
pub(crate) type FoldList = fn(i32, &[i32]) -> i32;

/// The loop of `op (SEL x items)` for the comparison `cmp`: one monomorphic function per
/// aggregate and comparison.
pub(crate) fn fold_list_fn(op: Aggregate, cmp: Cmp) -> FoldList {
    each_aggregate!(op, OP => each_cmp!(cmp, C => |x: i32, items: &[i32]| {
        ops::aggregate_kept(OP, items.iter().copied(), |m| C.keeps(m, x))
    }))
}

/// `op` over `n` fresh `dk` that pass `keep`: the draws of `n#dk`, without the list.
#[inline(always)]
fn fold_dice(rng: &mut Rng, op: Aggregate, n: usize, k: u64, keep: impl Fn(i32) -> bool) -> i32 {
    // A local copy keeps the generator's state in registers across the loop.
    let mut local = rng.clone();
    let v = ops::aggregate_kept(op, (0..n).map(|_| (1 + local.below(k)) as i32), keep);
    *rng = local;
    v
}

/// A fold over fresh dice chosen once by the compiler ([`fold_dice_fn`]): `fold(rng, n, k, x)`
/// is `op (SEL x n#dk)` (or `op n#dk`, which ignores `x`), drawing as `n#dk` does; a node
/// calls its loop directly instead of deciding the filter and the aggregate at every call.
pub(crate) type FoldDice = fn(&mut Rng, usize, u64, i32) -> i32;

/// The loop of `op (SEL x n#dk)` for the comparison `cmp`, or of `op n#dk` without one: one
/// monomorphic function per aggregate and comparison.
pub(crate) fn fold_dice_fn(op: Aggregate, cmp: Option<Cmp>) -> FoldDice {
    each_aggregate!(op, OP => match cmp {
        None => |rng: &mut Rng, n: usize, k: u64, _: i32| fold_dice(rng, OP, n, k, |_| true),
        Some(cmp) => each_cmp!(cmp, C => |rng: &mut Rng, n: usize, k: u64, x: i32| {
            fold_dice(rng, OP, n, k, |m| C.keeps(m, x))
        }),
    })
}

/// Appends `n` fresh `dk` to `out`. No die and one die (a `while` body's `(count <6 x)#d6`
/// nearly always) are handled in the caller, without the call and the state copy of the
/// loop; two or more go to `many`, the fill the compiler chose ([`pool_dice_fn`]).
#[inline(always)]
pub(crate) fn push_dice(rng: &mut Rng, out: &mut Vec<i32>, n: usize, k: u64, many: PoolDice) {
    // One test for the pools (`5#d10`), which go to the loop.
    if n >= 2 {
        many(rng, out, n, k);
    } else if n == 1 {
        out.push((1 + rng.below(k)) as i32);
    }
}

/// Appends `n ≥ 2` fresh dice to a list, `fill(rng, out, n, k)`, drawing as `n#dk` does:
/// chosen once by the compiler for each `n#dK` ([`pool_dice_fn`]).
pub(crate) type PoolDice = fn(&mut Rng, &mut Vec<i32>, usize, u64);

/// Any count: eight dice at a time into a stack block, appended whole (a fixed-size copy,
/// no `memset` of the new members and no `memcpy` call) and the unused tail cut.
#[inline(never)]
fn push_dice_loop(rng: &mut Rng, out: &mut Vec<i32>, n: usize, k: u64) {
    let mut local = rng.clone();
    out.reserve(n + 8);
    let mut left = n;
    let mut block = [0i32; 8];
    while left > 0 {
        let m = left.min(8);
        for slot in &mut block[..m] {
            *slot = (1 + local.below(k)) as i32;
        }
        let len = out.len();
        out.extend_from_slice(&block);
        out.truncate(len + m);
        left -= m;
    }
    *rng = local;
}

/// A literal count `N` (the only `n` its node can give): the dice drawn from a local copy
/// of the generator into a fixed array (straight-line code, without the block loop's
/// counter and tail cut), then appended whole.
fn pool_dice<const N: usize>(rng: &mut Rng, out: &mut Vec<i32>, n: usize, k: u64) {
    debug_assert_eq!(n, N);
    let mut local = rng.clone();
    let mut block = [0i32; N];
    for slot in &mut block {
        *slot = die(&mut local, k);
    }
    *rng = local;
    out.extend(block);
}

/// The fill of `n#dK`'s pools of two or more dice: for a literal `n` from 2 to 8 (the pools
/// of the man pages) straight-line code for that `n`, else the loop for any count.
pub(crate) fn pool_dice_fn(literal: Option<i32>) -> PoolDice {
    match literal {
        Some(2) => pool_dice::<2>,
        Some(3) => pool_dice::<3>,
        Some(4) => pool_dice::<4>,
        Some(5) => pool_dice::<5>,
        Some(6) => pool_dice::<6>,
        Some(7) => pool_dice::<7>,
        Some(8) => pool_dice::<8>,
        _ => push_dice_loop,
    }
}

/// `a / d` (truncating) for `d ≥ 2`, with `m = floor((2^64 - 1) / d) + 1`: `|a| < 2^32`, so
/// the high half of `|a|·m` is `floor(|a| / d)` (Lemire, Kaser & Kurz 2019).
#[inline]
pub(crate) fn div_k(a: i32, m: u64) -> i32 {
    let q = ((u128::from(a.unsigned_abs()) * u128::from(m)) >> 64) as u32;
    // |a / d| ≤ 2^30 for d ≥ 2, so the quotient fits and its sign follows `a`.
    if a < 0 {
        (q as i32).wrapping_neg()
    } else {
        q as i32
    }
}

/// The member `low 1` (`smallest`) or `high 1` keeps of `members`, if any: the one extreme
/// value (equal members are the same value, so which occurrence does not matter).
#[inline(always)]
pub(crate) fn extreme(smallest: bool, members: &[i32]) -> Option<i32> {
    if smallest {
        members.iter().copied().min()
    } else {
        members.iter().copied().max()
    }
}

/// Appends `src` to `out`; lists of up to three members (dice pools, selections) are pushed
/// in the caller rather than copied by a call (`extend_from_slice` is a call of the vector's
/// copy and `memcpy`, even for two members).
#[inline(always)]
pub(crate) fn append(out: &mut Vec<i32>, src: &[i32]) {
    if src.len() > 3 {
        return out.extend_from_slice(src);
    }
    out.reserve(3);
    for &m in src {
        out.push(m);
    }
}

/// [`ops::select_count`], with direct paths for the commonest `low`/`high` filters (keep one
/// member, or all but one) that give the same members without sorting a copy. Without
/// `ordered`, the members may come out in another order (for a fold).
pub(crate) fn select(
    sel: Selector,
    drop: bool,
    n: usize,
    list: &mut Vec<i32>,
    scratch: &mut Vec<i32>,
    ordered: bool,
) {
    let len = list.len();
    let n = n.min(len);
    let Some((m, smallest)) = ops::extreme_kept(sel, drop, n, len) else {
        return ops::select_count(sel, drop, n, list, scratch);
    };
    if m >= len || m == 0 || (m > 1 && m + 1 < len) {
        return ops::select_count(sel, drop, n, list, scratch);
    }
    if m == 1 {
        // [`extreme`], spelled out: calling it here made LLVM lay out the all-but-one loop
        // below worse (7 instructions a roll more on `sum(drop low 1 4#d6)`).
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
