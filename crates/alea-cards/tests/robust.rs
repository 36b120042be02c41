//! Hostile inputs never panic: random text into the card parser, random numbers into the
//! EZScript functions, random card lists into the evaluator and the equity request checks.

use alea_cards::*;
use alea_core::Rng;

#[test]
fn random_text_never_panics_the_parser() {
    let alphabet: Vec<char> = "AaKkQqJjTt1023456789cdhsCDHS♠♥♦♣♤♡♢♧ ,xX\u{0}é😀"
        .chars()
        .collect();
    let mut rng = Rng::seed_from_u64(11);
    for _ in 0..20_000 {
        let len = rng.below(40) as usize;
        let text: String = (0..len).map(|_| *rng.choose(&alphabet).unwrap()).collect();
        match parse_cards(&text) {
            Ok(cards) => {
                assert!(cards.len() <= MAX_PARSED_CARDS);
                // What parses prints back to something that parses to the same cards.
                assert_eq!(parse_cards(&format_cards(&cards, true)).unwrap(), cards);
            }
            Err(e) => assert!(
                e.at <= text.len() && text.is_char_boundary(e.at),
                "{text:?}"
            ),
        }
    }
    let deck_text = format_cards(&deck(), false);
    assert_eq!(parse_cards(&deck_text).unwrap().len(), 52);
    assert!(parse_cards(&(deck_text + " As")).is_err());
}

#[test]
fn random_numbers_never_panic_the_ezscript_functions() {
    let mut rng = Rng::seed_from_u64(12);
    let specials = [
        f64::NAN,
        f64::INFINITY,
        -0.0,
        1e300,
        -5.0,
        0.5,
        59.0,
        8.0,
        60.0,
        7.0,
    ];
    for _ in 0..20_000 {
        let x = if rng.below(3) == 0 {
            specials[rng.below(specials.len() as u64) as usize]
        } else {
            rng.below(1 << 31) as f64
        };
        if let Ok(cards) = poker_hand_to_cards(x) {
            let n = cards.map(f64::from);
            assert!(poker_cards_to_value(&n).is_ok());
            assert_eq!(poker_cards_to_text(&n).unwrap().split(' ').count(), 5);
        }
        let list: Vec<f64> = (0..rng.below(7))
            .map(|_| specials[rng.below(10) as usize])
            .collect();
        let _ = poker_cards_to_hand_name(&list, "de");
        let _ = poker_cards_to_hand_type(&list);
    }
}

#[test]
fn invalid_hands_are_errors_not_panics() {
    let d = deck();
    for n in 0..=9 {
        let cards: Vec<Card> = d[..n].to_vec();
        assert_eq!(evaluate(&cards).is_ok(), (5..=7).contains(&n));
        assert_eq!(
            Hand::from_cards(&cards).rank().is_some(),
            (5..=7).contains(&n)
        );
    }
    assert!(
        Hand::from_cards(&[d[0], d[0], d[1], d[2], d[3]])
            .rank()
            .is_none()
    );
    assert!(hand_symbols(&d[..3], &[]).is_err());
    assert!(hand_symbols(&d[..2], &d[1..4]).is_err());
    let req = EquityRequest {
        hero: [d[0], d[1]],
        board: d[2..8].to_vec(),
        known: vec![],
        random: 1,
    };
    assert!(req.validate().is_err() && enumerate(&req).is_err() && simulate(&req, 10, 0).is_err());
}
