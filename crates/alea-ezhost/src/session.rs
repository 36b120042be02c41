//! [`Session`]: one tournament (or none), one locale, one time zone, one now; evaluates any
//! field kind, simulates the clock and checks a file's scripts.

use crate::fields::{
    self, HookField, Hooks, insertion_of, insertion_ranges, run_payout, run_points,
};
use crate::format::LocaleFormat;
use crate::host::{PayoutHost, StateHost};
use alea_core::Diagnostic;
use alea_ezscript::{ALERT_FUEL, DEFAULT_FUEL, Env, Program, Template, Value};
use alea_tournament::{
    self as tour, Field, LoadError, LoadOptions, State, Tournament, percentage_payouts,
    round_payouts,
};
use std::fmt;
use std::sync::Arc;

/// A script field kind (ezscript.md §12.1; the CLI's `--kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A content value (a script, or a template with `--template`): text.
    Content,
    /// A content, row or column condition: a bool; empty = true; failure = false.
    Condition,
    /// An alert condition (a bool; empty never fires), or with a template its TTS text.
    Alert,
    /// The payout script: a list of at most 20 finite amounts ≥ 0; failure = percentages.
    Payout,
    /// The points formula: a finite number per placed player; failure = 0.
    Points,
}

impl Kind {
    /// The `--kind` name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Content => "content",
            Kind::Condition => "condition",
            Kind::Alert => "alert",
            Kind::Payout => "payout",
            Kind::Points => "points",
        }
    }

    /// Parses a `--kind` name.
    pub fn from_name(name: &str) -> Option<Kind> {
        [
            Kind::Content,
            Kind::Condition,
            Kind::Alert,
            Kind::Payout,
            Kind::Points,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }

    /// The names this kind may read (tournament-data.md §7).
    pub fn field(self) -> Field {
        match self {
            Kind::Content | Kind::Condition => Field::Standard,
            Kind::Alert => Field::Alert,
            Kind::Payout => Field::Payout,
            Kind::Points => Field::Points,
        }
    }

    /// The default step budget (ezscript.md §11).
    pub fn default_fuel(self) -> u64 {
        match self {
            Kind::Alert => ALERT_FUEL,
            _ => DEFAULT_FUEL,
        }
    }
}

/// What a session is evaluated with. Nothing here is read from the environment: the caller
/// resolves `LC_ALL`/`LANG` and the host's zone and clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// BCP 47 locale tag (`--locale`, else the environment's, else `en-US`).
    pub locale: String,
    /// `--tz`: replaces the file's `clock.timeZone`.
    pub time_zone: Option<String>,
    /// The host's zone, used when neither `--tz` nor the file gives one.
    pub host_time_zone: String,
    /// `--now` (ms since the epoch): replaces the file's `clock.now`.
    pub now: Option<f64>,
    /// The host's clock, used when neither `--now` nor the file gives a now.
    pub host_now: f64,
    /// `--fuel`: the step budget of every evaluation (default per kind).
    pub fuel: Option<u64>,
    /// `--player ID`: the points kind prints this player's points only.
    pub player: Option<f64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            locale: alea_locale::DEFAULT_LOCALE.into(),
            time_zone: None,
            host_time_zone: "UTC".into(),
            now: None,
            host_now: 0.0,
            fuel: None,
            player: None,
        }
    }
}

/// Why a session could not start (the CLI exits with status 2).
#[derive(Clone, Debug, PartialEq)]
pub enum SessionError {
    /// The tournament file is invalid (the JSON path and what is wrong).
    Data(LoadError),
    /// The locale tag, time zone or currency is unusable.
    Locale(String),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Data(e) => write!(f, "{e}"),
            SessionError::Locale(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for SessionError {}

/// One failure of a script: the diagnostic (span into the evaluated source) and, in a
/// template, the 0-based insertion it belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptError {
    /// The message and position.
    pub diagnostic: Diagnostic,
    /// The insertion of a template (`None` for scripts).
    pub insertion: Option<usize>,
}

impl ScriptError {
    /// The JSON form of `--json`: `{"message", "insertion"}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"message": self.diagnostic.message, "insertion": self.insertion})
    }
}

/// The result of evaluating one field.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The field kind.
    pub kind: Kind,
    /// Whether everything succeeded (exit status 0).
    pub ok: bool,
    /// What the CLI prints (the fallback result on failure), without a final newline.
    pub text: String,
    /// The JSON `value` (ezscript.md §14).
    pub value: serde_json::Value,
    /// The failures, in order.
    pub errors: Vec<ScriptError>,
}

