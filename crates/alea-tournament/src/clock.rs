//! The clock simulation of tournament-data.md §8: one-second ticks producing snapshots.

use std::sync::Arc;

use crate::model::{EntryKind, Tournament};
use crate::state::{ScriptHooks, State};

/// One simulated second: the state before it (the alerts' snapshot for `was`, `changed`,
/// `becameTrue`, `previous`, `previousHandTimer`) and after it.
#[derive(Debug, Clone)]
pub struct Tick {
    /// 1 for the first tick; also the seconds elapsed since the start (`(+Ns)`).
    pub number: u64,
    /// Now after the tick, ms since the epoch.
    pub now: f64,
    /// The previous tick's state (for the first tick: the start state).
    pub previous: Arc<State>,
    /// The state after this tick.
    pub current: Arc<State>,
}

impl Tick {
    /// Whether alerts are evaluated on this tick (the clock is running after it); paused ticks
    /// fire nothing.
    pub fn evaluates_alerts(&self) -> bool {
        self.current.tournament().clock.running
    }
}

/// The tick-based clock: an endless iterator of [`Tick`]s (take as many as needed).
///
/// Each tick: now += 1 s; if running, active/seated players gain `msActive`/`msSeated` on
/// non-break levels, the level counts down and at 0 the next level starts with its full length
/// (a `pauseAfter` level pauses the clock; after the last level the clock stops at 0), `started`
/// becomes true when running on a non-pregame level, a running hand timer counts down to 0 and
/// stops; then entries with `dt` ≤ now become visible, everything is re-derived, and a knockout
/// that ends the tournament pauses the clock.
pub struct Simulation<H: ScriptHooks> {
    hooks: H,
    state: Arc<State>,
    number: u64,
}

impl<H: ScriptHooks> Simulation<H> {
    /// Starts from the file state; a paused clock is started first.
    pub fn new(mut tournament: Tournament, mut hooks: H) -> Simulation<H> {
        tournament.clock.running = true;
        let state = Arc::new(State::new(tournament, &mut hooks));
        Simulation {
            hooks,
            state,
            number: 0,
        }
    }

    /// The state before the first tick (the clock started).
    pub fn start_state(&self) -> &Arc<State> {
        &self.state
    }

    /// The hooks, e.g. to read the errors they collected.
    pub fn hooks(&self) -> &H {
        &self.hooks
    }
}

impl<H: ScriptHooks> Iterator for Simulation<H> {
    type Item = Tick;

    fn next(&mut self) -> Option<Tick> {
        let previous = self.state.clone();
        let t = advance(&previous);
        let mut current = State::new(t, &mut self.hooks);
        let newly_visible = &current.data().log[previous.visible..current.visible];
        let eliminated = newly_visible.iter().any(|e| {
            e.is_enabled()
                && matches!(
                    e.kind,
                    EntryKind::Knockout { .. } | EntryKind::LeftGame { .. }
                )
        });
        if eliminated && current.derived().is_postgame {
            current.t.clock.running = false;
        }
        self.number += 1;
        self.state = Arc::new(current);
        Some(Tick {
            number: self.number,
            now: self.state.t.now,
            previous,
            current: self.state.clone(),
        })
    }
}

/// Steps (1) and (2) of a tick.
fn advance(previous: &State) -> Tournament {
    let mut t = previous.tournament().clone();
    t.now += 1000.0;
    if !t.clock.running {
        return t;
    }
    let data = t.data.clone();
    let level_count = data.levels.len();
    if t.current_level().is_some_and(|l| !l.is_break_level()) {
        for (i, p) in previous.players.iter().enumerate() {
            if p.is_active {
                t.ms_active[i] += 1000.0;
            }
            if p.table.is_some() {
                t.ms_seated[i] += 1000.0;
            }
        }
    }
    let clock = &mut t.clock;
    clock.seconds_left_in_level -= 1.0;
    if clock.seconds_left_in_level <= 0.0 {
        let li = clock.level_index;
        if li + 1 < level_count {
            clock.level_index = li + 1;
            clock.seconds_left_in_level = data.levels[li + 1].seconds();
            if data.levels[li].pause_after {
                clock.running = false;
            }
        } else {
            clock.seconds_left_in_level = 0.0;
            clock.running = false;
        }
    }
    if clock.running
        && data
            .levels
            .get(clock.level_index)
            .is_some_and(|l| !l.is_pregame_level())
    {
        clock.started = true;
    }
    let hand = &mut clock.hand_timer;
    if hand.running {
        hand.seconds_left = (hand.seconds_left - 1.0).max(0.0);
        if hand.seconds_left <= 0.0 {
            hand.running = false;
        }
    }
    t
}
