//! Name lookups for the EZScript host binding: globals (tournament-data.md §2), object
//! properties (§5) and the number → object helpers.

use crate::display_number;
use crate::model::*;
use crate::state::State;
use crate::value::{Obj, Value};

/// Every global name of tournament-data.md §2 that [`State::global`] answers (settings
/// included). `previous`, `handTimer`, `previousHandTimer`, `was`, `changed` and `becameTrue`
/// belong to the alert runtime of the host; `handTimer` is answered too.
pub const GLOBAL_NAMES: &[&str] = &[
    "isTimerRunning",
    "isTimerPaused",
    "levelIndex",
    "secondsLeftInLevel",
    "secondsUntilNextBreak",
    "rebuysOpen",
    "secondsUntilRebuysEnd",
    "currentLevel",
    "nextLevel",
    "levels",
    "blindLevelCount",
    "blindLevelNumber",
    "isBlindsLevel",
    "isBreakLevel",
    "isPregameLevel",
    "dt",
    "anteText",
    "isPregame",
    "isInGame",
    "isPostgame",
    "players",
    "playersActive",
    "currentPlayerCount",
    "playersEliminated",
    "playersWithPayouts",
    "totalPlayerCount",
    "expectedPlayerCount",
    "tables",
    "totalBuyIns",
    "totalAddons",
    "totalRebuys",
    "totalBuyInsCollected",
    "totalAddonsCollected",
    "totalRebuysCollected",
    "totalCollected",
    "netPrize",
    "totalBuyInChips",
    "totalAddonChips",
    "totalRebuyChips",
    "totalChipsInPlay",
    "expectedChipsInPlay",
    "averageChipsPerPlayer",
    "activeBigBlind",
    "estimatedLastBigBlind",
    "estimatedSecondsUntilEnd",
    "colorUpChips",
    "colorUpTarget",
    "payouts",
    "payoutsToShow",
    "eliminationsUntilBubbleBurst",
    "chops",
    "payoutCount",
    "payoutPercentages",
    "payoutRoundTo",
    "payoutAdjustment",
    "hasHighHand",
    "highHand",
    "highHandPlayer",
    "chipLeaders",
    "hasChipLeader",
    "chipLeaderPlayer",
    "chipLeaderChips",
    "chipLeaderDt",
    "chips",
    "log",
    // settings
    "title",
    "startingChips",
    "buyInCost",
    "addonCost",
    "rebuyCost",
    "addonChips",
    "rebuyChips",
    "rebuyEndLevel",
    "bountyChipCost",
    "anteType",
    "levelsPerBreak",
    "minPlayersForConsolidation",
    "expectedPlayers",
    "expectedAddons",
    "expectedRebuys",
    "addonsAllowed",
    "rebuysAllowed",
    "useBountyChips",
    "needChipToWinChip",
    "pauseAfterLevel",
    "pauseAfterBreak",
    "initialBigBlind",
    "blindGrowthRate",
    "levelMinutes",
    "breakMinutes",
    "pregameMinutes",
    "defaultSeatsPerTable",
    "tablesOutOfBalanceThreshold",
    "payoutScript",
    "currency",
    "pointsFormula",
];

/// Names only alert conditions and TTS texts may read (tournament-data.md §7). [`State::global`]
/// answers `handTimer`; the others belong to the host's alert runtime (`previous` is the
/// previous tick's state as [`Obj::Tournament`], `previousHandTimer` its [`Obj::HandTimer`]).
pub const ALERT_ONLY_NAMES: &[&str] = &[
    "was",
    "changed",
    "becameTrue",
    "previous",
    "handTimer",
    "previousHandTimer",
];

/// The script fields of tournament-data.md §7, by the names they may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// Content values and conditions: the standard names.
    Standard,
    /// Alert conditions and TTS texts: standard + [`ALERT_ONLY_NAMES`].
    Alert,
    /// The points formula: standard + `playerId` (reading `points` fails).
    Points,
    /// The payout script: only [`crate::PAYOUT_SCRIPT_NAMES`] and `defaultPayoutPercentages`.
    Payout,
}

/// Whether a field may read a tournament name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameStatus {
    /// The field may read it.
    Allowed,
    /// A tournament name the field may not read: `NAME is not available in this field`.
    NotAvailable,
    /// Not a tournament name at all (a built-in, a local, or `Unknown name NAME`).
    Unknown,
}

