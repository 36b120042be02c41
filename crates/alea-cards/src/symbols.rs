//! OpenHoldem's card symbols (openholdem.md §5.3): `pokerval`, rank and suit features, outs,
//! hand counts, `prwinnow`/`prlosnow`, hand patterns (`$AKs`) and the 169 holding classes.
//!
//! Everything here is computed from the hero's cards H and the board B; A = H ∪ B. The
//! OpenHoldem crate only maps symbol names to these fields.

use crate::card::{Card, CardSet, Rank, Suit, unseen};
use crate::eval::{Category, Hand, Tables, best_five, pack_value};

/// OpenHoldem's `pokerval` PV(S) of 0 to 7 cards: a type bit (pair 2²⁴ … straight flush 2³¹,
/// high card 0) plus five rank nibbles of the best standard hand (kickers missing because
/// |S| < 5 are 0; straights and flushes need five cards). 0 for no cards. For sets of the
/// same size PV orders hands as poker does.
///
/// # Panics
/// With more than 7 cards (a programming error: hero and board hold at most 7).
pub fn pokerval(cards: CardSet) -> u32 {
    let n = cards.len();
    assert!(n <= 7, "pokerval of {n} cards");
    if n == 0 {
        return 0;
    }
    if n >= 5 {
        let hand = Hand::from_cards(&cards.cards());
        return Tables::get().rank(hand).pokerval();
    }
    let mut counts = [0u8; 13];
    for c in cards.cards() {
        counts[c.rank().index()] += 1;
    }
    let (category, ranks) = best_five(&counts, false);
    (pack_value(category, ranks) & 0xF_FFFF) | category.pokerval_bit()
}

/// The type bits of a pokerval (`pokerval & 0xFF000000`): comparable as "better type".
pub fn pokerval_type(pv: u32) -> u32 {
    pv & 0xFF00_0000
}

/// The category of a pokerval (`RoyalFlush` for 0x800EDCBA).
pub fn pokerval_category(pv: u32) -> Category {
    match pokerval_type(pv) {
        0 => Category::HighCard,
        t if t >= 1 << 31 && pv & 0xF_FFFF == 0xE_DCBA => Category::RoyalFlush,
        t => Category::ALL[(t.trailing_zeros() - 23) as usize],
    }
}

/// Rank and suit features of one card set (OpenHoldem's `rankbits`, `rankhi`, … family).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SetFeatures {
    /// `pokerval`: see [`pokerval`].
    pub pokerval: u32,
    /// `rankbits`: bit r per rank value r (2‥14) present; an ace also sets bit 1.
    pub rankbits: u32,
    /// `rankhi`: highest rank value (ace 14), 0 if no cards.
    pub rankhi: u8,
    /// `ranklo`: lowest rank value (ace 14), 0 if no cards.
    pub ranklo: u8,
    /// `nsuited`: most cards of one suit.
    pub nsuited: u8,
    /// `tsuit`: that suit in OpenHoldem's numbering (hearts 0, diamonds 1, clubs 2, spades 3);
    /// ties prefer clubs, then diamonds, hearts, spades.
    pub tsuit: u8,
    /// `nranked`: the largest multiplicity of a rank.
    pub nranked: u8,
    /// `trank`: that rank's value (ties: the higher rank), 0 if no cards.
    pub trank: u8,
    /// `nstraight`: longest run of consecutive ranks (ace high and low), at most 5.
    pub nstraight: u8,
    /// `nstraightfill`: 5 − the most distinct ranks in one straight window A-5 … T-A.
    pub nstraightfill: u8,
}

/// The features of a card set of 0 to 7 cards.
pub fn set_features(cards: CardSet) -> SetFeatures {
    let list = cards.cards();
    let mut rankbits = 0u32;
    let mut counts = [0u8; 13];
    for c in &list {
        rankbits |= 1 << c.rank().value();
        counts[c.rank().index()] += 1;
    }
    if rankbits & 1 << 14 != 0 {
        rankbits |= 1 << 1;
    }
    let rankhi = list.iter().map(|c| c.rank().value()).max().unwrap_or(0);
    let ranklo = list.iter().map(|c| c.rank().value()).min().unwrap_or(0);
    let (mut nsuited, mut tsuit) = (0u8, Suit::Clubs);
    for suit in [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades] {
        let n = cards.suit_ranks(suit).count_ones() as u8;
        if n > nsuited {
            (nsuited, tsuit) = (n, suit);
        }
    }
    let (mut nranked, mut trank) = (0u8, 0u8);
    for r in (0..13).rev() {
        if counts[r] > nranked {
            (nranked, trank) = (counts[r], r as u8 + 2);
        }
    }
    let (mut run, mut nstraight) = (0u8, 0u8);
    for v in 1..=14 {
        if rankbits >> v & 1 == 1 {
            run += 1;
            nstraight = nstraight.max(run);
        } else {
            run = 0;
        }
    }
    let most_in_window = (1..=10)
        .map(|low| (rankbits >> low & 0x1F).count_ones() as u8)
        .max()
        .unwrap_or(0);
    SetFeatures {
        pokerval: pokerval(cards),
        rankbits,
        rankhi,
        ranklo,
        nsuited,
        tsuit: tsuit.openholdem_index(),
        nranked,
        trank,
        nstraight: nstraight.min(5),
        nstraightfill: 5 - most_in_window.min(5),
    }
}

