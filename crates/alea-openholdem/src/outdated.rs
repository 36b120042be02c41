//! Symbols OpenHoldem 14 refuses as outdated (`UnknownSymbols.cpp`, `IsOutdatedSymbol`), with
//! its reason and, where there is one, the name to use instead (which `alea holdem upgrade`
//! writes).

/// OH 14's reason for refusing `name`, and its replacement.
pub fn outdated_symbol(name: &str) -> Option<(&'static str, Option<&'static str>)> {
    const DUPLICATE: &str = "removed as a duplicate of a verbose symbol";
    const WINHOLDEM: &str = "removed: a WinHoldem concept OpenHoldem 14 does not support";
    const TABLEMAP: &str = "removed: OpenHoldem adapts bet sizes itself";
    const LISTS: &str = "removed: the list symbols of WinHoldem";
    let exact: Option<(&str, Option<&str>)> = match name {
        "br" => Some((DUPLICATE, Some("betround"))),
        "ncps" => Some((DUPLICATE, None)),
        "nflopc" => Some((DUPLICATE, Some("ncommoncardsknown"))),
        "chair" => Some((DUPLICATE, Some("userchair"))),
        "oppdealt" => Some((DUPLICATE, Some("nopponentsdealt"))),
        "isbring" | "ismanual" => Some(("removed: not a formula-level concern", None)),
        "bankroll" | "rake" | "defcon" | "isaggmode" | "isdefmode" | "nopponentsmax"
        | "elapsed1970" | "isfiveofakind" => Some((WINHOLDEM, None)),
        "NIT" => Some((
            "replaced by a function",
            Some("f$prwin_number_of_iterations"),
        )),
        "handrank" => Some((
            "removed: say which one, handrank169, handrank1000, handrank1326, handrank2652 or handrankp",
            None,
        )),
        "clocks" | "nclockspersecond" => Some(("removed: nobody used it", None)),
        "swagdelay" | "allidelay" | "swagtextmethod" | "potmethod" | "activemethod"
        | "potdelay" => Some((TABLEMAP, None)),
        "islistcall" | "islistrais" | "islistalli" | "isemptylistcall" | "isemptylistrais"
        | "isemptylistalli" | "nlistmax" | "nlistmin" => Some((LISTS, None)),
        "nopponents" => Some((
            "removed: it was the value of f$P",
            Some("f$prwin_number_of_opponents"),
        )),
        "nopponentsraising" => Some((
            "removed for its confusing definition",
            Some("nopponentstruelyraising"),
        )),
        "ncommoncardspresent" => Some((
            "removed: it always equalled ncommoncardsknown",
            Some("ncommoncardsknown"),
        )),
        "originaldealposition" => {
            Some(("removed: dealposition is persistent", Some("dealposition")))
        }
        "ac_aggressor" => Some(("removed: a duplicate", Some("raischair"))),
        "callshort" | "raisshort" => Some(("removed: designed for fixed limit only", None)),
        _ => None,
    };
    if exact.is_some() {
        return exact;
    }
    if name.starts_with("friends") || name.starts_with("nfriends") {
        return Some(("removed: OpenHoldem does not support collusion", None));
    }
    if name.starts_with("mh_") {
        return Some((
            "removed: the hand-strength symbols moved to an external library (mh_str_Handstrength_Library.ohf)",
            None,
        ));
    }
    if name.starts_with("ptt_") {
        return Some(("removed: pt_ symbols serve tournaments too", None));
    }
    if name.starts_with("run$") || name.starts_with("ron$") {
        return Some(("removed: the run$/ron$ symbols were unfixable", None));
    }
    if name.len() == 12 && name.starts_with("randomround") {
        return Some(("removed", Some("randomround")));
    }
    if let Some(rest) = name.strip_prefix("didswag") {
        return Some((
            "renamed",
            match rest {
                "" => Some("didbetsize"),
                "round1" => Some("didbetsizeround1"),
                "round2" => Some("didbetsizeround2"),
                "round3" => Some("didbetsizeround3"),
                "round4" => Some("didbetsizeround4"),
                _ => None,
            },
        ));
    }
    None
}
