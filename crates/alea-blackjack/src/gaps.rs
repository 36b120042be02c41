//! The gap law of one piece on its chain: the first-passage iteration that lists P(gap = g),
//! its work prediction (so a refusal comes before the work, naming a tail that fits), and
//! E[gap²].

// Matrix and state-vector code reads best with explicit indices.
#![allow(clippy::needless_range_loop)]

use crate::chain::{Chain, has_cycle};
use crate::exact::{ExactError, GapLaw, MAX_LISTED_GAP};
use alea_prob::Ratio;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::Zero;
use std::collections::HashMap;

/// Default work limit of one gap iteration ([`crate::ExactOptions::max_work`]), in 64-bit
/// limb multiplications: about a second of work; a larger job is refused before it starts.
pub const DEFAULT_MAX_WORK: u64 = 200_000_000;

/// Budget of the listed fractions of one analysis, in 64-bit limbs (128 MiB).
const GAP_STORE_BUDGET: u64 = 16 << 20;

/// Memory spent so far by one analysis (the work limit applies to each chain's iteration, so
/// that the work a refusal names is exactly what raising the limit to it allows).
#[derive(Default)]
pub(crate) struct Budget {
    stored: u64,
}

/// E[gap²] of the piece whose edges are `is_x`, from the long-run weights: with τ the number
/// of other deals before the next X from a long-run state, P(τ = k) = p·P(gap ≥ k) (the deal
/// before is an X exactly when the run of other deals starts there), so
/// E[τ] = p·E[gap(gap+1)]/2 and, with Kac's E[gap] = 1/p − 1, E[gap²] = 2E[τ]/p − E[gap].
/// E[τ] solves h = c + Q·h over the recurrent states (Q: their non-X moves), here as the
/// integer system `(l·I − l·Q) h = l·c` solved modulo primes: no fraction is reduced until
/// the one result. The weights are `w[s]/d` and p = `frequency/(d·l)`.
pub(crate) fn gap_second_moment(
    wt: &Weighted<'_>,
    w: &[BigUint],
    d: &BigUint,
    frequency: &BigUint,
    max_solve: usize,
) -> Option<Ratio> {
    let chain = wt.chain;
    let states: Vec<usize> = (0..chain.keys.len()).filter(|&s| !w[s].is_zero()).collect();
    if states.len() > max_solve || frequency.is_zero() {
        return None;
    }
    let pos: HashMap<usize, usize> = states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let size = states.len();
    let l = BigInt::from(wt.l.clone());
    let mut a = vec![vec![BigInt::zero(); size + 1]; size];
    for (i, &s) in states.iter().enumerate() {
        a[i][i] += &l;
        for (e, ew) in chain.edges[s].iter().zip(&wt.edge_w[s]) {
            if e.is_x {
                continue;
            }
            let j = *pos.get(&e.to)?;
            let ew = BigInt::from(ew.clone());
            a[i][j] -= &ew;
            a[i][size] += ew;
        }
    }
    let weights: Vec<BigUint> = states.iter().map(|&s| w[s].clone()).collect();
    // τ = T/(d·det) with T = Σ w_s y_s; E[gap²] = (2T·l − d·l·det + F·det)/(det·F).
    let (mut det, mut t) = crate::modular::cramer_combination(&a, size, &weights)?;
    if det.sign() == Sign::Minus {
        det = -det;
        t = -t;
    }
    let f = BigInt::from(frequency.clone());
    let d = BigInt::from(d.clone());
    let n: BigInt = &t * &l * 2u32 - &d * &l * &det + &f * &det;
    Some(Ratio::new(n.to_biguint()?, (det * f).to_biguint()?))
}

/// A law over states as integer numerators over one denominator.
pub(crate) struct Start {
    pub num: Vec<BigUint>,
    pub den: BigUint,
}

/// The chain of one piece with its edge weights as integers over the common denominator `l`.
pub(crate) struct Weighted<'a> {
    pub chain: &'a Chain,
    pub l: &'a BigUint,
    pub edge_w: &'a [Vec<BigUint>],
    pub x_weight: &'a [BigUint],
}

/// The work the loop of [`gap_law`] charges for the step that lists gap `g` (multiplications
/// of the step, plus the quadratic gcd that reduces the listed fraction), and the limbs stored.
/// The step's denominator is the start's times `l^(g+1)`, so its size is known in advance.
fn step_cost(edge_count: u64, start_bits: u64, l_bits: u64, g: u64) -> (u64, u64) {
    let den_limbs = (start_bits + (g + 1) * l_bits) / 64 + 1;
    let l_limbs = l_bits / 64 + 1;
    (
        edge_count * den_limbs * l_limbs + 4 * den_limbs * den_limbs,
        den_limbs,
    )
}

