//! Tokens of one formula body (spec §1).
//!
//! The lexer works on a byte range of the whole file so that every span is a file offset and
//! diagnostics point into the file, not into the section.

use alea_core::{Diagnostic, Span};

/// Longest identifier accepted (OpenHoldem's limit).
pub const MAX_IDENT_LEN: usize = 1023;

/// An operator token, after keyword operators are mapped to their symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpTok {
    Pow,
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Le,
    Lt,
    Ge,
    Gt,
    Eq,
    Ne,
    Not,
    ApproxEq,
    BitNot,
    AndAnd,
    BitAnd,
    XorXor,
    BitXor,
    OrOr,
    BitOr,
    BitCount,
    Ln,
}

/// The three bracket kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bracket {
    Paren,
    Square,
    Curly,
}

impl Bracket {
    pub fn open(self) -> char {
        match self {
            Bracket::Paren => '(',
            Bracket::Square => '[',
            Bracket::Curly => '{',
        }
    }
    pub fn close(self) -> char {
        match self {
            Bracket::Paren => ')',
            Bracket::Square => ']',
            Bracket::Curly => '}',
        }
    }
}

/// The OpenPPL keywords (case-insensitive, as `CTokenizer::IsTokenOpenPPLKeyword` of OH 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kw {
    When,
    Return,
    Force,
    Set,
    Delay,
    Hand,
    Board,
    In,
}

/// One token.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tok {
    Num(f64),
    Ident,
    /// `65s`, `T9o` after a digit: OH 14's card token (`kTokenCards`), valid in hand
    /// expressions (`hand = 65s`) and nowhere else.
    Cards,
    Kw(Kw),
    Op(OpTok),
    Open(Bracket),
    Close(Bracket),
    Question,
    Colon,
    Eof,
}

/// A token and where it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

const KEYWORD_OPS: [(&str, OpTok); 11] = [
    ("or", OpTok::OrOr),
    ("and", OpTok::AndAnd),
    ("xor", OpTok::XorXor),
    ("not", OpTok::Not),
    ("mod", OpTok::Mod),
    ("ln", OpTok::Ln),
    ("bitand", OpTok::BitAnd),
    ("bitor", OpTok::BitOr),
    ("bitxor", OpTok::BitXor),
    ("bitnot", OpTok::BitNot),
    ("bitcount", OpTok::BitCount),
];

const OPENPPL_WORDS: [(&str, Kw); 8] = [
    ("when", Kw::When),
    ("return", Kw::Return),
    ("force", Kw::Force),
    ("set", Kw::Set),
    ("delay", Kw::Delay),
    ("hand", Kw::Hand),
    ("board", Kw::Board),
    ("in", Kw::In),
];

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'$'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'$' || c == b'_'
}

/// Characters that may not directly follow a number.
fn is_number_tail(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.'
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0C | 0x0B)
}

/// Splits `text[start..end]` into tokens, ending with `Eof` at `end`. Stops at the first error.
pub fn lex(text: &str, start: usize, end: usize) -> Result<Vec<Token>, Diagnostic> {
    lex_with_warnings(text, start, end, &mut Vec::new())
}

/// A rank character of a card (`2`..`9`, `T J Q K A`, either case).
pub fn is_rank(c: u8) -> bool {
    b"23456789TJQKAtjqka".contains(&c)
}

/// OH 14 accepts only ASCII in function bodies (`CTokenizer::ErrorInvalidCharacter`, even in
/// comments); a non-ASCII character in a comment is harmless for alea, so it is a warning with
/// its position rather than an error (files written in Latin-1 often have one in a comment).
fn note_non_ascii(text: &str, from: usize, to: usize, warnings: &mut Vec<Diagnostic>) {
    if let Some(k) = text[from..to].find(|c: char| !c.is_ascii()) {
        let at = from + k;
        let ch = text[at..].chars().next().unwrap_or('?');
        warnings.push(
            Diagnostic::warning(format!(
                "non-ASCII character '{ch}' in a comment (OpenHoldem 14 refuses it)"
            ))
            .with_span(Span::new(at, at + ch.len_utf8())),
        );
    }
}