/// Whether `field` may read the tournament name `name` (tournament-data.md §7).
///
/// ```
/// use alea_tournament::{Field, NameStatus, name_status};
/// assert_eq!(name_status(Field::Payout, "netPrize"), NameStatus::Allowed);
/// assert_eq!(name_status(Field::Payout, "payouts"), NameStatus::NotAvailable);
/// assert_eq!(name_status(Field::Standard, "was"), NameStatus::NotAvailable);
/// assert_eq!(name_status(Field::Alert, "handTimer"), NameStatus::Allowed);
/// assert_eq!(name_status(Field::Points, "playerId"), NameStatus::Allowed);
/// assert_eq!(name_status(Field::Standard, "sqrt"), NameStatus::Unknown);
/// ```
pub fn name_status(field: Field, name: &str) -> NameStatus {
    let standard = GLOBAL_NAMES.contains(&name);
    let alert = ALERT_ONLY_NAMES.contains(&name);
    let payout = name == "defaultPayoutPercentages" || crate::PAYOUT_SCRIPT_NAMES.contains(&name);
    let player_id = name == "playerId";
    if !(standard || alert || payout || player_id) {
        return NameStatus::Unknown;
    }
    let allowed = match field {
        Field::Standard => standard,
        Field::Alert => standard || alert,
        Field::Points => standard || player_id,
        Field::Payout => payout,
    };
    if allowed {
        NameStatus::Allowed
    } else {
        NameStatus::NotAvailable
    }
}

/// Property names of each object type (tournament-data.md §5); chips and custom log entries
/// also have their own keys.
pub fn property_names(obj: Obj) -> &'static [&'static str] {
    match obj {
        Obj::Player(_) => &[
            "id",
            "name",
            "shortName",
            "initials",
            "isActive",
            "tableId",
            "seat",
            "place",
            "placeCount",
            "payout",
            "points",
            "totalWinnings",
            "currentChips",
            "currentChipsDt",
            "totalChips",
            "totalPaid",
            "totalEliminated",
            "timesEliminated",
            "hasBountyChip",
            "bountyChipValue",
            "bountyChipsWon",
            "bountyChipWinnings",
            "totalBountyPaid",
            "msActive",
            "msSeated",
        ],
        Obj::Table(_) => &[
            "id",
            "name",
            "color",
            "seats",
            "isOpen",
            "closeOrder",
            "players",
        ],
        Obj::Level(_) => &[
            "title",
            "subtitle",
            "smallBlind",
            "bigBlind",
            "ante",
            "minutes",
            "isBreakLevel",
            "isBlindLevel",
            "isPregameLevel",
            "pauseAfter",
        ],
        Obj::Chop(_) => &[
            "place",
            "totalPayout",
            "type",
            "players",
            "stacks",
            "percents",
            "payouts",
        ],
        Obj::Chip(_) => &["value", "count", "image", "svgId"],
        Obj::Log => &["entries"],
        Obj::LogEntry(_) => &["type", "dt", "status", "createdBy"],
        Obj::HandTimer => &["isRunning", "seconds", "defaultSeconds"],
        Obj::Tournament => GLOBAL_NAMES,
    }
}

fn num(x: f64) -> Option<Value> {
    Some(Value::Number(x))
}
fn flag(b: bool) -> Option<Value> {
    Some(Value::Bool(b))
}
fn text(s: &str) -> Option<Value> {
    Some(Value::Text(s.to_string()))
}
fn objs(items: impl IntoIterator<Item = usize>, f: fn(usize) -> Obj) -> Option<Value> {
    Some(Value::List(
        items.into_iter().map(|i| Value::Object(f(i))).collect(),
    ))
}
fn ids(ids: &[u32]) -> Value {
    Value::numbers(ids.iter().map(|&i| f64::from(i)))
}

