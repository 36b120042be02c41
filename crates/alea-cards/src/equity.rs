//! Win/tie/lose probabilities of a hero against opponents: exact enumeration when the number
//! of deals is small, otherwise seeded Monte Carlo (openholdem.md §5.4) split into tasks that
//! depend only on the request (task i uses `Rng::stream(seed, i)`), run in parallel with rayon
//! and merged in task order, so the result is the same at any thread count.

use crate::card::{Card, CardSet, unseen};
use crate::eval::{Hand, HandRank, Tables};
use alea_core::Rng;
use rayon::prelude::*;

/// Most opponents (OpenHoldem clamps `f$prwin_number_of_opponents` to 1‥22).
pub const MAX_OPPONENTS: usize = 22;
/// Most Monte Carlo iterations one request may ask for.
pub const MAX_ITERATIONS: u64 = 1_000_000_000;
/// Iterations per Monte Carlo task (the unit of parallel work and of RNG streams).
pub const TASK_ITERATIONS: u64 = 4096;
/// [`equity`] enumerates exactly when there are at most this many deals.
pub const EXACT_MAX_DEALS: u128 = 2_000_000;
/// OpenHoldem's default number of prwin iterations.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// Who the hero plays against and what is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EquityRequest {
    /// The hero's two hole cards.
    pub hero: [Card; 2],
    /// 0 to 5 board cards.
    pub board: Vec<Card>,
    /// Opponents whose hole cards are known (e.g. AA against KK).
    pub known: Vec<[Card; 2]>,
    /// Opponents with random hole cards.
    pub random: usize,
}

impl EquityRequest {
    /// Hero against `random` opponents with unknown cards.
    pub fn new(hero: [Card; 2], board: &[Card], random: usize) -> EquityRequest {
        EquityRequest {
            hero,
            board: board.to_vec(),
            known: Vec::new(),
            random,
        }
    }

    /// Checks the request: 0 to 5 board cards, 1 to 22 opponents, no card twice.
    pub fn validate(&self) -> Result<CardSet, EquityError> {
        if self.board.len() > 5 {
            return Err(EquityError::TooManyBoardCards(self.board.len()));
        }
        let opponents = self.known.len() + self.random;
        if !(1..=MAX_OPPONENTS).contains(&opponents) {
            return Err(EquityError::Opponents(opponents));
        }
        let mut dead = CardSet::EMPTY;
        let all = self
            .hero
            .iter()
            .chain(&self.board)
            .chain(self.known.iter().flatten());
        for &c in all {
            if dead.contains(c) {
                return Err(EquityError::Duplicate(c));
            }
            dead.insert(c);
        }
        Ok(dead)
    }

    /// Number of deals an exact enumeration visits: board completions times ordered holdings
    /// of the random opponents.
    pub fn deals(&self) -> u128 {
        let dead = self.hero.len() + self.board.len() + 2 * self.known.len();
        let mut left = 52u128.saturating_sub(dead as u128);
        let missing = 5 - self.board.len().min(5) as u128;
        let mut deals = binomial(left, missing);
        left = left.saturating_sub(missing);
        for _ in 0..self.random {
            deals = deals.saturating_mul(binomial(left, 2));
            left = left.saturating_sub(2);
        }
        deals
    }
}

fn binomial(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * (n - i) / (i + 1))
}

/// Why an equity request is invalid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EquityError {
    /// More than 5 board cards.
    TooManyBoardCards(usize),
    /// Opponents outside 1‥22.
    Opponents(usize),
    /// A card given twice.
    Duplicate(Card),
    /// Iterations outside 1‥[`MAX_ITERATIONS`].
    Iterations(u64),
}

impl std::fmt::Display for EquityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EquityError::TooManyBoardCards(n) => {
                write!(f, "a board has at most 5 cards, found {n}")
            }
            EquityError::Opponents(n) => {
                write!(
                    f,
                    "opponents must be between 1 and {MAX_OPPONENTS}, found {n}"
                )
            }
            EquityError::Duplicate(c) => write!(f, "card {c} appears twice"),
            EquityError::Iterations(n) => {
                write!(
                    f,
                    "iterations must be between 1 and {MAX_ITERATIONS}, found {n}"
                )
            }
        }
    }
}

impl std::error::Error for EquityError {}

/// Counts of outcomes from the hero's point of view: a **loss** if any opponent beats the
/// hero, else a **win** if the hero beats everyone, else a **tie** (the hero shares the pot).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tally {
    /// Deals (Monte Carlo iterations or enumerated deals).
    pub total: u64,
    /// Deals the hero wins outright.
    pub wins: u64,
    /// Deals the hero ties for the best hand.
    pub ties: u64,
    /// Deals someone beats the hero.
    pub losses: u64,
    /// `split[k]`: ties shared by k players in all (hero included), for pot equity.
    pub split: [u64; MAX_OPPONENTS + 2],
}