/// The evaluation symbols of one hero + board (openholdem.md §5.3, category "eval").
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct HandSymbols {
    /// Features of A = H ∪ B (`pokerval`, `rankbits`, `nsuited`, …).
    pub all: SetFeatures,
    /// Features of H (`pokervalplayer`, `rankbitsplayer`, …).
    pub player: SetFeatures,
    /// Features of B (`pokervalcommon`, `rankbitscommon`, `nsuitedcommon`, …).
    pub common: SetFeatures,
    /// `nouts`: unseen cards u with a better type for A+u than for A and than for B+u (and a
    /// larger PV); 0 on the river.
    pub nouts: u32,
    /// `ncardsbetter`: unseen cards u with PV(B+u) > PV(A).
    pub ncardsbetter: u32,
    /// `nhands`: C(52−|A|, 2), the opponent holdings O.
    pub nhands: u32,
    /// `nhandshi`: holdings with PV(O+B) > PV(A).
    pub nhandshi: u32,
    /// `nhandslo`: holdings with PV(O+B) < PV(A).
    pub nhandslo: u32,
    /// `nhandsti`: holdings with PV(O+B) = PV(A).
    pub nhandsti: u32,
}

impl HandSymbols {
    /// `prwinnow` against n opponents: (nhandslo / nhands)ⁿ.
    pub fn prwinnow(&self, opponents: u32) -> f64 {
        if self.nhands == 0 {
            return 0.0;
        }
        powi(f64::from(self.nhandslo) / f64::from(self.nhands), opponents)
    }

    /// `prlosnow` against n opponents: 1 − ((nhandslo + nhandsti) / nhands)ⁿ.
    pub fn prlosnow(&self, opponents: u32) -> f64 {
        if self.nhands == 0 {
            return 0.0;
        }
        let p = f64::from(self.nhandslo + self.nhandsti) / f64::from(self.nhands);
        1.0 - powi(p, opponents)
    }
}

/// x to a whole power by repeated multiplication in a fixed order (reproducible everywhere).
fn powi(x: f64, n: u32) -> f64 {
    (0..n).fold(1.0, |acc, _| acc * x)
}

/// Why hero and board cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymbolsError {
    /// More than 2 hero cards or more than 5 board cards.
    TooManyCards,
    /// A card is both in hero and board, or twice in one.
    Duplicate(Card),
}

impl std::fmt::Display for SymbolsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SymbolsError::TooManyCards => f.write_str("at most 2 hero cards and 5 board cards"),
            SymbolsError::Duplicate(c) => write!(f, "card {c} appears twice"),
        }
    }
}

impl std::error::Error for SymbolsError {}

/// Checks that hero (≤ 2) and board (≤ 5) are distinct cards; returns their union.
pub(crate) fn check_cards(hero: &[Card], board: &[Card]) -> Result<CardSet, SymbolsError> {
    if hero.len() > 2 || board.len() > 5 {
        return Err(SymbolsError::TooManyCards);
    }
    let mut seen = CardSet::EMPTY;
    for &c in hero.iter().chain(board) {
        if seen.contains(c) {
            return Err(SymbolsError::Duplicate(c));
        }
        seen.insert(c);
    }
    Ok(seen)
}

