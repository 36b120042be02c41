//! Simulated statistics (`--stats`): the N deals a seed would deal, counted in one pass with
//! memory independent of N (histograms grow with the largest gap seen, not with N).

use crate::randomizer::{Piece, Randomizer};
use crate::spec::Spec;
use std::collections::BTreeMap;

/// Gaps below this are counted in a dense array; larger ones in a sorted map.
const DENSE_GAPS: usize = 4096;

/// Dense slots shared by all pieces of one simulation (2 MiB of counts). Without a shared
/// budget a 65,535-piece list grew 65,535 dense arrays of 4096 counts (2.1 GB); now each
/// piece gets at most `DENSE_BUDGET / pieces` slots (at least 16) and larger gaps go to its
/// sorted map, so the dense part no longer grows with the list length.
pub const DENSE_BUDGET: usize = 1 << 18;

/// The observed gaps of one piece.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GapCounts {
    /// Number of gaps observed (occurrences minus one).
    pub count: u64,
    /// Sum of all gaps (for the mean).
    pub sum: u128,
    /// Largest gap, if any was observed.
    pub max: Option<u64>,
    dense: Vec<u64>,
    sparse: BTreeMap<u64, u64>,
    /// Gaps below this use `dense` (0 means the default, [`DENSE_GAPS`]).
    dense_limit: usize,
}

impl GapCounts {
    fn record(&mut self, gap: u64) {
        self.count += 1;
        self.sum += u128::from(gap);
        self.max = Some(self.max.map_or(gap, |m| m.max(gap)));
        if (gap as usize) < self.limit() {
            let g = gap as usize;
            if self.dense.len() <= g {
                self.dense.resize(g + 1, 0);
            }
            self.dense[g] += 1;
        } else {
            *self.sparse.entry(gap).or_insert(0) += 1;
        }
    }

    fn with_limit(dense_limit: usize) -> GapCounts {
        GapCounts {
            dense_limit,
            ..GapCounts::default()
        }
    }

    fn limit(&self) -> usize {
        if self.dense_limit == 0 {
            DENSE_GAPS
        } else {
            self.dense_limit
        }
    }

    /// Counters held: dense slots plus sorted-map entries (the memory this piece uses).
    pub fn stored_counters(&self) -> usize {
        self.dense.len() + self.sparse.len()
    }

    /// Dense slots held (at most the per-piece share of [`DENSE_BUDGET`]).
    pub fn dense_slots(&self) -> usize {
        self.dense.len()
    }

    /// Mean gap, `None` when no gap was observed.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }

    /// `(gap, count)` for every gap observed at least once, ascending.
    pub fn histogram(&self) -> Vec<(u64, u64)> {
        self.dense
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(g, &c)| (g as u64, c))
            .chain(self.sparse.iter().map(|(&g, &c)| (g, c)))
            .collect()
    }

    /// How many gaps equal `g`.
    pub fn at(&self, g: u64) -> u64 {
        if (g as usize) < self.limit() {
            self.dense.get(g as usize).copied().unwrap_or(0)
        } else {
            self.sparse.get(&g).copied().unwrap_or(0)
        }
    }
}

/// Statistics of N simulated deals.
#[derive(Clone, Debug, PartialEq)]
pub struct SimStats {
    /// Piece names.
    pub pieces: Vec<String>,
    /// Deals simulated.
    pub n: u64,
    /// Deals of each piece.
    pub counts: Vec<u64>,
    /// Deals with the name of the deal before.
    pub repeats: u64,
    /// Gaps of each piece.
    pub gaps: Vec<GapCounts>,
}

impl SimStats {
    /// Observed frequency of piece `i`.
    pub fn frequency(&self, i: usize) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.counts[i] as f64 / self.n as f64
        }
    }

    /// Repeats per pair of consecutive deals.
    pub fn repeat_rate(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.repeats as f64 / (self.n - 1) as f64
        }
    }
}

/// Simulates the first `n` deals of `spec` with `seed`.
pub fn simulate(spec: &Spec, seed: u64, n: u64) -> SimStats {
    simulate_randomizer(Randomizer::new(spec, seed), n)
}

/// Simulates the next `n` deals of a dealer.
pub fn simulate_randomizer(mut r: Randomizer, n: u64) -> SimStats {
    let k = r.piece_count();
    let pieces = r.pieces().iter().map(|s| s.to_string()).collect();
    let mut counts = vec![0u64; k];
    let mut last: Vec<Option<u64>> = vec![None; k];
    let share = (DENSE_BUDGET / k.max(1)).clamp(16, DENSE_GAPS);
    let mut gaps = vec![GapCounts::with_limit(share); k];
    let mut repeats = 0;
    let mut previous: Option<Piece> = None;
    for t in 0..n {
        let p = r.deal();
        let i = p.0 as usize;
        counts[i] += 1;
        if previous == Some(p) {
            repeats += 1;
        }
        if let Some(l) = last[i] {
            gaps[i].record(t - l - 1);
        }
        last[i] = Some(t);
        previous = Some(p);
    }
    SimStats {
        pieces,
        n,
        counts,
        repeats,
        gaps,
    }
}
