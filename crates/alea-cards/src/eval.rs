//! Fast 5-, 6- and 7-card hand evaluation.
//!
//! A hand is an additive key (one `u64` add per card) plus a card mask:
//!
//! * bits 0‥38 count the cards of each rank (3 bits per rank; at most 4 of a rank), bits 39‥47
//!   count the cards, and bits 48‥63 hold four suit counters that start at 3, so a suit with
//!   five or more cards sets bit 3 of its nibble;
//! * the mask has 16 bits per suit, so a flush suit's 13-bit rank set is one shift away.
//!
//! With at most seven cards a flush excludes quads and full houses, so a flushed hand is one
//! lookup in an 8,192-entry table indexed by the suit's ranks. Every other hand depends only on
//! its rank counts: those keys (the 73,775 multisets of 5 to 7 ranks) go through a perfect hash
//! (multiply, then "hash and displace" with an XOR per bucket) into a 2¹⁷-entry table of
//! [`HandRank`]s. Both tables are built on first use (a few milliseconds) from the slow,
//! obviously-correct rules in [`best_five`], so nothing generated is committed.

use crate::card::{Card, CardSet, Rank};
use std::sync::OnceLock;

/// The strength of a 5-card poker hand, or of the best 5 of 6 or 7 cards: 1 (7-5-4-3-2
/// offsuit) … 7462 (royal flush). A larger value is a better hand; equal values tie.
/// There are exactly 7,462 distinct 5-card hand classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandRank(u16);

/// Number of distinct 5-card hand classes.
pub const HAND_CLASSES: usize = 7462;

/// A hand category, weakest first. `RoyalFlush` is the ace-high straight flush; the index
/// (`Category::Flush as u8` = 5) is EZScript's category number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Category {
    HighCard,
    OnePair,
    TwoPair,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
    RoyalFlush,
}

