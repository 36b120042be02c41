//! The table state of spec §5.1 (JSON) and the [`SymbolProvider`] it implements.

use crate::cards::Card;
use crate::symbols::{Status, Symbol};
use serde_json::{Map, Value};

/// Where the symbols of the table come from.
///
/// The evaluator asks a provider for the plain table symbols ([`SymbolProvider::table_symbol`])
/// and for the hero's cards and the board; every card-derived symbol is computed from those two
/// by this crate (or by the installed [`crate::HandEvaluator`]), so a provider for a live table,
/// a replay or a simulation only has to describe the table.
pub trait SymbolProvider {
    /// The value of a table symbol (chairs, blinds, bets, players, flags: the symbols for which
    /// [`is_table_symbol`] is true). Values are read once per state and cached.
    fn table_symbol(&self, symbol: Symbol) -> f64;
    /// The hero's hole cards in dealt order: empty or two.
    fn hero(&self) -> &[Card];
    /// The board in dealt order: 0, 3, 4 or 5 cards.
    fn board(&self) -> &[Card];
    /// Initial memory cells (names lower-case).
    fn memory(&self) -> &[(String, f64)] {
        &[]
    }
    /// Initial values of memory cells the provider derives (the OpenPPL library's memory of the
    /// hand, from a betting history): they apply to the cells the profile reads, unlike
    /// [`SymbolProvider::memory`], which sets (and reports) every cell it names.
    fn derived_memory(&self) -> &[(String, f64)] {
        &[]
    }
    /// The state's seed for `random` and prwin, if it has one.
    fn seed(&self) -> Option<u64> {
        None
    }
    /// A symbol's value given outright (the state's `symbols`, `--set`): it wins over any
    /// computed value, and is how a live-only symbol (`elapsed`, `pt_…`) gets a value.
    fn given(&self, _name: &str) -> Option<f64> {
        None
    }
    /// The value of a table name of the full catalogue ([`crate::catalog`]: `cutoffchair`,
    /// `ac_betpos3`, `chair$NAME` …); `None` when the provider cannot tell.
    fn catalog_value(&self, _name: &str) -> Option<f64> {
        None
    }
    /// The value of ICM symbol `name` (`icm`, `icm_fold` …) given the payouts (`prizes`: the
    /// `f$icm_prize1..9` values, NaN where the profile defines none), or the warning to give
    /// (the value is then 0).
    fn icm_value(&self, name: &str, _prizes: &[f64]) -> Result<f64, String> {
        Err(format!(
            "symbol '{name}' is known only at a live table and the provider does not give it: 0"
        ))
    }
}

/// True for the symbols a [`SymbolProvider`] answers itself.
pub fn is_table_symbol(s: Symbol) -> bool {
    use Symbol::*;
    !matches!(
        s,
        Random | RandomHand | RandomRound | RandomHeartbeat | HandRankP
    ) && crate::cards::plain_card_value(s, &[], &[]).is_none()
        && !s.needs_evaluator()
}

/// Betting structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// No limit (`lim` 0).
    NoLimit,
    /// Pot limit (1).
    PotLimit,
    /// Fixed limit (2).
    FixedLimit,
}

/// One occupied chair.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// 0..nchairs.
    pub chair: u8,
    /// Display name.
    pub name: Option<String>,
    /// Chips behind.
    pub balance: f64,
    /// This round's bet.
    pub bet: f64,
    /// Has the seat.
    pub seated: bool,
    /// Not sitting out.
    pub active: bool,
    /// Dealt this hand.
    pub dealt: bool,
    /// Not folded.
    pub playing: bool,
    /// The stack at the hand's start (`start_balance`: balance plus bet when the hand
    /// began), for `icm`; when absent, derived ([`TableState::start_balance`]).
    pub start_balance: Option<f64>,
}

impl Player {
    fn has(&self, s: Status) -> bool {
        match s {
            Status::Seated => self.seated,
            Status::Active => self.active,
            Status::Dealt => self.dealt,
            Status::Playing => self.playing,
            Status::Allin => self.playing && self.balance == 0.0,
        }
    }
}

