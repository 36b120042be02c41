//! One place that turns a text into a randomizer and a randomizer into its statistics: the
//! CLI, the playground and the C ABI only format an [`Analysis`].

use crate::exact::{ExactError, ExactOptions, ExactStats, exact, exact_preset};
use crate::presets::{BUILTIN_PRESETS, UnknownPreset, preset_names, preset_spec};
use crate::randomizer::Randomizer;
use crate::sim::{SimStats, simulate_randomizer};
use crate::spec::{Core, Spec, SpecError};
use alea_prob::Ratio;
use std::fmt;

/// A randomizer by what its user wrote: Blackjack text (spec presets expand to it) or a
/// built-in preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A spec, from text or from a spec preset.
    Spec(Spec),
    /// A built-in preset with its own dealer (`nes`, `tgm3`, `pairs`).
    Builtin(&'static str),
}

/// Why a text names no randomizer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// The text is not a valid spec.
    Spec(SpecError),
    /// A preset name that does not exist (also a one-word text that looks like one).
    UnknownPreset(UnknownPreset),
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Spec(e) => e.fmt(f),
            ResolveError::UnknownPreset(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ResolveError {}

/// Edit distance (insertions, deletions, substitutions) between two short names.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// The preset names closest to `name` (at most two edits, case ignored), best first.
pub fn similar_presets(name: &str) -> Vec<&'static str> {
    let lower = name.to_ascii_lowercase();
    let mut scored: Vec<(usize, &'static str)> = preset_names()
        .into_iter()
        .map(|p| (distance(&lower, p), p))
        .filter(|&(d, _)| d <= 2)
        .collect();
    scored.sort();
    let best = scored.first().map_or(0, |s| s.0);
    scored
        .into_iter()
        .filter(|s| s.0 == best)
        .map(|s| s.1)
        .collect()
}

impl Source {
    /// A preset by name.
    pub fn preset(name: &str) -> Result<Source, UnknownPreset> {
        if let Some(text) = preset_spec(name) {
            let spec = Spec::parse(text).expect("preset specs parse");
            return Ok(Source::Spec(spec));
        }
        match BUILTIN_PRESETS.iter().find(|&&b| b == name) {
            Some(b) => Ok(Source::Builtin(b)),
            None => Err(UnknownPreset::new(name)),
        }
    }

    /// Resolves a spec text or preset name. One rule, for every front end: a text that is
    /// exactly a preset's name is that preset; anything else is a spec, except that a
    /// one-word, one-piece list within two edits of a preset name (`tgm9`) is taken as a
    /// mistyped preset, since a one-piece list deals the same piece forever (write
    /// `1 bag of tgm9` for that).
    pub fn resolve(text: &str) -> Result<Source, ResolveError> {
        let word = text.trim();
        if preset_names().contains(&word) {
            return Source::preset(word).map_err(ResolveError::UnknownPreset);
        }
        let spec = Spec::parse(text).map_err(ResolveError::Spec)?;
        if spec.cards.len() == 1 && matches!(spec.core, Core::List) && spec.first.is_none() {
            let similar = similar_presets(word);
            if !similar.is_empty() {
                return Err(ResolveError::UnknownPreset(UnknownPreset {
                    name: word.to_string(),
                    similar,
                }));
            }
        }
        Ok(Source::Spec(spec))
    }

    /// The canonical spec, or the built-in preset's name.
    pub fn label(&self) -> String {
        match self {
            Source::Spec(s) => s.to_string(),
            Source::Builtin(n) => n.to_string(),
        }
    }

    /// The spec, `None` for a built-in preset.
    pub fn spec(&self) -> Option<&Spec> {
        match self {
            Source::Spec(s) => Some(s),
            Source::Builtin(_) => None,
        }
    }

    /// A dealer seeded with `seed`.
    pub fn randomizer(&self, seed: u64) -> Randomizer {
        match self {
            Source::Spec(s) => Randomizer::new(s, seed),
            Source::Builtin(n) => Randomizer::preset(n, seed).expect("built-in preset exists"),
        }
    }

    /// Exact long-run statistics.
    pub fn exact(&self, opts: &ExactOptions) -> Result<ExactStats, ExactError> {
        match self {
            Source::Spec(s) => exact(s, opts),
            Source::Builtin(n) => exact_preset(n, opts).expect("built-in preset exists"),
        }
    }

    /// Warnings about the spec (never errors).
    pub fn warnings(&self) -> Vec<String> {
        self.spec().map_or_else(Vec::new, Spec::warnings)
    }
}

/// Deals the first `n` pieces of a spec text or preset name with `seed`, by name: the
/// one-call form of [`Source::resolve`] and [`Randomizer`].
pub fn deal(text: &str, seed: u64, n: usize) -> Result<Vec<String>, ResolveError> {
    let mut r = Source::resolve(text)?.randomizer(seed);
    Ok((0..n)
        .map(|_| {
            let p = r.deal();
            r.name(p).to_string()
        })
        .collect())
}

/// What [`analyse`] does when there is no exact answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// Return the error.
    None,
    /// Simulate `deals` deals from `seed` instead.
    Simulate {
        /// Seed of the simulation.
        seed: u64,
        /// Deals simulated.
        deals: u64,
    },
}

