//! The lumped Markov chain of one piece X.
//!
//! Bag and history rules choose uniformly among cards, so their transition law commutes with
//! every permutation of cards that maps X-cards to X-cards and other cards to other cards. States
//! that differ by such a permutation are merged ("strong lumping"), which is exact from any start
//! and for every event that only asks "was the deal an X?" or "did every roll hit the history?".
//! That turns the 2401 histories of TGM into 52 patterns and a 14-bag into at most 3×13 states.
//! The first deal of `first F` is applied to the concrete start, then lumped.

// Matrix and state-vector code reads best with explicit indices.
#![allow(clippy::needless_range_loop)]

pub(crate) use crate::concrete::{CardOutcome, concrete_dealer, concrete_key, concrete_outcomes};
use crate::presets::Builtin;
use crate::randomizer::Dealer;
use crate::rule::{Deal, Rule};
use crate::spec::{Core, Spec};
use alea_prob::Ratio;
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::HashMap;
use std::collections::VecDeque;

/// A lumped state.
pub(crate) type Key = Vec<u32>;

/// One outcome of a deal from a state.
#[derive(Clone, Debug)]
pub(crate) struct Edge {
    pub prob: Ratio,
    pub is_x: bool,
    pub from_history: bool,
    pub to: usize,
}

/// The explored chain: states in discovery order, their edges, and the start distribution.
pub(crate) struct Chain {
    pub keys: Vec<Key>,
    pub edges: Vec<Vec<Edge>>,
    pub start: Vec<(usize, Ratio)>,
}

/// Why a chain could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ChainError {
    /// The chain has (or may have, by the up-front bound) more states than the limit.
    TooManyStates { needed: Option<u128>, limit: usize },
    /// A class to solve exactly is larger than the solve limit.
    ClassTooLarge { size: usize, limit: usize },
    /// n^R for the roll count R would have too many digits.
    NumbersTooLarge,
    /// A system that should be regular was singular (a defect, never expected).
    Singular,
}

/// The rule of one piece's lumped chain.
pub(crate) enum Model<'a> {
    List {
        m: u64,
        n: u64,
    },
    Sequence {
        spec: &'a Spec,
        x: u16,
    },
    Bag {
        spec: &'a Spec,
        x: u16,
        k: u64,
    },
    /// A history rule, lumped to one mark per history slot (see [`history_key`]). `x = None`
    /// is the uncoloured chain, which every piece shares.
    History {
        spec: &'a Spec,
        x: Option<u16>,
        len: usize,
        rolls: Option<u32>,
        /// X-cards in the list.
        m: u64,
    },
    /// Card-level states of the dealer itself, without any lumping: the reference the
    /// reduced chains are tested against.
    Concrete {
        spec: &'a Spec,
        x: u16,
    },
    Nes,
    Pairs,
    /// `nes-real` on its concrete state (the previous orientation ID) for the piece X, a
    /// [`crate::presets::TETROMINOES`] index: its rule is not symmetric among pieces.
    NesReal {
        x: u8,
    },
    /// `gameboy` on its concrete state (Game Boy codes of the active and preview pieces, 7
    /// for none yet) for the piece X.
    Gameboy {
        x: u8,
    },
    /// TETR.IO's 7+E bag, lumped like a bag: (X left, others left), `[0, 0]` before a round.
    BagPlus {
        extra: u32,
    },
}

struct Outcome {
    prob: Ratio,
    is_x: bool,
    from_history: bool,
    next: Key,
}

/// History slot marks: the slot is not its card's newest occurrence, or it is the newest
/// occurrence of an X-card, or of another card.
const OLDER: u32 = 0;
const NEWEST_X: u32 = 1;
const NEWEST_OTHER: u32 = 2;

