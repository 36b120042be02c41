//! Validating a tournament file (tournament-data.md §3) into the stored model.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use jiff::tz::TimeZone;
use serde_json::Value as Json;

use crate::hand;
use crate::json::{
    LoadError, ObjReader, Result, id_at, index, join, list_at, number_at, wrong_type,
};
use crate::model::*;
use crate::time::{parse_time_in, time_zone};

/// Size limits of a tournament file (**Decision**, except the 100 levels of the spec): they keep
/// hostile files from exhausting memory or time; each ends in an error naming the path.
pub mod limits {
    /// `levels` (tournament-data.md §3).
    pub const LEVELS: usize = 100;
    /// `players`.
    pub const PLAYERS: usize = 10_000;
    /// `tables`.
    pub const TABLES: usize = 1_000;
    /// `chips`.
    pub const CHIPS: usize = 100;
    /// `log`.
    pub const LOG: usize = 100_000;
    /// `chops`.
    pub const CHOPS: usize = 1_000;
    /// `alerts`.
    pub const ALERTS: usize = 1_000;
    /// Items of any list inside an entry (players, seats, payouts, percentages…).
    pub const ITEMS: usize = 10_000;
    /// Bytes of the file text.
    pub const FILE_BYTES: usize = 64 * 1024 * 1024;
}

/// What the host supplies when it reads a file: the values the file may leave to the host and
/// the command line's overrides.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadOptions {
    /// `--now`: replaces `clock.now` (ms since the epoch).
    pub now: Option<f64>,
    /// The host's now, used when the file has no `clock.now`.
    pub host_now: f64,
    /// `--tz`: replaces `clock.timeZone`.
    pub time_zone: Option<String>,
    /// The host's time zone, used when the file has no `clock.timeZone`.
    pub host_time_zone: String,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            now: None,
            host_now: 0.0,
            time_zone: None,
            host_time_zone: "UTC".into(),
        }
    }
}

const ROOT_KEYS: &[&str] = &[
    "format", "settings", "levels", "chips", "players", "tables", "log", "chops", "highHand",
    "clock", "alerts",
];

const SETTINGS_NUMBERS: &[&str] = &[
    "startingChips",
    "buyInCost",
    "addonCost",
    "rebuyCost",
    "addonChips",
    "rebuyEndLevel",
    "bountyChipCost",
    "anteType",
    "levelsPerBreak",
    "minPlayersForConsolidation",
    "expectedPlayers",
    "expectedAddons",
    "expectedRebuys",
    "payoutAdjustment",
    "rebuyChips",
    "initialBigBlind",
    "blindGrowthRate",
    "levelMinutes",
    "breakMinutes",
    "pregameMinutes",
    "defaultSeatsPerTable",
    "tablesOutOfBalanceThreshold",
    "payoutCount",
    "payoutRoundTo",
];
const SETTINGS_BOOLS: &[&str] = &[
    "addonsAllowed",
    "rebuysAllowed",
    "useBountyChips",
    "needChipToWinChip",
    "pauseAfterLevel",
    "pauseAfterBreak",
];
const SETTINGS_OTHER: &[&str] = &[
    "title",
    "payoutPercentages",
    "payoutScript",
    "currency",
    "pointsFormula",
];

/// Parses and validates a tournament file's text.
pub fn load(text: &str, options: &LoadOptions) -> Result<Tournament> {
    if text.len() > limits::FILE_BYTES {
        return Err(LoadError::at("", "the tournament file is too big"));
    }
    let json: Json = serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let msg = match msg.rfind(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        LoadError {
            path: String::new(),
            message: msg,
            line: e.line(),
            column: e.column(),
        }
    })?;
    from_json(&json, options)
}

