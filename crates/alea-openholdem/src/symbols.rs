//! The symbol catalogue (spec §5.3): names, what they mean, how long a value stays valid.

/// A player status of the count and bit-set families.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Has a seat.
    Seated,
    /// Not sitting out.
    Active,
    /// Dealt this hand.
    Dealt,
    /// Not folded.
    Playing,
    /// Playing with balance 0.
    Allin,
}

/// Which cards a card-set symbol reads: all known (A), the hero's (H) or the board (B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardSet {
    /// A = H ∪ B.
    All,
    /// H.
    Player,
    /// B.
    Common,
}

/// What part of a card `$$…` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardField {
    /// 13·suit + rank − 2 (254 if none).
    Code,
    /// Rank 2..14 (-1 if none).
    Rank,
    /// Suit 0..3 (-1 if none).
    Suit,
}

/// `$AKs`-style hand pattern: up to two ranks (0 = X, any) and an optional suitedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HandPattern {
    /// Ranks 2..14, 0 for `X`; `ranks[1]` is 0 and `two` false for one-rank patterns.
    pub ranks: [u8; 2],
    /// Two ranks given.
    pub two: bool,
    /// `Some(true)` for `s`, `Some(false)` for `o`.
    pub suited: Option<bool>,
}

/// A catalogue symbol, resolved from its name at load time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Symbol {
    Nchairs,
    Userchair,
    Dealerchair,
    Sblind,
    Bblind,
    Ante,
    Lim,
    IsNl,
    IsPl,
    IsFl,
    SmallBlindChair,
    BigBlindChair,
    Betround,
    PreviousRound,
    Bet,
    BetRound(u8),
    Balance,
    BalanceChair(u8),
    CurrentBet,
    CurrentBetChair(u8),
    Call,
    Pot,
    PotCommon,
    PotPlayer,
    NBetsToCall,
    NBetsToRais,
    NCallBets,
    NRaisBets,
    NCurrentBets,
    Stack(u8),
    NPlayers(Status),
    NOpponents(Status),
    NOpponentsFolded,
    NOpponentsBetting,
    PlayersBits(Status),
    OpponentsBits(Status),
    Flag(u8),
    FlagBits,
    Random,
    RandomHand,
    RandomRound,
    RandomHeartbeat,
    /// `$$pc0`, `$$pr1`, `$$cs3`…: (field, from the board?, index).
    Card(CardField, bool, u8),
    Hand(HandPattern),
    IsPair,
    IsSuited,
    IsConnector,
    NCommonCardsKnown,
    NCardsKnown,
    NCardsUnknown,
    RankBits(CardSet),
    RankHi(CardSet),
    RankLo(CardSet),
    NSuited(CardSet),
    TSuit(CardSet),
    NRanked(CardSet),
    TRank(CardSet),
    NStraight(CardSet),
    NStraightFill(CardSet),
    // Evaluator-backed (HandEvaluator hook).
    PokerVal(CardSet),
    /// `ishicard`…`isstraightflush`: the hand type's bit (0 for high card).
    IsHandType(u32),
    IsRoyalFlush,
    NOuts,
    NCardsBetter,
    NHands,
    NHandsHi,
    NHandsLo,
    NHandsTi,
    PrWinNow,
    PrLosNow,
    HandRank169,
    HandRank2652,
    HandRank1326,
    HandRank1000,
    HandRankP,
    PrWin,
    PrTie,
    PrLos,
    /// A name of the full OH 14 catalogue added by [`crate::catalog`] (an index into it).
    Fixed(u16),
    /// A prefix family (`hand$…`, `pt_…`, `dll$…`); the name is the slot's.
    Prefix(crate::catalog::Prefix),
}

/// How long a symbol's value stays valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lifetime {
    /// Depends only on the state: computed once per state.
    State,
    /// Depends on the run (opponent count, per-run random draws): once per run.
    Run,
    /// New on every reference (`random`).
    Reference,
}

impl Symbol {
    /// How long its value stays valid.
    pub fn lifetime(self) -> Lifetime {
        use Symbol::*;
        match self {
            Random => Lifetime::Reference,
            RandomHand | RandomRound | RandomHeartbeat | PrWinNow | PrLosNow | HandRank169
            | HandRank2652 | HandRank1326 | HandRank1000 | HandRankP | PrWin | PrTie | PrLos => {
                Lifetime::Run
            }
            // Live symbols warn once per run when the state does not give them.
            Fixed(i) => match crate::catalog::fixed(i).source {
                // ICM reads the f$icm_prize functions, whose values are the run's.
                crate::catalog::Source::Live(_)
                | crate::catalog::Source::History
                | crate::catalog::Source::Icm => Lifetime::Run,
                _ => Lifetime::State,
            },
            Prefix(p) if crate::catalog::prefix_default(p).is_some() => Lifetime::Run,
            _ => Lifetime::State,
        }
    }

