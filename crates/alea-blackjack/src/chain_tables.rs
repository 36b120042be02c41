//! Exact drought, flood (run) and game-length tables from each piece's lumped chain.
//!
//! Every table here only asks "was the deal an X?" along the way, which the lumped chain of
//! piece X answers exactly (see `chain.rs`), so they are exact fractions for every chain that
//! fits `--max-states`: P(gap ≥ k) for any k (not only the listed gaps), the law of X's runs
//! (floods: X dealt several times in a row), and the odds that X waits k deals or more somewhere
//! within the first N deals of a game. Tables that follow several pieces at once (bagginess,
//! S/Z runs, "some piece" game odds) stay Monte Carlo ([`crate::stream_tables`]).

use crate::analysis::Source;
use crate::chain::{self, Chain, Key, Model};
use crate::exact::{ExactError, ExactOptions, Role, StationaryCache, chain_error, long_run, role};
use crate::presets::{Builtin, TETROMINOES};
use crate::randomizer::Dealer;
use crate::spec::Core;
use alea_prob::Ratio;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::HashMap;

/// Largest k or N the tables iterate to: the work is k (or N·k) steps over the chain's edges,
/// with fractions whose size grows with the step.
pub const MAX_TABLE_STEPS: u64 = 100_000;

/// What [`exact_tables`] lists.
#[derive(Clone, Debug)]
pub struct ExactTableOptions {
    /// Chain limits.
    pub exact: ExactOptions,
    /// Drought table: P(gap ≥ k) for k = 0..=`drought_to`.
    pub drought_to: u64,
    /// Flood table: P(run ≥ l) for l = 1..=`runs_to`.
    pub runs_to: u64,
    /// Game length N of the game-drought odds.
    pub game_length: u64,
    /// Drought length k of the game-drought odds.
    pub game_drought: u64,
    /// Only this piece (by name); `None` = every piece.
    pub piece: Option<String>,
    /// The set whose runs are listed (S/Z floods), by name.
    pub set: Vec<String>,
    /// Window of the bagginess (0 = the number of pieces).
    pub window: usize,
    /// Whether to compute the tables that follow every piece at once (bagginess, "some
    /// piece" game odds); the drought-only entry points skip them.
    pub joint: bool,
}

impl Default for ExactTableOptions {
    fn default() -> Self {
        ExactTableOptions {
            exact: ExactOptions::default(),
            drought_to: 24,
            runs_to: 6,
            game_length: 100,
            game_drought: 12,
            piece: None,
            set: vec!["S".into(), "Z".into()],
            window: 0,
            joint: true,
        }
    }
}

impl ExactTableOptions {
    /// The same options asking only for the flood table (no drought or game iteration), for
    /// chains that only feed a run law.
    fn runs_only(&self) -> ExactTableOptions {
        ExactTableOptions {
            drought_to: 0,
            game_length: 0,
            game_drought: 1,
            joint: false,
            ..self.clone()
        }
    }
}

/// The exact tables of one piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceTables {
    /// Its name.
    pub piece: String,
    /// `drought[k]` = P(gap ≥ k) in the long run (the deals strictly between an X and the next
    /// X), k = 0..=`drought_to`; empty when X is not dealt in the long run.
    pub drought: Vec<Ratio>,
    /// `runs[l - 1]` = P(a run of X has length ≥ l), l = 1..=`runs_to`: the flood table.
    /// Empty when X never starts a run in the long run.
    pub runs: Vec<Ratio>,
    /// Long-run probability that a deal starts a run of X (an X after a non-X).
    pub run_start: Ratio,
    /// P(X is missing from some `game_drought` consecutive deals within the first
    /// `game_length` deals, the wait from the start included), from the real start.
    pub game_drought: Ratio,
}

