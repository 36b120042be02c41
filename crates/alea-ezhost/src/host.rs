//! The EZScript host over a tournament state: global names per field kind
//! (tournament-data.md §7), tournament objects with their properties, the number and card
//! members, `now()`, and the `was` snapshot of alerts.

use alea_ezscript::{Closure, Global, Host, HostObject, Map, MemberKind, Previous, Value};
use alea_tournament::{
    self as tour, Field, NameStatus, Obj, PAYOUT_SCRIPT_NAMES, State, name_status,
};
use std::rc::Rc;
use std::sync::Arc;

/// Number methods that reach the tournament (tournament-data.md §5).
const NUMBER_METHODS: &[&str] = &[
    "toPlayer",
    "toPlayerName",
    "toPlayerShortName",
    "toPlayerInitials",
    "toTable",
];
/// List properties of the card helpers (tournament-data.md §6).
const CARD_PROPERTIES: &[&str] = &[
    "pokerCardsToText",
    "pokerCardsToHandType",
    "pokerCardsToValue",
    "pokerCardsToHandName",
];

/// Converts a tournament value, wrapping objects with the state they belong to.
pub(crate) fn convert(v: &tour::Value, state: &Arc<State>, field: Field) -> Value {
    match v {
        tour::Value::Nothing => Value::Nothing,
        tour::Value::Bool(b) => Value::Bool(*b),
        tour::Value::Number(x) => Value::Number(*x),
        tour::Value::Text(s) => Value::text(s),
        tour::Value::List(items) => {
            Value::list(items.iter().map(|i| convert(i, state, field)).collect())
        }
        tour::Value::Map(entries) => {
            let mut map = Map::new();
            for (k, v) in entries {
                map.insert(Rc::from(k.as_str()), convert(v, state, field));
            }
            Value::Object(Rc::new(map))
        }
        tour::Value::Object(obj) => Value::host(TournamentObject {
            state: state.clone(),
            obj: *obj,
            field,
        }),
    }
}

/// A tournament object (Player, Table, Level, …) read from one state (a `previous` snapshot's
/// objects keep reading the snapshot).
#[derive(Debug)]
pub(crate) struct TournamentObject {
    state: Arc<State>,
    obj: Obj,
    field: Field,
}

impl HostObject for TournamentObject {
    fn type_name(&self) -> &str {
        self.obj.type_name()
    }

    fn property(&self, name: &str) -> Option<Result<Value, String>> {
        if self.field == Field::Points && name == "points" && matches!(self.obj, Obj::Player(_)) {
            return Some(Err("points cannot be read inside the points formula".into()));
        }
        if let Obj::Tournament = self.obj {
            // `previous.NAME`: the snapshot's globals, with the field's restrictions.
            return match global(&self.state, self.field, name) {
                Global::Value(v) => Some(v),
                _ => None,
            };
        }
        self.state
            .read_property(self.obj, name)
            .map(|r| r.map(|v| convert(&v, &self.state, self.field)))
    }

    fn display(&self) -> String {
        self.state.display_object(self.obj)
    }

    fn to_json(&self) -> serde_json::Value {
        let mut out = serde_json::Map::new();
        out.insert("$type".into(), self.obj.type_name().into());
        if let Some((key, value)) = self.state.object_key(self.obj) {
            out.insert(key.into(), alea_ezscript::number_to_json(value));
        }
        serde_json::Value::Object(out)
    }

    fn identity(&self) -> u64 {
        // The same object in two snapshots is the same object (`p == previous.chipLeaderPlayer`).
        let (kind, index) = match self.obj {
            Obj::Player(i) => (1, i),
            Obj::Table(i) => (2, i),
            Obj::Level(i) => (3, i),
            Obj::Chop(i) => (4, i),
            Obj::Chip(i) => (5, i),
            Obj::Log => (6, 0),
            Obj::LogEntry(i) => (7, i),
            Obj::HandTimer => (8, 0),
            Obj::Tournament => (9, 0),
        };
        (kind << 56) | (index as u64 & ((1 << 56) - 1))
    }
}