    /// True for symbols that need the hand evaluator hook.
    pub fn needs_evaluator(self) -> bool {
        use Symbol::*;
        matches!(
            self,
            PokerVal(_)
                | IsHandType(_)
                | IsRoyalFlush
                | NOuts
                | NCardsBetter
                | NHands
                | NHandsHi
                | NHandsLo
                | NHandsTi
                | PrWinNow
                | PrLosNow
                | HandRank169
                | HandRank2652
                | HandRank1326
                | HandRank1000
                | HandRankP
                | PrWin
                | PrTie
                | PrLos
        )
    }

    /// True for symbols that read the table state (not cards, not random).
    pub fn needs_state(self) -> bool {
        !matches!(self, Symbol::Random)
    }

    /// The functions this symbol depends on (for cycle detection, spec §4.2).
    pub fn function_deps(self) -> &'static [&'static str] {
        use Symbol::*;
        match self {
            PrWin | PrTie | PrLos => &[
                "f$prwin_number_of_opponents",
                "f$prwin_number_of_iterations",
            ],
            PrWinNow | PrLosNow | HandRank169 | HandRank2652 | HandRank1326 | HandRank1000
            | HandRankP => &["f$prwin_number_of_opponents"],
            Fixed(i) if crate::catalog::fixed(i).source == crate::catalog::Source::Icm => {
                &crate::icm::PRIZE_FUNCTIONS
            }
            _ => &[],
        }
    }

    /// The value pushed for dependency `k` when the profile does not define that function:
    /// 0 opponents (read as 1), NaN for "the default" (prwin's iterations, the state's ICM
    /// payouts).
    pub fn absent_dep(self, k: usize) -> f64 {
        if k == 0 && !matches!(self, Symbol::Fixed(_)) {
            0.0
        } else {
            f64::NAN
        }
    }
}

/// Constants folded at load time.
pub fn constant(name: &str) -> Option<f64> {
    Some(match name {
        "e" => std::f64::consts::E,
        // CSymbolEngineConstants (OH 14).
        "true" => 1.0,
        "false" => 0.0,
        "ace" => 14.0,
        "king" => 13.0,
        "queen" => 12.0,
        "jack" => 11.0,
        "ten" => 10.0,
        "preflop" => 1.0,
        "flop" => 2.0,
        "turn" => 3.0,
        "river" => 4.0,
        "hearts" => 0.0,
        "diamonds" => 1.0,
        "clubs" => 2.0,
        "spades" => 3.0,
        "hicard" => 1.0,
        "onepair" => 16777216.0,
        "twopair" => 33554432.0,
        "threeofakind" => 67108864.0,
        "straight" => 134217728.0,
        "flush" => 268435456.0,
        "fullhouse" => 536870912.0,
        "fourofakind" => 1073741824.0,
        "straightflush" => 2147483648.0,
        "royalflush" => 2148457658.0,
        _ => return None,
    })
}

const STATUS: [(&str, Status); 5] = [
    ("seated", Status::Seated),
    ("active", Status::Active),
    ("dealt", Status::Dealt),
    ("playing", Status::Playing),
    ("allin", Status::Allin),
];

const SETS: [(&str, CardSet); 3] = [
    ("", CardSet::All),
    ("player", CardSet::Player),
    ("common", CardSet::Common),
];

const HAND_TYPES: [(&str, u32); 9] = [
    ("ishicard", 0),
    ("isonepair", 1 << 24),
    ("istwopair", 1 << 25),
    ("isthreeofakind", 1 << 26),
    ("isstraight", 1 << 27),
    ("isflush", 1 << 28),
    ("isfullhouse", 1 << 29),
    ("isfourofakind", 1 << 30),
    ("isstraightflush", 1 << 31),
];

fn small_index(s: &str, max: u8) -> Option<u8> {
    if s.is_empty() || s.len() > 2 || (s.len() == 2 && s.starts_with('0')) {
        return None;
    }
    let v: u8 = s.parse().ok()?;
    (v <= max).then_some(v)
}