/// The exact tables of a randomizer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactTables {
    /// The canonical spec or preset name.
    pub label: String,
    /// The options' game length and drought.
    pub game_length: u64,
    /// Drought length of the game odds.
    pub game_drought: u64,
    /// Per piece, in `pieces()` order (or the one asked for).
    pub pieces: Vec<PieceTables>,
    /// P(run ≥ l) over all same-piece runs (the pieces' run laws weighted by how often each
    /// starts a run), l = 1..=`runs_to`.
    pub runs: Vec<Ratio>,
    /// The set of [`ExactTableOptions::set`] found among the pieces.
    pub set: Vec<String>,
    /// P(run ≥ l) of maximal blocks of deals inside the set, l = 1..=`runs_to`; `None` when
    /// not exact here (`tgm3`; a chain over the limits), where only the counted table exists.
    pub set_runs: Option<Vec<Ratio>>,
    /// P(some piece waits `game_drought` deals or more within the first `game_length`), from
    /// the joint chain of all pieces; `None` when not exact here (built-in presets, a chain
    /// over `max_states`).
    pub some_piece_game_drought: Option<Ratio>,
    /// The long-run share of aligned windows of `window` deals whose pieces are all distinct
    /// (1 for a bag of distinct pieces); `None` when not exact here (built-in presets, a
    /// history whose long run depends on its start, a chain over `max_states`).
    pub bagginess: Option<Ratio>,
    /// The bagginess window used.
    pub window: usize,
}

/// One piece's chain, its long-run weights and its concrete start.
struct PieceChain {
    chain: Chain,
    weight: Vec<Ratio>,
    /// Before the first deal: (probability, deals already made, consecutive non-X deals so
    /// far, state). `first F` makes one deal before the chain starts.
    start: Vec<(Ratio, u64, u64, usize)>,
}

fn steps_error(what: &str, k: u64) -> ExactError {
    ExactError::TooLarge {
        what: format!("the {what} ({k} steps; at most {MAX_TABLE_STEPS})"),
        hint: "ask for a smaller k or N, or use --stats".into(),
    }
}

fn piece_chain(
    model: &Model<'_>,
    first: Option<(&crate::Spec, u16)>,
    opts: &ExactOptions,
    cache: &mut StationaryCache,
) -> Result<PieceChain, ExactError> {
    let chain = chain::build(model, opts.max_states).map_err(chain_error)?;
    let weight = long_run(&chain, cache, opts.max_solve).map_err(chain_error)?;
    let start = match first {
        Some((spec, x)) if spec.first.is_some() => {
            // The chain starts after the first deal; redo that deal to know whether it was X.
            let index: HashMap<&Key, usize> =
                chain.keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
            let f = spec.first.as_ref().expect("checked");
            let p = Ratio::from_u64(1, f.len() as u64);
            let mut out = Vec::new();
            for &name in f {
                let mut d = Dealer::initial(spec);
                d.deal_first(spec, name);
                let s = index[&model.key_of(&d)];
                out.push((p.clone(), 1, u64::from(name != x), s));
            }
            out
        }
        _ => chain
            .start
            .iter()
            .map(|(s, p)| (p.clone(), 0, 0, *s))
            .collect(),
    };
    Ok(PieceChain {
        chain,
        weight,
        start,
    })
}

/// The chain's edges as integer weights over one common denominator `l`, so that a law after t
/// deals is integer numerators over (its start denominator)·l^t: no gcd per addition, one
/// reduction per listed value.
struct Weighted {
    l: BigUint,
    edges: Vec<Vec<(usize, bool, BigUint)>>,
}

impl Weighted {
    fn new(chain: &Chain) -> Weighted {
        let mut l = BigUint::one();
        for e in chain.edges.iter().flatten() {
            l = l.lcm(e.prob.denom());
        }
        let edges = chain
            .edges
            .iter()
            .map(|es| {
                es.iter()
                    .map(|e| (e.to, e.is_x, e.prob.numer() * (&l / e.prob.denom())))
                    .collect()
            })
            .collect();
        Weighted { l, edges }
    }
}

