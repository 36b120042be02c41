//! Derivations (tournament-data.md §2, §4): a [`State`] is a tournament at one moment with
//! every derived value computed.

use crate::model::*;
use crate::payout;

/// What scripts contribute to a state: the host (the EZScript integration) runs the payout
/// script and the points formula. Every method has a default that means "no script".
pub trait ScriptHooks {
    /// Runs `settings.payoutScript` with the names of [`PayoutInputs`]; `None` (no result or a
    /// failure) falls back to `payoutPercentages[i] * netPrize`. The result must already be
    /// checked (≤ 20 finite numbers ≥ 0).
    fn payout_amounts(&mut self, script: &str, inputs: &PayoutInputs) -> Option<Vec<f64>> {
        let _ = (script, inputs);
        None
    }

    /// Formats the ante for `anteText` (`toCompactDecimalString` in the host's locale). The
    /// default is EZScript's display rule, which is what `en` shows below 1000.
    fn ante_text(&mut self, ante: f64) -> String {
        crate::display_number(ante)
    }

    /// Runs the points formula (`None` = the built-in default formula) for the placed player
    /// at index `player` of `players`; `state` has every value except `points` (reading it must
    /// fail). `None` (a failure) scores 0.
    fn points(&mut self, formula: Option<&str>, state: &State, player: usize) -> Option<f64> {
        let _ = (formula, state, player);
        None
    }
}

/// Hooks that run no scripts: payouts from the percentages, every player scores 0 points.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoScripts;

impl ScriptHooks for NoScripts {}

/// The only tournament names a payout script may read (tournament-data.md §7), besides
/// `defaultPayoutPercentages`.
pub const PAYOUT_SCRIPT_NAMES: &[&str] = &[
    "netPrize",
    "totalCollected",
    "totalBuyIns",
    "totalAddons",
    "totalRebuys",
    "totalPlayerCount",
    "currentPlayerCount",
    "expectedPlayerCount",
    "payoutCount",
    "payoutRoundTo",
    "buyInCost",
    "addonCost",
    "rebuyCost",
];

/// The values a payout script can read, named as in [`PAYOUT_SCRIPT_NAMES`].
#[derive(Debug, Clone, PartialEq)]
pub struct PayoutInputs {
    values: [f64; 13],
}

impl PayoutInputs {
    /// The value of a payout-script name; `None` for every other name.
    pub fn get(&self, name: &str) -> Option<f64> {
        PAYOUT_SCRIPT_NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| self.values[i])
    }
}

/// Where a state's payouts came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayoutSource {
    /// The payout script's result.
    Script,
    /// `payoutPercentages[i] * netPrize` (no script, or it failed).
    Percentages,
}

/// A player's derived values (tournament-data.md §4.1, §5).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlayerStats {
    /// Bought in at some time.
    pub bought_in: bool,
    /// Ever seated at a table.
    pub ever_seated: bool,
    /// `isActive`: bought in, not eliminated since the last buy-in or re-entry.
    pub is_active: bool,
    /// Index in `tables` of the last seating (nothing when unseated).
    pub table: Option<usize>,
    /// `seat`.
    pub seat: Option<f64>,
    /// Currently eliminated: (index of the eliminating log entry, position in its `players`).
    pub eliminated: Option<(usize, usize)>,
    /// `place` (0 without place).
    pub place: f64,
    /// `placeCount`.
    pub place_count: f64,
    /// `payout`.
    pub payout: f64,
    /// `points`.
    pub points: f64,
    /// `totalWinnings`.
    pub total_winnings: f64,
    /// `totalChips`.
    pub total_chips: f64,
    /// `totalPaid`.
    pub total_paid: f64,
    /// `totalEliminated`.
    pub total_eliminated: f64,
    /// `timesEliminated`.
    pub times_eliminated: f64,
    /// `hasBountyChip`.
    pub has_bounty_chip: bool,
    /// `bountyChipValue`.
    pub bounty_chip_value: f64,
    /// `bountyChipsWon`.
    pub bounty_chips_won: f64,
    /// `bountyChipWinnings`.
    pub bounty_chip_winnings: f64,
    /// `totalBountyPaid`.
    pub total_bounty_paid: f64,
    seating_order: u64,
}

