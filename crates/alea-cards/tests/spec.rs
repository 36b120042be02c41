//! Every card vector of openholdem.md §5.3/§7.3 and tournament-data.md §6/§9.

use alea_cards::*;

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).unwrap()
}

fn pv(text: &str) -> u32 {
    pokerval(CardSet::from_cards(&cards(text)))
}

#[test]
fn pokerval_vectors() {
    assert_eq!(pv("Ah Kh Qh Jh 2c"), 0x000E_DCB2);
    assert_eq!(pv("Ah Kh Qh Jh 2c"), 974_002);
    assert_eq!(pv("Ah Kh"), 970_752);
    assert_eq!(pv("Qh Jh 2c"), 832_000);
    assert_eq!(pv(""), 0);
    assert_eq!(pv("Ah Kh Qh Jh Th"), 0x800E_DCBA);
    assert_eq!(
        pokerval_category(pv("Ah Kh Qh Jh Th")),
        Category::RoyalFlush
    );
    assert_eq!(pv("5d 4c 3h 2s Ac"), (1 << 27) | 0x54321);
    assert_eq!(pv("As Ad Ah Ks Kd"), (1 << 29) | 0xEEEDD);
    assert_eq!(pv("9s 9d 9h 9c Kd 2c 3c"), (1 << 30) | 0x9999D);
    assert_eq!(pv("Ks Kd"), (1 << 24) | 0xDD000);
    assert_eq!(pv("Ks Kd 7c 7d"), (1 << 25) | 0xDD770);
    assert_eq!(pv("Ks Kd Kc 2d"), (1 << 26) | 0xDDD20);
    // The catalogue's type constants.
    assert_eq!(Category::OnePair.pokerval_bit(), 1 << 24);
    assert_eq!(Category::StraightFlush.pokerval_bit(), 2_147_483_648);
}

#[test]
fn openholdem_symbols_of_the_spec_state() {
    // Hero Ah Kh, board Qh Jh 2c (openholdem.md §7.3).
    let s = hand_symbols(&cards("Ah Kh"), &cards("Qh Jh 2c")).unwrap();
    assert_eq!(
        (s.all.pokerval, s.player.pokerval, s.common.pokerval),
        (974_002, 970_752, 832_000)
    );
    assert_eq!(pokerval_category(s.all.pokerval), Category::HighCard);
    assert_eq!((s.all.rankbits, s.common.rankbits), (30_726, 6_148));
    assert_eq!((s.all.nsuited, s.all.tsuit, s.all.nstraight), (4, 0, 4));
    assert_eq!((s.all.nstraightfill, s.common.nstraightfill), (1, 3));
    assert_eq!((s.nouts, s.ncardsbetter), (18, 9));
    assert_eq!(
        (s.nhands, s.nhandshi, s.nhandslo, s.nhandsti),
        (1081, 432, 640, 9)
    );
    assert_eq!(s.prwinnow(1), 0.5920444033302498);
    assert_eq!(s.prlosnow(1), 1.0 - (649.0 / 1081.0));
    assert_eq!((s.all.rankhi, s.all.ranklo, s.player.ranklo), (14, 2, 13));
    assert_eq!((s.all.nranked, s.all.trank), (1, 14));

    // Hero 3c 2d, board Qh Jh 2c 7d 8s. The spec's table says nhandslo 368, nhandshi 613,
    // which contradicts its own definition: the hero has a pair of twos (2 2 Q J 8), and the
    // 30 holdings of the other two deuces with a 3, 4, 5 or 6 tie it exactly. A brute force
    // over 5-card subsets (below) gives 404 / 556 / 30, as does an independent script.
    let s = hand_symbols(&cards("3c 2d"), &cards("Qh Jh 2c 7d 8s")).unwrap();
    assert_eq!((s.nhandslo, s.nhandshi, s.nhandsti), (404, 556, 30));
    assert_eq!(
        brute_force_nhands("3c 2d", "Qh Jh 2c 7d 8s"),
        (404, 556, 30)
    );
    assert_eq!(brute_force_nhands("Ah Kh", "Qh Jh 2c 7d"), {
        let s = hand_symbols(&cards("Ah Kh"), &cards("Qh Jh 2c 7d")).unwrap();
        (s.nhandslo, s.nhandshi, s.nhandsti)
    });
    assert_eq!(s.nouts, 0);
    assert_eq!((s.all.nranked, s.all.trank), (2, 2));
}

