//! Exact long-run statistics (spec §8) as fractions, from the lumped chain of each piece.

// Matrix and state-vector code reads best with explicit indices.
#![allow(clippy::needless_range_loop)]

use crate::chain::{self, Chain, ChainError, Key, Model, components, stationary};
pub use crate::gaps::DEFAULT_MAX_WORK;
use crate::gaps::{Budget, Start, Weighted, gap_law, gap_second_moment};
use crate::presets::{Builtin, TETROMINOES, preset_spec};
use crate::spec::{Core, Spec};
use alea_prob::Ratio;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::HashMap;
use std::fmt;

/// Largest gap the distribution lists for unbounded gap laws (spec §7).
pub const MAX_LISTED_GAP: u64 = 100_000;

/// Options of [`exact`].
#[derive(Clone, Debug)]
pub struct ExactOptions {
    /// Tail mass that cuts unbounded gap laws (default 1/1000000).
    pub tail: Ratio,
    /// State limit per piece's lumped chain (default 100000).
    pub max_states: usize,
    /// Largest recurrent class solved by exact elimination (default 1000): the work grows
    /// with its cube.
    pub max_solve: usize,
    /// How many gaps each [`GapLaw`] lists: `None` (default) to the tail limit (spec §7);
    /// `Some(k)` only P(gap = 0 … k−1), with P(gap ≥ k) as the exact tail. Listing is the
    /// costly part when the probabilities have thousands of digits (many rolls), and the text
    /// report needs none of it.
    pub list_gaps: Option<u64>,
    /// Whether to solve for E[gap²] (default true; only the variance columns need it).
    pub second_moment: bool,
    /// Work limit of listing one chain's gap law, in 64-bit limb multiplications (default
    /// [`DEFAULT_MAX_WORK`], about a second); a larger list is refused before it starts,
    /// naming the work it needs.
    pub max_work: u64,
}

impl Default for ExactOptions {
    fn default() -> Self {
        ExactOptions {
            tail: Ratio::from_u64(1, 1_000_000),
            max_states: 100_000,
            max_solve: 1000,
            list_gaps: None,
            second_moment: true,
            max_work: DEFAULT_MAX_WORK,
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
    /// E[gap²], exact whatever the tail (`None` when the chain is too large to solve for it).
    pub second_moment: Option<Ratio>,
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

/// Why exact analysis is impossible (exit status 3 in the CLI). Each message names the size
/// the job needs and the option that allows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExactError {
    /// X01: the chain has more states than allowed.
    TooManyStates {
        /// The limit that was exceeded.
        limit: usize,
        /// The states the chain may need (an upper bound known before building), if known.
        needed: Option<u128>,
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
        /// What to change instead.
        hint: String,
    },
    /// X04: a recurrent class too large for exact elimination.
    ClassTooLarge {
        /// Its number of states.
        size: usize,
        /// The limit (`max_solve`).
        limit: usize,
    },
    /// X05: a table asked for a piece the randomizer does not deal (a usage error).
    UnknownPiece {
        /// The name asked for.
        piece: String,
        /// The randomizer's pieces.
        pieces: Vec<String>,
    },
}

impl ExactError {
    /// `X01` … `X04`.
    pub fn code(&self) -> &'static str {
        match self {
            ExactError::TooManyStates { .. } => "X01",
            ExactError::NoFiniteChain { .. } => "X02",
            ExactError::TooLarge { .. } => "X03",
            ExactError::ClassTooLarge { .. } => "X04",
            ExactError::UnknownPiece { .. } => "X05",
        }
    }

    /// The error as JSON: `{"code": …, "message": …}`.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"code\": \"{}\", \"message\": {}}}",
            self.code(),
            serde_json::to_string(&self.to_string()).unwrap_or_else(|_| "\"?\"".into())
        )
    }
}

