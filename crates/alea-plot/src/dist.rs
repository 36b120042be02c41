//! The distribution chart of `alea dice --plot` (dicelab.md §8): one bar per outcome on a
//! probability axis, the empty outcome `()` set apart at the left, and an "at least" polyline
//! per distribution on a right axis from 0 to 100 %.

use crate::svg::{PALETTE, escape, nice_scale, num, tick_label, value_label};
use std::fmt::Write;

/// One distribution: the probability of `()` and of each integer outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct DistSeries {
    /// Legend text (the program, with its mean and sd, say). No legend for a single series.
    pub name: String,
    /// P(()), 0 when the empty outcome cannot happen.
    pub empty: f64,
    /// (value, probability) of the integer outcomes; any order, values distinct.
    pub outcomes: Vec<(i32, f64)>,
}

/// A chart of one or more distributions over the same values (`--compare` overlays several).
#[derive(Clone, Debug, PartialEq)]
pub struct DistChart {
    /// First line on top (the statement, usually); escaped when written.
    pub title: String,
    /// Second line on top (mean and sd, usually); may be empty.
    pub subtitle: String,
    /// The distributions.
    pub series: Vec<DistSeries>,
}

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 450.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 60.0;
const TOP: f64 = 60.0;
const BOTTOM: f64 = 55.0;

