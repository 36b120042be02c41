//! Tables analysts publish that need the order of deals, not only gap laws: same-piece runs,
//! runs inside a set of pieces (S/Z floods), bagginess and game-length drought odds. They are
//! counted over simulated deals with a fixed seed (Monte Carlo); the exact drought table is
//! [`crate::Analysis::gap_at_least`].

use crate::randomizer::Randomizer;

/// Options of [`stream_tables`].
#[derive(Clone, Debug)]
pub struct TableOptions {
    /// Deals counted for runs and bagginess.
    pub deals: u64,
    /// Pieces of the set whose runs are counted (e.g. S and Z), by name.
    pub set: Vec<String>,
    /// Window length for bagginess (0 = the number of pieces).
    pub window: usize,
    /// Games simulated for the game-length odds, each a fresh dealer.
    pub games: u64,
    /// Deals per game.
    pub game_length: u64,
    /// Drought length: a game counts when some piece waits at least this many deals.
    pub drought: u64,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            deals: 1_000_000,
            set: vec!["S".into(), "Z".into()],
            window: 0,
            games: 10_000,
            game_length: 100,
            drought: 12,
        }
    }
}

/// Counted tables. Histograms are `(length, count)` ascending, lengths ≥ 1.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamTables {
    /// Deals counted.
    pub deals: u64,
    /// Same-piece runs (maximal blocks of one name) by length.
    pub runs: Vec<(u64, u64)>,
    /// Maximal blocks of deals inside [`TableOptions::set`], by length.
    pub set_runs: Vec<(u64, u64)>,
    /// Aligned windows of `window` deals whose pieces are all distinct, over all windows:
    /// 1 for a bag of distinct pieces.
    pub bagginess: f64,
    /// The window length used.
    pub window: usize,
    /// Fraction of games of `game_length` deals in which some piece had a drought of at least
    /// `drought` deals (counting the wait from the start and up to the end of the game).
    pub game_drought: f64,
}

fn bump(h: &mut Vec<u64>, len: u64) {
    let i = len as usize;
    if h.len() <= i {
        h.resize(i + 1, 0);
    }
    h[i] += 1;
}

fn histogram(h: &[u64]) -> Vec<(u64, u64)> {
    h.iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(l, &c)| (l as u64, c))
        .collect()
}

/// Longest run histogram index kept; longer runs are counted at this length.
const MAX_RUN: u64 = 1 << 16;

/// Counts the tables: runs and bagginess on `deals` deals of `make(seed)`, game-length odds on
/// `games` dealers `make(seed + 1 + g)`. Memory is independent of the number of deals.
pub fn stream_tables(
    make: impl Fn(u64) -> Randomizer,
    seed: u64,
    opts: &TableOptions,
) -> StreamTables {
    let mut r = make(seed);
    let k = r.piece_count();
    let in_set: Vec<bool> = r
        .pieces()
        .iter()
        .map(|n| opts.set.iter().any(|s| s.as_str() == &**n))
        .collect();
    let window = if opts.window == 0 { k } else { opts.window };
    let (mut runs, mut set_runs) = (Vec::new(), Vec::new());
    let (mut run, mut set_run) = (0u64, 0u64);
    let mut prev = None;
    let (mut windows, mut distinct_windows) = (0u64, 0u64);
    let mut seen = vec![false; k];
    let mut in_window = 0usize;
    let mut window_ok = true;
    for _ in 0..opts.deals {
        let p = r.deal().0 as usize;
        if prev == Some(p) {
            run += 1;
        } else {
            if run > 0 {
                bump(&mut runs, run.min(MAX_RUN));
            }
            run = 1;
        }
        prev = Some(p);
        if in_set[p] {
            set_run += 1;
        } else if set_run > 0 {
            bump(&mut set_runs, set_run.min(MAX_RUN));
            set_run = 0;
        }
        if std::mem::replace(&mut seen[p], true) {
            window_ok = false;
        }
        in_window += 1;
        if in_window == window {
            windows += 1;
            distinct_windows += u64::from(window_ok);
            seen.iter_mut().for_each(|s| *s = false);
            in_window = 0;
            window_ok = true;
        }
    }
    if run > 0 {
        bump(&mut runs, run.min(MAX_RUN));
    }
    if set_run > 0 {
        bump(&mut set_runs, set_run.min(MAX_RUN));
    }
    let mut droughty = 0u64;
    for g in 0..opts.games {
        let mut d = make(seed.wrapping_add(1).wrapping_add(g));
        let mut last = vec![0u64; k];
        let mut hit = false;
        for t in 1..=opts.game_length {
            let p = d.deal().0 as usize;
            last[p] = t;
            // The wait of every other piece so far.
            if !hit && (t - *last.iter().min().unwrap_or(&t)) >= opts.drought {
                hit = true;
            }
        }
        droughty += u64::from(hit);
    }
    StreamTables {
        deals: opts.deals,
        runs: histogram(&runs),
        set_runs: histogram(&set_runs),
        bagginess: if windows == 0 {
            0.0
        } else {
            distinct_windows as f64 / windows as f64
        },
        window,
        game_drought: if opts.games == 0 {
            0.0
        } else {
            droughty as f64 / opts.games as f64
        },
    }
}
