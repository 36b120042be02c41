//! A small deterministic SVG line chart for gap distributions (`--plot FILE.svg`).
//!
//! Self-contained so it can move to a shared chart module later: the same input always gives
//! the same bytes (fixed palette, coordinates rounded to two decimals, no timestamps).

use std::fmt::Write;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 130.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 48.0;
const PALETTE: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// One line: a name and `(gap, probability)` points in ascending gap order.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Points.
    pub points: Vec<(u64, f64)>,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A "nice" tick step near `span / 5`.
fn tick_step(span: f64) -> f64 {
    if span <= 0.0 || !span.is_finite() {
        return 1.0;
    }
    let raw = span / 5.0;
    let mag = 10f64.powi(raw.log10().floor() as i32);
    let norm = raw / mag;
    let nice = if norm < 1.5 {
        1.0
    } else if norm < 3.5 {
        2.0
    } else if norm < 7.5 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// Renders the chart. Series beyond the first 40 are left out of the legend (not the plot).
pub fn gap_chart_svg(title: &str, series: &[Series]) -> String {
    let max_x = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let max_y = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    let max_y = if max_y > 0.0 { max_y * 1.05 } else { 1.0 };
    let pw = WIDTH - LEFT - RIGHT;
    let ph = HEIGHT - TOP - BOTTOM;
    let sx = |x: f64| LEFT + x / max_x * pw;
    let sy = |y: f64| TOP + ph - y / max_y * ph;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(o, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        o,
        "<text x=\"{:.2}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>",
        LEFT + pw / 2.0,
        escape(title)
    );
    // Axes and ticks.
    let _ = writeln!(
        o,
        "<path d=\"M{LEFT:.2} {TOP:.2} V{:.2} H{:.2}\" stroke=\"black\" fill=\"none\"/>",
        TOP + ph,
        LEFT + pw
    );
    let xs = tick_step(max_x).max(1.0);
    let mut x = 0.0;
    while x <= max_x + 1e-9 {
        let _ = writeln!(
            o,
            "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\">{}</text>",
            sx(x),
            TOP + ph + 16.0,
            x as u64
        );
        x += xs;
    }
    let ys = tick_step(max_y);
    let mut y = 0.0;
    while y <= max_y + 1e-12 {
        let _ = writeln!(
            o,
            "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"end\">{}</text>",
            LEFT - 6.0,
            sy(y) + 4.0,
            trim_float(y)
        );
        let _ = writeln!(
            o,
            "<path d=\"M{LEFT:.2} {:.2} H{:.2}\" stroke=\"#dddddd\"/>",
            sy(y),
            LEFT + pw
        );
        y += ys;
    }
    let _ = writeln!(
        o,
        "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\">gap (deals between two of the same piece)</text>",
        LEFT + pw / 2.0,
        HEIGHT - 10.0
    );
    let _ = writeln!(
        o,
        "<text transform=\"translate(16 {:.2}) rotate(-90)\" text-anchor=\"middle\">probability</text>",
        TOP + ph / 2.0
    );
    for (i, s) in series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let mut d = String::new();
        for (j, &(gx, gy)) in s.points.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.2} {:.2}",
                if j == 0 { "M" } else { " L" },
                sx(gx as f64),
                sy(gy)
            );
        }
        let _ = writeln!(
            o,
            "<path d=\"{d}\" stroke=\"{color}\" stroke-width=\"1.5\" fill=\"none\"/>"
        );
        if i < 40 {
            let ly = TOP + 14.0 * i as f64;
            let lx = WIDTH - RIGHT + 12.0;
            let _ = writeln!(
                o,
                "<path d=\"M{lx:.2} {ly:.2} h18\" stroke=\"{color}\" stroke-width=\"2\"/>\
                 <text x=\"{:.2}\" y=\"{:.2}\">{}</text>",
                lx + 22.0,
                ly + 4.0,
                escape(&s.name)
            );
        }
    }
    o.push_str("</svg>\n");
    o
}

fn trim_float(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_escaped() {
        let s = vec![
            Series {
                name: "I<1>".into(),
                points: vec![(0, 0.5), (1, 0.25), (2, 0.125)],
            },
            Series {
                name: "Z".into(),
                points: vec![(0, 0.1), (1, 0.2)],
            },
        ];
        let a = gap_chart_svg("S & Z", &s);
        assert_eq!(a, gap_chart_svg("S & Z", &s));
        assert!(a.starts_with("<svg"));
        assert!(a.contains("S &amp; Z") && a.contains("I&lt;1&gt;"));
        assert_eq!(a.matches("stroke-width=\"1.5\"").count(), 2);
        assert!(a.ends_with("</svg>\n"));
    }
}
