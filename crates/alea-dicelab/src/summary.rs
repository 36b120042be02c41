//! The one reading of a statement's distribution that every front end displays: the
//! cumulative columns P(X ≥ v) and P(X ≤ v), the percentiles, the moments and P(()).
//!
//! A [`Summary`] is built from calc's exact [`CalcResult`] or from eval's [`Histogram`] (whose
//! counts are integer weights over the roll count), so both are read by the same exact code:
//! `alea dice`'s table and JSON, the REPL and the playground only format its numbers.
//!
//! ```
//! use alea_core::SourceFile;
//! use alea_dicelab::{Modes, Percentile, Session, SessionOptions};
//!
//! let file = SourceFile::new("<expr>", "sum(2#d6)");
//! let (program, _) = alea_dicelab::parse(&file);
//! let mut session = Session::new(SessionOptions { modes: Modes::CALC, ..Default::default() }, 1);
//! let report = session.run(&program.statements[0]);
//! let summary = report.summary().expect("a distribution");
//! let rows: Vec<_> = summary.rows().collect();
//! assert_eq!(rows[10].at_least.as_ref().map(|r| r.to_string()), Some("1/36".to_string()));
//! assert_eq!(rows[5].at_most.as_ref().map(|r| r.to_string()), Some("7/12".to_string()));
//! let median = Percentile::parse("50").expect("a percentile");
//! assert_eq!(summary.percentile(&median), Some(7));
//! ```

use crate::calc::{CalcResult, Outcome};
use crate::eval::Histogram;
use alea_prob::{Dist, Moments, Ratio, Weight};
use std::sync::Arc;

/// A percentile `p` = `numer / scale` per cent, kept exact as written (`97.5` is 975/10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Percentile {
    /// The text given, for labels (`p97.5`).
    pub label: String,
    numer: u128,
    scale: u128,
}

impl Percentile {
    /// Parses a decimal from 0 to 100 with at most 6 decimals (`5`, `97.5`); `None` otherwise.
    pub fn parse(text: &str) -> Option<Percentile> {
        let t = text.trim();
        let (int, frac) = t.split_once('.').unwrap_or((t, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int.is_empty() && frac.is_empty() || !digits(int) || !digits(frac) || int.len() > 3 {
            return None;
        }
        if frac.len() > 6 {
            return None;
        }
        let scale = 10u128.pow(frac.len() as u32);
        let numer = format!("{int}{frac}").parse::<u128>().ok()?;
        (numer <= 100 * scale).then(|| Percentile {
            label: t.to_string(),
            numer,
            scale,
        })
    }

    /// Parses a comma-separated list (`5,25,50`; empty items are skipped), or names the item
    /// that is not a percentile.
    pub fn parse_list(list: &str) -> Result<Vec<Percentile>, String> {
        list.split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| {
                Percentile::parse(s)
                    .ok_or_else(|| format!("'{}' is not a number from 0 to 100", s.trim()))
            })
            .collect()
    }
}

/// One outcome of a [`Summary`] with its exact probability and, for a value, its cumulative
/// probabilities among the numeric outcomes (`None` for `()`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The outcome.
    pub outcome: Outcome,
    /// P(outcome).
    pub probability: Ratio,
    /// P(X ≥ v | X is a value).
    pub at_least: Option<Ratio>,
    /// P(X ≤ v | X is a value).
    pub at_most: Option<Ratio>,
}

/// A statement's distribution (exact or sampled) read the one way every front end shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Shared with the [`CalcResult`] it reads, if any.
    dist: Arc<Dist<Outcome>>,
    truncated: Ratio,
}

impl Summary {
    /// The exact distribution of calc.
    pub fn exact(result: &CalcResult) -> Summary {
        Summary {
            dist: result.shared_distribution(),
            truncated: result.truncated_mass().clone(),
        }
    }

    /// A simulation: each outcome weighted by its roll count.
    pub fn sampled(h: &Histogram) -> Summary {
        let weights = std::iter::once((Outcome::Empty, Weight::from(h.empty))).chain(
            h.counts
                .iter()
                .map(|(&v, &c)| (Outcome::Value(v), Weight::from(c))),
        );
        // A histogram has at least one roll; a zero-roll one reads as certain ().
        let dist = Dist::from_weights(weights).unwrap_or_else(|_| Dist::certain(Outcome::Empty));
        Summary {
            dist: Arc::new(dist),
            truncated: Ratio::zero(),
        }
    }