/// Looks a catalogue name up (not constants, functions, lists or memory symbols).
pub fn lookup(name: &str) -> Option<Symbol> {
    use Symbol::*;
    let direct = match name {
        "nchairs" => Some(Nchairs),
        "userchair" => Some(Userchair),
        "dealerchair" => Some(Dealerchair),
        "sblind" => Some(Sblind),
        "bblind" => Some(Bblind),
        "ante" => Some(Ante),
        "lim" => Some(Lim),
        "isnl" => Some(IsNl),
        "ispl" => Some(IsPl),
        "isfl" => Some(IsFl),
        "smallblindchair" => Some(SmallBlindChair),
        "bigblindchair" => Some(BigBlindChair),
        "betround" | "currentround" => Some(Betround),
        "previousround" => Some(PreviousRound),
        "bet" => Some(Bet),
        "balance" => Some(Balance),
        "currentbet" => Some(CurrentBet),
        "call" => Some(Call),
        "pot" => Some(Pot),
        "potcommon" => Some(PotCommon),
        "potplayer" => Some(PotPlayer),
        "nbetstocall" => Some(NBetsToCall),
        "nbetstorais" => Some(NBetsToRais),
        "ncallbets" => Some(NCallBets),
        "nraisbets" => Some(NRaisBets),
        "ncurrentbets" => Some(NCurrentBets),
        "nopponentsfolded" => Some(NOpponentsFolded),
        "nopponentsbetting" => Some(NOpponentsBetting),
        "flagbits" => Some(FlagBits),
        "random" => Some(Random),
        "randomhand" => Some(RandomHand),
        "randomround" => Some(RandomRound),
        "randomheartbeat" => Some(RandomHeartbeat),
        "ispair" => Some(IsPair),
        "issuited" => Some(IsSuited),
        "isconnector" => Some(IsConnector),
        "ncommoncardsknown" => Some(NCommonCardsKnown),
        "ncardsknown" => Some(NCardsKnown),
        "ncardsunknown" => Some(NCardsUnknown),
        "isroyalflush" => Some(IsRoyalFlush),
        "nouts" => Some(NOuts),
        "ncardsbetter" => Some(NCardsBetter),
        "nhands" => Some(NHands),
        "nhandshi" => Some(NHandsHi),
        "nhandslo" => Some(NHandsLo),
        "nhandsti" => Some(NHandsTi),
        "prwinnow" => Some(PrWinNow),
        "prlosnow" => Some(PrLosNow),
        "handrank169" => Some(HandRank169),
        "handrank2652" => Some(HandRank2652),
        "handrank1326" => Some(HandRank1326),
        "handrank1000" => Some(HandRank1000),
        "handrankp" => Some(HandRankP),
        "prwin" => Some(PrWin),
        "prtie" => Some(PrTie),
        "prlos" => Some(PrLos),
        "nstraight" => Some(NStraight(CardSet::All)),
        "nstraightcommon" => Some(NStraight(CardSet::Common)),
        _ => None,
    };
    if direct.is_some() {
        return direct;
    }
    if let Some((_, bit)) = HAND_TYPES.iter().find(|(n, _)| *n == name) {
        return Some(IsHandType(*bit));
    }
    for (suffix, set) in SETS {
        let Some(stem) = name.strip_suffix(suffix) else {
            continue;
        };
        let found = match stem {
            "rankbits" => Some(RankBits(set)),
            "rankhi" => Some(RankHi(set)),
            "ranklo" => Some(RankLo(set)),
            "pokerval" => Some(PokerVal(set)),
            "nsuited" if set != CardSet::Player => Some(NSuited(set)),
            "tsuit" if set != CardSet::Player => Some(TSuit(set)),
            "nranked" if set != CardSet::Player => Some(NRanked(set)),
            "trank" if set != CardSet::Player => Some(TRank(set)),
            "nstraightfill" if set != CardSet::Player => Some(NStraightFill(set)),
            _ => None,
        };
        if found.is_some() && !suffix.is_empty() {
            return found;
        }
        if found.is_some() && stem == name {
            return found;
        }
    }
    for (prefix, f) in [
        ("balance", BalanceChair as fn(u8) -> Symbol),
        ("currentbet", CurrentBetChair),
        ("stack", Stack),
    ] {
        if let Some(i) = name.strip_prefix(prefix).and_then(|r| small_index(r, 9)) {
            return Some(f(i));
        }
    }
    if let Some(i) = name.strip_prefix("bet").and_then(|r| small_index(r, 4))
        && i >= 1
    {
        return Some(BetRound(i));
    }
    if let Some(i) = name.strip_prefix('f').and_then(|r| small_index(r, 19)) {
        return Some(Flag(i));
    }
    for (word, status) in STATUS {
        if name == format!("nplayers{word}") {
            return Some(NPlayers(status));
        }
        if name == format!("nopponents{word}") {
            return Some(NOpponents(status));
        }
        if status != Status::Allin {
            if name == format!("players{word}bits") {
                return Some(PlayersBits(status));
            }
            if name == format!("opponents{word}bits") {
                return Some(OpponentsBits(status));
            }
        }
    }
    if let Some(rest) = name.strip_prefix("$$") {
        return card_symbol(rest).or_else(|| crate::catalog::lookup(name));
    }
    if let Some(rest) = name.strip_prefix('$') {
        return hand_pattern(rest).map(Hand);
    }
    crate::catalog::lookup(name)
}

