//! The full symbol catalogue of OpenHoldem 14 (issue 12 part 5): every fixed name its symbol
//! engines provide, and the prefix families (`pt_`, `hand$`, `vs$` …).
//!
//! The names are those of the engines' `SymbolsProvided` and `EvaluateSymbol` functions
//! (OpenHoldem 14.0.2, `OpenHoldem/CSymbolEngine*.cpp`); the values are written here from their
//! documented meaning. Symbols of the older catalogue (`symbols.rs`) keep their own variants;
//! the names added here resolve to [`Symbol::Fixed`] (an index into [`catalogue`]) and the
//! prefix families to [`Symbol::Prefix`].

use crate::symbols::{self, Symbol};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Where a symbol's value comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Source {
    /// Computed from the table state (chairs, bets, players, flags).
    Table,
    /// Computed from the hero's cards and the board (some with the hand evaluator).
    Cards,
    /// Computed from the hand's betting history (the state's `history`); without one, as at
    /// the start of a hand.
    History,
    /// Known only to a live table: the state's `symbols` gives it, else this default (with a
    /// warning).
    Live(f64),
    /// Computed by ICM from the stacks and the payouts (`f$icm_prize1..9`, else the state's
    /// `payouts`).
    Icm,
    /// A constant.
    Constant,
}

impl Source {
    /// `computed`, `history`, `state or N`, `constant` (the symbol table of the docs).
    pub fn describe(self) -> String {
        match self {
            Source::Table | Source::Cards => "computed".to_string(),
            Source::Icm => "computed (payouts)".to_string(),
            Source::History => "history".to_string(),
            Source::Live(d) => format!("state, else {}", crate::ops::format_value(d)),
            Source::Constant => "constant".to_string(),
        }
    }
}

/// One catalogue entry.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The symbol's name.
    pub name: String,
    /// Its family (the OH 14 symbol engine, in words).
    pub family: &'static str,
    /// Where its value comes from.
    pub source: Source,
}

/// A prefix family: the name goes on after the prefix (`pt_vpip3`, `hand$AK`, `dll$foo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prefix {
    /// `hand$…`: the hero's cards match the expression (CSymbolEngineOpenPPLHandAndBoardExpression).
    Hand,
    /// `board$…`: the board matches the expression.
    Board,
    /// `chair$NAME`: the chair of the player called NAME, else -1 (CSymbolEngineCasino).
    Chair,
    /// `chairbit$NAME`: 2^chair of that player, else 0.
    Chairbit,
    /// `log$…`: logs and is 1 (CSymbolEngineVariousDataLookup).
    Log,
    /// `msgbox$…`: shows a message box and is 0.
    Msgbox,
    /// `pt_…`: PokerTracker statistics (live: state, else 0).
    Pt,
    /// `vs$…`: versus lists (live).
    Vs,
    /// `dll$…`: the user DLL (live).
    Dll,
    /// `sitename$…`, `network$…`, `title$…`: the casino (live).
    Casino,
    /// `load$…`, `loadformula$…`: formula switching (live, 0).
    Load,
}

/// The prefixes and their families, longest first where one begins another.
pub const PREFIXES: [(&str, Prefix); 14] = [
    ("hand$", Prefix::Hand),
    ("board$", Prefix::Board),
    ("chairbit$", Prefix::Chairbit),
    ("chair$", Prefix::Chair),
    ("log$", Prefix::Log),
    ("msgbox$", Prefix::Msgbox),
    ("pt_", Prefix::Pt),
    ("vs$", Prefix::Vs),
    ("dll$", Prefix::Dll),
    ("sitename$", Prefix::Casino),
    ("network$", Prefix::Casino),
    ("title$", Prefix::Casino),
    ("loadformula$", Prefix::Load),
    ("load$", Prefix::Load),
];

/// The live default of a prefix family's symbols.
pub fn prefix_default(p: Prefix) -> Option<f64> {
    match p {
        Prefix::Pt | Prefix::Vs | Prefix::Dll | Prefix::Casino | Prefix::Load => Some(0.0),
        _ => None,
    }
}

fn range(out: &mut Vec<Entry>, family: &'static str, source: Source, fmt: &str, lo: u32, hi: u32) {
    for i in lo..=hi {
        out.push(Entry {
            name: fmt.replace('#', &i.to_string()),
            family,
            source,
        });
    }
}

fn words(out: &mut Vec<Entry>, family: &'static str, source: Source, names: &str) {
    for n in names.split_whitespace() {
        out.push(Entry {
            name: n.to_string(),
            family,
            source,
        });
    }
}