/// A global of `state` as `field` sees it (without the alert-runtime names).
fn global(state: &Arc<State>, field: Field, name: &str) -> Global {
    match name_status(field, name) {
        NameStatus::Unknown => Global::Unknown,
        NameStatus::NotAvailable => Global::NotAvailable,
        NameStatus::Allowed => match state.global(name) {
            Some(v) => Global::Value(Ok(convert(&v, state, field))),
            None => Global::Unknown,
        },
    }
}

/// The host of content, condition, alert and points fields: one state, the names its field
/// may read, and for alerts the previous tick's state.
pub struct StateHost {
    state: Arc<State>,
    field: Field,
    language: String,
    player_id: Option<f64>,
    snapshot: Option<Box<StateHost>>,
    /// Alert fields without a snapshot (one-shot evaluation): `was` fails, `previous` is now.
    alert_without_snapshot: bool,
}

impl StateHost {
    /// A host for `field` over `state`; `locale` picks the hand names' language.
    pub fn new(state: Arc<State>, field: Field, locale: &str) -> StateHost {
        StateHost {
            state,
            field,
            language: locale.to_string(),
            player_id: None,
            snapshot: None,
            alert_without_snapshot: field == Field::Alert,
        }
    }

    /// The points formula's `playerId`.
    pub fn with_player_id(mut self, id: f64) -> StateHost {
        self.player_id = Some(id);
        self
    }

    /// The previous tick's state for `was`, `changed`, `becameTrue`, `previous` and
    /// `previousHandTimer` (alert fields).
    pub fn with_snapshot(mut self, previous: Arc<State>) -> StateHost {
        let mut snap = StateHost::new(previous, self.field, &self.language);
        snap.alert_without_snapshot = false;
        self.snapshot = Some(Box::new(snap));
        self.alert_without_snapshot = false;
        self
    }

    fn snapshot_state(&self) -> &Arc<State> {
        self.snapshot.as_ref().map_or(&self.state, |s| &s.state)
    }
}

impl Host for StateHost {
    fn global(&self, name: &str) -> Global {
        match (name, name_status(self.field, name)) {
            (_, NameStatus::NotAvailable) => Global::NotAvailable,
            ("previous", NameStatus::Allowed) => Global::Value(Ok(convert(
                &tour::Value::Object(Obj::Tournament),
                self.snapshot_state(),
                self.field,
            ))),
            ("previousHandTimer", NameStatus::Allowed) => Global::Value(Ok(convert(
                &tour::Value::Object(Obj::HandTimer),
                self.snapshot_state(),
                self.field,
            ))),
            ("playerId", NameStatus::Allowed) => match self.player_id {
                Some(id) => Global::Value(Ok(Value::Number(id))),
                None => Global::Value(Err("playerId has no value outside a player".into())),
            },
            ("was" | "changed" | "becameTrue", _) => Global::Unknown,
            _ => global(&self.state, self.field, name),
        }
    }

    fn member_kind(&self, receiver: &Value, name: &str) -> Option<MemberKind> {
        member_kind(receiver, name)
    }

    fn member(
        &self,
        receiver: &Value,
        name: &str,
        _args: Option<&[Value]>,
    ) -> Result<Value, String> {
        if let Some(v) = card_member(receiver, name, &self.language) {
            return v;
        }
        let Value::Number(n) = receiver else {
            return Err(missing(receiver, name));
        };
        let s = &self.state;
        let obj =
            |r: Result<Obj, String>| r.map(|o| convert(&tour::Value::Object(o), s, self.field));
        match name {
            "toPlayer" => obj(s.to_player(*n)),
            "toTable" => obj(s.to_table(*n)),
            "toPlayerName" => Ok(Value::from(s.to_player_name(*n))),
            "toPlayerShortName" => Ok(Value::from(s.to_player_short_name(*n))),
            "toPlayerInitials" => Ok(Value::from(s.to_player_initials(*n))),
            _ => Err(missing(receiver, name)),
        }
    }

    fn now(&self) -> Option<f64> {
        Some(self.state.tournament().now)
    }

    fn previous(&self) -> Previous<'_> {
        match (&self.snapshot, self.field) {
            (Some(s), _) => Previous::Snapshot(s.as_ref()),
            (None, Field::Alert) if self.alert_without_snapshot => Previous::NoSnapshot,
            (None, Field::Alert) => Previous::NoSnapshot,
            _ => Previous::NotAvailable,
        }
    }
}