fn card_symbol(rest: &str) -> Option<Symbol> {
    let b = rest.as_bytes();
    if b.len() != 3 {
        return None;
    }
    let common = match b[0] {
        b'p' => false,
        b'c' => true,
        _ => return None,
    };
    let field = match b[1] {
        b'c' => CardField::Code,
        b'r' => CardField::Rank,
        b's' => CardField::Suit,
        _ => return None,
    };
    let idx = b[2].checked_sub(b'0')?;
    if idx > if common { 4 } else { 1 } {
        return None;
    }
    Some(Symbol::Card(field, common, idx))
}

fn pattern_rank(c: u8) -> Option<u8> {
    match c.to_ascii_uppercase() {
        b'X' => Some(0),
        c => b"23456789TJQKA"
            .iter()
            .position(|&r| r == c)
            .map(|p| p as u8 + 2),
    }
}

fn hand_pattern(s: &str) -> Option<HandPattern> {
    let b = s.as_bytes();
    let (ranks_part, suited) = match b.last().map(|c| c.to_ascii_lowercase()) {
        Some(b's') if b.len() >= 2 => (&b[..b.len() - 1], Some(true)),
        Some(b'o') if b.len() >= 2 => (&b[..b.len() - 1], Some(false)),
        _ => (b, None),
    };
    match ranks_part {
        [a] => Some(HandPattern {
            ranks: [pattern_rank(*a)?, 0],
            two: false,
            suited,
        }),
        [a, c] => Some(HandPattern {
            ranks: [pattern_rank(*a)?, pattern_rank(*c)?],
            two: true,
            suited,
        }),
        _ => None,
    }
}

