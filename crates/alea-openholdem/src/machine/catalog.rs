//! The machine's costly or rare symbols, off the hot path: the full catalogue's names and ICM
//! (the state's value when given, else the computed one, else the documented default with a
//! warning) and prwin's simulation.

use super::{Fail, Machine, PrwinReport};
use crate::cards;
use crate::symbols::Symbol;

impl Machine<'_> {
    /// The one rule for what a run tolerates (a default value, a capped count, a division by
    /// zero): an error at `pc` with `--strict`, else a warning there and the run goes on.
    pub(super) fn warn_or_fail(&mut self, pc: u32, msg: String) -> Result<(), Fail> {
        if self.options.strict {
            return Err(self.located(pc, alea_core::Diagnostic::error(msg)));
        }
        let w = self.located(pc, alea_core::Diagnostic::warning(msg));
        self.warnings.push(*w);
        Ok(())
    }

    /// An ICM symbol: the state's value if it gives one, else computed from the stacks and the
    /// payouts (`prizes`: the `f$icm_prizeN` values, NaN where the profile has none).
    pub(super) fn compute_icm(&mut self, name: &str, pc: u32, prizes: &[f64]) -> Result<f64, Fail> {
        let Some(provider) = &self.provider else {
            return Err(self.needs_state(name, pc));
        };
        if let Some(v) = provider.given(name) {
            return Ok(v);
        }
        match provider.icm_value(name, prizes) {
            Ok(v) => Ok(v),
            Err(msg) => self.warn_or_fail(pc, msg).map(|()| 0.0),
        }
    }

    /// A name of the full catalogue ([`crate::catalog`]) the state did not give.
    pub(super) fn compute_catalog(
        &mut self,
        sym: Symbol,
        name: &str,
        pc: u32,
    ) -> Result<f64, Fail> {
        let Some(provider) = &self.provider else {
            return Ok(0.0);
        };
        let eval = self.evaluator.clone();
        match crate::catalog_eval::catalog_symbol(provider.as_ref(), eval.as_ref(), sym, name) {
            Ok(v) => Ok(v),
            Err((default, msg)) => self.warn_or_fail(pc, msg).map(|()| default),
        }
    }
}

impl Machine<'_> {
    /// The prwin simulation of this run: run once (with `n` opponents and the iterations of
    /// `--iterations`, else `f$prwin_number_of_iterations`, else 10 000, capped), then cached
    /// for the run's `prwin`, `prtie` and `prlos`.
    pub(super) fn prwin_report_of_run(
        &mut self,
        pc: u32,
        n: u32,
        iters: f64,
        hole: [Option<crate::cards::Card>; 2],
        board: &[crate::cards::Card],
    ) -> Result<PrwinReport, Fail> {
        if let Some((e, r)) = self.prwin
            && e == self.epoch
        {
            return Ok(r);
        }
        let eval = self.evaluator.clone();
        let iterations = match self.options.iterations {
            Some(i) => i as f64,
            None if iters.is_nan() => 10_000.0,
            None => iters.trunc(),
        };
        if iterations <= 0.0 {
            let msg = format!("prwin with {iterations} iterations: prwin, prtie and prlos are 0");
            self.warn_or_fail(pc, msg)?;
        }
        let cap = self
            .options
            .max_iterations
            .map_or(alea_cards::MAX_ITERATIONS, |m| {
                m.min(alea_cards::MAX_ITERATIONS)
            }) as f64;
        if iterations > cap {
            let msg = format!("prwin with {iterations} iterations: capped at {cap}");
            self.warn_or_fail(pc, msg)?;
        }
        let iterations = iterations.clamp(0.0, cap) as u64;
        let equity = match (hole, iterations) {
            ([Some(a), Some(b)], 1..) => {
                eval.equity([a, b], board, n, iterations, &mut self.rng_prwin)
            }
            _ => cards::Equity::default(),
        };
        let r = PrwinReport {
            opponents: n,
            iterations,
            equity,
        };
        self.prwin = Some((self.epoch, r));
        Ok(r)
    }
}
