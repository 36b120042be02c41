//! The lexer of dicelab.md §1.
//!
//! Whitespace is space, TAB, LF, CR, VT and FF. `//` comments run to the end of the line; `#`
//! is a comment only in column 1 or on the first line after nothing but spaces and TABs
//! (so a `#!` line works), and the repetition operator everywhere else.

use alea_core::Span;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// `[0-9]+`, saturated at 2^63−1 and cut to its low 32 bits.
    Number(i32),
    /// A word that is not a keyword (the text is in the source under the span).
    Var,
    /// `d`
    D,
    /// `sum`
    Sum,
    /// `prod`
    Prod,
    /// `count`
    Count,
    /// `perm`
    Perm,
    /// `sort`
    Sort,
    /// `rev`
    Rev,
    /// `drop`
    Drop,
    /// `keep`
    Keep,
    /// `low`
    Low,
    /// `high`
    High,
    /// `first`
    First,
    /// `last`
    Last,
    /// `let`
    Let,
    /// `while`
    While,
    /// `foreach`
    Foreach,
    /// `in`
    In,
    /// `do`
    Do,
    /// `if`
    If,
    /// `then`
    Then,
    /// `else`
    Else,
    /// `==`
    EqEq,
    /// `!=`
    Ne,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `..`
    DotDot,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%`
    Percent,
    /// `^`
    Caret,
    /// `.`
    Dot,
    /// `#`
    Hash,
    /// `,`
    Comma,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `;`
    Semi,
    /// `=`
    Assign,
    /// A character that starts no token (the error is reported by the parser).
    Invalid(char),
    /// End of input.
    Eof,
}

/// A token and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Its bytes in the source.
    pub span: Span,
}

fn keyword(word: &str) -> Option<TokenKind> {
    use TokenKind::*;
    Some(match word {
        "d" => D,
        "sum" => Sum,
        "prod" => Prod,
        "count" => Count,
        "perm" => Perm,
        "sort" => Sort,
        "rev" => Rev,
        "drop" => Drop,
        "keep" => Keep,
        "low" => Low,
        "high" => High,
        "first" => First,
        "last" => Last,
        "let" => Let,
        "while" => While,
        "foreach" => Foreach,
        "in" => In,
        "do" => Do,
        "if" => If,
        "then" => Then,
        "else" => Else,
        _ => return None,
    })
}

/// The value of a NUMBER token: decimal, saturated at 2^63−1, then its low 32 bits.
pub fn number_value(digits: &str) -> i32 {
    let mut v: u64 = 0;
    for b in digits.bytes() {
        v = v
            .saturating_mul(10)
            .saturating_add(u64::from(b - b'0'))
            .min(i64::MAX as u64);
    }
    v as u32 as i32
}

/// A cursor over a source text that yields tokens on demand.
#[derive(Clone, Debug)]
pub struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    /// Offset of the first byte of the text that is not a space or TAB: a `#` there is on the
    /// first line with only blanks before it.
    first_token: usize,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

