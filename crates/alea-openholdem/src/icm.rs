//! The ICM symbols (issue 12 part 5): the hero's share of the prize pool by the Independent
//! Chip Model, now (`icm`) and after a hypothetical outcome of this hand (`icm_fold`,
//! `icm_callwin`, `icm_alliwin3`, `icm_alliloseBB` …).
//!
//! Meaning as OpenHoldem 14 gives it (`OpenHoldem/CSymbolEngineICM.cpp`,
//! `CSymbolEngineICM::EvaluateSymbol` for the outcomes, `EquityICM` and `P` for the model,
//! `GetChairFromDealPos` for the position names); the code is this crate's own. The payouts are
//! the values of `f$icm_prize1..9` (as in OH 14); a prize function the profile does not define
//! takes the state's `payouts[i]` instead, so a state alone can describe a tournament.

use crate::state::{SymbolProvider, TableState};
use crate::symbols::Symbol;

/// The functions whose values are the payouts, first place first (OH 14's `k_icm_prize1..9`).
pub(crate) const PRIZE_FUNCTIONS: [&str; 9] = [
    "f$icm_prize1",
    "f$icm_prize2",
    "f$icm_prize3",
    "f$icm_prize4",
    "f$icm_prize5",
    "f$icm_prize6",
    "f$icm_prize7",
    "f$icm_prize8",
    "f$icm_prize9",
];

/// The probability of each place for each player by Malmuth–Harville (the chance to finish
/// first is the share of the chips; the later places follow by removing the winner and
/// repeating), and from it the hero's equity `Σ prize[k] · P(hero finishes k+1)`.
///
/// Players with no chips take no place here (OH 14's recursion gives them probability 0 of
/// every place, so leaving them out changes nothing). Prizes are read up to the first one that
/// is not positive, as `EquityICM` does. Computed over subsets of the players (at most 2¹⁰)
/// instead of OH 14's recursion over orders; the value is the same.
pub fn equity(stacks: &[f64], prizes: &[f64], hero: usize) -> f64 {
    let paid = prizes.iter().take_while(|&&p| p > 0.0).count();
    let alive: Vec<usize> = (0..stacks.len()).filter(|&i| stacks[i] > 0.0).collect();
    let Some(h) = alive.iter().position(|&i| i == hero) else {
        return 0.0;
    };
    let m = alive.len();
    let full = (1usize << m) - 1;
    // reach[S]: the probability that exactly the players of S are still without a place.
    let mut reach = vec![0.0f64; full + 1];
    reach[full] = 1.0;
    let mut equity = 0.0;
    for set in (1..=full).rev() {
        let place = m - set.count_ones() as usize;
        if reach[set] == 0.0 || place >= paid {
            continue;
        }
        let total: f64 = (0..m)
            .filter(|k| set & (1 << k) != 0)
            .map(|k| stacks[alive[k]])
            .sum();
        for k in (0..m).filter(|k| set & (1 << k) != 0) {
            let p = reach[set] * stacks[alive[k]] / total;
            if k == h {
                equity += prizes[place] * p;
            }
            reach[set & !(1 << k)] += p;
        }
    }
    equity
}

/// The chair OH 14 means by a position name of `icm_alliwinBB`-style symbols, if any.
fn chair_of_position(state: &TableState, pos: &str) -> Option<u8> {
    let seated = state.players.iter().filter(|p| p.seated).count();
    let by_deal = |k: usize| {
        state
            .players
            .iter()
            .find(|p| state.deal_position(p.chair) == k as f64)
            .map(|p| p.chair)
    };
    // GetChairFromDealPos: heads-up the dealer is the small blind; UTG… count back from the
    // dealer and exist only with enough players seated; CO is the seat before the dealer.
    let back = |min: usize, k: usize| (seated >= min).then(|| by_deal(seated - k)).flatten();
    match pos {
        "SB" if seated == 2 => Some(state.dealerchair),
        "SB" if seated >= 3 => by_deal(1),
        "BB" if seated == 2 => by_deal(1),
        "BB" if seated >= 3 => by_deal(2),
        "UTG" => back(10, 7),
        "UTG1" => back(9, 6),
        "UTG2" => back(8, 5),
        "UTG3" => back(7, 4),
        "UTG4" => back(6, 3),
        "UTG5" => back(5, 2),
        "UTG6" | "CO" => back(4, 1),
        "D" => Some(state.dealerchair),
        _ => None,
    }
}

