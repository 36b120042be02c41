//! The alert clock (tournament-data.md §8): the tournament's one-second ticks, every enabled
//! alert's condition evaluated on each running tick against the previous tick's snapshot, a
//! firing (with its TTS text) on every tick the condition is true.

use crate::fields::{Budget, Hooks};
use crate::host::StateHost;
use crate::session::{CompiledField, Session, run_field};
use alea_core::Diagnostic;
use alea_ezscript::{Env, Program, Template, Value};
use alea_tournament::{Field, Simulation, local_time_text};

/// Longest simulation (**Decision**: one week of seconds), so a huge `--simulate` ends in a
/// clear error instead of running for hours.
pub const MAX_SIMULATE_SECONDS: u64 = 7 * 24 * 3600;

/// Steps one simulation may use in all (**Decision**): every alert condition and TTS text,
/// payout script and points formula of every tick together, each run still within its own
/// budget (ezscript.md §11). About four seconds of work; a simulated week of the example
/// tournament needs about 0.5 % of it. When it is spent the simulation ends with
/// [`SimulationReport::out_of_steps`] instead of spending 0.5 s per simulated second on 1,000
/// alerts that loop forever.
pub const MAX_SIMULATE_STEPS: u64 = 100_000_000;

/// One alert firing.
#[derive(Clone, Debug, PartialEq)]
pub struct Firing {
    /// The tick (1 = one second after the start): `(+Ns)`.
    pub tick: u64,
    /// Now after the tick, ms since the epoch.
    pub now: f64,
    /// Now as local time `YYYY-MM-DD HH:MM:SS` in the tournament's zone.
    pub time: String,
    /// The alert's title.
    pub alert: String,
    /// The rendered TTS text (`None` without one, or when it renders empty).
    pub tts: Option<String>,
}

impl Firing {
    /// The `--simulate` line: `YYYY-MM-DD HH:MM:SS (+Ns) TITLE[: TTS]`.
    pub fn line(&self) -> String {
        match &self.tts {
            Some(t) => format!("{} (+{}s) {}: {}", self.time, self.tick, self.alert, t),
            None => format!("{} (+{}s) {}", self.time, self.tick, self.alert),
        }
    }

    /// The `--simulate --json` line: `{"tick", "now", "time", "alert", "tts"}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "tick": self.tick,
            "now": alea_ezscript::number_to_json(self.now),
            "time": self.time,
            "alert": self.alert,
            "tts": self.tts,
        })
    }
}

/// An error of an alert's script during a simulation (each distinct error once).
#[derive(Clone, Debug, PartialEq)]
pub struct AlertError {
    /// The alert's title (or `settings.payoutScript` / `settings.pointsFormula`).
    pub alert: String,
    /// `condition` or `tts` (or `script` for the settings).
    pub field: &'static str,
    /// The first tick it happened on.
    pub tick: u64,
    /// The message and its position in the field's source.
    pub diagnostic: Diagnostic,
}

/// What a simulation produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimulationReport {
    /// The firings in order.
    pub firings: Vec<Firing>,
    /// Script errors, each distinct one once, in order of first occurrence.
    pub errors: Vec<AlertError>,
    /// The content field of [`Session::simulate_with_content`] as the running clock shows it
    /// (empty for [`Session::simulate`]).
    pub frames: Vec<Frame>,
    /// The tick on which the simulation's total budget ([`MAX_SIMULATE_STEPS`]) was spent and
    /// the simulation stopped (`None`: it ran every tick asked for).
    pub out_of_steps: Option<u64>,
}

/// Content fields rendered at one tick of a simulation, with the clock's own state then.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The tick (0: the file's state before the clock runs).
    pub tick: u64,
    /// Every field's output (its fallback text when it fails), in the order asked for
    /// ([`Session::clock_view`]; [`Session::simulate_with_content`] has one).
    pub texts: Vec<String>,
    /// The clock's `levelIndex` after the tick.
    pub level_index: usize,
    /// The clock's `secondsLeftInLevel` after the tick.
    pub seconds_left_in_level: f64,
    /// Whether the clock runs after the tick (false: paused by a `pauseAfter` level, or
    /// stopped after the last level).
    pub running: bool,
}

impl Frame {
    /// The first field's output (`""` without fields).
    pub fn text(&self) -> &str {
        self.texts.first().map_or("", String::as_str)
    }
}

/// Content fields (each a script, or a template when `true`) compiled once, to render at many
/// ticks ([`Session::clock_view`]); a caller that reports compile errors before running reads
/// them here rather than compiling the fields a second time.
pub struct ContentFields<'a> {
    fields: Vec<(&'a str, CompiledField)>,
}

