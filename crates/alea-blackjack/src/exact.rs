//! Exact long-run statistics (spec §8) as fractions, from the lumped chain of each piece.

// Matrix and state-vector code reads best with explicit indices.
#![allow(clippy::needless_range_loop)]

use crate::chain::{self, Chain, ChainError, Key, Model, components, has_cycle, stationary};
use crate::presets::{Builtin, TETROMINOES, preset_spec};
use crate::rational::Ratio;
use crate::spec::{Core, Spec};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::HashMap;
use std::fmt;

/// Largest gap the distribution lists for unbounded gap laws (spec §7).
pub const MAX_LISTED_GAP: u64 = 100_000;

/// Work budget of all gap iterations of one analysis, in 64-bit limb multiplications; a larger
/// job ends in [`ExactError::TooLarge`] instead of running for minutes.
const GAP_WORK_BUDGET: u64 = 200_000_000;

/// Budget of the listed fractions of one analysis, in 64-bit limbs (128 MiB).
const GAP_STORE_BUDGET: u64 = 16 << 20;

/// Work and memory spent so far by one analysis.
#[derive(Default)]
struct Budget {
    work: u64,
    stored: u64,
}

/// Options of [`exact`].
#[derive(Clone, Debug)]
pub struct ExactOptions {
    /// Tail mass that cuts unbounded gap laws (default 1/1000000).
    pub tail: Ratio,
    /// State limit per piece's chain (default 100000).
    pub max_states: usize,
}

impl Default for ExactOptions {
    fn default() -> Self {
        ExactOptions {
            tail: Ratio::from_u64(1, 1_000_000),
            max_states: 100_000,
        }
    }
}

/// The law of the gap (deals strictly between an X and the next X) of one piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GapLaw {
    /// The largest possible gap, `None` when gaps are unbounded.
    pub max_gap: Option<u64>,
    /// `distribution[g]` = P(gap = g), from 0 to the last listed gap.
    pub distribution: Vec<Ratio>,
    /// P(gap > last listed gap); zero for bounded laws.
    pub tail: Ratio,
}

/// Exact long-run statistics of a randomizer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactStats {
    /// Canonical spec, or the built-in preset's name.
    pub spec: String,
    /// Piece names, in `pieces()` order.
    pub pieces: Vec<String>,
    /// Long-run frequency of each piece.
    pub frequency: Vec<Ratio>,
    /// P(a deal has the name of the one before).
    pub repeat_probability: Ratio,
    /// P(every roll hits the history); `None` without `R rolls`.
    pub from_history_probability: Option<Ratio>,
    /// Gap law of each piece.
    pub gaps: Vec<GapLaw>,
    /// The tail limit used.
    pub tail_limit: Ratio,
    /// The largest number of lumped states of any piece's chain.
    pub states: usize,
}

/// Why exact analysis is impossible (exit status 3 in the CLI).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExactError {
    /// X01: the chain has more states than allowed.
    TooManyStates {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// X02: a preset with no finite state machine (`tgm3`).
    NoFiniteChain {
        /// The preset.
        preset: String,
    },
    /// X03: the exact numbers would be too large (huge roll counts, very long gap laws).
    TooLarge {
        /// What is too large.
        what: String,
    },
}

impl ExactError {
    /// `X01`, `X02` or `X03`.
    pub fn code(&self) -> &'static str {
        match self {
            ExactError::TooManyStates { .. } => "X01",
            ExactError::NoFiniteChain { .. } => "X02",
            ExactError::TooLarge { .. } => "X03",
        }
    }
}

impl fmt::Display for ExactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExactError::TooManyStates { limit } => {
                write!(f, "state space exceeds {limit} states; use --stats")
            }
            ExactError::NoFiniteChain { preset } => {
                write!(
                    f,
                    "preset '{preset}' has no finite state machine; use --stats"
                )
            }
            ExactError::TooLarge { what } => {
                write!(f, "{what} is too large for exact analysis; use --stats")
            }
        }
    }
}

impl std::error::Error for ExactError {}

fn chain_error(e: ChainError) -> ExactError {
    match e {
        ChainError::TooManyStates(limit) => ExactError::TooManyStates { limit },
        ChainError::NumbersTooLarge => ExactError::TooLarge {
            what: "the roll count".to_string(),
        },
    }
}

