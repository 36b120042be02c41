//! The hand's betting history (issue 12 part 6): the state's optional `history`, one list of
//! actions per betting round, and the symbols computed from it.
//!
//! OH 14 builds these symbols while it watches the table (CSymbolEngineHistory, Raisers,
//! Callers, ChecksBetsFolds, Positions); offline the state tells the whole hand at once, so
//! each is computed from the actions directly, with the meaning those engines give it.

use crate::state::TableState;
use serde_json::Value;

/// What a player did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    /// Posts the small blind (not a raise).
    SmallBlind,
    /// Posts the big blind (not a raise).
    BigBlind,
    /// Folds.
    Fold,
    /// Checks.
    Check,
    /// Calls.
    Call,
    /// Bets or raises by the raise button (`didrais`).
    Raise,
    /// Bets or raises a stated amount (`f$betsize`: `didbetsize`).
    Betsize,
    /// Goes all-in (a raise when it exceeds the bet to call).
    Allin,
}

const KINDS: [(&str, ActionKind); 9] = [
    ("sb", ActionKind::SmallBlind),
    ("bb", ActionKind::BigBlind),
    ("fold", ActionKind::Fold),
    ("check", ActionKind::Check),
    ("call", ActionKind::Call),
    ("bet", ActionKind::Raise),
    ("raise", ActionKind::Raise),
    ("betsize", ActionKind::Betsize),
    ("allin", ActionKind::Allin),
];

/// One action: the chair, what it did and the chair's bet in the round after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Action {
    /// The chair.
    pub chair: u8,
    /// What it did.
    pub kind: ActionKind,
    /// The chair's total bet in this round after the action (`to`); for a call or check
    /// without one, the bet to match.
    pub to: f64,
}

fn fail<T>(path: &str, message: impl Into<String>) -> Result<T, crate::state::StateError> {
    Err(crate::state::StateError {
        path: path.to_string(),
        message: message.into(),
        position: None,
    })
}

/// Parses `history`: at most `betround` rounds of actions by chairs that have a player entry.
pub(crate) fn parse(
    v: &Value,
    betround: u8,
    chairs: &[u8],
) -> Result<Vec<Vec<Action>>, crate::state::StateError> {
    let Some(rounds) = v.as_array() else {
        return fail("history", "expected an array of rounds (arrays of actions)");
    };
    if rounds.len() > usize::from(betround) {
        return fail(
            "history",
            format!(
                "{} rounds, but the board makes this betting round {betround}",
                rounds.len()
            ),
        );
    }
    let mut out = Vec::new();
    for (r, round) in rounds.iter().enumerate() {
        let Some(actions) = round.as_array() else {
            return fail(&format!("history[{r}]"), "expected an array of actions");
        };
        let mut list = Vec::new();
        let mut level = 0.0f64;
        for (i, a) in actions.iter().enumerate() {
            let path = format!("history[{r}][{i}]");
            let Some(obj) = a.as_object() else {
                return fail(
                    &path,
                    "expected an action like {\"chair\": 3, \"action\": \"raise\", \"to\": 6}",
                );
            };
            for k in obj.keys() {
                if !["chair", "action", "to"].contains(&k.as_str()) {
                    return fail(
                        &format!("{path}.{k}"),
                        "unknown key (expected one of: chair, action, to)",
                    );
                }
            }
            let chair = match obj.get("chair").and_then(Value::as_u64) {
                Some(c) if chairs.contains(&(c as u8)) && c < 10 => c as u8,
                Some(c) => {
                    return fail(
                        &format!("{path}.chair"),
                        format!("chair {c} has no entry in players"),
                    );
                }
                None => return fail(&format!("{path}.chair"), "required: a chair number"),
            };
            let kind = match obj.get("action").and_then(Value::as_str) {
                Some(s) => match KINDS.iter().find(|(n, _)| *n == s) {
                    Some((_, k)) => *k,
                    None => {
                        return fail(
                            &format!("{path}.action"),
                            format!(
                                "unknown action \"{s}\" (expected one of: sb, bb, fold, check, call, bet, raise, betsize, allin)"
                            ),
                        );
                    }
                },
                None => return fail(&format!("{path}.action"), "required: an action name"),
            };
            let to = match obj.get("to") {
                None => match kind {
                    ActionKind::Call => level,
                    ActionKind::Check => level,
                    ActionKind::Fold => list
                        .iter()
                        .rev()
                        .find(|x: &&Action| x.chair == chair)
                        .map_or(0.0, |x| x.to),
                    _ => {
                        return fail(
                            &format!("{path}.to"),
                            "a blind, bet, raise or all-in needs its amount 'to'",
                        );
                    }
                },
                Some(t) => match t.as_f64() {
                    Some(x) if x.is_finite() && x >= 0.0 => x,
                    _ => return fail(&format!("{path}.to"), "expected a number ≥ 0"),
                },
            };
            if matches!(kind, ActionKind::Raise | ActionKind::Betsize) && to <= level {
                return fail(
                    &format!("{path}.to"),
                    format!("a raise to {to} does not exceed the bet of {level}"),
                );
            }
            level = level.max(to);
            list.push(Action { chair, kind, to });
        }
        out.push(list);
    }
    Ok(out)
}