impl Category {
    /// All categories, weakest first.
    pub const ALL: [Category; 10] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
        Category::RoyalFlush,
    ];

    /// English name: `High Card`, `One Pair`, … `Royal Flush`.
    pub fn name(self) -> &'static str {
        [
            "High Card",
            "One Pair",
            "Two Pair",
            "Three of a Kind",
            "Straight",
            "Flush",
            "Full House",
            "Four of a Kind",
            "Straight Flush",
            "Royal Flush",
        ][self as usize]
    }

    /// German name: `Höchste Karte`, `Ein Paar`, … `Royal Flush` (tournament-data.md §6).
    pub fn name_de(self) -> &'static str {
        [
            "Höchste Karte",
            "Ein Paar",
            "Zwei Paare",
            "Drilling",
            "Straße",
            "Flush",
            "Full House",
            "Vierling",
            "Straight Flush",
            "Royal Flush",
        ][self as usize]
    }

    /// EZScript's identifier: `highCard`, `onePair`, … `royalFlush`.
    pub fn identifier(self) -> &'static str {
        [
            "highCard",
            "onePair",
            "twoPair",
            "threeOfAKind",
            "straight",
            "flush",
            "fullHouse",
            "fourOfAKind",
            "straightFlush",
            "royalFlush",
        ][self as usize]
    }

    /// OpenHoldem's type bit (`onepair` 2²⁴ … `straightflush` 2³¹; high card 0; a royal
    /// flush is a straight flush).
    pub fn pokerval_bit(self) -> u32 {
        match self {
            Category::HighCard => 0,
            Category::RoyalFlush => 1 << 31,
            c => 1 << (23 + c as u32),
        }
    }
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The best five cards of a rank multiset, as a category (without `RoyalFlush`, which is a
/// `StraightFlush` with an ace on top) and five rank values (2‥14) in order of significance:
/// straights top-down (the wheel as 5 4 3 2 1), quads qqqqk, full house tttpp, trips tttkk,
/// two pair hhllk, pair ppkkk, flush and high card descending. Ranks missing because the
/// multiset has fewer than five cards are 0. Straights and flushes need five cards.
///
/// This is the slow reference the tables are built from; `flush` says the cards (all of one
/// suit, distinct ranks) make a flush.
pub fn best_five(counts: &[u8; 13], flush: bool) -> (Category, [u8; 5]) {
    let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
    let present: u16 = (0..13)
        .filter(|&r| counts[r] > 0)
        .fold(0, |m, r| m | 1 << r);
    let straight = if total >= 5 {
        straight_top(present)
    } else {
        None
    };
    if flush {
        if let Some(top) = straight {
            return (Category::StraightFlush, straight_ranks(top));
        }
        return (Category::Flush, top_ranks(present, 5));
    }
    // Ranks grouped by multiplicity, highest rank first within a group.
    let with = |n: u8| -> Vec<u8> {
        (0..13u8)
            .rev()
            .filter(|&r| counts[usize::from(r)] >= n)
            .map(|r| r + 2)
            .collect()
    };
    let kickers = |exclude: &[u8], k: usize| -> Vec<u8> {
        let mut v: Vec<u8> = (0..13u8)
            .rev()
            .map(|r| r + 2)
            .filter(|v| counts[usize::from(v - 2)] > 0 && !exclude.contains(v))
            .take(k)
            .collect();
        v.resize(k, 0);
        v
    };
    let quads = with(4);
    if let Some(&q) = quads.first() {
        let k = kickers(&[q], 1);
        return (Category::FourOfAKind, [q, q, q, q, k[0]]);
    }
    let trips = with(3);
    let pairs = with(2);
    if let Some(&t) = trips.first()
        && let Some(&p) = pairs.iter().find(|&&p| p != t)
    {
        return (Category::FullHouse, [t, t, t, p, p]);
    }
    if let Some(top) = straight {
        return (Category::Straight, straight_ranks(top));
    }
    if let Some(&t) = trips.first() {
        let k = kickers(&[t], 2);
        return (Category::ThreeOfAKind, [t, t, t, k[0], k[1]]);
    }
    if pairs.len() >= 2 {
        let (h, l) = (pairs[0], pairs[1]);
        let k = kickers(&[h, l], 1);
        return (Category::TwoPair, [h, h, l, l, k[0]]);
    }
    if let Some(&p) = pairs.first() {
        let k = kickers(&[p], 3);
        return (Category::OnePair, [p, p, k[0], k[1], k[2]]);
    }
    let k = kickers(&[], 5);
    (Category::HighCard, [k[0], k[1], k[2], k[3], k[4]])
}

/// The top rank index of the best straight in a 13-bit rank set (3 = five-high wheel).
fn straight_top(present: u16) -> Option<u8> {
    for top in (4..13u8).rev() {
        let run = 0x1Fu16 << (top - 4);
        if present & run == run {
            return Some(top);
        }
    }
    const WHEEL: u16 = 0x100F; // A 5 4 3 2
    (present & WHEEL == WHEEL).then_some(3)
}

fn straight_ranks(top: u8) -> [u8; 5] {
    let t = top + 2;
    if top == 3 {
        [5, 4, 3, 2, 1]
    } else {
        [t, t - 1, t - 2, t - 3, t - 4]
    }
}

fn top_ranks(present: u16, k: usize) -> [u8; 5] {
    let mut out = [0u8; 5];
    for (slot, r) in out
        .iter_mut()
        .zip((0..13u8).rev().filter(|&r| present >> r & 1 == 1).take(k))
    {
        *slot = r + 2;
    }
    out
}

/// Packs a category and five significance-ordered ranks as `category * 16⁵ + Σ rᵢ·16^(4−i)`,
/// EZScript's `pokerCardsToValue` (so the ordering key of hands of five cards).
pub fn pack_value(category: Category, ranks: [u8; 5]) -> u32 {
    ranks
        .iter()
        .fold(category as u32, |acc, &r| acc * 16 + u32::from(r))
}

/// The distinct 5-card hand classes as packed values ([`pack_value`], with straight flushes
/// under `StraightFlush`), ascending: index i is `HandRank` i + 1.
fn all_class_values() -> Vec<u32> {
    let mut values = Vec::with_capacity(HAND_CLASSES);
    let mut counts = [0u8; 13];
    for_each_multiset(&mut counts, 0, 5, &mut |counts| {
        let (cat, ranks) = best_five(counts, false);
        values.push(pack_value(cat, ranks));
        if counts.iter().all(|&c| c <= 1) {
            let (cat, ranks) = best_five(counts, true);
            values.push(pack_value(cat, ranks));
        }
    });
    values.sort_unstable();
    values.dedup();
    values
}

/// Calls `f` on every rank multiset with `left` more cards over ranks `from..13` (at most four
/// of a rank).
pub(crate) fn for_each_multiset(
    counts: &mut [u8; 13],
    from: usize,
    left: u8,
    f: &mut dyn FnMut(&[u8; 13]),
) {
    if left == 0 {
        f(counts);
        return;
    }
    for r in from..13 {
        for n in 1..=left.min(4) {
            counts[r] = n;
            for_each_multiset(counts, r + 1, left - n, f);
        }
        counts[r] = 0;
    }
}

const RANK_KEY_BITS: u32 = 39;
const RANK_KEY_MASK: u64 = (1 << RANK_KEY_BITS) - 1;
const COUNT_SHIFT: u32 = 39;
const SUIT_SHIFT: u32 = 48;
const FLUSH_BITS: u64 = 0x8888 << SUIT_SHIFT;
const EMPTY_KEY: u64 = 0x3333 << SUIT_SHIFT;

const BUCKET_BITS: u32 = 14;
const BUCKETS: usize = 1 << BUCKET_BITS;
const SLOT_BITS: u32 = 16;
const SLOTS: usize = 1 << SLOT_BITS;

/// A perfect hash from rank keys to hand ranks: `h = key · multiplier`; the top 14 bits of h
/// pick a bucket, the next 16 a position, XORed with the bucket's displacement. Both tables
/// are fixed-size arrays, so indexing needs no bounds checks.
struct PerfectHash {
    multiplier: u64,
    displacement: Box<[u16; BUCKETS]>,
    slots: Box<[u16; SLOTS]>,
}

impl PerfectHash {
    #[inline(always)]
    fn get(&self, rank_key: u64) -> u16 {
        let h = rank_key.wrapping_mul(self.multiplier);
        let bucket = (h >> (64 - BUCKET_BITS)) as usize;
        let pos = (h >> (64 - BUCKET_BITS - SLOT_BITS)) as u16;
        self.slots[usize::from(pos ^ self.displacement[bucket])]
    }

    /// Finds a multiplier whose buckets have distinct positions, then places buckets largest
    /// first at the smallest XOR displacement that lands on free slots.
    fn build(entries: &[(u64, u16)]) -> PerfectHash {
        assert!(entries.len() < SLOTS);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        'multiplier: loop {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let multiplier = splitmix(seed) | 1;
            let mut buckets: Vec<Vec<(u16, u16)>> = vec![Vec::new(); BUCKETS];
            for &(key, value) in entries {
                let h = key.wrapping_mul(multiplier);
                let bucket = (h >> (64 - BUCKET_BITS)) as usize;
                let pos = (h >> (64 - BUCKET_BITS - SLOT_BITS)) as u16;
                if buckets[bucket].iter().any(|&(p, _)| p == pos) {
                    continue 'multiplier;
                }
                buckets[bucket].push((pos, value));
            }
            let mut order: Vec<usize> = (0..BUCKETS).collect();
            order.sort_by_key(|&b| std::cmp::Reverse(buckets[b].len()));
            let mut used = vec![false; SLOTS];
            let mut slots = Box::new([0u16; SLOTS]);
            let mut displacement = Box::new([0u16; BUCKETS]);
            for b in order {
                if buckets[b].is_empty() {
                    break;
                }
                let found = (0..=u16::MAX)
                    .find(|&d| buckets[b].iter().all(|&(p, _)| !used[usize::from(p ^ d)]));
                let Some(d) = found else { continue 'multiplier };
                for &(p, v) in &buckets[b] {
                    used[usize::from(p ^ d)] = true;
                    slots[usize::from(p ^ d)] = v;
                }
                displacement[b] = d;
            }
            return PerfectHash {
                multiplier,
                displacement,
                slots,
            };
        }
    }
}

/// The lookup tables, built once per process.
pub struct Tables {
    /// Rank multisets of 7 cards (49,205 keys).
    seven: PerfectHash,
    /// Rank multisets of 5 and 6 cards (24,570 keys).
    fewer: PerfectHash,
    flush: Box<[u16; 1 << 13]>,
    class_values: Vec<u32>,
}

const fn card_tables() -> ([u64; 64], [u64; 64]) {
    let mut keys = [0u64; 64];
    let mut masks = [0u64; 64];
    let mut i = 0;
    while i < 52 {
        let (rank, suit) = (i as u32 >> 2, i as u32 & 3);
        keys[i] = (1u64 << (3 * rank)) + (1u64 << COUNT_SHIFT) + (1u64 << (SUIT_SHIFT + 4 * suit));
        masks[i] = 1u64 << (16 * suit + rank);
        i += 1;
    }
    (keys, masks)
}

/// Per card: its key increment and its mask bit (64 entries so any `index & 63` is in range).
const CARD_KEYS: ([u64; 64], [u64; 64]) = card_tables();

static TABLES: OnceLock<Tables> = OnceLock::new();

impl Tables {
    /// The process-wide tables (built on first use).
    pub fn get() -> &'static Tables {
        TABLES.get_or_init(Tables::build)
    }

    fn build() -> Tables {
        let class_values = all_class_values();
        assert_eq!(class_values.len(), HAND_CLASSES, "hand class count");
        let rank_of = |cat: Category, ranks: [u8; 5]| -> u16 {
            let v = pack_value(cat, ranks);
            class_values
                .binary_search(&v)
                .expect("every hand is a class") as u16
                + 1
        };
        let mut flush = Box::new([0u16; 1 << 13]);
        for (bits, slot) in flush.iter_mut().enumerate() {
            if (bits as u16).count_ones() >= 5 {
                let mut counts = [0u8; 13];
                for (r, c) in counts.iter_mut().enumerate() {
                    *c = (bits >> r & 1) as u8;
                }
                let (cat, ranks) = best_five(&counts, true);
                *slot = rank_of(cat, ranks);
            }
        }
        let entries = |sizes: &[u8]| {
            let mut entries: Vec<(u64, u16)> = Vec::new();
            for &n in sizes {
                let mut counts = [0u8; 13];
                for_each_multiset(&mut counts, 0, n, &mut |counts| {
                    let key = (0..13).fold(0u64, |k, r| k + (u64::from(counts[r]) << (3 * r)));
                    let (cat, ranks) = best_five(counts, false);
                    entries.push((key, rank_of(cat, ranks)));
                });
            }
            entries
        };
        Tables {
            seven: PerfectHash::build(&entries(&[7])),
            fewer: PerfectHash::build(&entries(&[5, 6])),
            flush,
            class_values,
        }
    }

    /// The rank of a hand of 5 to 7 distinct cards. For other hands the result is some
    /// meaningless `HandRank` (never a panic); use [`Hand::rank`] to have the count checked.
    #[inline(always)]
    pub fn rank(&self, hand: Hand) -> HandRank {
        let flush = hand.key & FLUSH_BITS;
        if flush != 0 {
            let suit = (flush.trailing_zeros() - SUIT_SHIFT - 3) / 4;
            let bits = (hand.mask >> (16 * suit)) as usize & 0x1FFF;
            return HandRank(self.flush[bits]);
        }
        let rank_key = hand.key & RANK_KEY_MASK;
        if hand.key >> COUNT_SHIFT & 0x1FF == 7 {
            HandRank(self.seven.get(rank_key))
        } else {
            HandRank(self.fewer.get(rank_key))
        }
    }
}

