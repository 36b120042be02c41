//! The stored model: what a validated tournament file holds, with every default applied.

use std::collections::HashMap;
use std::sync::Arc;

use crate::value::Value;

/// `settings` of the file (tournament-data.md §3), defaults applied.
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)] // each field is the settings key of the same name (camelCase in the file)
pub struct Settings {
    pub title: String,
    pub starting_chips: f64,
    pub buy_in_cost: f64,
    pub addon_cost: f64,
    pub rebuy_cost: f64,
    pub addon_chips: f64,
    pub rebuy_chips: f64,
    pub rebuy_end_level: f64,
    pub bounty_chip_cost: f64,
    pub ante_type: f64,
    pub levels_per_break: f64,
    pub min_players_for_consolidation: f64,
    pub expected_players: f64,
    pub expected_addons: f64,
    pub expected_rebuys: f64,
    pub payout_adjustment: f64,
    pub addons_allowed: bool,
    pub rebuys_allowed: bool,
    pub use_bounty_chips: bool,
    pub need_chip_to_win_chip: bool,
    pub pause_after_level: bool,
    pub pause_after_break: bool,
    pub initial_big_blind: f64,
    pub blind_growth_rate: f64,
    pub level_minutes: f64,
    pub break_minutes: f64,
    pub pregame_minutes: f64,
    pub default_seats_per_table: f64,
    pub tables_out_of_balance_threshold: f64,
    pub payout_count: f64,
    pub payout_round_to: f64,
    /// As given in the file; [`Settings::effective_payout_percentages`] applies the default.
    pub payout_percentages: Option<Vec<f64>>,
    pub payout_script: Option<String>,
    pub currency: Option<String>,
    pub points_formula: Option<String>,
}

impl Settings {
    /// `payoutPercentages`, or `defaultPayoutPercentages(payoutCount)` when the file has none.
    pub fn effective_payout_percentages(&self) -> Vec<f64> {
        match &self.payout_percentages {
            Some(p) => p.clone(),
            None => crate::payout::default_payout_percentages(self.payout_count),
        }
    }
}

/// A level of the blind structure.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    /// `"break"` in the file (pregame or break); otherwise a blind level.
    pub is_break_type: bool,
    /// A break before the first blind level.
    pub is_pregame: bool,
    /// `title` ("").
    pub title: String,
    /// `subtitle` ("").
    pub subtitle: String,
    /// `smallBlind` (0).
    pub small_blind: f64,
    /// `bigBlind` (0).
    pub big_blind: f64,
    /// `ante` (0).
    pub ante: f64,
    /// `minutes` (by kind: `levelMinutes`, `pregameMinutes`, `breakMinutes`).
    pub minutes: f64,
    /// `pauseAfter` (`pauseAfterLevel` / `pauseAfterBreak`).
    pub pause_after: bool,
}

impl Level {
    /// `isBlindLevel`.
    pub fn is_blind_level(&self) -> bool {
        !self.is_break_type
    }
    /// `isBreakLevel`: a break after the first blind level.
    pub fn is_break_level(&self) -> bool {
        self.is_break_type && !self.is_pregame
    }
    /// `isPregameLevel`.
    pub fn is_pregame_level(&self) -> bool {
        self.is_break_type && self.is_pregame
    }
    /// Length in seconds (`minutes * 60`).
    pub fn seconds(&self) -> f64 {
        self.minutes * 60.0
    }
}

/// A chip denomination.
#[derive(Debug, Clone, PartialEq)]
pub struct Chip {
    /// `value` (required, positive).
    pub value: f64,
    /// `count` (0).
    pub count: f64,
    /// `image` ("").
    pub image: String,
    /// `svgId` ("").
    pub svg_id: String,
    /// `params` ({}): each key is also a property of the chip.
    pub params: Vec<(String, Value)>,
}

