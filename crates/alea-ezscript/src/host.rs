//! The host embedding API: what a host (the tournament data, a test, the CLI) gives scripts.
//!
//! A script sees three layers of names (spec §4.3): the built-ins and `PI`, then the host's
//! globals ([`Host::global`]), then its own variables. Host values are ordinary [`Value`]s, or
//! read-only [`HostObject`]s with properties and methods. A host may also add members to numbers,
//! texts and lists ([`Host::member_kind`], [`Host::member`]), such as `n.toPlayer()` or
//! `cards.pokerCardsToText`.

use crate::Value;
use std::fmt::Debug;

/// What the host says about a global name.
#[derive(Clone, Debug)]
pub enum Global {
    /// The name's value (or the error reading it gives, e.g. a failing derivation).
    Value(Result<Value, String>),
    /// The host knows the name but the current field may not read it
    /// (`NAME is not available in this field`).
    NotAvailable,
    /// The host does not know the name (`Unknown name NAME`, unless it is a built-in).
    Unknown,
}

/// Whether a member is written without parentheses (a property) or with them (a method).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberKind {
    /// `x.name`
    Property,
    /// `x.name(…)`
    Method,
}

/// A read-only object provided by the host, such as a tournament `Player`.
///
/// Property and method lookups return `None` when the object has no such member; the
/// interpreter then reports `Attempted to access missing element NAME on TYPE`.
pub trait HostObject: Debug {
    /// The type name in error messages (`Player`, `Level`, …).
    fn type_name(&self) -> &str;
    /// A property (`p.name`, also `p["name"]`).
    fn property(&self, name: &str) -> Option<Result<Value, String>>;
    /// A method call (`p.something(args)`); `None` if the object has no such method.
    fn method(&self, name: &str, args: &[Value]) -> Option<Result<Value, String>> {
        let _ = (name, args);
        None
    }
    /// Whether `name` is a method (for the `is a method; write it with parentheses` message).
    fn has_method(&self, name: &str) -> bool {
        let _ = name;
        false
    }
    /// The display rule (spec §1: Player → name, Level → title, others `<Chop>` …).
    fn display(&self) -> String {
        format!("<{}>", self.type_name())
    }
    /// The JSON form (`{"$type": "Player", "id": 4}`).
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "$type": self.type_name() })
    }
    /// Identity for `==`: two host objects are equal when their type names and identities
    /// match. The default compares addresses, so only the same `Rc` is equal to itself.
    fn identity(&self) -> u64 {
        self as *const Self as *const () as usize as u64
    }
}

/// The earlier state `was`, `changed` and `becameTrue` read (spec §12.2).
pub enum Previous<'a> {
    /// The field may not use them (`was is not available in this field`).
    NotAvailable,
    /// Allowed, but there is no snapshot yet (one-shot evaluation).
    NoSnapshot,
    /// The previous tick's state.
    Snapshot(&'a dyn Host),
}

/// Everything a host gives a running script. Every method has a default, so `struct Empty;
/// impl Host for Empty {}` is a host with no names.
pub trait Host {
    /// A global name that is not a local of the script.
    fn global(&self, name: &str) -> Global {
        let _ = name;
        Global::Unknown
    }

    /// Whether numbers, texts or lists have an extra member `name` (`toPlayer`,
    /// `pokerHandToCards`, `pokerCardsToText`, …) and of which kind. Built-in members win.
    fn member_kind(&self, receiver: &Value, name: &str) -> Option<MemberKind> {
        let _ = (receiver, name);
        None
    }

    /// Reads the extra property (`args` is `None`) or calls the extra method (`Some(args)`)
    /// that [`Host::member_kind`] announced.
    fn member(
        &self,
        receiver: &Value,
        name: &str,
        args: Option<&[Value]>,
    ) -> Result<Value, String> {
        let _ = args;
        Err(format!(
            "Attempted to access missing element {name} on {}",
            receiver.type_name()
        ))
    }

    /// `now()` in ms since the Unix epoch, constant during an evaluation. `None`: `now()` fails.
    fn now(&self) -> Option<f64> {
        None
    }

    /// The snapshot for `was`, `changed`, `becameTrue`.
    fn previous(&self) -> Previous<'_> {
        Previous::NotAvailable
    }
}

/// A host with no names at all (and no clock).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHost;

impl Host for NoHost {}

/// A simple host: a fixed set of global values and a fixed `now()`.
#[derive(Clone, Debug, Default)]
pub struct MapHost {
    /// The globals.
    pub globals: indexmap::IndexMap<String, Value>,
    /// `now()`.
    pub now: Option<f64>,
}

impl MapHost {
    /// An empty host.
    pub fn new() -> MapHost {
        MapHost::default()
    }

    /// Adds a global.
    pub fn with(mut self, name: &str, value: impl Into<Value>) -> MapHost {
        self.globals.insert(name.to_string(), value.into());
        self
    }

    /// Sets `now()`.
    pub fn with_now(mut self, now_ms: f64) -> MapHost {
        self.now = Some(now_ms);
        self
    }

    /// Globals from a JSON object (`{"name": value, …}`); other JSON gives no globals.
    pub fn from_json(json: &serde_json::Value) -> MapHost {
        let mut host = MapHost::new();
        if let serde_json::Value::Object(map) = json {
            for (k, v) in map {
                host.globals.insert(k.clone(), Value::from_json(v));
            }
        }
        host
    }
}

impl Host for MapHost {
    fn global(&self, name: &str) -> Global {
        match self.globals.get(name) {
            Some(v) => Global::Value(Ok(v.clone())),
            None => Global::Unknown,
        }
    }

    fn now(&self) -> Option<f64> {
        self.now
    }
}