/// A validated table state.
#[derive(Clone, Debug, PartialEq)]
pub struct TableState {
    /// Number of chairs (2..=10).
    pub nchairs: u8,
    /// The hero's chair.
    pub userchair: u8,
    /// The button.
    pub dealerchair: u8,
    /// Betting structure.
    pub limit: Limit,
    /// Blinds and ante.
    pub sblind: f64,
    /// Big blind.
    pub bblind: f64,
    /// Ante.
    pub ante: f64,
    /// Fixed-limit turn/river bet.
    pub bigbet: f64,
    /// Chips from completed rounds.
    pub pots: Vec<f64>,
    /// The hero's cards.
    pub hero: Vec<Card>,
    /// The board.
    pub board: Vec<Card>,
    /// 1..=4, from the board.
    pub betround: u8,
    /// Occupied chairs, ordered by chair.
    pub players: Vec<Player>,
    /// Flags pressed.
    pub flags: [bool; 20],
    /// Initial memory cells.
    pub memory: Vec<(String, f64)>,
    /// RNG seed.
    pub seed: Option<u64>,
    /// Symbols given outright (`"symbols": {"elapsed": 30}`), by name.
    pub symbols: Vec<(String, f64)>,
    /// The hand's actions by round (`history`), when the state tells them.
    pub history: Option<Vec<Vec<crate::history::Action>>>,
    /// The tournament's payouts as shares of the prize pool, first place first (`payouts`,
    /// at most 9): the ICM prizes where the profile defines no `f$icm_prizeN`.
    pub payouts: Vec<f64>,
    /// Memory cells the OpenPPL library would hold, derived from `history`
    /// ([`SymbolProvider::derived_memory`]).
    pub history_memory: Vec<(String, f64)>,
}

/// A state file problem: the JSON path (`players[2].chair`) and what is wrong, or a syntax error
/// at a line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError {
    /// `players[2].chair`; empty for the whole document.
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// Line and column of a JSON syntax error.
    pub position: Option<(usize, usize)>,
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

fn err<T>(path: &str, message: impl Into<String>) -> Result<T, StateError> {
    Err(StateError {
        path: path.to_string(),
        message: message.into(),
        position: None,
    })
}

fn number(v: &Value, path: &str) -> Result<f64, StateError> {
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        _ => err(path, format!("expected a number, found {}", kind(v))),
    }
}

fn nonneg(v: &Value, path: &str) -> Result<f64, StateError> {
    let x = number(v, path)?;
    if x < 0.0 {
        return err(path, format!("must be ≥ 0, found {x}"));
    }
    Ok(x)
}

fn integer(v: &Value, path: &str, lo: i64, hi: i64) -> Result<i64, StateError> {
    match v.as_i64() {
        Some(x) if (lo..=hi).contains(&x) => Ok(x),
        Some(x) => err(path, format!("{x} is out of range {lo}..{hi}")),
        None => err(path, format!("expected an integer, found {}", kind(v))),
    }
}

fn boolean(v: &Value, path: &str) -> Result<bool, StateError> {
    v.as_bool().map_or_else(
        || err(path, format!("expected true or false, found {}", kind(v))),
        Ok,
    )
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn check_keys(obj: &Map<String, Value>, allowed: &[&str], prefix: &str) -> Result<(), StateError> {
    for key in obj.keys() {
        if !allowed.contains(&key.as_str()) {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            return err(
                &path,
                format!("unknown key (expected one of: {})", allowed.join(", ")),
            );
        }
    }
    Ok(())
}

fn cards(v: Option<&Value>, path: &str, seen: &mut u64) -> Result<Vec<Card>, StateError> {
    let Some(v) = v else { return Ok(Vec::new()) };
    let Some(arr) = v.as_array() else {
        return err(
            path,
            format!("expected an array of cards, found {}", kind(v)),
        );
    };
    let mut out = Vec::new();
    for (i, c) in arr.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let Some(s) = c.as_str() else {
            return err(
                &p,
                format!("expected a card like \"Ah\", found {}", kind(c)),
            );
        };
        let Some(card) = Card::parse(s) else {
            return err(
                &p,
                format!("invalid card \"{s}\" (rank 23456789TJQKA, suit hdcs)"),
            );
        };
        if *seen & (1 << card.code()) != 0 {
            return err(&p, format!("card {card} appears twice"));
        }
        *seen |= 1 << card.code();
        out.push(card);
    }
    Ok(out)
}

impl TableState {
    /// Sets a symbol's value outright (`--set NAME=VALUE`): it wins over any computed value.
    pub fn set_symbol(&mut self, name: &str, value: f64) {
        self.symbols.retain(|(n, _)| n != name);
        self.symbols.push((name.to_string(), value));
    }