impl fmt::Display for ExactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExactError::TooManyStates {
                limit,
                needed: Some(n),
            } => write!(
                f,
                "state space exceeds {limit} states (it may need {n}); \
                 raise --max-states to {n} or use --stats"
            ),
            ExactError::TooManyStates {
                limit,
                needed: None,
            } => write!(
                f,
                "state space exceeds {limit} states; raise --max-states or use --stats"
            ),
            ExactError::NoFiniteChain { preset } => {
                write!(
                    f,
                    "preset '{preset}' has no finite state machine; use --stats"
                )
            }
            ExactError::TooLarge { what, hint } => {
                write!(f, "{what} is too large for exact analysis; {hint}")
            }
            ExactError::ClassTooLarge { size, limit } => write!(
                f,
                "a recurrent class of {size} states exceeds the exact solve limit {limit}; \
                 raise --max-solve to {size} or use --stats"
            ),
            ExactError::UnknownPiece { piece, pieces } => {
                write!(f, "no such piece '{piece}' (pieces: {})", pieces.join(","))
            }
        }
    }
}

impl std::error::Error for ExactError {}

pub(crate) fn chain_error(e: ChainError) -> ExactError {
    match e {
        ChainError::TooManyStates { needed, limit } => ExactError::TooManyStates { limit, needed },
        ChainError::ClassTooLarge { size, limit } => ExactError::ClassTooLarge { size, limit },
        ChainError::NumbersTooLarge => ExactError::TooLarge {
            what: "the roll count".to_string(),
            hint: "use --stats".to_string(),
        },
        ChainError::Singular => ExactError::TooLarge {
            what: "a singular system (a defect; please report the spec)".to_string(),
            hint: "use --stats".to_string(),
        },
    }
}

/// Exact statistics of `spec` (spec §8), on the symmetry-reduced chain: pieces with the same
/// role share one computation, and a history rule's stationary law comes from the chain of
/// history patterns without names when every card plays the same role in it.
pub fn exact(spec: &Spec, opts: &ExactOptions) -> Result<ExactStats, ExactError> {
    exact_with(spec, opts, true)
}

/// Exact statistics on the unreduced chain: one chain per piece over the dealer's own
/// card-level states. Only for testing the reduced chain on small specs.
#[doc(hidden)]
pub fn exact_unreduced(spec: &Spec, opts: &ExactOptions) -> Result<ExactStats, ExactError> {
    exact_with(spec, opts, false)
}

/// What decides a piece's results: pieces with equal roles have equal results.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) enum Role {
    /// Its multiplicity, and how often `first` names it (lists, bags, symmetric histories).
    Counts(u64, u64),
    /// The cyclic spacing of its cards (sequences).
    Spacing(Vec<u64>),
    /// The piece itself (no reduction).
    Own(u16),
}

/// A history rule whose long-run law is the same for every relabelling of the cards: with
/// rolls every card can be dealt from every state, and without rolls at least two cards are
/// always free; either way the card-level chain has one recurrent class, so its stationary
/// law is invariant under relabelling and the start does not matter.
pub(crate) fn symmetric_history(spec: &Spec) -> bool {
    match spec.core {
        Core::History { rolls: Some(_), .. } => true,
        Core::History {
            len, rolls: None, ..
        } => spec.cards.len() >= len as usize + 2,
        _ => false,
    }
}

pub(crate) fn role(spec: &Spec, x: u16, reduce: bool) -> Role {
    if !reduce {
        return Role::Own(x);
    }
    let m = spec.cards.iter().filter(|&&c| c == x).count() as u64;
    let named_first = spec
        .first
        .as_ref()
        .map_or(0, |f| f.iter().filter(|&&c| c == x).count() as u64);
    match spec.core {
        Core::List => Role::Counts(m, 0),
        Core::Bag { .. } => Role::Counts(m, named_first),
        Core::History { .. } if symmetric_history(spec) => Role::Counts(m, 0),
        Core::History { .. } => Role::Own(x),
        Core::Sequence => {
            let at: Vec<u64> = (0..spec.cards.len() as u64)
                .filter(|&c| spec.cards[c as usize] == x)
                .collect();
            let n = spec.cards.len() as u64;
            let gaps: Vec<u64> = (0..at.len())
                .map(|i| (at[(i + 1) % at.len()] + n - at[i]) % n)
                .collect();
            let best = (0..gaps.len())
                .map(|r| {
                    let mut g = gaps.clone();
                    g.rotate_left(r);
                    g
                })
                .min()
                .unwrap_or_default();
            Role::Spacing(best)
        }
    }
}