/// The 24 symbols `hi_NAMEr` remembers per round (`k_hist_sym_strings`, CSymbolEngineHistory).
pub const HISTORY_SYMBOLS: [&str; 24] = [
    "balance", "balance0", "balance1", "balance2", "balance3", "balance4", "balance5", "balance6",
    "balance7", "balance8", "balance9", "stack0", "stack1", "stack2", "stack3", "stack4", "stack5",
    "stack6", "stack7", "stack8", "stack9", "prwin", "prlos", "prtie",
];

/// The ICM positions of `icm_alliwinSB` … (CSymbolEngineICM).
pub const ICM_POSITIONS: [&str; 11] = [
    "SB", "BB", "UTG", "UTG1", "UTG2", "UTG3", "UTG4", "UTG5", "UTG6", "CO", "D",
];

fn build() -> Vec<Entry> {
    use Source::*;
    let mut v = Vec::with_capacity(700);
    let o = &mut v;
    // CSymbolEngineConstants and the hand-type constants of CSymbolEnginePokerval.
    words(
        o,
        "constants",
        Constant,
        "e true false ace king queen jack ten preflop flop turn river hearts diamonds clubs \
         spades hicard onepair twopair threeofakind straight flush fullhouse fourofakind \
         straightflush royalflush",
    );
    // CSymbolEngineTableLimits, CSymbolEngineGameType, Userchair, Dealerchair, Casino.
    words(
        o,
        "table and limits",
        Table,
        "nchairs userchair dealerchair buttonchair sblind bblind ante bet lim isnl ispl isfl \
         isomaha betround currentround previousround",
    );
    range(o, "table and limits", Table, "bet#", 1, 4);
    words(
        o,
        "table and limits",
        Live(0.0),
        "buyin prizepool prizepoolmultiplier",
    );
    // CSymbolEngineIsTournament, IsRush, MTTInfo.
    words(
        o,
        "tournament",
        Live(0.0),
        "istournament issng ismtt isdon isrush isfinaltable mtt_number_entrants \
         mtt_players_remaining mtt_paid_places mtt_my_rank mtt_largest_stack \
         mtt_average_stack mtt_smallest_stack",
    );
    // CSymbolEngineChairs.
    words(
        o,
        "chairs",
        Table,
        "headsupchair smallblindchair bigblindchair cutoffchair ep1chair ep2chair ep3chair \
         mp1chair mp2chair mp3chair utgchair missingsmallblind smallstackchair bigstackchair",
    );
    // CSymbolEnginePositions and CSymbolEnginePokerAction.
    words(
        o,
        "positions",
        Table,
        "nchairsdealtright nchairsdealtleft betposition dealposition ac_preflop_pos \
         ac_postflop_pos",
    );
    words(
        o,
        "positions",
        History,
        "betpositionrais dealpositionrais callposition ac_agchair_after ac_prefloprais_pos \
         ac_first_into_pot",
    );
    range(o, "positions", Table, "ac_betpos#", 0, 9);
    range(o, "positions", Table, "ac_dealpos#", 0, 9);
    // CSymbolEngineActiveDealtPlaying and CSymbolEngineBlinds.
    for word in ["seated", "active", "dealt", "playing", "allin"] {
        o.push(Entry {
            name: format!("nplayers{word}"),
            family: "players",
            source: Table,
        });
        o.push(Entry {
            name: format!("nopponents{word}"),
            family: "players",
            source: Table,
        });
        o.push(Entry {
            name: format!("players{word}bits"),
            family: "players",
            source: Table,
        });
        o.push(Entry {
            name: format!("opponents{word}bits"),
            family: "players",
            source: Table,
        });
    }
    words(
        o,
        "players",
        Table,
        "maxnplayersdealt nopponentsblind nplayersblind playersblindbits opponentsblindbits \
         bblindbits",
    );
    // CSymbolEngineRaisers, Callers, ChecksBetsFolds.
    words(
        o,
        "raisers and callers",
        History,
        "raischair firstraiserchair lastraiserchair nopponentstruelyraising nopponentscalling \
         firstcallerchair lastcallerchair",
    );
    words(
        o,
        "raisers and callers",
        Table,
        "nopponentschecking nplayerscallshort nopponentsbetting nopponentsfolded",
    );
    range(o, "raisers and callers", History, "raisbits#", 1, 4);
    range(o, "raisers and callers", History, "lastraised#", 1, 4);
    range(o, "raisers and callers", History, "callbits#", 1, 4);
    range(o, "raisers and callers", History, "foldbits#", 1, 4);
    // CSymbolEngineChipAmounts.
    words(
        o,
        "chip amounts",
        Table,
        "pot potcommon potplayer balance currentbet call nbetstocall nbetstorais ncurrentbets \
         ncallbets nraisbets",
    );
    words(
        o,
        "chip amounts",
        Live(0.0),
        "balanceatstartofsession maxbalance",
    );
    range(o, "chip amounts", Table, "balance#", 0, 9);
    range(o, "chip amounts", Table, "balance_rank#", 0, 9);
    range(o, "chip amounts", Table, "currentbet#", 0, 9);
    range(o, "chip amounts", Table, "stack#", 0, 9);
    // CSymbolEngineHistory.
    words(
        o,
        "history",
        History,
        "didchec didcall didrais didbetsize didfold didalli nplayersround nbetsround prevaction",
    );
    for stem in [
        "didchecround",
        "didcallround",
        "didraisround",
        "didbetsizeround",
        "didfoldround",
        "didalliround",
        "nplayersround",
        "nbetsround",
    ] {
        range(o, "history", History, &format!("{stem}#"), 1, 4);
    }
    for h in HISTORY_SYMBOLS {
        range(o, "history (hi_)", History, &format!("hi_{h}#"), 1, 4);
    }
    // CSymbolEngineICM.
    words(
        o,
        "ICM",
        Icm,
        "icm icm_fold icm_callwin icm_calllose icm_calltie",
    );
    range(o, "ICM", Icm, "icm_alliwin#", 0, 9);
    range(o, "ICM", Icm, "icm_allilose#", 0, 9);
    for kind in ["win", "tie", "lose"] {
        for p in ICM_POSITIONS {
            o.push(Entry {
                name: format!("icm_alli{kind}{p}"),
                family: "ICM",
                source: Icm,
            });
        }
    }
    // CSymbolEngineCards.
    words(
        o,
        "cards",
        Cards,
        "ncardsknown ncardsunknown ncardsbetter ispair issuited isconnector nsuited \
         nsuitedcommon tsuit tsuitcommon nstraight nstraightcommon nstraightfill \
         nstraightfillcommon nstraightflush nstraightflushcommon nstraightflushfill \
         nstraightflushfillcommon nranked nrankedcommon trank trankcommon ncommoncardsknown \
         nouts",
    );
    for p in ["$$pc#", "$$pr#", "$$ps#"] {
        range(o, "cards", Cards, p, 0, 3);
    }
    for p in ["$$cc#", "$$cr#", "$$cs#"] {
        range(o, "cards", Cards, p, 0, 4);
    }
    // CSymbolEnginePokerval.
    for stem in [
        "rankhi",
        "srankhi",
        "ranklo",
        "sranklo",
        "rankbits",
        "srankbits",
    ] {
        for set in ["", "common", "player", "poker"] {
            o.push(Entry {
                name: format!("{stem}{set}"),
                family: "poker values",
                source: Cards,
            });
        }
    }
    words(
        o,
        "poker values",
        Cards,
        "pokerval pokervalplayer pokervalcommon ishicard isonepair istwopair isthreeofakind \
         isstraight isflush isfullhouse isfourofakind isstraightflush isroyalflush ishipair \
         islopair ismidpair ishistraight ishiflush pcbits npcbits",
    );
    words(o, "poker values", Live(0.0), "ishandup ishandupcommon");
    range(o, "poker values", Cards, "suitbitsplayer#", 0, 3);
    range(o, "poker values", Cards, "suitbitscommon#", 0, 3);
    // CSymbolEngineNutFullHouseOrFourOfAKind.
    words(
        o,
        "poker values",
        Live(0.0),
        "nutfullhouseorfourofakind nutfullhouseorfourofakind_ntotal",
    );
    // CSymbolEngineHandrank, CSymbolEnginePrwin.
    words(
        o,
        "handrank and prwin",
        Cards,
        "handrank169 handrank2652 handrank1326 handrank1000 handrankp prwin prlos prtie \
         prwinnow prlosnow nhands nhandshi nhandslo nhandsti",
    );
    // CSymbolEngineVersus: the fixed names (vs$LIST… is the prefix family).
    words(
        o,
        "versus",
        Live(0.0),
        "vs$nhands vs$nhandshi vs$nhandsti vs$nhandslo vs$prwin vs$prtie vs$prlos vs$prwinhi \
         vs$prtiehi vs$prloshi vs$prwinti vs$prtieti vs$prlosti vs$prwinlo vs$prtielo \
         vs$prloslo vs$nhandshinow vs$nhandstinow vs$nhandslonow vs$prwinhinow vs$prtiehinow \
         vs$prloshinow vs$prwintinow vs$prtietinow vs$prlostinow vs$prwinlonow vs$prtielonow \
         vs$prloslonow",
    );
    // CSymbolEngineAutoplayer: an offline decision is the hero's turn and the final answer.
    words(
        o,
        "autoplayer",
        Live(1.0),
        "ismyturn issittingin isfinalanswer",
    );
    words(
        o,
        "autoplayer",
        Live(0.0),
        "issittingout isautopost myturnbits",
    );
    // CSymbolEngineRandom.
    words(
        o,
        "random",
        Table,
        "random Random randomheartbeat randomhand randomround",
    );
    // Flags (CSymbolEngineVariousDataLookup).
    range(o, "flags", Table, "f#", 0, 19);
    words(o, "flags", Table, "flagbits fmax");
    // General and tablemap symbols (VariousDataLookup, Time, ColourCodes, Debug, TableStats).
    words(
        o,
        "general",
        Live(0.0),
        "session version islobby ispopup handsplayed handsplayed_headsup elapsed elapsedhand \
         elapsedauto elapsedtoday floppct turnpct riverpct avgbetspf tablepfr",
    );
    range(o, "general", Live(0.0), "colourcode#", 0, 9);
    range(o, "general", Live(0.0), "debug#", 0, 9);
    v
}