/// The payouts: `f$icm_prizeN`'s value, or the state's `payouts[N-1]` when the function is
/// not defined (`NaN`), else 0.
pub(crate) fn prizes(state: &TableState, functions: &[f64]) -> [f64; 10] {
    let mut out = [0.0; 10];
    for (i, slot) in out.iter_mut().take(9).enumerate() {
        let f = functions.get(i).copied().unwrap_or(f64::NAN);
        *slot = if f.is_nan() {
            state.payouts.get(i).copied().unwrap_or(0.0)
        } else {
            f
        };
    }
    out
}

/// The value of ICM symbol `name`, or the warning to give (the value is then 0).
pub(crate) fn value(state: &TableState, name: &str, functions: &[f64]) -> Result<f64, String> {
    let prizes = prizes(state, functions);
    let sum: f64 = prizes.iter().sum();
    // OH 14 refuses payouts outside (0, 1] (a message box, and the symbol is 0); a sum over 1
    // by rounding only (0.1 + 0.2 + 0.7) is accepted here.
    if !(sum > 0.0 && sum <= 1.0 + 1e-9) {
        return Err(format!(
            "symbol '{name}' needs the payouts as shares of the prize pool summing to (0, 1]: \
             define f$icm_prize1..9 or give the state's \"payouts\" (found a sum of {}); it is 0",
            crate::ops::format_value(sum)
        ));
    }
    let me = usize::from(state.userchair);
    let mut stack = [0.0f64; 10];
    let mut bet = [0.0f64; 10];
    for p in state.players.iter().filter(|p| p.seated) {
        stack[usize::from(p.chair)] = p.balance;
        bet[usize::from(p.chair)] = p.bet;
    }
    let opponents: Vec<usize> = state
        .players
        .iter()
        .filter(|p| p.playing && p.chair != state.userchair)
        .map(|p| usize::from(p.chair))
        .collect();
    let n = opponents.len() as f64;
    let mut pot = state.table_symbol(Symbol::Pot);
    let call = state.table_symbol(Symbol::Call);
    // Chips of an opponent's bet beyond the hero's whole stack go back to them.
    let return_excess = |stack: &mut [f64; 10], pot: &mut f64| {
        if stack[me] < call {
            let mine = bet[me] + stack[me];
            for &o in &opponents {
                if bet[o] > mine {
                    stack[o] += bet[o] - mine;
                    *pot -= bet[o] - mine;
                }
            }
        }
    };
    let share = |stack: &mut [f64; 10], amount: f64, with_hero: bool| {
        let k = n + f64::from(u8::from(with_hero));
        if k > 0.0 {
            for &o in &opponents {
                stack[o] += amount / k;
            }
            if with_hero {
                stack[me] += amount / k;
            }
        }
    };
    let opponent = |pos: &str| match chair_of_position(state, pos) {
        Some(c) if c != state.userchair => Ok(usize::from(c)),
        // OH 14: kUndefined (-1) for a position nobody holds, or the hero's own.
        _ => Err(-1.0),
    };
    let digit = |rest: &str| rest.parse::<usize>().ok().filter(|_| rest.len() == 1);
    if name == "icm" {
        for p in state.players.iter().filter(|p| p.seated) {
            stack[usize::from(p.chair)] = state.start_balance(p);
        }
    } else if name == "icm_fold" {
        // The hero's bet and the folded players' bets are split among the opponents.
        let mut to_split = state.table_symbol(Symbol::PotCommon);
        for c in 0..10 {
            if opponents.contains(&c) {
                stack[c] += bet[c];
            } else {
                to_split += bet[c];
            }
        }
        share(&mut stack, to_split, false);
    } else if name == "icm_callwin" {
        return_excess(&mut stack, &mut pot);
        stack[me] += pot;
    } else if name == "icm_calllose" {
        let mine = call.min(stack[me]);
        stack[me] -= mine;
        share(&mut stack, pot + mine, false);
    } else if name == "icm_calltie" {
        // As OH 14: the hero's call is added to the pot but not taken from the stack.
        return_excess(&mut stack, &mut pot);
        pot += call.min(stack[me]);
        share(&mut stack, pot, true);
    } else if let Some(rest) = name.strip_prefix("icm_alliwin") {
        let mine = bet[me] + stack[me];
        // What a caller puts in: up to the hero's total, at most the caller's stack.
        let covered = |stack: &[f64; 10], o: usize| {
            if bet[o] + stack[o] > mine {
                mine - bet[o]
            } else {
                stack[o]
            }
        };
        if let Some(k) = digit(rest) {
            // The callers are the k shortest stacks among the opponents.
            let mut callers: Vec<usize> = Vec::new();
            for _ in 0..k.min(opponents.len()) {
                let next = opponents
                    .iter()
                    .copied()
                    .filter(|o| !callers.contains(o))
                    .fold(None::<usize>, |best, o| match best {
                        Some(b) if bet[b] + stack[b] <= bet[o] + stack[o] => Some(b),
                        _ => Some(o),
                    });
                if let Some(o) = next {
                    let extra = covered(&stack, o);
                    stack[o] -= extra;
                    pot += extra;
                    callers.push(o);
                }
            }
            stack[me] += pot;
        } else {
            let o = match opponent(rest) {
                Ok(o) => o,
                Err(v) => return Ok(v),
            };
            let extra = covered(&stack, o);
            stack[o] -= extra;
            stack[me] += pot + extra;
        }
    } else if let Some(rest) = name.strip_prefix("icm_allilose") {
        if let Some(k) = digit(rest) {
            allilose_to_callers(&mut stack, &bet, &opponents, me, pot, k);
        } else {
            let o = match opponent(rest) {
                Ok(o) => o,
                Err(v) => return Ok(v),
            };
            let extra = if bet[o] + stack[o] > bet[me] + stack[me] {
                stack[me]
            } else {
                bet[o] + stack[o] - bet[me]
            };
            stack[o] += pot + extra;
            stack[me] -= extra;
        }
    } else if let Some(rest) = name.strip_prefix("icm_allitie") {
        let o = match opponent(rest) {
            Ok(o) => o,
            Err(v) => return Ok(v),
        };
        stack[o] += pot / 2.0;
        stack[me] += pot / 2.0;
    }
    if stack[me] == 0.0 {
        // EquityICM: a busted hero finishes behind every opponent seated at the hand's start.
        let place = state
            .players
            .iter()
            .filter(|p| p.seated && p.chair != state.userchair)
            .count();
        return Ok(prizes[place.min(9)]);
    }
    Ok(equity(&stack, &prizes, me))
}