/// A law over states: numerators over one denominator.
#[derive(Clone)]
struct Law {
    num: Vec<BigUint>,
    den: BigUint,
}

impl Law {
    fn from_ratios(v: &[Ratio]) -> Law {
        let mut den = BigUint::one();
        for r in v.iter().filter(|r| !r.is_zero()) {
            den = den.lcm(r.denom());
        }
        let num = v.iter().map(|r| r.numer() * (&den / r.denom())).collect();
        Law { num, den }
    }

    fn mass(&self) -> BigUint {
        self.num.iter().sum()
    }

    fn total(&self) -> Ratio {
        Ratio::new(self.mass(), self.den.clone())
    }

    /// The same law conditioned on itself (divided by its total), `None` when it is empty.
    fn normalised(self) -> Option<Law> {
        let den = self.mass();
        (!den.is_zero()).then_some(Law { num: self.num, den })
    }

    /// One deal, keeping only the edges whose deal is (`keep` = true) or is not an X.
    fn step(&self, w: &Weighted, keep: bool) -> Law {
        let mut num = vec![BigUint::zero(); self.num.len()];
        for (s, m) in self.num.iter().enumerate() {
            if m.is_zero() {
                continue;
            }
            for (to, is_x, ew) in &w.edges[s] {
                if *is_x == keep {
                    num[*to] += m * ew;
                }
            }
        }
        Law {
            num,
            den: &self.den * &w.l,
        }
    }
}

fn piece_tables(name: &str, pc: &PieceChain, opts: &ExactTableOptions) -> PieceTables {
    let w = Weighted::new(&pc.chain);
    let stationary = Law::from_ratios(&pc.weight);
    // The law right after an X, and the law at the start of a run of X (an X after a non-X).
    let after_x = stationary.step(&w, true);
    let run_start_law = stationary.step(&w, false).step(&w, true);
    let run_start = run_start_law.total();
    let drought = match after_x.normalised() {
        Some(mut v) => {
            let mut out = vec![Ratio::one()];
            for _ in 0..opts.drought_to {
                v = v.step(&w, false);
                out.push(v.total());
            }
            out
        }
        None => Vec::new(),
    };
    let runs = match run_start_law.normalised() {
        Some(mut v) => {
            let mut out = Vec::new();
            for l in 1..=opts.runs_to {
                if l > 1 {
                    v = v.step(&w, true);
                }
                out.push(v.total());
            }
            out
        }
        None => Vec::new(),
    };
    PieceTables {
        piece: name.to_string(),
        drought,
        runs,
        run_start,
        game_drought: game_drought(pc, &w, opts.game_length, opts.game_drought),
    }
}

/// P(X misses some `k` consecutive deals among the first `n`): the law over (state,
/// consecutive non-X deals so far, below k), numerators over one denominator per deal; the
/// mass that reaches k is done.
fn game_drought(pc: &PieceChain, w: &Weighted, n: u64, k: u64) -> Ratio {
    let mut hit = Ratio::zero();
    let size = pc.chain.keys.len();
    let slot = |s: usize, wait: u64| s * k as usize + wait as usize;
    let mut made = 0;
    let mut start = vec![Ratio::zero(); size * k as usize];
    for (p, deals, wait, s) in &pc.start {
        made = *deals;
        if *wait >= k {
            hit = &hit + p;
        } else {
            let i = slot(*s, *wait);
            start[i] = &start[i] + p;
        }
    }
    let mut law = Law::from_ratios(&start);
    for _ in made..n {
        let mut num = vec![BigUint::zero(); law.num.len()];
        let mut done = BigUint::zero();
        for (i, m) in law.num.iter().enumerate() {
            if m.is_zero() {
                continue;
            }
            let (s, wait) = (i / k as usize, (i % k as usize) as u64);
            for (to, is_x, ew) in &w.edges[s] {
                let next = if *is_x { 0 } else { wait + 1 };
                if next >= k {
                    done += m * ew;
                } else {
                    num[slot(*to, next)] += m * ew;
                }
            }
        }
        law = Law {
            num,
            den: &law.den * &w.l,
        };
        if !done.is_zero() {
            hit = &hit + &Ratio::new(done, law.den.clone());
        }
    }
    hit
}