/// A player's stored fields (derived ones live in [`crate::PlayerStats`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerData {
    /// `id` (assigned when missing: the smallest unused positive ids, in file order).
    pub id: u32,
    /// `name` (required, unique).
    pub name: String,
    /// `shortName` (first word of the name).
    pub short_name: String,
    /// `initials` (first letters of the first and last word, upper-case).
    pub initials: String,
    /// `currentChips` (0).
    pub current_chips: f64,
    /// `currentChipsDt` (nothing), ms since the epoch.
    pub current_chips_dt: Option<f64>,
    /// `msActive` (0) as stored in the file; the clock advances a copy.
    pub ms_active: f64,
    /// `msSeated` (0) as stored in the file.
    pub ms_seated: f64,
}

/// A table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableData {
    /// `id` (required).
    pub id: u32,
    /// `name` ("").
    pub name: String,
    /// `color` ("").
    pub color: String,
    /// `seats` (`defaultSeatsPerTable`).
    pub seats: f64,
    /// `isOpen` (true).
    pub is_open: bool,
    /// `closeOrder` (1): 0 first, 1 any, 2 last.
    pub close_order: f64,
}

/// What a log entry records, by `type`.
#[derive(Debug, Clone, PartialEq)]
pub enum EntryKind {
    /// `buyIn`, `rebuy`, `addon`: money and chips per named player.
    Purchase {
        /// Which of the three.
        kind: PurchaseKind,
        /// Player ids.
        players: Vec<u32>,
        /// Cost per player.
        cost: f64,
        /// Chips per player.
        chips: f64,
    },
    /// `bountyChip`.
    BountyChip {
        /// Player ids.
        players: Vec<u32>,
        /// Cost per player.
        cost: f64,
    },
    /// `knockout`: `players` eliminated together by `byPlayers`.
    Knockout {
        /// Eliminated player ids.
        players: Vec<u32>,
        /// Eliminator ids.
        by_players: Vec<u32>,
    },
    /// `leftGame`: removal or chop, no eliminator.
    LeftGame {
        /// Player ids.
        players: Vec<u32>,
    },
    /// `seating`: `players[i]` sits at `seats[i]` of `table` (unseated if `None`).
    Seating {
        /// Table id or nothing.
        table: Option<u32>,
        /// Player ids.
        players: Vec<u32>,
        /// Seat numbers.
        seats: Vec<f64>,
    },
    /// `blindsChanged` (informational).
    BlindsChanged {
        /// `level`.
        level: f64,
        /// `smallBlind`.
        small_blind: f64,
        /// `bigBlind`.
        big_blind: f64,
        /// `ante`.
        ante: f64,
    },
    /// `playerHands` (informational); hands as hand numbers.
    PlayerHands {
        /// Player ids.
        players: Vec<u32>,
        /// Hand numbers.
        hands: Vec<f64>,
    },
    /// Any other type: one property per label of `fields`.
    Custom {
        /// The labels and values, in file order.
        fields: Vec<(String, Value)>,
    },
}

/// The three purchase entry types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PurchaseKind {
    /// `buyIn`.
    BuyIn,
    /// `rebuy` (a re-entry for an eliminated player).
    Rebuy,
    /// `addon`.
    Addon,
}

/// A log entry.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    /// `type` as written in the file.
    pub type_name: String,
    /// `dt` (required), ms since the epoch.
    pub dt: f64,
    /// `status` ("enabled"); only enabled entries count.
    pub status: String,
    /// `createdBy` ("").
    pub created_by: String,
    /// The entry's fields.
    pub kind: EntryKind,
    /// Index in the file's `log` array (before sorting by `dt`).
    pub file_index: usize,
}

impl LogEntry {
    /// Whether derived values count this entry.
    pub fn is_enabled(&self) -> bool {
        self.status == "enabled"
    }
}

/// A chop (a deal among the remaining players).
#[derive(Debug, Clone, PartialEq)]
pub struct Chop {
    /// `place` (1).
    pub place: f64,
    /// `type`: `even`, `chip`, `icm` or `custom` ("even").
    pub type_name: String,
    /// `players` (ids).
    pub players: Vec<u32>,
    /// `stacks` ([]).
    pub stacks: Vec<f64>,
    /// `percents` ([]).
    pub percents: Vec<f64>,
    /// `payouts` ([]): `payouts[i]` goes to `players[i]`.
    pub payouts: Vec<f64>,
    /// `totalPayout` (sum of `payouts`).
    pub total_payout: f64,
}