fn splitmix(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A hand being built card by card: adding a card is one add and one or (no duplicate check).
/// Copy it to share a prefix (hero + board) between many completions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    key: u64,
    mask: u64,
}

impl Hand {
    /// No cards.
    pub fn new() -> Hand {
        Hand {
            key: EMPTY_KEY,
            mask: 0,
        }
    }

    /// The hand of these cards (duplicates are not checked).
    pub fn from_cards(cards: &[Card]) -> Hand {
        cards.iter().fold(Hand::new(), |h, &c| h.with(c))
    }

    /// This hand plus `card`.
    #[inline(always)]
    #[must_use]
    pub fn with(self, card: Card) -> Hand {
        let i = card.index() & 63;
        Hand {
            key: self.key + CARD_KEYS.0[i],
            mask: self.mask | CARD_KEYS.1[i],
        }
    }

    /// This hand plus every card of `other`.
    #[inline(always)]
    #[must_use]
    pub fn union(self, other: Hand) -> Hand {
        Hand {
            key: self.key + other.key - EMPTY_KEY,
            mask: self.mask | other.mask,
        }
    }

    /// Number of cards added.
    pub fn len(self) -> usize {
        ((self.key >> COUNT_SHIFT) & 0x1FF) as usize
    }

    /// True when no card was added.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The cards as a set.
    pub fn cards(self) -> CardSet {
        CardSet(self.mask)
    }