/// What decides a piece's tables: pieces with equal keys have equal chains, long-run weights
/// and (when `needs_start`) starts, so one chain serves them all. Lists and bags start from
/// full counts, so their start only depends on how often `first` names the piece; a sequence's
/// or a history's start places the piece's cards, so there each piece keeps its own chain when
/// the start matters (game odds) and shares by [`crate::exact::role`] otherwise.
fn table_role(source: &Source, x: usize, needs_start: bool) -> Role {
    match source {
        Source::Spec(spec) => match spec.core {
            Core::List | Core::Bag { .. } => {
                let m = spec.cards.iter().filter(|&&c| c == x as u16).count() as u64;
                let named = spec
                    .first
                    .as_ref()
                    .map_or(0, |f| f.iter().filter(|&&c| c == x as u16).count() as u64);
                Role::Counts(m, named)
            }
            _ if needs_start => Role::Own(x as u16),
            _ => role(spec, x as u16, true),
        },
        Source::Builtin(name) => {
            let symmetric = Builtin::new(name)
                .and_then(|b| Model::for_builtin(&b, 0))
                .is_some_and(|m| m.symmetric());
            if symmetric {
                Role::Counts(0, 0)
            } else {
                Role::Own(x as u16)
            }
        }
    }
}

/// The piece names of `source`, and the index of `piece` among them (an unknown name is
/// [`ExactError::UnknownPiece`]).
fn names_and_piece(
    source: &Source,
    piece: Option<&str>,
) -> Result<(Vec<String>, Option<usize>), ExactError> {
    let names: Vec<String> = match source {
        Source::Spec(s) => s.pieces().iter().map(|p| p.to_string()).collect(),
        Source::Builtin(_) => TETROMINOES.iter().map(|s| s.to_string()).collect(),
    };
    let index = match piece {
        None => None,
        Some(p) => {
            Some(
                names
                    .iter()
                    .position(|n| n == p)
                    .ok_or_else(|| ExactError::UnknownPiece {
                        piece: p.to_string(),
                        pieces: names.clone(),
                    })?,
            )
        }
    };
    Ok((names, index))
}

/// The chain of piece `i` of `source`.
fn source_chain(
    source: &Source,
    i: usize,
    opts: &ExactOptions,
    cache: &mut StationaryCache,
) -> Result<PieceChain, ExactError> {
    match source {
        Source::Spec(spec) => piece_chain(
            &Model::for_spec(spec, i as u16),
            Some((spec, i as u16)),
            opts,
            cache,
        ),
        Source::Builtin(name) => {
            let b = Builtin::new(name).expect("built-in preset exists");
            let Some(model) = Model::for_builtin(&b, i as u8) else {
                return Err(ExactError::NoFiniteChain {
                    preset: name.to_string(),
                });
            };
            piece_chain(&model, None, opts, cache)
        }
    }
}