impl Outcome {
    /// The CLI's `--json` object: `{"ok", "kind", "value", "text", "errors"}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "ok": self.ok,
            "kind": self.kind.name(),
            "value": self.value,
            "text": self.text,
            "errors": self.errors.iter().map(ScriptError::to_json).collect::<Vec<_>>(),
        })
    }
}

/// A tournament with one locale, time zone and now, ready to evaluate fields.
///
/// Construction derives the tournament's state once (running its payout script and points
/// formula); evaluations never change it.
#[derive(Debug)]
pub struct Session {
    pub(crate) tournament: Tournament,
    pub(crate) state: Arc<State>,
    pub(crate) format: LocaleFormat,
    pub(crate) options: Options,
    pub(crate) hook_errors: Vec<(HookField, Diagnostic)>,
    pub(crate) source_text: Option<String>,
}

impl Session {
    /// Loads a tournament file's text (`None`: an empty tournament; a leading byte order mark
    /// is ignored) and derives its state.
    pub fn new(tournament_json: Option<&str>, options: Options) -> Result<Session, SessionError> {
        let tournament_json = tournament_json.map(crate::without_bom);
        let load = LoadOptions {
            now: options.now,
            host_now: options.host_now,
            time_zone: options.time_zone.clone(),
            host_time_zone: options.host_time_zone.clone(),
        };
        let tournament = match tournament_json {
            Some(text) => tour::load(text, &load),
            None => Tournament::empty(&load),
        }
        .map_err(SessionError::Data)?;
        let data = tournament.data();
        let format = LocaleFormat::new(
            &options.locale,
            &data.time_zone,
            tournament.now,
            data.settings.currency.as_deref(),
        )
        .map_err(|e| SessionError::Locale(e.to_string()))?;
        let fuel = options.fuel.unwrap_or(DEFAULT_FUEL);
        let mut hooks = Hooks::new(&format, fuel, tournament.now);
        let state = State::new(tournament.clone(), &mut hooks);
        let hook_errors = hooks.errors;
        Ok(Session {
            tournament,
            state: Arc::new(state),
            format,
            options,
            hook_errors,
            source_text: tournament_json.map(str::to_string),
        })
    }

    /// The derived state the fields read.
    pub fn state(&self) -> &Arc<State> {
        &self.state
    }

    /// The resolved locale tag (`de-DE`).
    pub fn locale(&self) -> &str {
        self.format.locale_tag()
    }

    /// The tournament's time zone (`--tz` > `clock.timeZone` > host).
    pub fn time_zone(&self) -> &str {
        self.format.time_zone()
    }

    /// The evaluation's now (ms since the epoch).
    pub fn now(&self) -> f64 {
        self.tournament.now
    }

    /// Errors of the file's payout script and points formula while the state was derived
    /// (the payouts then came from the percentages; the player scored 0).
    pub fn hook_errors(&self) -> &[(HookField, Diagnostic)] {
        &self.hook_errors
    }

    /// The locale formatter (an [`alea_ezscript::Formatter`]).
    pub fn formatter(&self) -> &LocaleFormat {
        &self.format
    }

    pub(crate) fn fuel(&self, kind: Kind) -> u64 {
        self.options.fuel.unwrap_or(kind.default_fuel())
    }

    /// Evaluates `source` as a field of `kind` (`template`: content values and TTS texts).
    /// `None` for payout and points uses the file's script / formula.
    pub fn eval(&self, kind: Kind, source: Option<&str>, template: bool) -> Outcome {
        match kind {
            Kind::Payout => self.payout(source),
            Kind::Points => self.points(source),
            _ => self.eval_field(kind, source.unwrap_or(""), template, None),
        }
    }

    /// Evaluates several fields in order, each as [`Session::eval`] does (on the caller's
    /// thread: evaluation fits a default 2 MiB thread, so no call starts one).
    pub fn eval_many(&self, fields: &[(Kind, &str, bool)]) -> Vec<Outcome> {
        fields
            .iter()
            .map(|&(kind, src, template)| self.eval(kind, Some(src), template))
            .collect()
    }

    /// A content, condition or alert field against the session state (alerts: with
    /// `snapshot` as the previous tick, or none). Runs on the caller's thread.
    pub(crate) fn eval_field(
        &self,
        kind: Kind,
        src: &str,
        template: bool,
        snapshot: Option<&Arc<State>>,
    ) -> Outcome {
        eval_field(
            &self.state,
            snapshot,
            &self.format,
            kind,
            src,
            template,
            self.fuel(kind),
        )
    }