/// The derived global numbers and flags (tournament-data.md §2), by their script names.
#[derive(Debug, Clone, Default, PartialEq)]
#[allow(missing_docs)] // each field is the global of the same name (camelCase in scripts)
pub struct Derived {
    pub seconds_until_next_break: f64,
    pub rebuys_open: bool,
    pub seconds_until_rebuys_end: f64,
    pub blind_level_count: f64,
    pub blind_level_number: f64,
    pub is_pregame: bool,
    pub is_in_game: bool,
    pub is_postgame: bool,
    pub current_player_count: f64,
    pub total_player_count: f64,
    pub expected_player_count: f64,
    pub total_buy_ins: f64,
    pub total_addons: f64,
    pub total_rebuys: f64,
    pub total_buy_ins_collected: f64,
    pub total_addons_collected: f64,
    pub total_rebuys_collected: f64,
    pub total_collected: f64,
    pub net_prize: f64,
    pub total_buy_in_chips: f64,
    pub total_addon_chips: f64,
    pub total_rebuy_chips: f64,
    pub total_chips_in_play: f64,
    pub expected_chips_in_play: f64,
    pub average_chips_per_player: f64,
    pub active_big_blind: f64,
    pub estimated_last_big_blind: f64,
    pub estimated_seconds_until_end: Option<f64>,
    pub payouts_to_show: f64,
    pub eliminations_until_bubble_burst: f64,
    /// The number `anteText` shows (compact decimal) — nothing means `""`.
    pub ante_text_amount: Option<f64>,
    /// `anteText`: [`ScriptHooks::ante_text`] of the amount, or `""`.
    pub ante_text: String,
}

/// A tournament at one moment with every derived value: what scripts read. Build it with
/// [`State::new`]; the clock simulation ([`crate::Simulation`]) builds one per tick.
#[derive(Debug, Clone)]
pub struct State {
    pub(crate) t: Tournament,
    pub(crate) visible: usize,
    pub(crate) players: Vec<PlayerStats>,
    pub(crate) derived: Derived,
    pub(crate) players_active: Vec<usize>,
    pub(crate) players_eliminated: Vec<usize>,
    pub(crate) players_with_payouts: Vec<usize>,
    pub(crate) chip_leaders: Vec<usize>,
    pub(crate) tables_shown: Vec<usize>,
    pub(crate) table_players: Vec<Vec<usize>>,
    pub(crate) color_up_chips: Vec<usize>,
    pub(crate) color_up_target: Option<usize>,
    pub(crate) payout_amounts: Vec<f64>,
    pub(crate) payouts: Vec<f64>,
    pub(crate) payout_source: PayoutSource,
    pub(crate) points_ready: bool,
}

/// Totals of the log pass.
#[derive(Default)]
struct Totals {
    buy_ins: f64,
    addons: f64,
    rebuys: f64,
    buy_ins_collected: f64,
    addons_collected: f64,
    rebuys_collected: f64,
    buy_in_chips: f64,
    addon_chips: f64,
    rebuy_chips: f64,
}

