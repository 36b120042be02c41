//! Values of the catalogue's added names ([`crate::catalog`]) from a [`TableState`] and the cards.
//! Each function cites the OH 14 engine whose meaning it follows.

use crate::cards::{self, Card, HandEvaluator};
use crate::catalog::{self, Prefix, Source};
use crate::state::{SymbolProvider, TableState};
use crate::symbols::{CardSet, Symbol};

/// The value of a full-catalogue symbol, or the default and the warning to give when the state
/// cannot tell it.
pub(crate) fn catalog_symbol(
    provider: &dyn SymbolProvider,
    eval: &dyn HandEvaluator,
    sym: Symbol,
    name: &str,
) -> Result<f64, (f64, String)> {
    let (hero, board) = (provider.hero(), provider.board());
    let source = catalog::source_of(sym, name);
    let value = match (sym, source) {
        (Symbol::Prefix(p @ (Prefix::Hand | Prefix::Board)), _) => {
            let is_board = p == Prefix::Board;
            let rest = &name[if is_board { 6 } else { 5 }..];
            let flush = cards::plain_card_value(Symbol::TSuit(CardSet::Common), hero, board)
                .map_or(0, |s| s as u8);
            let flush_ranks = board
                .iter()
                .filter(|c| c.suit == flush)
                .fold(0u32, |m, c| m | 1 << c.rank);
            let cs = if is_board { board } else { hero };
            let hit = crate::handexpr::parse(rest)
                .is_some_and(|e| crate::handexpr::matches(&e, cs, is_board, flush_ranks));
            Some(f64::from(u8::from(hit)))
        }
        (_, Source::Table | Source::History) => provider.catalog_value(name),
        (_, Source::Cards) => card_value(name, hero, board, eval),
        (_, Source::Constant) => Some(0.0),
        // The machine computes ICM itself (it needs the f$icm_prize values): crate::icm.
        (_, Source::Live(_) | Source::Icm) => None,
    };
    if let Some(v) = value {
        return Ok(v);
    }
    let (default, why) = match source {
        Source::Live(d) => (d, "is known only at a live table"),
        _ => (
            catalog::history_default(name),
            "comes from the hand's betting history (the state's \"history\")",
        ),
    };
    Err((
        default,
        format!(
            "symbol '{name}' {why} and the state does not give it: {} (or set it in the state's \"symbols\")",
            crate::ops::format_value(default)
        ),
    ))
}

/// `PREFLOP_POS` for `n` dealt and deal position `pos` (0 when out of the table).
pub(crate) fn preflop_pos(n: usize, pos: usize) -> f64 {
    pos.checked_sub(1)
        .and_then(|i| PREFLOP_POS[n.min(10)].get(i))
        .map_or(0.0, |&v| f64::from(v))
}

/// OH 14's position classes by players dealt (`CSymbolEnginePokerAction::PreflopPos`):
/// `PREFLOP_POS[n][dealposition − 1]`, SB 1, BB 2, early 3, middle 4, late 5, dealer 6.
const PREFLOP_POS: [&[u8]; 11] = [
    &[],
    &[],
    &[2, 6],
    &[1, 2, 6],
    &[1, 2, 5, 6],
    &[1, 2, 5, 5, 6],
    &[1, 2, 4, 5, 5, 6],
    &[1, 2, 4, 4, 5, 5, 6],
    &[1, 2, 3, 4, 4, 5, 5, 6],
    &[1, 2, 3, 3, 4, 4, 5, 5, 6],
    &[1, 2, 3, 3, 3, 4, 4, 5, 5, 6],
];

/// `CSymbolEnginePokerAction::PostflopPos`: `POSTFLOP_POS[n][betposition − 1]` by players
/// playing, first 1, early 2, middle 3, late 4, last 5.
const POSTFLOP_POS: [&[u8]; 11] = [
    &[],
    &[],
    &[1, 5],
    &[1, 4, 5],
    &[1, 3, 4, 5],
    &[1, 2, 3, 4, 5],
    &[1, 2, 3, 4, 4, 5],
    &[1, 2, 3, 3, 4, 4, 5],
    &[1, 2, 2, 3, 3, 4, 4, 5],
    &[1, 2, 2, 3, 3, 3, 4, 4, 5],
    &[1, 2, 2, 2, 3, 3, 3, 4, 4, 5],
];

