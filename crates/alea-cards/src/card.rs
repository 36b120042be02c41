//! Ranks, suits, cards, card sets, the deck, and card text (`As Kh`, `A♠ K♥`, `10♥`).

use std::fmt;

/// A card rank, deuce to ace. `Rank::Two as u8` is 0, `Rank::Ace as u8` is 12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Rank {
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// All thirteen ranks, deuce first.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with index `i` (0 = deuce … 12 = ace).
    pub fn from_index(i: usize) -> Option<Rank> {
        Rank::ALL.get(i).copied()
    }

    /// The rank with poker value `v` (2 … 14, ace = 14).
    pub fn from_value(v: u8) -> Option<Rank> {
        v.checked_sub(2)
            .and_then(|i| Rank::from_index(usize::from(i)))
    }

    /// 0 (deuce) … 12 (ace).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The poker value 2 … 14 (ace = 14), as OpenHoldem and EZScript number ranks.
    pub fn value(self) -> u8 {
        self as u8 + 2
    }

    /// One-character symbol: `2`…`9`, `T`, `J`, `Q`, `K`, `A`.
    pub fn char(self) -> char {
        b"23456789TJQKA"[self.index()] as char
    }

    /// English name, singular (`Ace`) or plural (`Aces`, `Sixes`).
    pub fn name(self, plural: bool) -> &'static str {
        const ONE: [&str; 13] = [
            "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
            "Queen", "King", "Ace",
        ];
        const MANY: [&str; 13] = [
            "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
            "Jacks", "Queens", "Kings", "Aces",
        ];
        if plural {
            MANY[self.index()]
        } else {
            ONE[self.index()]
        }
    }

    /// German name, singular (`Ass`) or plural (`Asse`).
    pub fn name_de(self, plural: bool) -> &'static str {
        const ONE: [&str; 13] = [
            "Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Acht", "Neun", "Zehn", "Bube",
            "Dame", "König", "Ass",
        ];
        const MANY: [&str; 13] = [
            "Zweien", "Dreien", "Vieren", "Fünfen", "Sechsen", "Siebenen", "Achten", "Neunen",
            "Zehnen", "Buben", "Damen", "Könige", "Asse",
        ];
        if plural {
            MANY[self.index()]
        } else {
            ONE[self.index()]
        }
    }
}

/// A card suit. The discriminants follow EZScript's numbering (♣ 0, ♦ 1, ♥ 2, ♠ 3);
/// [`Suit::openholdem_index`] gives OpenHoldem's (hearts 0, diamonds 1, clubs 2, spades 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    /// The four suits in index order: clubs, diamonds, hearts, spades.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit with index `i` (clubs 0, diamonds 1, hearts 2, spades 3).
    pub fn from_index(i: usize) -> Option<Suit> {
        Suit::ALL.get(i).copied()
    }

    /// Clubs 0, diamonds 1, hearts 2, spades 3 (EZScript's numbering).
    pub fn index(self) -> usize {
        self as usize
    }

    /// OpenHoldem's numbering: hearts 0, diamonds 1, clubs 2, spades 3.
    pub fn openholdem_index(self) -> u8 {
        [2, 1, 0, 3][self.index()]
    }

    /// The suit with OpenHoldem's number (hearts 0, diamonds 1, clubs 2, spades 3).
    pub fn from_openholdem_index(i: u8) -> Option<Suit> {
        [Suit::Hearts, Suit::Diamonds, Suit::Clubs, Suit::Spades]
            .get(usize::from(i))
            .copied()
    }

    /// ASCII letter: `c`, `d`, `h`, `s`.
    pub fn char(self) -> char {
        b"cdhs"[self.index()] as char
    }

    /// Symbol: `♣`, `♦`, `♥`, `♠`.
    pub fn symbol(self) -> char {
        ['♣', '♦', '♥', '♠'][self.index()]
    }
}

