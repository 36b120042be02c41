//! Bars made of eighth blocks, for tables printed in a terminal.

const EIGHTHS: [char; 8] = ['▏', '▎', '▍', '▌', '▋', '▊', '▉', '█'];

/// One bar per value, scaled so the largest value fills `width` cells. Each cell is split in
/// eighths, so small differences stay visible. Negative, NaN and zero values give empty bars.
pub fn terminal_bars(values: &[f64], width: usize) -> Vec<String> {
    let max = values
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max);
    values
        .iter()
        .map(|&v| {
            if !(v.is_finite() && v > 0.0 && max > 0.0) {
                return String::new();
            }
            let eighths = ((v / max) * (width * 8) as f64).round() as usize;
            let mut bar = "█".repeat(eighths / 8);
            if !eighths.is_multiple_of(8) {
                bar.push(EIGHTHS[eighths % 8 - 1]);
            }
            bar
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_to_the_largest_value_in_eighths() {
        assert_eq!(
            terminal_bars(&[1.0, 0.5, 1.0 / 16.0], 2),
            vec!["██", "█", "▏"]
        );
        assert_eq!(terminal_bars(&[f64::NAN, -1.0, 0.0], 4), vec!["", "", ""]);
        assert_eq!(terminal_bars(&[], 4), Vec::<String>::new());
    }
}