impl<'a> ContentFields<'a> {
    /// Compiles every field.
    pub fn compile(fields: &[(&'a str, bool)]) -> ContentFields<'a> {
        ContentFields {
            fields: fields
                .iter()
                .map(|&(source, template)| (source, CompiledField::new(source, template)))
                .collect(),
        }
    }

    /// Each field's compile errors, in order (empty when it compiled).
    pub fn diagnostics(&self) -> impl Iterator<Item = &[Diagnostic]> {
        self.fields.iter().map(|(_, f)| f.diagnostics())
    }
}

/// Content fields to render during a simulation: every `every` ticks from tick `from` on,
/// and at the last tick.
struct Rendering<'a> {
    fields: &'a ContentFields<'a>,
    every: u64,
    from: u64,
    /// Ticks after which a paused clock is started again ([`Session::clock_view`]).
    resumes: &'a [u64],
}

struct CompiledAlert {
    title: String,
    condition: Result<Program, Vec<Diagnostic>>,
    empty: bool,
    tts: Option<Template>,
}

impl Session {
    /// Runs the clock for `seconds` one-second ticks from the file state (a paused clock is
    /// started first) and returns every alert firing. More than [`MAX_SIMULATE_SECONDS`] is
    /// an error.
    pub fn simulate(&self, seconds: u64) -> Result<SimulationReport, String> {
        if seconds > MAX_SIMULATE_SECONDS {
            return Err(format!(
                "--simulate is limited to {MAX_SIMULATE_SECONDS} seconds (one week)"
            ));
        }
        Ok(self.simulate_here(seconds, None))
    }

    /// [`Session::simulate`] that also renders a content field (script, or template with
    /// `template`) the way the running clock shows it: at tick 0, every `every` ticks and at
    /// the last tick, into [`SimulationReport::frames`].
    pub fn simulate_with_content(
        &self,
        seconds: u64,
        source: &str,
        template: bool,
        every: u64,
    ) -> Result<SimulationReport, String> {
        if seconds > MAX_SIMULATE_SECONDS {
            return Err(format!(
                "--simulate is limited to {MAX_SIMULATE_SECONDS} seconds (one week)"
            ));
        }
        let fields = ContentFields::compile(&[(source, template)]);
        let content = Rendering {
            fields: &fields,
            every: every.max(1),
            from: 0,
            resumes: &[],
        };
        Ok(self.simulate_here(seconds, Some(&content)))
    }

    /// The clock view of a running tournament: the clock runs from the file state as in
    /// [`Session::simulate`] (same ticks, same alerts, same budget) up to tick `to`, and every
    /// tick from `from` to `to` is a frame with each of `fields` (content scripts, or templates
    /// when `true`, compiled once by [`ContentFields::compile`]) rendered against that tick's
    /// state. `firings` lists the alerts fired after tick `since` up to `to` (a client passes
    /// the last tick it showed; 0 for all). A client that keeps its own elapsed clock time can
    /// so ask for the next frames without the host keeping a session.
    /// `resumes` are the ticks after which the user started the clock again where it was
    /// paused (a `pauseAfter` level, or the end of the tournament's knockouts); a tick at which
    /// the clock runs is ignored.
    pub fn clock_view(
        &self,
        from: u64,
        to: u64,
        fields: &ContentFields<'_>,
        resumes: &[u64],
        since: u64,
    ) -> Result<SimulationReport, String> {
        if to > MAX_SIMULATE_SECONDS {
            return Err(format!(
                "the clock is limited to {MAX_SIMULATE_SECONDS} seconds (one week)"
            ));
        }
        let content = Rendering {
            fields,
            every: 1,
            from: from.min(to),
            resumes,
        };
        let mut report = self.simulate_here(to, Some(&content));
        report.firings.retain(|f| f.tick > since);
        Ok(report)
    }

    fn simulate_here(&self, seconds: u64, content: Option<&Rendering<'_>>) -> SimulationReport {
        let mut report = SimulationReport::default();
        let content_kind = crate::Kind::Content;
        let render = |tick: u64, state: &std::sync::Arc<alea_tournament::State>| {
            content.map(|c| {
                let fuel = self.fuel(content_kind);
                let texts: Vec<String> = c
                    .fields
                    .fields
                    .iter()
                    .map(|(source, field)| {
                        run_field(state, None, &self.format, content_kind, source, field, fuel).text
                    })
                    .collect();
                let clock = &state.tournament().clock;
                Frame {
                    tick,
                    texts,
                    level_index: clock.level_index,
                    seconds_left_in_level: clock.seconds_left_in_level,
                    running: clock.running,
                }
            })
        };
        if content.is_some_and(|c| c.from == 0)
            && let Some(frame) = render(0, &self.state)
        {
            report.frames.push(frame);
        }
        let alerts: Vec<CompiledAlert> = self
            .state
            .data()
            .alerts
            .iter()
            .filter(|a| a.enabled)
            .map(|a| CompiledAlert {
                title: a.title.clone(),
                empty: a.condition.trim().is_empty(),
                condition: Program::compile(&a.condition),
                tts: a.tts.as_deref().map(Template::compile),
            })
            .collect();
        let fuel = self.fuel(crate::Kind::Alert);
        let budget = Budget::new(MAX_SIMULATE_STEPS);
        let new_hooks = || {
            let mut hooks = Hooks::new(
                &self.format,
                self.options.fuel.unwrap_or(alea_ezscript::DEFAULT_FUEL),
                self.now(),
            );
            hooks.budget = Some(&budget);
            hooks
        };
        let zone = self.time_zone().to_string();
        let record = |report: &mut SimulationReport, alert: &str, field, tick, d: Diagnostic| {
            if !report
                .errors
                .iter()
                .any(|e| e.alert == alert && e.field == field && e.diagnostic == d)
            {
                report.errors.push(AlertError {
                    alert: alert.to_string(),
                    field,
                    tick,
                    diagnostic: d,
                });
            }
        };
        let resumes = content.map_or(&[][..], |c| c.resumes);
        let mut sim = Simulation::new(self.tournament.clone(), new_hooks());
        let mut offset = 0;
        let mut last: Option<(u64, std::sync::Arc<alea_tournament::State>)> = None;
        'ticks: loop {
            if let Some((n, state)) = last.take()
                && !state.tournament().clock.running
                && resumes.contains(&n)
            {
                // The clock view's Start after tick n: the paused clock runs again, exactly as
                // the simulation's own start starts a paused clock.
                sim = Simulation::new(state.tournament().clone(), new_hooks());
                offset = n;
            }
            let Some(mut tick) = sim.next() else { break };
            tick.number += offset;
            if tick.number > seconds {
                break;
            }
            last = Some((tick.number, tick.current.clone()));
            if budget.is_spent() {
                report.out_of_steps = Some(tick.number);
                break;
            }
            let due = content.is_some_and(|c| {
                tick.number >= c.from && (tick.number % c.every == 0 || tick.number == seconds)
            });
            if due && let Some(frame) = render(tick.number, &tick.current) {
                report.frames.push(frame);
            }
            if !tick.evaluates_alerts() {
                if content.is_none() {
                    // A stopped clock never starts again (tournament-data.md §8: only the
                    // start of the simulation starts it) and paused ticks fire nothing, so
                    // nothing more can be printed.
                    break;
                }
                continue;
            }
            for alert in &alerts {
                if alert.empty {
                    continue;
                }
                let program = match &alert.condition {
                    Ok(p) => p,
                    Err(ds) => {
                        for d in ds {
                            record(
                                &mut report,
                                &alert.title,
                                "condition",
                                tick.number,
                                d.clone(),
                            );
                        }
                        continue;
                    }
                };
                let host = StateHost::new(tick.current.clone(), Field::Alert, self.locale())
                    .with_snapshot(tick.previous.clone());
                let env = Env {
                    host: &host,
                    formatter: &self.format,
                    fuel: budget.fuel(fuel),
                    ..Env::default()
                };
                let (result, steps) = program.run_metered(&env);
                budget.charge(steps);
                if budget.is_spent() {
                    // This run may have been cut short by the total budget, not its own.
                    report.out_of_steps = Some(tick.number);
                    break 'ticks;
                }
                let fires = match result {
                    Ok(Value::Bool(b)) => b,
                    Ok(_) => {
                        let d =
                            crate::fields::whole("", "Condition must evaluate to true or false.");
                        record(&mut report, &alert.title, "condition", tick.number, d);
                        false
                    }
                    Err(e) => {
                        record(
                            &mut report,
                            &alert.title,
                            "condition",
                            tick.number,
                            e.to_diagnostic(),
                        );
                        false
                    }
                };
                if !fires {
                    continue;
                }
                let env = Env {
                    fuel: budget.fuel(fuel),
                    ..env
                };
                let rendered = alert.tts.as_ref().map(|t| {
                    let (out, steps) = t.render_metered(&env);
                    budget.charge(steps);
                    out
                });
                if budget.is_spent() {
                    report.out_of_steps = Some(tick.number);
                    break 'ticks;
                }
                let tts = rendered.and_then(|out| {
                    for d in out.errors {
                        record(&mut report, &alert.title, "tts", tick.number, d);
                    }
                    (!out.text.is_empty()).then_some(out.text)
                });
                report.firings.push(Firing {
                    tick: tick.number,
                    now: tick.now,
                    time: local_time_text(tick.now, &zone).unwrap_or_default(),
                    alert: alert.title.clone(),
                    tts,
                });
            }
        }
        report
    }
}
