//! Resource budgets shared by the evaluators.
//!
//! Every evaluator draws on a [`Fuel`] budget for each step it takes and checks sizes against
//! [`Limits`] before it allocates, so a hostile program ends in a [`LimitExceeded`] error that
//! names the limit, never in a hang or an out-of-memory abort. Budgets are counted in abstract
//! steps rather than time so that the same program fails the same way on every machine.
//!
//! A host that must also bound wall time (the playground server) runs a computation inside
//! [`Cancel::scope`]: every step budget polls [`Cancel::requested`] once every [`POLL_STEPS`] steps and
//! stops with a "time" [`LimitExceeded`] once the token is cancelled or its deadline passes.
//! The token travels in a thread-local, so evaluators need no new parameter; one that hands
//! work to other threads passes [`Cancel::current`] along (dicelab's parallel `eval` does).

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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

impl LimitExceeded {
    /// The error of a computation stopped by its [`Cancel`] token (`what` is `"time"`, the
    /// limit is the token's time limit in milliseconds, 0 when it was cancelled by hand).
    pub fn cancelled() -> LimitExceeded {
        LimitExceeded {
            what: "time",
            limit: CURRENT.with(|c| c.borrow().as_ref().map_or(0, |c| c.limit_ms)),
        }
    }
}

/// Steps between two polls of [`Cancel::requested`] (a power of two: a budget polls when its count
/// crosses a multiple of it, see [`Cancel::poll`]).
pub const POLL_STEPS: u64 = 1 << 16;

/// A request to stop a computation: a shared flag and an optional deadline. Clones share the
/// flag, so the host keeps one and the computation's threads the others.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    flag: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    limit_ms: u64,
}

thread_local! {
    static CURRENT: RefCell<Option<Cancel>> = const { RefCell::new(None) };
}

impl Cancel {
    /// A token cancelled only by [`Cancel::cancel`].
    pub fn new() -> Cancel {
        Cancel {
            flag: Some(Arc::new(AtomicBool::new(false))),
            deadline: None,
            limit_ms: 0,
        }
    }

    /// A token that is also cancelled once `limit` has passed from now.
    pub fn with_timeout(limit: Duration) -> Cancel {
        Cancel {
            deadline: Instant::now().checked_add(limit),
            limit_ms: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
            ..Cancel::new()
        }
    }

    /// A token sharing this one's flag that is also cancelled once `limit` has passed from
    /// now (a host cancels the request's token; the run's deadline starts when it runs).
    pub fn limited(&self, limit: Duration) -> Cancel {
        Cancel {
            flag: self.flag.clone(),
            ..Cancel::with_timeout(limit)
        }
    }

    /// Asks every computation running under this token (or a clone) to stop.
    pub fn cancel(&self) {
        if let Some(f) = &self.flag {
            f.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the token was cancelled or its deadline has passed.
    pub fn is_cancelled(&self) -> bool {
        self.flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Runs `f` with this token as the thread's current one (the previous one is restored
    /// afterwards, also when `f` panics).
    pub fn scope<T>(&self, f: impl FnOnce() -> T) -> T {
        struct Restore(Option<Cancel>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CURRENT.with(|c| *c.borrow_mut() = previous);
            }
        }
        let previous = CURRENT.with(|c| c.borrow_mut().replace(self.clone()));
        let _restore = Restore(previous);
        f()
    }

    /// The thread's current token (a token that never cancels outside any scope), to run
    /// helper threads' work in with [`Cancel::scope`].
    pub fn current() -> Cancel {
        CURRENT.with(|c| c.borrow().clone()).unwrap_or_default()
    }
}

impl Cancel {
    /// Whether the computation on this thread has been asked to stop (false outside any
    /// [`Cancel::scope`]).
    pub fn requested() -> bool {
        CURRENT.with(|c| c.borrow().as_ref().is_some_and(Cancel::is_cancelled))
    }

    /// For a step counter that went from `before` to `after` (counting up or down): whether
    /// it crossed a multiple of [`POLL_STEPS`] and the computation has been asked to stop.
    /// Cheap enough for every step: the thread-local is read once every [`POLL_STEPS`] steps.
    #[inline]
    pub fn poll(before: u64, after: u64) -> bool {
        (before ^ after) >= POLL_STEPS && Cancel::requested()
    }
}

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
                let before = std::mem::replace(&mut self.remaining, r);
                if Cancel::poll(before, r) {
                    return Err(LimitExceeded::cancelled());
                }
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
    fn a_cancelled_token_stops_the_budget_at_the_next_poll() {
        let token = Cancel::new();
        let mut f = Fuel::new(10 * POLL_STEPS);
        token.scope(|| {
            assert!(f.burn(POLL_STEPS / 2).is_ok());
            token.cancel();
            // Polled only once every POLL_STEPS steps.
            assert!(f.burn(1).is_ok());
            let e = f.burn(POLL_STEPS).unwrap_err();
            assert_eq!(e.what, "time");
            assert!(Cancel::requested());
        });
        // Outside the scope nothing is cancelled, and the budget runs on.
        assert!(!Cancel::requested());
        assert!(f.burn(2 * POLL_STEPS).is_ok());
    }

    #[test]
    fn a_deadline_cancels_and_scopes_nest() {
        let late = Cancel::with_timeout(Duration::from_secs(3600));
        let past = Cancel::with_timeout(Duration::ZERO);
        assert!(past.is_cancelled() && !late.is_cancelled());
        late.scope(|| {
            assert!(!Cancel::requested());
            past.scope(|| {
                assert!(Cancel::requested());
                assert!(Cancel::current().is_cancelled());
                assert_eq!(
                    LimitExceeded::cancelled().to_string(),
                    "time limit of 0 exceeded"
                );
            });
            assert!(!Cancel::requested());
        });
        assert!(!Cancel::current().is_cancelled());
        assert!(!Cancel::poll(0, POLL_STEPS - 1));
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
