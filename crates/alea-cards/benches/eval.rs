//! alea-cards against rs_poker, side by side in one run
//! (`cargo bench -p alea-cards --features peers`; rs_poker is behind that feature):
//!
//! * `eval7`: the same 1,000,000 random 7-card hands (dealt with `alea_core::Rng`), each built
//!   from its seven cards and ranked: alea's `Hand` + `Tables::rank` against rs_poker's
//!   `SevenCardAccum` (its fastest path: the same additive-key perfect-hash design);
//! * `prwin`: Monte Carlo iterations of hero AhKh against one random opponent preflop on one
//!   thread: alea's `simulate` (OpenHoldem's prwin) against rs_poker's
//!   `MonteCarloGame::estimate_equity`.
//!
//! Throughput is in items per second; docs/performance/cards.md has the ratios.

use alea_cards::{Card, EquityRequest, Hand, Tables, deck, parse_cards, simulate};
use alea_core::Rng;
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use rs_poker::core as rsp;

const HANDS: usize = 1_000_000;
const PRWIN_ITERATIONS: u64 = 100_000;

fn main() {
    divan::main();
}

fn random_hands() -> Vec<[Card; 7]> {
    let mut rng = Rng::seed_from_u64(2026);
    let mut d = deck();
    (0..HANDS)
        .map(|_| {
            // Partial Fisher–Yates: the first seven cards are a uniform 7-card hand.
            for j in 0..7 {
                let k = j + rng.below((52 - j) as u64) as usize;
                d.swap(j, k);
            }
            [d[0], d[1], d[2], d[3], d[4], d[5], d[6]]
        })
        .collect()
}

fn to_rs_poker(c: Card) -> rsp::Card {
    let value = rsp::Value::from_u8(c.rank().index() as u8);
    let suit = match c.suit() {
        alea_cards::Suit::Spades => rsp::Suit::Spade,
        alea_cards::Suit::Clubs => rsp::Suit::Club,
        alea_cards::Suit::Hearts => rsp::Suit::Heart,
        alea_cards::Suit::Diamonds => rsp::Suit::Diamond,
    };
    rsp::Card::new(value, suit)
}

mod eval7 {
    use super::*;

    #[divan::bench]
    fn alea(bencher: Bencher) {
        let hands = random_hands();
        let tables = Tables::get();
        bencher.counter(ItemsCount::new(HANDS)).bench(|| {
            let mut sum = 0u64;
            for h in black_box(&hands) {
                let hand = h.iter().fold(Hand::new(), |acc, &c| acc.with(c));
                sum += u64::from(tables.rank(hand).value());
            }
            sum
        });
    }

    #[divan::bench]
    fn rs_poker(bencher: Bencher) {
        let hands: Vec<[rsp::Card; 7]> =
            random_hands().iter().map(|h| h.map(to_rs_poker)).collect();
        bencher.counter(ItemsCount::new(HANDS)).bench(|| {
            let mut sum = 0u64;
            for h in black_box(&hands) {
                let mut acc = rsp::SevenCardAccum::new();
                for &c in h {
                    acc.add(c);
                }
                sum += u64::from(acc.rank().value_bits());
            }
            sum
        });
    }
}

mod prwin {
    use super::*;

    #[divan::bench]
    fn alea(bencher: Bencher) {
        let hero: [Card; 2] = parse_cards("Ah Kh").unwrap().try_into().unwrap();
        let req = EquityRequest::new(hero, &[], 1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        bencher
            .counter(ItemsCount::new(PRWIN_ITERATIONS as usize))
            .bench(|| pool.install(|| simulate(black_box(&req), PRWIN_ITERATIONS, 1).unwrap()));
    }

    #[divan::bench]
    fn rs_poker(bencher: Bencher) {
        let hero = rsp::Hand::new_with_cards(
            parse_cards("Ah Kh")
                .unwrap()
                .into_iter()
                .map(to_rs_poker)
                .collect(),
        );
        let mut game = rs_poker::holdem::MonteCarloGame::new(vec![hero, rsp::Hand::new()]).unwrap();
        bencher
            .counter(ItemsCount::new(PRWIN_ITERATIONS as usize))
            .bench_local(|| game.estimate_equity(black_box(PRWIN_ITERATIONS as usize)));
    }
}