/// Exact statistics of `spec` (spec §8).
pub fn exact(spec: &Spec, opts: &ExactOptions) -> Result<ExactStats, ExactError> {
    // One chain per piece, each built from the whole list: refuse lists whose size times their
    // number of distinct pieces would take minutes.
    if spec.pieces.len() as u64 * spec.cards.len() as u64 > 20_000_000 {
        return Err(ExactError::TooLarge {
            what: format!(
                "a list of {} entries with {} distinct pieces",
                spec.cards.len(),
                spec.pieces.len()
            ),
        });
    }
    let mut per_piece = Vec::new();
    let mut cache = StationaryCache::new();
    let mut budget = Budget::default();
    for x in 0..spec.pieces.len() as u16 {
        per_piece.push(analyse(
            &Model::for_spec(spec, x),
            opts,
            &mut cache,
            &mut budget,
        )?);
    }
    let rolls = matches!(spec.core, Core::History { rolls: Some(_), .. });
    Ok(assemble(
        spec.to_string(),
        spec.pieces.iter().map(|p| p.to_string()).collect(),
        per_piece,
        rolls,
        opts,
    ))
}

/// Exact statistics of a preset by name. Unknown names are `None`.
pub fn exact_preset(name: &str, opts: &ExactOptions) -> Option<Result<ExactStats, ExactError>> {
    if let Some(text) = preset_spec(name) {
        let spec = Spec::parse(text).ok()?;
        return Some(exact(&spec, opts));
    }
    let b = Builtin::new(name)?;
    let Some(model) = Model::for_builtin(&b) else {
        return Some(Err(ExactError::NoFiniteChain {
            preset: name.to_string(),
        }));
    };
    // Every tetromino has the same role in the built-ins' rules, so one chain serves all.
    let one = match analyse(
        &model,
        opts,
        &mut StationaryCache::new(),
        &mut Budget::default(),
    ) {
        Ok(r) => r,
        Err(e) => return Some(Err(e)),
    };
    let per_piece = vec![one; TETROMINOES.len()];
    Some(Ok(assemble(
        name.to_string(),
        TETROMINOES.iter().map(|s| s.to_string()).collect(),
        per_piece,
        false,
        opts,
    )))
}

#[derive(Clone)]
struct PieceResult {
    frequency: Ratio,
    /// P(deal t = X and deal t+1 = X).
    double: Ratio,
    from_history: Ratio,
    gap: GapLaw,
    states: usize,
}

fn assemble(
    spec: String,
    pieces: Vec<String>,
    per_piece: Vec<PieceResult>,
    rolls: bool,
    opts: &ExactOptions,
) -> ExactStats {
    let repeat = chain::sum(per_piece.iter().map(|r| &r.double));
    ExactStats {
        spec,
        pieces,
        frequency: per_piece.iter().map(|r| r.frequency.clone()).collect(),
        repeat_probability: repeat,
        from_history_probability: rolls
            .then(|| per_piece.first().map(|r| r.from_history.clone()))
            .flatten(),
        gaps: per_piece.iter().map(|r| r.gap.clone()).collect(),
        tail_limit: opts.tail.clone(),
        states: per_piece.iter().map(|r| r.states).max().unwrap_or(0),
    }
}

/// A closed class described without state numbers: each state's key and its edges (probability,
/// X?, from history?, target key), sorted by key. Pieces with the same role have equal classes.
type ClassSignature = Vec<(Key, Vec<(Ratio, bool, bool, Key)>)>;

/// Stationary laws already solved in this analysis, by class signature.
type StationaryCache = HashMap<ClassSignature, HashMap<Key, Ratio>>;

fn signature(chain: &Chain, states: &[usize]) -> ClassSignature {
    let mut sig: ClassSignature = states
        .iter()
        .map(|&s| {
            let mut edges: Vec<(Ratio, bool, bool, Key)> = chain.edges[s]
                .iter()
                .map(|e| {
                    (
                        e.prob.clone(),
                        e.is_x,
                        e.from_history,
                        chain.keys[e.to].clone(),
                    )
                })
                .collect();
            edges.sort_by(|a, b| (&a.3, a.1, a.2).cmp(&(&b.3, b.1, b.2)));
            (chain.keys[s].clone(), edges)
        })
        .collect();
    sig.sort_by(|a, b| a.0.cmp(&b.0));
    sig
}

