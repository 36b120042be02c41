//! Tokens of a Blackjack spec (spec §1): WORDs, commas, and nothing else.

use crate::spec::SpecError;

/// The reserved words; a WORD whose ASCII lowercase form is one of these is that keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keyword {
    Bag,
    Of,
    With,
    History,
    Rolls,
    First,
    Sequence,
    Starting,
    Empty,
}

impl Keyword {
    fn from_word(w: &str) -> Option<Keyword> {
        Some(match w.to_ascii_lowercase().as_str() {
            "bag" => Keyword::Bag,
            "of" => Keyword::Of,
            "with" => Keyword::With,
            "history" => Keyword::History,
            "rolls" => Keyword::Rolls,
            "first" => Keyword::First,
            "sequence" => Keyword::Sequence,
            "starting" => Keyword::Starting,
            "empty" => Keyword::Empty,
            _ => return None,
        })
    }

    /// The canonical (lowercase) spelling.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Keyword::Bag => "bag",
            Keyword::Of => "of",
            Keyword::With => "with",
            Keyword::History => "history",
            Keyword::Rolls => "rolls",
            Keyword::First => "first",
            Keyword::Sequence => "sequence",
            Keyword::Starting => "starting",
            Keyword::Empty => "empty",
        }
    }
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Keyword(Keyword),
    /// An all-digit word.
    Integer,
    /// Any other word.
    Name,
    Comma,
    End,
}

/// A token with its byte range in the source.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    pub(crate) fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.start..self.end]
    }

    /// How the token is quoted in messages: `'J'`, `','` or `end of input`.
    pub(crate) fn describe(&self, src: &str) -> String {
        match self.kind {
            Kind::End => "end of input".to_string(),
            _ => format!("'{}'", self.text(src)),
        }
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Splits `src` into tokens, ending with one `End` token at `src.len()`. Any character other than
/// a word character, `,` or space/tab/CR/LF is E01.
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, SpecError> {
    let bytes = src.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
        } else if b == b',' {
            tokens.push(Token {
                kind: Kind::Comma,
                start: i,
                end: i + 1,
            });
            i += 1;
        } else if is_word_byte(b) {
            let start = i;
            while i < bytes.len() && is_word_byte(bytes[i]) {
                i += 1;
            }
            let word = &src[start..i];
            let kind = if let Some(k) = Keyword::from_word(word) {
                Kind::Keyword(k)
            } else if word.bytes().all(|c| c.is_ascii_digit()) {
                Kind::Integer
            } else {
                Kind::Name
            };
            tokens.push(Token {
                kind,
                start,
                end: i,
            });
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            let end = i + ch.len_utf8();
            return Err(SpecError::new(
                "E01",
                format!("unexpected character {}", quote_char(ch)),
                i..end,
            )
            .with_help("piece names use letters, digits and '_'; separate them with ','"));
        }
    }
    tokens.push(Token {
        kind: Kind::End,
        start: src.len(),
        end: src.len(),
    });
    Ok(tokens)
}

fn quote_char(ch: char) -> String {
    if ch.is_control() {
        format!("U+{:04X}", ch as u32)
    } else {
        format!("'{ch}'")
    }
}