impl State {
    /// Derives everything for the tournament at its `now`, running scripts through `hooks`.
    pub fn new(tournament: Tournament, hooks: &mut dyn ScriptHooks) -> State {
        let visible = tournament.visible_log_len();
        let data = tournament.data.clone();
        let (mut players, totals) = replay_log(&data, visible);
        let mut d = Derived::default();
        level_values(&tournament, &mut d);

        let s = &data.settings;
        d.current_player_count = players.iter().filter(|p| p.is_active).count() as f64;
        d.total_player_count = players
            .iter()
            .filter(|p| p.bought_in && (data.tables.is_empty() || p.ever_seated))
            .count() as f64;
        d.total_buy_ins = totals.buy_ins;
        d.total_addons = totals.addons;
        d.total_rebuys = totals.rebuys;
        d.expected_player_count = totals.buy_ins.max(s.expected_players);
        d.total_buy_ins_collected = totals.buy_ins_collected;
        d.total_addons_collected = totals.addons_collected;
        d.total_rebuys_collected = totals.rebuys_collected;
        d.total_collected =
            totals.buy_ins_collected + totals.addons_collected + totals.rebuys_collected;
        d.net_prize = payout::net_prize(d.total_collected, s.payout_adjustment);
        d.total_buy_in_chips = totals.buy_in_chips;
        d.total_addon_chips = totals.addon_chips;
        d.total_rebuy_chips = totals.rebuy_chips;
        d.total_chips_in_play = totals.buy_in_chips + totals.addon_chips + totals.rebuy_chips;
        d.expected_chips_in_play = d.total_chips_in_play.max(
            d.expected_player_count * s.starting_chips
                + s.expected_rebuys * s.rebuy_chips
                + s.expected_addons * s.addon_chips,
        );
        d.average_chips_per_player = if d.current_player_count > 0.0 {
            d.total_chips_in_play / d.current_player_count
        } else {
            0.0
        };
        estimate_end(&tournament, &mut d);
        d.ante_text = d
            .ante_text_amount
            .map(|a| hooks.ante_text(a))
            .unwrap_or_default();

        let eliminated_count = players.iter().filter(|p| p.eliminated.is_some()).count();
        d.is_postgame =
            d.total_player_count >= 2.0 && eliminated_count > 0 && d.current_player_count <= 1.0;
        d.is_in_game = tournament.clock.started && !d.is_postgame;
        d.is_pregame = !d.is_in_game && !d.is_postgame;

        let players_eliminated = assign_places(&mut players, d.current_player_count, d.is_postgame);
        let players_active: Vec<usize> = (0..players.len())
            .filter(|&i| players[i].is_active)
            .collect();

        // Payouts.
        let inputs = PayoutInputs {
            values: [
                d.net_prize,
                d.total_collected,
                d.total_buy_ins,
                d.total_addons,
                d.total_rebuys,
                d.total_player_count,
                d.current_player_count,
                d.expected_player_count,
                s.payout_count,
                s.payout_round_to,
                s.buy_in_cost,
                s.addon_cost,
                s.rebuy_cost,
            ],
        };
        let scripted = s
            .payout_script
            .as_deref()
            .and_then(|src| hooks.payout_amounts(src, &inputs));
        let (payout_amounts, payout_source) = match scripted {
            Some(a) => (a, PayoutSource::Script),
            None => (
                payout::percentage_payouts(&s.effective_payout_percentages(), d.net_prize),
                PayoutSource::Percentages,
            ),
        };
        let payouts = payout::round_payouts(&payout_amounts, s.payout_round_to);
        for (i, p) in players.iter_mut().enumerate() {
            p.payout = player_payout(&data, i, p, &payouts);
            p.bounty_chip_value = if p.has_bounty_chip {
                s.bounty_chip_cost
            } else {
                0.0
            };
            p.total_winnings = p.payout + p.bounty_chip_winnings + p.bounty_chip_value;
        }
        let mut placed: Vec<usize> = players_active
            .iter()
            .copied()
            .filter(|&i| players[i].place > 0.0)
            .chain(players_eliminated.iter().copied())
            .collect();
        placed.sort_by(|&a, &b| players[a].place.total_cmp(&players[b].place));
        let paid_places = payouts.len() as f64;
        let players_with_payouts: Vec<usize> = placed
            .into_iter()
            .filter(|&i| players[i].place <= paid_places)
            .collect();
        d.payouts_to_show = match players_with_payouts.first() {
            Some(&best) => players[best].place - 1.0,
            None => paid_places,
        };
        d.eliminations_until_bubble_burst = (d.current_player_count - paid_places).max(0.0);

        let mut chip_leaders: Vec<usize> = players_active
            .iter()
            .copied()
            .filter(|&i| data.players[i].current_chips_dt.is_some())
            .collect();
        chip_leaders.sort_by(|&a, &b| {
            let (pa, pb) = (&data.players[a], &data.players[b]);
            pb.current_chips
                .total_cmp(&pa.current_chips)
                .then_with(|| pa.name.cmp(&pb.name))
        });

        let mut table_players: Vec<Vec<usize>> = vec![Vec::new(); data.tables.len()];
        for (i, p) in players.iter().enumerate() {
            if let Some(t) = p.table {
                table_players[t].push(i);
            }
        }
        for list in &mut table_players {
            list.sort_by(|&a, &b| {
                let (pa, pb) = (&players[a], &players[b]);
                let (sa, sb) = (pa.seat.unwrap_or(0.0), pb.seat.unwrap_or(0.0));
                sa.total_cmp(&sb)
                    .then(pa.seating_order.cmp(&pb.seating_order))
            });
        }
        let tables_shown: Vec<usize> = (0..data.tables.len())
            .filter(|&t| data.tables[t].is_open || !table_players[t].is_empty())
            .collect();
        let (color_up_chips, color_up_target) = color_up(&tournament);

        let mut state = State {
            t: tournament,
            visible,
            players,
            derived: d,
            players_active,
            players_eliminated,
            players_with_payouts,
            chip_leaders,
            tables_shown,
            table_players,
            color_up_chips,
            color_up_target,
            payout_amounts,
            payouts,
            payout_source,
            points_ready: false,
        };
        let formula = data.settings.points_formula.as_deref();
        let points: Vec<(usize, f64)> = (0..state.players.len())
            .filter(|&i| state.players[i].place > 0.0)
            .map(|i| {
                let p = hooks
                    .points(formula, &state, i)
                    .filter(|x| x.is_finite())
                    .unwrap_or(0.0);
                (i, p)
            })
            .collect();
        for (i, p) in points {
            state.players[i].points = p;
        }
        state.points_ready = true;
        state
    }