    fn payout(&self, source: Option<&str>) -> Outcome {
        let file_script = self.state.data().settings.payout_script.clone();
        let src = source.map(str::to_string).or(file_script);
        let s = &self.state;
        let host = PayoutHost::new(
            |n| s.global(n).and_then(|v| v.as_number()),
            self.now(),
            self.locale(),
        );
        let net_prize = s.derived().net_prize;
        let (result, errors) = match &src {
            Some(src) => match run_payout(src, &host, &self.format, self.fuel(Kind::Payout)) {
                Ok(a) => (Some(a), vec![]),
                Err(d) => (None, d),
            },
            None => (None, vec![]),
        };
        let fallback = result.is_none();
        let settings = &s.data().settings;
        let amounts = result.unwrap_or_else(|| {
            percentage_payouts(&settings.effective_payout_percentages(), net_prize)
        });
        let payouts = round_payouts(&amounts, settings.payout_round_to);
        let remaining = tour::remaining(net_prize, &payouts);
        let mut lines: Vec<String> = payouts
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{}\t{}", i + 1, tour::display_number(*p)))
            .collect();
        if remaining != 0.0 {
            lines.push(format!("Remaining\t{}", tour::display_number(remaining)));
        }
        let nums = |v: &[f64]| {
            v.iter()
                .map(|x| alea_ezscript::number_to_json(*x))
                .collect::<Vec<_>>()
        };
        Outcome {
            kind: Kind::Payout,
            ok: errors.is_empty(),
            text: lines.join("\n"),
            value: serde_json::json!({
                "amounts": nums(&amounts),
                "payouts": nums(&payouts),
                "remaining": alea_ezscript::number_to_json(remaining),
                "fallback": fallback,
            }),
            errors: errors
                .into_iter()
                .map(|diagnostic| ScriptError {
                    diagnostic,
                    insertion: None,
                })
                .collect(),
        }
    }