    /// The distribution, ascending with `()` first.
    pub fn distribution(&self) -> &Dist<Outcome> {
        &self.dist
    }

    /// The exact probability of `outcome` (0 when impossible).
    pub fn probability(&self, outcome: &Outcome) -> Ratio {
        self.dist.probability(outcome)
    }

    /// P(()).
    pub fn empty(&self) -> Ratio {
        self.dist.probability(&Outcome::Empty)
    }

    /// The probability of the paths on which a `while` was cut (zero for a simulation).
    pub fn truncated_mass(&self) -> &Ratio {
        &self.truncated
    }

    /// Mean and variance conditional on a numeric result; `None` when every outcome is `()`.
    pub fn moments(&self) -> Option<Moments> {
        moments(&self.dist)
    }

    /// The smallest and largest values; `None` when every outcome is `()`.
    pub fn range(&self) -> Option<(i32, i32)> {
        let mut values = self.dist.outcomes().filter_map(|o| o.value());
        let lo = values.next()?;
        Some((lo, values.next_back().unwrap_or(lo)))
    }

    fn numeric_total(&self) -> Weight {
        self.dist.total().sub(&self.dist.weight(&Outcome::Empty))
    }

    /// Every outcome in order with P, P(X ≥ v) and P(X ≤ v), computed lazily (a front end
    /// listing only the first rows pays only for those).
    pub fn rows(&self) -> impl Iterator<Item = Row> + '_ {
        let total = self.dist.total();
        let numeric = self.numeric_total();
        let mut below = Weight::ZERO;
        self.dist.iter().map(move |(o, w)| {
            let probability = Ratio::from_weights(w, total);
            let (at_least, at_most) = match o {
                Outcome::Empty => (None, None),
                Outcome::Value(_) => {
                    let least = Ratio::from_weights(&numeric.sub(&below), &numeric);
                    below.add_assign(w);
                    (Some(least), Some(Ratio::from_weights(&below, &numeric)))
                }
            };
            Row {
                outcome: *o,
                probability,
                at_least,
                at_most,
            }
        })
    }

    /// The smallest v with P(X ≤ v | numeric) ≥ p, compared exactly; `None` when every
    /// outcome is `()`.
    pub fn percentile(&self, p: &Percentile) -> Option<i32> {
        let numeric = self.numeric_total();
        if numeric.is_zero() {
            return None;
        }
        let target = numeric.mul(&Weight::from(p.numer));
        let factor = Weight::from(100 * p.scale);
        let mut acc = Weight::ZERO;
        let mut last = None;
        for (o, w) in self.dist.iter() {
            if let Outcome::Value(v) = o {
                acc.add_assign(w);
                last = Some(*v);
                if acc.mul(&factor) >= target {
                    return Some(*v);
                }
            }
        }
        last
    }
}

/// Mean and variance of the numeric outcomes: the one implementation behind
/// [`Summary::moments`], [`CalcResult::moments`] and both JSON lines.
pub(crate) fn moments(dist: &Dist<Outcome>) -> Option<Moments> {
    dist.moments(|o| o.value().map(i64::from))
}