/// Validates an already parsed JSON value.
pub fn from_json(json: &Json, options: &LoadOptions) -> Result<Tournament> {
    let root = ObjReader::new(json, "", ROOT_KEYS)?;
    if let Some(format) = root.text("format")?
        && format != "alea-tournament/1"
    {
        return Err(LoadError::at("format", "expected \"alea-tournament/1\""));
    }
    let clock_json = root.raw("clock");
    let clock_obj = match clock_json {
        Some(v) => Some(ObjReader::new(
            v,
            "clock",
            &[
                "now",
                "timeZone",
                "levelIndex",
                "secondsLeftInLevel",
                "running",
                "started",
                "handTimer",
            ],
        )?),
        None => None,
    };
    // The zone first: offset-less times are read in it.
    let (zone_name, zone) = match (&options.time_zone, &clock_obj) {
        (Some(tz), _) => (
            tz.clone(),
            time_zone(tz).map_err(|m| LoadError::at("--tz", m))?,
        ),
        (None, Some(c)) if c.present("timeZone").is_some() => {
            let name = c.nullable_text("timeZone")?.unwrap_or_default();
            let zone = time_zone(&name).map_err(|m| LoadError::at("clock.timeZone", m))?;
            (name, zone)
        }
        (None, _) => {
            let name = options.host_time_zone.clone();
            (
                name.clone(),
                time_zone(&name).map_err(|m| LoadError::at("", m))?,
            )
        }
    };
    let times = Times { zone };

    let settings_json = root.raw("settings");
    let levels_json = root.list("levels", limits::LEVELS)?;
    // `initialBigBlind` defaults to the first big blind, so the levels' bigBlind is peeked at.
    let first_big_blind = first_big_blind(levels_json)?;
    let settings = match settings_json {
        Some(v) => read_settings(v, first_big_blind)?,
        None => read_settings(&Json::Object(Default::default()), first_big_blind)?,
    };
    let levels = read_levels(levels_json, &settings)?;
    let chips = read_chips(&root)?;
    let players = read_players(&root, &times)?;
    let player_index: HashMap<u32, usize> =
        players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let tables = read_tables(&root, &settings)?;
    let table_index: HashMap<u32, usize> =
        tables.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
    let refs = Refs {
        players: &player_index,
        tables: &table_index,
    };
    let log = read_log(&root, &settings, &times, &refs)?;
    let chops = read_chops(&root, &refs)?;
    let high_hand = read_high_hand(&root, &times, &refs)?;
    let alerts = read_alerts(&root)?;

    let now = match (options.now, &clock_obj) {
        (Some(now), _) => now,
        (None, Some(c)) => match c.present("now") {
            Some(v) => times.at(v, "clock.now")?,
            None => options.host_now,
        },
        (None, None) => options.host_now,
    };
    let clock = match &clock_obj {
        Some(c) => read_clock(c, &levels)?,
        None => read_clock(
            &ObjReader::new(&Json::Object(Default::default()), "clock", &[])?,
            &levels,
        )?,
    };
    let ms_active = players.iter().map(|p| p.ms_active).collect();
    let ms_seated = players.iter().map(|p| p.ms_seated).collect();
    let data = TournamentData {
        settings,
        levels,
        chips,
        players,
        tables,
        log,
        chops,
        high_hand,
        alerts,
        time_zone: zone_name,
        player_index,
        table_index,
    };
    Ok(Tournament {
        data: Arc::new(data),
        now,
        clock,
        ms_active,
        ms_seated,
    })
}

/// The largest time in ms from the epoch, either way (ECMAScript's Date range).
const MAX_TIME_MS: f64 = 8.64e15;

struct Times {
    zone: TimeZone,
}

impl Times {
    fn at(&self, v: &Json, path: &str) -> Result<f64> {
        match v {
            Json::String(s) => parse_time_in(s, &self.zone).map_err(|m| LoadError::at(path, m)),
            Json::Number(_) => {
                let ms = number_at(v, path)?;
                // The range of a JavaScript Date (±10^8 days): beyond it a clock tick of
                // 1000 ms would not change the time (f64 spacing), so the clock could not run.
                if ms.abs() > MAX_TIME_MS {
                    return Err(LoadError::at(
                        path,
                        "time out of range (at most ±8.64e15 ms from 1970)",
                    ));
                }
                Ok(ms)
            }
            _ => Err(wrong_type(path, "a time (ms or RFC 3339 text)", v)),
        }
    }
}

struct Refs<'a> {
    players: &'a HashMap<u32, usize>,
    tables: &'a HashMap<u32, usize>,
}

impl Refs<'_> {
    fn players(&self, r: &ObjReader<'_>, key: &str) -> Result<Vec<u32>> {
        let ids = r.ids(key, limits::ITEMS)?;
        for (i, id) in ids.iter().enumerate() {
            if !self.players.contains_key(id) {
                return Err(LoadError::at(
                    &index(&r.path_of(key), i),
                    format!("no player with id {id}"),
                ));
            }
        }
        Ok(ids)
    }
}

