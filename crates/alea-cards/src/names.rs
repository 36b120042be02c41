//! Readable hand names in English and German.

use crate::eval::{Category, rank_of_value};

/// `Full House, Aces over Kings` (or `Full House, Asse über Könige` in German).
pub(crate) fn describe(category: Category, ranks: [u8; 5], german: bool) -> String {
    let name = |v: u8, plural: bool| -> &'static str {
        match rank_of_value(v) {
            Some(r) if german => r.name_de(plural),
            Some(r) => r.name(plural),
            None => "?",
        }
    };
    let title = if german {
        category.name_de()
    } else {
        category.name()
    };
    let (high, over, and) = if german {
        ("hoch", "über", "und")
    } else {
        ("high", "over", "and")
    };
    let detail = match category {
        Category::HighCard => {
            if german {
                format!("{} hoch", name(ranks[0], false))
            } else {
                format!("{} high", name(ranks[0], false))
            }
        }
        Category::OnePair | Category::ThreeOfAKind | Category::FourOfAKind => {
            name(ranks[0], true).to_string()
        }
        Category::TwoPair => format!("{} {and} {}", name(ranks[0], true), name(ranks[2], true)),
        Category::FullHouse => format!("{} {over} {}", name(ranks[0], true), name(ranks[3], true)),
        Category::Straight | Category::Flush | Category::StraightFlush => {
            format!("{} {high}", name(ranks[0], false))
        }
        Category::RoyalFlush => return title.to_string(),
    };
    format!("{title}, {detail}")
}