impl<'a> Lexer<'a> {
    /// A lexer over `text` starting at byte `pos` (which must be a character boundary).
    pub fn new(text: &'a str, pos: usize) -> Lexer<'a> {
        let first_token = text
            .bytes()
            .position(|b| b != b' ' && b != b'\t')
            .unwrap_or(text.len());
        Lexer {
            text,
            pos,
            first_token,
        }
    }

    /// The byte offset of the next unread character.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Whether a `#` at `at` starts a comment: column 1, or on the first line after only
    /// spaces and TABs.
    fn hash_is_comment(&self, at: usize) -> bool {
        at == 0 || self.text.as_bytes()[at - 1] == b'\n' || at == self.first_token
    }

    fn skip_trivia(&mut self) {
        let bytes = self.text.as_bytes();
        loop {
            while self.pos < bytes.len() && is_space(bytes[self.pos]) {
                self.pos += 1;
            }
            let rest = &bytes[self.pos..];
            let comment = rest.starts_with(b"//")
                || (rest.first() == Some(&b'#') && self.hash_is_comment(self.pos));
            if !comment {
                return;
            }
            while self.pos < bytes.len() && bytes[self.pos] != b'\n' {
                self.pos += 1;
            }
        }
    }

    /// The next token (`Eof` forever at the end).
    pub fn next_token(&mut self) -> Token {
        use TokenKind::*;
        self.skip_trivia();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let Some(&b) = bytes.get(start) else {
            return Token {
                kind: Eof,
                span: Span::point(start),
            };
        };
        let (kind, len) = if b.is_ascii_digit() {
            let len = bytes[start..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            (Number(number_value(&self.text[start..start + len])), len)
        } else if b.is_ascii_alphabetic() {
            let len = bytes[start..]
                .iter()
                .take_while(|b| b.is_ascii_alphabetic())
                .count();
            (keyword(&self.text[start..start + len]).unwrap_or(Var), len)
        } else {
            let two = bytes.get(start + 1).copied();
            match (b, two) {
                (b'=', Some(b'=')) => (EqEq, 2),
                (b'!', Some(b'=')) => (Ne, 2),
                (b'<', Some(b'=')) => (Le, 2),
                (b'>', Some(b'=')) => (Ge, 2),
                (b'.', Some(b'.')) => (DotDot, 2),
                (b'<', _) => (Lt, 1),
                (b'>', _) => (Gt, 1),
                (b'+', _) => (Plus, 1),
                (b'-', _) => (Minus, 1),
                (b'*', _) => (Star, 1),
                (b'/', _) => (Slash, 1),
                (b'%', _) => (Percent, 1),
                (b'^', _) => (Caret, 1),
                (b'.', _) => (Dot, 1),
                (b'#', _) => (Hash, 1),
                (b',', _) => (Comma, 1),
                (b'(', _) => (LParen, 1),
                (b')', _) => (RParen, 1),
                (b';', _) => (Semi, 1),
                (b'=', _) => (Assign, 1),
                _ => {
                    let c = self.text[start..].chars().next().unwrap_or('\u{fffd}');
                    (Invalid(c), c.len_utf8())
                }
            }
        };
        self.pos = start + len;
        Token {
            kind,
            span: Span::new(start, start + len),
        }
    }
}

/// How a token is named in syntax errors: `'d'`, `'5'`, `'x'`, `end of input`.
pub fn describe(token: Token, text: &str) -> String {
    match token.kind {
        TokenKind::Eof => "end of input".to_string(),
        _ => format!("'{}'", &text[token.span.range()]),
    }
}

/// The byte ranges of the `;`-separated pieces of `text` from `from` on: each complete piece
/// ends just after its `;`; the last, unterminated piece (possibly only whitespace) is returned
/// separately. Comments are honoured, so a `;` inside `// …` separates nothing.
pub fn split_statements(text: &str, from: usize) -> (Vec<std::ops::Range<usize>>, usize) {
    let mut lexer = Lexer::new(text, from);
    let mut pieces = Vec::new();
    let mut start = from;
    loop {
        let t = lexer.next_token();
        match t.kind {
            TokenKind::Eof => return (pieces, start),
            TokenKind::Semi => {
                pieces.push(start..t.span.end as usize);
                start = t.span.end as usize;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        let mut l = Lexer::new(text, 0);
        let mut out = Vec::new();
        loop {
            let t = l.next_token();
            if t.kind == TokenKind::Eof {
                return out;
            }
            out.push(t.kind);
        }
    }

    #[test]
    fn numbers_saturate_then_wrap() {
        assert_eq!(number_value("2147483648"), i32::MIN);
        assert_eq!(number_value("99999999999"), 1215752191);
        assert_eq!(number_value("99999999999999999999999999"), -1);
    }

    #[test]
    fn words_and_hash_comments() {
        use TokenKind::*;
        assert_eq!(kinds("d6"), vec![D, Number(6)]);
        assert_eq!(kinds("dx sum3"), vec![Var, Sum, Number(3)]);
        assert_eq!(kinds("sum 3\n#d6"), vec![Sum, Number(3)]);
        assert_eq!(
            kinds("sum 3\n  #d6"),
            vec![Sum, Number(3), Hash, D, Number(6)]
        );
        assert_eq!(kinds("  #!x\n1"), vec![Number(1)]);
        assert_eq!(kinds("1 // c ; x\n2"), vec![Number(1), Number(2)]);
        assert_eq!(kinds("a<=b..c"), vec![Var, Le, Var, DotDot, Var]);
        assert_eq!(kinds("@"), vec![Invalid('@')]);
    }

    #[test]
    fn splitting_honours_comments() {
        let (p, rest) = split_statements("1; 2 // ;\n;3", 0);
        assert_eq!(p, vec![0..2, 2..11]);
        assert_eq!(rest, 11);
    }
}