/// The long-run weight of every state: each closed class's stationary law times the
/// probability of entering it from the start.
fn long_run(chain: &Chain, cache: &mut StationaryCache) -> Result<Vec<Ratio>, ChainError> {
    let n = chain.keys.len();
    let comps = components(chain);
    let mut comp_of = vec![0usize; n];
    for (c, states) in comps.iter().enumerate() {
        for &s in states {
            comp_of[s] = c;
        }
    }
    let mut mass = vec![Ratio::zero(); n];
    for (s, p) in &chain.start {
        mass[*s] = &mass[*s] + p;
    }
    let mut weight = vec![Ratio::zero(); n];
    // Tarjan lists sinks first, so walk the components backwards: predecessors come first.
    for (c, states) in comps.iter().enumerate().rev() {
        let closed = states
            .iter()
            .all(|&s| chain.edges[s].iter().all(|e| comp_of[e.to] == c));
        let entering = chain::sum(states.iter().map(|&s| &mass[s]));
        if entering.is_zero() {
            continue;
        }
        if closed {
            let sig = signature(chain, states);
            if !cache.contains_key(&sig) {
                let pi = stationary(chain, states)?;
                let law = states
                    .iter()
                    .map(|&s| chain.keys[s].clone())
                    .zip(pi)
                    .collect();
                cache.insert(sig.clone(), law);
            }
            let law = &cache[&sig];
            for &s in states {
                weight[s] = &entering * &law[&chain.keys[s]];
            }
            continue;
        }
        let looped = states.len() > 1 || chain.edges[states[0]].iter().any(|e| e.to == states[0]);
        let visits = if looped {
            let b: Vec<Ratio> = states.iter().map(|&s| mass[s].clone()).collect();
            chain::transient_visits(chain, states, &b)?
        } else {
            vec![mass[states[0]].clone()]
        };
        for (&s, v) in states.iter().zip(visits) {
            for e in &chain.edges[s] {
                if comp_of[e.to] != c {
                    mass[e.to] = &mass[e.to] + &(&v * &e.prob);
                }
            }
        }
    }
    Ok(weight)
}

fn analyse(
    model: &Model<'_>,
    opts: &ExactOptions,
    cache: &mut StationaryCache,
    budget: &mut Budget,
) -> Result<PieceResult, ExactError> {
    let chain = chain::build(model, opts.max_states).map_err(chain_error)?;
    let weight = long_run(&chain, cache).map_err(chain_error)?;
    let n = chain.keys.len();
    // Everything below is integer arithmetic over common denominators, reduced once at the end:
    // weights w[s]/d, edge probabilities ew/l.
    let mut d = BigUint::one();
    for w in weight.iter().filter(|w| !w.is_zero()) {
        d = d.lcm(w.denom());
    }
    let w: Vec<BigUint> = weight
        .iter()
        .map(|x| x.numer() * (&d / x.denom()))
        .collect();
    let mut l = BigUint::one();
    for e in chain.edges.iter().flatten() {
        l = l.lcm(e.prob.denom());
    }
    let edge_w: Vec<Vec<BigUint>> = chain
        .edges
        .iter()
        .map(|es| {
            es.iter()
                .map(|e| e.prob.numer() * (&l / e.prob.denom()))
                .collect()
        })
        .collect();
    let x_weight: Vec<BigUint> = (0..n)
        .map(|s| {
            chain.edges[s]
                .iter()
                .zip(&edge_w[s])
                .filter(|(e, _)| e.is_x)
                .fold(BigUint::zero(), |a, (_, x)| a + x)
        })
        .collect();
    let mut frequency = BigUint::zero(); // over d·l
    let mut double = BigUint::zero(); // over d·l²
    let mut from_history = BigUint::zero(); // over d·l
    let mut after_x = vec![BigUint::zero(); n]; // over d·l
    for s in 0..n {
        if w[s].is_zero() {
            continue;
        }
        for (e, ew) in chain.edges[s].iter().zip(&edge_w[s]) {
            let m = &w[s] * ew;
            if e.from_history {
                from_history += &m;
            }
            if e.is_x {
                double += &m * &x_weight[e.to];
                frequency += &m;
                after_x[e.to] += m;
            }
        }
    }
    let dl = &d * &l;
    let gap = if frequency.is_zero() {
        GapLaw {
            max_gap: Some(0),
            distribution: Vec::new(),
            tail: Ratio::zero(),
        }
    } else {
        // v0 = after_x / frequency: numerators over the common denominator `frequency`.
        let start = Start {
            num: after_x,
            den: frequency.clone(),
        };
        gap_law(&chain, start, &l, &edge_w, &x_weight, &opts.tail, budget)?
    };
    Ok(PieceResult {
        frequency: Ratio::new(frequency, dl.clone()),
        double: Ratio::new(double, &dl * &l),
        from_history: Ratio::new(from_history, dl),
        gap,
        states: n,
    })
}