impl DistChart {
    /// The chart as a standalone SVG 1.1 document, 800×450, with no external references.
    /// Coordinates have at most two decimals; the same chart gives the same bytes.
    ///
    /// ```
    /// use alea_plot::{DistChart, DistSeries};
    ///
    /// let chart = DistChart {
    ///     title: "if >3 d6 then d2 else ()".into(),
    ///     subtitle: "mean 1.5, sd 0.5".into(),
    ///     series: vec![DistSeries {
    ///         name: String::new(),
    ///         empty: 0.5,
    ///         outcomes: vec![(1, 0.25), (2, 0.25)],
    ///     }],
    /// };
    /// let svg = chart.to_svg();
    /// assert!(svg.contains("&gt;3 d6") && svg.contains(">()</text>"));
    /// assert_eq!(svg.matches("<rect x=").count(), 3);
    /// assert_eq!(svg, chart.to_svg());
    /// ```
    pub fn to_svg(&self) -> String {
        let values = self.values();
        let has_empty = self.series.iter().any(|s| s.empty > 0.0);
        let plot_w = WIDTH - LEFT - RIGHT;
        let plot_h = HEIGHT - TOP - BOTTOM;
        // `()` gets the first slot, then half a slot of gap before the values.
        let lead = if has_empty { 1.5 } else { 0.0 };
        let slots = values.len() as f64 + lead;
        let slot = plot_w / slots.max(1.0);
        let x_of = |i: usize| LEFT + slot * (lead + i as f64);
        let max = self
            .series
            .iter()
            .flat_map(|s| s.outcomes.iter().map(|o| o.1).chain([s.empty]))
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        let (step, top) = nice_scale(max);
        let bottom = TOP + plot_h;
        let y_of = |p: f64| bottom - (p / top) * plot_h;
        let y_pct = |pct: f64| bottom - pct / 100.0 * plot_h;

        let mut s = String::new();
        let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 800 450" width="800" height="450" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(s, r#"<rect width="800" height="450" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="400" y="24" text-anchor="middle" font-size="16">{}</text>"#,
            escape(&self.title)
        );
        if !self.subtitle.is_empty() {
            let _ = writeln!(
                s,
                r#"<text x="400" y="44" text-anchor="middle">{}</text>"#,
                escape(&self.subtitle)
            );
        }
        // Left axis: probability, with grid lines.
        let ticks = (top / step).round() as usize;
        for i in 0..=ticks {
            let v = step * i as f64;
            let y = y_of(v);
            let _ = writeln!(
                s,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">{}</text>"##,
                num(LEFT),
                num(y),
                num(LEFT + plot_w),
                num(y),
                num(LEFT - 6.0),
                num(y + 4.0),
                tick_label(v, step)
            );
        }
        // Right axis: at least, 0–100 %.
        for pct in (0..=100).step_by(20) {
            let y = y_pct(f64::from(pct));
            let _ = writeln!(
                s,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#333"/><text x="{}" y="{}">{pct}%</text>"##,
                num(LEFT + plot_w),
                num(y),
                num(LEFT + plot_w + 4.0),
                num(y),
                num(LEFT + plot_w + 7.0),
                num(y + 4.0),
            );
        }
        let k = self.series.len().max(1) as f64;
        let bar = slot * 0.8 / k;
        for (j, series) in self.series.iter().enumerate() {
            let colour = PALETTE[j % PALETTE.len()];
            let mut bars = Vec::with_capacity(values.len() + 1);
            if series.empty > 0.0 {
                bars.push((LEFT, "()".to_string(), series.empty));
            }
            for &(v, p) in &series.outcomes {
                let i = values.binary_search(&v).unwrap_or(0);
                bars.push((x_of(i), v.to_string(), p));
            }
            for (x0, label, p) in bars {
                if !(p.is_finite() && p > 0.0) {
                    continue;
                }
                let x = x0 + slot * 0.1 + bar * j as f64;
                let y = y_of(p);
                let _ = writeln!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{colour}"><title>{}: {}</title></rect>"#,
                    num(x),
                    num(y),
                    num(bar),
                    num(bottom - y),
                    escape(&label),
                    value_label(p)
                );
            }
        }
        // "At least" polylines: P(X ≥ v | numeric) at each value's slot centre.
        for (j, series) in self.series.iter().enumerate() {
            let colour = PALETTE[j % PALETTE.len()];
            let numeric: f64 = series.outcomes.iter().map(|o| o.1).sum();
            if numeric <= 0.0 {
                continue;
            }
            let mut sorted = series.outcomes.clone();
            sorted.sort_by_key(|o| o.0);
            let mut below = 0.0;
            let mut next = sorted.iter().peekable();
            let mut points = Vec::with_capacity(values.len());
            for (i, &v) in values.iter().enumerate() {
                while let Some(&&(w, p)) = next.peek() {
                    if w >= v {
                        break;
                    }
                    below += p;
                    next.next();
                }
                let pct = ((numeric - below) / numeric * 100.0).clamp(0.0, 100.0);
                points.push(format!("{},{}", num(x_of(i) + slot / 2.0), num(y_pct(pct))));
            }
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="6 3"><title>at least</title></polyline>"#,
                points.join(" ")
            );
        }
        // Category labels, thinned so they never overlap.
        if has_empty {
            let _ = writeln!(
                s,
                r##"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="#999" stroke-dasharray="2 2"/><text x="{}" y="{}" text-anchor="middle">()</text>"##,
                num(TOP),
                num(bottom),
                num(LEFT + slot / 2.0),
                num(bottom + 16.0),
                x = num(LEFT + slot * 1.25),
            );
        }
        let every = (values.len() as f64 * 28.0 / plot_w).ceil().max(1.0) as usize;
        for (i, v) in values.iter().enumerate().filter(|(i, _)| i % every == 0) {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="middle">{v}</text>"#,
                num(x_of(i) + slot / 2.0),
                num(bottom + 16.0),
            );
        }
        let _ = writeln!(
            s,
            r##"<line x1="{l}" y1="{b}" x2="{r}" y2="{b}" stroke="#333"/><line x1="{l}" y1="{t}" x2="{l}" y2="{b}" stroke="#333"/><line x1="{r}" y1="{t}" x2="{r}" y2="{b}" stroke="#333"/>"##,
            l = num(LEFT),
            r = num(LEFT + plot_w),
            t = num(TOP),
            b = num(bottom)
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">value</text>"#,
            num(LEFT + plot_w / 2.0),
            num(HEIGHT - 14.0)
        );
        let _ = writeln!(
            s,
            r#"<text transform="translate(16 {}) rotate(-90)" text-anchor="middle">probability</text>"#,
            num(TOP + plot_h / 2.0)
        );
        let _ = writeln!(
            s,
            r#"<text transform="translate({} {}) rotate(90)" text-anchor="middle">at least (dashed)</text>"#,
            num(WIDTH - 12.0),
            num(TOP + plot_h / 2.0)
        );
        self.draw_legend(&mut s);
        s.push_str("</svg>\n");
        s
    }

    /// Every integer outcome of any series, ascending.
    fn values(&self) -> Vec<i32> {
        let mut v: Vec<i32> = self
            .series
            .iter()
            .flat_map(|s| s.outcomes.iter().map(|o| o.0))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn draw_legend(&self, s: &mut String) {
        if self.series.len() < 2 {
            return;
        }
        for (j, series) in self.series.iter().enumerate() {
            let y = TOP + 4.0 + 16.0 * j as f64;
            let x = LEFT + 10.0;
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{}" width="12" height="12" fill="{}"/><text x="{}" y="{}">{}</text>"#,
                num(x),
                num(y),
                PALETTE[j % PALETTE.len()],
                num(x + 18.0),
                num(y + 10.0),
                escape(&series.name)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_d6() -> DistSeries {
        DistSeries {
            name: "sum(2#d6) <a&b>".into(),
            empty: 0.0,
            outcomes: (2..=12)
                .map(|v: i32| (v, f64::from(6 - (v - 7).abs()) / 36.0))
                .collect(),
        }
    }

    /// The most decimals of any number in an attribute value (coordinates, sizes): at most two.
    fn max_decimals(svg: &str) -> usize {
        svg.split("=\"")
            .skip(1)
            .filter_map(|rest| rest.split_once('"').map(|v| v.0))
            .flat_map(|value| value.split([' ', ',', '(', ')']))
            .filter_map(|n| n.split_once('.').map(|d| d.1))
            .filter(|d| d.bytes().all(|c| c.is_ascii_digit()))
            .map(str::len)
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn one_bar_per_outcome_with_an_at_least_line() {
        let c = DistChart {
            title: "sum(2#d6) <&>".into(),
            subtitle: "mean 7, sd 2.415".into(),
            series: vec![two_d6()],
        };
        let svg = c.to_svg();
        assert_eq!(svg, c.to_svg());
        assert!(svg.contains(r#"width="800" height="450""#));
        assert!(svg.contains("sum(2#d6) &lt;&amp;&gt;") && svg.contains("mean 7, sd 2.415"));
        assert_eq!(svg.matches("<rect x=").count(), 11);
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert!(svg.contains(">100%</text>") && svg.contains(">0%</text>"));
        assert!(svg.contains("<title>7: 0.166667</title>"));
        // The line starts at 100 % (top of the plot) over the first value.
        assert!(svg.contains(&format!(
            "points=\"{},{} ",
            num(70.0 + 670.0 / 22.0),
            num(60.0)
        )));
        assert!(!svg.contains(">()</text>") && !svg.contains("http://www.w3.org/1999/xlink"));
        // Only the SVG namespace is referenced, no external resources.
        assert_eq!(svg.matches("http").count(), 1);
        assert!(max_decimals(&svg) <= 2, "{svg}");
        assert!(max_decimals("<a x=\"1.234\"/>") == 3);
    }

    #[test]
    fn empty_outcome_set_apart_and_several_series_get_a_legend() {
        let mut other = two_d6();
        other.name = "other".into();
        other.empty = 0.25;
        other.outcomes = vec![(0, 0.25), (13, 0.5)];
        let c = DistChart {
            title: "compare".into(),
            subtitle: String::new(),
            series: vec![two_d6(), other],
        };
        let svg = c.to_svg();
        assert!(svg.contains(">()</text>") && svg.contains("<title>(): 0.25</title>"));
        // 11 + 3 bars and 2 legend swatches.
        assert_eq!(svg.matches("<rect x=").count(), 16);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains(">sum(2#d6) &lt;a&amp;b&gt;</text>") && svg.contains(">other</text>"));
        assert!(max_decimals(&svg) <= 2);
    }

    #[test]
    fn nothing_to_draw_is_still_a_document() {
        let c = DistChart {
            title: "()".into(),
            subtitle: String::new(),
            series: vec![DistSeries {
                name: String::new(),
                empty: 1.0,
                outcomes: vec![],
            }],
        };
        let svg = c.to_svg();
        assert!(svg.ends_with("</svg>\n") && svg.contains("<title>(): 1</title>"));
    }
}