/// A raise: a bet above the round's level so far (blinds are posted, not raised).
fn raises(round: &[Action]) -> Vec<(usize, u8)> {
    let mut level = 0.0f64;
    let mut out = Vec::new();
    for (i, a) in round.iter().enumerate() {
        if matches!(
            a.kind,
            ActionKind::Raise | ActionKind::Betsize | ActionKind::Allin
        ) && a.to > level
        {
            out.push((i, a.chair));
        }
        level = level.max(a.to);
    }
    out
}

fn callers(round: &[Action]) -> Vec<(usize, u8)> {
    let mut level = 0.0f64;
    let mut out = Vec::new();
    for (i, a) in round.iter().enumerate() {
        let call = a.kind == ActionKind::Call
            || (a.kind == ActionKind::Allin && a.to <= level && level > 0.0);
        if call {
            out.push((i, a.chair));
        }
        level = level.max(a.to);
    }
    out
}

fn bits(chairs: impl Iterator<Item = u8>) -> f64 {
    f64::from(chairs.fold(0u32, |m, c| m | 1 << c))
}

/// The round digit at the end of `name` after `stem` (1..=4).
fn round_of(name: &str, stem: &str) -> Option<usize> {
    let r: usize = name.strip_prefix(stem)?.parse().ok()?;
    (name.len() == stem.len() + 1 && (1..=4).contains(&r)).then_some(r)
}

impl TableState {
    fn round(&self, r: usize) -> &[Action] {
        self.history
            .as_ref()
            .and_then(|h| h.get(r - 1))
            .map_or(&[][..], |v| v.as_slice())
    }

    /// The chips `chair` put in during round `r` (the current round: its `bet`).
    fn put_in(&self, chair: u8, r: usize) -> f64 {
        if r == usize::from(self.betround) {
            return self
                .players
                .iter()
                .find(|p| p.chair == chair)
                .map_or(0.0, |p| p.bet);
        }
        self.round(r)
            .iter()
            .filter(|a| a.chair == chair)
            .map(|a| a.to)
            .fold(0.0, f64::max)
    }

    /// The balance of `chair` when round `r` ended (for the current round: now).
    fn balance_after(&self, chair: u8, r: usize) -> f64 {
        let now = self
            .players
            .iter()
            .find(|p| p.chair == chair)
            .map_or(0.0, |p| p.balance);
        now + (r + 1..=usize::from(self.betround))
            .map(|k| self.put_in(chair, k))
            .sum::<f64>()
    }

    fn folded_before(&self, chair: u8, r: usize) -> bool {
        (1..r).any(|k| {
            self.round(k)
                .iter()
                .any(|a| a.chair == chair && a.kind == ActionKind::Fold)
        })
    }

    /// Since the hero's last action in the current round (or the round's start).
    fn since_hero(&self) -> &[Action] {
        let round = self.round(usize::from(self.betround));
        let start = round
            .iter()
            .rposition(|a| a.chair == self.userchair)
            .map_or(0, |i| i + 1);
        &round[start..]
    }