/// [`lex`], collecting warnings (non-ASCII characters in comments).
pub fn lex_with_warnings(
    text: &str,
    start: usize,
    end: usize,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<Token>, Diagnostic> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        let c = bytes[i];
        if is_space(c) {
            i += 1;
            continue;
        }
        if c == b'/' && i + 1 < end && bytes[i + 1] == b'/' {
            let from = i;
            while i < end && bytes[i] != b'\n' {
                i += 1;
            }
            note_non_ascii(text, from, i, warnings);
            continue;
        }
        if c == b'/' && i + 1 < end && bytes[i + 1] == b'*' {
            match text[i + 2..end].find("*/") {
                Some(k) => {
                    note_non_ascii(text, i, i + 2 + k, warnings);
                    i = i + 2 + k + 2
                }
                None => {
                    return Err(Diagnostic::error("unterminated block comment")
                        .with_span(Span::new(i, i + 2)));
                }
            }
            continue;
        }
        let tok_start = i;
        let at = |k: usize| if k < end { bytes[k] } else { 0 };
        if c.is_ascii_digit()
            && is_rank(at(i + 1))
            && matches!(at(i + 2), b's' | b'S' | b'o' | b'O')
        {
            // CTokenizer::ScanForNextToken: a digit, a rank and s/o are cards ("65s").
            while i < end && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Cards,
                span: Span::new(tok_start, i),
            });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && i + 1 < end && bytes[i + 1].is_ascii_digit()) {
            let (value, next) = lex_number(text, i, end)?;
            out.push(Token {
                tok: Tok::Num(value),
                span: Span::new(tok_start, next),
            });
            i = next;
            continue;
        }
        if is_ident_start(c) {
            while i < end && is_ident_char(bytes[i]) {
                i += 1;
            }
            let word = &text[tok_start..i];
            let span = Span::new(tok_start, i);
            if word.len() > MAX_IDENT_LEN {
                return Err(Diagnostic::error(format!(
                    "identifier longer than {MAX_IDENT_LEN} characters"
                ))
                .with_span(span));
            }
            let lower = word.to_ascii_lowercase();
            if let Some((_, op)) = KEYWORD_OPS.iter().find(|(k, _)| *k == lower) {
                out.push(Token {
                    tok: Tok::Op(*op),
                    span,
                });
            } else if let Some((_, kw)) = OPENPPL_WORDS.iter().find(|(k, _)| *k == lower) {
                out.push(Token {
                    tok: Tok::Kw(*kw),
                    span,
                });
            } else {
                out.push(Token {
                    tok: Tok::Ident,
                    span,
                });
            }
            continue;
        }
        let next = |k: usize| if i + k < end { bytes[i + k] } else { 0 };
        let (tok, len) = match (c, next(1)) {
            (b'*', b'*') => (Tok::Op(OpTok::Pow), 2),
            (b'*', _) => (Tok::Op(OpTok::Mul), 1),
            (b'/', _) => (Tok::Op(OpTok::Div), 1),
            (b'%', _) => (Tok::Op(OpTok::Mod), 1),
            (b'+', _) => (Tok::Op(OpTok::Add), 1),
            (b'-', _) => (Tok::Op(OpTok::Sub), 1),
            (b'<', b'<') => (Tok::Op(OpTok::Shl), 2),
            (b'<', b'=') => (Tok::Op(OpTok::Le), 2),
            (b'<', _) => (Tok::Op(OpTok::Lt), 1),
            (b'>', b'>') => (Tok::Op(OpTok::Shr), 2),
            (b'>', b'=') => (Tok::Op(OpTok::Ge), 2),
            (b'>', _) => (Tok::Op(OpTok::Gt), 1),
            (b'=', b'=') => (Tok::Op(OpTok::Eq), 2),
            (b'=', _) => (Tok::Op(OpTok::Eq), 1),
            (b'!', b'=') => (Tok::Op(OpTok::Ne), 2),
            (b'!', _) => (Tok::Op(OpTok::Not), 1),
            (b'~', b'~') => (Tok::Op(OpTok::ApproxEq), 2),
            (b'~', _) => (Tok::Op(OpTok::BitNot), 1),
            (b'&', b'&') => (Tok::Op(OpTok::AndAnd), 2),
            (b'&', _) => (Tok::Op(OpTok::BitAnd), 1),
            (b'^', b'^') => (Tok::Op(OpTok::XorXor), 2),
            (b'^', _) => (Tok::Op(OpTok::BitXor), 1),
            (b'|', b'|') => (Tok::Op(OpTok::OrOr), 2),
            (b'|', _) => (Tok::Op(OpTok::BitOr), 1),
            (b'`', _) => (Tok::Op(OpTok::BitCount), 1),
            (b'?', _) => (Tok::Question, 1),
            (b':', _) => (Tok::Colon, 1),
            (b'(', _) => (Tok::Open(Bracket::Paren), 1),
            (b'[', _) => (Tok::Open(Bracket::Square), 1),
            (b'{', _) => (Tok::Open(Bracket::Curly), 1),
            (b')', _) => (Tok::Close(Bracket::Paren), 1),
            (b']', _) => (Tok::Close(Bracket::Square), 1),
            (b'}', _) => (Tok::Close(Bracket::Curly), 1),
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                let mut d = Diagnostic::error(format!("unexpected character '{ch}'"))
                    .with_span(Span::new(i, i + ch.len_utf8()));
                if !ch.is_ascii() {
                    d = d.with_note("OpenHoldem 14 accepts only ASCII outside comments");
                }
                return Err(d);
            }
        };
        out.push(Token {
            tok,
            span: Span::new(i, i + len),
        });
        i += len;
    }
    out.push(Token {
        tok: Tok::Eof,
        span: Span::point(end),
    });
    Ok(out)
}