    /// The rank of the best five cards, if the hand has 5 to 7 distinct cards.
    pub fn rank(self) -> Option<HandRank> {
        let n = self.len();
        ((5..=7).contains(&n) && CardSet(self.mask).len() == n).then(|| Tables::get().rank(self))
    }
}

impl Default for Hand {
    fn default() -> Hand {
        Hand::new()
    }
}

/// Why a card list cannot be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// Not 5, 6 or 7 cards.
    WrongCount(usize),
    /// A card appears twice.
    Duplicate(Card),
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::WrongCount(n) => write!(f, "a hand needs 5, 6 or 7 cards, found {n}"),
            EvalError::Duplicate(c) => write!(f, "card {c} appears twice"),
        }
    }
}

impl std::error::Error for EvalError {}

/// The rank of the best five of 5, 6 or 7 distinct cards.
pub fn evaluate(cards: &[Card]) -> Result<HandRank, EvalError> {
    if !(5..=7).contains(&cards.len()) {
        return Err(EvalError::WrongCount(cards.len()));
    }
    let mut seen = CardSet::EMPTY;
    for &c in cards {
        if seen.contains(c) {
            return Err(EvalError::Duplicate(c));
        }
        seen.insert(c);
    }
    Ok(Tables::get().rank(Hand::from_cards(cards)))
}