    /// Derives everything without running scripts (payouts from percentages, 0 points).
    pub fn without_scripts(tournament: Tournament) -> State {
        State::new(tournament, &mut NoScripts)
    }

    /// The tournament this state was derived from.
    pub fn tournament(&self) -> &Tournament {
        &self.t
    }

    /// The file data.
    pub fn data(&self) -> &TournamentData {
        &self.t.data
    }

    /// The derived global numbers and flags.
    pub fn derived(&self) -> &Derived {
        &self.derived
    }

    /// A player's derived values, by index in `players`.
    pub fn player_stats(&self, player: usize) -> Option<&PlayerStats> {
        self.players.get(player)
    }

    /// The visible log entries (`dt` ≤ now), oldest first, disabled ones included.
    pub fn visible_log(&self) -> &[LogEntry] {
        &self.t.data.log[..self.visible]
    }

    /// `payouts` unrounded (the script's or the percentages' amounts).
    pub fn payout_amounts(&self) -> &[f64] {
        &self.payout_amounts
    }

    /// `payouts`: rounded preserving the total.
    pub fn payouts(&self) -> &[f64] {
        &self.payouts
    }

    /// Whether `payouts` came from the script or the percentages.
    pub fn payout_source(&self) -> PayoutSource {
        self.payout_source
    }

    /// The CLI's `Remaining`: `netPrize − Σ payouts`.
    pub fn remaining(&self) -> f64 {
        payout::remaining(self.derived.net_prize, &self.payouts)
    }

    /// Whether `points` are final (false while the points formula runs).
    pub fn points_ready(&self) -> bool {
        self.points_ready
    }

    /// Placed players in the CLI's points order: by place, then elimination order.
    pub fn placed_players(&self) -> Vec<usize> {
        let mut placed: Vec<usize> = self
            .players_active
            .iter()
            .copied()
            .filter(|&i| self.players[i].place > 0.0)
            .chain(self.players_eliminated.iter().copied())
            .collect();
        placed.sort_by(|&a, &b| self.players[a].place.total_cmp(&self.players[b].place));
        placed
    }
}