/// Computes every evaluation symbol of hero H and board B. Without hero cards the symbols
/// over A are still computed from B (the OpenHoldem crate reports them as 0, per the spec).
pub fn hand_symbols(hero: &[Card], board: &[Card]) -> Result<HandSymbols, SymbolsError> {
    let all = check_cards(hero, board)?;
    let player = CardSet::from_cards(hero);
    let common = CardSet::from_cards(board);
    let pv_all = pokerval(all);
    let rest = unseen(all);
    let with = |set: CardSet, c: Card| {
        let mut s = set;
        s.insert(c);
        s
    };
    let mut nouts = 0;
    if board.len() < 5 {
        for &u in &rest {
            let pv_au = pokerval(with(all, u));
            let pv_bu = pokerval(with(common, u));
            let better_type = pokerval_type(pv_au) > pokerval_type(pv_all);
            if better_type && pv_au > pv_all && pokerval_type(pv_au) > pokerval_type(pv_bu) {
                nouts += 1;
            }
        }
    }
    let ncardsbetter = rest
        .iter()
        .filter(|&&u| pokerval(with(common, u)) > pv_all)
        .count() as u32;
    let (mut hi, mut lo, mut ti) = (0u32, 0u32, 0u32);
    for (i, &a) in rest.iter().enumerate() {
        for &b in &rest[i + 1..] {
            let pv = pokerval(with(with(common, a), b));
            match pv.cmp(&pv_all) {
                std::cmp::Ordering::Greater => hi += 1,
                std::cmp::Ordering::Less => lo += 1,
                std::cmp::Ordering::Equal => ti += 1,
            }
        }
    }
    Ok(HandSymbols {
        all: set_features(all),
        player: set_features(player),
        common: set_features(common),
        nouts,
        ncardsbetter,
        nhands: hi + lo + ti,
        nhandshi: hi,
        nhandslo: lo,
        nhandsti: ti,
    })
}

/// One of the 169 starting-hand classes: a pair, or two ranks suited or offsuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HoldingClass {
    /// The higher rank (equal to `low` for a pair).
    pub high: Rank,
    /// The lower rank.
    pub low: Rank,
    /// Suited (never for a pair).
    pub suited: bool,
}

impl HoldingClass {
    /// The class of two hole cards.
    pub fn of(a: Card, b: Card) -> HoldingClass {
        let (high, low) = if a.rank() >= b.rank() {
            (a.rank(), b.rank())
        } else {
            (b.rank(), a.rank())
        };
        HoldingClass {
            high,
            low,
            suited: high != low && a.suit() == b.suit(),
        }
    }

    /// All 169 classes: pairs, suited and offsuit hands, highest ranks first.
    pub fn all() -> Vec<HoldingClass> {
        let mut out = Vec::with_capacity(169);
        for &high in Rank::ALL.iter().rev() {
            for &low in Rank::ALL.iter().rev().filter(|&&l| l <= high) {
                if high == low {
                    out.push(HoldingClass {
                        high,
                        low,
                        suited: false,
                    });
                } else {
                    out.push(HoldingClass {
                        high,
                        low,
                        suited: true,
                    });
                    out.push(HoldingClass {
                        high,
                        low,
                        suited: false,
                    });
                }
            }
        }
        out
    }

    /// Parses a hand-list member: `AA`, `AKs`, `KAo` (ranks in either order, any case).
    /// `AK` (no suffix) and `AAs` are `None`; the OpenHoldem crate gives the messages.
    pub fn parse(text: &str) -> Option<HoldingClass> {
        let chars: Vec<char> = text.chars().collect();
        let rank = |c: char| {
            "23456789TJQKA"
                .find(c.to_ascii_uppercase())
                .and_then(Rank::from_index)
        };
        let (a, b) = (rank(*chars.first()?)?, rank(*chars.get(1)?)?);
        let (high, low) = if a >= b { (a, b) } else { (b, a) };
        match (chars.len(), chars.get(2).map(|c| c.to_ascii_lowercase())) {
            (2, None) if high == low => Some(HoldingClass {
                high,
                low,
                suited: false,
            }),
            (3, Some('s')) if high != low => Some(HoldingClass {
                high,
                low,
                suited: true,
            }),
            (3, Some('o')) if high != low => Some(HoldingClass {
                high,
                low,
                suited: false,
            }),
            _ => None,
        }
    }

    /// Two hole cards of this class (all of a class are equivalent against random hands):
    /// spades and hearts for a pair or offsuit hand, two spades for a suited one.
    pub fn representative(self) -> [Card; 2] {
        let second = if self.suited {
            Suit::Spades
        } else {
            Suit::Hearts
        };
        [
            Card::new(self.high, Suit::Spades),
            Card::new(self.low, second),
        ]
    }

    /// Number of ordered two-card deals of this class (pair 12, suited 8, offsuit 24), as
    /// `handrank2652` counts them.
    pub fn ordered_combos(self) -> u32 {
        if self.high == self.low {
            12
        } else if self.suited {
            8
        } else {
            24
        }
    }
}