/// The exact drought, flood and game tables of `source`: errors as [`crate::exact`] when a
/// chain exceeds the limits, [`ExactError::NoFiniteChain`] for `tgm3`, and
/// [`ExactError::TooLarge`] for k or N above [`MAX_TABLE_STEPS`].
pub fn exact_tables(source: &Source, opts: &ExactTableOptions) -> Result<ExactTables, ExactError> {
    for (what, k) in [
        ("drought table", opts.drought_to),
        ("flood table", opts.runs_to),
        ("game length", opts.game_length),
    ] {
        if k > MAX_TABLE_STEPS {
            return Err(steps_error(what, k));
        }
    }
    let mut cache = StationaryCache::new();
    let (names, only) = names_and_piece(source, opts.piece.as_deref())?;
    let wanted = |i: usize| only.is_none_or(|j| j == i);
    let mut pieces = Vec::new();
    // Runs of every piece, for the mixed same-piece run law.
    let mut all_runs: Vec<(Ratio, Vec<Ratio>)> = Vec::new();
    // Pieces not asked for only contribute their runs to the mixed run law.
    let runs_only = opts.runs_only();
    let needs_start = opts.game_length > 0;
    let mut done: HashMap<(Role, bool), PieceTables> = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        if !wanted(i) && opts.runs_to == 0 {
            continue;
        }
        let key = (table_role(source, i, needs_start), wanted(i));
        let t = match done.get(&key) {
            Some(t) => PieceTables {
                piece: name.clone(),
                ..t.clone()
            },
            None => {
                let pc = source_chain(source, i, &opts.exact, &mut cache)?;
                let t = piece_tables(name, &pc, if wanted(i) { opts } else { &runs_only });
                done.insert(key, t.clone());
                t
            }
        };
        all_runs.push((t.run_start.clone(), t.runs.clone()));
        if wanted(i) {
            pieces.push(t);
        }
    }
    let rate = chain::sum(all_runs.iter().map(|r| &r.0));
    let runs = (0..opts.runs_to as usize)
        .map(|l| {
            let mut acc = Ratio::zero();
            for (r, law) in &all_runs {
                if let Some(p) = law.get(l) {
                    acc = &acc + &(r * p);
                }
            }
            if rate.is_zero() { acc } else { &acc / &rate }
        })
        .collect();
    let set: Vec<String> = names
        .iter()
        .filter(|n| opts.set.contains(n))
        .cloned()
        .collect();
    let set_runs = match source {
        _ if set.is_empty() => None,
        Source::Spec(spec) => match set_run_law(spec, &set, opts)? {
            Some(v) => Some(v),
            None => rule_set_runs(source, &set, opts),
        },
        Source::Builtin(_) => rule_set_runs(source, &set, opts),
    };
    let (some_piece_game_drought, bagginess) = match crate::rule::Rule::of(source) {
        Ok(rule) if opts.joint => (
            crate::joint::some_piece_drought(
                &rule,
                opts.game_length,
                opts.game_drought,
                opts.exact.max_states,
            )
            .ok(),
            crate::joint::bagginess(&rule, opts.window, opts.exact.max_states).ok(),
        ),
        _ => (None, None),
    };
    let window = match (opts.window, source) {
        (0, Source::Spec(spec)) => spec.pieces().len(),
        (0, Source::Builtin(_)) => TETROMINOES.len(),
        (w, _) => w,
    };
    Ok(ExactTables {
        label: source.label(),
        game_length: opts.game_length,
        game_drought: opts.game_drought,
        pieces,
        runs,
        set,
        set_runs,
        some_piece_game_drought,
        bagginess,
        window,
    })
}

fn fractions_json(v: &[Ratio]) -> String {
    let items: Vec<String> = v
        .iter()
        .map(|r| format!("\"{}\"", r.to_plain_string()))
        .collect();
    format!("[{}]", items.join(","))
}

