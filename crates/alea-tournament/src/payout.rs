//! Payouts (tournament-data.md §4.3): default percentages, rounding preserving the total.

/// Rows 1–20 of `defaultPayoutPercentages`, in percent.
const ROWS: [&[u8]; 20] = [
    &[100],
    &[65, 35],
    &[50, 30, 20],
    &[45, 27, 17, 11],
    &[40, 25, 16, 11, 8],
    &[37, 23, 15, 11, 8, 6],
    &[35, 21, 14, 10, 8, 7, 5],
    &[33, 20, 13, 10, 8, 7, 5, 4],
    &[31, 19, 13, 10, 8, 6, 5, 4, 4],
    &[30, 18, 12, 9, 7, 6, 5, 5, 4, 4],
    &[29, 18, 12, 9, 7, 6, 5, 4, 4, 3, 3],
    &[28, 17, 12, 9, 7, 6, 5, 4, 3, 3, 3, 3],
    &[27, 17, 11, 9, 7, 6, 5, 4, 3, 3, 3, 3, 2],
    &[27, 16, 11, 8, 7, 6, 5, 4, 3, 3, 3, 3, 2, 2],
    &[26, 16, 11, 8, 6, 5, 4, 4, 3, 3, 3, 3, 3, 3, 2],
    &[26, 15, 10, 8, 6, 5, 4, 4, 3, 3, 3, 3, 3, 3, 2, 2],
    &[25, 15, 10, 8, 6, 5, 4, 4, 3, 3, 3, 3, 3, 2, 2, 2, 2],
    &[25, 15, 10, 7, 6, 5, 4, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2],
    &[24, 15, 10, 7, 6, 5, 4, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1],
    &[
        24, 14, 10, 7, 6, 5, 4, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1,
    ],
];

/// `defaultPayoutPercentages(n)`: `n` truncated and clamped to 0…20, row `n` as fractions.
///
/// ```
/// use alea_tournament::default_payout_percentages;
/// assert_eq!(default_payout_percentages(3.4), vec![0.5, 0.3, 0.2]);
/// assert_eq!(default_payout_percentages(0.0), Vec::<f64>::new());
/// assert_eq!(default_payout_percentages(f64::NAN), Vec::<f64>::new());
/// assert_eq!(default_payout_percentages(99.0).len(), 20);
/// ```
pub fn default_payout_percentages(n: f64) -> Vec<f64> {
    // NaN clamps to 0 through `as` (saturating cast).
    let n = (n.trunc().clamp(0.0, 20.0)) as usize;
    if n == 0 {
        return Vec::new();
    }
    ROWS[n - 1].iter().map(|&p| f64::from(p) / 100.0).collect()
}

/// `payoutPercentages[i] * netPrize`, in place order.
pub fn percentage_payouts(percentages: &[f64], net_prize: f64) -> Vec<f64> {
    percentages.iter().map(|p| p * net_prize).collect()
}

/// Rounds payouts to multiples of `round_to`, preserving the total (tournament-data.md §4.3):
/// q_i = a_i / R rounded to 9 decimals, T = round(Σ q_i); every place starts from floor(q_i)
/// and the T − Σ floor(q_i) missing units go to the largest fractional parts (ties: better place
/// first); a surplus is taken from the smallest parts (ties: worse place first). `round_to` ≤ 0
/// (or not finite) leaves the amounts unrounded.
///
/// ```
/// use alea_tournament::round_payouts;
/// assert_eq!(round_payouts(&[500.0, 312.5, 200.0, 137.5, 100.0], 1.0), vec![500.0, 313.0, 200.0, 137.0, 100.0]);
/// assert_eq!(round_payouts(&[562.5, 337.5, 212.5, 137.5], 1.0), vec![563.0, 338.0, 212.0, 137.0]);
/// assert_eq!(round_payouts(&[0.5, 0.3, 0.2], 0.0), vec![0.5, 0.3, 0.2]);
/// ```
pub fn round_payouts(amounts: &[f64], round_to: f64) -> Vec<f64> {
    if !(round_to > 0.0 && round_to.is_finite()) {
        return amounts.to_vec();
    }
    let q: Vec<f64> = amounts.iter().map(|a| round9(a / round_to)).collect();
    if q.iter().any(|x| !x.is_finite()) {
        return amounts.to_vec();
    }
    let total = rounded_total(&q);
    let mut units: Vec<f64> = q.iter().map(|x| x.floor()).collect();
    let frac: Vec<f64> = q.iter().zip(&units).map(|(x, f)| x - f).collect();
    let missing = total - units.iter().sum::<f64>();
    let n = q.len();
    if missing > 0.0 {
        let mut order: Vec<usize> = (0..n).collect();
        // Largest fractional part first; the stable sort keeps better places first on ties.
        order.sort_by(|&a, &b| frac[b].total_cmp(&frac[a]));
        let mut left = missing;
        for &i in order.iter().cycle().take(n.saturating_mul(2)) {
            if left < 1.0 {
                break;
            }
            units[i] += 1.0;
            left -= 1.0;
        }
    } else if missing < 0.0 {
        let mut order: Vec<usize> = (0..n).rev().collect();
        // Smallest fractional part first; worse places first on ties.
        order.sort_by(|&a, &b| frac[a].total_cmp(&frac[b]));
        let mut surplus = -missing;
        for &i in order.iter().cycle().take(n.saturating_mul(2)) {
            if surplus < 1.0 {
                break;
            }
            if units[i] >= 1.0 {
                units[i] -= 1.0;
                surplus -= 1.0;
            }
        }
    }
    units.iter().map(|u| u * round_to).collect()
}

/// T = round(Σ q_i), half away from zero, with the sum taken exactly in units of 10^-9 (the
/// q_i have 9 decimals): a float sum can land just below a tie (82.49999999999998 for
/// q_i summing to 82.5) and round the wrong way. Huge values fall back to the float sum.
fn rounded_total(q: &[f64]) -> f64 {
    const NANO: i128 = 1_000_000_000;
    let mut nanos: i128 = 0;
    for x in q {
        let scaled = (x * 1e9).round();
        if scaled.abs() >= 1e15 {
            return q.iter().sum::<f64>().round();
        }
        nanos += scaled as i128;
    }
    let half = if nanos < 0 { -NANO / 2 } else { NANO / 2 };
    ((nanos + half) / NANO) as f64
}

/// Rounds to 9 decimals (half away from zero), leaving huge values alone.
fn round9(x: f64) -> f64 {
    let scaled = x * 1e9;
    if scaled.abs() >= 1e15 {
        x
    } else {
        scaled.round() / 1e9
    }
}

/// The CLI's `Remaining`: `netPrize − Σ payouts`.
pub fn remaining(net_prize: f64, payouts: &[f64]) -> f64 {
    net_prize - payouts.iter().sum::<f64>()
}

/// `netPrize` from `totalCollected` and `payoutAdjustment` a: `total * (1 + a)` if
/// 0 < |a| ≤ 1 (−0.1 = −10 %), else `total + a`.
pub fn net_prize(total_collected: f64, adjustment: f64) -> f64 {
    if adjustment != 0.0 && adjustment.abs() <= 1.0 {
        total_collected * (1.0 + adjustment)
    } else {
        total_collected + adjustment
    }
}