impl State {
    /// The value of a global name (tournament-data.md §2), or `None` for a name that is not a
    /// tournament global. `anteText` is formatted by [`crate::ScriptHooks::ante_text`].
    pub fn global(&self, name: &str) -> Option<Value> {
        let t = &self.t;
        let data = &t.data;
        let d = &self.derived;
        let clock = &t.clock;
        let level = t.current_level();
        let level_flag = |f: fn(&Level) -> bool| flag(level.is_some_and(f));
        match name {
            "isTimerRunning" => flag(clock.running),
            "isTimerPaused" => flag(!clock.running),
            "levelIndex" => num(clock.level_index as f64),
            "secondsLeftInLevel" => num(clock.seconds_left_in_level),
            "secondsUntilNextBreak" => num(d.seconds_until_next_break),
            "rebuysOpen" => flag(d.rebuys_open),
            "secondsUntilRebuysEnd" => num(d.seconds_until_rebuys_end),
            "currentLevel" => Some(self.level_value(clock.level_index)),
            "nextLevel" => Some(self.level_value(clock.level_index + 1)),
            "levels" => objs(0..data.levels.len(), Obj::Level),
            "blindLevelCount" => num(d.blind_level_count),
            "blindLevelNumber" => num(d.blind_level_number),
            "isBlindsLevel" => level_flag(Level::is_blind_level),
            "isBreakLevel" => level_flag(Level::is_break_level),
            "isPregameLevel" => level_flag(Level::is_pregame_level),
            "dt" => num(t.now),
            "anteText" => text(&d.ante_text),
            "isPregame" => flag(d.is_pregame),
            "isInGame" => flag(d.is_in_game),
            "isPostgame" => flag(d.is_postgame),
            "players" => objs(0..data.players.len(), Obj::Player),
            "playersActive" => objs(self.players_active.iter().copied(), Obj::Player),
            "currentPlayerCount" => num(d.current_player_count),
            "playersEliminated" => objs(self.players_eliminated.iter().copied(), Obj::Player),
            "playersWithPayouts" => objs(self.players_with_payouts.iter().copied(), Obj::Player),
            "totalPlayerCount" => num(d.total_player_count),
            "expectedPlayerCount" => num(d.expected_player_count),
            "tables" => objs(self.tables_shown.iter().copied(), Obj::Table),
            "totalBuyIns" => num(d.total_buy_ins),
            "totalAddons" => num(d.total_addons),
            "totalRebuys" => num(d.total_rebuys),
            "totalBuyInsCollected" => num(d.total_buy_ins_collected),
            "totalAddonsCollected" => num(d.total_addons_collected),
            "totalRebuysCollected" => num(d.total_rebuys_collected),
            "totalCollected" => num(d.total_collected),
            "netPrize" => num(d.net_prize),
            "totalBuyInChips" => num(d.total_buy_in_chips),
            "totalAddonChips" => num(d.total_addon_chips),
            "totalRebuyChips" => num(d.total_rebuy_chips),
            "totalChipsInPlay" => num(d.total_chips_in_play),
            "expectedChipsInPlay" => num(d.expected_chips_in_play),
            "averageChipsPerPlayer" => num(d.average_chips_per_player),
            "activeBigBlind" => num(d.active_big_blind),
            "estimatedLastBigBlind" => num(d.estimated_last_big_blind),
            "estimatedSecondsUntilEnd" => Some(Value::opt_number(d.estimated_seconds_until_end)),
            "colorUpChips" => objs(self.color_up_chips.iter().copied(), Obj::Chip),
            "colorUpTarget" => Some(
                self.color_up_target
                    .map_or(Value::Nothing, |c| Value::Object(Obj::Chip(c))),
            ),
            "payouts" => Some(Value::numbers(self.payouts.iter().copied())),
            "payoutsToShow" => num(d.payouts_to_show),
            "eliminationsUntilBubbleBurst" => num(d.eliminations_until_bubble_burst),
            "chops" => objs(0..data.chops.len(), Obj::Chop),
            "payoutPercentages" => {
                Some(Value::numbers(data.settings.effective_payout_percentages()))
            }
            "hasHighHand" => flag(data.high_hand.is_some()),
            "highHand" => num(data.high_hand.as_ref().map_or(0.0, |h| h.hand)),
            "highHandPlayer" => Some(match &data.high_hand {
                Some(h) => self.player_value(data.player_by_id(h.player)),
                None => Value::Nothing,
            }),
            "chipLeaders" => objs(self.chip_leaders.iter().copied(), Obj::Player),
            "hasChipLeader" => flag(!self.chip_leaders.is_empty()),
            "chipLeaderPlayer" => Some(self.player_value(self.chip_leaders.first().copied())),
            "chipLeaderChips" => num(self
                .chip_leaders
                .first()
                .map_or(0.0, |&i| data.players[i].current_chips)),
            "chipLeaderDt" => Some(Value::opt_number(
                self.chip_leaders
                    .first()
                    .and_then(|&i| data.players[i].current_chips_dt),
            )),
            "chips" => objs(0..data.chips.len(), Obj::Chip),
            "log" => Some(Value::Object(Obj::Log)),
            "handTimer" => Some(Value::Object(Obj::HandTimer)),
            _ => self.setting(name),
        }
    }

