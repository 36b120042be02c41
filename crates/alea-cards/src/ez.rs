//! EZScript's card functions (tournament-data.md §6), as plain functions the EZScript crate
//! wraps: a card number is `rank * 4 + suit` (rank 2‥14, suit ♣ 0, ♦ 1, ♥ 2, ♠ 3; A♠ = 59),
//! and a hand number packs five cards in 6-bit fields, first card lowest.

use crate::card::{Card, Rank, Suit, parse_cards};
use crate::eval::{Category, Hand, HandRank, Tables};

/// Errors of the card functions; `Display` gives EZScript's messages.
#[derive(Clone, Debug, PartialEq)]
pub enum EzCardError {
    /// `pokerHandToCards` on something that is not a hand number:
    /// `Not a valid poker hand: 12`.
    NotAHand(f64),
    /// The other functions on anything but 5 valid distinct card numbers: `Not 5 valid cards`.
    NotFiveCards,
}

impl std::fmt::Display for EzCardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EzCardError::NotAHand(x) => write!(f, "Not a valid poker hand: {}", plain_number(*x)),
            EzCardError::NotFiveCards => f.write_str("Not 5 valid cards"),
        }
    }
}

impl std::error::Error for EzCardError {}

/// Shortest decimal form (`12`, `1.5`, `-3`), as EZScript prints numbers in messages.
fn plain_number(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// The EZScript card number of a card: `rank * 4 + suit` (A♠ = 59).
pub fn ez_card_number(card: Card) -> u8 {
    card.rank().value() * 4 + card.suit().index() as u8
}

/// The card of an EZScript card number (8 = 2♣ … 59 = A♠).
pub fn ez_card(number: f64) -> Option<Card> {
    if number != number.trunc() || !(8.0..=59.0).contains(&number) {
        return None;
    }
    let n = number as u8;
    Some(Card::new(
        Rank::from_value(n / 4)?,
        Suit::from_index(usize::from(n % 4))?,
    ))
}

/// `pokerHandToCards`: the five card numbers of a hand number, in field order.
pub fn poker_hand_to_cards(hand: f64) -> Result<[u8; 5], EzCardError> {
    let err = EzCardError::NotAHand(hand);
    if hand != hand.trunc() || !(0.0..(1u64 << 30) as f64).contains(&hand) {
        return Err(err);
    }
    let n = hand as u32;
    let numbers = [0, 6, 12, 18, 24].map(|s| (n >> s & 63) as u8);
    cards_of(&numbers.map(f64::from)).map_err(|_| err)?;
    Ok(numbers)
}

/// The hand number of five cards (inverse of [`poker_hand_to_cards`]).
pub fn cards_to_poker_hand(cards: &[Card; 5]) -> u32 {
    cards
        .iter()
        .rev()
        .fold(0, |acc, &c| acc * 64 + u32::from(ez_card_number(c)))
}

/// Parses a high hand written as text (`A♠ A♥ A♦ K♠ K♥`, `Ts 9s 8s 7s 6s`) into its hand
/// number; `None` unless it is 5 distinct cards.
pub fn text_to_poker_hand(text: &str) -> Option<u32> {
    let cards: [Card; 5] = parse_cards(text).ok()?.try_into().ok()?;
    Some(cards_to_poker_hand(&cards))
}

/// Five valid distinct cards from card numbers, else `Not 5 valid cards`.
pub fn cards_of(numbers: &[f64]) -> Result<[Card; 5], EzCardError> {
    let cards: Vec<Card> = numbers
        .iter()
        .map(|&n| ez_card(n))
        .collect::<Option<_>>()
        .ok_or(EzCardError::NotFiveCards)?;
    let cards: [Card; 5] = cards.try_into().map_err(|_| EzCardError::NotFiveCards)?;
    for i in 0..5 {
        if cards[i + 1..].contains(&cards[i]) {
            return Err(EzCardError::NotFiveCards);
        }
    }
    Ok(cards)
}

fn rank_of(numbers: &[f64]) -> Result<HandRank, EzCardError> {
    let cards = cards_of(numbers)?;
    Ok(Tables::get().rank(Hand::from_cards(&cards)))
}

/// `pokerCardsToText`: rank (`10` for a ten) and suit symbol, space-separated, in list order:
/// `A♠ A♥ A♦ K♠ K♥`.
pub fn poker_cards_to_text(numbers: &[f64]) -> Result<String, EzCardError> {
    let cards = cards_of(numbers)?;
    Ok(crate::card::format_cards(&cards, true))
}

/// `pokerCardsToHandType`: `highCard` … `royalFlush`.
pub fn poker_cards_to_hand_type(numbers: &[f64]) -> Result<&'static str, EzCardError> {
    Ok(rank_of(numbers)?.category().identifier())
}

/// `pokerCardsToHandType` as a [`Category`].
pub fn poker_cards_to_category(numbers: &[f64]) -> Result<Category, EzCardError> {
    Ok(rank_of(numbers)?.category())
}

/// `pokerCardsToValue`: `category * 16⁵ + Σ rᵢ·16^(4−i)` (royal flush = category 9).
pub fn poker_cards_to_value(numbers: &[f64]) -> Result<u32, EzCardError> {
    Ok(rank_of(numbers)?.ez_value())
}

/// `pokerCardsToHandName`: the type's name in the locale's language, German for a locale
/// whose language is `de` (`de`, `de-AT`, `de_CH`), English otherwise.
pub fn poker_cards_to_hand_name(
    numbers: &[f64],
    locale: &str,
) -> Result<&'static str, EzCardError> {
    let category = rank_of(numbers)?.category();
    let language = locale.split(['-', '_']).next().unwrap_or("");
    Ok(if language.eq_ignore_ascii_case("de") {
        category.name_de()
    } else {
        category.name()
    })
}
