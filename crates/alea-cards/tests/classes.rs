//! The evaluator against independent facts: the 7,462 hand classes and their order, the
//! category counts over every 5-card and every 7-card hand, and best-of-subsets for 6 and 7.

use alea_cards::{Card, Category, HAND_CLASSES, Hand, HandRank, Tables, deck, evaluate};
use alea_core::Rng;
use rayon::prelude::*;
use std::collections::HashMap;

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// A naive, independent 5-card key: (category 0..8, ranks ordered by count then rank),
/// with the wheel's ace counted low. Written without the crate's code.
fn naive_key(cards: &[Card; 5]) -> (u8, Vec<u8>) {
    let mut counts = [0u8; 15];
    for c in cards {
        counts[c.rank().value() as usize] += 1;
    }
    let mut groups: Vec<(u8, u8)> = (2..15u8)
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (counts[r as usize], r))
        .collect();
    groups.sort_by(|a, b| b.cmp(a));
    let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
    let mut ranks: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let distinct = groups.len() == 5;
    let straight = distinct && (ranks[0] - ranks[4] == 4 || ranks == [14, 5, 4, 3, 2]);
    if straight && ranks[0] == 14 && ranks[1] == 5 {
        ranks = vec![5, 4, 3, 2, 1];
    }
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let category = match (straight, flush, shape.as_slice()) {
        (true, true, _) => 8,
        (_, _, [4, 1]) => 7,
        (_, _, [3, 2]) => 6,
        (_, true, _) => 5,
        (true, _, _) => 4,
        (_, _, [3, 1, 1]) => 3,
        (_, _, [2, 2, 1]) => 2,
        (_, _, [2, 1, 1, 1]) => 1,
        _ => 0,
    };
    (category, ranks)
}

fn all_five_card_hands(mut f: impl FnMut(&[Card; 5])) {
    let d = deck();
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for e in c + 1..52 {
                    for g in e + 1..52 {
                        f(&[d[a], d[b], d[c], d[e], d[g]]);
                    }
                }
            }
        }
    }
}

#[test]
fn the_7462_classes_in_poker_order() {
    // The count, derived from the categories' combinatorics.
    let straights = 10;
    let no_pair = binomial(13, 5) - straights;
    let expected = no_pair                     // high card
        + 13 * binomial(12, 3)                 // one pair
        + binomial(13, 2) * 11                 // two pair
        + 13 * binomial(12, 2)                 // three of a kind
        + straights                            // straight
        + no_pair                              // flush
        + 13 * 12                              // full house
        + 13 * 12                              // four of a kind
        + straights; // straight flush (royal included)
    assert_eq!(expected, 7462);
    assert_eq!(HAND_CLASSES as u64, expected);

    // Every 5-card hand: the naive key must determine the rank, and sorting the distinct naive
    // keys must give ranks 1, 2, … 7462 in order.
    let tables = Tables::get();
    let mut by_key: HashMap<(u8, Vec<u8>), u16> = HashMap::new();
    let mut hands = 0u64;
    all_five_card_hands(|h| {
        hands += 1;
        let rank = tables.rank(Hand::from_cards(h)).value();
        let old = by_key.entry(naive_key(h)).or_insert(rank);
        assert_eq!(*old, rank, "{h:?}");
    });
    assert_eq!(hands, binomial(52, 5));
    assert_eq!(by_key.len(), 7462);
    let mut keys: Vec<_> = by_key.into_iter().collect();
    keys.sort();
    let ranks: Vec<u16> = keys.iter().map(|k| k.1).collect();
    let expected: Vec<u16> = (1..=7462).collect();
    assert_eq!(ranks, expected);
}

fn category_index(c: Category) -> usize {
    c as usize
}

#[test]
fn category_counts_over_all_five_card_hands() {
    let tables = Tables::get();
    let mut counts = [0u64; 10];
    all_five_card_hands(|h| {
        counts[category_index(tables.rank(Hand::from_cards(h)).category())] += 1
    });
    // high card … royal flush (straight flushes exclude the 4 royals).
    assert_eq!(
        counts,
        [
            1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4
        ]
    );
}

#[test]
fn category_counts_over_all_seven_card_hands() {
    // All C(52,7) = 133,784,560 hands, built incrementally, in parallel over the first card.
    let tables = Tables::get();
    let d = deck();
    let counts = (0..52)
        .into_par_iter()
        .map(|a| {
            let mut counts = vec![0u64; 7463];
            let ha = Hand::new().with(d[a]);
            for b in a + 1..52 {
                let hb = ha.with(d[b]);
                for c in b + 1..52 {
                    let hc = hb.with(d[c]);
                    for e in c + 1..52 {
                        let he = hc.with(d[e]);
                        for g in e + 1..52 {
                            let hg = he.with(d[g]);
                            for i in g + 1..52 {
                                let hi = hg.with(d[i]);
                                for j in i + 1..52 {
                                    counts[tables.rank(hi.with(d[j])).value() as usize] += 1;
                                }
                            }
                        }
                    }
                }
            }
            counts
        })
        .reduce(
            || vec![0u64; 7463],
            |mut x, y| {
                for (a, b) in x.iter_mut().zip(y) {
                    *a += b;
                }
                x
            },
        );
    let mut by_category = [0u64; 10];
    for (v, &n) in counts.iter().enumerate().skip(1) {
        by_category[category_index(HandRank::from_value(v as u16).unwrap().category())] += n;
    }
    assert_eq!(counts[0], 0);
    assert_eq!(by_category.iter().sum::<u64>(), binomial(52, 7));
    assert_eq!(
        by_category,
        [
            23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
            224_848, 37_260, 4_324
        ]
    );
    // 4,824 of the 7,462 classes can be the best five of seven cards.
    assert_eq!(counts.iter().filter(|&&n| n > 0).count(), 4824);
}

/// The best of all 5-card subsets, by the 5-card evaluator.
fn best_subset(cards: &[Card]) -> HandRank {
    let n = cards.len();
    let mut best = HandRank::WORST;
    for mask in 0u32..1 << n {
        if mask.count_ones() == 5 {
            let five: Vec<Card> = (0..n)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| cards[i])
                .collect();
            best = best.max(evaluate(&five).unwrap());
        }
    }
    best
}

#[test]
fn six_and_seven_cards_are_the_best_five() {
    let mut rng = Rng::seed_from_u64(6);
    let mut d = deck();
    for round in 0..20_000 {
        rng.shuffle(&mut d);
        let n = 6 + round % 2;
        let cards = &d[..n];
        assert_eq!(evaluate(cards).unwrap(), best_subset(cards), "{cards:?}");
    }
}
