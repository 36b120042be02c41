//! Eval mode: the histogram of many independent rolls, on all cores.
//!
//! The rolls are split into tasks of [`TASK_ROLLS`] rolls (the last one shorter); task `i`
//! draws from `Rng::stream(seed, i)` (rng.md §3) and the task histograms are merged in task
//! order, so the result depends only on the statement, the roll count and the seed — never on
//! the number of threads.
//!
//! The statement is compiled once ([`crate::sample`], the evaluator roll mode uses too); each
//! task rolls a copy of it, and the first failing roll (in task order) is the error.

use crate::ast::Statement;
use crate::roll::RollError;
use crate::sample::Sampler;
use alea_core::Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Rolls per parallel task.
pub const TASK_ROLLS: u64 = 1 << 16;

/// Counts of outcomes over a number of rolls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    /// How many rolls.
    pub rolls: u64,
    /// How many rolls gave `()`.
    pub empty: u64,
    /// Counts of single values, ascending.
    pub counts: BTreeMap<i32, u64>,
}

impl Histogram {
    fn merge(&mut self, other: Histogram) {
        self.rolls += other.rolls;
        self.empty += other.empty;
        for (v, c) in other.counts {
            *self.counts.entry(v).or_insert(0) += c;
        }
    }

    /// 0.7's probability of a count: `(float)count / (float)rolls`.
    pub fn frequency(&self, count: u64) -> f32 {
        count as f32 / self.rolls as f32
    }
}

/// Dense counts over a window of values, with a map for far-away values.
struct Tally {
    lo: i64,
    dense: Vec<u64>,
    sparse: BTreeMap<i32, u64>,
}

const DENSE_MAX: i64 = 1 << 16;

impl Tally {
    fn new() -> Tally {
        Tally {
            lo: 0,
            dense: Vec::new(),
            sparse: BTreeMap::new(),
        }
    }

    /// The common case (a value inside the window) inline in the roll loop; the first value
    /// (an empty window contains nothing) and the others out of line.
    #[inline(always)]
    fn add(&mut self, v: i32) {
        // A value below the window wraps to an offset past any window: one test.
        let idx = (i64::from(v) - self.lo) as u64;
        if idx < self.dense.len() as u64 {
            self.dense[idx as usize] += 1;
            return;
        }
        self.add_outside(v);
    }

    #[cold]
    #[inline(never)]
    fn add_outside(&mut self, v: i32) {
        let v64 = i64::from(v);
        if self.dense.is_empty() {
            self.lo = v64;
            self.dense.push(0);
        }
        let idx = v64 - self.lo;
        if idx >= 0 && (idx as usize) < self.dense.len() {
            self.dense[idx as usize] += 1;
            return;
        }
        // Grow the window when it stays small, else count sparsely.
        let new_lo = self.lo.min(v64);
        let new_hi = (self.lo + self.dense.len() as i64 - 1).max(v64);
        if new_hi - new_lo < DENSE_MAX {
            if new_lo < self.lo {
                let shift = (self.lo - new_lo) as usize;
                let mut grown = vec![0; shift];
                grown.extend_from_slice(&self.dense);
                self.dense = grown;
                self.lo = new_lo;
            }
            let len = (new_hi - new_lo + 1) as usize;
            self.dense.resize(len, 0);
            self.dense[(v64 - self.lo) as usize] += 1;
        } else {
            *self.sparse.entry(v).or_insert(0) += 1;
        }
    }

    fn into_counts(self) -> BTreeMap<i32, u64> {
        let mut counts = self.sparse;
        for (i, &c) in self.dense.iter().enumerate() {
            if c > 0 {
                *counts.entry((self.lo + i as i64) as i32).or_insert(0) += c;
            }
        }
        counts
    }
}

fn run_task(sampler: &Sampler, mut rng: Rng, rolls: u64) -> Result<Histogram, RollError> {
    let mut sampler = sampler.clone();
    let mut tally = Tally::new();
    let mut empty = 0;
    // Rolls too short to reach a step poll still stop on a host's time limit: polled before
    // rolls 1023, 2047, … (after every 1024 rolls but the first 1023).
    let mut done = 0;
    while done < rolls {
        if done > 0 && alea_core::Cancel::requested() {
            return Err(crate::ops::cancelled(sampler.span()));
        }
        let chunk = (if done == 0 { 1023 } else { 1024 }).min(rolls - done);
        sampler.roll_many(&mut rng, chunk, |v| match v {
            Some(v) => tally.add(v),
            None => empty += 1,
        })?;
        done += chunk;
    }
    Ok(Histogram {
        rolls,
        empty,
        counts: tally.into_counts(),
    })
}

/// Deepest compiled form evaluated on rayon's worker threads.
const PARALLEL_MAX_DEPTH: usize = 256;

/// The histogram of `rolls` rolls of `statement` with task streams derived from `seed`. A roll
/// that fails, or gives a list of two or more values, fails the whole evaluation (the error of
/// the first failing task, in task order).
pub fn eval(statement: &Statement, rolls: u64, seed: u64) -> Result<Histogram, RollError> {
    let sampler = &Sampler::new(statement);
    let tasks = rolls.div_ceil(TASK_ROLLS);
    let mut streams = Vec::with_capacity(tasks as usize);
    let mut rng = Rng::seed_from_u64(seed);
    for i in 0..tasks {
        if i > 0 {
            rng.jump();
        }
        let size = TASK_ROLLS.min(rolls - i * TASK_ROLLS);
        streams.push((rng.clone(), size));
    }
    // Rayon's workers have small stacks and the evaluator recurses as deep as the compiled
    // form nests (a chain such as `sum sum … 1` is one node): deeply nested statements run
    // their tasks here, in the same order, which gives the same result. With one thread the tasks run here too: handing them to a worker only
    // adds a wake-up (which a loaded machine makes slow).
    let serial = sampler.depth() > PARALLEL_MAX_DEPTH || rayon::current_num_threads() == 1;
    // Rayon's workers run under the caller's time limit too.
    let cancel = alea_core::Cancel::current();
    let parts: Vec<Result<Histogram, RollError>> = if serial {
        streams
            .into_iter()
            .map(|(rng, size)| run_task(sampler, rng, size))
            .collect()
    } else {
        streams
            .into_par_iter()
            .map(|(rng, size)| cancel.scope(|| run_task(sampler, rng, size)))
            .collect()
    };
    let mut total = Histogram::default();
    for part in parts {
        total.merge(part?);
    }
    Ok(total)
}