/// Lexes the number starting at `i`; returns its value and the offset after it.
fn lex_number(text: &str, start: usize, end: usize) -> Result<(f64, usize), Diagnostic> {
    let b = text.as_bytes();
    let at = |k: usize| if k < end { b[k] } else { 0 };
    // The whole run of number-like characters, for errors "over the whole run".
    let mut run_end = start;
    while run_end < end && is_number_tail(b[run_end]) {
        run_end += 1;
    }
    let run = Span::new(start, run_end);
    let run_text = &text[start..run_end];
    let malformed = || {
        let mut d = Diagnostic::error("malformed number").with_span(run);
        if looks_like_hand(run_text) {
            d = d.with_help(format!("hand symbols start with '$': write '${run_text}'"));
        }
        d
    };
    if b[start] == b'0' {
        let base = match at(start + 1) {
            b'x' | b'X' => Some(16),
            b'o' | b'O' => Some(8),
            b'q' | b'Q' => Some(4),
            b'b' | b'B' => Some(2),
            _ => None,
        };
        if let Some(base) = base {
            let prefix = &text[start..start + 2];
            let mut i = start + 2;
            let mut value: u128 = 0;
            let mut approx = 0f64;
            let mut overflow = false;
            while i < end {
                let d = match (b[i] as char).to_digit(base) {
                    Some(d) => d,
                    None => break,
                };
                approx = approx * f64::from(base) + f64::from(d);
                match value.checked_mul(u128::from(base)) {
                    Some(v) => value = v + u128::from(d),
                    None => overflow = true,
                }
                i += 1;
            }
            if i == start + 2 {
                if at(i).is_ascii_digit() && base < 10 {
                    return Err(Diagnostic::error(format!(
                        "digit '{}' is not valid in a base-{base} literal",
                        at(i) as char
                    ))
                    .with_span(run));
                }
                return Err(
                    Diagnostic::error(format!("missing digits after '{prefix}'")).with_span(run),
                );
            }
            if i < end && is_number_tail(b[i]) {
                if b[i].is_ascii_digit() {
                    return Err(Diagnostic::error(format!(
                        "digit '{}' is not valid in a base-{base} literal",
                        b[i] as char
                    ))
                    .with_span(run));
                }
                return Err(malformed());
            }
            let v = if overflow { approx } else { value as f64 };
            if !v.is_finite() {
                return Err(Diagnostic::error("number out of range").with_span(run));
            }
            return Ok((v, i));
        }
    }
    let mut i = start;
    while at(i).is_ascii_digit() {
        i += 1;
    }
    if at(i) == b'.' {
        i += 1;
        while at(i).is_ascii_digit() {
            i += 1;
        }
    }
    if matches!(at(i), b'e' | b'E') {
        let mut k = i + 1;
        if matches!(at(k), b'+' | b'-') {
            k += 1;
        }
        if at(k).is_ascii_digit() {
            while at(k).is_ascii_digit() {
                k += 1;
            }
            i = k;
        }
    }
    if i < end && is_number_tail(b[i]) {
        return Err(malformed());
    }
    let v: f64 = text[start..i].parse().map_err(|_| malformed())?;
    if !v.is_finite() {
        return Err(Diagnostic::error("number out of range").with_span(Span::new(start, i)));
    }
    Ok((v, i))
}

