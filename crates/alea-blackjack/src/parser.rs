//! Recursive descent over the LL(2) grammar of spec §2, then the static checks E04–E08.
//!
//! The grammar has no nesting, so the parser is a straight line of optional clauses and needs no
//! depth guard; it never panics and stops at the first error, as the spec requires.

use crate::lexer::{Keyword, Kind, Token, lex};
use crate::spec::{Core, Spec, SpecError, Starting};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

/// Counts and list lengths are at most this (E03).
pub const MAX_COUNT: u64 = 65535;

struct Parser<'a> {
    src: &'a str,
    tokens: Vec<Token>,
    pos: usize,
}

/// A piece list as written: names with their spans, and the span of the whole list.
struct RawList {
    names: Vec<(usize, usize)>,
    span: Range<usize>,
}

enum RawCore {
    List,
    Bag(Option<(u32, Range<usize>)>),
    Sequence,
}

struct RawHistory {
    len: (u32, Range<usize>),
    rolls: Option<(u32, Range<usize>)>,
    starting: Option<Option<RawList>>,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Token {
        self.tokens[self.pos]
    }

    fn peek2(&self) -> Token {
        self.tokens[(self.pos + 1).min(self.tokens.len() - 1)]
    }

    fn bump(&mut self) -> Token {
        let t = self.peek();
        if t.kind != Kind::End {
            self.pos += 1;
        }
        t
    }

    fn is_kw(&self, k: Keyword) -> bool {
        self.peek().kind == Kind::Keyword(k)
    }

    fn expect_kw(&mut self, k: Keyword, after: &str, help: &str) -> Result<Token, SpecError> {
        let t = self.peek();
        if t.kind == Kind::Keyword(k) {
            return Ok(self.bump());
        }
        Err(SpecError::new(
            "E01",
            format!(
                "expected '{}' after {after}, found {}",
                k.as_str(),
                t.describe(self.src)
            ),
            t.start..t.end,
        )
        .with_help(help))
    }

    /// A count: an INTEGER of at most 65535 (E03), leading zeros allowed.
    fn count(&mut self, what: &str, after: &str) -> Result<(u32, Range<usize>), SpecError> {
        let t = self.peek();
        if t.kind != Kind::Integer {
            return Err(SpecError::new(
                "E01",
                format!(
                    "expected {what} after {after}, found {}",
                    t.describe(self.src)
                ),
                t.start..t.end,
            )
            .with_help("counts are written in digits, e.g. 'with 4 history 6 rolls'"));
        }
        self.bump();
        let value = t.text(self.src).bytes().fold(0u64, |acc, d| {
            (acc * 10 + u64::from(d - b'0')).min(u64::MAX / 20)
        });
        if value > MAX_COUNT {
            let shown = t.text(self.src).trim_start_matches('0');
            return Err(SpecError::new(
                "E03",
                format!("number {shown} is too large (at most {MAX_COUNT})"),
                t.start..t.end,
            )
            .with_help(format!("use a count from 0 to {MAX_COUNT}")));
        }
        Ok((value as u32, t.start..t.end))
    }

    /// `piece , { "," , piece }`. A missing first piece is E02 (empty list); a missing piece
    /// after a comma is E01.
    fn piece_list(&mut self, after: &str) -> Result<RawList, SpecError> {
        let t = self.peek();
        if !matches!(t.kind, Kind::Name | Kind::Integer) {
            let msg = if after.is_empty() {
                format!("expected a piece name, found {}", t.describe(self.src))
            } else {
                format!(
                    "expected a piece name after {after}, found {}",
                    t.describe(self.src)
                )
            };
            return Err(SpecError::new("E02", msg, t.start..t.end)
                .with_help("a list names at least one piece, e.g. 'I,J,L,O,S,T,Z'"));
        }
        self.bump();
        let mut names = vec![(t.start, t.end)];
        while self.peek().kind == Kind::Comma {
            self.bump();
            let t = self.peek();
            if !matches!(t.kind, Kind::Name | Kind::Integer) {
                return Err(SpecError::new(
                    "E01",
                    format!(
                        "expected a piece name after ',', found {}",
                        t.describe(self.src)
                    ),
                    t.start..t.end,
                )
                .with_help("remove the extra ',' or add a piece name after it"));
            }
            self.bump();
            if names.len() as u64 >= MAX_COUNT {
                return Err(SpecError::new(
                    "E03",
                    format!("list has more than {MAX_COUNT} pieces"),
                    t.start..t.end,
                )
                .with_help(format!("a list holds at most {MAX_COUNT} entries")));
            }
            names.push((t.start, t.end));
        }
        let span = names[0].0..names[names.len() - 1].1;
        Ok(RawList { names, span })
    }

