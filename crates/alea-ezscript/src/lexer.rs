//! The lexer. It has two modes: plain code (a whole script) and a template insertion, where
//! `}}` outside texts and once every `{` opened inside is closed ends the code (spec §10).

use alea_core::Span;

/// A token kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A number literal.
    Number(f64),
    /// A text literal, escapes decoded.
    Text(Box<str>),
    /// A name (its text is the token's span).
    Name,
    /// `if`
    If,
    /// `else`
    Else,
    /// `for`
    For,
    /// `in`
    In,
    /// `while`
    While,
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// `func`
    Func,
    /// `true`
    True,
    /// `false`
    False,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `;`
    Semi,
    /// `.`
    Dot,
    /// A line feed that ends a statement (after the newline rules of §3.2).
    Newline,
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
    /// `!`
    Bang,
    /// `=`
    Assign,
    /// `==`
    EqEq,
    /// `!=`
    NotEq,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `+=`
    PlusAssign,
    /// `-=`
    MinusAssign,
    /// `*=`
    StarAssign,
    /// `/=`
    SlashAssign,
    /// `%=`
    PercentAssign,
    /// `}}` closing a template insertion.
    InsertEnd,
    /// A lexical error; the message is final.
    Error(Box<str>),
    /// End of the code.
    Eof,
}

impl Tok {
    /// How the token is named in `expected X, found Y`.
    pub fn describe(&self, text: &str) -> String {
        match self {
            Tok::Number(_) => format!("number {text}"),
            Tok::Text(_) => "a text".to_string(),
            Tok::Name => format!("name {text}"),
            Tok::Newline => "end of line".to_string(),
            Tok::InsertEnd => "}}".to_string(),
            Tok::Eof => "end of input".to_string(),
            Tok::Error(m) => m.to_string(),
            _ => text.to_string(),
        }
    }
}

/// A token and its position (byte offsets into the whole source or template).
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What.
    pub tok: Tok,
    /// Where.
    pub span: Span,
}

/// Which mode the lexer runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A whole script: runs to the end of the text.
    Code,
    /// A template insertion: stops after the `}}` that closes it.
    Insertion,
}

/// Lexes `src[start..]` in `mode`. Returns the tokens (ending with `Eof` or `InsertEnd`) and the
/// offset just after the last token consumed. Newlines are already filtered by the rules of
/// spec §3.2 except rule (3), which the parser applies.
pub fn lex(src: &str, start: usize, mode: Mode) -> (Vec<Token>, usize) {
    let mut lx = Lexer {
        src,
        bytes: src.as_bytes(),
        pos: start,
        braces: 0,
        mode,
        out: Vec::new(),
    };
    lx.run();
    let end = lx.pos;
    (filter_newlines(lx.out), end)
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// `{` opened and not closed yet (template mode only counts them).
    braces: usize,
    mode: Mode,
    out: Vec<Token>,
}

