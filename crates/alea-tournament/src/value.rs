//! The small value type that property lookups return, independent of any script engine.

/// A tournament object, relative to the [`State`](crate::State) that produced it: ask the same
/// state for its properties (a `previous` snapshot's objects belong to the snapshot).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Obj {
    /// A player, by index in the file's `players` (not by id).
    Player(usize),
    /// A table, by index in the file's `tables`.
    Table(usize),
    /// A level, by index in `levels`.
    Level(usize),
    /// A chop, by index in `chops`.
    Chop(usize),
    /// A chip, by index in `chips`.
    Chip(usize),
    /// The log (`log`).
    Log,
    /// A log entry, by index in the dt-sorted log.
    LogEntry(usize),
    /// The hand timer of the state.
    HandTimer,
    /// The state itself as an object (what `previous` is); its properties are the globals.
    Tournament,
}

impl Obj {
    /// The type name scripts see in errors (`Player`, `Table`, …).
    pub fn type_name(self) -> &'static str {
        match self {
            Obj::Player(_) => "Player",
            Obj::Table(_) => "Table",
            Obj::Level(_) => "Level",
            Obj::Chop(_) => "Chop",
            Obj::Chip(_) => "Chip",
            Obj::Log => "Log",
            Obj::LogEntry(_) => "LogEntry",
            Obj::HandTimer => "HandTimer",
            Obj::Tournament => "Tournament",
        }
    }
}

/// A value a script can read. Numbers are f64 as in EZScript; `Map` keeps insertion order
/// (chip `params` and custom log fields that hold JSON objects).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// No value (`null` in lists, `""` when displayed).
    Nothing,
    /// `true` / `false`.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A text.
    Text(String),
    /// A list.
    List(Vec<Value>),
    /// An object with text keys in insertion order.
    Map(Vec<(String, Value)>),
    /// A tournament object.
    Object(Obj),
}

impl Value {
    /// The number, if this is one.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The bool, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The text, if this is one.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The items, if this is a list.
    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(items) => Some(items),
            _ => None,
        }
    }

    /// The object reference, if this is one.
    pub fn as_object(&self) -> Option<Obj> {
        match self {
            Value::Object(o) => Some(*o),
            _ => None,
        }
    }

    pub(crate) fn from_json(v: &serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Nothing,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(s) => Value::Text(s.clone()),
            serde_json::Value::Array(items) => {
                Value::List(items.iter().map(Value::from_json).collect())
            }
            serde_json::Value::Object(map) => Value::Map(
                map.iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v)))
                    .collect(),
            ),
        }
    }

    pub(crate) fn numbers(items: impl IntoIterator<Item = f64>) -> Value {
        Value::List(items.into_iter().map(Value::Number).collect())
    }

    pub(crate) fn opt_number(n: Option<f64>) -> Value {
        n.map_or(Value::Nothing, Value::Number)
    }
}

/// A number by EZScript's display rule (ECMAScript `Number::toString`): the workspace's one
/// formatter, [`alea_core::js_number`].
///
/// ```
/// use alea_tournament::display_number;
/// assert_eq!(display_number(2.4), "2.4");
/// assert_eq!(display_number(1e21), "1e+21");
/// ```
pub fn display_number(x: f64) -> String {
    alea_core::js_number(x)
}