    /// The last opponent who raised in the current round.
    pub(crate) fn raischair(&self) -> Option<u8> {
        let round = self.round(usize::from(self.betround));
        raises(round)
            .into_iter()
            .rev()
            .map(|(_, c)| c)
            .find(|&c| c != self.userchair)
    }

    /// The memory cells OH 14's OpenPPL library keeps for the betting rounds (preflop, flop,
    /// turn), as it would hold them having watched this hand: after each of the hero's actions
    /// `UpdateMemorySymbolsAfterAutoplayerAction` (OpenPPL_Library_Update_History.ohf) stores
    /// the hero's action (`MemBotsLastPreflopAction` …, an action constant; `None` when the
    /// hero did not act in that round, the hand-reset value) and the raises the hero had faced
    /// (`MemRaisesBeforeFlop` …: opponents' raises before the hero's last action there; after
    /// the flop the round's first bet is not a raise, as `RaisesBeforeOurFirstAction…` counts).
    /// The library's functions `BotsLastPreflopAction`, `NumberOfRaisesBeforeFlop` … read them
    /// on later rounds. Names lower case, as memory cells are.
    pub(crate) fn openppl_memory(&self) -> Vec<(String, f64)> {
        const CELLS: [(&str, &str); 3] = [
            ("membotslastpreflopaction", "memraisesbeforeflop"),
            ("membotslastflopaction", "memraisesonflop"),
            ("membotslastturnaction", "memraisesonturn"),
        ];
        let hero = self.userchair;
        let constant = |n: &str| crate::openppl::action_constant(n).unwrap_or(0.0);
        let mut out = Vec::new();
        for (r, (action_cell, raises_cell)) in (1..=3).zip(CELLS) {
            // Rounds not reached yet read as empty: the hand-reset values.
            let round = if r <= usize::from(self.betround) {
                self.round(r)
            } else {
                &[]
            };
            let last = round.iter().rposition(|a| {
                a.chair == hero && !matches!(a.kind, ActionKind::SmallBlind | ActionKind::BigBlind)
            });
            let (action, faced) = match last {
                None => (constant("None"), 0.0),
                Some(l) => {
                    // CalculateBotsLastPreflopActionForUpdateAfterAutoplayerAction.
                    let a = round[l];
                    let name = match a.kind {
                        ActionKind::Allin => "RaiseMax",
                        ActionKind::Raise | ActionKind::Betsize => "Raise",
                        ActionKind::Call => "Call",
                        // A preflop "check" above the big blind was a call.
                        ActionKind::Check if r == 1 && a.to > self.bblind => "Call",
                        ActionKind::Check => "Check",
                        _ => "Fold",
                    };
                    let all = raises(round);
                    let before: Vec<u8> = all
                        .iter()
                        .filter(|(i, c)| *i < l && *c != hero)
                        .map(|(_, c)| *c)
                        .collect();
                    let opening_bet =
                        r > 1 && all.first().is_some_and(|(i, c)| *i < l && *c != hero);
                    (
                        constant(name),
                        (before.len() - usize::from(opening_bet)) as f64,
                    )
                }
            };
            out.push((action_cell.to_string(), action));
            out.push((raises_cell.to_string(), faced));
        }
        // This round's running counters (reset at each new round, stored after each of the
        // hero's actions): the raises, calls and checks by opponents before the hero's last
        // action, from which the library goes on counting those since (`Raises` is
        // `MemRaises + RaisesSinceLastPlay`). None before the hero has acted.
        let cur = usize::from(self.betround);
        let round = self.round(cur);
        let last = round.iter().rposition(|a| {
            a.chair == hero && !matches!(a.kind, ActionKind::SmallBlind | ActionKind::BigBlind)
        });
        let (mut raised, mut called, mut checked) = (0.0, 0.0, 0.0);
        if let Some(l) = last {
            let all = raises(round);
            let opening_bet = cur > 1 && all.first().is_some_and(|(i, c)| *i < l && *c != hero);
            raised = (all.iter().filter(|(i, c)| *i < l && *c != hero).count()
                - usize::from(opening_bet)) as f64;
            called = callers(round)
                .iter()
                .filter(|(i, c)| *i < l && *c != hero)
                .count() as f64;
            // No checks preflop (OpenPPL's Checks).
            if cur > 1 {
                checked = round[..l]
                    .iter()
                    .filter(|a| a.chair != hero && a.kind == ActionKind::Check)
                    .count() as f64;
            }
        }
        out.push(("memraises".to_string(), raised));
        out.push(("memcalls".to_string(), called));
        out.push(("memchecks".to_string(), checked));
        out
    }