/// (lower, higher, equal) holdings by the best 5-card subset, with no pokerval involved.
fn brute_force_nhands(hero: &str, board: &str) -> (u32, u32, u32) {
    let best = |cs: &[Card]| -> HandRank {
        let n = cs.len();
        let mut best = HandRank::WORST;
        for mask in 0u32..1 << n {
            if mask.count_ones() == 5 {
                let five: Vec<Card> = (0..n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| cs[i])
                    .collect();
                best = best.max(evaluate(&five).unwrap());
            }
        }
        best
    };
    let (hero, board) = (cards(hero), cards(board));
    let mine = best(&[hero.clone(), board.clone()].concat());
    let rest = unseen(CardSet::from_cards(&[hero, board.clone()].concat()));
    let (mut lo, mut hi, mut ti) = (0, 0, 0);
    for (i, &a) in rest.iter().enumerate() {
        for &b in &rest[i + 1..] {
            match best(&[board.clone(), vec![a, b]].concat()).cmp(&mine) {
                std::cmp::Ordering::Less => lo += 1,
                std::cmp::Ordering::Greater => hi += 1,
                std::cmp::Ordering::Equal => ti += 1,
            }
        }
    }
    (lo, hi, ti)
}

#[test]
fn hand_predicates_and_patterns() {
    let (a, k) = (Card::parse("Ah").unwrap(), Card::parse("Kh").unwrap());
    assert!(is_suited(a, k) && is_connector(a, k) && !is_pair(a, k));
    let two = Card::parse("2c").unwrap();
    assert!(!is_connector(a, two));
    let m = |p: &str| HandPattern::parse(p).unwrap().matches(a, k);
    let got: Vec<bool> = ["AKs", "KA", "AKo", "AX", "XXs", "k", "QQ"]
        .iter()
        .map(|p| m(p))
        .collect();
    assert_eq!(got, [true, true, false, true, true, true, false]);
    let (aa, ad) = (Card::parse("As").unwrap(), Card::parse("Ad").unwrap());
    assert!(HandPattern::parse("AA").unwrap().matches(aa, ad));
    assert!(
        HandPattern::parse("XXo").unwrap().matches(aa, ad),
        "pairs are offsuit"
    );
    assert!(!HandPattern::parse("AXs").unwrap().matches(aa, ad));
    assert!(HandPattern::parse("AKx").is_none() && HandPattern::parse("").is_none());
    // $$pc0 $$pc1 $$cc0 $$cs2: OpenHoldem card numbers and suits.
    assert_eq!((a.openholdem_code(), k.openholdem_code()), (12, 11));
    assert_eq!(Card::parse("Qh").unwrap().openholdem_code(), 10);
    assert_eq!(two.suit().openholdem_index(), 2);
}

#[test]
fn holding_classes() {
    let all = HoldingClass::all();
    assert_eq!(all.len(), 169);
    assert_eq!(all.iter().map(|c| c.ordered_combos()).sum::<u32>(), 2652);
    assert_eq!(HoldingClass::parse("KAs").unwrap().to_string(), "AKs");
    assert_eq!(HoldingClass::parse("aa").unwrap().to_string(), "AA");
    assert!(HoldingClass::parse("AK").is_none() && HoldingClass::parse("AAs").is_none());
    let (a, k) = (Card::parse("Ah").unwrap(), Card::parse("Kh").unwrap());
    assert_eq!(HoldingClass::of(k, a).to_string(), "AKs");
}

#[test]
fn ezscript_card_functions() {
    // A♠ A♥ A♦ K♠ K♥ = 920624827 → [59, 58, 57, 55, 54].
    let c = poker_hand_to_cards(920_624_827.0).unwrap();
    assert_eq!(c, [59, 58, 57, 55, 54]);
    let n = c.map(f64::from);
    assert_eq!(poker_cards_to_text(&n).unwrap(), "A♠ A♥ A♦ K♠ K♥");
    assert_eq!(poker_cards_to_hand_type(&n).unwrap(), "fullHouse");
    assert_eq!(poker_cards_to_value(&n).unwrap(), 7_270_109);
    assert_eq!(poker_cards_to_hand_name(&n, "en").unwrap(), "Full House");
    assert_eq!(text_to_poker_hand("A♠ A♥ A♦ K♠ K♥"), Some(920_624_827));

    let hand = |x: f64| poker_hand_to_cards(x).unwrap().map(f64::from);
    assert_eq!(
        poker_cards_to_hand_name(&hand(192_015_735.0), "en").unwrap(),
        "Two Pair"
    );
    assert_eq!(
        poker_cards_to_hand_name(&hand(192_015_735.0), "de-DE").unwrap(),
        "Zwei Paare"
    );
    assert_eq!(
        poker_cards_to_hand_type(&hand(987_442_090.0)).unwrap(),
        "royalFlush"
    );
    assert_eq!(
        poker_cards_to_value(&hand(942_208_084.0)).unwrap(),
        4_539_169
    );

    assert_eq!(
        poker_hand_to_cards(12.0).unwrap_err().to_string(),
        "Not a valid poker hand: 12"
    );
    assert!(poker_hand_to_cards(1.5).is_err() && poker_hand_to_cards(-1.0).is_err());
    assert_eq!(
        poker_cards_to_text(&[59.0, 58.0]).unwrap_err().to_string(),
        "Not 5 valid cards"
    );
    assert!(poker_cards_to_value(&[59.0, 59.0, 57.0, 55.0, 54.0]).is_err());
    assert!(poker_cards_to_value(&[60.0, 58.0, 57.0, 55.0, 54.0]).is_err());
    // Tens print as 10; the wheel is a straight, not a royal flush.
    let wheel = cards("As 2s 3s 4s 5s")
        .iter()
        .map(|&c| f64::from(ez_card_number(c)))
        .collect::<Vec<_>>();
    assert_eq!(poker_cards_to_hand_type(&wheel).unwrap(), "straightFlush");
    let tens = cards("Ts Th 9c 8d 2c")
        .iter()
        .map(|&c| f64::from(ez_card_number(c)))
        .collect::<Vec<_>>();
    assert_eq!(poker_cards_to_text(&tens).unwrap(), "10♠ 10♥ 9♣ 8♦ 2♣");
}