    /// Parses and validates a state document.
    pub fn from_json(text: &str) -> Result<TableState, StateError> {
        let root: Value = serde_json::from_str(text).map_err(|e| StateError {
            path: String::new(),
            message: format!("invalid JSON: {}", strip_position(&e.to_string())),
            position: Some((e.line(), e.column())),
        })?;
        Self::from_value(&root)
    }

    /// Validates a parsed JSON document.
    pub fn from_value(root: &Value) -> Result<TableState, StateError> {
        let Some(obj) = root.as_object() else {
            return err("", format!("expected an object, found {}", kind(root)));
        };
        check_keys(
            obj,
            &[
                "nchairs",
                "userchair",
                "dealerchair",
                "limit",
                "sblind",
                "bblind",
                "ante",
                "bigbet",
                "pots",
                "hero",
                "board",
                "betround",
                "players",
                "flags",
                "memory",
                "seed",
                "symbols",
                "history",
                "payouts",
            ],
            "",
        )?;
        let nchairs = match obj.get("nchairs") {
            Some(v) => integer(v, "nchairs", 2, 10)? as u8,
            None => 10,
        };
        let max_chair = i64::from(nchairs) - 1;
        let chair = |key: &str| match obj.get(key) {
            Some(v) => integer(v, key, 0, max_chair).map(|c| c as u8),
            None => err(key, "required key is missing"),
        };
        let userchair = chair("userchair")?;
        let dealerchair = chair("dealerchair")?;
        let limit = match obj.get("limit") {
            None => Limit::NoLimit,
            Some(Value::String(s)) if s == "NL" => Limit::NoLimit,
            Some(Value::String(s)) if s == "PL" => Limit::PotLimit,
            Some(Value::String(s)) if s == "FL" => Limit::FixedLimit,
            Some(v) => {
                return err(
                    "limit",
                    format!("expected \"NL\", \"PL\" or \"FL\", found {v}"),
                );
            }
        };
        let get = |key: &str, default: f64| obj.get(key).map_or(Ok(default), |v| nonneg(v, key));
        let sblind = get("sblind", 0.0)?;
        let bblind = get("bblind", 0.0)?;
        let ante = get("ante", 0.0)?;
        let bigbet = get("bigbet", 2.0 * bblind)?;
        let pots = match obj.get("pots") {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .enumerate()
                .map(|(i, v)| nonneg(v, &format!("pots[{i}]")))
                .collect::<Result<_, _>>()?,
            Some(v) => return err("pots", format!("expected an array, found {}", kind(v))),
        };
        let mut seen = 0u64;
        let hero = cards(obj.get("hero"), "hero", &mut seen)?;
        if !matches!(hero.len(), 0 | 2) {
            return err(
                "hero",
                format!("expected 0 or 2 cards, found {}", hero.len()),
            );
        }
        let board = cards(obj.get("board"), "board", &mut seen)?;
        let betround = match board.len() {
            0 => 1,
            3 => 2,
            4 => 3,
            5 => 4,
            n => return err("board", format!("expected 0, 3, 4 or 5 cards, found {n}")),
        };
        if let Some(v) = obj.get("betround") {
            let given = integer(v, "betround", 1, 4)?;
            if given != i64::from(betround) {
                return err(
                    "betround",
                    format!(
                        "{given} does not match the board of {} cards (betround {betround})",
                        board.len()
                    ),
                );
            }
        }
        let mut players: Vec<Player> = Vec::new();
        match obj.get("players") {
            None => {}
            Some(Value::Array(a)) => {
                for (i, pv) in a.iter().enumerate() {
                    let path = format!("players[{i}]");
                    players.push(player(pv, &path, max_chair)?);
                    let c = players[players.len() - 1].chair;
                    if players[..players.len() - 1].iter().any(|p| p.chair == c) {
                        return err(&format!("{path}.chair"), format!("chair {c} appears twice"));
                    }
                }
            }
            Some(v) => return err("players", format!("expected an array, found {}", kind(v))),
        }
        players.sort_by_key(|p| p.chair);
        if !players.iter().any(|p| p.chair == userchair) {
            return err(
                "userchair",
                format!("chair {userchair} has no entry in players"),
            );
        }
        let mut flags = [false; 20];
        match obj.get("flags") {
            None => {}
            Some(Value::Array(a)) => {
                for (i, v) in a.iter().enumerate() {
                    flags[integer(v, &format!("flags[{i}]"), 0, 19)? as usize] = true;
                }
            }
            Some(v) => return err("flags", format!("expected an array, found {}", kind(v))),
        }
        let mut memory = Vec::new();
        match obj.get("memory") {
            None => {}
            Some(Value::Object(m)) => {
                for (k, v) in m {
                    let path = format!("memory.{k}");
                    if k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric()) {
                        return err(&path, "memory names are letters and digits");
                    }
                    memory.push((k.to_ascii_lowercase(), number(v, &path)?));
                }
            }
            Some(v) => return err("memory", format!("expected an object, found {}", kind(v))),
        }
        let seed = match obj.get("seed") {
            None => None,
            Some(v) => Some(
                v.as_u64()
                    .map_or_else(|| err("seed", "expected an unsigned 64-bit integer"), Ok)?,
            ),
        };
        let mut symbols = Vec::new();
        match obj.get("symbols") {
            None => {}
            Some(Value::Object(m)) => {
                for (k, v) in m {
                    let path = format!("symbols.{k}");
                    if !crate::catalog::is_known(k) {
                        return err(&path, "not a symbol of the catalogue");
                    }
                    symbols.push((k.clone(), number(v, &path)?));
                }
            }
            Some(v) => return err("symbols", format!("expected an object, found {}", kind(v))),
        }
        let payouts = match obj.get("payouts") {
            None => Vec::new(),
            Some(Value::Array(a)) if a.len() <= 9 => a
                .iter()
                .enumerate()
                .map(|(i, v)| nonneg(v, &format!("payouts[{i}]")))
                .collect::<Result<_, _>>()?,
            Some(Value::Array(a)) => {
                return err(
                    "payouts",
                    format!(
                        "{} places, but OpenHoldem pays at most 9 (f$icm_prize1..9)",
                        a.len()
                    ),
                );
            }
            Some(v) => return err("payouts", format!("expected an array, found {}", kind(v))),
        };
        let chairs: Vec<u8> = players.iter().map(|p| p.chair).collect();
        let history = match obj.get("history") {
            None => None,
            Some(v) => Some(crate::history::parse(v, betround, &chairs)?),
        };
        let seeded = history.is_some();
        let mut state = TableState {
            history,
            payouts,
            history_memory: Vec::new(),
            symbols,
            nchairs,
            userchair,
            dealerchair,
            limit,
            sblind,
            bblind,
            ante,
            bigbet,
            pots,
            hero,
            board,
            betround,
            players,
            flags,
            memory,
            seed,
        };
        if seeded {
            // The OpenPPL library's memory from the history, unless the state sets a cell.
            let given = state.memory.clone();
            state.history_memory = state
                .openppl_memory()
                .into_iter()
                .filter(|(cell, _)| !given.iter().any(|(n, _)| n == cell))
                .collect();
        }
        Ok(state)
    }

    /// The player's stack at the hand's start (CSymbolEngineChipAmounts: balance plus bet at
    /// the hand reset): the state's `start_balance`, else the balance and this round's bet
    /// plus what the history says the chair bet in earlier rounds.
    pub fn start_balance(&self, p: &Player) -> f64 {
        if let Some(s) = p.start_balance {
            return s;
        }
        let earlier: f64 = self.history.as_ref().map_or(0.0, |rounds| {
            let current = usize::from(self.betround) - 1;
            rounds
                .iter()
                .take(current)
                .filter_map(|r| r.iter().rev().find(|a| a.chair == p.chair).map(|a| a.to))
                .sum()
        });
        p.balance + p.bet + earlier
    }

    fn player(&self, chair: u8) -> Option<&Player> {
        self.players.iter().find(|p| p.chair == chair)
    }

    fn hero_player(&self) -> Option<&Player> {
        self.player(self.userchair)
    }

    fn largest_bet(&self) -> f64 {
        self.players.iter().map(|p| p.bet).fold(0.0, f64::max)
    }

    pub(crate) fn bet_of_round(&self, r: u8) -> f64 {
        if self.limit == Limit::FixedLimit && r >= 3 {
            self.bigbet
        } else {
            self.bblind
        }
    }

    pub(crate) fn blind_chairs(&self) -> (f64, f64) {
        let dealt: Vec<u8> = self
            .players
            .iter()
            .filter(|p| p.dealt)
            .map(|p| p.chair)
            .collect();
        if dealt.len() == 2 && dealt.contains(&self.dealerchair) {
            let other = dealt
                .iter()
                .copied()
                .find(|&c| c != self.dealerchair)
                .unwrap_or(0);
            return (f64::from(self.dealerchair), f64::from(other));
        }
        let mut order = (1..=self.nchairs).map(|k| (self.dealerchair + k) % self.nchairs);
        let mut next = || order.find(|c| dealt.contains(c)).map_or(-1.0, f64::from);
        let sb = next();
        let bb = if sb < 0.0 { -1.0 } else { next() };
        (sb, bb)
    }

    fn count(&self, s: Status, with_hero: bool) -> f64 {
        self.players
            .iter()
            .filter(|p| p.has(s) && (with_hero || p.chair != self.userchair))
            .count() as f64
    }

    fn bits(&self, s: Status, with_hero: bool) -> f64 {
        f64::from(
            self.players
                .iter()
                .filter(|p| p.has(s) && (with_hero || p.chair != self.userchair))
                .fold(0u32, |m, p| m | 1 << p.chair),
        )
    }
}