impl TableState {
    fn bits_of(&self, f: impl Fn(&crate::state::Player) -> bool) -> u32 {
        self.players
            .iter()
            .filter(|p| f(p))
            .fold(0u32, |m, p| m | 1 << p.chair)
    }

    /// Chairs clockwise from the one after the dealer, ending with the dealer.
    fn chairs_after_dealer(&self) -> impl Iterator<Item = u8> + '_ {
        (1..=self.nchairs).map(move |k| (self.dealerchair + k) % self.nchairs)
    }

    /// `CSymbolEnginePokerAction::DealPosition`: 1 for the first dealt chair after the
    /// dealer … the dealer last; 0 when not dealt.
    pub(crate) fn deal_position(&self, chair: u8) -> f64 {
        self.position(chair, self.bits_of(|p| p.dealt))
    }

    /// `CSymbolEnginePokerAction::BetPosition`: the same over the players still playing.
    fn bet_position(&self, chair: u8) -> f64 {
        self.position(chair, self.bits_of(|p| p.playing))
    }

    fn position(&self, chair: u8, bits: u32) -> f64 {
        if bits & (1 << chair) == 0 {
            return 0.0;
        }
        let mut n = 0;
        for c in self.chairs_after_dealer() {
            if bits & (1 << c) != 0 {
                n += 1;
            }
            if c == chair {
                break;
            }
        }
        f64::from(n)
    }

    fn ndealt(&self) -> usize {
        self.players.iter().filter(|p| p.dealt).count()
    }

    fn chair_by_deal_position(&self, pos: usize) -> f64 {
        (0..self.nchairs)
            .find(|&c| self.deal_position(c) == pos as f64)
            .map_or(-1.0, f64::from)
    }

    /// `CSymbolEngineChairs::ChairByLogicalPosition`: counted back from the dealer (cut-off
    /// 1, MP3 2, MP2 3, MP1 4, EP3 5, EP2 6, EP1 7); -1 when that seat posts a blind.
    fn chair_by_offset(&self, offset: usize) -> f64 {
        let n = self.ndealt();
        match n.checked_sub(offset) {
            Some(pos) if pos > 2 => self.chair_by_deal_position(pos),
            _ => -1.0,
        }
    }

    fn stack_chair(&self, big: bool) -> f64 {
        let mut best: Option<(f64, u8)> = None;
        for p in &self.players {
            if p.chair == self.userchair || !p.playing {
                continue;
            }
            let better = match best {
                None => true,
                Some((b, _)) => {
                    if big {
                        p.balance > b
                    } else {
                        p.balance < b
                    }
                }
            };
            if better {
                best = Some((p.balance, p.chair));
            }
        }
        best.map_or(-1.0, |(_, c)| f64::from(c))
    }

    /// Blind posters (CSymbolEngineBlinds): the small and big blind chairs.
    fn blind_bits(&self) -> (u32, u32) {
        let (sb, bb) = self.blind_chairs();
        let bit = |c: f64| if c >= 0.0 { 1u32 << c as u32 } else { 0 };
        (bit(sb) | bit(bb), bit(bb))
    }

    /// The value of an added table name; `None` for names that are not table names.
    pub(crate) fn catalog_table_value(&self, name: &str) -> Option<f64> {
        let hero = self.userchair;
        let b = |x: bool| f64::from(u8::from(x));
        let v = match name {
            "buttonchair" => f64::from(self.dealerchair),
            // Hold'em only (CSymbolEngineIsOmaha).
            "isomaha" => 0.0,
            "headsupchair" => {
                let opp: Vec<u8> = self
                    .players
                    .iter()
                    .filter(|p| p.playing && p.chair != hero)
                    .map(|p| p.chair)
                    .collect();
                if opp.len() == 1 {
                    f64::from(opp[0])
                } else {
                    -1.0
                }
            }
            "cutoffchair" => self.chair_by_offset(1),
            "mp3chair" => self.chair_by_offset(2),
            "mp2chair" => self.chair_by_offset(3),
            "mp1chair" => self.chair_by_offset(4),
            "ep3chair" => self.chair_by_offset(5),
            "ep2chair" => self.chair_by_offset(6),
            "ep1chair" => self.chair_by_offset(7),
            "utgchair" => {
                if self.ndealt() <= 2 {
                    -1.0
                } else {
                    self.chair_by_deal_position(3)
                }
            }
            // The state names both blinds' posters from the dealer, so none is missing.
            "missingsmallblind" => 0.0,
            "smallstackchair" => self.stack_chair(false),
            "bigstackchair" => self.stack_chair(true),
            "nchairsdealtright" | "nchairsdealtleft" => {
                let dealt = self.bits_of(|p| p.dealt);
                let (mut right, mut left, mut found) = (0, 0, false);
                for c in self.chairs_after_dealer() {
                    if c == hero {
                        found = true;
                    } else if dealt & (1 << c) != 0 {
                        if found {
                            left += 1;
                        } else {
                            right += 1;
                        }
                    }
                }
                f64::from(if name.ends_with("right") { right } else { left })
            }
            "betposition" => self.bet_position(hero),
            "dealposition" => self.deal_position(hero),
            "ac_preflop_pos" => preflop_pos(self.ndealt(), self.deal_position(hero) as usize),
            // CSymbolEngineChecksBetsFolds: players in the hand below the largest bet, and
            // opponents in the hand with nothing in this round.
            "nplayerscallshort" => {
                let top = self.players.iter().map(|p| p.bet).fold(0.0, f64::max);
                self.players
                    .iter()
                    .filter(|p| p.playing && p.bet < top)
                    .count() as f64
            }
            "nopponentschecking" => self
                .players
                .iter()
                .filter(|p| p.playing && p.chair != hero && p.bet == 0.0)
                .count() as f64,
            "ac_postflop_pos" => {
                let pos = self.bet_position(hero) as usize;
                let n = self.players.iter().filter(|p| p.playing).count();
                pos.checked_sub(1)
                    .and_then(|i| POSTFLOP_POS[n.min(10)].get(i))
                    .map_or(0.0, |&v| f64::from(v))
            }
            // CSymbolEnginePokerAction::FirstIntoPot: nobody has put in more than the blinds.
            "ac_first_into_pot" => {
                let potplayer: f64 = self.players.iter().map(|p| p.bet).sum();
                if self.betround == 1 {
                    b(potplayer <= self.sblind + self.bblind + 1e-9)
                } else {
                    b(potplayer == 0.0)
                }
            }
            "playersallinbits" => f64::from(self.bits_of(|p| p.playing && p.balance == 0.0)),
            "opponentsallinbits" => {
                f64::from(self.bits_of(|p| p.playing && p.balance == 0.0 && p.chair != hero))
            }
            // The most players dealt this hand: offline, the players dealt now.
            "maxnplayersdealt" => self.ndealt() as f64,
            "playersblindbits" => f64::from(self.blind_bits().0),
            "opponentsblindbits" => f64::from(self.blind_bits().0 & !(1 << hero)),
            "bblindbits" => f64::from(self.blind_bits().1),
            "nplayersblind" => f64::from(self.blind_bits().0.count_ones()),
            "nopponentsblind" => f64::from((self.blind_bits().0 & !(1 << hero)).count_ones()),
            // CSymbolEngineVariousDataLookup: the highest flag pressed, 0 for none.
            "fmax" => self
                .flags
                .iter()
                .rposition(|&f| f)
                .map_or(0.0, |i| i as f64),
            _ => {
                if let Some(i) = index_after(name, "ac_betpos", 9) {
                    self.bet_position(i)
                } else if let Some(i) = index_after(name, "ac_dealpos", 9) {
                    self.deal_position(i)
                } else if let Some(i) = index_after(name, "balance_rank", 9) {
                    // CSymbolEngineChipAmounts::SortedBalance: balance + bet of every chair,
                    // largest first.
                    let mut s: Vec<f64> = (0..10)
                        .map(|c| self.players.iter().find(|p| p.chair == c))
                        .map(|p| p.map_or(0.0, |p| p.balance + p.bet))
                        .collect();
                    s.sort_by(|a, b| b.total_cmp(a));
                    s[i as usize]
                } else {
                    return None;
                }
            }
        };
        Some(v)
    }

    /// `chair$NAME` and `chairbit$NAME` (CSymbolEngineCasino::Chair$): the first chair whose
    /// player's name contains NAME.
    pub(crate) fn chair_of(&self, name: &str) -> Option<u8> {
        self.players
            .iter()
            .find(|p| p.name.as_deref().is_some_and(|n| n.contains(name)))
            .map(|p| p.chair)
    }
}