/// Names that need a live table (spec §5.2): "not available offline".
pub fn is_live_table_name(name: &str) -> bool {
    const EXACT: [&str; 2] = ["isfinalanswer", "ismyturn"];
    // The families of the full catalogue (crate::catalog) whose other names OH 14 lacks too.
    // (ICM names are computed now: an unknown `icm_…` gets suggestions like any other name.)
    const PREFIXES: [&str; 5] = ["elapsed", "did", "hi_", "ron$", "run$"];
    EXACT.contains(&name) || PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Every catalogue name with families expanded (for suggestions).
pub fn all_names() -> Vec<String> {
    let mut v: Vec<String> = [
        "e",
        "preflop",
        "flop",
        "turn",
        "river",
        "hearts",
        "diamonds",
        "clubs",
        "spades",
        "hicard",
        "onepair",
        "twopair",
        "threeofakind",
        "straight",
        "flush",
        "fullhouse",
        "fourofakind",
        "straightflush",
        "royalflush",
        "nchairs",
        "userchair",
        "dealerchair",
        "sblind",
        "bblind",
        "ante",
        "lim",
        "isnl",
        "ispl",
        "isfl",
        "smallblindchair",
        "bigblindchair",
        "betround",
        "currentround",
        "previousround",
        "bet",
        "balance",
        "currentbet",
        "call",
        "pot",
        "potcommon",
        "potplayer",
        "nbetstocall",
        "nbetstorais",
        "ncallbets",
        "nraisbets",
        "ncurrentbets",
        "nopponentsfolded",
        "nopponentsbetting",
        "flagbits",
        "random",
        "randomhand",
        "randomround",
        "randomheartbeat",
        "ispair",
        "issuited",
        "isconnector",
        "ncommoncardsknown",
        "ncardsknown",
        "ncardsunknown",
        "isroyalflush",
        "nouts",
        "ncardsbetter",
        "nhands",
        "nhandshi",
        "nhandslo",
        "nhandsti",
        "prwinnow",
        "prlosnow",
        "handrank169",
        "handrank2652",
        "handrank1326",
        "handrank1000",
        "handrankp",
        "prwin",
        "prtie",
        "prlos",
        "nstraight",
        "nstraightcommon",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(HAND_TYPES.iter().map(|(n, _)| n.to_string()));
    for stem in ["rankbits", "rankhi", "ranklo", "pokerval"] {
        for (suffix, _) in SETS {
            v.push(format!("{stem}{suffix}"));
        }
    }
    for stem in ["nsuited", "tsuit", "nranked", "trank", "nstraightfill"] {
        v.push(stem.to_string());
        v.push(format!("{stem}common"));
    }
    for i in 0..10 {
        v.push(format!("balance{i}"));
        v.push(format!("currentbet{i}"));
        v.push(format!("stack{i}"));
    }
    for i in 1..5 {
        v.push(format!("bet{i}"));
    }
    for i in 0..20 {
        v.push(format!("f{i}"));
    }
    for (word, status) in STATUS {
        v.push(format!("nplayers{word}"));
        v.push(format!("nopponents{word}"));
        if status != Status::Allin {
            v.push(format!("players{word}bits"));
            v.push(format!("opponents{word}bits"));
        }
    }
    for p in ["$$pc", "$$pr", "$$ps"] {
        v.push(format!("{p}0"));
        v.push(format!("{p}1"));
    }
    for p in ["$$cc", "$$cr", "$$cs"] {
        for i in 0..5 {
            v.push(format!("{p}{i}"));
        }
    }
    for e in crate::catalog::catalogue() {
        if !v.contains(&e.name) {
            v.push(e.name.clone());
        }
    }
    v
}

/// WinHoldem abbreviations and their OpenHoldem names.
const OLD_NAMES: [(&str, &str); 1] = [("br", "betround")];

/// Levenshtein distance (characters).
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Suggestions for an unknown name (spec §5.5): case-insensitive exact matches, then up to 3
/// names within distance max(1, ⌊len/3⌋), by distance, then name.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    if let Some((_, new)) = OLD_NAMES.iter().find(|(old, _)| *old == name) {
        return vec![new.to_string()];
    }
    let candidates: Vec<&str> = candidates.into_iter().collect();
    let exact: Vec<String> = candidates
        .iter()
        .filter(|c| c.eq_ignore_ascii_case(name) && **c != name)
        .map(|c| c.to_string())
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    let max = (name.chars().count() / 3).max(1);
    let mut near: Vec<(usize, &str)> = candidates
        .iter()
        .filter(|c| c.len().abs_diff(name.len()) <= max)
        .map(|c| (levenshtein(name, c), *c))
        .filter(|(d, c)| *d <= max && *c != name)
        .collect();
    near.sort();
    near.dedup();
    near.into_iter()
        .take(3)
        .map(|(_, c)| c.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families() {
        assert_eq!(lookup("balance3"), Some(Symbol::BalanceChair(3)));
        assert_eq!(lookup("balance10"), None);
        assert_eq!(lookup("bet4"), Some(Symbol::BetRound(4)));
        assert_eq!(lookup("bet0"), None);
        assert_eq!(lookup("f19"), Some(Symbol::Flag(19)));
        assert_eq!(
            lookup("nplayersallin"),
            Some(Symbol::NPlayers(Status::Allin))
        );
        // OH 14 provides these (CSymbolEngineActiveDealtPlaying, CSymbolEngineCards: Omaha's
        // third hole card); the full catalogue knows them.
        assert!(matches!(lookup("playersallinbits"), Some(Symbol::Fixed(_))));
        assert_eq!(
            lookup("rankbitscommon"),
            Some(Symbol::RankBits(CardSet::Common))
        );
        assert_eq!(lookup("nsuitedplayer"), None);
        assert_eq!(
            lookup("$$cr4"),
            Some(Symbol::Card(CardField::Rank, true, 4))
        );
        assert!(matches!(lookup("$$pc2"), Some(Symbol::Fixed(_))));
        assert_eq!(lookup("$$pc4"), None);
        assert!(matches!(lookup("$AKs"), Some(Symbol::Hand(_))));
        assert!(matches!(lookup("$k"), Some(Symbol::Hand(_))));
        assert_eq!(lookup("$AKx"), None);
        for n in all_names() {
            assert!(lookup(&n).is_some() || constant(&n).is_some(), "{n}");
        }
    }

    #[test]
    fn suggestions() {
        let names = all_names();
        let s = |n: &str| suggest(n, names.iter().map(|s| s.as_str()));
        assert_eq!(s("prwn"), ["prwin"]);
        assert_eq!(s("E"), ["e"]);
        assert_eq!(s("br"), ["betround"]);
        assert_eq!(s("pott"), ["pot"]);
    }
}
