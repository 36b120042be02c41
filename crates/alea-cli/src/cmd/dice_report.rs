//! `alea dice`'s reports (dicelab.md §8): the table and its footer, JSON Lines, the SVG chart
//! and `--compare`, for exact distributions (calc) and simulations (eval) alike.
//!
//! Both kinds become an [`Analysis`]: the statement and the library's [`Summary`], which
//! computes the cumulative columns, the moments and the percentiles (exactly, from integer
//! weights: probabilities for calc, roll counts for eval); this module only formats them.

use alea_dicelab::calc::{CalcResult, Outcome};
use alea_dicelab::{Histogram, Percentile, Summary};
use alea_prob::{Moments, Ratio};
use std::fmt::Write as _;

/// How a table is drawn.
#[derive(Clone, Debug)]
pub struct TableStyle {
    /// Draw bars.
    pub bars: bool,
    /// `#` bars instead of block characters.
    pub ascii: bool,
    /// Width of the longest bar.
    pub width: usize,
    /// Print the `exact` column and the fractions in the footer.
    pub exact: bool,
    /// Percentiles to report.
    pub percentiles: Vec<Percentile>,
}

/// Parses `--percentiles` (comma-separated; empty means none).
pub fn parse_percentiles(list: &str) -> Result<Vec<Percentile>, String> {
    Percentile::parse_list(list).map_err(|msg| format!("--percentiles: {msg}"))
}

/// The distribution of one statement, exact or sampled.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The trimmed statement text.
    pub program: String,
    /// The library's reading of the distribution (cumulative columns, percentiles, moments).
    pub summary: Summary,
    /// The `while` threshold in force.
    pub threshold: f32,
    /// The library result the JSON line is read from.
    source: Source,
}

/// Where an [`Analysis`] came from: exactly one of calc's result or eval's histogram.
#[derive(Clone, Debug)]
enum Source {
    Exact(CalcResult),
    Sampled(Histogram),
}

impl Analysis {
    /// An exact distribution.
    pub fn exact(program: &str, result: CalcResult, threshold: f32) -> Analysis {
        Analysis {
            program: program.to_string(),
            summary: result.summary(),
            threshold,
            source: Source::Exact(result),
        }
    }

    /// A simulation's histogram.
    pub fn sampled(program: &str, h: Histogram) -> Analysis {
        Analysis {
            program: program.to_string(),
            summary: Summary::sampled(&h),
            threshold: 0.0,
            source: Source::Sampled(h),
        }
    }

    /// Mean and variance conditional on a numeric result.
    pub fn moments(&self) -> Option<Moments> {
        self.summary.moments()
    }

    /// The table (value, probability, exact, at least, at most, bar) and its footer.
    pub fn table(&self, style: &TableStyle) -> String {
        struct Line {
            value: String,
            p: f64,
            exact: String,
            least: String,
            most: String,
        }
        let fixed = |r: Option<Ratio>| r.map_or("-".to_string(), |r| r.to_fixed(6));
        let rows: Vec<Line> = self
            .summary
            .rows()
            .map(|row| Line {
                value: row
                    .outcome
                    .value()
                    .map_or("()".to_string(), |v| v.to_string()),
                p: row.probability.to_f64(),
                exact: if style.exact {
                    row.probability.to_string()
                } else {
                    String::new()
                },
                least: fixed(row.at_least),
                most: fixed(row.at_most),
            })
            .collect();
        let p_max = rows.iter().map(|r| r.p).fold(0.0, f64::max);
        let p_max = if p_max > 0.0 { p_max } else { 1.0 };
        let exact_w = rows.iter().map(|r| r.exact.len()).max().unwrap_or(0).max(5);
        let mut s = format!("{:>7} {:>12}", "value", "probability");
        if style.exact {
            let _ = write!(s, " {:>exact_w$}", "exact");
        }
        s.push_str(&format!(" {:>9} {:>9}\n", "at least", "at most"));
        for r in &rows {
            let _ = write!(s, "{:>7} {:>12.6}", r.value, r.p);
            if style.exact {
                let _ = write!(s, " {:>exact_w$}", r.exact);
            }
            let _ = write!(s, " {:>9} {:>9}", r.least, r.most);
            if style.bars {
                s.push(' ');
                s.push_str(&bar(r.p, p_max, style));
            }
            s.push('\n');
        }
        s.push_str(&self.footer(style));
        s
    }

    /// mean, sd, min, max, percentiles, `P(())`, truncated mass.
    pub fn footer(&self, style: &TableStyle) -> String {
        let mut s = String::new();
        if let Some(m) = self.moments() {
            let (min, max) = self.summary.range().unwrap_or((0, 0));
            let _ = writeln!(
                s,
                "mean {:.6}  sd {:.6}  min {min}  max {max}",
                m.mean.to_f64(),
                m.sd()
            );
            if style.exact {
                let _ = writeln!(s, "mean = {}  variance = {}", m.mean, m.variance);
            }
            let parts: Vec<String> = style
                .percentiles
                .iter()
                .filter_map(|p| {
                    self.summary
                        .percentile(p)
                        .map(|v| format!("p{}: {v}", p.label))
                })
                .collect();
            if !parts.is_empty() {
                s.push_str(&parts.join("  "));
                s.push('\n');
            }
        }
        let empty = self.summary.empty();
        if empty != Ratio::zero() {
            let _ = write!(s, "P(()) = {}", empty.to_fixed(6));
            if style.exact {
                let _ = write!(s, " = {empty}");
            }
            s.push('\n');
        }
        let truncated = self.summary.truncated_mass();
        if !truncated.is_zero() {
            let _ = write!(s, "truncated mass = {}", truncated.to_fixed(6));
            if style.exact {
                let _ = write!(s, " = {truncated}");
            }
            let _ = writeln!(s, " (while threshold {})", self.threshold);
        }
        s
    }