impl HandRank {
    /// The weakest hand (7-5-4-3-2, no flush).
    pub const WORST: HandRank = HandRank(1);
    /// The royal flush.
    pub const BEST: HandRank = HandRank(HAND_CLASSES as u16);

    /// The rank with value `v` (1 ‥ 7462).
    pub fn from_value(v: u16) -> Option<HandRank> {
        (1..=HAND_CLASSES as u16)
            .contains(&v)
            .then_some(HandRank(v))
    }

    /// 1 (worst) ‥ 7462 (royal flush).
    pub fn value(self) -> u16 {
        self.0
    }

    fn packed(self) -> u32 {
        Tables::get().class_values[usize::from(self.0) - 1]
    }

    /// The category (`RoyalFlush` for the ace-high straight flush).
    pub fn category(self) -> Category {
        let cat = Category::ALL[(self.packed() >> 20) as usize];
        if self == HandRank::BEST {
            Category::RoyalFlush
        } else {
            cat
        }
    }

    /// The five rank values (2‥14) in order of significance (see [`best_five`]).
    pub fn ranks(self) -> [u8; 5] {
        let p = self.packed();
        [16, 12, 8, 4, 0].map(|s| (p >> s & 0xF) as u8)
    }

    /// OpenHoldem's `pokerval` of these five cards: the type bit plus five rank nibbles.
    pub fn pokerval(self) -> u32 {
        (self.packed() & 0xF_FFFF) | self.category().pokerval_bit()
    }

    /// EZScript's `pokerCardsToValue`: `category * 16⁵ + Σ rᵢ·16^(4−i)` with the royal flush
    /// as category 9.
    pub fn ez_value(self) -> u32 {
        (self.packed() & 0xF_FFFF) | (self.category() as u32) << 20
    }

    /// Readable English name: `Full House, Aces over Kings`, `Straight, Five high`.
    pub fn name(self) -> String {
        crate::names::describe(self.category(), self.ranks(), false)
    }

    /// Readable German name: `Full House, Asse über Könige`.
    pub fn name_de(self) -> String {
        crate::names::describe(self.category(), self.ranks(), true)
    }
}

impl std::fmt::Display for HandRank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// The rank index of a rank value 2‥14 (ace high; 1 is the wheel's ace).
pub(crate) fn rank_of_value(v: u8) -> Option<Rank> {
    if v == 1 {
        Some(Rank::Ace)
    } else {
        Rank::from_value(v)
    }
}

/// The best five of 5 to 7 distinct cards and their rank, ordered by significance (the
/// pair before its kickers, the wheel's ace last): `As Ad Kc Kh 9s`.
pub fn best_five_cards(cards: &[Card]) -> Result<([Card; 5], HandRank), EvalError> {
    let rank = evaluate(cards)?;
    let n = cards.len();
    let mut best = [cards[0]; 5];
    for mask in 0u32..1 << n {
        if mask.count_ones() != 5 {
            continue;
        }
        let mut five = [cards[0]; 5];
        for (slot, i) in five.iter_mut().zip((0..n).filter(|i| mask >> i & 1 == 1)) {
            *slot = cards[i];
        }
        if Tables::get().rank(Hand::from_cards(&five)) == rank {
            best = five;
            break;
        }
    }
    let wheel = matches!(
        rank.category(),
        Category::Straight | Category::StraightFlush
    ) && rank.ranks()[0] == 5;
    let snapshot = best;
    let key = |c: &Card| {
        let count = snapshot.iter().filter(|d| d.rank() == c.rank()).count();
        let r = if wheel && c.rank() == Rank::Ace {
            1
        } else {
            c.rank().value()
        };
        std::cmp::Reverse((count, r, c.suit()))
    };
    best.sort_by_key(key);
    Ok((best, rank))
}