fn strip_position(msg: &str) -> String {
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

fn player(v: &Value, path: &str, max_chair: i64) -> Result<Player, StateError> {
    let Some(obj) = v.as_object() else {
        return err(path, format!("expected an object, found {}", kind(v)));
    };
    check_keys(
        obj,
        &[
            "chair",
            "name",
            "balance",
            "bet",
            "seated",
            "active",
            "dealt",
            "playing",
            "start_balance",
        ],
        path,
    )?;
    let field = |k: &str| format!("{path}.{k}");
    let chair = match obj.get("chair") {
        Some(c) => integer(c, &field("chair"), 0, max_chair)? as u8,
        None => return err(&field("chair"), "required key is missing"),
    };
    let name = match obj.get("name") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(v) => {
            return err(
                &field("name"),
                format!("expected a string, found {}", kind(v)),
            );
        }
    };
    let num = |k: &str| obj.get(k).map_or(Ok(0.0), |v| nonneg(v, &field(k)));
    let balance = num("balance")?;
    let bet = num("bet")?;
    let flag = |k: &str, default: bool| obj.get(k).map_or(Ok(default), |v| boolean(v, &field(k)));
    let seated = flag("seated", true)?;
    let active = flag("active", seated)?;
    let dealt = flag("dealt", active)?;
    let playing = flag("playing", dealt)?;
    let start_balance = match obj.get("start_balance") {
        None => None,
        Some(v) => Some(nonneg(v, &field("start_balance"))?),
    };
    for (k, this, needs, what) in [
        ("active", active, seated, "seated"),
        ("dealt", dealt, active, "active"),
        ("playing", playing, dealt, "dealt"),
    ] {
        if this && !needs {
            return err(&field(k), format!("a player who is {k} must be {what}"));
        }
    }
    Ok(Player {
        chair,
        name,
        balance,
        bet,
        seated,
        active,
        dealt,
        playing,
        start_balance,
    })
}