    /// A `settings` field under its own name.
    fn setting(&self, name: &str) -> Option<Value> {
        let s = &self.t.data.settings;
        let opt_text = |t: &Option<String>| {
            Some(
                t.as_ref()
                    .map_or(Value::Nothing, |x| Value::Text(x.clone())),
            )
        };
        match name {
            "title" => text(&s.title),
            "startingChips" => num(s.starting_chips),
            "buyInCost" => num(s.buy_in_cost),
            "addonCost" => num(s.addon_cost),
            "rebuyCost" => num(s.rebuy_cost),
            "addonChips" => num(s.addon_chips),
            "rebuyChips" => num(s.rebuy_chips),
            "rebuyEndLevel" => num(s.rebuy_end_level),
            "bountyChipCost" => num(s.bounty_chip_cost),
            "anteType" => num(s.ante_type),
            "levelsPerBreak" => num(s.levels_per_break),
            "minPlayersForConsolidation" => num(s.min_players_for_consolidation),
            "expectedPlayers" => num(s.expected_players),
            "expectedAddons" => num(s.expected_addons),
            "expectedRebuys" => num(s.expected_rebuys),
            "payoutAdjustment" => num(s.payout_adjustment),
            "addonsAllowed" => flag(s.addons_allowed),
            "rebuysAllowed" => flag(s.rebuys_allowed),
            "useBountyChips" => flag(s.use_bounty_chips),
            "needChipToWinChip" => flag(s.need_chip_to_win_chip),
            "pauseAfterLevel" => flag(s.pause_after_level),
            "pauseAfterBreak" => flag(s.pause_after_break),
            "initialBigBlind" => num(s.initial_big_blind),
            "blindGrowthRate" => num(s.blind_growth_rate),
            "levelMinutes" => num(s.level_minutes),
            "breakMinutes" => num(s.break_minutes),
            "pregameMinutes" => num(s.pregame_minutes),
            "defaultSeatsPerTable" => num(s.default_seats_per_table),
            "tablesOutOfBalanceThreshold" => num(s.tables_out_of_balance_threshold),
            "payoutCount" => num(s.payout_count),
            "payoutRoundTo" => num(s.payout_round_to),
            "payoutScript" => opt_text(&s.payout_script),
            "currency" => opt_text(&s.currency),
            "pointsFormula" => opt_text(&s.points_formula),
            _ => None,
        }
    }

    fn level_value(&self, i: usize) -> Value {
        if i < self.t.data.levels.len() {
            Value::Object(Obj::Level(i))
        } else {
            Value::Nothing
        }
    }

    fn player_value(&self, i: Option<usize>) -> Value {
        i.map_or(Value::Nothing, |i| Value::Object(Obj::Player(i)))
    }

    /// A property of an object of this state; `None` if the object has no such property (or
    /// the reference is out of range). `points` of a player reads 0 until the points formula
    /// has run ([`State::points_ready`]); the host makes reading it inside the formula fail.
    pub fn property(&self, obj: Obj, name: &str) -> Option<Value> {
        let data = &self.t.data;
        match obj {
            Obj::Player(i) => self.player_property(i, name),
            Obj::Table(i) => {
                let t = data.tables.get(i)?;
                match name {
                    "id" => num(f64::from(t.id)),
                    "name" => text(&t.name),
                    "color" => text(&t.color),
                    "seats" => num(t.seats),
                    "isOpen" => flag(t.is_open),
                    "closeOrder" => num(t.close_order),
                    "players" => objs(self.table_players[i].iter().copied(), Obj::Player),
                    _ => None,
                }
            }
            Obj::Level(i) => {
                let l = data.levels.get(i)?;
                match name {
                    "title" => text(&l.title),
                    "subtitle" => text(&l.subtitle),
                    "smallBlind" => num(l.small_blind),
                    "bigBlind" => num(l.big_blind),
                    "ante" => num(l.ante),
                    "minutes" => num(l.minutes),
                    "isBreakLevel" => flag(l.is_break_level()),
                    "isBlindLevel" => flag(l.is_blind_level()),
                    "isPregameLevel" => flag(l.is_pregame_level()),
                    "pauseAfter" => flag(l.pause_after),
                    _ => None,
                }
            }
            Obj::Chop(i) => {
                let c = data.chops.get(i)?;
                match name {
                    "place" => num(c.place),
                    "totalPayout" => num(c.total_payout),
                    "type" => text(&c.type_name),
                    "players" => Some(ids(&c.players)),
                    "stacks" => Some(Value::numbers(c.stacks.iter().copied())),
                    "percents" => Some(Value::numbers(c.percents.iter().copied())),
                    "payouts" => Some(Value::numbers(c.payouts.iter().copied())),
                    _ => None,
                }
            }
            Obj::Chip(i) => {
                let c = data.chips.get(i)?;
                match name {
                    "value" => num(c.value),
                    "count" => num(c.count),
                    "image" => text(&c.image),
                    "svgId" => text(&c.svg_id),
                    _ => c
                        .params
                        .iter()
                        .find(|(k, _)| k == name)
                        .map(|(_, v)| v.clone()),
                }
            }
            Obj::Log => match name {
                "entries" => objs(0..self.visible, Obj::LogEntry),
                _ => None,
            },
            Obj::LogEntry(i) => self.entry_property(i, name),
            Obj::HandTimer => {
                let h = &self.t.clock.hand_timer;
                match name {
                    "isRunning" => flag(h.running),
                    "seconds" => num(h.seconds_left),
                    "defaultSeconds" => num(h.default_seconds),
                    _ => None,
                }
            }
            Obj::Tournament => self.global(name),
        }
    }