fn first_big_blind(levels: &[Json]) -> Result<f64> {
    for (i, level) in levels.iter().enumerate() {
        let Json::Object(map) = level else { continue };
        let is_break = matches!(map.get("type"), Some(Json::String(t)) if t == "break");
        if !is_break {
            return match map.get("bigBlind") {
                Some(v) => number_at(v, &format!("levels[{i}].bigBlind")),
                None => Ok(0.0),
            };
        }
    }
    Ok(0.0)
}

fn read_settings(v: &Json, first_big_blind: f64) -> Result<Settings> {
    let keys: Vec<&str> = SETTINGS_NUMBERS
        .iter()
        .chain(SETTINGS_BOOLS)
        .chain(SETTINGS_OTHER)
        .copied()
        .collect();
    let s = ObjReader::new(v, "settings", &keys)?;
    let n = |k: &str, d: f64| s.number_or(k, d);
    let nn = |k: &str, d: f64| s.non_negative(k, d);
    let b = |k: &str| s.bool_or(k, false);
    let starting_chips = nn("startingChips", 0.0)?;
    let ante_type = n("anteType", 0.0)?;
    if ![0.0, 1.0, 2.0].contains(&ante_type) {
        return Err(LoadError::at("settings.anteType", "must be 0, 1 or 2"));
    }
    let payout_percentages = match s.present("payoutPercentages") {
        None => None,
        Some(_) => {
            let p = s.numbers("payoutPercentages", 20)?;
            if let Some(i) = p.iter().position(|x| *x < 0.0) {
                return Err(LoadError::at(
                    &index("settings.payoutPercentages", i),
                    "must not be negative",
                ));
            }
            Some(p)
        }
    };
    Ok(Settings {
        title: s.text_or("title", "")?,
        starting_chips,
        buy_in_cost: nn("buyInCost", 0.0)?,
        addon_cost: nn("addonCost", 0.0)?,
        rebuy_cost: nn("rebuyCost", 0.0)?,
        addon_chips: nn("addonChips", 0.0)?,
        rebuy_end_level: nn("rebuyEndLevel", 0.0)?,
        bounty_chip_cost: nn("bountyChipCost", 0.0)?,
        ante_type,
        levels_per_break: nn("levelsPerBreak", 0.0)?,
        min_players_for_consolidation: nn("minPlayersForConsolidation", 0.0)?,
        expected_players: nn("expectedPlayers", 0.0)?,
        expected_addons: nn("expectedAddons", 0.0)?,
        expected_rebuys: nn("expectedRebuys", 0.0)?,
        payout_adjustment: n("payoutAdjustment", 0.0)?,
        addons_allowed: b("addonsAllowed")?,
        rebuys_allowed: b("rebuysAllowed")?,
        use_bounty_chips: b("useBountyChips")?,
        need_chip_to_win_chip: b("needChipToWinChip")?,
        pause_after_level: b("pauseAfterLevel")?,
        pause_after_break: b("pauseAfterBreak")?,
        rebuy_chips: nn("rebuyChips", starting_chips)?,
        initial_big_blind: nn("initialBigBlind", first_big_blind)?,
        blind_growth_rate: n("blindGrowthRate", 0.5)?,
        level_minutes: nn("levelMinutes", 20.0)?,
        break_minutes: nn("breakMinutes", 10.0)?,
        pregame_minutes: nn("pregameMinutes", 10.0)?,
        default_seats_per_table: nn("defaultSeatsPerTable", 9.0)?,
        tables_out_of_balance_threshold: nn("tablesOutOfBalanceThreshold", 2.0)?,
        payout_count: nn("payoutCount", 3.0)?,
        payout_round_to: n("payoutRoundTo", 1.0)?,
        payout_percentages,
        payout_script: s.nullable_text("payoutScript")?,
        currency: s.nullable_text("currency")?,
        points_formula: s.nullable_text("pointsFormula")?,
    })
}

