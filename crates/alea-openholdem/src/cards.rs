//! Cards and the card-derived symbols (spec §5.3), with the hook for hand evaluation.
//!
//! Symbols that only look at ranks and suits (`$AKs`, `ispair`, `rankbits`, `nstraight`, …) are
//! computed here. Symbols that need poker hand values (`pokerval`, `nouts`, `nhands…`,
//! `prwinnow`, `handrank…`, `prwin`…) go through [`HandEvaluator`]; every [`crate::Machine`]
//! starts with [`AleaCards`] (the evaluator of `alea-cards`), and tests may inject another.

use crate::symbols::{CardField, CardSet, HandPattern, Symbol};
use alea_core::Rng;

/// A card: rank 2..=14 (ace 14), suit 0..=3 (hearts, diamonds, clubs, spades).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    /// 2..=14.
    pub rank: u8,
    /// 0 hearts, 1 diamonds, 2 clubs, 3 spades.
    pub suit: u8,
}

impl Card {
    /// Parses `Ah`, `tc`, … (either case).
    pub fn parse(s: &str) -> Option<Card> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let rank = b"23456789TJQKA"
            .iter()
            .position(|&r| r == b[0].to_ascii_uppercase())? as u8
            + 2;
        let suit = b"hdcs"
            .iter()
            .position(|&c| c == b[1].to_ascii_lowercase())? as u8;
        Some(Card { rank, suit })
    }

    /// OpenHoldem's card code 13·suit + rank − 2 (0..=51).
    pub fn code(self) -> u8 {
        13 * self.suit + self.rank - 2
    }

    /// The card with code `c` (0..=51).
    pub fn from_code(c: u8) -> Card {
        Card {
            rank: c % 13 + 2,
            suit: c / 13,
        }
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = b"23456789TJQKA"[(self.rank - 2) as usize] as char;
        let s = b"hdcs"[self.suit as usize] as char;
        write!(f, "{r}{s}")
    }
}

/// prwin, prtie and prlos of one simulation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Equity {
    /// Fraction of iterations won.
    pub win: f64,
    /// Fraction tied.
    pub tie: f64,
    /// Fraction lost.
    pub lose: f64,
}

/// The hook through which `alea-cards` provides hand evaluation.
///
/// Install one with [`crate::Machine::set_evaluator`]. Every evaluator-backed symbol is derived
/// from these three methods, so an implementation needs nothing else of this crate.
pub trait HandEvaluator: Send + Sync {
    /// PV(S) of spec §5.3 for 0..=7 distinct cards: a type bit (pair 2²⁴ … straight flush 2³¹)
    /// plus five 4-bit rank nibbles; 0 for no cards.
    fn pokerval(&self, cards: &[Card]) -> u32;
    /// `handrank169`: 1..=169, the hole cards' class in the committed ranking for `opponents`
    /// (1..=9) random opponents.
    fn handrank169(&self, hole: [Card; 2], opponents: u32) -> u32;
    /// `handrank2652`: ordered combos of the classes ranked ≤ `handrank169`.
    fn handrank2652(&self, hole: [Card; 2], opponents: u32) -> u32;
    /// prwin/prtie/prlos by simulation (spec §5.4), drawing only on `rng`.
    fn equity(
        &self,
        hero: [Card; 2],
        board: &[Card],
        opponents: u32,
        iterations: u64,
        rng: &mut Rng,
    ) -> Equity;
}

/// The default [`HandEvaluator`]: `alea-cards`' table-driven evaluator, its committed handrank
/// tables and its seeded Monte Carlo (parallel over cores, the same result at any thread count).
#[derive(Clone, Copy, Debug, Default)]
pub struct AleaCards;

fn to_cards(cards: &[Card]) -> alea_cards::CardSet {
    let mut set = alea_cards::CardSet::EMPTY;
    for c in cards {
        set.insert(to_card(*c));
    }
    set
}

fn to_card(c: Card) -> alea_cards::Card {
    // Card fields are in range by construction (`Card::parse`, `Card::from_code`); clamp anyway
    // so a hand-built Card cannot panic.
    let rank = alea_cards::Rank::from_value(c.rank.clamp(2, 14)).unwrap_or(alea_cards::Rank::Ace);
    let suit =
        alea_cards::Suit::from_openholdem_index(c.suit.min(3)).unwrap_or(alea_cards::Suit::Spades);
    alea_cards::Card::new(rank, suit)
}