    /// A history symbol's value; `None` for names that are not history names.
    pub(crate) fn history_value(&self, name: &str) -> Option<f64> {
        let hero = self.userchair;
        let cur = usize::from(self.betround);
        let count = |r: usize, kinds: &[ActionKind]| {
            self.round(r)
                .iter()
                .filter(|a| a.chair == hero && kinds.contains(&a.kind))
                .count() as f64
        };
        use ActionKind::*;
        let did = |stem: &str| -> Option<&'static [ActionKind]> {
            Some(match stem {
                "didchec" => &[Check],
                "didcall" => &[Call],
                "didrais" => &[Raise],
                "didbetsize" => &[Betsize],
                "didfold" => &[Fold],
                "didalli" => &[Allin],
                _ => return None,
            })
        };
        if let Some(kinds) = did(name) {
            return Some(count(cur, kinds));
        }
        if let Some(stem) = name.strip_suffix(|c: char| c.is_ascii_digit())
            && let Some(stem) = stem.strip_suffix("round")
            && let Some(kinds) = did(stem)
        {
            return round_of(name, &format!("{stem}round")).map(|r| count(r, kinds));
        }
        let nplayers_round = |r: usize| {
            self.players
                .iter()
                .filter(|p| p.dealt && !self.folded_before(p.chair, r))
                .count() as f64
        };
        // CSymbolEngineHistory: the largest bet of the round in bets of that round.
        let nbets = |r: usize| {
            let level = if r == cur {
                self.players
                    .iter()
                    .filter(|p| p.playing)
                    .map(|p| p.bet)
                    .fold(0.0, f64::max)
            } else {
                self.round(r).iter().map(|a| a.to).fold(0.0, f64::max)
            };
            let b = self.bet_of_round(r as u8).max(self.bblind);
            if b > 0.0 { level / b } else { 0.0 }
        };
        let opponent = |c: &u8| *c != hero;
        let first_last = |v: Vec<(usize, u8)>, last: bool| {
            let mut it = v.into_iter().map(|(_, c)| c).filter(opponent);
            let c = if last { it.next_back() } else { it.next() };
            c.map_or(-1.0, f64::from)
        };
        let now = self.round(cur);
        let v = match name {
            "nplayersround" => nplayers_round(cur),
            "nbetsround" => nbets(cur),
            // k_prevaction_*: the hero's last action this hand, -2 for none.
            "prevaction" => (1..=cur)
                .rev()
                .flat_map(|r| self.round(r).iter().rev())
                .find(|a| a.chair == hero && !matches!(a.kind, SmallBlind | BigBlind))
                .map_or(-2.0, |a| match a.kind {
                    Fold => -1.0,
                    Check => 0.0,
                    Call => 1.0,
                    Raise => 2.0,
                    Betsize => 3.0,
                    _ => 4.0,
                }),
            "raischair" | "lastraiserchair" => self.raischair().map_or(-1.0, f64::from),
            "firstraiserchair" => first_last(raises(now), false),
            "firstcallerchair" => first_last(callers(now), false),
            "lastcallerchair" => first_last(callers(now), true),
            "nopponentstruelyraising" => {
                let mut v: Vec<u8> = raises(self.since_hero())
                    .into_iter()
                    .map(|(_, c)| c)
                    .filter(opponent)
                    .collect();
                v.sort_unstable();
                v.dedup();
                v.len() as f64
            }
            "nopponentscalling" => {
                let mut v: Vec<u8> = callers(self.since_hero())
                    .into_iter()
                    .map(|(_, c)| c)
                    .filter(opponent)
                    .collect();
                v.sort_unstable();
                v.dedup();
                v.len() as f64
            }
            _ => {
                if let Some(r) = round_of(name, "nplayersround") {
                    nplayers_round(r)
                } else if let Some(r) = round_of(name, "nbetsround") {
                    nbets(r)
                } else if let Some(r) = round_of(name, "raisbits") {
                    bits(raises(self.round(r)).into_iter().map(|(_, c)| c))
                } else if let Some(r) = round_of(name, "lastraised") {
                    raises(self.round(r))
                        .last()
                        .map_or(-1.0, |(_, c)| f64::from(*c))
                } else if let Some(r) = round_of(name, "callbits") {
                    bits(callers(self.round(r)).into_iter().map(|(_, c)| c))
                } else if let Some(r) = round_of(name, "foldbits") {
                    bits(
                        self.round(r)
                            .iter()
                            .filter(|a| a.kind == Fold)
                            .map(|a| a.chair),
                    )
                } else if let Some(rest) = name.strip_prefix("hi_") {
                    return self.hi_value(rest);
                } else {
                    return self.position_value(name);
                }
            }
        };
        Some(v)
    }

    /// `hi_NAMEr` (CSymbolEngineHistory::HistorySymbol): NAME as it was when the hero last
    /// acted in round r; 0 when he did not act then. Balances are the current ones plus what
    /// each chair put in after round r; stacks sort the balances of the chairs still in.
    fn hi_value(&self, rest: &str) -> Option<f64> {
        let (stem, r) = rest.split_at(rest.len().checked_sub(1)?);
        let r: usize = r.parse().ok().filter(|r| (1..=4).contains(r))?;
        let acted = self.round(r).iter().any(|a| a.chair == self.userchair);
        if !acted || r > usize::from(self.betround) {
            return Some(0.0);
        }
        if stem == "balance" {
            return Some(self.balance_after(self.userchair, r));
        }
        if let Some(c) = stem.strip_prefix("balance") {
            let c: u8 = c.parse().ok()?;
            return Some(self.balance_after(c, r));
        }
        if let Some(i) = stem.strip_prefix("stack") {
            let i: usize = i.parse().ok()?;
            let mut s: Vec<f64> = self
                .players
                .iter()
                .filter(|p| p.dealt && !self.folded_before(p.chair, r + 1))
                .map(|p| self.balance_after(p.chair, r))
                .collect();
            s.sort_by(|a, b| b.total_cmp(a));
            return Some(s.get(i).copied().unwrap_or(0.0));
        }
        // prwin, prlos, prtie of an earlier round: only a live table saw them.
        None
    }

    /// The positions relative to the raiser (CSymbolEnginePositions::CalculatePositionForTheRaiser,
    /// CSymbolEnginePokerAction::AgchairAfter / PreflopRaisPos).
    fn position_value(&self, name: &str) -> Option<f64> {
        let rais = self.raischair();
        let playing = |c: u8| self.players.iter().any(|p| p.chair == c && p.playing);
        let dealt = |c: u8| self.players.iter().any(|p| p.chair == c && p.dealt);
        let upto = |f: &dyn Fn(u8) -> bool| {
            let mut n = 0;
            for k in 1..=self.nchairs {
                let c = (self.dealerchair + k) % self.nchairs;
                if f(c) {
                    n += 1;
                }
                if Some(c) == rais {
                    break;
                }
            }
            f64::from(n)
        };
        let betrais = upto(&playing);
        let bet_of = |name: &str| self.catalog_table_value(name).unwrap_or(0.0);
        Some(match name {
            "betpositionrais" => betrais,
            "dealpositionrais" => upto(&dealt),
            "callposition" => {
                let n = self.players.iter().filter(|p| p.playing).count() as f64;
                if n > 0.0 {
                    (bet_of("betposition") + n - betrais) % n
                } else {
                    0.0
                }
            }
            "ac_agchair_after" => {
                f64::from(u8::from(rais.is_some_and(|c| {
                    bet_of(&format!("ac_betpos{c}")) > bet_of("betposition")
                })))
            }
            "ac_prefloprais_pos" => {
                let pos = upto(&dealt) as usize;
                crate::catalog_eval::preflop_pos(
                    self.players.iter().filter(|p| p.dealt).count(),
                    pos,
                )
            }
            _ => return None,
        })
    }
}