    fn points(&self, source: Option<&str>) -> Outcome {
        let data = self.state.data();
        let src = source
            .map(str::to_string)
            .or_else(|| data.settings.points_formula.clone())
            .unwrap_or_else(|| fields::DEFAULT_POINTS_FORMULA.to_string());
        let mut errors: Vec<ScriptError> = Vec::new();
        let mut rows = Vec::new();
        let wanted: Vec<usize> = match self.options.player {
            Some(id) => match self.state.to_player(id) {
                Ok(tour::Obj::Player(i)) => vec![i],
                Ok(_) | Err(_) => {
                    let d = Diagnostic::error(format!(
                        "No player with number {}",
                        tour::display_number(id)
                    ));
                    return Outcome {
                        kind: Kind::Points,
                        ok: false,
                        text: String::new(),
                        value: serde_json::Value::Null,
                        errors: vec![ScriptError {
                            diagnostic: d,
                            insertion: None,
                        }],
                    };
                }
            },
            None => self.state.placed_players(),
        };
        for i in wanted {
            let p = &data.players[i];
            let stats = self.state.player_stats(i).cloned().unwrap_or_default();
            let host = StateHost::new(self.state.clone(), Field::Points, self.locale())
                .with_player_id(f64::from(p.id));
            let points = if stats.place > 0.0 || self.options.player.is_some() {
                match run_points(&src, &host, &self.format, self.fuel(Kind::Points)) {
                    Ok(x) => x,
                    Err(ds) => {
                        for d in ds {
                            if !errors.iter().any(|e| e.diagnostic == d) {
                                errors.push(ScriptError {
                                    diagnostic: d,
                                    insertion: None,
                                });
                            }
                        }
                        0.0
                    }
                }
            } else {
                0.0
            };
            rows.push((p.id, p.name.clone(), stats.place, points));
        }
        let (text, value) = if self.options.player.is_some() {
            let x = rows.first().map_or(0.0, |r| r.3);
            (tour::display_number(x), alea_ezscript::number_to_json(x))
        } else {
            let text = rows
                .iter()
                .map(|(_, name, place, points)| {
                    format!(
                        "{}\t{}\t{}",
                        tour::display_number(*place),
                        name,
                        tour::display_number(*points)
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            let value = rows
                .iter()
                .map(|(id, name, place, points)| {
                    serde_json::json!({
                        "id": id,
                        "name": name,
                        "place": alea_ezscript::number_to_json(*place),
                        "points": alea_ezscript::number_to_json(*points),
                    })
                })
                .collect();
            (text, serde_json::Value::Array(value))
        };
        Outcome {
            kind: Kind::Points,
            ok: errors.is_empty(),
            text,
            value,
            errors,
        }
    }
}

/// Evaluates a content, condition or alert field (see [`Session::eval`]).
pub(crate) fn eval_field(
    state: &Arc<State>,
    snapshot: Option<&Arc<State>>,
    format: &LocaleFormat,
    kind: Kind,
    src: &str,
    template: bool,
    fuel: u64,
) -> Outcome {
    let compiled = CompiledField::new(src, template);
    run_field(state, snapshot, format, kind, src, &compiled, fuel)
}

/// A field compiled once, to run at many ticks (the clock's content fields).
pub(crate) enum CompiledField {
    Template(Template),
    Script(Result<Program, Vec<Diagnostic>>),
}

impl CompiledField {
    pub(crate) fn new(src: &str, template: bool) -> CompiledField {
        if template {
            CompiledField::Template(Template::compile(src))
        } else {
            CompiledField::Script(Program::compile(src))
        }
    }

    /// Its compile errors (empty when it compiled).
    pub(crate) fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            CompiledField::Template(t) => &t.diagnostics,
            CompiledField::Script(Ok(_)) => &[],
            CompiledField::Script(Err(ds)) => ds,
        }
    }
}

/// Runs field `src`, compiled as `compiled` (see [`eval_field`]).
pub(crate) fn run_field(
    state: &Arc<State>,
    snapshot: Option<&Arc<State>>,
    format: &LocaleFormat,
    kind: Kind,
    src: &str,
    compiled: &CompiledField,
    fuel: u64,
) -> Outcome {
    let mut host = StateHost::new(state.clone(), kind.field(), format.locale_tag());
    if let Some(prev) = snapshot {
        host = host.with_snapshot(prev.clone());
    }
    let env = Env {
        host: &host,
        formatter: format,
        fuel,
        ..Env::default()
    };
    let program = match compiled {
        CompiledField::Script(p) => p,
        CompiledField::Template(t) => {
            let out = t.render(&env);
            let ranges = insertion_ranges(src);
            let errors: Vec<ScriptError> = out
                .errors
                .into_iter()
                .map(|d| ScriptError {
                    insertion: d.span.and_then(|s| insertion_of(&ranges, s)),
                    diagnostic: d,
                })
                .collect();
            return Outcome {
                kind,
                ok: errors.is_empty(),
                value: serde_json::Value::String(out.text.clone()),
                text: out.text,
                errors,
            };
        }
    };
    let is_bool_kind = matches!(kind, Kind::Condition | Kind::Alert);
    if is_bool_kind && src.trim().is_empty() {
        // An empty condition is true; an empty alert condition never fires.
        let b = kind == Kind::Condition;
        return Outcome {
            kind,
            ok: true,
            text: b.to_string(),
            value: serde_json::Value::Bool(b),
            errors: vec![],
        };
    }
    let result = match program {
        Ok(p) => p.run_display(&env).map_err(|e| vec![e.to_diagnostic()]),
        Err(ds) => Err(ds.clone()),
    };
    let errors = |ds: Vec<Diagnostic>| -> Vec<ScriptError> {
        ds.into_iter()
            .map(|diagnostic| ScriptError {
                diagnostic,
                insertion: None,
            })
            .collect()
    };
    match (result, is_bool_kind) {
        (Ok(out), false) => {
            let mut budget = 1_000_000;
            let value = out
                .value
                .to_json_bounded(&mut budget)
                .unwrap_or_else(|| serde_json::Value::String(out.text.clone()));
            Outcome {
                kind,
                ok: true,
                text: out.text,
                value,
                errors: vec![],
            }
        }
        (Ok(out), true) => match out.value {
            Value::Bool(b) => Outcome {
                kind,
                ok: true,
                text: b.to_string(),
                value: serde_json::Value::Bool(b),
                errors: vec![],
            },
            _ => Outcome {
                kind,
                ok: false,
                text: "false".into(),
                value: serde_json::Value::Bool(false),
                errors: errors(vec![fields::whole(
                    src,
                    "Condition must evaluate to true or false.",
                )]),
            },
        },
        (Err(ds), false) => Outcome {
            kind,
            ok: false,
            text: String::new(),
            value: serde_json::Value::Null,
            errors: errors(ds),
        },
        (Err(ds), true) => Outcome {
            kind,
            ok: false,
            text: "false".into(),
            value: serde_json::Value::Bool(false),
            errors: errors(ds),
        },
    }
}
