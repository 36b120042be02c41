//! A small deterministic SVG writer for grouped bar charts and line charts.

use std::fmt::Write;

/// Grouped bars (distributions: one group per outcome) or lines (gap distributions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    /// One group of bars per category, one bar per series.
    Bars,
    /// One polyline per series over the categories.
    Lines,
}

/// One named sequence of values, one per category. Missing values are `NaN`.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// One value per category.
    pub values: Vec<f64>,
}

/// A chart: title, axis labels, the categories along x and the series drawn over them.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Printed on top (the program, usually).
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// Bars or lines.
    pub kind: ChartKind,
    /// Category labels along the x axis.
    pub categories: Vec<String>,
    /// The data.
    pub series: Vec<Series>,
}

/// A colour-blind-safe palette (Okabe–Ito), cycled for more series.
pub(crate) const PALETTE: [&str; 8] = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
];

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 450.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;

impl Chart {
    /// The chart as a standalone SVG document. Same chart, same bytes.
    pub fn to_svg(&self) -> String {
        let mut s = String::new();
        let (w, h) = (WIDTH, HEIGHT);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="28" text-anchor="middle" font-size="16">{}</text>"#,
            num(w / 2.0),
            escape(&self.title)
        );
        let plot_w = w - LEFT - RIGHT;
        let plot_h = h - TOP - BOTTOM;
        let max = self.max_value();
        let (step, top) = nice_scale(max);
        let y_of = |v: f64| TOP + plot_h - (v / top) * plot_h;
        // Horizontal grid lines with their values.
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
        let n = self.categories.len().max(1);
        let slot = plot_w / n as f64;
        match self.kind {
            ChartKind::Bars => self.draw_bars(&mut s, slot, &y_of),
            ChartKind::Lines => self.draw_lines(&mut s, slot, &y_of),
        }
        // Category labels, thinned so they never overlap.
        let every = (n as f64 * 28.0 / plot_w).ceil().max(1.0) as usize;
        for (i, c) in self
            .categories
            .iter()
            .enumerate()
            .filter(|(i, _)| i % every == 0)
        {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
                num(LEFT + slot * (i as f64 + 0.5)),
                num(TOP + plot_h + 16.0),
                escape(c)
            );
        }
        let _ = writeln!(
            s,
            r##"<line x1="{l}" y1="{b}" x2="{r}" y2="{b}" stroke="#333"/><line x1="{l}" y1="{t}" x2="{l}" y2="{b}" stroke="#333"/>"##,
            l = num(LEFT),
            r = num(LEFT + plot_w),
            t = num(TOP),
            b = num(TOP + plot_h)
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            num(LEFT + plot_w / 2.0),
            num(h - 18.0),
            escape(&self.x_label)
        );
        let _ = writeln!(
            s,
            r#"<text transform="translate(16 {}) rotate(-90)" text-anchor="middle">{}</text>"#,
            num(TOP + plot_h / 2.0),
            escape(&self.y_label)
        );
        self.draw_legend(&mut s);
        s.push_str("</svg>\n");
        s
    }

    fn max_value(&self) -> f64 {
        self.series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max)
    }

    fn draw_bars(&self, s: &mut String, slot: f64, y_of: &dyn Fn(f64) -> f64) {
        let k = self.series.len().max(1) as f64;
        let bar = slot * 0.8 / k;
        for (j, series) in self.series.iter().enumerate() {
            let colour = PALETTE[j % PALETTE.len()];
            for (i, &v) in series.values.iter().enumerate().take(self.categories.len()) {
                if !(v.is_finite() && v > 0.0) {
                    continue;
                }
                let x = LEFT + slot * i as f64 + slot * 0.1 + bar * j as f64;
                let y = y_of(v);
                let _ = writeln!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{colour}"><title>{}: {}</title></rect>"#,
                    num(x),
                    num(y),
                    num(bar),
                    num(y_of(0.0) - y),
                    escape(&self.categories[i]),
                    value_label(v)
                );
            }
        }
    }

    fn draw_lines(&self, s: &mut String, slot: f64, y_of: &dyn Fn(f64) -> f64) {
        for (j, series) in self.series.iter().enumerate() {
            let colour = PALETTE[j % PALETTE.len()];
            let points: Vec<String> = series
                .values
                .iter()
                .enumerate()
                .take(self.categories.len())
                .filter(|(_, v)| v.is_finite())
                .map(|(i, &v)| format!("{},{}", num(LEFT + slot * (i as f64 + 0.5)), num(y_of(v))))
                .collect();
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
                points.join(" ")
            );
        }
    }

    fn draw_legend(&self, s: &mut String) {
        if self.series.len() < 2 {
            return;
        }
        for (j, series) in self.series.iter().enumerate() {
            let y = TOP + 4.0 + 18.0 * j as f64;
            let x = WIDTH - RIGHT - 200.0;
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

/// A "nice" tick step (1, 2 or 5 times a power of ten) and the axis top for values up to `max`.
pub(crate) fn nice_scale(max: f64) -> (f64, f64) {
    if !(max.is_finite() && max > 0.0) {
        return (1.0, 1.0);
    }
    let raw = max / 5.0;
    let magnitude = 10f64.powi(raw.log10().floor() as i32);
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(raw);
    (step, (max / step).ceil().max(1.0) * step)
}

/// Coordinates with at most two decimals and no trailing zeros: stable and compact.
pub(crate) fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

pub(crate) fn tick_label(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    format!("{v:.decimals$}")
}

pub(crate) fn value_label(v: f64) -> String {
    let s = format!("{v:.6}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(kind: ChartKind, series: Vec<Series>) -> Chart {
        Chart {
            title: "a <b> & \"c\"".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            kind,
            categories: vec!["1".into(), "2".into(), "3".into()],
            series,
        }
    }

    #[test]
    fn bars_are_deterministic_escaped_and_scaled() {
        let c = chart(
            ChartKind::Bars,
            vec![Series {
                name: "s".into(),
                values: vec![0.2, 0.5, 0.3],
            }],
        );
        let svg = c.to_svg();
        assert_eq!(svg, c.to_svg());
        assert!(svg.contains("a &lt;b&gt; &amp; &quot;c&quot;"));
        assert_eq!(
            svg.matches("<rect x=").count(),
            3,
            "one bar per positive value"
        );
        assert!(svg.contains("<title>2: 0.5</title>"));
        // The axis tops out at 0.5 with ticks every 0.1.
        assert!(svg.contains(">0.5</text>") && !svg.contains(">0.6</text>"));
        assert!(!svg.contains("legend") && svg.ends_with("</svg>\n"));
    }

    #[test]
    fn lines_and_legend_for_several_series() {
        let c = chart(
            ChartKind::Lines,
            vec![
                Series {
                    name: "7-bag".into(),
                    values: vec![1.0, 2.0, f64::NAN],
                },
                Series {
                    name: "tgm".into(),
                    values: vec![3.0, 1.0, 0.0],
                },
            ],
        );
        let svg = c.to_svg();
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains(">7-bag</text>") && svg.contains(">tgm</text>"));
    }

    #[test]
    fn scale_and_numbers() {
        assert_eq!(nice_scale(0.5), (0.1, 0.5));
        assert_eq!(nice_scale(0.17), (0.05, 0.2));
        assert_eq!(nice_scale(0.0), (1.0, 1.0));
        assert_eq!(num(12.0), "12");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(3.456), "3.46");
    }
}