/// A playing card, stored as `rank_index * 4 + suit_index` (0 = 2♣ … 51 = A♠).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank as u8 * 4 + suit as u8)
    }

    /// The card with index 0 … 51 (`rank_index * 4 + suit_index`).
    pub fn from_index(i: usize) -> Option<Card> {
        (i < 52).then_some(Card(i as u8))
    }

    /// 0 … 51: `rank_index * 4 + suit_index`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank.
    pub fn rank(self) -> Rank {
        Rank::ALL[usize::from(self.0 >> 2)]
    }

    /// The suit.
    pub fn suit(self) -> Suit {
        Suit::ALL[usize::from(self.0 & 3)]
    }

    /// Bit of this card in a [`CardSet`]: 16 bits per suit, rank `r` at bit `16 * suit + r`.
    pub const fn mask(self) -> u64 {
        1u64 << ((self.0 & 3) as u32 * 16 + (self.0 >> 2) as u32)
    }

    /// Text with the ASCII suit letter: `As`, `Th`.
    pub fn ascii(self) -> String {
        format!("{}{}", self.rank().char(), self.suit().char())
    }

    /// Text with the suit symbol and `10` for a ten: `A♠`, `10♥`.
    pub fn pretty(self) -> String {
        match self.rank() {
            Rank::Ten => format!("10{}", self.suit().symbol()),
            r => format!("{}{}", r.char(), self.suit().symbol()),
        }
    }

    /// Parses one card (`As`, `a♠`, `10h`, `T♥`); see [`parse_cards`].
    pub fn parse(text: &str) -> Result<Card, CardParseError> {
        let cards = parse_cards(text)?;
        match cards.as_slice() {
            [c] => Ok(*c),
            _ => Err(CardParseError {
                at: 0,
                message: format!("expected one card, found {}", cards.len()),
            }),
        }
    }
}

impl fmt::Display for Card {
    /// `As`; with `{:#}`, `A♠`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str(&self.pretty())
        } else {
            write!(f, "{}{}", self.rank().char(), self.suit().char())
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Card {
    type Err = CardParseError;
    fn from_str(s: &str) -> Result<Card, CardParseError> {
        Card::parse(s)
    }
}

/// Why card text did not parse: a byte offset into the text and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardParseError {
    /// Byte offset of the offending character.
    pub at: usize,
    /// What is wrong, e.g. `invalid rank 'X'`.
    pub message: String,
}

impl fmt::Display for CardParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CardParseError {}

/// Largest number of cards [`parse_cards`] accepts (a deck).
pub const MAX_PARSED_CARDS: usize = 52;

fn parse_rank(c: char) -> Option<Rank> {
    let i = "23456789TJQKA".find(c.to_ascii_uppercase())?;
    Rank::from_index(i)
}

fn parse_suit(c: char) -> Option<Suit> {
    Some(match c {
        'c' | 'C' | '♣' | '♧' => Suit::Clubs,
        'd' | 'D' | '♦' | '♢' => Suit::Diamonds,
        'h' | 'H' | '♥' | '♡' => Suit::Hearts,
        's' | 'S' | '♠' | '♤' => Suit::Spades,
        _ => return None,
    })
}

/// Parses cards written as rank + suit, with or without separators: `As Kh`, `AsKh`,
/// `A♠ K♥`, `10♥ T♦`, `as,kh`. Ranks `2`–`9`, `T` or `10`, `J Q K A` (any case); suits
/// `c d h s` (any case) or `♣ ♦ ♥ ♠` (also the white symbols). Spaces and commas separate.
/// A card given twice is an error; so is more than [`MAX_PARSED_CARDS`].
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardParseError> {
    let mut cards = Vec::new();
    let mut seen = 0u64;
    let mut it = text.char_indices().peekable();
    while let Some((at, c)) = it.next() {
        if c.is_whitespace() || c == ',' {
            continue;
        }
        let rank = if c == '1' {
            match it.next() {
                Some((_, '0')) => Rank::Ten,
                _ => {
                    return Err(CardParseError {
                        at,
                        message: "invalid rank '1' (write 10 or T)".into(),
                    });
                }
            }
        } else {
            parse_rank(c).ok_or_else(|| CardParseError {
                at,
                message: format!("invalid rank '{c}' (expected 2-9, T or 10, J, Q, K, A)"),
            })?
        };
        let (suit_at, s) = it.next().ok_or(CardParseError {
            at: text.len(),
            message: "missing suit after rank (expected c, d, h, s or ♣ ♦ ♥ ♠)".into(),
        })?;
        let suit = parse_suit(s).ok_or_else(|| CardParseError {
            at: suit_at,
            message: format!("invalid suit '{s}' (expected c, d, h, s or ♣ ♦ ♥ ♠)"),
        })?;
        let card = Card::new(rank, suit);
        if seen & card.mask() != 0 {
            return Err(CardParseError {
                at,
                message: format!("card {card} given twice"),
            });
        }
        if cards.len() == MAX_PARSED_CARDS {
            return Err(CardParseError {
                at,
                message: "more than 52 cards".into(),
            });
        }
        seen |= card.mask();
        cards.push(card);
    }
    Ok(cards)
}