fn class(hole: [Card; 2]) -> alea_cards::HoldingClass {
    alea_cards::HoldingClass::of(to_card(hole[0]), to_card(hole[1]))
}

impl HandEvaluator for AleaCards {
    fn pokerval(&self, cards: &[Card]) -> u32 {
        let set = to_cards(cards);
        // At most 7 cards reach here (hero + board); more would be a caller's bug: value 0.
        if set.len() > 7 {
            0
        } else {
            alea_cards::pokerval(set)
        }
    }

    fn handrank169(&self, hole: [Card; 2], opponents: u32) -> u32 {
        alea_cards::handrank(class(hole), opponents as usize).0
    }

    fn handrank2652(&self, hole: [Card; 2], opponents: u32) -> u32 {
        alea_cards::handrank(class(hole), opponents as usize).1
    }

    /// Spec §5.4 by [`alea_cards::simulate`], seeded with one draw of `rng`. Iterations are
    /// capped at [`alea_cards::MAX_ITERATIONS`] (the machine warns first); an impossible
    /// request (a card twice, too many opponents for the deck) gives all zeros.
    fn equity(
        &self,
        hero: [Card; 2],
        board: &[Card],
        opponents: u32,
        iterations: u64,
        rng: &mut Rng,
    ) -> Equity {
        let seed = rng.next_u64();
        let board: Vec<alea_cards::Card> = board.iter().map(|&c| to_card(c)).collect();
        let req = alea_cards::EquityRequest::new(
            [to_card(hero[0]), to_card(hero[1])],
            &board,
            opponents as usize,
        );
        let iterations = iterations.min(alea_cards::MAX_ITERATIONS);
        match alea_cards::simulate(&req, iterations, seed) {
            Ok(t) => Equity {
                win: t.win(),
                tie: t.tie(),
                lose: t.lose(),
            },
            Err(_) => Equity::default(),
        }
    }
}

fn set_cards(set: CardSet, hero: &[Card], board: &[Card], buf: &mut Vec<Card>) -> bool {
    buf.clear();
    match set {
        CardSet::All => {
            if hero.is_empty() {
                return false;
            }
            buf.extend_from_slice(hero);
            buf.extend_from_slice(board);
        }
        CardSet::Player => {
            if hero.is_empty() {
                return false;
            }
            buf.extend_from_slice(hero);
        }
        CardSet::Common => buf.extend_from_slice(board),
    }
    true
}

fn rank_mask(cards: &[Card]) -> u32 {
    cards.iter().fold(0, |m, c| m | (1 << c.rank))
}