/// Options of [`analyse`].
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// Options of the exact analysis.
    pub exact: ExactOptions,
    /// Simulate rather than compute (`--stats`).
    pub simulate: Option<(u64, u64)>,
    /// What to do when the exact analysis is impossible.
    pub fallback: Fallback,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            exact: ExactOptions::default(),
            simulate: None,
            fallback: Fallback::None,
        }
    }
}

/// How an [`Analysis`] was obtained.
#[derive(Clone, Debug, PartialEq)]
pub enum Law {
    /// Exact fractions.
    Exact(ExactStats),
    /// Counted over simulated deals.
    Simulated {
        /// The counts.
        stats: SimStats,
        /// The seed.
        seed: u64,
        /// Why the exact analysis was not used (`None` when simulation was asked for).
        why: Option<ExactError>,
    },
}

/// A probability, exact when the analysis is.
#[derive(Clone, Debug, PartialEq)]
pub enum Prob {
    /// An exact fraction.
    Exact(Ratio),
    /// An observed frequency.
    Observed(f64),
}

impl Prob {
    /// The nearest `f64`.
    pub fn to_f64(&self) -> f64 {
        match self {
            Prob::Exact(r) => r.to_f64(),
            Prob::Observed(x) => *x,
        }
    }
}

/// The statistics of one randomizer, exact or simulated, with the derived tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The canonical spec or preset name.
    pub label: String,
    /// Piece names.
    pub pieces: Vec<String>,
    /// The underlying numbers.
    pub law: Law,
}

/// Exact statistics of `source`, or simulated ones when asked (`opts.simulate`) or when the
/// exact analysis is impossible and `opts.fallback` says to simulate.
pub fn analyse(source: &Source, opts: &AnalysisOptions) -> Result<Analysis, ExactError> {
    let simulated = |seed: u64, deals: u64, why: Option<ExactError>| {
        let stats = simulate_randomizer(source.randomizer(seed), deals);
        Analysis {
            label: source.label(),
            pieces: stats.pieces.clone(),
            law: Law::Simulated { stats, seed, why },
        }
    };
    if let Some((seed, deals)) = opts.simulate {
        return Ok(simulated(seed, deals, None));
    }
    match source.exact(&opts.exact) {
        Ok(e) => Ok(Analysis {
            label: source.label(),
            pieces: e.pieces.clone(),
            law: Law::Exact(e),
        }),
        Err(err) => match opts.fallback {
            Fallback::None => Err(err),
            Fallback::Simulate { seed, deals } => Ok(simulated(seed, deals, Some(err))),
        },
    }
}

impl Analysis {
    /// True when every number is an exact fraction.
    pub fn is_exact(&self) -> bool {
        matches!(self.law, Law::Exact(_))
    }

    /// Long-run frequency of piece `i`.
    pub fn frequency(&self, i: usize) -> Prob {
        match &self.law {
            Law::Exact(e) => Prob::Exact(e.frequency[i].clone()),
            Law::Simulated { stats, .. } => Prob::Observed(stats.frequency(i)),
        }
    }

    /// P(a deal has the name of the one before).
    pub fn repeat(&self) -> Prob {
        match &self.law {
            Law::Exact(e) => Prob::Exact(e.repeat_probability.clone()),
            Law::Simulated { stats, .. } => Prob::Observed(stats.repeat_rate()),
        }
    }

    /// P(gap = g) for piece `i` and every g from 0 to the last listed or observed gap.
    pub fn gap_law(&self, i: usize) -> Vec<Prob> {
        match &self.law {
            Law::Exact(e) => e.gaps[i]
                .distribution
                .iter()
                .map(|r| Prob::Exact(r.clone()))
                .collect(),
            Law::Simulated { stats, .. } => {
                let g = &stats.gaps[i];
                let total = g.count.max(1) as f64;
                let last = g.max.unwrap_or(0);
                (0..=last)
                    .map(|k| Prob::Observed(g.at(k) as f64 / total))
                    .collect()
            }
        }
    }

    /// The largest gap of piece `i`: exact (`None` = unbounded) or the largest observed.
    pub fn max_gap(&self, i: usize) -> Option<u64> {
        match &self.law {
            Law::Exact(e) => e.gaps[i].max_gap,
            Law::Simulated { stats, .. } => stats.gaps[i].max,
        }
    }

