//! Generates `src/handrank_tables.rs`: the 169 starting-hand classes ordered for OpenHoldem's
//! `handrank169` (openholdem.md §5.3, "Handrank tables (Decision)") against 1 to 9 random
//! opponents.
//!
//! * N = 1 is **exact**: every board of C(52,5) (one board per suit-isomorphism orbit, weighted
//!   by the orbit's size) and, for every holding, every opponent holding, by all-in pot equity.
//! * N = 2..9 use [`alea_cards::handrank_order`] (seeded Monte Carlo, common random numbers over
//!   the classes) with `--deals` deals per class.
//!
//! ```sh
//! nice -n 19 cargo run --release -p alea-cards --example handrank_tables -- \
//!     --deals 10000000 --seed 169 > crates/alea-cards/src/handrank_tables.rs
//! rustfmt --edition 2024 crates/alea-cards/src/handrank_tables.rs
//! ```
//! `--only N` prints the order for one N to stderr (for timing); progress goes to stderr.
#![forbid(unsafe_code)]
#![allow(clippy::print_stdout, clippy::print_stderr)]

use alea_cards::{Card, CardSet, Hand, HoldingClass, Tables, handrank_order};
use std::fmt::Write as _;
use std::time::Instant;

/// The 24 permutations of the four suits.
fn suit_permutations() -> Vec<[usize; 4]> {
    let mut out = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    let p = [a, b, c, d];
                    let mut seen = [false; 4];
                    p.iter().for_each(|&s| seen[s] = true);
                    if seen.iter().all(|&s| s) {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

fn permute(mask: u64, p: &[usize; 4]) -> u64 {
    (0..4).fold(0, |m, s| m | ((mask >> (16 * s)) & 0x1FFF) << (16 * p[s]))
}

/// Index of a class in [`HoldingClass::all`].
fn class_index(all: &[HoldingClass], c: HoldingClass) -> usize {
    all.iter().position(|&x| x == c).expect("a class")
}

/// Exact heads-up all-in pot equity of every class, as (class, 2·wins + ties summed over all
/// (holding, board, opponent) deals ÷ combos) — comparable across classes because every holding
/// meets the same number of boards and opponent holdings.
fn exact_heads_up() -> Vec<(HoldingClass, f64)> {
    let all = HoldingClass::all();
    let deck: Vec<Card> = (0..52).filter_map(Card::from_index).collect();
    // class_of[i][j] for card indices.
    let mut class_of = vec![[0u8; 52]; 52];
    for (i, &a) in deck.iter().enumerate() {
        for (j, &b) in deck.iter().enumerate() {
            if i != j {
                class_of[i][j] = class_index(&all, HoldingClass::of(a, b)) as u8;
            }
        }
    }
    let perms = suit_permutations();
    let tables = Tables::get();
    let mut score = vec![0u64; 169];
    let mut boards = 0u64;
    let mut orbits = 0u64;
    let started = Instant::now();
    let n = 52;
    let mut holdings: Vec<(u16, u8, u8)> = Vec::with_capacity(1081);
    let mut sorted_all: Vec<u16> = Vec::with_capacity(1081);
    let mut per_card: Vec<Vec<u16>> = (0..47).map(|_| Vec::with_capacity(46)).collect();
    for c0 in 0..n {
        for c1 in c0 + 1..n {
            for c2 in c1 + 1..n {
                for c3 in c2 + 1..n {
                    for c4 in c3 + 1..n {
                        let cards = [deck[c0], deck[c1], deck[c2], deck[c3], deck[c4]];
                        let mask = CardSet::from_cards(&cards).0;
                        let mut weight = 0u64;
                        let mut canonical = true;
                        let mut images: Vec<u64> = Vec::with_capacity(24);
                        for p in &perms {
                            let m = permute(mask, p);
                            if m < mask {
                                canonical = false;
                                break;
                            }
                            if !images.contains(&m) {
                                images.push(m);
                                weight += 1;
                            }
                        }
                        boards += 1;
                        if !canonical {
                            continue;
                        }
                        orbits += 1;
                        let board = Hand::from_cards(&cards);
                        let rest: Vec<Card> = deck
                            .iter()
                            .copied()
                            .filter(|c| mask & c.mask() == 0)
                            .collect();
                        holdings.clear();
                        sorted_all.clear();
                        per_card.iter_mut().for_each(Vec::clear);
                        for i in 0..47 {
                            let bi = board.with(rest[i]);
                            for j in i + 1..47 {
                                let r = tables.rank(bi.with(rest[j])).value();
                                holdings.push((r, i as u8, j as u8));
                                sorted_all.push(r);
                                per_card[i].push(r);
                                per_card[j].push(r);
                            }
                        }
                        sorted_all.sort_unstable();
                        per_card.iter_mut().for_each(|v| v.sort_unstable());
                        let below = |v: &[u16], r: u16| v.partition_point(|&x| x < r) as u64;
                        let upto = |v: &[u16], r: u16| v.partition_point(|&x| x <= r) as u64;
                        for &(r, i, j) in &holdings {
                            let (i, j) = (usize::from(i), usize::from(j));
                            let (la, lb) = (below(&per_card[i], r), below(&per_card[j], r));
                            let less = below(&sorted_all, r) - la - lb;
                            let eq_all = upto(&sorted_all, r) - below(&sorted_all, r);
                            let eq_a = upto(&per_card[i], r) - la;
                            let eq_b = upto(&per_card[j], r) - lb;
                            // Equal holdings sharing no card with this one (itself excluded).
                            let ties = eq_all + 1 - eq_a - eq_b;
                            let class = class_of[rest[i].index()][rest[j].index()] as usize;
                            score[class] += weight * (2 * less + ties);
                        }
                    }
                }
            }
        }
        eprintln!(
            "exact N=1: first card {c0}: {boards} boards, {orbits} orbits, {:.0?}",
            started.elapsed()
        );
    }
    assert_eq!(boards, 2_598_960, "C(52,5) boards");
    // Every holding meets C(50,5) boards and C(45,2) = 990 opponent holdings.
    let deals_per_holding = 2_118_760.0 * 990.0;
    let mut order: Vec<(HoldingClass, f64)> = all
        .iter()
        .zip(&score)
        .map(|(&c, &s)| {
            let holdings = f64::from(c.ordered_combos() / 2);
            (c, s as f64 / 2.0 / (holdings * deals_per_holding))
        })
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    order
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| -> Option<u64> {
        let at = args.iter().position(|a| a == name)?;
        Some(args.get(at + 1)?.parse().expect("a number"))
    };
    let deals = value("--deals").unwrap_or(10_000_000);
    let seed = value("--seed").unwrap_or(169);
    if let Some(n) = value("--only") {
        let started = Instant::now();
        let order = if n == 1 && value("--mc").is_none() {
            exact_heads_up()
        } else {
            handrank_order(n as usize, deals, seed).expect("valid request")
        };
        for (k, (c, e)) in order.iter().enumerate() {
            eprintln!("{:3} {c:4} {e:.6}", k + 1);
        }
        eprintln!("N={n}: {:.1?}", started.elapsed());
        return;
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! The committed handrank tables (openholdem.md §5.3): generated, do not edit. Regenerate\n\
         //! with (N = 1 takes about 2 minutes; N = 2..9 with 10^7 deals about 25 minutes of CPU\n\
         //! in all, spread over the cores; niced on a busy shared 2-core machine, over an hour):\n\
         //!\n\
         //! ```sh\n\
         //! nice -n 19 cargo run --release -p alea-cards --example handrank_tables -- \\\n\
         //!     --deals {deals} --seed {seed} > crates/alea-cards/src/handrank_tables.rs\n\
         //! rustfmt --edition 2024 crates/alea-cards/src/handrank_tables.rs\n\
         //! ```\n\
         //!\n\
         //! `HANDRANK_ORDERS[n - 1]` lists the 169 classes best first against n random \
         opponents by\n\
         //! all-in pot equity (a tie among m players shares 1/m); `HANDRANK_EQUITIES` the \
         equities.\n\
         //! n = 1 is exact (every board and opponent holding); n = 2..9 are seeded Monte Carlo\n\
         //! estimates with {deals} deals per class (seed {seed}, the same deals for every class).\n"
    );
    let mut orders = Vec::new();
    for n in 1..=9usize {
        let started = Instant::now();
        let order = if n == 1 {
            exact_heads_up()
        } else {
            handrank_order(n, deals, seed).expect("valid request")
        };
        eprintln!("N={n}: {:.1?}", started.elapsed());
        orders.push(order);
    }
    let _ = writeln!(
        out,
        "/// The 169 classes, best first, against 1..=9 opponents."
    );
    let _ = writeln!(
        out,
        "pub(crate) static HANDRANK_ORDERS: [[&str; 169]; 9] = ["
    );
    for order in &orders {
        let names: Vec<String> = order.iter().map(|(c, _)| format!("\"{c}\"")).collect();
        let _ = writeln!(out, "    [");
        for chunk in names.chunks(12) {
            let _ = writeln!(out, "        {},", chunk.join(", "));
        }
        let _ = writeln!(out, "    ],");
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(
        out,
        "/// The pot equity of each entry of `HANDRANK_ORDERS`."
    );
    let _ = writeln!(
        out,
        "pub(crate) static HANDRANK_EQUITIES: [[f64; 169]; 9] = ["
    );
    for order in &orders {
        let values: Vec<String> = order.iter().map(|(_, e)| format!("{e:.6}")).collect();
        let _ = writeln!(out, "    [");
        for chunk in values.chunks(10) {
            let _ = writeln!(out, "        {},", chunk.join(", "));
        }
        let _ = writeln!(out, "    ],");
    }
    let _ = writeln!(out, "];");
    print!("{out}");
}
