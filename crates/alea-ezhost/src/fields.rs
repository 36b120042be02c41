//! The field kinds of ezscript.md §12.1: what each must produce, the names it may read and
//! its failure rule; the script hooks the tournament model calls (payout script, points
//! formula, `anteText`).

use crate::format::LocaleFormat;
use crate::host::{PayoutHost, StateHost};
use alea_core::{Diagnostic, Span};
use alea_ezscript::{Env, Formatter, Mode, Program, Tok, Value, lex};
use alea_tournament::{self as tour, Field, PayoutInputs, ScriptHooks, State};
use std::sync::Arc;

/// The points formula used when the file has none (**Decision**: the app's built-in default
/// is not specified; this awards `totalPlayerCount − place + 1`, the formula of the spec's
/// example).
pub const DEFAULT_POINTS_FORMULA: &str = "totalPlayerCount - playerId.toPlayer().place + 1";

/// Payout places a script may pay (ezscript.md §12.1).
pub const MAX_PAYOUT_PLACES: usize = 20;

/// A diagnostic for a whole source (results that fail the field's rule).
pub(crate) fn whole(src: &str, message: &str) -> Diagnostic {
    Diagnostic::error(message).with_span(Span::new(0, src.len()))
}

/// Compiles and runs a script, returning its value or its diagnostics.
pub(crate) fn run_script(src: &str, env: &Env<'_>) -> Result<Value, Vec<Diagnostic>> {
    let program = Program::compile(src)?;
    program.run(env).map_err(|e| vec![e.to_diagnostic()])
}

/// Checks a payout script's value: a list of at most 20 finite numbers ≥ 0.
pub(crate) fn payout_amounts(value: &Value) -> Result<Vec<f64>, &'static str> {
    let Value::List(items) = value else {
        return Err("A payout script must produce a list of numbers");
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items.iter() {
        match item {
            Value::Number(x) => out.push(*x),
            _ => return Err("A payout script must produce a list of numbers"),
        }
    }
    if out.len() > MAX_PAYOUT_PLACES {
        return Err("A payout script can pay at most 20 places");
    }
    if out.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return Err("Payout amounts must be finite and not negative");
    }
    Ok(out)
}

/// Runs a payout script against `host`: the checked amounts, or the diagnostics.
pub(crate) fn run_payout(
    src: &str,
    host: &PayoutHost,
    formatter: &dyn Formatter,
    fuel: u64,
) -> Result<Vec<f64>, Vec<Diagnostic>> {
    let env = Env {
        host,
        formatter,
        fuel,
        ..Env::default()
    };
    let value = run_script(src, &env)?;
    payout_amounts(&value).map_err(|m| vec![whole(src, m)])
}

/// Runs the points formula for one player: a finite number, or the diagnostics.
pub(crate) fn run_points(
    src: &str,
    host: &StateHost,
    formatter: &dyn Formatter,
    fuel: u64,
) -> Result<f64, Vec<Diagnostic>> {
    let env = Env {
        host,
        formatter,
        fuel,
        ..Env::default()
    };
    match run_script(src, &env)? {
        Value::Number(x) if x.is_finite() => Ok(x),
        _ => Err(vec![whole(src, "The points formula must produce a number")]),
    }
}

/// Which field a hook error came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookField {
    /// `settings.payoutScript`.
    PayoutScript,
    /// `settings.pointsFormula`.
    PointsFormula,
}

/// The hooks the tournament model calls while deriving a state: the payout script and the
/// points formula in EZScript, `anteText` in the locale. Errors are collected (each distinct
/// one once) for the caller to report.
pub(crate) struct Hooks<'a> {
    pub formatter: &'a LocaleFormat,
    pub fuel: u64,
    pub now: f64,
    pub errors: Vec<(HookField, Diagnostic)>,
    /// A budget shared with other scripts (a simulation's), charged with every run's steps.
    pub budget: Option<&'a Budget>,
    payout_program: Option<(String, Result<Program, Vec<Diagnostic>>)>,
    points_program: Option<(String, Result<Program, Vec<Diagnostic>>)>,
    /// The last payout inputs and their result: the script reads only those numbers and the
    /// fixed `now`, so equal inputs give the same amounts (a clock re-derives every second).
    last_payout: Option<(PayoutInputs, Option<Vec<f64>>)>,
}

/// Steps left for many runs together (`--simulate`'s one total budget).
#[derive(Debug)]
pub(crate) struct Budget {
    left: std::cell::Cell<u64>,
}

impl Budget {
    pub fn new(steps: u64) -> Budget {
        Budget {
            left: std::cell::Cell::new(steps),
        }
    }

    /// The fuel for one run: its own budget, or what is left if that is less.
    pub fn fuel(&self, own: u64) -> u64 {
        own.min(self.left.get())
    }

    pub fn charge(&self, steps: u64) {
        self.left.set(self.left.get().saturating_sub(steps));
    }

    pub fn is_spent(&self) -> bool {
        self.left.get() == 0
    }
}