/// A law over states as integer numerators over one denominator.
struct Start {
    num: Vec<BigUint>,
    den: BigUint,
}

/// First-passage iteration from the law of the state right after an X, with integer
/// numerators over one common denominator per step (edge weights `edge_w` over `l`).
fn gap_law(
    chain: &Chain,
    start: Start,
    l: &BigUint,
    edge_w: &[Vec<BigUint>],
    x_weight: &[BigUint],
    tail_limit: &Ratio,
    budget: &mut Budget,
) -> Result<GapLaw, ExactError> {
    let n = chain.keys.len();
    let support: Vec<usize> = (0..n).filter(|&s| !start.num[s].is_zero()).collect();
    let unbounded = has_cycle(chain, &support, |e| !e.is_x);
    let moves: Vec<Vec<(usize, &BigUint)>> = (0..n)
        .map(|s| {
            chain.edges[s]
                .iter()
                .zip(&edge_w[s])
                .filter(|(e, _)| !e.is_x)
                .map(|(e, w)| (e.to, w))
                .collect()
        })
        .collect();
    let Start { mut num, mut den } = start;
    let mut distribution = Vec::new();
    let l_limbs = l.bits() / 64 + 1;
    let edge_count = moves.iter().map(Vec::len).sum::<usize>() as u64 + n as u64;
    loop {
        let g = distribution.len() as u64;
        let hit = num
            .iter()
            .zip(x_weight)
            .fold(BigUint::zero(), |a, (v, w)| a + v * w);
        let step_den = &den * l;
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
            });
        }
        if unbounded
            && (&left * tail_limit.denom() <= tail_limit.numer() * &den || g >= MAX_LISTED_GAP)
        {
            return Ok(GapLaw {
                max_gap: None,
                distribution,
                tail: Ratio::new(left, den),
            });
        }
        let den_limbs = den.bits() / 64 + 1;
        // Multiplications of the step, plus the quadratic gcd that reduces the listed fraction.
        budget.work += edge_count * den_limbs * l_limbs + 4 * den_limbs * den_limbs;
        budget.stored += den_limbs;
        if budget.work > GAP_WORK_BUDGET || budget.stored > GAP_STORE_BUDGET {
            return Err(ExactError::TooLarge {
                what: "the gap distribution".to_string(),
            });
        }
    }
}

impl ExactStats {
    /// The `--exact --json` document of spec §7, keys in `pieces` order, one line.
    pub fn to_json(&self) -> String {
        let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"?\"".into());
        let map = |f: &dyn Fn(usize) -> String| -> String {
            let items: Vec<String> = self
                .pieces
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{}: {}", q(p), f(i)))
                .collect();
            format!("{{{}}}", items.join(", "))
        };
        let frac = |r: &Ratio| q(&r.to_string());
        let pieces: Vec<String> = self.pieces.iter().map(|p| q(p)).collect();
        let dist = |i: usize| {
            let items: Vec<String> = self.gaps[i]
                .distribution
                .iter()
                .enumerate()
                .map(|(g, p)| format!("{{\"gap\":{g},\"probability\":{}}}", frac(p)))
                .collect();
            format!("[{}]", items.join(","))
        };
        format!(
            "{{\"spec\": {}, \"pieces\": [{}], \"frequency\": {}, \"repeat_probability\": {}, \
             \"from_history_probability\": {}, \"max_gap\": {}, \"tail_limit\": {}, \
             \"gap_tail\": {}, \"gap_distribution\": {}}}",
            q(&self.spec),
            pieces.join(","),
            map(&|i| frac(&self.frequency[i])),
            frac(&self.repeat_probability),
            self.from_history_probability
                .as_ref()
                .map_or("null".to_string(), frac),
            map(&|i| self.gaps[i]
                .max_gap
                .map_or("null".to_string(), |g| g.to_string())),
            frac(&self.tail_limit),
            map(&|i| frac(&self.gaps[i].tail)),
            map(&dist),
        )
    }
}