/// The recorded high hand.
#[derive(Debug, Clone, PartialEq)]
pub struct HighHand {
    /// Player id.
    pub player: u32,
    /// The hand number (tournament-data.md §6).
    pub hand: f64,
    /// `dt`, ms since the epoch (nothing if absent).
    pub dt: Option<f64>,
}

/// The hand timer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandTimer {
    /// `running` (false).
    pub running: bool,
    /// `secondsLeft` (0).
    pub seconds_left: f64,
    /// `defaultSeconds` (30).
    pub default_seconds: f64,
}

/// The tournament clock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    /// `levelIndex` (0); breaks count.
    pub level_index: usize,
    /// `secondsLeftInLevel` (the level's full length).
    pub seconds_left_in_level: f64,
    /// `running` (false).
    pub running: bool,
    /// `started` (see tournament-data.md §3 for the default).
    pub started: bool,
    /// `handTimer`.
    pub hand_timer: HandTimer,
}

/// An alert of the file (its condition and TTS text are EZScript, evaluated by the host).
#[derive(Debug, Clone, PartialEq)]
pub struct Alert {
    /// `title` (required, unique).
    pub title: String,
    /// `condition` (required).
    pub condition: String,
    /// `tts` (nothing).
    pub tts: Option<String>,
    /// `enabled` (true).
    pub enabled: bool,
}

/// Everything of a tournament file that the clock never changes, shared between snapshots.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentData {
    /// `settings`.
    pub settings: Settings,
    /// `levels`.
    pub levels: Vec<Level>,
    /// `chips`.
    pub chips: Vec<Chip>,
    /// `players`.
    pub players: Vec<PlayerData>,
    /// `tables`.
    pub tables: Vec<TableData>,
    /// `log`, sorted by `dt` (ties keep file order).
    pub log: Vec<LogEntry>,
    /// `chops`.
    pub chops: Vec<Chop>,
    /// `highHand`.
    pub high_hand: Option<HighHand>,
    /// `alerts`.
    pub alerts: Vec<Alert>,
    /// The tournament's time zone (`--tz` > `clock.timeZone` > host).
    pub time_zone: String,
    pub(crate) player_index: HashMap<u32, usize>,
    pub(crate) table_index: HashMap<u32, usize>,
}

impl TournamentData {
    /// The index in `players` of the player with this id.
    pub fn player_by_id(&self, id: u32) -> Option<usize> {
        self.player_index.get(&id).copied()
    }
    /// The index in `tables` of the table with this id.
    pub fn table_by_id(&self, id: u32) -> Option<usize> {
        self.table_index.get(&id).copied()
    }
}

/// A tournament at one moment: the shared file data plus what the clock changes (now, the
/// clock, players' `msActive`/`msSeated`). Cloning is cheap.
#[derive(Debug, Clone, PartialEq)]
pub struct Tournament {
    pub(crate) data: Arc<TournamentData>,
    /// Now, ms since the epoch.
    pub now: f64,
    /// The clock.
    pub clock: Clock,
    /// `msActive` per player (index as in `players`); private so its length always matches.
    pub(crate) ms_active: Vec<f64>,
    /// `msSeated` per player.
    pub(crate) ms_seated: Vec<f64>,
}

impl Tournament {
    /// The data that does not change while the clock runs.
    pub fn data(&self) -> &TournamentData {
        &self.data
    }

    /// A player's `msActive` now (index as in `players`; 0 out of range).
    pub fn ms_active(&self, player: usize) -> f64 {
        self.ms_active.get(player).copied().unwrap_or(0.0)
    }

    /// A player's `msSeated` now (index as in `players`; 0 out of range).
    pub fn ms_seated(&self, player: usize) -> f64 {
        self.ms_seated.get(player).copied().unwrap_or(0.0)
    }

    /// The current level, if the index is valid.
    pub fn current_level(&self) -> Option<&Level> {
        self.data.levels.get(self.clock.level_index)
    }

    /// How many log entries are visible (`dt` ≤ now): the log is sorted, so they are a prefix.
    pub fn visible_log_len(&self) -> usize {
        self.data.log.partition_point(|e| e.dt <= self.now)
    }
}