impl<'a> Hooks<'a> {
    pub fn new(formatter: &'a LocaleFormat, fuel: u64, now: f64) -> Hooks<'a> {
        Hooks {
            formatter,
            fuel,
            now,
            errors: Vec::new(),
            budget: None,
            payout_program: None,
            points_program: None,
            last_payout: None,
        }
    }

    fn fuel(&self) -> u64 {
        self.budget.map_or(self.fuel, |b| b.fuel(self.fuel))
    }

    /// Runs a compiled hook and charges its steps to the shared budget.
    fn run(&self, program: &Program, env: &Env<'_>) -> Result<Value, Vec<Diagnostic>> {
        let (result, steps) = program.run_metered(env);
        if let Some(budget) = self.budget {
            budget.charge(steps);
        }
        result.map_err(|e| vec![e.to_diagnostic()])
    }

    fn record(&mut self, field: HookField, diags: Vec<Diagnostic>) {
        for d in diags {
            if !self
                .errors
                .iter()
                .any(|(f, e)| *f == field && e.message == d.message && e.span == d.span)
            {
                self.errors.push((field, d));
            }
        }
    }
}

/// Compiles once per distinct source.
fn cached<'p>(
    slot: &'p mut Option<(String, Result<Program, Vec<Diagnostic>>)>,
    src: &str,
) -> &'p Result<Program, Vec<Diagnostic>> {
    if slot.as_ref().is_none_or(|(s, _)| s != src) {
        *slot = Some((src.to_string(), Program::compile(src)));
    }
    &slot.as_ref().expect("just filled").1
}

impl ScriptHooks for Hooks<'_> {
    fn payout_amounts(&mut self, script: &str, inputs: &PayoutInputs) -> Option<Vec<f64>> {
        let same_script = self
            .payout_program
            .as_ref()
            .is_some_and(|(src, _)| src == script);
        if let Some((last, amounts)) = &self.last_payout
            && same_script
            && last == inputs
        {
            return amounts.clone();
        }
        let host = PayoutHost::new(|n| inputs.get(n), self.now, self.formatter.locale_tag());
        let env = Env {
            host: &host,
            formatter: self.formatter,
            fuel: self.fuel(),
            ..Env::default()
        };
        cached(&mut self.payout_program, script);
        let result = match &self.payout_program.as_ref().expect("just compiled").1 {
            Ok(p) => self
                .run(p, &env)
                .and_then(|v| payout_amounts(&v).map_err(|m| vec![whole(script, m)])),
            Err(d) => Err(d.clone()),
        };
        let amounts = match result {
            Ok(a) => Some(a),
            Err(d) => {
                self.record(HookField::PayoutScript, d);
                None
            }
        };
        self.last_payout = Some((inputs.clone(), amounts.clone()));
        amounts
    }

    fn ante_text(&mut self, ante: f64) -> String {
        self.formatter
            .compact_decimal(ante)
            .unwrap_or_else(|_| tour::display_number(ante))
    }

    fn points(&mut self, formula: Option<&str>, state: &State, player: usize) -> Option<f64> {
        let src = formula.unwrap_or(DEFAULT_POINTS_FORMULA);
        let id = f64::from(state.data().players.get(player)?.id);
        // Objects own their state; the hook only borrows it, so the formula reads a copy.
        let state = Arc::new(state.clone());
        let host =
            StateHost::new(state, Field::Points, self.formatter.locale_tag()).with_player_id(id);
        let env = Env {
            host: &host,
            formatter: self.formatter,
            fuel: self.fuel(),
            ..Env::default()
        };
        cached(&mut self.points_program, src);
        let result = match &self.points_program.as_ref().expect("just compiled").1 {
            Ok(p) => match self.run(p, &env) {
                Ok(Value::Number(x)) if x.is_finite() => Ok(x),
                Ok(_) => Err(vec![whole(src, "The points formula must produce a number")]),
                Err(d) => Err(d),
            },
            Err(d) => Err(d.clone()),
        };
        match result {
            Ok(x) => Some(x),
            Err(d) => {
                self.record(HookField::PointsFormula, d);
                None
            }
        }
    }
}

/// The byte ranges (`{{` to after `}}`) of a template's insertions, to tell which insertion
/// an error belongs to.
pub(crate) fn insertion_ranges(src: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < src.len() {
        let Some(open) = src[pos..].find("{{").map(|i| i + pos) else {
            break;
        };
        let (tokens, end) = lex(src, open + 2, Mode::Insertion);
        let closed = tokens.last().map(|t| &t.tok) == Some(&Tok::InsertEnd);
        out.push((open, if closed { end } else { src.len() }));
        if !closed || end <= open {
            break;
        }
        pos = end;
    }
    out
}

/// Index of the insertion holding `span` (0-based), if any.
pub(crate) fn insertion_of(ranges: &[(usize, usize)], span: Span) -> Option<usize> {
    let at = span.start as usize;
    ranges
        .iter()
        .position(|&(a, b)| a <= at && at < b.max(a + 1))
}