/// P(gap > g) for g = 0, 1, … in floating point, until it is at most `eps` (or the list
/// limit): the length of the exact list, known before any big-number work.
fn float_tails(w: &Weighted<'_>, start: &Start, eps: f64) -> Vec<f64> {
    let n = w.chain.keys.len();
    let mut v: Vec<f64> = start
        .num
        .iter()
        .map(|x| alea_prob::ratio_to_f64(x, &start.den))
        .collect();
    let mut tails = Vec::new();
    while (tails.len() as u64) <= MAX_LISTED_GAP {
        let mut next = vec![0.0f64; n];
        for s in 0..n {
            if v[s] == 0.0 {
                continue;
            }
            for e in w.chain.edges[s].iter().filter(|e| !e.is_x) {
                next[e.to] += v[s] * e.prob.to_f64();
            }
        }
        v = next;
        let left: f64 = v.iter().sum();
        tails.push(left);
        if left <= eps {
            break;
        }
    }
    tails
}

/// Refuses at once, before the big-number work, when listing an unbounded law to the tail
/// limit would exceed the budget left; the message names the gaps and fraction sizes needed
/// and a `--tail` that fits (checked against the same prediction, with a margin).
fn predict(
    w: &Weighted<'_>,
    start: &Start,
    tail_limit: &Ratio,
    max_work: u64,
    budget: &Budget,
) -> Result<(), ExactError> {
    let edge_count =
        w.chain.edges.iter().map(Vec::len).sum::<usize>() as u64 + w.chain.keys.len() as u64;
    let (start_bits, l_bits) = (start.den.bits(), w.l.bits());
    let eps = tail_limit.to_f64();
    // A little below the limit, so that rounding never makes the prediction too short.
    let tails = float_tails(w, start, eps * (1.0 - 1e-9));
    let cumulative = |steps: usize| {
        (0..steps as u64).fold((0u64, budget.stored), |(work, stored), g| {
            let (dw, ds) = step_cost(edge_count, start_bits, l_bits, g);
            (work.saturating_add(dw), stored.saturating_add(ds))
        })
    };
    let fits = |(work, stored): (u64, u64)| work <= max_work && stored <= GAP_STORE_BUDGET;
    // The loop charges the steps before the one whose tail meets the limit.
    let (work, stored) = cumulative(tails.len().saturating_sub(1));
    if fits((work, stored)) {
        return Ok(());
    }
    let gaps = tails.len();
    let bits = start_bits + gaps as u64 * l_bits;
    // The smallest power of ten whose list fits with a fifth of the budget to spare.
    let margin =
        |(work, stored): (u64, u64)| work <= max_work / 5 * 4 && stored <= GAP_STORE_BUDGET / 5 * 4;
    let mut suggestion = None;
    for j in (1..=300).rev() {
        let t = 10f64.powi(-j);
        if t <= eps {
            continue;
        }
        let Some(stop) = tails.iter().position(|&x| x <= t * (1.0 - 1e-6)) else {
            continue;
        };
        if margin(cumulative(stop)) {
            suggestion = Some(format!("1/1{}", "0".repeat(j as usize)));
            break;
        }
    }
    let what = format!(
        "the gap distribution to the tail {tail_limit} ({gaps} gaps, fractions of up to \
         {bits} bits: {work} units of work, the limit is {max_work})"
    );
    // Memory cannot be raised; work can.
    let mut ways = Vec::new();
    if stored <= GAP_STORE_BUDGET {
        ways.push(format!("raise --max-work to {work}"));
    }
    if let Some(t) = suggestion {
        ways.push(format!("raise --tail to {t} to list fewer gaps"));
    }
    ways.push("use --stats (the text output and --gap-at-least need no list)".to_string());
    let hint = ways.join(", or ");
    Err(ExactError::TooLarge { what, hint })
}

