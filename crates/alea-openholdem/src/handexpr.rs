//! `hand$…` and `board$…` expressions (CSymbolEngineOpenPPLHandAndBoardExpression::
//! EvaluateSymbol, OH 14): the ranks named must all be present (with multiplicity), a rank
//! followed by a suit (`Ah`) names that card, and a trailing `suited` asks the hero's cards to
//! be suited (a hand) or the ranks to be among the board's flush suit (a board).

use crate::cards::Card;

/// A parsed expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandExpr {
    /// How often each rank 2..=14 is named (index rank − 2).
    pub ranks: [u8; 13],
    /// Card codes named with their suit.
    pub cards: u64,
    /// Ends in `suited`.
    pub suited: bool,
}

fn rank_of(c: u8) -> Option<u8> {
    b"23456789TJQKA"
        .iter()
        .position(|&r| r == c.to_ascii_uppercase())
        .map(|p| p as u8 + 2)
}

fn suit_of(c: u8) -> Option<u8> {
    b"hdcs".iter().position(|&s| s == c).map(|p| p as u8)
}

/// Parses the part after `hand$` / `board$`; `None` for a character that is neither a rank nor
/// a suit, or nothing at all.
pub fn parse(s: &str) -> Option<HandExpr> {
    let (body, suited) = match s.len().checked_sub(6) {
        Some(k) if s.is_char_boundary(k) && s[k..].eq_ignore_ascii_case("suited") => {
            (&s[..k], true)
        }
        _ => (s, false),
    };
    let b = body.as_bytes();
    if b.is_empty() {
        return None;
    }
    let mut e = HandExpr {
        ranks: [0; 13],
        cards: 0,
        suited,
    };
    let mut i = 0;
    while i < b.len() {
        let r = rank_of(b[i])?;
        e.ranks[r as usize - 2] += 1;
        if let Some(suit) = b.get(i + 1).and_then(|&c| suit_of(c)) {
            e.cards |= 1 << (13 * suit + r - 2);
            i += 2;
        } else {
            i += 1;
        }
    }
    Some(e)
}

/// True when a hand expression ends in a rank and `s` (`AKs`): OH 14 refuses it as probably
/// meaning `AKsuited` (`CheckForProbablyMistakenSpadesInsteadOfSuited`).
pub fn mistaken_spades(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 3
        && b[b.len() - 1] == b's'
        && rank_of(b[b.len() - 2]).is_some()
        && rank_of(b[b.len() - 3]).is_some()
}

/// Evaluates against the hero's cards (`board` false) or the board.
pub fn matches(e: &HandExpr, cards: &[Card], is_board: bool, board_flush_ranks: u32) -> bool {
    let mut have = [0u8; 13];
    let mut codes = 0u64;
    for c in cards {
        have[c.rank as usize - 2] += 1;
        codes |= 1 << c.code();
    }
    if e.ranks.iter().zip(&have).any(|(want, got)| want > got) {
        return false;
    }
    if e.suited {
        if is_board {
            let want = e
                .ranks
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .fold(0u32, |m, (r, _)| m | 1 << (r + 2));
            if want & board_flush_ranks != want {
                return false;
            }
        } else if !(cards.len() == 2 && cards[0].suit == cards[1].suit) {
            return false;
        }
    }
    e.cards & codes == e.cards
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &[&str]) -> Vec<Card> {
        s.iter().map(|c| Card::parse(c).unwrap()).collect()
    }

    #[test]
    fn expressions() {
        let hero = cards(&["Ah", "Kh"]);
        let m = |s: &str| matches(&parse(s).unwrap(), &hero, false, 0);
        assert!(m("A") && m("AK") && m("KA") && m("AKsuited") && m("Ah") && m("KhA"));
        assert!(!m("AA") && !m("Q") && !m("As"));
        let board = cards(&["9c", "9d", "5c"]);
        // The flush suit of the board is clubs: ranks 9 and 5 (bits 9 and 5).
        let b = |s: &str| matches(&parse(s).unwrap(), &board, true, (1 << 9) | (1 << 5));
        assert!(b("99") && b("995") && b("95suited") && !b("999") && !b("A"));
        assert!(parse("10").is_none() && parse("").is_none());
        assert!(mistaken_spades("AKs") && !mistaken_spades("AKsuited") && !mistaken_spades("KsA"));
    }
}