impl Tally {
    fn merged(mut self, other: Tally) -> Tally {
        self.add(&other);
        self
    }

    fn add(&mut self, other: &Tally) {
        self.total += other.total;
        self.wins += other.wins;
        self.ties += other.ties;
        self.losses += other.losses;
        for (a, b) in self.split.iter_mut().zip(other.split) {
            *a += b;
        }
    }

    #[inline(always)]
    fn record(&mut self, hero: HandRank, best_other: HandRank, tied: usize) {
        self.total += 1;
        if best_other > hero {
            self.losses += 1;
        } else if best_other < hero {
            self.wins += 1;
        } else {
            self.ties += 1;
            self.split[tied + 1] += 1;
        }
    }

    /// prwin: wins ÷ total.
    pub fn win(&self) -> f64 {
        ratio(self.wins, self.total)
    }

    /// prtie: ties ÷ total.
    pub fn tie(&self) -> f64 {
        ratio(self.ties, self.total)
    }

    /// prlos: losses ÷ total.
    pub fn lose(&self) -> f64 {
        ratio(self.losses, self.total)
    }

    /// Pot equity: (wins + Σ ties shared by k ÷ k) ÷ total.
    pub fn equity(&self) -> f64 {
        let shared: f64 = self
            .split
            .iter()
            .enumerate()
            .skip(1)
            .map(|(k, &n)| n as f64 / k as f64)
            .sum();
        if self.total == 0 {
            0.0
        } else {
            (self.wins as f64 + shared) / self.total as f64
        }
    }
}

fn ratio(n: u64, d: u64) -> f64 {
    if d == 0 { 0.0 } else { n as f64 / d as f64 }
}

/// How a result was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Every deal enumerated: the probabilities are exact.
    Exact,
    /// Monte Carlo with this seed.
    MonteCarlo {
        /// The seed of `Rng::stream(seed, task)`.
        seed: u64,
    },
}

/// An equity result: the tally and how it was obtained.
#[derive(Clone, Debug, PartialEq)]
pub struct Equity {
    /// Outcome counts.
    pub tally: Tally,
    /// Exact or Monte Carlo.
    pub method: Method,
}

impl Equity {
    /// Half-width of the 95 % confidence interval of a Monte Carlo probability p
    /// (1.96·√(p(1−p)/N)); 0 for exact results.
    pub fn margin(&self, p: f64) -> f64 {
        match self.method {
            Method::Exact => 0.0,
            Method::MonteCarlo { .. } => {
                let n = self.tally.total.max(1) as f64;
                1.96 * (p * (1.0 - p) / n).sqrt()
            }
        }
    }
}

/// Exact when the request has at most [`EXACT_MAX_DEALS`] deals, else Monte Carlo with
/// `iterations` and `seed`.
pub fn equity(req: &EquityRequest, iterations: u64, seed: u64) -> Result<Equity, EquityError> {
    req.validate()?;
    if req.deals() <= EXACT_MAX_DEALS {
        Ok(Equity {
            tally: enumerate(req)?,
            method: Method::Exact,
        })
    } else {
        Ok(Equity {
            tally: simulate(req, iterations, seed)?,
            method: Method::MonteCarlo { seed },
        })
    }
}

/// OpenHoldem's prwin/prtie/prlos by Monte Carlo (§5.4): each iteration deals the opponents'
/// cards and the missing board cards uniformly without replacement. Task i of
/// ⌈iterations / [`TASK_ITERATIONS`]⌉ uses `Rng::stream(seed, i)`.
pub fn simulate(req: &EquityRequest, iterations: u64, seed: u64) -> Result<Tally, EquityError> {
    let dead = req.validate()?;
    if !(1..=MAX_ITERATIONS).contains(&iterations) {
        return Err(EquityError::Iterations(iterations));
    }
    let tasks = iterations.div_ceil(TASK_ITERATIONS);
    // Task i's generator is the seeded one jumped i times: jump cumulatively, once per task.
    let mut rng = Rng::seed_from_u64(seed);
    let mut starts = Vec::with_capacity(tasks as usize);
    for _ in 0..tasks {
        starts.push(rng.clone());
        rng.jump();
    }
    let pool = unseen(dead);
    // Tallies are integer counts, so merging them in any grouping gives the task-order sum.
    Ok(starts
        .into_par_iter()
        .enumerate()
        .map(|(i, rng)| {
            let n = TASK_ITERATIONS.min(iterations - i as u64 * TASK_ITERATIONS);
            simulate_task(req, &pool, n, rng)
        })
        .reduce(Tally::default, Tally::merged))
}