impl SymbolProvider for TableState {
    fn table_symbol(&self, symbol: Symbol) -> f64 {
        use Symbol::*;
        let hero = self.hero_player();
        let balance = hero.map_or(0.0, |p| p.balance);
        let current = hero.map_or(0.0, |p| p.bet);
        let bet = self.bet_of_round(self.betround);
        let b = if bet <= 0.0 { 1.0 } else { bet };
        let call = {
            let c = self.largest_bet() - current;
            if balance > 0.0 { c.min(balance) } else { c }
        };
        let flag = |on: bool| if on { 1.0 } else { 0.0 };
        match symbol {
            Nchairs => f64::from(self.nchairs),
            Userchair => f64::from(self.userchair),
            Dealerchair => f64::from(self.dealerchair),
            Sblind => self.sblind,
            Bblind => self.bblind,
            Ante => self.ante,
            Lim => match self.limit {
                Limit::NoLimit => 0.0,
                Limit::PotLimit => 1.0,
                Limit::FixedLimit => 2.0,
            },
            IsNl => flag(self.limit == Limit::NoLimit),
            IsPl => flag(self.limit == Limit::PotLimit),
            IsFl => flag(self.limit == Limit::FixedLimit),
            SmallBlindChair => self.blind_chairs().0,
            BigBlindChair => self.blind_chairs().1,
            Betround => f64::from(self.betround),
            PreviousRound => f64::from(self.betround.saturating_sub(1).max(1)),
            Bet => bet,
            BetRound(r) => self.bet_of_round(r),
            Balance => balance,
            BalanceChair(c) => self.player(c).map_or(0.0, |p| p.balance),
            CurrentBet => current,
            CurrentBetChair(c) => self.player(c).map_or(0.0, |p| p.bet),
            Call => call,
            Pot => self.pots.iter().sum::<f64>() + self.players.iter().map(|p| p.bet).sum::<f64>(),
            PotCommon => self.pots.iter().sum(),
            PotPlayer => self.players.iter().map(|p| p.bet).sum(),
            NBetsToCall => call / b,
            NBetsToRais => call / b + 1.0,
            NCallBets => self.largest_bet() / b,
            NRaisBets => self.largest_bet() / b + 1.0,
            NCurrentBets => {
                if bet == 0.0 {
                    0.0
                } else {
                    current / bet
                }
            }
            Stack(i) => {
                let mut stacks: Vec<f64> = self
                    .players
                    .iter()
                    .filter(|p| p.playing)
                    .map(|p| p.balance)
                    .collect();
                stacks.sort_by(|a, b| b.total_cmp(a));
                stacks.get(i as usize).copied().unwrap_or(0.0)
            }
            NPlayers(s) => self.count(s, true),
            NOpponents(s) => self.count(s, false),
            NOpponentsFolded => self
                .players
                .iter()
                .filter(|p| p.chair != self.userchair && p.dealt && !p.playing)
                .count() as f64,
            NOpponentsBetting => self
                .players
                .iter()
                .filter(|p| p.chair != self.userchair && p.playing && p.bet > 0.0)
                .count() as f64,
            PlayersBits(s) => self.bits(s, true),
            OpponentsBits(s) => self.bits(s, false),
            Flag(i) => flag(self.flags[i as usize]),
            FlagBits => f64::from(
                self.flags
                    .iter()
                    .enumerate()
                    .fold(0u32, |m, (i, &f)| if f { m | 1 << i } else { m }),
            ),
            _ => 0.0,
        }
    }

