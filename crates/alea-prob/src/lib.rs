//! Exact discrete probability distributions, with no knowledge of any dice language.
//!
//! * [`Dist<T>`]: a finite distribution over outcomes of any ordered type (integers, lists,
//!   an "empty" marker…), stored as integer [`Weight`]s over a common total. Weights are `u128`
//!   and promote to big integers only when they overflow.
//! * Combinators: [`Dist::map`], [`Dist::condition`], [`Dist::product`] (independent pairs),
//!   [`Dist::bind`] and [`Dist::mixture`] (conditioning on a random value), and for integers
//!   [`Dist::convolve`], [`Dist::sum_iid`], [`Dist::count_iid`] and [`binomial`].
//! * [`Pool`]: many independent dice evaluated outcome by outcome, as icepool does, so order
//!   statistics ("sum of the 3 highest of 100 dice") take polynomial time instead of
//!   enumerating 6^100 rolls.
//! * [`Ratio`]: exact probabilities in lowest terms (`p/q`) with a correctly rounded `f64`
//!   view and C-compatible fixed-point printing.
//! * [`Budget`]: every growing operation checks a step budget and an outcome cap and fails with
//!   a [`ProbError`] naming the operation, never exhausting memory.
//!
//! ```
//! use alea_prob::{Budget, Dist, Order, Pool};
//!
//! let mut budget = Budget::default();
//! let d6 = Dist::uniform(1..=6i64)?;
//!
//! // 2d6 by convolution: P(7) = 6/36.
//! let two = d6.sum_iid(2, &mut budget)?;
//! assert_eq!(two.probability(&7).to_string(), "1/6");
//!
//! // The sum of the 3 highest of 20d6, exactly, without enumerating 6^20 rolls.
//! let best3 = Pool::iid(d6.clone(), 20).sum_extreme(Order::Descending, 3, &mut budget)?;
//! assert_eq!(best3.probability(&3).to_string(), "1/3656158440062976");
//! assert_eq!(best3.probability(&18).to_string(), "272725422376789/406239826673664");
//! assert_eq!(best3.probability(&18).to_fixed(6), "0.671341");
//!
//! // Outcomes need not be numbers: the sorted 2 lowest of 3d6.
//! let low2 = Pool::iid(d6, 3).keep_extreme(Order::Ascending, 2, &mut budget)?;
//! assert_eq!(low2.probability(&vec![1, 1]).to_string(), "2/27");
//! # Ok::<(), alea_prob::ProbError>(())
//! ```
#![forbid(unsafe_code)]

mod dist;
mod error;
mod int;
mod pool;
mod ratio;
mod ratio_ops;
mod weight;

pub use dist::{Dist, Moments, SignedRatio};
pub use error::{Budget, ProbError};
pub use int::binomial;
pub use pool::{Order, Pool};
pub use ratio::{Ratio, ratio_to_f64};
pub use weight::Weight;