    /// P(gap ≥ k) for piece `i`: exact for every k up to one past the last listed gap (the
    /// cut-off tail included), `None` beyond.
    pub fn gap_at_least(&self, i: usize, k: u64) -> Option<Prob> {
        match &self.law {
            Law::Exact(e) => {
                let g = &e.gaps[i];
                let listed = g.distribution.len() as u64;
                if k > listed && g.max_gap.is_none() {
                    return None;
                }
                let beyond = g
                    .distribution
                    .iter()
                    .skip(k as usize)
                    .fold(g.tail.clone(), |a, b| &a + b);
                Some(Prob::Exact(beyond))
            }
            Law::Simulated { stats, .. } => {
                let g = &stats.gaps[i];
                let total = g.count.max(1) as f64;
                let below: u64 = (0..k.min(g.max.map_or(0, |m| m + 1)))
                    .map(|j| g.at(j))
                    .sum();
                Some(Prob::Observed((g.count - below) as f64 / total))
            }
        }
    }

    /// P(gap ≥ k) of the piece just dealt (the pieces' laws mixed by frequency).
    pub fn mixed_gap_at_least(&self, k: u64) -> Option<Prob> {
        match &self.law {
            Law::Exact(e) => {
                let mut acc = Ratio::zero();
                for i in 0..self.pieces.len() {
                    let Some(Prob::Exact(p)) = self.gap_at_least(i, k) else {
                        return None;
                    };
                    acc = &acc + &(&e.frequency[i] * &p);
                }
                Some(Prob::Exact(acc))
            }
            Law::Simulated { stats, .. } => {
                let total: u64 = stats.gaps.iter().map(|g| g.count).sum();
                let mut at_least = 0.0;
                for (i, g) in stats.gaps.iter().enumerate() {
                    if let Some(p) = self.gap_at_least(i, k) {
                        at_least += p.to_f64() * g.count as f64;
                    }
                }
                Some(Prob::Observed(at_least / total.max(1) as f64))
            }
        }
    }

    /// Mean gap of piece `i`. Exact laws use Kac's formula (mean return time 1/frequency),
    /// so the cut-off tail is included.
    pub fn mean_gap(&self, i: usize) -> Prob {
        match &self.law {
            Law::Exact(e) => Prob::Exact(e.mean_gap(i)),
            Law::Simulated { stats, .. } => Prob::Observed(stats.gaps[i].mean().unwrap_or(0.0)),
        }
    }

    /// Variance of the gap of the piece just dealt (the pieces mixed by frequency): exact,
    /// tail included, for exact laws (`None` if a chain was too large for it).
    pub fn mixed_gap_variance(&self) -> Option<Prob> {
        match &self.law {
            Law::Exact(e) => {
                let (mut second, mut mean) = (Ratio::zero(), Ratio::zero());
                for (i, f) in e.frequency.iter().enumerate() {
                    second = &second + &(f * e.gaps[i].second_moment.as_ref()?);
                    let Prob::Exact(m) = self.mean_gap(i) else {
                        return None;
                    };
                    mean = &mean + &(f * &m);
                }
                Some(Prob::Exact(&second - &(&mean * &mean)))
            }
            Law::Simulated { stats, .. } => {
                let (mut n, mut sum, mut sq) = (0f64, 0f64, 0f64);
                for g in &stats.gaps {
                    for (k, c) in g.histogram() {
                        let (k, c) = (k as f64, c as f64);
                        n += c;
                        sum += k * c;
                        sq += k * k * c;
                    }
                }
                let m = sum / n.max(1.0);
                Some(Prob::Observed((sq / n.max(1.0) - m * m).max(0.0)))
            }
        }
    }

    /// The gap law of the piece just dealt, mixed over pieces by frequency, as decimals.
    pub fn mixed_gap_law(&self) -> Vec<f64> {
        let mut mixed: Vec<f64> = Vec::new();
        for i in 0..self.pieces.len() {
            let w = match &self.law {
                Law::Exact(e) => e.frequency[i].to_f64(),
                Law::Simulated { stats, .. } => {
                    let total: u64 = stats.gaps.iter().map(|g| g.count).sum();
                    stats.gaps[i].count as f64 / total.max(1) as f64
                }
            };
            for (k, p) in self.gap_law(i).iter().enumerate() {
                if mixed.len() <= k {
                    mixed.resize(k + 1, 0.0);
                }
                mixed[k] += w * p.to_f64();
            }
        }
        mixed
    }

    /// The largest gap over all pieces (`None` when some piece's gaps are unbounded).
    pub fn overall_max_gap(&self) -> Option<u64> {
        (0..self.pieces.len())
            .map(|i| self.max_gap(i))
            .try_fold(0u64, |a, m| m.map(|m| a.max(m)))
    }
}