/// The lumped key of a concrete history (oldest first). A history rule reads the history only
/// through its set of distinct cards, and a slot leaves that set on eviction exactly when it
/// holds its card's only, hence newest, occurrence; so "is this slot its card's newest
/// occurrence, and is that card an X?" per slot is all the future depends on, by symmetry
/// among cards.
pub(crate) fn history_key(spec: &Spec, x: Option<u16>, history: &VecDeque<u16>) -> Key {
    let mut seen = vec![false; spec.cards.len()];
    let mut key = vec![OLDER; history.len()];
    for (i, &c) in history.iter().enumerate().rev() {
        if !std::mem::replace(&mut seen[c as usize], true) {
            key[i] = if Some(spec.cards[c as usize]) == x {
                NEWEST_X
            } else {
                NEWEST_OTHER
            };
        }
    }
    key
}

impl<'a> Model<'a> {
    pub(crate) fn for_spec(spec: &'a Spec, x: u16) -> Model<'a> {
        let n = spec.cards.len() as u64;
        let m = spec.cards.iter().filter(|&&c| c == x).count() as u64;
        match &spec.core {
            Core::List => Model::List { m, n },
            Core::Sequence => Model::Sequence { spec, x },
            Core::Bag { count } => Model::Bag {
                spec,
                x,
                k: u64::from(*count),
            },
            Core::History { len, rolls, .. } => Model::History {
                spec,
                x: Some(x),
                len: *len as usize,
                rolls: *rolls,
                m,
            },
        }
    }

    /// The history chain without colours, shared by all pieces.
    pub(crate) fn uncoloured(spec: &'a Spec) -> Option<Model<'a>> {
        match &spec.core {
            Core::History { len, rolls, .. } => Some(Model::History {
                spec,
                x: None,
                len: *len as usize,
                rolls: *rolls,
                m: 0,
            }),
            _ => None,
        }
    }

    /// The chain of piece `x` (a tetromino index) under a built-in rule, `None` for rules
    /// with no finite chain (`tgm3`) or that assume no ideal RNG (the arcade LFSR).
    pub(crate) fn for_builtin(b: &Builtin, x: u8) -> Option<Model<'static>> {
        match b {
            Builtin::Nes { .. } => Some(Model::Nes),
            Builtin::Pairs { .. } => Some(Model::Pairs),
            Builtin::NesReal { .. } => Some(Model::NesReal { x }),
            Builtin::Gameboy { .. } => Some(Model::Gameboy { x }),
            Builtin::BagPlus { extra, .. } => Some(Model::BagPlus {
                extra: u32::from(*extra),
            }),
            Builtin::Tgm3 { .. } | Builtin::NesArcade { .. } => None,
        }
    }

    /// Whether every piece has the same chain (one analysis then serves all).
    pub(crate) fn symmetric(&self) -> bool {
        !matches!(self, Model::NesReal { .. } | Model::Gameboy { .. })
    }

    fn bag_key(spec: &Spec, x: u16, remaining: &[u16]) -> Key {
        let xr = remaining
            .iter()
            .filter(|&&c| spec.cards[c as usize] == x)
            .count() as u32;
        vec![xr, remaining.len() as u32 - xr]
    }

    /// The key of a concrete dealer state in this model.
    pub(crate) fn key_of(&self, d: &Dealer) -> Key {
        match (self, d) {
            (Model::Concrete { .. }, d) => concrete_key(d),
            (_, Dealer::List) => vec![],
            (_, Dealer::Sequence { position }) => vec![*position],
            (Model::Bag { spec, x, .. }, Dealer::Bag { remaining, .. }) => {
                Model::bag_key(spec, *x, remaining)
            }
            (Model::History { spec, x, .. }, Dealer::History { history, .. }) => {
                history_key(spec, *x, history)
            }
            _ => vec![],
        }
    }

    /// The start distribution, after the first deal of `first F` when there is one.
    fn start(&self) -> Vec<(Ratio, Key)> {
        let spec = match self {
            Model::List { .. } => return vec![(Ratio::one(), vec![])],
            Model::Nes => return vec![(Ratio::one(), vec![0])],
            Model::Pairs | Model::BagPlus { .. } => return vec![(Ratio::one(), vec![0, 0])],
            Model::NesReal { .. } => return vec![(Ratio::one(), vec![0])],
            Model::Gameboy { .. } => return vec![(Ratio::one(), vec![7, 7])],
            Model::Sequence { spec, .. }
            | Model::Bag { spec, .. }
            | Model::History { spec, .. }
            | Model::Concrete { spec, .. } => *spec,
        };
        let initial = Dealer::initial(spec);
        match &spec.first {
            None => vec![(Ratio::one(), self.key_of(&initial))],
            Some(f) => {
                let mut out: Vec<(Ratio, Key)> = Vec::new();
                for &name in f {
                    let mut d = initial.clone();
                    d.deal_first(spec, name);
                    let key = self.key_of(&d);
                    let p = Ratio::from_u64(1, f.len() as u64);
                    match out.iter_mut().find(|o| o.1 == key) {
                        Some(o) => o.0 = &o.0 + &p,
                        None => out.push((p, key)),
                    }
                }
                out
            }
        }
    }

    /// The outcomes of one deal from the state `key`.
    fn step(&self, key: &Key) -> Result<Vec<Outcome>, ChainError> {
        let o = |num: u64, den: u64, is_x: bool, next: Key| Outcome {
            prob: Ratio::from_u64(num, den),
            is_x,
            from_history: false,
            next,
        };
        Ok(match self {
            Model::List { m, n } => vec![o(*m, *n, true, vec![]), o(n - m, *n, false, vec![])],
            Model::Sequence { spec, x } => {
                let n = spec.cards.len() as u32;
                let p = key[0];
                vec![o(1, 1, spec.cards[p as usize] == *x, vec![(p + 1) % n])]
            }
            Model::Bag { spec, x, k } => {
                let n = spec.cards.len() as u64;
                let m = spec.cards.iter().filter(|&&c| c == *x).count() as u64;
                let (xr, or) = (u64::from(key[0]), u64::from(key[1]));
                let left = xr + or;
                let dealt = n - left + 1;
                let after = |xr: u64, or: u64| {
                    if dealt >= *k {
                        vec![m as u32, (n - m) as u32]
                    } else {
                        vec![xr as u32, or as u32]
                    }
                };
                let mut v = Vec::new();
                if xr > 0 {
                    v.push(o(xr, left, true, after(xr - 1, or)));
                }
                if or > 0 {
                    v.push(o(or, left, false, after(xr, or - 1)));
                }
                v
            }
            Model::History {
                spec,
                len,
                rolls,
                m,
                ..
            } => Self::history_step(spec.cards.len() as u64, *m, *len, *rolls, key)?,
            Model::Concrete { spec, x } => concrete_step(spec, *x, key),
            Model::Nes => match key[0] {
                0 => vec![o(1, 7, true, vec![1]), o(6, 7, false, vec![2])],
                1 => vec![o(1, 28, true, vec![1]), o(27, 28, false, vec![2])],
                _ => vec![o(9, 56, true, vec![1]), o(47, 56, false, vec![2])],
            },
            // The two rules that tell pieces apart have no smaller per-piece state: their
            // deals are the joint rule's (`rule.rs`, the one statement of each), marked `x`.
            Model::NesReal { x } => marked(Rule::NesReal.deals(&(key.clone(), false)), *x),
            Model::Gameboy { x } => marked(Rule::Gameboy.deals(&(key.clone(), false)), *x),
            Model::BagPlus { extra } => {
                let e = u64::from(*extra);
                let (xr, or) = (u64::from(key[0]), u64::from(key[1]));
                let mut v = Vec::new();
                if xr + or == 0 {
                    // j of the E extras are X: C(E, j) 6^(E−j) / 7^E.
                    let round = 7 + e;
                    for j in 0..=e {
                        let ways = binomial(e, j) as u64 * 6u64.pow((e - j) as u32);
                        let den = 7u64.pow(e as u32) * round;
                        let (xs, os) = (1 + j, 6 + e - j);
                        v.push(o(ways * xs, den, true, vec![(xs - 1) as u32, os as u32]));
                        v.push(o(ways * os, den, false, vec![xs as u32, (os - 1) as u32]));
                    }
                } else {
                    if xr > 0 {
                        v.push(o(xr, xr + or, true, vec![key[0] - 1, key[1]]));
                    }
                    if or > 0 {
                        v.push(o(or, xr + or, false, vec![key[0], key[1] - 1]));
                    }
                }
                v
            }
            Model::Pairs => {
                let (xr, or) = (u64::from(key[0]), u64::from(key[1]));
                if xr + or == 0 {
                    vec![
                        o(1, 7, true, vec![2, 3]),
                        o(1, 7, false, vec![3, 2]),
                        o(5, 7, false, vec![0, 5]),
                    ]
                } else {
                    let mut v = Vec::new();
                    if xr > 0 {
                        v.push(o(xr, xr + or, true, vec![key[0] - 1, key[1]]));
                    }
                    if or > 0 {
                        v.push(o(or, xr + or, false, vec![key[0], key[1] - 1]));
                    }
                    v
                }
            }
        })
    }

    /// One deal of a history rule on lumped keys: `n` cards, `m` of them X-cards.
    fn history_step(
        n: u64,
        m: u64,
        len: usize,
        rolls: Option<u32>,
        key: &Key,
    ) -> Result<Vec<Outcome>, ChainError> {
        let kx = key.iter().filter(|&&t| t == NEWEST_X).count() as u64;
        let ko = key.iter().filter(|&&t| t == NEWEST_OTHER).count() as u64;
        let k = kx + ko;
        let (fresh_x, fresh_o) = (m - kx, (n - m) - ko);
        // Deal a card marked `mark`; `was` is the slot of its newest occurrence if it is in
        // the history.
        let next = |mark: u32, was: Option<usize>| {
            let mut h = key.clone();
            if let Some(i) = was {
                h[i] = OLDER;
            }
            h.push(mark);
            if h.len() > len {
                h.remove(0);
            }
            h
        };
        let mut out = Vec::new();
        let mut push = |prob: Ratio, mark: u32, from_history: bool, was: Option<usize>| {
            if !prob.is_zero() {
                out.push(Outcome {
                    prob,
                    is_x: mark == NEWEST_X,
                    from_history,
                    next: next(mark, was),
                });
            }
        };
        match rolls {
            None => {
                let free = n - k;
                push(Ratio::from_u64(fresh_x, free), NEWEST_X, false, None);
                push(Ratio::from_u64(fresh_o, free), NEWEST_OTHER, false, None);
            }
            Some(r) => {
                if u64::from(r) * u64::from(64 - n.leading_zeros()) > MAX_ROLL_BITS {
                    return Err(ChainError::NumbersTooLarge);
                }
                let nr = BigUint::from(n).pow(r);
                let kr = BigUint::from(k).pow(r);
                if k < n {
                    // Each fresh card: (n^R - k^R) / ((n - k) n^R).
                    let den = &nr * BigUint::from(n - k);
                    let num = &nr - &kr;
                    push(
                        Ratio::new(&num * BigUint::from(fresh_x), den.clone()),
                        NEWEST_X,
                        false,
                        None,
                    );
                    push(
                        Ratio::new(num * BigUint::from(fresh_o), den),
                        NEWEST_OTHER,
                        false,
                        None,
                    );
                }
                if k > 0 {
                    // Each history card: all R rolls hit and the last one is that card.
                    let each = Ratio::new(BigUint::from(k).pow(r - 1), nr.clone());
                    for (i, &t) in key.iter().enumerate() {
                        if t != OLDER {
                            push(each.clone(), t, true, Some(i));
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// An upper bound on the lumped states this model can reach, known before building it.
    pub(crate) fn state_bound(&self) -> u128 {
        match self {
            Model::List { .. } => 1,
            Model::Sequence { spec, .. } => spec.cards.len() as u128,
            Model::Bag { spec, x, .. } => {
                let n = spec.cards.len() as u128;
                let m = spec.cards.iter().filter(|&&c| c == *x).count() as u128;
                (m + 1) * (n - m + 1)
            }
            Model::History {
                spec,
                len,
                rolls,
                m,
                ..
            } => history_bound(spec.cards.len() as u64, *m, *len, rolls.is_some()),
            Model::Concrete { .. } => u128::MAX,
            Model::Nes => 3,
            Model::Pairs => 64,
            Model::NesReal { .. } => 8,
            Model::Gameboy { .. } => 64,
            Model::BagPlus { extra } => u128::from((extra + 3) * (extra + 9)),
        }
    }
}

/// Largest `R · log2(n)` for exact roll probabilities (n^R has that many bits).
const MAX_ROLL_BITS: u64 = 20_000;

/// Keys of a full history of length `len` whose newest slot is marked: with `j` marked
/// slots, C(len−1, j−1) placements and the choices of which marks are X (at most `m` X-cards,
/// `n − m` others). Without rolls every slot is marked once the history is full. Keys of the
/// filling phase (shorter histories) are counted too.
fn history_bound(n: u64, m: u64, len: usize, rolls: bool) -> u128 {
    let mut total: u128 = 0;
    for l in 0..=len.min(4096) {
        total = total.saturating_add(full_history_bound(n, m, l, rolls));
        if total == u128::MAX {
            break;
        }
    }
    if len > 4096 {
        return u128::MAX;
    }
    total
}

fn full_history_bound(n: u64, m: u64, len: usize, rolls: bool) -> u128 {
    if len == 0 {
        return 1;
    }
    let len = len as u64;
    let marked = |j: u64| -> u128 {
        // Colourings of j marks with at most m X and n − m others.
        let lo = j.saturating_sub(n - m);
        let hi = j.min(m);
        (lo..=hi).fold(0u128, |a, i| a.saturating_add(binomial(j, i)))
    };
    if !rolls {
        return if len > n { 0 } else { marked(len) };
    }
    (1..=len.min(n)).fold(0u128, |a, j| {
        a.saturating_add(binomial(len - 1, j - 1).saturating_mul(marked(j)))
    })
}

fn binomial(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = match r.checked_mul(u128::from(n - i)) {
            Some(v) => v / u128::from(i + 1),
            None => return u128::MAX,
        };
    }
    r
}

/// Every outcome of one deal of the dealer itself, by enumerating its `below` draws.
fn concrete_step(spec: &Spec, x: u16, key: &Key) -> Vec<Outcome> {
    concrete_outcomes(spec, key)
        .into_iter()
        .map(|o| Outcome {
            prob: o.prob,
            is_x: spec.cards[o.card as usize] == x,
            from_history: o.from_history,
            next: o.next,
        })
        .collect()
}

/// Explores the chain reachable from the model's start, merging equal outcomes.
pub(crate) fn build(model: &Model<'_>, max_states: usize) -> Result<Chain, ChainError> {
    let bound = model.state_bound();
    if bound != u128::MAX && bound > max_states as u128 {
        return Err(ChainError::TooManyStates {
            needed: Some(bound),
            limit: max_states,
        });
    }
    let mut index: HashMap<Key, usize> = HashMap::new();
    let mut keys: Vec<Key> = Vec::new();
    let mut edges: Vec<Vec<Edge>> = Vec::new();
    let mut intern = |key: Key, keys: &mut Vec<Key>| -> Result<usize, ChainError> {
        if let Some(&i) = index.get(&key) {
            return Ok(i);
        }
        if keys.len() >= max_states {
            return Err(ChainError::TooManyStates {
                needed: None,
                limit: max_states,
            });
        }
        index.insert(key.clone(), keys.len());
        keys.push(key);
        Ok(keys.len() - 1)
    };
    let mut start = Vec::new();
    for (p, key) in model.start() {
        start.push((intern(key, &mut keys)?, p));
    }
    let mut i = 0;
    while i < keys.len() {
        let outcomes = model.step(&keys[i])?;
        let mut list: Vec<Edge> = Vec::with_capacity(outcomes.len());
        for o in outcomes {
            let to = intern(o.next, &mut keys)?;
            match list
                .iter_mut()
                .find(|e| e.to == to && e.is_x == o.is_x && e.from_history == o.from_history)
            {
                Some(e) => e.prob = &e.prob + &o.prob,
                None => list.push(Edge {
                    prob: o.prob,
                    is_x: o.is_x,
                    from_history: o.from_history,
                    to,
                }),
            }
        }
        edges.push(list);
        i += 1;
    }
    Ok(Chain { keys, edges, start })
}

/// Strongly connected components (iterative Tarjan), in reverse topological order: every edge
/// leaving a component goes to one listed earlier.
pub(crate) fn components(chain: &Chain) -> Vec<Vec<usize>> {
    let n = chain.keys.len();
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    let mut counter = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut next)) = work.last_mut() {
            if *next < chain.edges[v].len() {
                let w = chain.edges[v][*next].to;
                *next += 1;
                if index[w] == UNSEEN {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comp.sort_unstable();
                    out.push(comp);
                }
            }
        }
    }
    out
}

/// The stationary distribution of a closed class (`states` sorted), as probabilities in the
/// class's order. Uses a regeneration state when the rest of the class is acyclic (bags,
/// sequences), else the GTH elimination.
pub(crate) fn stationary(
    chain: &Chain,
    states: &[usize],
    max_solve: usize,
) -> Result<Vec<Ratio>, ChainError> {
    let pos: HashMap<usize, usize> = states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let size = states.len();
    // Regeneration: remove the first state; if what remains is a DAG, count expected visits
    // per cycle in topological order.
    let r = 0usize;
    let mut indeg = vec![0usize; size];
    for &s in states {
        for e in &chain.edges[s] {
            let t = pos[&e.to];
            if t != r {
                indeg[t] += 1;
            }
        }
    }
    let mut order = vec![r];
    let mut queue: Vec<usize> = (0..size).filter(|&i| i != r && indeg[i] == 0).collect();
    let mut head = 0;
    // Kahn's algorithm seeded from r's successors.
    let mut done = 0;
    while done < order.len() || head < queue.len() {
        let v = if done < order.len() {
            done += 1;
            order[done - 1]
        } else {
            head += 1;
            let v = queue[head - 1];
            order.push(v);
            done += 1;
            v
        };
        for e in &chain.edges[states[v]] {
            let t = pos[&e.to];
            if t != r {
                indeg[t] -= 1;
                if indeg[t] == 0 {
                    queue.push(t);
                }
            }
        }
    }
    if order.len() == size {
        let mut visits = vec![Ratio::zero(); size];
        visits[r] = Ratio::one();
        for &v in &order {
            if visits[v].is_zero() {
                continue;
            }
            let here = visits[v].clone();
            for e in &chain.edges[states[v]] {
                let t = pos[&e.to];
                if t != r {
                    visits[t] = &visits[t] + &(&here * &e.prob);
                }
            }
        }
        let total = visits.iter().fold(Ratio::zero(), |a, b| &a + b);
        return Ok(visits.iter().map(|v| v / &total).collect());
    }
    if size > max_solve {
        return Err(ChainError::ClassTooLarge {
            size,
            limit: max_solve,
        });
    }
    solve_stationary(chain, states, &pos)
}

/// Exact stationary law of an irreducible class by Bareiss's fraction-free elimination on
/// integers: `π (P − I) = 0` scaled by the common denominator, one equation replaced by
/// `Σ π = 1`. Only exact divisions happen inside the loop, so no gcd is needed until the end.
fn solve_stationary(
    chain: &Chain,
    states: &[usize],
    pos: &HashMap<usize, usize>,
) -> Result<Vec<Ratio>, ChainError> {
    let size = states.len();
    let mut l = BigUint::one();
    for &s in states {
        for e in &chain.edges[s] {
            l = l.lcm(e.prob.denom());
        }
    }
    let li = BigInt::from(l.clone());
    // a[j][i]: coefficient of π_i in the balance equation of state j; column `size` is b.
    let mut a = vec![vec![BigInt::zero(); size + 1]; size];
    for (i, &s) in states.iter().enumerate() {
        for e in &chain.edges[s] {
            let j = pos[&e.to];
            let w = e.prob.numer() * (&l / e.prob.denom());
            a[j][i] += BigInt::from(w);
        }
        a[i][i] -= &li;
    }
    for x in a[0].iter_mut() {
        *x = BigInt::one();
    }
    let mut y = match crate::modular::cramer_numerators(&a, size) {
        Some(y) => y,
        None => bareiss(a, size)?,
    };
    let mut total: BigInt = y.iter().sum();
    if total.sign() == Sign::Minus {
        total = -total;
        for v in y.iter_mut() {
            *v = -std::mem::take(v);
        }
    }
    let total = total.to_biguint().ok_or(ChainError::Singular)?;
    if total.is_zero() {
        return Err(ChainError::Singular);
    }
    y.into_iter()
        .map(|v| match v.to_biguint() {
            Some(n) => Ok(Ratio::new(n, total.clone())),
            None => Err(ChainError::Singular),
        })
        .collect()
}

/// Cramer numerators by Bareiss's fraction-free elimination on big integers (for systems whose
/// entries do not fit in an `i64`).
fn bareiss(mut a: Vec<Vec<BigInt>>, size: usize) -> Result<Vec<BigInt>, ChainError> {
    let mut prev = BigInt::one();
    for k in 0..size {
        if a[k][k].is_zero() {
            let Some(r) = (k + 1..size).find(|&r| !a[r][k].is_zero()) else {
                return Err(ChainError::Singular);
            };
            a.swap(k, r);
        }
        let (top, rest) = a.split_at_mut(k + 1);
        let pivot_row = &top[k];
        for row in rest.iter_mut() {
            let f = std::mem::take(&mut row[k]);
            for j in k + 1..=size {
                let v = &row[j] * &pivot_row[k] - &f * &pivot_row[j];
                row[j] = v / &prev;
            }
        }
        prev = a[k][k].clone();
    }
    // Fraction-free back substitution: y_i = det·x_i are integers (Cramer's rule) and every
    // division below is exact; one gcd per state at the very end.
    let det = a[size - 1][size - 1].clone();
    let mut y: Vec<BigInt> = vec![BigInt::zero(); size];
    for i in (0..size).rev() {
        let mut acc = &det * &a[i][size];
        for j in i + 1..size {
            if !a[i][j].is_zero() && !y[j].is_zero() {
                acc -= &a[i][j] * &y[j];
            }
        }
        y[i] = acc / &a[i][i];
    }
    Ok(y)
}

/// Solves `x = b + x·Q` for the expected visits of a transient component with cycles
/// (`Q` = its internal transitions), by Gauss–Jordan elimination on `x (I − Q) = b`.
pub(crate) fn transient_visits(
    chain: &Chain,
    states: &[usize],
    b: &[Ratio],
    max_solve: usize,
) -> Result<Vec<Ratio>, ChainError> {
    let size = states.len();
    if size > max_solve {
        return Err(ChainError::ClassTooLarge {
            size,
            limit: max_solve,
        });
    }
    let pos: HashMap<usize, usize> = states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let mut q = vec![vec![Ratio::zero(); size]; size];
    for (i, &s) in states.iter().enumerate() {
        for e in &chain.edges[s] {
            if let Some(&j) = pos.get(&e.to) {
                q[i][j] = &q[i][j] + &e.prob;
            }
        }
    }
    solve_row(q, b.to_vec())
}

/// Solves `x = b + x·Q` for a substochastic `Q` whose powers vanish, by eliminating one
/// unknown at a time: every intermediate value is a sum of non-negative terms, so the
/// non-negative fractions suffice.
pub(crate) fn solve_row(q: Vec<Vec<Ratio>>, b: Vec<Ratio>) -> Result<Vec<Ratio>, ChainError> {
    let size = b.len();
    // Equation k: x_k (1 − Q[k][k]) = b_k + Σ_{i≠k} x_i Q[i][k]. Solve for x_k from the last
    // down, substituting it into the remaining equations; then back-substitute upwards.
    let mut rhs: Vec<Ratio> = b;
    let mut coef = q; // coef[i][k]: weight of x_i in x_k's equation
    for k in (0..size).rev() {
        let stay = &Ratio::one() - &coef[k][k];
        if stay.is_zero() {
            return Err(ChainError::Singular);
        }
        for i in 0..k {
            coef[i][k] = &coef[i][k] / &stay;
        }
        rhs[k] = &rhs[k] / &stay;
        coef[k][k] = Ratio::zero();
        // Substitute x_k into every remaining equation j.
        for j in 0..k {
            if coef[k][j].is_zero() {
                continue;
            }
            let w = coef[k][j].clone();
            rhs[j] = &rhs[j] + &(&w * &rhs[k]);
            for i in 0..k {
                if !coef[i][k].is_zero() {
                    coef[i][j] = &coef[i][j] + &(&w * &coef[i][k]);
                }
            }
        }
    }
    let mut x = vec![Ratio::zero(); size];
    for k in 0..size {
        let mut acc = rhs[k].clone();
        for i in 0..k {
            if !coef[i][k].is_zero() {
                acc = &acc + &(&x[i] * &coef[i][k]);
            }
        }
        x[k] = acc;
    }
    Ok(x)
}

/// True if a cycle of edges accepted by `keep` is reachable from `from` through such edges.
pub(crate) fn has_cycle(chain: &Chain, from: &[usize], keep: impl Fn(&Edge) -> bool) -> bool {
    let n = chain.keys.len();
    // 0 = unseen, 1 = on the DFS path, 2 = finished.
    let mut color = vec![0u8; n];
    for &root in from {
        if color[root] != 0 {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        color[root] = 1;
        while let Some(&mut (v, ref mut next)) = work.last_mut() {
            if let Some(e) = chain.edges[v].get(*next) {
                *next += 1;
                if !keep(e) {
                    continue;
                }
                match color[e.to] {
                    0 => {
                        color[e.to] = 1;
                        work.push((e.to, 0));
                    }
                    1 => return true,
                    _ => {}
                }
            } else {
                color[v] = 2;
                work.pop();
            }
        }
    }
    false
}

/// Σ of probabilities (helper).
pub(crate) fn sum<'a>(it: impl Iterator<Item = &'a Ratio>) -> Ratio {
    it.fold(Ratio::zero(), |a, b| &a + b)
}

/// The joint rule's deals as outcomes of one piece's chain: a hit where the piece is `x`.
fn marked(deals: Vec<Deal>, x: u8) -> Vec<Outcome> {
    deals
        .into_iter()
        .map(|d| Outcome {
            prob: d.prob,
            is_x: d.piece == u16::from(x),
            from_history: false,
            next: d.next,
        })
        .collect()
}