/// The longest gap of a bounded law: the longest run of non-X moves from the start's support
/// that ends in a state which can deal an X (the non-X moves there form a DAG).
fn longest_gap(chain: &Chain, support: &[usize]) -> u64 {
    let n = chain.keys.len();
    let mut memo: Vec<Option<i64>> = vec![None; n];
    let mut longest = 0i64;
    for &root in support {
        // Iterative post-order: children before parents.
        let mut work: Vec<(usize, bool)> = vec![(root, false)];
        while let Some((v, expanded)) = work.pop() {
            if memo[v].is_some() {
                continue;
            }
            let next: Vec<usize> = chain.edges[v]
                .iter()
                .filter(|e| !e.is_x)
                .map(|e| e.to)
                .collect();
            if !expanded {
                work.push((v, true));
                work.extend(
                    next.iter()
                        .filter(|&&t| memo[t].is_none())
                        .map(|&t| (t, false)),
                );
                continue;
            }
            let deals_x = chain.edges[v].iter().any(|e| e.is_x);
            let mut best = if deals_x { 0 } else { i64::MIN };
            for t in next {
                if let Some(m) = memo[t].filter(|&m| m >= 0) {
                    best = best.max(m + 1);
                }
            }
            memo[v] = Some(best);
        }
        longest = longest.max(memo[root].unwrap_or(0));
    }
    longest.max(0) as u64
}

/// First-passage iteration from the law of the state right after an X, with integer
/// numerators over one common denominator per step. `first`: list only the gaps below it
/// (the rest is the exact tail), `None`: to the tail limit (spec §7).
pub(crate) fn gap_law(
    w: &Weighted<'_>,
    start: Start,
    tail_limit: &Ratio,
    first: Option<u64>,
    max_work: u64,
    budget: &mut Budget,
) -> Result<GapLaw, ExactError> {
    let chain = w.chain;
    let n = chain.keys.len();
    let support: Vec<usize> = (0..n).filter(|&s| !start.num[s].is_zero()).collect();
    let unbounded = has_cycle(chain, &support, |e| !e.is_x);
    let max_gap = (!unbounded).then(|| longest_gap(chain, &support));
    if unbounded && first.is_none() {
        predict(w, &start, tail_limit, max_work, budget)?;
    }
    let moves: Vec<Vec<(usize, &BigUint)>> = (0..n)
        .map(|s| {
            chain.edges[s]
                .iter()
                .zip(&w.edge_w[s])
                .filter(|(e, _)| !e.is_x)
                .map(|(e, w)| (e.to, w))
                .collect()
        })
        .collect();
    let Start { mut num, mut den } = start;
    let mut distribution = Vec::new();
    let edge_count = moves.iter().map(Vec::len).sum::<usize>() as u64 + n as u64;
    let (start_bits, l_bits) = (den.bits(), w.l.bits());
    let mut work = 0u64;
    loop {
        let g = distribution.len() as u64;
        if first.is_some_and(|k| g >= k) {
            // Stopped by the caller's limit: the exact rest is the tail.
            let left = num.iter().fold(BigUint::zero(), |a, v| a + v);
            return Ok(GapLaw {
                max_gap,
                distribution,
                tail: Ratio::new(left, den),
                second_moment: None,
            });
        }
        let hit = num
            .iter()
            .zip(w.x_weight)
            .fold(BigUint::zero(), |a, (v, x)| a + v * x);
        let step_den = &den * w.l;
        distribution.push(Ratio::new(hit, step_den.clone()));
        let mut next = vec![BigUint::zero(); n];
        for s in 0..n {
            if num[s].is_zero() {
                continue;
            }
            for (to, w) in &moves[s] {
                next[*to] += &num[s] * *w;
            }
        }
        num = next;
        den = step_den;
        let left = num.iter().fold(BigUint::zero(), |a, v| a + v);
        if left.is_zero() {
            // Bounded: trim trailing zero probabilities (none are expected).
            while distribution.len() > 1 && distribution.last().is_some_and(Ratio::is_zero) {
                distribution.pop();
            }
            return Ok(GapLaw {
                max_gap: Some(distribution.len() as u64 - 1),
                distribution,
                tail: Ratio::zero(),
                second_moment: None,
            });
        }
        if unbounded
            && (&left * tail_limit.denom() <= tail_limit.numer() * &den || g >= MAX_LISTED_GAP)
        {
            return Ok(GapLaw {
                max_gap: None,
                distribution,
                tail: Ratio::new(left, den),
                second_moment: None,
            });
        }
        let (dw, ds) = step_cost(edge_count, start_bits, l_bits, g);
        work += dw;
        budget.stored += ds;
        // A backstop: the prediction refuses first, but `first` lists skip it.
        if work > max_work || budget.stored > GAP_STORE_BUDGET {
            return Err(ExactError::TooLarge {
                what: format!(
                    "the gap distribution (more than {} gaps listed so far)",
                    distribution.len()
                ),
                hint: format!(
                    "raise --max-work above {max_work} or --tail above {tail_limit} to list \
                     fewer gaps, or use --stats"
                ),
            });
        }
    }
}
