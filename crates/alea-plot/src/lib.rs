//! Charts for people who would rather look than read: deterministic SVG and terminal bars.
//!
//! One module draws every chart of alea, so `alea dice --plot`, `alea blackjack --plot` and the
//! playground show the same pictures. The SVG is written by hand rather than through a plotting
//! crate: the output must be byte-for-byte deterministic (it is compared in tests), small, and
//! free of fonts or JavaScript, and the charts needed are simple (grouped bars, lines).
//!
//! ```
//! use alea_plot::{Chart, ChartKind, Series, terminal_bars};
//!
//! let chart = Chart {
//!     title: "sum(2#d6)".into(),
//!     x_label: "value".into(),
//!     y_label: "probability".into(),
//!     kind: ChartKind::Bars,
//!     categories: (2..=12).map(|v: i32| v.to_string()).collect(),
//!     series: vec![Series {
//!         name: "sum(2#d6)".into(),
//!         values: [1., 2., 3., 4., 5., 6., 5., 4., 3., 2., 1.].iter().map(|w| w / 36.).collect(),
//!     }],
//! };
//! let svg = chart.to_svg();
//! assert!(svg.starts_with("<svg") && svg.contains("sum(2#d6)"));
//!
//! let bars = terminal_bars(&[0.25, 0.5, 0.0], 8);
//! assert_eq!(bars, vec!["████", "████████", ""]);
//! ```
#![forbid(unsafe_code)]

mod dist;
mod svg;
mod terminal;

pub use dist::{DistChart, DistSeries};
pub use svg::{Chart, ChartKind, Series};
pub use terminal::terminal_bars;