/// The catalogue, in family order.
pub fn catalogue() -> &'static [Entry] {
    static CATALOGUE: OnceLock<Vec<Entry>> = OnceLock::new();
    CATALOGUE.get_or_init(build)
}

fn index() -> &'static HashMap<&'static str, u16> {
    static INDEX: OnceLock<HashMap<&'static str, u16>> = OnceLock::new();
    INDEX.get_or_init(|| {
        catalogue()
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.as_str(), i as u16))
            .collect()
    })
}

/// What a history symbol is at the start of a hand (no action yet): -1 for a chair, -2 for
/// `prevaction`, else 0.
pub fn history_default(name: &str) -> f64 {
    if name == "prevaction" {
        // CSymbolEngineHistory::UpdateOnHandreset: k_prevaction_undefined.
        -2.0
    } else if name.ends_with("chair") {
        -1.0
    } else {
        0.0
    }
}

/// The entry of a catalogue name.
pub fn entry(name: &str) -> Option<&'static Entry> {
    index().get(name).map(|&i| &catalogue()[i as usize])
}

/// The entry of a [`Symbol::Fixed`] index.
pub fn fixed(i: u16) -> &'static Entry {
    &catalogue()[i as usize]
}

/// Resolves a catalogue name that the older catalogue (`symbols::lookup`) does not know.
pub fn lookup(name: &str) -> Option<Symbol> {
    if let Some(&i) = index().get(name) {
        return Some(Symbol::Fixed(i));
    }
    for (p, fam) in PREFIXES {
        if let Some(rest) = name.strip_prefix(p)
            && !rest.is_empty()
        {
            if matches!(fam, Prefix::Hand | Prefix::Board) && crate::handexpr::parse(rest).is_none()
            {
                return None;
            }
            return Some(Symbol::Prefix(fam));
        }
    }
    None
}