    fn player_property(&self, i: usize, name: &str) -> Option<Value> {
        let p = self.t.data.players.get(i)?;
        let s = &self.players[i];
        match name {
            "id" => num(f64::from(p.id)),
            "name" => text(&p.name),
            "shortName" => text(&p.short_name),
            "initials" => text(&p.initials),
            "isActive" => flag(s.is_active),
            "tableId" => Some(Value::opt_number(
                s.table.map(|t| f64::from(self.t.data.tables[t].id)),
            )),
            "seat" => Some(Value::opt_number(s.seat)),
            "place" => num(s.place),
            "placeCount" => num(s.place_count),
            "payout" => num(s.payout),
            "points" => num(s.points),
            "totalWinnings" => num(s.total_winnings),
            "currentChips" => num(p.current_chips),
            "currentChipsDt" => Some(Value::opt_number(p.current_chips_dt)),
            "totalChips" => num(s.total_chips),
            "totalPaid" => num(s.total_paid),
            "totalEliminated" => num(s.total_eliminated),
            "timesEliminated" => num(s.times_eliminated),
            "hasBountyChip" => flag(s.has_bounty_chip),
            "bountyChipValue" => num(s.bounty_chip_value),
            "bountyChipsWon" => num(s.bounty_chips_won),
            "bountyChipWinnings" => num(s.bounty_chip_winnings),
            "totalBountyPaid" => num(s.total_bounty_paid),
            "msActive" => num(self.t.ms_active(i)),
            "msSeated" => num(self.t.ms_seated(i)),
            _ => None,
        }
    }