    /// The JSON line (dicelab.md §8), without the newline.
    pub fn json(&self, exact: bool) -> String {
        // The library writes both lines; this module divides no counts itself.
        match &self.source {
            Source::Exact(r) => r.to_json(&self.program, exact),
            Source::Sampled(h) => h.to_json(&self.program),
        }
    }

    /// The chart series of this distribution.
    pub fn series(&self, name: String) -> alea_plot::DistSeries {
        alea_plot::DistSeries {
            name,
            empty: self.summary.empty().to_f64(),
            outcomes: self
                .summary
                .rows()
                .filter_map(|r| r.outcome.value().map(|v| (v, r.probability.to_f64())))
                .collect(),
        }
    }

    /// `mean M, sd S` (or `no numeric outcome`), for chart titles.
    pub fn summary(&self) -> String {
        match self.moments() {
            Some(m) => format!("mean {}, sd {}", trim6(m.mean.to_f64()), trim6(m.sd())),
            None => "no numeric outcome".to_string(),
        }
    }
}

/// A chart of one distribution: title = the statement, subtitle = mean and sd.
pub fn plot_one(a: &Analysis) -> String {
    alea_plot::DistChart {
        title: a.program.clone(),
        subtitle: a.summary(),
        series: vec![a.series(String::new())],
    }
    .to_svg()
}

/// The overlaid chart of `--compare`.
pub fn plot_compare(all: &[Analysis]) -> String {
    alea_plot::DistChart {
        title: format!("comparison of {} programs", all.len()),
        subtitle: String::new(),
        series: all
            .iter()
            .enumerate()
            .map(|(i, a)| a.series(format!("#{} {} ({})", i + 1, a.program, a.summary())))
            .collect(),
    }
    .to_svg()
}

/// The `--compare` table: one probability column per program over every value, then mean and
/// sd rows. With `exact`, the columns hold fractions.
pub fn compare_table(all: &[Analysis], exact: bool) -> String {
    let mut s = String::new();
    for (i, a) in all.iter().enumerate() {
        let _ = writeln!(s, "#{} {}", i + 1, a.program);
    }
    let mut values: Vec<Outcome> = all
        .iter()
        .flat_map(|a| a.summary.distribution().outcomes().copied())
        .collect();
    values.sort_unstable();
    values.dedup();
    let cell = |a: &Analysis, o: &Outcome| -> String {
        let p = a.summary.probability(o);
        match (exact, p == Ratio::zero()) {
            (true, true) => "0".to_string(),
            (true, false) => p.to_string(),
            (false, _) => p.to_fixed(6),
        }
    };
    let mut table: Vec<(String, Vec<String>)> = values
        .iter()
        .map(|o| {
            let label = o.value().map_or("()".to_string(), |v| v.to_string());
            (label, all.iter().map(|a| cell(a, o)).collect())
        })
        .collect();
    let stat = |f: &dyn Fn(&Moments) -> String| -> Vec<String> {
        all.iter()
            .map(|a| a.moments().map_or("-".to_string(), |m| f(&m)))
            .collect()
    };
    table.push(("mean".into(), stat(&|m| format!("{:.6}", m.mean.to_f64()))));
    table.push(("sd".into(), stat(&|m| format!("{:.6}", m.sd()))));
    let width = table
        .iter()
        .flat_map(|r| r.1.iter().map(String::len))
        .max()
        .unwrap_or(0)
        .max(12);
    let _ = write!(s, "{:>7}", "value");
    for i in 0..all.len() {
        let _ = write!(s, " {:>width$}", format!("#{}", i + 1));
    }
    s.push('\n');
    for (label, cells) in table {
        let _ = write!(s, "{label:>7}");
        for c in cells {
            let _ = write!(s, " {c:>width$}");
        }
        s.push('\n');
    }
    s
}

fn trim6(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

fn bar(p: f64, p_max: f64, style: &TableStyle) -> String {
    if !(p_max > 0.0 && p > 0.0) {
        return String::new();
    }
    let eighths = (p / p_max * style.width as f64 * 8.0).round() as usize;
    if style.ascii {
        return "#".repeat(eighths / 8);
    }
    let mut s = "\u{2588}".repeat(eighths / 8);
    // U+2589..U+258F are 7/8 down to 1/8.
    if !eighths.is_multiple_of(8) {
        s.push(char::from_u32(0x2590 - (eighths % 8) as u32).unwrap_or('#'));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_errors_name_the_option() {
        assert_eq!(parse_percentiles(" 5, 50 ,").map(|v| v.len()), Ok(2));
        assert_eq!(
            parse_percentiles("5,x").unwrap_err(),
            "--percentiles: 'x' is not a number from 0 to 100"
        );
    }

    #[test]
    fn bars_in_eighths_or_ascii() {
        let mut style = TableStyle {
            bars: true,
            ascii: false,
            width: 2,
            exact: false,
            percentiles: vec![],
        };
        assert_eq!(bar(1.0, 1.0, &style), "██");
        assert_eq!(bar(1.0 / 16.0, 1.0, &style), "▏");
        assert_eq!(bar(0.0, 1.0, &style), "");
        style.ascii = true;
        assert_eq!(bar(1.0, 1.0, &style), "##");
    }
}