/// The source of any resolved symbol (old catalogue, fixed or prefix).
pub fn source_of(sym: Symbol, name: &str) -> Source {
    match sym {
        Symbol::Fixed(i) => fixed(i).source,
        Symbol::Prefix(p) => match prefix_default(p) {
            Some(d) => Source::Live(d),
            None if matches!(p, Prefix::Hand | Prefix::Board) => Source::Cards,
            None => Source::Table,
        },
        _ => entry(name).map_or(Source::Table, |e| e.source),
    }
}

/// True when `name` is in the catalogue, as a name the older catalogue resolves itself, a
/// constant, or a fixed name.
pub fn is_known(name: &str) -> bool {
    symbols::constant(name).is_some() || symbols::lookup(name).is_some() || lookup(name).is_some()
}

/// The symbol table of `docs/openholdem.md` (generated; a test checks the doc matches).
pub fn markdown_table() -> String {
    let mut out = String::from("| Family | Symbols | Value |\n|---|---|---|\n");
    let mut groups: Vec<(&str, String, Vec<&str>)> = Vec::new();
    for e in catalogue() {
        let src = e.source.describe();
        match groups.last_mut() {
            Some((f, s, names)) if *f == e.family && *s == src => names.push(&e.name),
            _ => groups.push((e.family, src, vec![&e.name])),
        }
    }
    for (family, src, names) in groups {
        let list = names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(" ");
        out.push_str(&format!("| {family} | {list} | {src} |\n"));
    }
    for (family, names, src) in [
        ("prefix: hand and board", "`hand$…` `board$…`", "computed"),
        (
            "prefix: chairs by name",
            "`chair$NAME` `chairbit$NAME`",
            "computed",
        ),
        (
            "prefix: log and message box",
            "`log$…` (1) `msgbox$…` (0)",
            "constant",
        ),
        (
            "prefix: live",
            "`pt_…` `vs$…` `dll$…` `sitename$…` `network$…` `title$…` `load$…` `loadformula$…`",
            "state, else 0",
        ),
        ("prefix: OpenPPL user variables", "`user…`", "computed"),
        (
            "prefix: memory",
            "`me_st_…` `me_re_…` `me_inc_…` `me_add_…` `me_sub_…`",
            "computed",
        ),
    ] {
        out.push_str(&format!("| {family} | {names} | {src} |\n"));
    }
    out
}