impl ExactTables {
    /// The tables as one JSON object, fractions as strings: `drought` per piece from k = 0,
    /// `runs` per piece, `all_runs` and `set_runs` (`null` when not exact) from l = 1, and the
    /// game odds per piece.
    pub fn to_json(&self) -> String {
        let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"?\"".into());
        let by_piece = |f: &dyn Fn(&PieceTables) -> String| {
            let items: Vec<String> = self
                .pieces
                .iter()
                .map(|p| format!("{}: {}", q(&p.piece), f(p)))
                .collect();
            format!("{{{}}}", items.join(", "))
        };
        let frac = |r: &Option<Ratio>| {
            r.as_ref()
                .map_or("null".into(), |r| format!("\"{}\"", r.to_plain_string()))
        };
        format!(
            "{{\"drought\": {}, \"runs\": {}, \"all_runs\": {}, \"set_runs\": {}, \"game\": \
             {{\"length\": {}, \"drought\": {}, \"probability\": {}, \"some_piece\": {}}}, \
             \"bagginess\": {}, \"window\": {}}}",
            by_piece(&|p| fractions_json(&p.drought)),
            by_piece(&|p| fractions_json(&p.runs)),
            fractions_json(&self.runs),
            self.set_runs
                .as_deref()
                .map_or("null".into(), fractions_json),
            self.game_length,
            self.game_drought,
            by_piece(&|p| format!("\"{}\"", p.game_drought.to_plain_string())),
            frac(&self.some_piece_game_drought),
            frac(&self.bagginess),
            self.window,
        )
    }
}

/// P(gap ≥ k) of each piece (or of `piece`), exact for every k: the first-passage iteration
/// runs to k itself rather than stopping at the listed gaps.
pub fn gap_at_least(
    source: &Source,
    k: u64,
    piece: Option<&str>,
    exact: &ExactOptions,
) -> Result<Vec<(String, Ratio)>, ExactError> {
    if k > MAX_TABLE_STEPS {
        return Err(steps_error("drought table", k));
    }
    let (names, only) = names_and_piece(source, piece)?;
    let mut cache = StationaryCache::new();
    let mut done: HashMap<Role, Ratio> = HashMap::new();
    let mut out = Vec::new();
    for (i, name) in names.iter().enumerate() {
        if only.is_some_and(|j| j != i) {
            continue;
        }
        let key = table_role(source, i, false);
        let p = match done.get(&key) {
            Some(p) => p.clone(),
            None => {
                let pc = source_chain(source, i, exact, &mut cache)?;
                let p = drought_at(&pc, k);
                done.insert(key, p.clone());
                p
            }
        };
        out.push((name.clone(), p));
    }
    Ok(out)
}

/// P(gap ≥ k) alone: the first-passage iteration to k with no fraction reduced on the way
/// (the drought table reduces one per k, which dominates for large k).
fn drought_at(pc: &PieceChain, k: u64) -> Ratio {
    let w = Weighted::new(&pc.chain);
    let Some(mut v) = Law::from_ratios(&pc.weight).step(&w, true).normalised() else {
        return Ratio::zero();
    };
    for _ in 0..k {
        v = v.step(&w, false);
    }
    v.total()
}

/// The run law of a set of pieces: the spec with the set's names merged into one, whose chain
/// is then that one piece's. Bag and list states only count cards, and a history holds cards,
/// not names, so merging names changes nothing but the name dealt — except where names pick
/// cards: `first F` in a sequence or a history, and `starting with`. A history with a single
/// recurrent class forgets its start, so those are dropped; elsewhere such a spec is `None`.
fn set_run_law(
    spec: &crate::Spec,
    set: &[String],
    opts: &ExactTableOptions,
) -> Result<Option<Vec<Ratio>>, ExactError> {
    use crate::spec::Starting;
    let in_set: Vec<bool> = spec
        .pieces()
        .iter()
        .map(|p| set.iter().any(|s| **s == **p))
        .collect();
    let Some(x) = in_set.iter().position(|&b| b) else {
        return Ok(None);
    };
    let rename = |n: u16| if in_set[n as usize] { x as u16 } else { n };
    let names_set = |v: &[u16]| v.iter().any(|&n| in_set[n as usize]);
    let mut merged = spec.clone();
    merged.cards = spec.cards.iter().map(|&n| rename(n)).collect();
    let forgets_start = crate::exact::symmetric_history(spec);
    match &mut merged.core {
        Core::History { starting, .. } => {
            if forgets_start {
                *starting = Starting::Default;
                merged.first = None;
            } else if matches!(starting, Starting::With(v) if names_set(v))
                || spec.first.as_deref().is_some_and(names_set)
            {
                return Ok(None);
            }
        }
        Core::Sequence if spec.first.as_deref().is_some_and(names_set) => return Ok(None),
        _ => {}
    }
    if let Some(f) = &mut merged.first {
        f.iter_mut().for_each(|n| *n = rename(*n));
    }
    let mut cache = StationaryCache::new();
    let pc = piece_chain(
        &Model::for_spec(&merged, x as u16),
        None,
        &opts.exact,
        &mut cache,
    )?;
    Ok(Some(piece_tables("", &pc, &opts.runs_only()).runs))
}