/// The one pass over the enabled visible log (tournament-data.md §4.1).
fn replay_log(data: &TournamentData, visible: usize) -> (Vec<PlayerStats>, Totals) {
    let s = &data.settings;
    let mut players = vec![PlayerStats::default(); data.players.len()];
    let mut totals = Totals::default();
    let mut seatings = 0u64;
    let idx = |id: &u32| data.player_index[id];
    for (e, entry) in data.log[..visible].iter().enumerate() {
        if !entry.is_enabled() {
            continue;
        }
        match &entry.kind {
            EntryKind::Purchase {
                kind,
                players: ids,
                cost,
                chips,
            } => {
                let n = ids.len() as f64;
                let (count, collected, total_chips) = match kind {
                    PurchaseKind::BuyIn => (
                        &mut totals.buy_ins,
                        &mut totals.buy_ins_collected,
                        &mut totals.buy_in_chips,
                    ),
                    PurchaseKind::Rebuy => (
                        &mut totals.rebuys,
                        &mut totals.rebuys_collected,
                        &mut totals.rebuy_chips,
                    ),
                    PurchaseKind::Addon => (
                        &mut totals.addons,
                        &mut totals.addons_collected,
                        &mut totals.addon_chips,
                    ),
                };
                *count += n;
                *collected += cost * n;
                *total_chips += chips * n;
                for id in ids {
                    let p = &mut players[idx(id)];
                    p.total_paid += cost;
                    p.total_chips += chips;
                    if *kind != PurchaseKind::Addon {
                        p.bought_in = true;
                        p.is_active = true;
                        p.eliminated = None;
                    }
                }
            }
            EntryKind::BountyChip { players: ids, cost } => {
                for id in ids {
                    let p = &mut players[idx(id)];
                    p.has_bounty_chip = true;
                    p.total_bounty_paid += cost;
                }
            }
            EntryKind::Knockout {
                players: victims,
                by_players,
            } => {
                let k = by_players.len() as f64;
                for by in by_players {
                    players[idx(by)].total_eliminated += victims.len() as f64 / k;
                }
                // Eligibility is decided before this entry moves any chip.
                let eligible: Vec<usize> = by_players
                    .iter()
                    .map(idx)
                    .filter(|&b| !s.need_chip_to_win_chip || players[b].has_bounty_chip)
                    .collect();
                for (pos, v) in victims.iter().enumerate() {
                    let vi = idx(v);
                    eliminate(&mut players[vi], e, pos);
                    players[vi].times_eliminated += 1.0;
                    if players[vi].has_bounty_chip && !eligible.is_empty() {
                        players[vi].has_bounty_chip = false;
                        let share = 1.0 / eligible.len() as f64;
                        for &b in &eligible {
                            players[b].bounty_chips_won += share;
                            players[b].bounty_chip_winnings += s.bounty_chip_cost * share;
                        }
                    }
                }
            }
            EntryKind::LeftGame { players: ids } => {
                for (pos, id) in ids.iter().enumerate() {
                    eliminate(&mut players[idx(id)], e, pos);
                }
            }
            EntryKind::Seating {
                table,
                players: ids,
                seats,
            } => {
                for (i, id) in ids.iter().enumerate() {
                    let p = &mut players[idx(id)];
                    match table {
                        Some(t) => {
                            p.table = Some(data.table_index[t]);
                            p.seat = seats.get(i).copied();
                            p.ever_seated = true;
                            seatings += 1;
                            p.seating_order = seatings;
                        }
                        None => {
                            p.table = None;
                            p.seat = None;
                        }
                    }
                }
            }
            EntryKind::BlindsChanged { .. }
            | EntryKind::PlayerHands { .. }
            | EntryKind::Custom { .. } => {}
        }
    }
    (players, totals)
}

fn eliminate(p: &mut PlayerStats, entry: usize, pos: usize) {
    p.is_active = false;
    p.eliminated = Some((entry, pos));
    p.table = None;
    p.seat = None;
}

/// Places (Decision of §4.1); returns the currently eliminated players, best place first.
fn assign_places(players: &mut [PlayerStats], current: f64, postgame: bool) -> Vec<usize> {
    let mut eliminated: Vec<usize> = (0..players.len())
        .filter(|&i| players[i].eliminated.is_some())
        .collect();
    // Latest elimination first (= best place), then entry order within a group.
    eliminated.sort_by_key(|&i| {
        let (e, pos) = players[i].eliminated.unwrap_or_default();
        (std::cmp::Reverse(e), pos)
    });
    let mut later = 0.0;
    let mut start = 0;
    while start < eliminated.len() {
        let group = players[eliminated[start]].eliminated.map(|(e, _)| e);
        let end = start
            + eliminated[start..]
                .iter()
                .take_while(|&&i| players[i].eliminated.map(|(e, _)| e) == group)
                .count();
        let size = (end - start) as f64;
        for &i in &eliminated[start..end] {
            players[i].place = current + later + 1.0;
            players[i].place_count = size;
        }
        later += size;
        start = end;
    }
    if postgame {
        for p in players.iter_mut().filter(|p| p.is_active) {
            p.place = 1.0;
            p.place_count = 1.0;
        }
    }
    eliminated
}

fn player_payout(data: &TournamentData, i: usize, p: &PlayerStats, payouts: &[f64]) -> f64 {
    let id = data.players[i].id;
    for chop in &data.chops {
        if let Some(pos) = chop.players.iter().position(|&x| x == id) {
            return chop.payouts.get(pos).copied().unwrap_or(0.0);
        }
    }
    if p.place <= 0.0 {
        return 0.0;
    }
    let first = p.place as usize - 1;
    let k = p.place_count.max(1.0) as usize;
    let sum: f64 = (first..first + k)
        .map(|j| payouts.get(j).copied().unwrap_or(0.0))
        .sum();
    sum / k as f64
}