impl Lexer<'_> {
    fn push(&mut self, tok: Tok, start: usize) {
        self.out.push(Token {
            tok,
            span: Span::new(start, self.pos),
        });
    }

    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn run(&mut self) {
        loop {
            let start = self.pos;
            let Some(&b) = self.bytes.get(self.pos) else {
                self.push(Tok::Eof, start);
                return;
            };
            match b {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'\n' => {
                    self.pos += 1;
                    self.push(Tok::Newline, start);
                }
                b'/' if self.peek(1) == b'/' => {
                    while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                b'0'..=b'9' => self.number(),
                b'"' => self.text(),
                b'A'..=b'Z' | b'a'..=b'z' | b'_' => self.name(),
                b'}' if self.mode == Mode::Insertion
                    && self.braces == 0
                    && self.peek(1) == b'}' =>
                {
                    self.pos += 2;
                    self.push(Tok::InsertEnd, start);
                    return;
                }
                _ => self.punct(b, start),
            }
        }
    }

    fn punct(&mut self, b: u8, start: usize) {
        let next = self.peek(1);
        let (tok, len) = match (b, next) {
            (b'=', b'=') => (Tok::EqEq, 2),
            (b'!', b'=') => (Tok::NotEq, 2),
            (b'<', b'=') => (Tok::Le, 2),
            (b'>', b'=') => (Tok::Ge, 2),
            (b'&', b'&') => (Tok::AndAnd, 2),
            (b'|', b'|') => (Tok::OrOr, 2),
            (b'+', b'=') => (Tok::PlusAssign, 2),
            (b'-', b'=') => (Tok::MinusAssign, 2),
            (b'*', b'=') => (Tok::StarAssign, 2),
            (b'/', b'=') => (Tok::SlashAssign, 2),
            (b'%', b'=') => (Tok::PercentAssign, 2),
            (b'(', _) => (Tok::LParen, 1),
            (b')', _) => (Tok::RParen, 1),
            (b'[', _) => (Tok::LBracket, 1),
            (b']', _) => (Tok::RBracket, 1),
            (b'{', _) => {
                self.braces += 1;
                (Tok::LBrace, 1)
            }
            (b'}', _) => {
                self.braces = self.braces.saturating_sub(1);
                (Tok::RBrace, 1)
            }
            (b',', _) => (Tok::Comma, 1),
            (b':', _) => (Tok::Colon, 1),
            (b';', _) => (Tok::Semi, 1),
            (b'.', _) => (Tok::Dot, 1),
            (b'+', _) => (Tok::Plus, 1),
            (b'-', _) => (Tok::Minus, 1),
            (b'*', _) => (Tok::Star, 1),
            (b'/', _) => (Tok::Slash, 1),
            (b'%', _) => (Tok::Percent, 1),
            (b'!', _) => (Tok::Bang, 1),
            (b'=', _) => (Tok::Assign, 1),
            (b'<', _) => (Tok::Lt, 1),
            (b'>', _) => (Tok::Gt, 1),
            _ => {
                let ch = self.src[self.pos..].chars().next().unwrap_or('?');
                self.pos += ch.len_utf8();
                let tok = Tok::Error(format!("unexpected character {ch}").into());
                self.push(tok, start);
                return;
            }
        };
        self.pos += len;
        self.push(tok, start);
    }

    fn digits(&mut self) -> usize {
        let from = self.pos;
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        self.pos - from
    }

    fn number(&mut self) {
        let start = self.pos;
        self.digits();
        // `.` followed by a digit continues the number; otherwise it is member access.
        if self.peek(0) == b'.' && self.peek(1).is_ascii_digit() {
            self.pos += 1;
            self.digits();
        }
        if matches!(self.peek(0), b'e' | b'E') {
            let save = self.pos;
            self.pos += 1;
            if matches!(self.peek(0), b'+' | b'-') {
                self.pos += 1;
            }
            if self.digits() == 0 {
                self.pos = save;
            }
        }
        if self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                self.pos += 1;
            }
            let msg = format!("invalid number {}", &self.src[start..self.pos]);
            self.push(Tok::Error(msg.into()), start);
            return;
        }
        let value = self.src[start..self.pos].parse::<f64>().unwrap_or(f64::NAN);
        self.push(Tok::Number(value), start);
    }

    fn name(&mut self) {
        let start = self.pos;
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            self.pos += 1;
        }
        let tok = match &self.src[start..self.pos] {
            "if" => Tok::If,
            "else" => Tok::Else,
            "for" => Tok::For,
            "in" => Tok::In,
            "while" => Tok::While,
            "break" => Tok::Break,
            "continue" => Tok::Continue,
            "func" => Tok::Func,
            "true" => Tok::True,
            "false" => Tok::False,
            _ => Tok::Name,
        };
        self.push(tok, start);
    }

    fn text(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        loop {
            let Some(ch) = self.src[self.pos..].chars().next() else {
                self.push(Tok::Error("unterminated text".into()), start);
                return;
            };
            self.pos += ch.len_utf8();
            match ch {
                '"' => break,
                '\\' => match self.escape() {
                    Ok(c) => value.push(c),
                    Err(msg) => {
                        // Skip to the end of the text so one bad escape gives one error.
                        self.skip_text_rest();
                        self.push(Tok::Error(msg.into()), start);
                        return;
                    }
                },
                c => value.push(c),
            }
        }
        self.push(Tok::Text(value.into()), start);
    }

    fn skip_text_rest(&mut self) {
        while let Some(ch) = self.src[self.pos..].chars().next() {
            self.pos += ch.len_utf8();
            match ch {
                '"' => return,
                '\\' => {
                    if let Some(c) = self.src[self.pos..].chars().next() {
                        self.pos += c.len_utf8();
                    }
                }
                _ => {}
            }
        }
    }

    fn escape(&mut self) -> Result<char, String> {
        let Some(ch) = self.src[self.pos..].chars().next() else {
            return Err("unterminated text".into());
        };
        self.pos += ch.len_utf8();
        match ch {
            'n' => Ok('\n'),
            't' => Ok('\t'),
            'r' => Ok('\r'),
            '"' => Ok('"'),
            '\\' => Ok('\\'),
            'u' => {
                if self.peek(0) != b'{' {
                    return Err("invalid escape \\u: write \\u{hex}".into());
                }
                self.pos += 1;
                let from = self.pos;
                while self.peek(0).is_ascii_hexdigit() && self.pos - from < 6 {
                    self.pos += 1;
                }
                let hex = &self.src[from..self.pos];
                if self.peek(0) != b'}' || hex.is_empty() {
                    return Err("invalid escape \\u: write \\u{hex}".into());
                }
                self.pos += 1;
                u32::from_str_radix(hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| format!("invalid escape \\u{{{hex}}}: not a character"))
            }
            c => Err(format!("invalid escape \\{c}")),
        }
    }
}