fn read_levels(items: &[Json], settings: &Settings) -> Result<Vec<Level>> {
    let mut levels = Vec::with_capacity(items.len());
    let mut seen_blind = false;
    for (i, v) in items.iter().enumerate() {
        let path = index("levels", i);
        let r = ObjReader::new(
            v,
            &path,
            &[
                "type",
                "title",
                "subtitle",
                "smallBlind",
                "bigBlind",
                "ante",
                "minutes",
                "pauseAfter",
            ],
        )?;
        let is_break_type = match r.text("type")?.as_deref() {
            None | Some("blind") => false,
            Some("break") => true,
            Some(_) => {
                return Err(LoadError::at(
                    &r.path_of("type"),
                    "expected \"blind\" or \"break\"",
                ));
            }
        };
        let is_pregame = is_break_type && !seen_blind;
        seen_blind |= !is_break_type;
        let default_minutes = if !is_break_type {
            settings.level_minutes
        } else if is_pregame {
            settings.pregame_minutes
        } else {
            settings.break_minutes
        };
        let default_pause = if is_break_type {
            settings.pause_after_break
        } else {
            settings.pause_after_level
        };
        levels.push(Level {
            is_break_type,
            is_pregame,
            title: r.text_or("title", "")?,
            subtitle: r.text_or("subtitle", "")?,
            small_blind: r.non_negative("smallBlind", 0.0)?,
            big_blind: r.non_negative("bigBlind", 0.0)?,
            ante: r.non_negative("ante", 0.0)?,
            minutes: r.non_negative("minutes", default_minutes)?,
            pause_after: r.bool_or("pauseAfter", default_pause)?,
        });
    }
    Ok(levels)
}

fn read_chips(root: &ObjReader<'_>) -> Result<Vec<Chip>> {
    let mut chips = Vec::new();
    for (i, v) in root.list("chips", limits::CHIPS)?.iter().enumerate() {
        let path = index("chips", i);
        let r = ObjReader::new(v, &path, &["value", "count", "image", "svgId", "params"])?;
        let value = number_at(r.required("value")?, &r.path_of("value"))?;
        if value <= 0.0 {
            return Err(LoadError::at(&r.path_of("value"), "must be positive"));
        }
        let params = r.values("params")?;
        chips.push(Chip {
            value,
            count: r.non_negative("count", 0.0)?,
            image: r.text_or("image", "")?,
            svg_id: r.text_or("svgId", "")?,
            params,
        });
    }
    Ok(chips)
}

/// First word; a name without words is its own short name.
fn short_name(name: &str) -> String {
    name.split_whitespace().next().unwrap_or(name).to_string()
}

/// Upper-cased first letters of the first and last word (one word: its first letter).
fn initials(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let first = |w: &str| {
        w.chars()
            .next()
            .map(|c| c.to_uppercase().collect::<String>())
    };
    match words.as_slice() {
        [] => String::new(),
        [only] => first(only).unwrap_or_default(),
        [a, .., z] => first(a).unwrap_or_default() + &first(z).unwrap_or_default(),
    }
}

fn read_players(root: &ObjReader<'_>, times: &Times) -> Result<Vec<PlayerData>> {
    let items = root.list("players", limits::PLAYERS)?;
    let mut explicit = Vec::with_capacity(items.len());
    let mut seen_ids = HashSet::new();
    let mut seen_names = HashSet::new();
    let mut players = Vec::with_capacity(items.len());
    for (i, v) in items.iter().enumerate() {
        let path = index("players", i);
        let r = ObjReader::new(
            v,
            &path,
            &[
                "id",
                "name",
                "shortName",
                "initials",
                "currentChips",
                "currentChipsDt",
                "msActive",
                "msSeated",
            ],
        )?;
        let id = r.id("id")?;
        if let Some(id) = id
            && !seen_ids.insert(id)
        {
            return Err(LoadError::at(
                &r.path_of("id"),
                format!("duplicate player id {id}"),
            ));
        }
        explicit.push(id);
        let name = r.required_text("name")?;
        if !seen_names.insert(name.clone()) {
            return Err(LoadError::at(
                &r.path_of("name"),
                format!("duplicate player name {name:?}"),
            ));
        }
        let current_chips_dt = match r.present("currentChipsDt") {
            Some(v) => Some(times.at(v, &r.path_of("currentChipsDt"))?),
            None => None,
        };
        players.push(PlayerData {
            id: 0,
            short_name: r.text("shortName")?.unwrap_or_else(|| short_name(&name)),
            initials: r.text("initials")?.unwrap_or_else(|| initials(&name)),
            name,
            current_chips: r.number_or("currentChips", 0.0)?,
            current_chips_dt,
            ms_active: r.non_negative("msActive", 0.0)?,
            ms_seated: r.non_negative("msSeated", 0.0)?,
        });
    }
    // Missing ids (Decision): the smallest unused positive ids, in file order.
    let mut next = 1u32;
    for (p, id) in players.iter_mut().zip(explicit) {
        p.id = match id {
            Some(id) => id,
            None => {
                while seen_ids.contains(&next) {
                    next += 1;
                }
                seen_ids.insert(next);
                next
            }
        };
    }
    Ok(players)
}

