//! Size and step budgets for distribution arithmetic, and the error that names what blew up.

use alea_core::{Fuel, LimitExceeded};
use std::fmt;

/// Why a distribution computation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbError {
    /// A distribution (or the state table of a pool evaluation) would have more than `limit`
    /// outcomes. `what` names the operation, e.g. `"product"` or `"pool evaluation"`.
    TooManyOutcomes {
        /// The operation that produced the distribution.
        what: &'static str,
        /// The size limit.
        limit: usize,
    },
    /// The step budget ran out during `what`.
    OutOfSteps {
        /// The operation running when the budget ran out.
        what: &'static str,
        /// The step limit.
        limit: u64,
    },
    /// Conditioning on an event of probability zero.
    ImpossibleCondition,
}

impl fmt::Display for ProbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbError::TooManyOutcomes { what, limit } => {
                write!(f, "{what} has more than {limit} outcomes or states")
            }
            ProbError::OutOfSteps { what, limit } => {
                write!(f, "{what} exceeded the step limit of {limit}")
            }
            ProbError::ImpossibleCondition => write!(f, "condition has probability zero"),
        }
    }
}

impl std::error::Error for ProbError {}

/// The resources one computation may use: a step budget ([`Fuel`]) and a cap on the number of
/// outcomes of any distribution (or states of a pool evaluation) it builds.
///
/// Every operation that can grow (products, mixtures, pool evaluation, convolution) takes a
/// `&mut Budget`, burns one step per elementary weight operation, and fails with a
/// [`ProbError`] that names the operation instead of exhausting memory or time.
#[derive(Clone, Debug)]
pub struct Budget {
    fuel: Fuel,
    max_outcomes: usize,
}

impl Budget {
    /// A budget of `steps` elementary operations and at most `max_outcomes` outcomes per
    /// distribution.
    pub fn new(steps: u64, max_outcomes: usize) -> Budget {
        Budget {
            fuel: Fuel::new(steps),
            max_outcomes,
        }
    }

    /// A budget without practical limits (for tests and small known inputs).
    pub fn unlimited() -> Budget {
        Budget::new(u64::MAX, usize::MAX)
    }

    /// The outcome cap.
    pub fn max_outcomes(&self) -> usize {
        self.max_outcomes
    }

    /// Steps used so far.
    pub fn steps_used(&self) -> u64 {
        self.fuel.used()
    }

    /// Takes `n` steps on behalf of `what`.
    #[inline]
    pub fn burn(&mut self, n: u64, what: &'static str) -> Result<(), ProbError> {
        self.fuel
            .burn(n)
            .map_err(|LimitExceeded { limit, .. }| ProbError::OutOfSteps { what, limit })
    }

    /// Fails when `size` exceeds the outcome cap.
    #[inline]
    pub fn check_size(&self, size: usize, what: &'static str) -> Result<(), ProbError> {
        if size > self.max_outcomes {
            Err(ProbError::TooManyOutcomes {
                what,
                limit: self.max_outcomes,
            })
        } else {
            Ok(())
        }
    }
}

impl Default for Budget {
    /// 10^9 steps and 10^7 outcomes (the dicelab spec's distribution limit).
    fn default() -> Budget {
        Budget::new(1_000_000_000, 10_000_000)
    }
}