/// Longest run of consecutive ranks in a rank mask (ace high and low), at most 5.
pub(crate) fn longest_run(mask: u32) -> u32 {
    let m = if mask & (1 << 14) != 0 {
        mask | 2
    } else {
        mask
    };
    let (mut best, mut run) = (0, 0);
    for r in 1..=14 {
        if m & (1 << r) != 0 {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best.min(5)
}

/// 5 − the most distinct ranks in one straight window A-5 … T-A.
pub(crate) fn straight_fill(mask: u32) -> u32 {
    let m = if mask & (1 << 14) != 0 {
        mask | 2
    } else {
        mask
    };
    let best = (1..=10)
        .map(|lo| (m >> lo & 0x1F).count_ones())
        .max()
        .unwrap_or(0);
    5 - best
}

fn pattern_matches(p: HandPattern, hero: &[Card]) -> bool {
    let [a, b] = [hero[0], hero[1]];
    let rank_ok = |want: u8, c: Card| want == 0 || want == c.rank;
    let ranks = if p.two {
        (rank_ok(p.ranks[0], a) && rank_ok(p.ranks[1], b))
            || (rank_ok(p.ranks[0], b) && rank_ok(p.ranks[1], a))
    } else {
        rank_ok(p.ranks[0], a) || rank_ok(p.ranks[0], b)
    };
    let suited = a.suit == b.suit;
    ranks && p.suited.is_none_or(|s| s == suited)
}

/// Value of a card symbol that needs no hand evaluator; `None` for other symbols.
pub fn plain_card_value(symbol: Symbol, hero: &[Card], board: &[Card]) -> Option<f64> {
    use Symbol::*;
    let have_hero = hero.len() == 2;
    let mut buf = Vec::with_capacity(7);
    let v = match symbol {
        Card(field, common, idx) => {
            let c = if common {
                board.get(idx as usize)
            } else {
                hero.get(idx as usize)
            };
            match (field, c) {
                (CardField::Code, Some(c)) => f64::from(c.code()),
                (CardField::Code, None) => 254.0,
                (CardField::Rank, Some(c)) => f64::from(c.rank),
                (CardField::Suit, Some(c)) => f64::from(c.suit),
                (_, None) => -1.0,
            }
        }
        Hand(p) => f64::from(u8::from(have_hero && pattern_matches(p, hero))),
        IsPair => f64::from(u8::from(have_hero && hero[0].rank == hero[1].rank)),
        IsSuited => f64::from(u8::from(have_hero && hero[0].suit == hero[1].suit)),
        IsConnector => f64::from(u8::from(
            have_hero && hero[0].rank.abs_diff(hero[1].rank) == 1,
        )),
        NCommonCardsKnown => board.len() as f64,
        NCardsKnown => (hero.len() + if have_hero { board.len() } else { 0 }) as f64,
        NCardsUnknown => (52 - hero.len() - if have_hero { board.len() } else { 0 }) as f64,
        RankBits(set) | RankHi(set) | RankLo(set) | NSuited(set) | TSuit(set) | NRanked(set)
        | TRank(set) | NStraight(set) | NStraightFill(set) => {
            if !set_cards(set, hero, board, &mut buf) {
                return Some(0.0);
            }
            let mask = rank_mask(&buf);
            match symbol {
                RankBits(_) => f64::from(mask | if mask & (1 << 14) != 0 { 2 } else { 0 }),
                RankHi(_) => f64::from(if mask == 0 {
                    0
                } else {
                    31 - mask.leading_zeros()
                }),
                RankLo(_) => f64::from(if mask == 0 { 0 } else { mask.trailing_zeros() }),
                NSuited(_) | TSuit(_) => {
                    let mut count = [0u32; 4];
                    buf.iter().for_each(|c| count[c.suit as usize] += 1);
                    // Ties: clubs, diamonds, hearts, spades.
                    let (mut best_n, mut best_s) = (0, 0);
                    for s in [2u32, 1, 0, 3] {
                        if count[s as usize] > best_n {
                            (best_n, best_s) = (count[s as usize], s);
                        }
                    }
                    let v = if matches!(symbol, NSuited(_)) {
                        best_n
                    } else {
                        best_s
                    };
                    f64::from(v)
                }
                NRanked(_) | TRank(_) => {
                    let mut count = [0u32; 15];
                    buf.iter().for_each(|c| count[c.rank as usize] += 1);
                    let (mut best_n, mut best_r) = (0, 0);
                    for r in (2..=14).rev() {
                        if count[r] > best_n {
                            (best_n, best_r) = (count[r], r as u32);
                        }
                    }
                    f64::from(if matches!(symbol, NRanked(_)) {
                        best_n
                    } else {
                        best_r
                    })
                }
                NStraight(_) => f64::from(longest_run(mask)),
                _ => f64::from(straight_fill(mask)),
            }
        }
        _ => return None,
    };
    Some(v)
}

/// Everything the PV-derived symbols of one state need, computed once.
#[derive(Clone, Debug, Default)]
pub struct PvFacts {
    /// PV(A), PV(H), PV(B).
    pub pv: [u32; 3],
    /// `nouts`, `ncardsbetter`.
    pub nouts: u32,
    /// Unseen cards u with PV(B+u) > PV(A).
    pub ncardsbetter: u32,
    /// `nhands nhandshi nhandslo nhandsti`.
    pub nhands: [u32; 4],
}

const TYPE_MASK: u32 = 0xFF00_0000;

/// Computes the PV facts with an evaluator (only when the hero has cards).
pub fn pv_facts(eval: &dyn HandEvaluator, hero: &[Card], board: &[Card]) -> PvFacts {
    let mut all: Vec<Card> = hero.iter().chain(board).copied().collect();
    let pv_all = eval.pokerval(&all);
    let mut facts = PvFacts {
        pv: [pv_all, eval.pokerval(hero), eval.pokerval(board)],
        ..PvFacts::default()
    };
    if hero.len() != 2 {
        return facts;
    }
    let seen: u64 = all.iter().fold(0, |m, c| m | 1 << c.code());
    let unseen: Vec<Card> = (0..52u8)
        .filter(|c| seen & (1 << c) == 0)
        .map(Card::from_code)
        .collect();
    let mut board_plus: Vec<Card> = board.to_vec();
    for &u in &unseen {
        board_plus.push(u);
        let pv_bu = eval.pokerval(&board_plus);
        board_plus.pop();
        if pv_bu > pv_all {
            facts.ncardsbetter += 1;
        }
        if board.len() < 5 {
            all.push(u);
            let pv_au = eval.pokerval(&all);
            all.pop();
            if pv_au & TYPE_MASK > pv_all & TYPE_MASK
                && pv_au > pv_all
                && pv_au & TYPE_MASK > pv_bu & TYPE_MASK
            {
                facts.nouts += 1;
            }
        }
    }
    let mut other: Vec<Card> = board.to_vec();
    for (i, &a) in unseen.iter().enumerate() {
        for &b in &unseen[i + 1..] {
            other.truncate(board.len());
            other.push(a);
            other.push(b);
            let pv = eval.pokerval(&other);
            facts.nhands[0] += 1;
            match pv.cmp(&pv_all) {
                std::cmp::Ordering::Greater => facts.nhands[1] += 1,
                std::cmp::Ordering::Less => facts.nhands[2] += 1,
                std::cmp::Ordering::Equal => facts.nhands[3] += 1,
            }
        }
    }
    facts
}

/// Value of a PV-derived state symbol from the facts.
pub fn pv_value(symbol: Symbol, facts: &PvFacts, have_hero: bool) -> f64 {
    use Symbol::*;
    if !have_hero && !matches!(symbol, PokerVal(CardSet::Common)) {
        return 0.0;
    }
    let pv = facts.pv[0];
    let v = match symbol {
        PokerVal(CardSet::All) => pv,
        PokerVal(CardSet::Player) => facts.pv[1],
        PokerVal(CardSet::Common) => facts.pv[2],
        IsHandType(bit) => u32::from(pv & TYPE_MASK == bit),
        IsRoyalFlush => u32::from(pv == 0x800E_DCBA),
        NOuts => facts.nouts,
        NCardsBetter => facts.ncardsbetter,
        NHands => facts.nhands[0],
        NHandsHi => facts.nhands[1],
        NHandsLo => facts.nhands[2],
        NHandsTi => facts.nhands[3],
        _ => 0,
    };
    f64::from(v)
}

/// `prwinnow` / `prlosnow` for `n` opponents.
pub fn now_value(symbol: Symbol, facts: &PvFacts, n: u32) -> f64 {
    let [total, _, lo, ti] = facts.nhands.map(f64::from);
    if total == 0.0 {
        return 0.0;
    }
    let n = n as i32;
    match symbol {
        Symbol::PrWinNow => (lo / total).powi(n),
        _ => 1.0 - ((lo + ti) / total).powi(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace()
            .map(|c| Card::parse(c).unwrap())
            .collect()
    }

    #[test]
    fn plain_values_of_the_spec_state() {
        let (h, b) = (cards("Ah Kh"), cards("Qh Jh 2c"));
        let v =
            |name: &str| plain_card_value(crate::symbols::lookup(name).unwrap(), &h, &b).unwrap();
        assert_eq!(v("rankbits"), 30726.0);
        assert_eq!(v("rankbitscommon"), 6148.0);
        assert_eq!(v("nsuited"), 4.0);
        assert_eq!(v("tsuit"), 0.0);
        assert_eq!(v("nstraight"), 4.0);
        assert_eq!(v("nstraightfill"), 1.0);
        assert_eq!(v("nstraightfillcommon"), 3.0);
        assert_eq!(v("$$cr3"), -1.0);
        assert_eq!(v("$$cc3"), 254.0);
        assert_eq!(v("rankhi"), 14.0);
        assert_eq!(v("ranklocommon"), 2.0);
        assert_eq!(v("nranked"), 1.0);
        assert_eq!(v("trank"), 14.0);
    }
}