/// Formats cards space-separated: `As Kh` (or `A♠ K♥` with `pretty`).
pub fn format_cards(cards: &[Card], pretty: bool) -> String {
    let parts: Vec<String> = cards
        .iter()
        .map(|c| if pretty { c.pretty() } else { c.ascii() })
        .collect();
    parts.join(" ")
}

/// A set of cards as a 64-bit mask (16 bits per suit, see [`Card::mask`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// All 52 cards.
    pub const FULL: CardSet = CardSet(0x1FFF_1FFF_1FFF_1FFF);

    /// The set of these cards.
    pub fn from_cards(cards: &[Card]) -> CardSet {
        CardSet(cards.iter().fold(0, |m, c| m | c.mask()))
    }

    /// True when `card` is in the set.
    pub fn contains(self, card: Card) -> bool {
        self.0 & card.mask() != 0
    }

    /// Adds a card.
    pub fn insert(&mut self, card: Card) {
        self.0 |= card.mask();
    }

    /// Number of cards.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The 13-bit rank mask of one suit (bit r = rank index r).
    pub fn suit_ranks(self, suit: Suit) -> u16 {
        ((self.0 >> (16 * suit.index())) & 0x1FFF) as u16
    }

    /// The cards in index order (2♣ first).
    pub fn cards(self) -> Vec<Card> {
        (0..52)
            .filter_map(Card::from_index)
            .filter(|&c| self.contains(c))
            .collect()
    }
}

/// The 52 cards in index order (2♣, 2♦, 2♥, 2♠, 3♣, … A♠).
pub fn deck() -> Vec<Card> {
    (0..52).filter_map(Card::from_index).collect()
}

/// The cards not in `used`, in index order.
pub fn unseen(used: CardSet) -> Vec<Card> {
    deck().into_iter().filter(|&c| !used.contains(c)).collect()
}

/// A deck that deals uniformly without replacement with [`alea_core::Rng`].
#[derive(Clone, Debug)]
pub struct Deck {
    cards: Vec<Card>,
    dealt: usize,
}

impl Deck {
    /// A full 52-card deck.
    pub fn new() -> Deck {
        Deck {
            cards: deck(),
            dealt: 0,
        }
    }

    /// A deck without the cards of `dead`.
    pub fn without(dead: CardSet) -> Deck {
        Deck {
            cards: unseen(dead),
            dealt: 0,
        }
    }

    /// Cards left to deal.
    pub fn remaining(&self) -> usize {
        self.cards.len() - self.dealt
    }

    /// Deals one uniformly chosen card of those left (a partial Fisher–Yates step), or `None`
    /// when the deck is empty.
    pub fn deal(&mut self, rng: &mut alea_core::Rng) -> Option<Card> {
        if self.remaining() == 0 {
            return None;
        }
        let j = self.dealt + rng.below(self.remaining() as u64) as usize;
        self.cards.swap(self.dealt, j);
        self.dealt += 1;
        Some(self.cards[self.dealt - 1])
    }

    /// Puts every dealt card back (the order of the deck stays shuffled).
    pub fn reset(&mut self) {
        self.dealt = 0;
    }
}

impl Default for Deck {
    fn default() -> Deck {
        Deck::new()
    }
}
