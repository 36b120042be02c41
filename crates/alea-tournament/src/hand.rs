//! Reading a poker hand as the file writes it (`highHand.cards`, `playerHands.hands`) into a
//! hand number (tournament-data.md §6). The card helpers scripts call live in alea-cards.

/// A card is `rank * 4 + suit` (rank 2–14, suit ♣ 0, ♦ 1, ♥ 2, ♠ 3): 8 ..= 59.
fn is_card(c: f64) -> bool {
    c.fract() == 0.0 && (8.0..=59.0).contains(&c)
}

/// Packs five distinct valid cards into a hand number, keeping their order.
pub(crate) fn pack(cards: &[f64]) -> Result<f64, String> {
    if cards.len() != 5 || !cards.iter().all(|&c| is_card(c)) {
        return Err("not 5 valid cards".into());
    }
    for (i, c) in cards.iter().enumerate() {
        if cards[..i].contains(c) {
            return Err("the cards are not distinct".into());
        }
    }
    Ok(cards.iter().rev().fold(0.0, |acc, &c| acc * 64.0 + c))
}

/// Checks a hand number: a whole number holding 5 valid distinct cards.
pub(crate) fn check_hand_number(n: f64) -> Result<f64, String> {
    let bad = || format!("not a valid poker hand: {}", crate::display_number(n));
    if n.fract() != 0.0 || !(0.0..1073741824.0).contains(&n) {
        return Err(bad());
    }
    let mut rest = n as u32;
    let mut cards = [0.0; 5];
    for c in &mut cards {
        *c = f64::from(rest % 64);
        rest /= 64;
    }
    pack(&cards).map_err(|_| bad())
}

/// Parses `"A♠ A♥ A♦ K♠ K♥"` (ranks `2`–`10 J Q K A`, also `T`; suits `♠♥♦♣` or `s h d c`).
pub(crate) fn parse_cards_text(text: &str) -> Result<f64, String> {
    let mut cards = Vec::new();
    for token in text.split_whitespace() {
        let card = parse_card(token).ok_or_else(|| format!("invalid card {token:?}"))?;
        cards.push(card);
    }
    pack(&cards)
}

fn parse_card(token: &str) -> Option<f64> {
    let suit_char = token.chars().last()?;
    let rank_text = &token[..token.len() - suit_char.len_utf8()];
    let suit = match suit_char {
        '♣' | 'c' | 'C' => 0,
        '♦' | 'd' | 'D' => 1,
        '♥' | 'h' | 'H' => 2,
        '♠' | 's' | 'S' => 3,
        _ => return None,
    };
    let rank = match rank_text {
        "J" | "j" => 11,
        "Q" | "q" => 12,
        "K" | "k" => 13,
        "A" | "a" => 14,
        "T" | "t" => 10,
        digits => match digits.parse::<u32>() {
            Ok(r) if (2..=10).contains(&r) && !digits.starts_with('+') => r,
            _ => return None,
        },
    };
    Some(f64::from(rank * 4 + suit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_hand_numbers() {
        assert_eq!(parse_cards_text("A♠ A♥ A♦ K♠ K♥"), Ok(920624827.0));
        assert_eq!(parse_cards_text("As Ah Ad Ks Kh"), Ok(920624827.0));
        assert_eq!(pack(&[59.0, 58.0, 57.0, 55.0, 54.0]), Ok(920624827.0));
        assert_eq!(check_hand_number(920624827.0), Ok(920624827.0));
        assert_eq!(
            parse_cards_text("10♠ T♥ 2♦ 3♣ 4♠"),
            pack(&[43.0, 42.0, 9.0, 12.0, 19.0])
        );
        assert!(check_hand_number(12.0).is_err());
        assert!(parse_cards_text("A♠ A♠ A♦ K♠ K♥").is_err());
        assert!(parse_cards_text("A♠ A♥ A♦ K♠").is_err());
        assert!(parse_cards_text("1♠ A♥ A♦ K♠ K♥").is_err());
        assert!(parse_cards_text("♠").is_err());
    }
}
