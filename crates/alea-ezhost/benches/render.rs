//! Rendering every built-in content field of the example tournament (tournament-data.md §9),
//! as the clock does once per tick, and simulating the clock with its alerts.
//! `cargo bench -p alea-ezhost`.

use alea_ezhost::{Kind, Options, Session};

const TOURNAMENT: &str = include_str!("../../../examples/ezscript/tournament.json");

/// The content values and conditions of the app's built-in items.
const FIELDS: &[(Kind, &str, bool)] = &[
    (Kind::Content, "{{ title }}", true),
    (Kind::Content, "{{ currentLevel.title }}", true),
    (
        Kind::Condition,
        "isBreakLevel && currentLevel.title.isEmpty",
        false,
    ),
    (
        Kind::Content,
        "Level {{ blindLevelNumber }} of {{ blindLevelCount }}",
        true,
    ),
    (Kind::Condition, "isBlindsLevel", false),
    (
        Kind::Content,
        "{{ (secondsLeftInLevel * 1000).toCompactTimeDurationString }}",
        true,
    ),
    (
        Kind::Content,
        "{{ (currentLevel.smallBlind).toCompactDecimalString + \" / \" + (currentLevel.bigBlind).toCompactDecimalString }}",
        true,
    ),
    (
        Kind::Content,
        "Ante {{ (currentLevel.ante).toCompactDecimalString }}",
        true,
    ),
    (
        Kind::Content,
        ", break in {{ (secondsUntilNextBreak / 60).round }} min.",
        true,
    ),
    (
        Kind::Content,
        "{{ currentPlayerCount }} of {{ totalPlayerCount }} players",
        true,
    ),
    (
        Kind::Content,
        "Avg stack {{ averageChipsPerPlayer.round.toCompactDecimalString }}",
        true,
    ),
    (Kind::Content, "{{ now().toTimeString }}", true),
    (
        Kind::Content,
        "{{ chipLeaders.take(3).map(func(p) { p.shortName + \" — \" + p.currentChips.round.toCompactDecimalString }).join(\"\\n\") }}",
        true,
    ),
    (
        Kind::Content,
        "{{ cards = highHand.pokerHandToCards; highHandPlayer.shortName + \" — \" + cards.pokerCardsToHandName + \" \" + cards.pokerCardsToText }}",
        true,
    ),
    (
        Kind::Content,
        "Rebuys end in {{ (secondsUntilRebuysEnd * 1000).toCompactTimeDurationString }}!",
        true,
    ),
    (
        Kind::Content,
        "Color up the {{ colorUpChips.map(func(c) { c.value.toString + \"s\" }).join(\" and the \") }}",
        true,
    ),
    (
        Kind::Content,
        "{{ payouts.take(payoutsToShow).map(func(e) { e.toCurrencyString }).join(\"\\n\") }}",
        true,
    ),
];

fn main() {
    divan::main();
}

fn session() -> Session {
    let options = Options {
        locale: "en-US".into(),
        time_zone: Some("Europe/Berlin".into()),
        now: Some(1_753_035_300_000.0),
        ..Options::default()
    };
    Session::new(Some(TOURNAMENT), options).unwrap()
}

/// One tick's worth of content: every field above, on one evaluation thread.
#[divan::bench]
fn render_all_content_fields(bencher: divan::Bencher) {
    let s = session();
    bencher.bench_local(|| divan::black_box(s.eval_many(FIELDS)));
}

/// 60 simulated seconds with the file's alerts (states, payout script, points formula).
#[divan::bench]
fn simulate_one_minute(bencher: divan::Bencher) {
    let s = session();
    bencher.bench_local(|| divan::black_box(s.simulate(60).unwrap()));
}