    fn unexpected(&self, expected: &str) -> SpecError {
        let t = self.peek();
        SpecError::new(
            "E01",
            format!("expected {expected}, found {}", t.describe(self.src)),
            t.start..t.end,
        )
        .with_help(
            "a spec is a list, 'bag of LIST' or 'sequence of LIST'; clauses follow once each, in \
             the order 'with H history', 'R rolls', 'starting …', 'first …'; pieces are \
             separated by ','",
        )
    }
}

/// Parses and checks `src` (spec §2, §3).
pub(crate) fn parse(src: &str) -> Result<Spec, SpecError> {
    let tokens = lex(src)?;
    let mut p = Parser {
        src,
        tokens,
        pos: 0,
    };
    // core
    let (core, list) = if p.is_kw(Keyword::Sequence) {
        p.bump();
        p.expect_kw(Keyword::Of, "'sequence'", "write 'sequence of LIST'")?;
        (RawCore::Sequence, p.piece_list("'of'")?)
    } else if p.is_kw(Keyword::Bag)
        || (p.peek().kind == Kind::Integer && p.peek2().kind == Kind::Keyword(Keyword::Bag))
    {
        let count = if p.peek().kind == Kind::Integer {
            Some(p.count("a deal count", "start")?)
        } else {
            None
        };
        p.bump();
        p.expect_kw(
            Keyword::Of,
            "'bag'",
            "write 'bag of LIST' or 'N bag of LIST'",
        )?;
        (RawCore::Bag(count), p.piece_list("'of'")?)
    } else {
        (RawCore::List, p.piece_list("")?)
    };
    // history
    let mut history = None;
    if p.is_kw(Keyword::With) {
        let with = p.peek();
        if !matches!(core, RawCore::List) {
            let what = if matches!(core, RawCore::Sequence) {
                "sequence of"
            } else {
                "bag of"
            };
            return Err(SpecError::new(
                "E01",
                format!("'with … history' applies only to a plain list, not to '{what}'"),
                with.start..with.end,
            )
            .with_help("write the list alone, e.g. 'I,J,L,O,S,T,Z with 4 history'"));
        }
        p.bump();
        let len = p.count("a history length", "'with'")?;
        p.expect_kw(
            Keyword::History,
            "the history length",
            "write 'with H history'",
        )?;
        let rolls = if p.peek().kind == Kind::Integer {
            let r = p.count("a roll count", "'history'")?;
            p.expect_kw(
                Keyword::Rolls,
                "the roll count",
                "write 'R rolls', e.g. '6 rolls'",
            )?;
            Some(r)
        } else {
            None
        };
        let starting = if p.is_kw(Keyword::Starting) {
            p.bump();
            if p.is_kw(Keyword::Empty) {
                p.bump();
                Some(None)
            } else if p.is_kw(Keyword::With) {
                p.bump();
                Some(Some(p.piece_list("'starting with'")?))
            } else {
                return Err(p.unexpected("'empty' or 'with' after 'starting'"));
            }
        } else {
            None
        };
        history = Some(RawHistory {
            len,
            rolls,
            starting,
        });
    }
    // first
    let first = if p.is_kw(Keyword::First) {
        p.bump();
        Some(p.piece_list("'first'")?)
    } else {
        None
    };
    if p.peek().kind != Kind::End {
        let expected = match (&core, &history, &first) {
            (_, _, Some(_)) => "',' or end of input",
            (RawCore::List, None, None) => "',', 'with', 'first' or end of input",
            (_, None, None) => "',', 'first' or end of input",
            (_, Some(h), None) => match (&h.starting, &h.rolls) {
                (Some(Some(_)), _) => "',', 'first' or end of input",
                (Some(None), _) => "'first' or end of input",
                (None, Some(_)) => "'starting', 'first' or end of input",
                (None, None) => "a roll count, 'starting', 'first' or end of input",
            },
        };
        return Err(p.unexpected(expected));
    }
    check(src, core, list, history, first)
}