/// Blind levels at indices ≤ `i`.
fn blind_number(levels: &[Level], i: usize) -> f64 {
    levels
        .iter()
        .take(i + 1)
        .filter(|l| l.is_blind_level())
        .count() as f64
}

fn level_values(t: &Tournament, d: &mut Derived) {
    let levels = &t.data.levels;
    let li = t.clock.level_index;
    let left = t.clock.seconds_left_in_level;
    let s = &t.data.settings;
    d.blind_level_count = levels.iter().filter(|l| l.is_blind_level()).count() as f64;
    d.blind_level_number = if levels.is_empty() {
        0.0
    } else {
        blind_number(levels, li)
    };

    d.seconds_until_next_break = match levels.iter().skip(li + 1).position(Level::is_break_level) {
        Some(offset) => {
            left + levels[li + 1..li + 1 + offset]
                .iter()
                .map(Level::seconds)
                .sum::<f64>()
        }
        None => 0.0,
    };
    let end = s.rebuy_end_level;
    d.rebuys_open = end == 0.0 || d.blind_level_number <= end;
    d.seconds_until_rebuys_end = if end == 0.0 || !d.rebuys_open {
        0.0
    } else {
        let mut total = left;
        for (j, level) in levels.iter().enumerate().skip(li + 1) {
            if blind_number(levels, j) > end {
                break;
            }
            total += level.seconds();
        }
        total
    };
    let current = levels.get(li);
    d.active_big_blind = match current {
        Some(l) if l.big_blind > 0.0 => l.big_blind,
        _ => levels
            .iter()
            .skip(li + 1)
            .map(|l| l.big_blind)
            .find(|&b| b > 0.0)
            .unwrap_or(0.0),
    };
    d.ante_text_amount = current
        .filter(|l| l.is_blind_level() && l.ante > 0.0)
        .map(|l| l.ante);
}

fn estimate_end(t: &Tournament, d: &mut Derived) {
    let levels = &t.data.levels;
    let li = t.clock.level_index;
    let c = if d.total_chips_in_play != 0.0 {
        d.total_chips_in_play
    } else {
        d.expected_chips_in_play
    };
    d.estimated_last_big_blind = c / 20.0;
    let last = levels
        .iter()
        .position(|l| l.is_blind_level() && l.big_blind >= d.estimated_last_big_blind);
    d.estimated_seconds_until_end = match last {
        Some(l) if c != 0.0 && l > li => Some(
            t.clock.seconds_left_in_level
                + levels[li + 1..=l].iter().map(Level::seconds).sum::<f64>(),
        ),
        _ => None,
    };
}

/// `colorUpChips` and `colorUpTarget` (tournament-data.md §2).
fn color_up(t: &Tournament) -> (Vec<usize>, Option<usize>) {
    let data = &t.data;
    let levels = &data.levels;
    let li = t.clock.level_index;
    let mut by_value: Vec<usize> = (0..data.chips.len()).collect();
    by_value.sort_by(|&a, &b| data.chips[a].value.total_cmp(&data.chips[b].value));
    let values: Vec<f64> = by_value.iter().map(|&i| data.chips[i].value).collect();
    let needed = |v: f64| -> Option<f64> {
        values
            .iter()
            .rev()
            .find(|&&c| v % c == 0.0)
            .or(values.first())
            .copied()
    };
    let m = |i: usize| -> Option<f64> {
        levels
            .iter()
            .skip(i)
            .filter(|l| l.is_blind_level())
            .flat_map(|l| [l.small_blind, l.big_blind, l.ante])
            .filter(|&v| v > 0.0)
            .filter_map(needed)
            .min_by(f64::total_cmp)
    };
    let Some(m_now) = m(li) else {
        return (Vec::new(), None);
    };
    let last_break = levels.iter().take(li).rposition(Level::is_break_level);
    let m_before = last_break.and_then(m).unwrap_or(0.0);
    let chips = by_value
        .iter()
        .copied()
        .filter(|&i| data.chips[i].value >= m_before && data.chips[i].value < m_now)
        .collect();
    let target = by_value
        .iter()
        .copied()
        .find(|&i| data.chips[i].value >= m_now);
    (chips, target)
}