fn read_tables(root: &ObjReader<'_>, settings: &Settings) -> Result<Vec<TableData>> {
    let mut tables: Vec<TableData> = Vec::new();
    for (i, v) in root.list("tables", limits::TABLES)?.iter().enumerate() {
        let path = index("tables", i);
        let r = ObjReader::new(
            v,
            &path,
            &["id", "name", "color", "seats", "isOpen", "closeOrder"],
        )?;
        let id = id_at(r.required("id")?, &r.path_of("id"))?;
        if tables.iter().any(|t| t.id == id) {
            return Err(LoadError::at(
                &r.path_of("id"),
                format!("duplicate table id {id}"),
            ));
        }
        let close_order = r.number_or("closeOrder", 1.0)?;
        if ![0.0, 1.0, 2.0].contains(&close_order) {
            return Err(LoadError::at(&r.path_of("closeOrder"), "must be 0, 1 or 2"));
        }
        tables.push(TableData {
            id,
            name: r.text_or("name", "")?,
            color: r.text_or("color", "")?,
            seats: r.non_negative("seats", settings.default_seats_per_table)?,
            is_open: r.bool_or("isOpen", true)?,
            close_order,
        });
    }
    Ok(tables)
}

const ENTRY_COMMON: &[&str] = &["type", "dt", "status", "createdBy"];

fn entry_keys(type_name: &str) -> &'static [&'static str] {
    match type_name {
        "buyIn" | "rebuy" | "addon" => &["players", "cost", "chips"],
        "bountyChip" => &["players", "cost"],
        "knockout" => &["players", "byPlayers"],
        "leftGame" => &["players"],
        "seating" => &["table", "players", "seats"],
        "blindsChanged" => &["level", "smallBlind", "bigBlind", "ante"],
        "playerHands" => &["players", "hands"],
        _ => &["fields"],
    }
}

fn read_log(
    root: &ObjReader<'_>,
    settings: &Settings,
    times: &Times,
    refs: &Refs<'_>,
) -> Result<Vec<LogEntry>> {
    let mut log = Vec::new();
    for (i, v) in root.list("log", limits::LOG)?.iter().enumerate() {
        let path = index("log", i);
        // The allowed keys depend on the type, so it is read before the key check.
        let type_name = match v.get("type") {
            Some(Json::String(t)) => t.clone(),
            Some(other) => {
                return Err(wrong_type(&join(&path, "type"), "a text", other));
            }
            None if v.is_object() => {
                return Err(LoadError::at(
                    &join(&path, "type"),
                    "required key is missing",
                ));
            }
            // Not an object: the reader below reports the type.
            None => String::new(),
        };
        let keys: Vec<&str> = ENTRY_COMMON
            .iter()
            .chain(entry_keys(&type_name))
            .copied()
            .collect();
        let r = ObjReader::new(v, &path, &keys)?;
        let dt = times.at(r.required("dt")?, &r.path_of("dt"))?;
        let kind = read_entry_kind(&r, &type_name, settings, refs)?;
        log.push(LogEntry {
            type_name,
            dt,
            status: r.text_or("status", "enabled")?,
            created_by: r.text_or("createdBy", "")?,
            kind,
            file_index: i,
        });
    }
    log.sort_by(|a, b| a.dt.total_cmp(&b.dt));
    Ok(log)
}