/// `icm_alliloseK`: the hero all-in loses to the k biggest stacks among the opponents, who
/// share the hero's chips level by level (the side pot a caller can win is split among the
/// callers at least that deep) and the rest of the pot.
fn allilose_to_callers(
    stack: &mut [f64; 10],
    bet: &[f64; 10],
    opponents: &[usize],
    me: usize,
    mut pot: f64,
    k: usize,
) {
    let k = k.min(opponents.len());
    if k == 0 {
        return;
    }
    // Biggest first; a caller's bet goes back to the stack (the levels count whole stacks).
    let mut callers: Vec<usize> = Vec::new();
    for _ in 0..k {
        let next = opponents
            .iter()
            .copied()
            .filter(|o| !callers.contains(o) && bet[*o] + stack[*o] > 0.0)
            .fold(None::<usize>, |best, o| match best {
                Some(b) if bet[b] + stack[b] >= bet[o] + stack[o] => Some(b),
                _ => Some(o),
            });
        let Some(o) = next else { break };
        stack[o] += bet[o];
        pot -= bet[o];
        callers.push(o);
    }
    if callers.is_empty() {
        return;
    }
    stack[me] += bet[me];
    pot -= bet[me];
    // Level i: the hero's chips up to caller i's stack, beyond the deeper levels.
    let mut levels = vec![0.0f64; callers.len()];
    let mut taken = 0.0;
    for i in (0..callers.len()).rev() {
        levels[i] = stack[callers[i]].min(stack[me]) - taken;
        taken += levels[i];
    }
    stack[me] -= taken;
    let last = callers.len() - 1;
    levels[last] += pot;
    for (i, level) in levels.iter().enumerate() {
        for &c in &callers[..=i] {
            stack[c] += level / (i + 1) as f64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::equity;

    #[test]
    fn malmuth_harville() {
        // Stacks 50/30/20, prizes 0.5/0.3/0.2. P(A first) = 0.5; P(A second) =
        // 0.3·50/70 + 0.2·50/80 = 15/70 + 10/80 = 0.2142857… + 0.125 = 0.3392857…;
        // P(A third) = 1 − 0.5 − 0.3392857 = 0.1607143. Equity = 0.25 + 0.1017857 + 0.0321429
        // = 0.3839286 (= 43/112).
        let e = equity(&[50.0, 30.0, 20.0], &[0.5, 0.3, 0.2], 0);
        assert!((e - 43.0 / 112.0).abs() < 1e-12, "{e}");
        // Winner takes all: equity is the chip share; players without chips are left out.
        let e = equity(&[0.0, 25.0, 0.0, 75.0], &[1.0], 1);
        assert!((e - 0.25).abs() < 1e-12, "{e}");
        // Payouts stop at the first zero (EquityICM).
        let e = equity(&[50.0, 50.0], &[0.6, 0.0, 0.4], 0);
        assert!((e - 0.3).abs() < 1e-12, "{e}");
    }
}