fn index_after(name: &str, prefix: &str, max: u8) -> Option<u8> {
    let rest = name.strip_prefix(prefix)?;
    let v: u8 = rest.parse().ok()?;
    (rest.len() == 1 && v <= max).then_some(v)
}

fn rank_bits(cards: &[Card]) -> u32 {
    let m = cards.iter().fold(0u32, |m, c| m | 1 << c.rank);
    m | if m & (1 << 14) != 0 { 2 } else { 0 }
}

fn hi(bits: u32) -> f64 {
    if bits == 0 {
        0.0
    } else {
        f64::from(31 - bits.leading_zeros())
    }
}

fn lo(bits: u32) -> f64 {
    // The ace's low bit 1 does not count as the lowest rank.
    let bits = bits & !2;
    if bits == 0 {
        0.0
    } else {
        f64::from(bits.trailing_zeros())
    }
}

/// The five ranks of a pokerval, highest nibble first.
fn pv_ranks(pv: u32) -> [u8; 5] {
    [16, 12, 8, 4, 0].map(|s| ((pv >> s) & 0xF) as u8)
}

/// The value of an added card name; `None` for names that are not card names.
pub(crate) fn card_value(
    name: &str,
    hero: &[Card],
    board: &[Card],
    eval: &dyn HandEvaluator,
) -> Option<f64> {
    let all: Vec<Card> = hero.iter().chain(board).copied().collect();
    let tsuit =
        |set| cards::plain_card_value(Symbol::TSuit(set), hero, board).map_or(0, |v| v as u8);
    let of_suit =
        |cs: &[Card], s: u8| -> Vec<Card> { cs.iter().copied().filter(|c| c.suit == s).collect() };
    let have_hero = hero.len() == 2;
    // $$pc2 … : no third or fourth hole card in hold'em.
    if let Some(rest) = name.strip_prefix("$$p") {
        return Some(if rest.starts_with('c') { 254.0 } else { -1.0 });
    }
    if let Some(s) = name
        .strip_prefix("suitbitsplayer")
        .or(name.strip_prefix("suitbitscommon"))
    {
        let suit: u8 = s.parse().ok()?;
        let cs = if name.contains("player") { hero } else { board };
        return Some(f64::from(rank_bits(&of_suit(cs, suit))));
    }
    // CSymbolEngineCards: straights of one suit.
    if let Some(rest) = name.strip_prefix("nstraightflush") {
        let (fill, common) = match rest {
            "" => (false, false),
            "common" => (false, true),
            "fill" => (true, false),
            "fillcommon" => (true, true),
            _ => return None,
        };
        let cs: &[Card] = if common { board } else { &all };
        if !common && !have_hero {
            return Some(0.0);
        }
        let mut best_len = 0u32;
        let mut best_fill = 5u32;
        for s in 0..4 {
            let bits = rank_bits(&of_suit(cs, s));
            best_len = best_len.max(cards::longest_run(bits));
            best_fill = best_fill.min(cards::straight_fill(bits));
        }
        return Some(f64::from(if fill { best_fill } else { best_len }));
    }
    let pv = if have_hero { eval.pokerval(&all) } else { 0 };
    let poker_bits = || {
        if pv == 0 {
            return 0;
        }
        let m = pv_ranks(pv).iter().fold(0u32, |m, &r| m | 1 << r);
        m | if m & (1 << 14) != 0 { 2 } else { 0 }
    };
    let ts = tsuit(CardSet::All);
    let srank_player = rank_bits(&of_suit(hero, ts));
    let srank_common = rank_bits(&of_suit(board, tsuit(CardSet::Common)));
    let srank_commonp = rank_bits(&of_suit(board, ts));
    let srank_poker = || {
        if pv == 0 {
            return 0;
        }
        let m = pv_ranks(pv)
            .iter()
            .filter(|&&r| all.iter().any(|c| c.rank == r && c.suit == ts))
            .fold(0u32, |m, &r| m | 1 << r);
        m | if m & (1 << 14) != 0 { 2 } else { 0 }
    };
    let rankbits = |set: &str| -> u32 {
        match set {
            "" => rank_bits(if have_hero { &all } else { &[] }),
            "common" => rank_bits(board),
            "player" => rank_bits(hero),
            _ => poker_bits(),
        }
    };
    let srankbits = |set: &str| -> u32 {
        if !have_hero && set != "common" {
            return 0;
        }
        match set {
            "" => srank_player | srank_commonp,
            "common" => srank_common,
            "player" => srank_player,
            _ => srank_poker(),
        }
    };
    for (stem, f) in [
        ("srankbits", 0u8),
        ("srankhi", 1),
        ("sranklo", 2),
        ("rankbits", 3),
        ("rankhi", 4),
        ("ranklo", 5),
    ] {
        if let Some(set) = name.strip_prefix(stem) {
            let bits = if f < 3 { srankbits(set) } else { rankbits(set) };
            return Some(match f % 3 {
                0 => f64::from(bits),
                1 => hi(bits),
                _ => lo(bits),
            });
        }
    }
    if !have_hero {
        return match name {
            "pcbits" | "npcbits" | "ishipair" | "islopair" | "ismidpair" | "ishistraight"
            | "ishiflush" => Some(0.0),
            _ => None,
        };
    }
    let pc = pcbits(pv, hero, ts);
    let kind = pv >> 24;
    let b = |x: bool| Some(f64::from(u8::from(x)));
    match name {
        "pcbits" => Some(f64::from(pc)),
        "npcbits" => Some(f64::from(pc.count_ones())),
        // CSymbolEnginePokerval::CalculateHandType: a pair's rank against the board's.
        "ishipair" | "islopair" | "ismidpair" => {
            if kind != 1 {
                return b(false);
            }
            let r = f64::from(pv_ranks(pv)[0]);
            let (bh, bl) = (hi(rank_bits(board)), lo(rank_bits(board)));
            let class = if board.is_empty() || r >= bh {
                "ishipair"
            } else if r > bl {
                "ismidpair"
            } else {
                "islopair"
            };
            b(board.len() != 1 && board.len() != 2 && class == name)
        }
        // The nut straight: no higher straight is possible with the board.
        "ishistraight" => {
            if kind != 8 {
                return b(false);
            }
            let top = pv_ranks(pv)[0];
            let bb = rank_bits(board);
            let higher = (top + 1..=14).any(|t| {
                let need = (t - 4..=t).filter(|&r| bb & (1 << r) == 0).count();
                need <= 2
            });
            b(!higher)
        }
        // A flush whose best missing card the hero holds (OH: the ace, else king second …).
        "ishiflush" => {
            if kind != 16 {
                return b(false);
            }
            let r = pv_ranks(pv);
            b((r[0] == 14 && pc & 0x10 != 0)
                || (r[1] == 13 && pc & 0x8 != 0)
                || (r[2] == 12 && pc & 0x4 != 0)
                || (r[3] == 11 && pc & 0x2 != 0))
        }
        _ => None,
    }
}

/// `pcbits` (CSymbolEnginePokerval, CalculatePokerval): bit 4 … bit 0 for the five cards of the
/// hand, highest first, set where a hole card is that card (of the flush suit for flushes).
fn pcbits(pv: u32, hero: &[Card], tsuit: u8) -> u32 {
    let flushy = matches!(pv >> 24, 16 | 128);
    let ranks = pv_ranks(pv);
    let mut used = [false; 5];
    let mut bits = 0;
    for h in hero {
        if flushy && h.suit != tsuit {
            continue;
        }
        if let Some(k) = (0..5).find(|&k| !used[k] && ranks[k] == h.rank) {
            used[k] = true;
            bits |= 1 << (4 - k);
        }
    }
    bits
}