/// Builds the [`Spec`] and runs the checks E04–E08, in that order.
fn check(
    src: &str,
    core: RawCore,
    list: RawList,
    history: Option<RawHistory>,
    first: Option<RawList>,
) -> Result<Spec, SpecError> {
    let mut pieces: Vec<Arc<str>> = Vec::new();
    let mut index: HashMap<&str, u16> = HashMap::new();
    let mut cards = Vec::with_capacity(list.names.len());
    for &(s, e) in &list.names {
        let name = &src[s..e];
        let i = *index.entry(name).or_insert_with(|| {
            pieces.push(Arc::from(name));
            (pieces.len() - 1) as u16
        });
        cards.push(i);
    }
    let n = cards.len();
    let core = match core {
        RawCore::List => match history {
            None => Core::List,
            Some(h) => {
                // E05, E06, E07 here; E08 below with `first`.
                if let Some((0, span)) = &h.rolls {
                    return Err(SpecError::new(
                        "E05",
                        "roll count must be at least 1",
                        span.clone(),
                    )
                    .with_help("'1 rolls' deals like the plain list; use 1 or more"));
                }
                let (len, len_span) = h.len;
                if h.rolls.is_none() && len as usize >= n {
                    return Err(SpecError::new(
                        "E06",
                        format!(
                            "history length {len} must be less than the list length {n} unless \
                             rolls are given"
                        ),
                        len_span,
                    )
                    .with_help(format!(
                        "history length {len} needs at least {} list entries; use `rolls` or a \
                         shorter history",
                        len as u64 + 1
                    )));
                }
                let starting = match h.starting {
                    None => Starting::Default,
                    Some(None) => Starting::Empty,
                    Some(Some(l)) => {
                        if l.names.len() > len as usize {
                            return Err(SpecError::new(
                                "E07",
                                format!(
                                    "starting history has {} pieces but the history length is {len}",
                                    l.names.len()
                                ),
                                l.span.clone(),
                            )
                            .with_help(format!("give at most {len} pieces after 'starting with'")));
                        }
                        Starting::With(resolve(src, &l, &index, "starting with")?)
                    }
                };
                Core::History {
                    len,
                    rolls: h.rolls.map(|r| r.0),
                    starting,
                }
            }
        },
        RawCore::Sequence => Core::Sequence,
        RawCore::Bag(count) => {
            let count = match count {
                None => n as u32,
                Some((k, span)) => {
                    if k == 0 || k as usize > n {
                        return Err(SpecError::new(
                            "E04",
                            format!(
                                "bag deal count {k} is outside 1..{n} (the list has {n} pieces)"
                            ),
                            span,
                        )
                        .with_help(format!(
                            "use a count from 1 to {n}, or 'bag of' to deal the whole bag"
                        )));
                    }
                    k
                }
            };
            Core::Bag { count }
        }
    };
    let first = match first {
        None => None,
        Some(l) => Some(resolve(src, &l, &index, "first")?),
    };
    Ok(Spec {
        pieces,
        cards,
        core,
        first,
    })
}

fn resolve(
    src: &str,
    list: &RawList,
    index: &HashMap<&str, u16>,
    clause: &str,
) -> Result<Vec<u16>, SpecError> {
    list.names
        .iter()
        .map(|&(s, e)| {
            index.get(&src[s..e]).copied().ok_or_else(|| {
                SpecError::new(
                    "E08",
                    format!("piece '{}' in '{clause}' is not in the list", &src[s..e]),
                    s..e,
                )
                .with_help("names are exact and case-sensitive; use a piece of the core list")
            })
        })
        .collect()
}
