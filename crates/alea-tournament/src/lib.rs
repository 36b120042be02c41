//! The poker tournament that EZScript reads (`../shared/specs/tournament-data.md`): the JSON
//! file format with validation errors that name the JSON path, the stored model, every derived
//! global, the objects and their read-only properties, payouts, and the one-second clock.
//!
//! Language-independent: the EZScript host binds names to [`State::global`] and
//! [`State::property`], runs the payout script and points formula through [`ScriptHooks`], and
//! evaluates alert conditions on the [`Tick`]s of a [`Simulation`].
//!
//! ```
//! use alea_tournament::{LoadOptions, State, Value, load};
//!
//! let file = r#"{
//!   "settings": {"buyInCost": 50, "startingChips": 10000},
//!   "levels": [{"smallBlind": 25, "bigBlind": 50}],
//!   "players": [{"id": 1, "name": "Alice Brandt"}, {"id": 2, "name": "Bob Carver"}],
//!   "log": [{"type": "buyIn", "dt": 0, "players": [1, 2]}],
//!   "clock": {"now": 1000}
//! }"#;
//! let state = State::without_scripts(load(file, &LoadOptions::default()).unwrap());
//! assert_eq!(state.global("totalCollected"), Some(Value::Number(100.0)));
//! assert_eq!(state.global("payouts"), Some(Value::List(vec![
//!     Value::Number(50.0), Value::Number(30.0), Value::Number(20.0)])));
//! let alice = state.to_player(1.0).unwrap();
//! assert_eq!(state.property(alice, "initials"), Some(Value::Text("AB".into())));
//! assert_eq!(state.to_player(9.0).unwrap_err(), "No player with number 9");
//!
//! let err = load(r#"{"players": [{"name": "A", "chair": 2}]}"#, &LoadOptions::default());
//! assert_eq!(err.unwrap_err().to_string(), "players[0].chair: unknown key");
//! ```
#![forbid(unsafe_code)]

mod clock;
mod hand;
mod json;
mod load;
mod locate;
mod model;
mod payout;
mod props;
mod state;
mod time;
mod value;

pub use clock::{Simulation, Tick};
pub use json::LoadError;
pub use load::{LoadOptions, from_json, limits, load};
pub use model::{
    Alert, Chip, Chop, Clock, EntryKind, HandTimer, HighHand, Level, LogEntry, PlayerData,
    PurchaseKind, Settings, TableData, Tournament, TournamentData,
};
pub use payout::{
    default_payout_percentages, net_prize, percentage_payouts, remaining, round_payouts,
};
pub use props::{ALERT_ONLY_NAMES, Field, GLOBAL_NAMES, NameStatus, name_status, property_names};
pub use state::{
    Derived, NoScripts, PAYOUT_SCRIPT_NAMES, PayoutInputs, PayoutSource, PlayerStats, ScriptHooks,
    State,
};
pub use time::{local_time_text, parse_time};
pub use value::{Obj, Value, display_number};

impl Tournament {
    /// An empty tournament (the CLI's default without `--data`).
    pub fn empty(options: &LoadOptions) -> Result<Tournament, LoadError> {
        load("{}", options)
    }
}