#[test]
fn names_in_both_languages() {
    let all_de = [
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
    ];
    let all_en = [
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
    ];
    for (i, c) in Category::ALL.iter().enumerate() {
        assert_eq!((c.name(), c.name_de()), (all_en[i], all_de[i]));
    }
    let name = |t: &str| evaluate(&cards(t)).unwrap();
    assert_eq!(name("As Ks Ad Kd Ac").name(), "Full House, Aces over Kings");
    assert_eq!(
        name("As Ks Ad Kd Ac").name_de(),
        "Full House, Asse über Könige"
    );
    assert_eq!(name("5d 4c 3h 2s Ac 9d 9c").name(), "Straight, Five high");
    assert_eq!(name("Ah Kh Qh Jh Th").name(), "Royal Flush");
    assert_eq!(name("Ah Kh Qh Jh 9h").name(), "Flush, Ace high");
    assert_eq!(name("6s 6d 2c 2h Kd").name(), "Two Pair, Sixes and Twos");
    assert_eq!(name("7s 5d 4c 3h 2h").name(), "High Card, Seven high");
    assert_eq!(name("7s 5d 4c 3h 2h"), HandRank::WORST);
    assert_eq!(name("Ah Kh Qh Jh Th"), HandRank::BEST);
}

#[test]
fn card_text() {
    assert_eq!(cards("As Kh"), cards("A♠ K♥"));
    assert_eq!(cards("AsKh"), cards("as,kh"));
    assert_eq!(cards("10♥ T♦")[0].to_string(), "Th");
    assert_eq!(format!("{:#}", cards("10♥")[0]), "10♥");
    assert_eq!(format_cards(&cards("As Th"), true), "A♠ 10♥");
    let err = parse_cards("As Xh").unwrap_err();
    assert_eq!(
        (err.at, err.message.as_str()),
        (3, "invalid rank 'X' (expected 2-9, T or 10, J, Q, K, A)")
    );
    assert_eq!(
        parse_cards("As As").unwrap_err().message,
        "card As given twice"
    );
    assert_eq!(parse_cards("A").unwrap_err().at, 1);
    assert!(parse_cards("Az").is_err() && parse_cards("1h").is_err());
    assert_eq!(
        evaluate(&cards("As Kh")).unwrap_err().to_string(),
        "a hand needs 5, 6 or 7 cards, found 2"
    );
    let mut deck = Deck::new();
    let mut rng = alea_core::Rng::seed_from_u64(1);
    let mut seen = CardSet::EMPTY;
    while let Some(c) = deck.deal(&mut rng) {
        assert!(!seen.contains(c));
        seen.insert(c);
    }
    assert_eq!(seen, CardSet::FULL);
}

#[test]
fn handrank_generator_puts_aces_first_and_72o_last_heads_up() {
    let order = handrank_order(1, 4096, 1).unwrap();
    assert_eq!(order.len(), 169);
    let classes: Vec<HoldingClass> = order.iter().map(|c| c.0).collect();
    let aa = HoldingClass::parse("AA").unwrap();
    assert_eq!(handrank_of(&classes, aa), Some((1, 12)));
    let last = classes.last().unwrap().to_string();
    assert!(
        ["72o", "32o", "42o", "62o", "82o", "73o"].contains(&last.as_str()),
        "{last}"
    );
    let (rank, combos) = handrank_of(&classes, HoldingClass::parse("32o").unwrap()).unwrap();
    assert!(rank > 150 && combos > 2400);
    assert_eq!(handrank_of(&classes, classes[168]), Some((169, 2652)));
}