fn simulate_task(req: &EquityRequest, pool: &[Card], iterations: u64, mut rng: Rng) -> Tally {
    let tables = Tables::get();
    let mut cards = pool.to_vec();
    let missing = 5 - req.board.len();
    let need = missing + 2 * req.random;
    let board = Hand::from_cards(&req.board);
    let hero = board.union(Hand::from_cards(&req.hero));
    let known: Vec<Hand> = req
        .known
        .iter()
        .map(|h| board.union(Hand::from_cards(h)))
        .collect();
    let mut tally = Tally::default();
    for _ in 0..iterations {
        // Partial Fisher–Yates: cards[..need] become a uniform draw without replacement.
        for j in 0..need {
            let k = j + rng.below((cards.len() - j) as u64) as usize;
            cards.swap(j, k);
        }
        let extra = cards[..missing].iter().fold(Hand::new(), |h, &c| h.with(c));
        let hero_rank = tables.rank(hero.union(extra));
        let (mut best, mut tied) = (HandRank::WORST, 0usize);
        let mut note = |r: HandRank| {
            if r > best {
                (best, tied) = (r, 1);
            } else if r == best {
                tied += 1;
            }
        };
        for k in &known {
            note(tables.rank(k.union(extra)));
        }
        for pair in cards[missing..need].chunks_exact(2) {
            note(tables.rank(board.union(extra).with(pair[0]).with(pair[1])));
        }
        if best < hero_rank {
            tied = 0;
        }
        tally.record(hero_rank, best, tied);
    }
    tally
}

/// Exact enumeration of every board completion and every (ordered) holding of the random
/// opponents. Parallel over the first missing board card; integer counts make the merge
/// order irrelevant.
pub fn enumerate(req: &EquityRequest) -> Result<Tally, EquityError> {
    let dead = req.validate()?;
    let pool = unseen(dead);
    let missing = 5 - req.board.len();
    let board = Hand::from_cards(&req.board);
    let ctx = Ctx {
        tables: Tables::get(),
        hero: Hand::from_cards(&req.hero),
        known: req.known.iter().map(|h| Hand::from_cards(h)).collect(),
        random: req.random,
        pool: &pool,
    };
    if missing == 0 {
        let mut tally = Tally::default();
        ctx.opponents(board, board.cards().0 | dead.0, &mut tally);
        return Ok(tally);
    }
    Ok((0..pool.len())
        .into_par_iter()
        .map(|i| {
            let mut tally = Tally::default();
            let b = board.with(pool[i]);
            ctx.complete_board(b, i + 1, missing - 1, dead.0 | pool[i].mask(), &mut tally);
            tally
        })
        .reduce(Tally::default, Tally::merged))
}

struct Ctx<'a> {
    tables: &'static Tables,
    hero: Hand,
    known: Vec<Hand>,
    random: usize,
    pool: &'a [Card],
}

impl Ctx<'_> {
    fn complete_board(&self, board: Hand, from: usize, left: usize, used: u64, t: &mut Tally) {
        if left == 0 {
            self.opponents(board, used, t);
            return;
        }
        for i in from..self.pool.len() {
            let c = self.pool[i];
            self.complete_board(board.with(c), i + 1, left - 1, used | c.mask(), t);
        }
    }

    fn opponents(&self, board: Hand, used: u64, t: &mut Tally) {
        let hero_rank = self.tables.rank(self.hero.union(board));
        let (mut best, mut tied) = (HandRank::WORST, 0usize);
        for k in &self.known {
            let r = self.tables.rank(k.union(board));
            if r > best {
                (best, tied) = (r, 1);
            } else if r == best {
                tied += 1;
            }
        }
        self.random_opponents(board, used, self.random, hero_rank, best, tied, t);
    }

    #[allow(clippy::too_many_arguments)]
    fn random_opponents(
        &self,
        board: Hand,
        used: u64,
        left: usize,
        hero: HandRank,
        best: HandRank,
        tied: usize,
        t: &mut Tally,
    ) {
        if left == 0 {
            t.record(hero, best, if best < hero { 0 } else { tied });
            return;
        }
        let free: Vec<Card> = self
            .pool
            .iter()
            .copied()
            .filter(|c| used & c.mask() == 0)
            .collect();
        for (i, &a) in free.iter().enumerate() {
            for &b in &free[i + 1..] {
                let r = self.tables.rank(board.with(a).with(b));
                let (nb, nt) = if r > best {
                    (r, 1)
                } else if r == best {
                    (best, tied + 1)
                } else {
                    (best, tied)
                };
                let u = used | a.mask() | b.mask();
                self.random_opponents(board, u, left - 1, hero, nb, nt, t);
            }
        }
    }
}
