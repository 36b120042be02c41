//! Blackjack, the Tetris randomizer language (Lardarse and Tepples, 2006).
//!
//! A spec such as `I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T` names a list of pieces and
//! a rule for dealing them. This crate parses and checks specs ([`Spec`], errors with codes
//! E01–E08), prints their canonical form (`Display`), deals them with the portable RNG of
//! `rng.md` ([`Randomizer`], an infinite iterator with `peek`, `Clone` and a serializable
//! state), knows the presets of spec §6, and computes exact long-run statistics as fractions
//! ([`exact`]) or simulated ones ([`simulate`]).
//!
//! ```
//! use alea_blackjack::{Piece, Randomizer, Spec};
//!
//! let spec: Spec = "bag of I,J,L,O,S,T,Z".parse().unwrap();
//! let mut dealer = Randomizer::new(&spec, 0);
//! let next: Vec<&str> = dealer.peek(7).into_iter().map(|p| spec.pieces()[p.0 as usize].as_ref()).collect();
//! assert_eq!(next.concat(), "LZJISOT");
//! assert_eq!(dealer.next(), Some(Piece(2))); // L
//! ```
//!
//! One call deals or analyses a spec or preset name; [`Analysis`] holds the analysts' tables:
//!
//! ```
//! use alea_blackjack::{AnalysisOptions, Prob, Ratio, Source, analyse, deal};
//!
//! assert_eq!(deal("bag of I,J,L,O,S,T,Z", 0, 7).unwrap().concat(), "LZJISOT");
//! let seven_bag = analyse(&Source::resolve("7bag").unwrap(), &AnalysisOptions::default()).unwrap();
//! // A 7-bag piece waits 12 deals or more only when it ends one bag and starts the next.
//! assert_eq!(seven_bag.gap_at_least(0, 12), Some(Prob::Exact(Ratio::from_u64(1, 49))));
//! assert!(Source::resolve("tgm9").unwrap_err().to_string().contains("did you mean tgm1/tgm2/tgm3"));
//! ```
#![forbid(unsafe_code)]

mod analysis;
mod chain;
mod chain_tables;
mod concrete;
mod exact;
mod gaps;
mod joint;
mod lexer;
mod modular;
mod parser;
mod prefix;
mod presets;
mod preview;
mod randomizer;
mod rule;

mod sim;
mod spec;
mod tables;

/// The workspace's exact fraction type (from `alea-prob`), re-exported for the API's fractions.
pub use alea_prob::Ratio;
pub use analysis::{
    Analysis, AnalysisOptions, Fallback, Law, Prob, ResolveError, Source, analyse, deal,
    similar_presets,
};
pub use chain_tables::{
    ExactTableOptions, ExactTables, GapAtLeast, MAX_TABLE_STEPS, PieceTables, exact_tables,
    gap_at_least, gap_at_least_or_simulate,
};
pub use exact::{
    DEFAULT_MAX_WORK, ExactError, ExactOptions, ExactStats, GapLaw, MAX_LISTED_GAP, exact,
    exact_preset, exact_unreduced,
};
pub use parser::MAX_COUNT;
pub use prefix::{MAX_PREFIX_PATHS, prefix_law};
pub use presets::{
    ARCADE_PRESETS, BUILTIN_PRESETS, MAX_FRAMES, NES_POWER_ON, SPEC_PRESETS, UnknownPreset,
    nes_lfsr_step, preset_names, preset_spec,
};
pub use preview::{
    PREVIEW_WORK_BUDGET, PreviewError, PreviewLaw, PreviewStart, preview_law, preview_law_from,
    preview_law_source,
};
pub use randomizer::{ArcadeError, Piece, Randomizer, STATE_FORMAT};
pub use sim::{DENSE_BUDGET, GapCounts, SimStats, simulate, simulate_randomizer};
pub use spec::{Spec, SpecError};
pub use tables::{StreamTables, TableOptions, stream_tables};

/// The examples of `docs/blackjack.md`, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/blackjack.md")]
pub struct DocsBlackjackMd;