    fn entry_property(&self, i: usize, name: &str) -> Option<Value> {
        let e = self.t.data.log.get(i)?;
        match name {
            "type" => return text(&e.type_name),
            "dt" => return num(e.dt),
            "status" => return text(&e.status),
            "createdBy" => return text(&e.created_by),
            _ => {}
        }
        match (&e.kind, name) {
            (EntryKind::Purchase { players, .. }, "players")
            | (EntryKind::BountyChip { players, .. }, "players")
            | (EntryKind::Knockout { players, .. }, "players")
            | (EntryKind::LeftGame { players }, "players")
            | (EntryKind::Seating { players, .. }, "players")
            | (EntryKind::PlayerHands { players, .. }, "players") => Some(ids(players)),
            (EntryKind::Purchase { cost, .. }, "cost")
            | (EntryKind::BountyChip { cost, .. }, "cost") => num(*cost),
            (EntryKind::Purchase { chips, .. }, "chips") => num(*chips),
            (EntryKind::Knockout { by_players, .. }, "byPlayers") => Some(ids(by_players)),
            (EntryKind::Seating { table, .. }, "table") => {
                Some(Value::opt_number(table.map(f64::from)))
            }
            (EntryKind::Seating { seats, .. }, "seats") => {
                Some(Value::numbers(seats.iter().copied()))
            }
            (EntryKind::BlindsChanged { level, .. }, "level") => num(*level),
            (EntryKind::BlindsChanged { small_blind, .. }, "smallBlind") => num(*small_blind),
            (EntryKind::BlindsChanged { big_blind, .. }, "bigBlind") => num(*big_blind),
            (EntryKind::BlindsChanged { ante, .. }, "ante") => num(*ante),
            (EntryKind::PlayerHands { hands, .. }, "hands") => {
                Some(Value::numbers(hands.iter().copied()))
            }
            (EntryKind::Custom { fields }, _) => fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone()),
            _ => None,
        }
    }

    /// [`State::property`] with the errors scripts see, in the shape a host object lookup
    /// wants: `None` for a missing property (the host reports `Attempted to access missing
    /// element NAME on TYPE`), `Err` for `points` while the points formula runs.
    pub fn read_property(&self, obj: Obj, name: &str) -> Option<Result<Value, String>> {
        if matches!(obj, Obj::Player(_)) && name == "points" && !self.points_ready {
            return Some(Err("points cannot be read inside the points formula".into()));
        }
        self.property(obj, name).map(Ok)
    }

    /// How an object displays (EZScript's display rule): Player and Table → `name`, Chip →
    /// `value`, Level → `title`, LogEntry → `type`, others `<Chop>`, `<Log>`, `<HandTimer>`,
    /// `<Tournament>`.
    pub fn display_object(&self, obj: Obj) -> String {
        let data = &self.t.data;
        let shown = match obj {
            Obj::Player(i) => data.players.get(i).map(|p| p.name.clone()),
            Obj::Table(i) => data.tables.get(i).map(|t| t.name.clone()),
            Obj::Chip(i) => data.chips.get(i).map(|c| display_number(c.value)),
            Obj::Level(i) => data.levels.get(i).map(|l| l.title.clone()),
            Obj::LogEntry(i) => data.log.get(i).map(|e| e.type_name.clone()),
            _ => None,
        };
        shown.unwrap_or_else(|| format!("<{}>", obj.type_name()))
    }

    /// What identifies an object in the CLI's JSON (`{"$type": "Player", "id": 4}`): `id` for
    /// players and tables, `index` for levels and log entries, `value` for chips, `place` for
    /// chops; `None` for the log, the hand timer and the tournament.
    pub fn object_key(&self, obj: Obj) -> Option<(&'static str, f64)> {
        let data = &self.t.data;
        match obj {
            Obj::Player(i) => Some(("id", f64::from(data.players.get(i)?.id))),
            Obj::Table(i) => Some(("id", f64::from(data.tables.get(i)?.id))),
            Obj::Level(i) => Some(("index", i as f64)),
            Obj::LogEntry(i) => Some(("index", i as f64)),
            Obj::Chip(i) => Some(("value", data.chips.get(i)?.value)),
            Obj::Chop(i) => Some(("place", data.chops.get(i)?.place)),
            Obj::Log | Obj::HandTimer | Obj::Tournament => None,
        }
    }

    /// `n.toPlayer()`: the player with id `n` (any player of the file), else the error
    /// `No player with number N`.
    pub fn to_player(&self, n: f64) -> Result<Obj, String> {
        self.player_index_of(n)
            .map(Obj::Player)
            .ok_or_else(|| format!("No player with number {}", display_number(n)))
    }

    /// `n.toTable()`: the table with id `n` (any table of the file), else the error
    /// `No table with number N`.
    pub fn to_table(&self, n: f64) -> Result<Obj, String> {
        let found = whole_id(n).and_then(|id| self.t.data.table_by_id(id));
        found
            .map(Obj::Table)
            .ok_or_else(|| format!("No table with number {}", display_number(n)))
    }

    /// `n.toPlayerName()`: the player's name, else `n` by the display rule.
    pub fn to_player_name(&self, n: f64) -> String {
        self.player_text(n, |p| &p.name)
    }

    /// `n.toPlayerShortName()`: the player's short name, else `n` by the display rule.
    pub fn to_player_short_name(&self, n: f64) -> String {
        self.player_text(n, |p| &p.short_name)
    }

    /// `n.toPlayerInitials()`: the player's initials, else `n` by the display rule.
    pub fn to_player_initials(&self, n: f64) -> String {
        self.player_text(n, |p| &p.initials)
    }

    fn player_text(&self, n: f64, f: fn(&PlayerData) -> &String) -> String {
        match self.player_index_of(n) {
            Some(i) => f(&self.t.data.players[i]).clone(),
            None => display_number(n),
        }
    }

    fn player_index_of(&self, n: f64) -> Option<usize> {
        whole_id(n).and_then(|id| self.t.data.player_by_id(id))
    }
}

fn whole_id(n: f64) -> Option<u32> {
    (n.fract() == 0.0 && n >= 1.0 && n <= f64::from(u32::MAX)).then_some(n as u32)
}