fn read_entry_kind(
    r: &ObjReader<'_>,
    type_name: &str,
    settings: &Settings,
    refs: &Refs<'_>,
) -> Result<EntryKind> {
    let purchase = |kind, cost, chips| -> Result<EntryKind> {
        Ok(EntryKind::Purchase {
            kind,
            players: refs.players(r, "players")?,
            cost: r.non_negative("cost", cost)?,
            chips: r.non_negative("chips", chips)?,
        })
    };
    let s = settings;
    Ok(match type_name {
        "buyIn" => purchase(PurchaseKind::BuyIn, s.buy_in_cost, s.starting_chips)?,
        "rebuy" => purchase(PurchaseKind::Rebuy, s.rebuy_cost, s.rebuy_chips)?,
        "addon" => purchase(PurchaseKind::Addon, s.addon_cost, s.addon_chips)?,
        "bountyChip" => EntryKind::BountyChip {
            players: refs.players(r, "players")?,
            cost: r.non_negative("cost", s.bounty_chip_cost)?,
        },
        "knockout" => EntryKind::Knockout {
            players: refs.players(r, "players")?,
            by_players: refs.players(r, "byPlayers")?,
        },
        "leftGame" => EntryKind::LeftGame {
            players: refs.players(r, "players")?,
        },
        "seating" => {
            let table = match r.present("table") {
                None => None,
                Some(v) => {
                    let id = id_at(v, &r.path_of("table"))?;
                    if !refs.tables.contains_key(&id) {
                        return Err(LoadError::at(
                            &r.path_of("table"),
                            format!("no table with id {id}"),
                        ));
                    }
                    Some(id)
                }
            };
            let players = refs.players(r, "players")?;
            let seats = r.numbers("seats", limits::ITEMS)?;
            if table.is_some() && seats.len() != players.len() {
                return Err(LoadError::at(
                    &r.path_of("seats"),
                    format!("expected {} seats, one per player", players.len()),
                ));
            }
            EntryKind::Seating {
                table,
                players,
                seats,
            }
        }
        "blindsChanged" => EntryKind::BlindsChanged {
            level: r.number_or("level", 0.0)?,
            small_blind: r.number_or("smallBlind", 0.0)?,
            big_blind: r.number_or("bigBlind", 0.0)?,
            ante: r.number_or("ante", 0.0)?,
        },
        "playerHands" => {
            let players = refs.players(r, "players")?;
            let path = r.path_of("hands");
            let hands = r
                .list("hands", limits::ITEMS)?
                .iter()
                .enumerate()
                .map(|(i, v)| read_hand(v, &index(&path, i)))
                .collect::<Result<Vec<f64>>>()?;
            if hands.len() != players.len() {
                return Err(LoadError::at(
                    &path,
                    format!("expected {} hands, one per player", players.len()),
                ));
            }
            EntryKind::PlayerHands { players, hands }
        }
        _ => {
            let fields = r.values("fields")?;
            EntryKind::Custom { fields }
        }
    })
}

/// A hand as `highHand.cards` writes it: hand number, 5 card numbers, or text.
fn read_hand(v: &Json, path: &str) -> Result<f64> {
    let result = match v {
        Json::Number(_) => hand::check_hand_number(number_at(v, path)?),
        Json::String(s) => hand::parse_cards_text(s),
        Json::Array(_) => {
            let items = list_at(v, path, 5)?;
            let cards = items
                .iter()
                .enumerate()
                .map(|(i, c)| number_at(c, &index(path, i)))
                .collect::<Result<Vec<f64>>>()?;
            hand::pack(&cards)
        }
        other => Err(format!(
            "expected a hand number, 5 card numbers or a text, found {}",
            crate::json::kind_of(other)
        )),
    };
    result.map_err(|m| LoadError::at(path, m))
}

fn read_chops(root: &ObjReader<'_>, refs: &Refs<'_>) -> Result<Vec<Chop>> {
    let mut chops = Vec::new();
    for (i, v) in root.list("chops", limits::CHOPS)?.iter().enumerate() {
        let path = index("chops", i);
        let r = ObjReader::new(
            v,
            &path,
            &[
                "place",
                "type",
                "players",
                "stacks",
                "percents",
                "payouts",
                "totalPayout",
            ],
        )?;
        let type_name = r.text_or("type", "even")?;
        if !["even", "chip", "icm", "custom"].contains(&type_name.as_str()) {
            return Err(LoadError::at(
                &r.path_of("type"),
                "expected \"even\", \"chip\", \"icm\" or \"custom\"",
            ));
        }
        let payouts = r.numbers("payouts", limits::ITEMS)?;
        chops.push(Chop {
            place: r.non_negative("place", 1.0)?,
            type_name,
            players: refs.players(&r, "players")?,
            stacks: r.numbers("stacks", limits::ITEMS)?,
            percents: r.numbers("percents", limits::ITEMS)?,
            total_payout: r.number_or("totalPayout", payouts.iter().sum())?,
            payouts,
        });
    }
    Ok(chops)
}

