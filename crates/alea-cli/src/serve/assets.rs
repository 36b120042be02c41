//! The embedded page (HTML, CSS, JS: no front-end build step) and the built-in examples.

use serde_json::{Value, json};

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_CSS: &str = include_str!("assets/app.css");
const APP_JS: &str = include_str!("assets/app.js");
/// The example tournament of `tournament-data.md`, preloaded in the EZScript tab.
pub const TOURNAMENT_JSON: &str = crate::cmd::ezsystem::EXAMPLE_TOURNAMENT;

/// The static file at `path`: (content type, body).
pub fn get(path: &str) -> Option<(&'static str, &'static str)> {
    Some(match path {
        "/" | "/index.html" => ("text/html; charset=utf-8", INDEX_HTML),
        "/app.css" => ("text/css; charset=utf-8", APP_CSS),
        "/app.js" => ("text/javascript; charset=utf-8", APP_JS),
        "/tournament.json" => ("application/json; charset=utf-8", TOURNAMENT_JSON),
        _ => return None,
    })
}

/// The seed examples of dicelab (examples/dicelab), embedded.
const DICE_FILES: [(&str, &str); 15] = [
    (
        "01-success-count",
        include_str!("../../../../examples/dicelab/01-success-count.dl"),
    ),
    (
        "02-successes-minus-botches",
        include_str!("../../../../examples/dicelab/02-successes-minus-botches.dl"),
    ),
    (
        "03-roll-until-six",
        include_str!("../../../../examples/dicelab/03-roll-until-six.dl"),
    ),
    (
        "04-roll-until-six-scaled",
        include_str!("../../../../examples/dicelab/04-roll-until-six-scaled.dl"),
    ),
    (
        "05-ability-score",
        include_str!("../../../../examples/dicelab/05-ability-score.dl"),
    ),
    (
        "06-morale-table",
        include_str!("../../../../examples/dicelab/06-morale-table.dl"),
    ),
    (
        "07-median-3d20",
        include_str!("../../../../examples/dicelab/07-median-3d20.dl"),
    ),
    (
        "08-reroll-sixes",
        include_str!("../../../../examples/dicelab/08-reroll-sixes.dl"),
    ),
    (
        "09-most-matches",
        include_str!("../../../../examples/dicelab/09-most-matches.dl"),
    ),
    (
        "10-fibonacci",
        include_str!("../../../../examples/dicelab/10-fibonacci.dl"),
    ),
    (
        "11-risk",
        include_str!("../../../../examples/dicelab/11-risk.dl"),
    ),
    (
        "12-storyteller",
        include_str!("../../../../examples/dicelab/12-storyteller.dl"),
    ),
    (
        "13-silent-death",
        include_str!("../../../../examples/dicelab/13-silent-death.dl"),
    ),
    (
        "14-dnd-abilities",
        include_str!("../../../../examples/dicelab/14-dnd-abilities.dl"),
    ),
    (
        "15-manual-first",
        include_str!("../../../../examples/dicelab/15-manual-first.dl"),
    ),
];

/// The Blackjack examples (examples/blackjack), embedded.
const BLACKJACK_FILES: [(&str, &str); 11] = [
    (
        "14bag-halfway",
        include_str!("../../../../examples/blackjack/14bag-halfway.bj"),
    ),
    (
        "14bag",
        include_str!("../../../../examples/blackjack/14bag.bj"),
    ),
    (
        "7bag",
        include_str!("../../../../examples/blackjack/7bag.bj"),
    ),
    (
        "lardarse-hard",
        include_str!("../../../../examples/blackjack/lardarse-hard.bj"),
    ),
    (
        "memoryless-hard",
        include_str!("../../../../examples/blackjack/memoryless-hard.bj"),
    ),
    (
        "memoryless-small-pieces",
        include_str!("../../../../examples/blackjack/memoryless-small-pieces.bj"),
    ),
    (
        "move-to-back",
        include_str!("../../../../examples/blackjack/move-to-back.bj"),
    ),
    (
        "szsz-alternating",
        include_str!("../../../../examples/blackjack/szsz-alternating.bj"),
    ),
    (
        "tgm-ace",
        include_str!("../../../../examples/blackjack/tgm-ace.bj"),
    ),
    (
        "tgm1",
        include_str!("../../../../examples/blackjack/tgm1.bj"),
    ),
    (
        "tgm2",
        include_str!("../../../../examples/blackjack/tgm2.bj"),
    ),
];

const HOLDEM_BOT: &str = include_str!("../../../../examples/openholdem/bot.ohf");
const HOLDEM_BENCH: &str = include_str!("../../../../examples/openholdem/bench.ohf");
const HOLDEM_STATE: &str = include_str!("../../../../examples/openholdem/state.json");

/// Templates and scripts over the example tournament (content fields, alea-ezhost).
const EZSCRIPT_TOURNAMENT: &[(&str, &str, bool)] = &[
    (
        "tournament: title and buy-in",
        "{{ title }}: buy-in {{ buyInCost }}, {{ startingChips }} chips, {{ levelMinutes }}-minute levels",
        true,
    ),
    (
        "tournament: money and players (try another locale)",
        "{{ title }}: {{ totalCollected.toCurrencyString }} collected, {{ currentPlayerCount }} players left",
        true,
    ),
    (
        "tournament: payout places",
        "places = 1 + expectedPlayers / 5\nplaces.round",
        false,
    ),
];

/// `GET /api/examples`: every built-in example of every language.
pub fn examples() -> Value {
    let mut dice: Vec<Value> = DICE_FILES
        .iter()
        .map(|(name, text)| json!({"name": name, "program": text.trim_end()}))
        .collect();
    for (name, text) in crate::cmd::dice::TOUR {
        if !dice.iter().any(|d| d["program"] == *text) {
            dice.push(json!({"name": name, "program": text}));
        }
    }
    let mut blackjack: Vec<Value> = BLACKJACK_FILES
        .iter()
        .map(|(name, text)| json!({"name": name, "spec": text.trim_end()}))
        .collect();
    for name in alea_blackjack::preset_names() {
        blackjack.push(json!({"name": format!("preset {name}"), "spec": name}));
    }
    let holdem = json!([
        {"name": "bot.ohf", "formulas": HOLDEM_BOT, "state": HOLDEM_STATE},
        {"name": "bench.ohf", "formulas": HOLDEM_BENCH, "state": HOLDEM_STATE},
    ]);
    let ezscript: Vec<Value> = crate::cmd::ezscript::TOUR
        .iter()
        .chain(EZSCRIPT_TOURNAMENT)
        .map(|(name, source, template)| {
            json!({"name": name, "source": source, "template": template})
        })
        .collect();
    json!({
        "dice": dice,
        "blackjack": blackjack,
        "holdem": holdem,
        "ezscript": ezscript,
        "tournament": TOURNAMENT_JSON,
        "locales": ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "it-IT", "nl-NL", "pt-BR", "ja-JP"],
    })
}