fn missing(receiver: &Value, name: &str) -> String {
    format!(
        "Attempted to access missing element {name} on {}",
        receiver.type_name()
    )
}

fn member_kind(receiver: &Value, name: &str) -> Option<MemberKind> {
    match receiver {
        Value::Number(_) if NUMBER_METHODS.contains(&name) => Some(MemberKind::Method),
        Value::Number(_) if name == "pokerHandToCards" => Some(MemberKind::Property),
        Value::List(_) if CARD_PROPERTIES.contains(&name) => Some(MemberKind::Property),
        _ => None,
    }
}

/// The card helpers of tournament-data.md §6; `None` if `name` is not one.
fn card_member(receiver: &Value, name: &str, locale: &str) -> Option<Result<Value, String>> {
    use alea_cards as cards;
    let numbers = |items: &[Value]| -> Vec<f64> {
        items
            .iter()
            .map(|v| match v {
                Value::Number(x) => *x,
                _ => f64::NAN,
            })
            .collect()
    };
    let err = |e: cards::EzCardError| e.to_string();
    Some(match (receiver, name) {
        (Value::Number(n), "pokerHandToCards") => cards::poker_hand_to_cards(*n)
            .map(|c| Value::list(c.iter().map(|&x| Value::Number(f64::from(x))).collect()))
            .map_err(err),
        (Value::List(items), _) if CARD_PROPERTIES.contains(&name) => {
            let n = numbers(items);
            match name {
                "pokerCardsToText" => cards::poker_cards_to_text(&n).map(Value::from),
                "pokerCardsToHandType" => cards::poker_cards_to_hand_type(&n).map(Value::text),
                "pokerCardsToValue" => {
                    cards::poker_cards_to_value(&n).map(|v| Value::Number(f64::from(v)))
                }
                _ => cards::poker_cards_to_hand_name(&n, locale).map(Value::text),
            }
            .map_err(err)
        }
        _ => return None,
    })
}

/// The payout script's host (tournament-data.md §7): only the payout names,
/// `defaultPayoutPercentages(count)`, the built-ins and the card helpers.
pub struct PayoutHost {
    values: Vec<(&'static str, f64)>,
    now: f64,
    language: String,
}

impl PayoutHost {
    /// A host reading the payout names through `get` (a `PayoutInputs` or a state's globals).
    pub fn new(get: impl Fn(&str) -> Option<f64>, now: f64, locale: &str) -> PayoutHost {
        PayoutHost {
            values: PAYOUT_SCRIPT_NAMES
                .iter()
                .map(|n| (*n, get(n).unwrap_or(0.0)))
                .collect(),
            now,
            language: locale.to_string(),
        }
    }
}

impl Host for PayoutHost {
    fn global(&self, name: &str) -> Global {
        if name == "defaultPayoutPercentages" {
            return Global::Value(Ok(Closure::native(name, |args| match args {
                [Value::Number(n)] => Ok(Value::list(
                    tour::default_payout_percentages(*n)
                        .into_iter()
                        .map(Value::Number)
                        .collect(),
                )),
                [other] => Err(format!(
                    "defaultPayoutPercentages needs a number, got {}",
                    other.type_name()
                )),
                _ => Err(format!(
                    "defaultPayoutPercentages expects 1 argument, got {}",
                    args.len()
                )),
            })));
        }
        if let Some((_, v)) = self.values.iter().find(|(n, _)| *n == name) {
            return Global::Value(Ok(Value::Number(*v)));
        }
        match name_status(Field::Payout, name) {
            NameStatus::Unknown => Global::Unknown,
            _ => Global::NotAvailable,
        }
    }

    fn member_kind(&self, receiver: &Value, name: &str) -> Option<MemberKind> {
        member_kind(receiver, name)
    }

    fn member(
        &self,
        receiver: &Value,
        name: &str,
        _args: Option<&[Value]>,
    ) -> Result<Value, String> {
        match card_member(receiver, name, &self.language) {
            Some(v) => v,
            None => Err(format!("{name} is not available in this field")),
        }
    }

    fn now(&self) -> Option<f64> {
        Some(self.now)
    }
}