fn read_high_hand(
    root: &ObjReader<'_>,
    times: &Times,
    refs: &Refs<'_>,
) -> Result<Option<HighHand>> {
    let Some(v) = root.present("highHand") else {
        return Ok(None);
    };
    let r = ObjReader::new(v, "highHand", &["player", "cards", "dt"])?;
    let player = id_at(r.required("player")?, &r.path_of("player"))?;
    if !refs.players.contains_key(&player) {
        return Err(LoadError::at(
            &r.path_of("player"),
            format!("no player with id {player}"),
        ));
    }
    let hand = read_hand(r.required("cards")?, &r.path_of("cards"))?;
    let dt = match r.present("dt") {
        Some(v) => Some(times.at(v, &r.path_of("dt"))?),
        None => None,
    };
    Ok(Some(HighHand { player, hand, dt }))
}

fn read_clock(c: &ObjReader<'_>, levels: &[Level]) -> Result<Clock> {
    let level_index = c.number_or("levelIndex", 0.0)?;
    let max_index = levels.len().saturating_sub(1) as f64;
    if level_index.fract() != 0.0 || level_index < 0.0 || level_index > max_index {
        return Err(LoadError::at(
            &c.path_of("levelIndex"),
            format!("must be a level index from 0 to {max_index}"),
        ));
    }
    let level_index = level_index as usize;
    let full = levels.get(level_index).map_or(0.0, Level::seconds);
    let seconds_left_in_level = c.non_negative("secondsLeftInLevel", full)?;
    let running = c.bool_or("running", false)?;
    let level = levels.get(level_index);
    let first_blind = levels.iter().position(Level::is_blind_level);
    let default_started = level.is_some_and(|l| !l.is_pregame_level())
        && (running
            || seconds_left_in_level < full
            || first_blind.is_some_and(|f| level_index > f));
    let started = c.bool_or("started", default_started)?;
    let hand_timer = match c.raw("handTimer") {
        None => HandTimer {
            running: false,
            seconds_left: 0.0,
            default_seconds: 30.0,
        },
        Some(v) => {
            let h = ObjReader::new(
                v,
                &c.path_of("handTimer"),
                &["running", "secondsLeft", "defaultSeconds"],
            )?;
            HandTimer {
                running: h.bool_or("running", false)?,
                seconds_left: h.non_negative("secondsLeft", 0.0)?,
                default_seconds: h.non_negative("defaultSeconds", 30.0)?,
            }
        }
    };
    Ok(Clock {
        level_index,
        seconds_left_in_level,
        running,
        started,
        hand_timer,
    })
}

fn read_alerts(root: &ObjReader<'_>) -> Result<Vec<Alert>> {
    let mut alerts: Vec<Alert> = Vec::new();
    for (i, v) in root.list("alerts", limits::ALERTS)?.iter().enumerate() {
        let path = index("alerts", i);
        let r = ObjReader::new(v, &path, &["title", "condition", "tts", "enabled"])?;
        let title = r.required_text("title")?;
        if alerts.iter().any(|a| a.title == title) {
            return Err(LoadError::at(
                &r.path_of("title"),
                format!("duplicate alert title {title:?}"),
            ));
        }
        alerts.push(Alert {
            title,
            condition: r.required_text("condition")?,
            tts: r.nullable_text("tts")?,
            enabled: r.bool_or("enabled", true)?,
        });
    }
    Ok(alerts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(short_name("Alex Petrov"), "Alex");
        assert_eq!(initials("Dana Whitfield"), "DW");
        assert_eq!(initials("anna maria de souza"), "AS");
        assert_eq!(initials("Cher"), "C");
        assert_eq!(initials("  "), "");
    }
}