    fn hero(&self) -> &[Card] {
        &self.hero
    }

    fn board(&self) -> &[Card] {
        &self.board
    }

    fn memory(&self) -> &[(String, f64)] {
        &self.memory
    }

    fn derived_memory(&self) -> &[(String, f64)] {
        &self.history_memory
    }

    fn seed(&self) -> Option<u64> {
        self.seed
    }

    fn given(&self, name: &str) -> Option<f64> {
        self.symbols
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
    }

    fn icm_value(&self, name: &str, prizes: &[f64]) -> Result<f64, String> {
        crate::icm::value(self, name, prizes)
    }

    fn catalog_value(&self, name: &str) -> Option<f64> {
        if let Some(n) = name.strip_prefix("chair$") {
            return Some(self.chair_of(n).map_or(-1.0, f64::from));
        }
        if let Some(n) = name.strip_prefix("chairbit$") {
            return Some(self.chair_of(n).map_or(0.0, |c| f64::from(1u32 << c)));
        }
        self.catalog_table_value(name)
            .or_else(|| self.history.as_ref().and_then(|_| self.history_value(name)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path_of(json: &str) -> String {
        TableState::from_json(json).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_path() {
        assert_eq!(
            path_of(r#"{"userchair":0,"dealerchair":0,"players":[{"chair":0},{"chair":12}]}"#),
            "players[1].chair: 12 is out of range 0..9"
        );
        assert_eq!(
            path_of(r#"{"userchair":0,"dealerchair":0,"players":[{"chair":0,"x":1}]}"#)
                .split(" (")
                .next()
                .unwrap(),
            "players[0].x: unknown key"
        );
        assert_eq!(
            path_of(r#"{"dealerchair":0}"#),
            "userchair: required key is missing"
        );
        assert_eq!(
            path_of(
                r#"{"userchair":0,"dealerchair":0,"players":[{"chair":0}],"hero":["Ah","ah"]}"#
            ),
            "hero[1]: card Ah appears twice"
        );
        assert_eq!(
            path_of(
                r#"{"userchair":0,"dealerchair":0,"players":[{"chair":0,"active":false,"playing":true}]}"#
            ),
            "players[0].playing: a player who is playing must be dealt"
        );
        let e = TableState::from_json("{\n  \"nchairs\": ,\n}").unwrap_err();
        assert_eq!(e.position.map(|p| p.0), Some(2));
    }
}
