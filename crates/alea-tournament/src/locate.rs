//! Where a [`LoadError`] is in the file text, so it renders as `FILE:LINE:COL: message` with the
//! source line and a caret (the one renderer of alea-core).

use alea_core::{Diagnostic, Span};

use crate::json::LoadError;

enum Segment {
    Key(String),
    Index(usize),
}

fn parse_path(path: &str) -> Option<Vec<Segment>> {
    let mut segments = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            segments.push(Segment::Key(key.to_string()));
        }
        while let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            segments.push(Segment::Index(r[..end].parse().ok()?));
            rest = &r[end + 1..];
        }
    }
    Some(segments)
}

struct Scanner<'a> {
    s: &'a [u8],
}

impl Scanner<'_> {
    fn ws(&self, mut i: usize) -> usize {
        while i < self.s.len() && matches!(self.s[i], b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
        }
        i
    }

    /// The end of the string starting at `i` (a `"`).
    fn string_end(&self, mut i: usize) -> usize {
        i += 1;
        while i < self.s.len() {
            match self.s[i] {
                b'\\' => i += 2,
                b'"' => return i + 1,
                _ => i += 1,
            }
        }
        i
    }

    /// The end of the value starting at `i`, iteratively (no recursion on deep input).
    fn value_end(&self, mut i: usize) -> usize {
        let mut depth = 0usize;
        loop {
            if i >= self.s.len() {
                return i;
            }
            match self.s[i] {
                b'"' => i = self.string_end(i),
                b'{' | b'[' => {
                    depth += 1;
                    i += 1;
                }
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    i += 1;
                }
                _ => {
                    let start = i;
                    while i < self.s.len()
                        && !matches!(self.s[i], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                    {
                        i += 1;
                    }
                    if depth == 0 {
                        return i.max(start + 1);
                    }
                    if i == start {
                        i += 1;
                    }
                }
            }
            if depth == 0 {
                return i;
            }
        }
    }

    /// In the object at `i`: the start of the key and of the value of member `key`.
    fn member(&self, i: usize, key: &str) -> Option<(usize, usize)> {
        let mut j = self.ws(i + 1);
        while j < self.s.len() && self.s[j] == b'"' {
            let key_end = self.string_end(j);
            let text = std::str::from_utf8(&self.s[j..key_end]).ok()?;
            let name: String = serde_json::from_str(text).ok()?;
            let colon = self.ws(key_end);
            let value = self.ws(colon + 1);
            if name == key {
                return Some((j, value));
            }
            j = self.ws(self.value_end(value));
            if j < self.s.len() && self.s[j] == b',' {
                j = self.ws(j + 1);
            }
        }
        None
    }

    /// In the array at `i`: the start of element `n`.
    fn element(&self, i: usize, n: usize) -> Option<usize> {
        let mut j = self.ws(i + 1);
        for _ in 0..n {
            if j >= self.s.len() || self.s[j] == b']' {
                return None;
            }
            j = self.ws(self.value_end(j));
            if j < self.s.len() && self.s[j] == b',' {
                j = self.ws(j + 1);
            }
        }
        (j < self.s.len() && self.s[j] != b']').then_some(j)
    }
}

/// The span an error at `path` points at (see [`LoadError::span`]).
fn locate(source: &str, path: &str, message: &str) -> Option<Span> {
    let scanner = Scanner {
        s: source.as_bytes(),
    };
    let mut value = scanner.ws(0);
    let mut key_at = None;
    let segments = parse_path(path)?;
    for (n, segment) in segments.iter().enumerate() {
        let found = match segment {
            Segment::Key(k) if scanner.s.get(value) == Some(&b'{') => scanner.member(value, k),
            Segment::Index(i) if scanner.s.get(value) == Some(&b'[') => {
                scanner.element(value, *i).map(|v| (v, v))
            }
            _ => None,
        };
        match found {
            Some((k, v)) => {
                key_at = Some(k);
                value = v;
            }
            // A missing key: point at the object that lacks it.
            None if n + 1 == segments.len() => {
                return Some(Span::new(value, value + 1));
            }
            None => return None,
        }
    }
    if message == "unknown key" {
        let k = key_at?;
        return Some(Span::new(k, scanner.string_end(k)));
    }
    Some(Span::new(value, scanner.value_end(value).max(value + 1)))
}

impl LoadError {
    /// The byte range of the file text this error is about: the value at the JSON path (the
    /// key itself for `unknown key`, the enclosing object for a missing key), or the position of
    /// a JSON syntax error. `None` if it cannot be found (options such as `--tz`).
    pub fn span(&self, source: &str) -> Option<Span> {
        if self.path.is_empty() {
            if self.line == 0 {
                return None;
            }
            let line_start: usize = source
                .split_inclusive('\n')
                .take(self.line - 1)
                .map(str::len)
                .sum();
            let line = source[line_start.min(source.len())..]
                .lines()
                .next()
                .unwrap_or("");
            let col: usize = line
                .chars()
                .take(self.column.saturating_sub(1))
                .map(char::len_utf8)
                .sum();
            let at = (line_start + col).min(source.len());
            return Some(Span::new(at, at));
        }
        locate(source, &self.path, &self.message)
    }

    /// The error as a diagnostic (`path: message`, pointing into the file where possible), to
    /// render with `Diagnostic::render` and a `SourceFile` of the same text.
    pub fn to_diagnostic(&self, source: &str) -> Diagnostic {
        let d = Diagnostic::error(self.to_string());
        match self.span(source) {
            Some(span) => d.with_span(span),
            None => d,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{LoadOptions, load};
    use alea_core::{RenderOptions, SourceFile};

    fn render(text: &str) -> String {
        let err = load(text, &LoadOptions::default()).unwrap_err();
        let file = SourceFile::new("t.json", text);
        err.to_diagnostic(text)
            .render_with(&file, RenderOptions::bare())
    }

    #[test]
    fn errors_point_into_the_file() {
        let text = "{\"players\": [\n  {\"name\": \"A\"},\n  {\"name\": \"B\", \"chair\": 2}\n]}";
        assert_eq!(
            render(text),
            "t.json:3:17: players[1].chair: unknown key\n  {\"name\": \"B\", \"chair\": 2}\n                ^\n"
        );
        let text = "{\"settings\": {\"title\": 7}}";
        assert_eq!(
            render(text),
            "t.json:1:24: settings.title: expected a text, found a number\n{\"settings\": {\"title\": 7}}\n                       ^\n"
        );
        let text = "{\"chips\": [{\"count\": 5}]}";
        assert!(render(text).starts_with("t.json:1:12: chips[0].value: required key is missing\n"));
        let text = "{\"log\": [{\"type\": \"x\", \"dt\": 0}, {\"type\": \"y\", \"dt\": \"noon\"}]}";
        assert!(
            render(text).starts_with("t.json:1:54: log[1].dt: invalid time"),
            "{}",
            render(text)
        );
        let text = "{\n  \"players\": [,]\n}";
        assert!(
            render(text).starts_with("t.json:2:15: expected value"),
            "{}",
            render(text)
        );
        let text = "{\"levels\": [{}, {\"type\": [1, {\"a\": \"]\"}]}]}";
        assert!(
            render(text).starts_with("t.json:1:26: levels[1].type: expected a text"),
            "{}",
            render(text)
        );
    }
}