/// `72o`, `98s`: a hand class written without its `$`.
pub(crate) fn looks_like_hand(s: &str) -> bool {
    let b = s.as_bytes();
    let rank = is_rank;
    (b.len() == 2 || b.len() == 3)
        && rank(b[0])
        && rank(b[1])
        && (b.len() == 2 || matches!(b[2], b's' | b'o' | b'S' | b'O'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> Result<Tok, String> {
        lex(s, 0, s.len())
            .map(|t| t[0].tok)
            .map_err(|d| d.message + &d.help.unwrap_or_default())
    }

    #[test]
    fn numbers() {
        assert_eq!(one(".5"), Ok(Tok::Num(0.5)));
        assert_eq!(one("17."), Ok(Tok::Num(17.0)));
        assert_eq!(one("0xC975657A"), Ok(Tok::Num(3379914106.0)));
        assert_eq!(one("0Q13"), Ok(Tok::Num(7.0)));
        assert_eq!(one("007"), Ok(Tok::Num(7.0)));
        assert_eq!(one("12abc").unwrap_err(), "malformed number");
        assert_eq!(one("1.2.3").unwrap_err(), "malformed number");
        assert_eq!(one("2e").unwrap_err(), "malformed number");
        assert_eq!(one("0x").unwrap_err(), "missing digits after '0x'");
        assert_eq!(
            one("0b102").unwrap_err(),
            "digit '2' is not valid in a base-2 literal"
        );
        assert_eq!(one("1e400").unwrap_err(), "number out of range");
        assert_eq!(one("72o"), Ok(Tok::Cards));
        assert!(one("7.2o").unwrap_err().contains("malformed number"));
    }

    #[test]
    fn keywords_and_errors() {
        assert_eq!(one("BitCount"), Ok(Tok::Op(OpTok::BitCount)));
        assert_eq!(one("When"), Ok(Tok::Kw(Kw::When)));
        assert_eq!(one("FORCE"), Ok(Tok::Kw(Kw::Force)));
        assert_eq!(one("65s"), Ok(Tok::Cards));
        assert_eq!(one("@").unwrap_err(), "unexpected character '@'");
        assert_eq!(one("/* x").unwrap_err(), "unterminated block comment");
        assert_eq!(one(&"a".repeat(1023)), Ok(Tok::Ident));
        assert!(one(&"a".repeat(1024)).is_err());
    }
}
