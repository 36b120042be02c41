//! Equity: exact enumeration against published counts and the spec's prwin figures, seeded
//! Monte Carlo reproducibility and independence from the thread count.

use alea_cards::*;

fn hole(text: &str) -> [Card; 2] {
    parse_cards(text).unwrap().try_into().unwrap()
}

fn board(text: &str) -> Vec<Card> {
    parse_cards(text).unwrap()
}

fn versus(hero: &str, villain: &str) -> Tally {
    let req = EquityRequest {
        hero: hole(hero),
        board: Vec::new(),
        known: vec![hole(villain)],
        random: 0,
    };
    assert_eq!(req.deals(), 1_712_304);
    enumerate(&req).unwrap()
}

#[test]
fn heads_up_preflop_matches_published_enumerations() {
    // GNU poker-eval's hcmp2 over all 1,712,304 boards (wins, losses, ties for the aces).
    let t = versus("Ad Ac", "Kh Ks");
    assert_eq!(
        (t.total, t.wins, t.losses, t.ties),
        (1_712_304, 1_388_072, 317_694, 6_538)
    );
    let t = versus("Ad Ac", "Td 9d");
    assert_eq!((t.wins, t.losses, t.ties), (1_338_249, 367_143, 6_912));
    let t = versus("Ad Ac", "Qc Jh");
    assert_eq!((t.wins, t.losses, t.ties), (1_450_987, 254_763, 6_554));
    assert!((t.equity() - (1_450_987.0 + 6_554.0 / 2.0) / 1_712_304.0).abs() < 1e-12);
}

#[test]
fn spec_prwin_on_the_flop_is_exact() {
    // openholdem.md §7.3: AhKh on Qh Jh 2c against one opponent: 0.758671 0.009260 0.232069.
    let req = EquityRequest::new(hole("Ah Kh"), &board("Qh Jh 2c"), 1);
    assert_eq!(req.deals(), 1081 * 990);
    let e = equity(&req, DEFAULT_ITERATIONS, 0).unwrap();
    assert_eq!(e.method, Method::Exact);
    let t = &e.tally;
    assert_eq!(t.wins + t.ties + t.losses, t.total);
    for (got, want) in [
        (t.win(), 0.758671),
        (t.tie(), 0.009260),
        (t.lose(), 0.232069),
    ] {
        assert!((got - want).abs() < 5e-7, "{got} vs {want}");
    }
    // Monte Carlo with 100,000 iterations lands within 0.005 of the exact figures.
    let mc = simulate(&req, 100_000, 42).unwrap();
    assert_eq!(mc.total, 100_000);
    assert!((mc.win() - t.win()).abs() < 0.005);
    assert!((mc.tie() - t.tie()).abs() < 0.005);
    assert!((mc.lose() - t.lose()).abs() < 0.005);
}

#[test]
fn spec_prwin_preflop_aces() {
    // Hero AhAs, no board, one opponent: prwin 0.8493 ± 0.005, prtie 0.0054 ± 0.002.
    let req = EquityRequest::new(hole("Ah As"), &[], 1);
    let e = equity(&req, 200_000, 7).unwrap();
    assert_eq!(e.method, Method::MonteCarlo { seed: 7 });
    assert!((e.tally.win() - 0.8493).abs() < 0.005, "{}", e.tally.win());
    assert!((e.tally.tie() - 0.0054).abs() < 0.002, "{}", e.tally.tie());
    assert!(e.margin(e.tally.win()) < 0.002);
}

#[test]
fn river_and_turn_enumerations_agree_with_monte_carlo() {
    // River, 2 random opponents: 990 × 903 deals, exact; Monte Carlo within |z| < 5.
    let cases = [
        EquityRequest::new(hole("Ah Kh"), &board("Qh Jh 2c 7d 8s"), 2),
        EquityRequest::new(hole("9c 9d"), &board("Qh Jh 2c 7d"), 1),
        EquityRequest {
            hero: hole("Ah Kd"),
            board: board("Ac 7d 2h"),
            known: vec![hole("7c 7s")],
            random: 1,
        },
    ];
    for req in &cases {
        let exact = enumerate(req).unwrap();
        assert_eq!(u128::from(exact.total), req.deals());
        let mc = simulate(req, 200_000, 3).unwrap();
        for (p, q) in [
            (exact.win(), mc.win()),
            (exact.tie(), mc.tie()),
            (exact.lose(), mc.lose()),
        ] {
            let se = (p * (1.0 - p) / 200_000.0).sqrt().max(1e-9);
            assert!(((q - p) / se).abs() < 5.0, "{req:?}: exact {p}, mc {q}");
        }
    }
}

#[test]
fn monte_carlo_is_reproducible_and_thread_count_independent() {
    let req = EquityRequest::new(hole("Ts 9s"), &board("8s 7d"), 3);
    let run = |threads: usize, seed: u64| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| simulate(&req, 50_001, seed).unwrap())
    };
    let one = run(1, 99);
    assert_eq!(one.total, 50_001);
    assert_eq!(one, run(4, 99));
    assert_eq!(one, run(3, 99));
    assert_ne!(one, run(1, 100));
    // Exact enumeration too: the same counts on one thread and on four.
    let river = EquityRequest::new(hole("Ah Kh"), &board("Qh Jh 2c 7d"), 1);
    let pool = |n: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let exact1 = pool(1).install(|| enumerate(&river).unwrap());
    assert_eq!(exact1, pool(4).install(|| enumerate(&river).unwrap()));
    // Task i uses Rng::stream(seed, i): the first task alone equals a run of TASK_ITERATIONS.
    let first = simulate(&req, TASK_ITERATIONS, 99).unwrap();
    let two = simulate(&req, 2 * TASK_ITERATIONS, 99).unwrap();
    assert!(first.wins <= two.wins && first.total * 2 == two.total);
}

#[test]
fn ties_split_the_pot() {
    // The board is a royal flush: everyone ties, three ways.
    let req = EquityRequest::new(hole("2c 3d"), &board("As Ks Qs Js Ts"), 2);
    let t = enumerate(&req).unwrap();
    assert_eq!((t.ties, t.wins, t.losses), (t.total, 0, 0));
    assert_eq!(t.split[3], t.total);
    assert!((t.equity() - 1.0 / 3.0).abs() < 1e-12);
}

#[test]
fn invalid_requests_are_errors() {
    let req = EquityRequest::new(hole("Ah Kh"), &board("Ah 2c 3c"), 1);
    assert_eq!(
        req.validate().unwrap_err(),
        EquityError::Duplicate(Card::parse("Ah").unwrap())
    );
    let req = EquityRequest::new(hole("Ah Kh"), &[], 0);
    assert_eq!(
        req.validate().unwrap_err().to_string(),
        "opponents must be between 1 and 22, found 0"
    );
    let req = EquityRequest::new(hole("Ah Kh"), &[], 23);
    assert!(req.validate().is_err());
    let req = EquityRequest::new(hole("Ah Kh"), &[], 22);
    assert!(simulate(&req, 100, 1).is_ok());
    assert!(simulate(&req, 0, 1).is_err());
}