/// A token after which a newline never ends a statement (rule 1 of §3.2).
fn continues_after(tok: &Tok) -> bool {
    matches!(
        tok,
        Tok::Plus
            | Tok::Minus
            | Tok::Star
            | Tok::Slash
            | Tok::Percent
            | Tok::EqEq
            | Tok::NotEq
            | Tok::Lt
            | Tok::Gt
            | Tok::Le
            | Tok::Ge
            | Tok::AndAnd
            | Tok::OrOr
            | Tok::Assign
            | Tok::PlusAssign
            | Tok::MinusAssign
            | Tok::StarAssign
            | Tok::SlashAssign
            | Tok::PercentAssign
            | Tok::Comma
            | Tok::Colon
            | Tok::Dot
            | Tok::Bang
            | Tok::Else
            | Tok::LParen
            | Tok::LBracket
            | Tok::LBrace
    )
}

/// A token before which a newline never ends a statement (rule 2 of §3.2; `-` is absent on
/// purpose: a line starting with `-` starts a new statement).
fn continues_before(tok: &Tok) -> bool {
    matches!(
        tok,
        Tok::Plus
            | Tok::Star
            | Tok::Slash
            | Tok::Percent
            | Tok::EqEq
            | Tok::NotEq
            | Tok::Lt
            | Tok::Gt
            | Tok::Le
            | Tok::Ge
            | Tok::AndAnd
            | Tok::OrOr
            | Tok::Dot
            | Tok::Else
            | Tok::RParen
            | Tok::RBracket
    )
}

/// Applies rules (1) and (2) of §3.2 and the bracket rule: inside `( )` and `[ ]` newlines are
/// ignored unless a `{ }` nested in them makes them significant again. Runs of newlines
/// collapse into one.
fn filter_newlines(tokens: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut stack: Vec<u8> = Vec::new();
    let mut pending_newline: Option<Token> = None;
    for token in tokens {
        if token.tok == Tok::Newline {
            let ignored = matches!(stack.last(), Some(b'(' | b'['))
                || out
                    .last()
                    .is_none_or(|t| continues_after(&t.tok) || t.tok == Tok::Newline);
            if !ignored && pending_newline.is_none() {
                pending_newline = Some(token);
            }
            continue;
        }
        if let Some(nl) = pending_newline.take()
            && !continues_before(&token.tok)
        {
            out.push(nl);
        }
        match token.tok {
            Tok::LParen => stack.push(b'('),
            Tok::LBracket => stack.push(b'['),
            Tok::LBrace => stack.push(b'{'),
            Tok::RParen | Tok::RBracket | Tok::RBrace => {
                stack.pop();
            }
            _ => {}
        }
        out.push(token);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Tok> {
        lex(src, 0, Mode::Code)
            .0
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn numbers_and_member_access() {
        assert_eq!(
            kinds("2.5.round"),
            vec![Tok::Number(2.5), Tok::Dot, Tok::Name, Tok::Eof]
        );
        assert_eq!(kinds("1e3"), vec![Tok::Number(1000.0), Tok::Eof]);
        assert!(matches!(kinds("12abc")[0], Tok::Error(_)));
    }

    #[test]
    fn newline_rules() {
        assert_eq!(
            kinds("x = 5\n-3"),
            vec![
                Tok::Name,
                Tok::Assign,
                Tok::Number(5.0),
                Tok::Newline,
                Tok::Minus,
                Tok::Number(3.0),
                Tok::Eof
            ]
        );
        assert_eq!(
            kinds("\"a\"\n+ \"b\""),
            vec![
                Tok::Text("a".into()),
                Tok::Plus,
                Tok::Text("b".into()),
                Tok::Eof
            ]
        );
        assert_eq!(
            kinds("(1\n+\n2)"),
            vec![
                Tok::LParen,
                Tok::Number(1.0),
                Tok::Plus,
                Tok::Number(2.0),
                Tok::RParen,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn insertion_mode_stops_at_closing_braces() {
        let src = "{{ \"}}\" + {a: 1}.a }} rest";
        let (toks, end) = lex(src, 2, Mode::Insertion);
        assert_eq!(toks.last().map(|t| &t.tok), Some(&Tok::InsertEnd));
        assert_eq!(&src[end..], " rest");
    }

    #[test]
    fn escapes() {
        assert_eq!(
            kinds(r#""a\n\u{41}""#),
            vec![Tok::Text("a\nA".into()), Tok::Eof]
        );
        assert!(matches!(&kinds(r#""\q""#)[0], Tok::Error(m) if &**m == "invalid escape \\q"));
    }
}