fn exact_with(spec: &Spec, opts: &ExactOptions, reduce: bool) -> Result<ExactStats, ExactError> {
    let mut done: HashMap<Role, PieceResult> = HashMap::new();
    let mut per_piece = Vec::with_capacity(spec.pieces.len());
    let mut cache = StationaryCache::new();
    let mut budget = Budget::default();
    let mut shared: Option<HashMap<Key, Ratio>> = None;
    if reduce {
        // Refuse at once, naming the largest chain, so that raising the limit to it works.
        let mut seen = std::collections::HashSet::new();
        let mut needed = Model::uncoloured(spec).map_or(0, |m| m.state_bound());
        for x in 0..spec.pieces.len() as u16 {
            if seen.insert(role(spec, x, true)) {
                needed = needed.max(Model::for_spec(spec, x).state_bound());
            }
        }
        if needed != u128::MAX && needed > opts.max_states as u128 {
            return Err(ExactError::TooManyStates {
                limit: opts.max_states,
                needed: Some(needed),
            });
        }
    }
    for x in 0..spec.pieces.len() as u16 {
        let r = role(spec, x, reduce);
        if let Some(found) = done.get(&r) {
            per_piece.push(found.clone());
            continue;
        }
        let model = if reduce {
            Model::for_spec(spec, x)
        } else {
            Model::Concrete { spec, x }
        };
        let weights = if reduce && symmetric_history(spec) {
            if shared.is_none() {
                shared = Some(uncoloured_long_run(spec, opts, &mut cache)?);
            }
            shared.as_ref().map(|u| Weights::Labelled(u, spec, x))
        } else {
            None
        };
        let result = analyse(&model, opts, &mut cache, &mut budget, weights)?;
        done.insert(r, result.clone());
        per_piece.push(result);
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

/// The long-run law of the history patterns without names.
pub(crate) fn uncoloured_long_run(
    spec: &Spec,
    opts: &ExactOptions,
    cache: &mut StationaryCache,
) -> Result<HashMap<Key, Ratio>, ExactError> {
    let Some(model) = Model::uncoloured(spec) else {
        return Ok(HashMap::new());
    };
    let chain = chain::build(&model, opts.max_states).map_err(chain_error)?;
    let weight = long_run(&chain, cache, opts.max_solve).map_err(chain_error)?;
    Ok(chain
        .keys
        .into_iter()
        .zip(weight)
        .filter(|(_, w)| !w.is_zero())
        .collect())
}

/// How [`analyse`] gets the long-run weight of each state.
enum Weights<'a> {
    /// From the uncoloured pattern law: given a pattern with `b` marked slots, the `b`
    /// distinct cards behind them are a uniformly random arrangement of the list's cards.
    Labelled(&'a HashMap<Key, Ratio>, &'a Spec, u16),
}

/// m·(m−1)·…·(m−j+1).
pub(crate) fn falling(m: u64, j: u64) -> BigUint {
    (0..j).fold(BigUint::one(), |a, i| {
        a * BigUint::from(m.saturating_sub(i))
    })
}

fn labelled_weights(chain: &Chain, law: &HashMap<Key, Ratio>, spec: &Spec, x: u16) -> Vec<Ratio> {
    let n = spec.cards.len() as u64;
    let m = spec.cards.iter().filter(|&&c| c == x).count() as u64;
    chain
        .keys
        .iter()
        .map(|key| {
            let plain: Key = key.iter().map(|&t| if t == 0 { 0 } else { 2 }).collect();
            let Some(p) = law.get(&plain) else {
                return Ratio::zero();
            };
            let b = key.iter().filter(|&&t| t != 0).count() as u64;
            let j = key.iter().filter(|&&t| t == 1).count() as u64;
            let ways = falling(m, j) * falling(n - m, b - j);
            p * &Ratio::new(ways, falling(n, b))
        })
        .collect()
}

/// Exact statistics of a preset by name. Unknown names are `None`.
pub fn exact_preset(name: &str, opts: &ExactOptions) -> Option<Result<ExactStats, ExactError>> {
    if let Some(text) = preset_spec(name) {
        let spec = Spec::parse(text).ok()?;
        return Some(exact(&spec, opts));
    }
    let b = Builtin::new(name)?;
    let Some(model) = Model::for_builtin(&b, 0) else {
        return Some(Err(ExactError::NoFiniteChain {
            preset: name.to_string(),
        }));
    };
    let mut cache = StationaryCache::new();
    let mut budget = Budget::default();
    let per_piece = if model.symmetric() {
        // Every tetromino has the same role in this rule, so one chain serves all.
        let one = match analyse(&model, opts, &mut cache, &mut budget, None) {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        vec![one; TETROMINOES.len()]
    } else {
        let mut v = Vec::with_capacity(TETROMINOES.len());
        for x in 0..TETROMINOES.len() as u8 {
            let model = Model::for_builtin(&b, x)?;
            match analyse(&model, opts, &mut cache, &mut budget, None) {
                Ok(r) => v.push(r),
                Err(e) => return Some(Err(e)),
            }
        }
        v
    };
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
pub(crate) type StationaryCache = HashMap<ClassSignature, HashMap<Key, Ratio>>;

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
pub(crate) fn long_run(
    chain: &Chain,
    cache: &mut StationaryCache,
    max_solve: usize,
) -> Result<Vec<Ratio>, ChainError> {
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
    // The largest class over the solve limit: the walk goes on so that the error names the
    // limit that lets the whole analysis through.
    let mut too_large: Option<ChainError> = None;
    let mut note = |e: ChainError| match (&e, &too_large) {
        (
            ChainError::ClassTooLarge { size, .. },
            Some(ChainError::ClassTooLarge { size: s, .. }),
        ) if s >= size => {}
        (ChainError::ClassTooLarge { .. }, _) => too_large = Some(e),
        _ => {}
    };
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
                let pi = match stationary(chain, states, max_solve) {
                    Err(e @ ChainError::ClassTooLarge { .. }) => {
                        note(e);
                        continue;
                    }
                    r => r?,
                };
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
            match chain::transient_visits(chain, states, &b, max_solve) {
                Err(e @ ChainError::ClassTooLarge { .. }) => {
                    note(e);
                    continue;
                }
                r => r?,
            }
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
    match too_large {
        Some(e) => Err(e),
        None => Ok(weight),
    }
}

fn analyse(
    model: &Model<'_>,
    opts: &ExactOptions,
    cache: &mut StationaryCache,
    budget: &mut Budget,
    weights: Option<Weights<'_>>,
) -> Result<PieceResult, ExactError> {
    let chain = chain::build(model, opts.max_states).map_err(chain_error)?;
    let labelled =
        weights.map(|Weights::Labelled(law, spec, x)| labelled_weights(&chain, law, spec, x));
    let weight = match labelled {
        // The labelled law covers every recurrent state exactly when it sums to one.
        Some(w) if chain::sum(w.iter()) == Ratio::one() => w,
        _ => long_run(&chain, cache, opts.max_solve).map_err(chain_error)?,
    };
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
            second_moment: None,
        }
    } else {
        // v0 = after_x / frequency: numerators over the common denominator `frequency`.
        let start = Start {
            num: after_x,
            den: frequency.clone(),
        };
        let weighted = Weighted {
            chain: &chain,
            l: &l,
            edge_w: &edge_w,
            x_weight: &x_weight,
        };
        let mut law = gap_law(
            &weighted,
            start,
            &opts.tail,
            opts.list_gaps,
            opts.max_work,
            budget,
        )?;
        if opts.second_moment {
            law.second_moment = gap_second_moment(&weighted, &w, &d, &frequency, opts.max_solve);
        }
        law
    };
    Ok(PieceResult {
        frequency: Ratio::new(frequency, dl.clone()),
        double: Ratio::new(double, &dl * &l),
        from_history: Ratio::new(from_history, dl),
        gap,
        states: n,
    })
}

impl ExactStats {
    /// Mean gap of piece `i`, exact with the cut-off tail included: Kac's formula, the mean
    /// return time 1/frequency minus the return itself (0 for a piece never dealt).
    pub fn mean_gap(&self, i: usize) -> Ratio {
        let f = &self.frequency[i];
        if f.is_zero() {
            return Ratio::zero();
        }
        &(&Ratio::one() / f) - &Ratio::one()
    }

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
        let frac = |r: &Ratio| q(&r.to_plain_string());
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
