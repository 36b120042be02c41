//! Resource budgets shared by the evaluators.
//!
//! Every evaluator draws on a [`Fuel`] budget for each step it takes and checks sizes against
//! [`Limits`] before it allocates, so a hostile program ends in a [`LimitExceeded`] error that
//! names the limit, never in a hang or an out-of-memory abort. Budgets are counted in abstract
//! steps rather than time so that the same program fails the same way on every machine.

use std::fmt;

/// Upper bounds on what one program run may use. Each language picks its defaults (see its
/// crate docs); the CLI may raise or lower them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Evaluation steps (see [`Fuel`]).
    pub steps: u64,
    /// Nesting depth of syntax and of evaluation (recursion).
    pub depth: u32,
    /// Elements in one list.
    pub list_len: usize,
    /// Bytes in one string.
    pub string_len: usize,
    /// Outcomes in one exact distribution.
    pub distribution_size: usize,
    /// Bytes of program text.
    pub source_len: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            steps: 100_000_000,
            depth: 500,
            list_len: 10_000_000,
            string_len: 16 << 20,
            distribution_size: 1_000_000,
            source_len: 16 << 20,
        }
    }
}

/// Which limit was hit, and where it was set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitExceeded {
    /// Which limit (`steps`, `depth`, `list length`, …).
    pub what: &'static str,
    /// The limit's value.
    pub limit: u64,
}

impl fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} limit of {} exceeded", self.what, self.limit)
    }
}

impl std::error::Error for LimitExceeded {}

impl Limits {
    /// Checks a size against a limit, naming it in the error.
    pub fn check(what: &'static str, value: u64, limit: u64) -> Result<(), LimitExceeded> {
        if value > limit {
            Err(LimitExceeded { what, limit })
        } else {
            Ok(())
        }
    }
}

/// A deterministic step budget.
#[derive(Clone, Debug)]
pub struct Fuel {
    remaining: u64,
    total: u64,
}

impl Fuel {
    /// A budget of `steps` steps.
    pub fn new(steps: u64) -> Fuel {
        Fuel {
            remaining: steps,
            total: steps,
        }
    }

    /// Takes `n` steps, or fails when the budget is spent.
    #[inline]
    pub fn burn(&mut self, n: u64) -> Result<(), LimitExceeded> {
        match self.remaining.checked_sub(n) {
            Some(r) => {
                self.remaining = r;
                Ok(())
            }
            None => {
                self.remaining = 0;
                Err(LimitExceeded {
                    what: "step",
                    limit: self.total,
                })
            }
        }
    }

    /// Steps left.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    /// Steps taken so far.
    pub fn used(&self) -> u64 {
        self.total - self.remaining
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuel_runs_out_with_a_named_error() {
        let mut f = Fuel::new(10);
        assert!(f.burn(4).is_ok());
        assert_eq!(f.used(), 4);
        assert!(f.burn(6).is_ok());
        let e = f.burn(1).unwrap_err();
        assert_eq!(e.to_string(), "step limit of 10 exceeded");
        assert_eq!(f.remaining(), 0);
    }

    #[test]
    fn check_names_the_limit() {
        assert!(Limits::check("list length", 5, 5).is_ok());
        assert_eq!(
            Limits::check("list length", 6, 5).unwrap_err().to_string(),
            "list length limit of 5 exceeded"
        );
    }
}