impl std::fmt::Display for HoldingClass {
    /// `AA`, `AKs`, `T9o`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let suffix = match (self.high == self.low, self.suited) {
            (true, _) => "",
            (false, true) => "s",
            (false, false) => "o",
        };
        write!(f, "{}{}{suffix}", self.high.char(), self.low.char())
    }
}

/// `ispair`: both hole cards of one rank.
pub fn is_pair(a: Card, b: Card) -> bool {
    a.rank() == b.rank()
}

/// `issuited`: both hole cards of one suit.
pub fn is_suited(a: Card, b: Card) -> bool {
    a.suit() == b.suit()
}

/// `isconnector`: ranks one apart (A2 is not a connector).
pub fn is_connector(a: Card, b: Card) -> bool {
    a.rank().index().abs_diff(b.rank().index()) == 1
}

/// A hand symbol pattern such as `$AKs`, `$AX`, `$QXs`, `$J`, `$XXs` (without the `$`):
/// one or two ranks (`X` = any) and an optional `s`/`o` suffix, any case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandPattern {
    ranks: [Option<Rank>; 2],
    two: bool,
    suited: Option<bool>,
}

impl HandPattern {
    /// Parses the text after `$`; `None` if it is not a pattern.
    pub fn parse(text: &str) -> Option<HandPattern> {
        let chars: Vec<char> = text.chars().collect();
        let rank = |c: char| -> Option<Option<Rank>> {
            match c.to_ascii_uppercase() {
                'X' => Some(None),
                u => "23456789TJQKA".find(u).and_then(Rank::from_index).map(Some),
            }
        };
        let suffix = |c: char| match c.to_ascii_lowercase() {
            's' => Some(true),
            'o' => Some(false),
            _ => None,
        };
        let first = rank(*chars.first()?)?;
        match chars.len() {
            1 => Some(HandPattern {
                ranks: [first, None],
                two: false,
                suited: None,
            }),
            2 => rank(chars[1]).map(|second| HandPattern {
                ranks: [first, second],
                two: true,
                suited: None,
            }),
            3 => Some(HandPattern {
                ranks: [first, rank(chars[1])?],
                two: true,
                suited: Some(suffix(chars[2])?),
            }),
            _ => None,
        }
    }

    /// True when hole cards `a`, `b` match: ranks unordered, `X` any rank, a one-rank pattern
    /// matches either card, `s`/`o` test suitedness (a pair is offsuit).
    pub fn matches(&self, a: Card, b: Card) -> bool {
        let fits = |want: Option<Rank>, c: Card| want.is_none_or(|r| r == c.rank());
        let ranks_ok = if self.two {
            (fits(self.ranks[0], a) && fits(self.ranks[1], b))
                || (fits(self.ranks[0], b) && fits(self.ranks[1], a))
        } else {
            fits(self.ranks[0], a) || fits(self.ranks[0], b)
        };
        ranks_ok
            && self
                .suited
                .is_none_or(|s| s == (a.suit() == b.suit() && a.rank() != b.rank()))
    }
}

impl Card {
    /// OpenHoldem's card number (`$$pc0`): 13·suit + rank − 2 with hearts 0, diamonds 1,
    /// clubs 2, spades 3 (so A♥ = 12).
    pub fn openholdem_code(self) -> u8 {
        13 * self.suit().openholdem_index() + self.rank().value() - 2
    }
}

/// The 169 classes ordered for `handrank169` (openholdem.md §5.3): by all-in pot equity
/// against `opponents` random hands, best first, each estimated by [`crate::simulate`] with
/// `deals` deals and the same `seed` for every class (common random numbers sharpen the
/// comparisons); equal equities keep [`HoldingClass::all`]'s order. This is the generator of
/// the committed tables (N = 2‥9 need ≥ 10⁷ deals per class; run it in release).
pub fn handrank_order(
    opponents: usize,
    deals: u64,
    seed: u64,
) -> Result<Vec<(HoldingClass, f64)>, crate::EquityError> {
    let mut order = Vec::with_capacity(169);
    for class in HoldingClass::all() {
        let req = crate::EquityRequest::new(class.representative(), &[], opponents);
        order.push((class, crate::simulate(&req, deals, seed)?.equity()));
    }
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    Ok(order)
}

/// `handrank169` and `handrank2652` of a class in an order from [`handrank_order`]:
/// its 1-based position, and the ordered combos of the classes at or above it.
pub fn handrank_of(order: &[HoldingClass], class: HoldingClass) -> Option<(u32, u32)> {
    let at = order.iter().position(|&c| c == class)?;
    let combos = order[..=at].iter().map(|c| c.ordered_combos()).sum();
    Some((at as u32 + 1, combos))
}