/// The run law of a set of pieces on the dealer's own states ([`crate::rule::Rule`]), the
/// deal marked by whether its piece is in the set: for built-in presets, and for specs where
/// merging the set's names is not exact (`first`/`starting with` naming set pieces under a
/// rule that remembers its start). `None` when the dealer has no finite chain or it exceeds
/// the limits.
fn rule_set_runs(source: &Source, set: &[String], opts: &ExactTableOptions) -> Option<Vec<Ratio>> {
    let rule = crate::rule::Rule::of(source).ok()?;
    let in_set: Vec<bool> = rule.names().iter().map(|n| set.contains(n)).collect();
    let chain = rule
        .chain(&|p| in_set[p as usize], opts.exact.max_states)
        .ok()?;
    let mut cache = StationaryCache::new();
    let weight = long_run(&chain, &mut cache, opts.exact.max_solve).ok()?;
    let start = chain
        .start
        .iter()
        .map(|(s, p)| (p.clone(), 0, 0, *s))
        .collect();
    let pc = PieceChain {
        chain,
        weight,
        start,
    };
    Some(piece_tables("", &pc, &opts.runs_only()).runs)
}

/// P(gap ≥ k) of each piece (or of one), with how it was obtained.
#[derive(Clone, Debug, PartialEq)]
pub struct GapAtLeast {
    /// (piece, P(gap ≥ k)): exact fractions, or observed shares when simulated.
    pub rows: Vec<(String, crate::Prob)>,
    /// `Some((seed, deals))` when simulated.
    pub simulated: Option<(u64, u64)>,
    /// Why the exact answer was not used, when simulated.
    pub why: Option<ExactError>,
}

/// [`gap_at_least`] with the documented fallback: when no exact answer exists (`tgm3`, a
/// chain over the limits) and `fallback` is `Simulate`, P(gap ≥ k) is counted over simulated
/// deals instead; with `Fallback::None` the error is returned.
pub fn gap_at_least_or_simulate(
    source: &Source,
    k: u64,
    piece: Option<&str>,
    exact: &ExactOptions,
    fallback: &crate::Fallback,
) -> Result<GapAtLeast, ExactError> {
    let why = match gap_at_least(source, k, piece, exact) {
        Ok(rows) => {
            return Ok(GapAtLeast {
                rows: rows
                    .into_iter()
                    .map(|(n, r)| (n, crate::Prob::Exact(r)))
                    .collect(),
                simulated: None,
                why: None,
            });
        }
        Err(e) => e,
    };
    // A name the randomizer does not deal is the caller's mistake, not a reason to simulate.
    let crate::Fallback::Simulate { seed, deals } = *fallback else {
        return Err(why);
    };
    if matches!(why, ExactError::UnknownPiece { .. }) {
        return Err(why);
    }
    let a = crate::analyse(
        source,
        &crate::AnalysisOptions {
            simulate: Some((seed, deals)),
            ..Default::default()
        },
    )?;
    let rows = (0..a.pieces.len())
        .filter(|&i| piece.is_none_or(|p| p == a.pieces[i]))
        .filter_map(|i| Some((a.pieces[i].clone(), a.gap_at_least(i, k)?)))
        .collect();
    Ok(GapAtLeast {
        rows,
        simulated: Some((seed, deals)),
        why: Some(why),
    })
}