/// What a JSON line adds to the outcomes and moments.
pub(crate) enum JsonExtra<'a> {
    /// calc: the `exact` fraction of each outcome (when asked) and the truncated mass.
    Exact { exact: bool, truncated: &'a Ratio },
    /// eval: the roll count and each outcome's count.
    Sampled(&'a Histogram),
}

/// The JSON line of `alea dice --json` (dicelab.md §8), without the newline, for calc and
/// eval alike: keys `program`, (`rolls`), `outcomes` (`value` null for `()`, (`count`),
/// `probability` as the nearest f64 of the exact ratio, (`exact`)), `mean`, `sd`,
/// (`truncated_mass`). Front ends print it; none divides counts itself.
pub(crate) fn json_line(program: &str, dist: &Dist<Outcome>, extra: JsonExtra<'_>) -> String {
    use std::fmt::Write as _;
    let mut out = String::from("{\"program\":");
    out.push_str(&json_string(program.trim()));
    if let JsonExtra::Sampled(h) = &extra {
        let _ = write!(out, ",\"rolls\":{}", h.rolls);
    }
    out.push_str(",\"outcomes\":[");
    let total = dist.total();
    for (i, (o, w)) in dist.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let p = Ratio::from_weights(w, total);
        let value = o.value().map_or("null".to_string(), |v| v.to_string());
        let _ = write!(out, "{{\"value\":{value}");
        if let JsonExtra::Sampled(h) = &extra {
            let count = match o {
                Outcome::Empty => h.empty,
                Outcome::Value(v) => h.counts.get(v).copied().unwrap_or(0),
            };
            let _ = write!(out, ",\"count\":{count}");
        }
        let _ = write!(out, ",\"probability\":{}", json_f64(p.to_f64()));
        if let JsonExtra::Exact { exact: true, .. } = &extra {
            let _ = write!(out, ",\"exact\":{}", json_string(&p.to_string()));
        }
        out.push('}');
    }
    out.push_str("],");
    match moments(dist) {
        Some(m) => {
            let _ = write!(
                out,
                "\"mean\":{},\"sd\":{}",
                json_f64(m.mean.to_f64()),
                json_f64(m.sd())
            );
        }
        None => out.push_str("\"mean\":null,\"sd\":null"),
    }
    if let JsonExtra::Exact { truncated, .. } = &extra {
        let _ = write!(out, ",\"truncated_mass\":{}", json_f64(truncated.to_f64()));
    }
    out.push('}');
    out
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialise")
}

fn json_f64(x: f64) -> String {
    // NaN and infinities cannot occur (probabilities and moments of finite weights), but a
    // JSON line must stay valid whatever happens.
    serde_json::to_string(&x).unwrap_or_else(|_| "null".to_string())
}

impl Histogram {
    /// The JSON line of `alea dice --json -e` (dicelab.md §8), without the newline: keys
    /// `program`, `rolls`, `outcomes` (`value` null for `()`, `count`, `probability`),
    /// `mean`, `sd`, all read through the same [`Summary`] as the table.
    pub fn to_json(&self, program: &str) -> String {
        json_line(
            program,
            Summary::sampled(self).distribution(),
            JsonExtra::Sampled(self),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_parse_exactly() {
        let p = Percentile::parse("97.5").expect("valid");
        assert_eq!((p.numer, p.scale), (975, 10));
        assert!(Percentile::parse("100").is_some() && Percentile::parse("0").is_some());
        for bad in ["", ".", "101", "-1", "5%", "1e2", "50.0000001"] {
            assert!(Percentile::parse(bad).is_none(), "{bad}");
        }
        assert_eq!(Percentile::parse_list(" 5, 50 ,").map(|v| v.len()), Ok(2));
        assert_eq!(
            Percentile::parse_list("5,x").unwrap_err(),
            "'x' is not a number from 0 to 100"
        );
    }

    #[test]
    fn a_histogram_reads_like_a_distribution() {
        let h = Histogram {
            rolls: 4,
            empty: 1,
            counts: [(1, 1), (3, 2)].into_iter().collect(),
        };
        let s = Summary::sampled(&h);
        assert_eq!(s.empty(), Ratio::from_u64(1, 4));
        let rows: Vec<Row> = s.rows().collect();
        assert_eq!(rows[0].outcome, Outcome::Empty);
        assert_eq!(rows[0].at_least, None);
        assert_eq!(rows[1].at_least, Some(Ratio::one()));
        assert_eq!(rows[1].at_most, Some(Ratio::from_u64(1, 3)));
        assert_eq!(rows[2].at_least, Some(Ratio::from_u64(2, 3)));
        assert_eq!(rows[2].at_most, Some(Ratio::one()));
        assert_eq!(s.range(), Some((1, 3)));
        let p = |t| Percentile::parse(t).expect("valid");
        assert_eq!(s.percentile(&p("33")), Some(1));
        assert_eq!(s.percentile(&p("33.34")), Some(3));
        assert_eq!(s.percentile(&p("0")), Some(1));
    }
}
