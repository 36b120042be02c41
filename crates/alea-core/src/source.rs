//! Source texts with line/column lookup.

use crate::Span;

/// A named program text with precomputed line starts.
///
/// The name is what diagnostics print before the position: a path, `<stdin>` or `<expr>`.
#[derive(Clone, Debug)]
pub struct SourceFile {
    name: String,
    text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Wraps `text` under `name`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The name printed in diagnostics.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text under `span` (clamped to the text and to character boundaries).
    pub fn slice(&self, span: Span) -> &str {
        let start = self.floor_char_boundary(span.start as usize);
        let end = self.floor_char_boundary(span.end as usize).max(start);
        &self.text[start..end]
    }

    fn floor_char_boundary(&self, mut at: usize) -> usize {
        at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    /// Number of lines (a text without newline has one line; a trailing newline adds an empty one).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 0-based line index of a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// 1-based line and column of a byte offset. Columns count characters, a TAB counts as one.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.floor_char_boundary(offset);
        let line = self.line_index(offset);
        let col = self.text[self.line_starts[line]..offset].chars().count() + 1;
        (line + 1, col)
    }

    /// Byte offset of a 1-based line and column (columns count characters), the inverse of
    /// [`SourceFile::line_col`]: for languages whose errors carry a position rather than a
    /// span. A line past the end gives the text's length; a column past the line's end
    /// stops at its terminator.
    pub fn offset_at(&self, line: usize, col: usize) -> usize {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let line_text = self.line_text(line.saturating_sub(1));
        start
            + line_text
                .chars()
                .take(col.saturating_sub(1))
                .map(char::len_utf8)
                .sum::<usize>()
    }

    /// The text of 0-based line `line`, without its line terminator (`\n` or `\r\n`).
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&e| e - 1);
        let s = &self.text[start..end];
        s.strip_suffix('\r').unwrap_or(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_at_inverts_line_col() {
        let f = SourceFile::new("t", "ab\n\tcé d\r\nlast");
        for offset in (0..=f.text().len()).filter(|&o| f.text().is_char_boundary(o)) {
            let (line, col) = f.line_col(offset);
            // The `\r` of a CRLF has no column of its own: it maps to the line's end.
            let expected = if f.text()[..offset].ends_with('\r') {
                offset - 1
            } else {
                offset
            };
            let back = f.offset_at(line, col);
            assert_eq!(back, expected, "{offset} -> {line}:{col}");
        }
        assert_eq!(f.offset_at(2, 4), 7); // after "\tcé" (é is two bytes)
        assert_eq!(f.offset_at(2, 99), 9); // stops before "\r\n"
        assert_eq!(f.offset_at(9, 1), f.text().len());
    }

    #[test]
    fn positions_count_characters_and_lines() {
        let f = SourceFile::new("t", "ab\n\tcé d\r\nlast");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(2), (1, 3));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(4), (2, 2));
        // 'é' is two bytes but one column
        assert_eq!(f.line_col(7), (2, 4));
        assert_eq!(f.line_text(1), "\tcé d");
        assert_eq!(f.line_text(2), "last");
        assert_eq!(f.line_col(1000), (3, 5));
        assert_eq!(f.line_count(), 3);
        // offsets inside a multi-byte character snap back to its start
        assert_eq!(f.line_col(6), (2, 3));
    }

    #[test]
    fn slice_is_clamped() {
        let f = SourceFile::new("t", "héllo");
        assert_eq!(f.slice(Span::new(0, 2)), "h");
        assert_eq!(f.slice(Span::new(1, 100)), "éllo");
        assert_eq!(f.slice(Span::new(50, 60)), "");
    }
}
