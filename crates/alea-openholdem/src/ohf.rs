//! `.ohf` files: splitting into sections (spec §4.1), hand lists (§4.3), the debug tab (§4.5).

use alea_core::{Diagnostic, SourceFile, Span};

/// What a section holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SectionKind {
    /// `##2014-02-09 23:16:55##`: ignored.
    Date,
    /// `##notes##`: free text.
    Notes,
    /// `##dll##`: obsolete, ignored.
    Dll,
    /// `##listXYZ##`.
    List,
    /// `##f$name##`.
    Function,
    /// `##f$debug##`.
    Debug,
}

/// One `##header##` and its body.
#[derive(Clone, Debug)]
pub struct Section {
    /// The kind.
    pub kind: SectionKind,
    /// The name between the `##`.
    pub name: String,
    /// Where the name is.
    pub name_span: Span,
    /// 1-based line of the header.
    pub header_line: usize,
    /// The body: from after the header's line end to the next header.
    pub body: Span,
}

/// Splits a file into sections. Bad headers are reported and their sections skipped.
pub fn split_sections(file: &SourceFile, diags: &mut Vec<Diagnostic>) -> Vec<Section> {
    let text = file.text();
    let mut pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut sections: Vec<Section> = Vec::new();
    let mut preamble_reported = false;
    let mut preamble: Option<Span> = None;
    let mut line_no = file.line_index(pos) + 1;
    // CFormulaFileSplitter::SkipShankyOptionSettings: option settings (`name = value`) or the
    // keyword `custom` before the first header mark Shanky-style bot logic, in which a line
    // `preflop` … `river` is also a header (of f$preflop … f$river).
    let mut shanky = false;
    let mut custom = false;
    let mut shanky_bodies = 0usize;
    while pos < text.len() {
        let line_end = text[pos..].find('\n').map_or(text.len(), |k| pos + k);
        let next = if line_end < text.len() {
            line_end + 1
        } else {
            line_end
        };
        let line = text[pos..line_end]
            .strip_suffix('\r')
            .unwrap_or(&text[pos..line_end]);
        let shanky_round = if shanky { shanky_betround(line) } else { None };
        let mut option_line = false;
        if sections.is_empty() && !line.starts_with("##") && shanky_round.is_none() {
            if line.trim().eq_ignore_ascii_case("custom") {
                custom = true;
                option_line = true;
            } else if line.find('=').is_some_and(|i| i > 0) {
                option_line = true;
            }
            shanky |= option_line;
        }
        if let Some(round) = shanky_round {
            if let Some(last) = sections.last_mut() {
                last.body.end = pos as u32;
            }
            if sections.is_empty() && !custom {
                // SkipShankyOptionSettings: a warning, the file still loads.
                diags.push(
                    Diagnostic::warning("Shanky-style code without the keyword 'custom'")
                        .with_span(Span::new(pos, pos + round.len()))
                        .with_help("OpenHoldem 14 expects 'custom' on a line before the first betting round"),
                );
            }
            shanky_bodies += 1;
            sections.push(Section {
                kind: SectionKind::Function,
                name: format!("f${round}"),
                name_span: Span::new(pos, pos + round.len()),
                header_line: line_no,
                body: Span::new(next, next),
            });
        } else if line.starts_with("##") {
            if let Some(last) = sections.last_mut() {
                last.body.end = pos as u32;
            }
            match parse_header(line, pos) {
                Ok((name, name_span)) => match classify(&name, name_span) {
                    Ok(kind) => sections.push(Section {
                        kind,
                        name,
                        name_span,
                        header_line: line_no,
                        body: Span::new(next, next),
                    }),
                    Err(d) => {
                        diags.push(d);
                        // Keep a placeholder so the body is not glued to the previous section.
                        sections.push(Section {
                            kind: SectionKind::Notes,
                            name: String::new(),
                            name_span,
                            header_line: line_no,
                            body: Span::new(next, next),
                        });
                    }
                },
                Err(d) => {
                    diags.push(d);
                    sections.push(Section {
                        kind: SectionKind::Notes,
                        name: String::new(),
                        name_span: Span::new(pos, pos),
                        header_line: line_no,
                        body: Span::new(next, next),
                    });
                }
            }
        } else if sections.is_empty()
            && !line.trim().is_empty()
            && !preamble_reported
            && !option_line
        {
            // CFormulaFileSplitter::SkipShankyOptionSettings skips every line before the first
            // header; only a file without any header is refused (see below).
            preamble_reported = true;
            let col = line.len() - line.trim_start().len();
            preamble = Some(Span::new(pos + col, line_end));
        }
        if let Some(last) = sections.last_mut() {
            last.body.end = next as u32;
        }
        pos = next;
        line_no += 1;
        if next == line_end {
            break;
        }
    }
    if shanky_bodies > 0
        && let Some(first) = sections.iter().find(|s| s.name.starts_with("f$"))
    {
        diags.push(
            Diagnostic::warning(
                "Shanky-style bot logic: imported as OpenHoldem 14 splits it (option settings \
                     and 'custom' skipped, 'preflop' … 'river' as f$preflop … f$river); alea reads \
                     the rules as OpenPPL, without Shanky's relaxations",
            )
            .with_span(first.name_span)
            .with_help(
                "convert the rules to OpenPPL (exact action names, RaiseBy/RaiseTo, SET user…)",
            ),
        );
    }
    if let Some(span) = preamble {
        let d = if sections.is_empty() {
            // CFormulaFileSplitter::SplitFile: "Input file does not contain any bot-logic".
            let mut d = Diagnostic::error(
                "the file contains no section: no ##f$name## or ##listNAME## header \
                 (OpenHoldem 14: \"Input file does not contain any bot-logic\")",
            )
            .with_span(span)
            .with_help("OpenHoldem formula files are a sequence of ##name## headers and bodies");
            if text.lines().any(|l| shanky_betround(l).is_some()) {
                d = d.with_note(
                    "lines 'preflop' … 'river' start Shanky-style betting rounds only after the \
                     keyword 'custom' or option settings ('name = value') at the top of the file",
                );
            }
            d
        } else {
            Diagnostic::warning("text before the first section header is ignored")
                .with_span(span)
                .with_help("put notes into ##notes##")
        };
        diags.push(d);
    }
    sections.retain(|s| !s.name.is_empty());
    sections
}

/// `preflop`, `flop`, `turn` or `river` starting a line, lower case, not followed by a letter
/// or digit (CFormulaFileSplitter::IsShankyFunction).
fn shanky_betround(line: &str) -> Option<&'static str> {
    ["preflop", "flop", "turn", "river"].into_iter().find(|r| {
        line.strip_prefix(r)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric()))
    })
}

fn parse_header(line: &str, at: usize) -> Result<(String, Span), Diagnostic> {
    let rest = &line[2..];
    let Some(close) = rest.find("##") else {
        return Err(Diagnostic::error("section header without closing '##'")
            .with_span(Span::new(at, at + line.len())));
    };
    let name = &rest[..close];
    let name_span = Span::new(at + 2, at + 2 + close);
    if name.is_empty() {
        return Err(Diagnostic::error("empty section name '####'").with_span(Span::new(at, at + 4)));
    }
    let after = &rest[close + 2..];
    if !after.chars().all(|c| c == ' ' || c == '\t') {
        let off = at + 2 + close + 2;
        return Err(
            Diagnostic::error("text after the closing '##' of a section header")
                .with_span(Span::new(off, at + line.len())),
        );
    }
    let date = name.starts_with(|c: char| c.is_ascii_digit());
    let plain = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if !date && !plain {
        return Err(
            Diagnostic::error(format!("invalid section name '{name}'")).with_span(name_span)
        );
    }
    Ok((name.to_string(), name_span))
}

/// Functions OpenHoldem 14 refuses, with its reason (`CFunctionCollection::CheckForOutdatedFunction`).
const OUTDATED: [(&str, &str); 5] = [
    ("f$alli", "f$alli was replaced by f$allin"),
    ("f$rais", "f$rais was replaced by f$raise"),
    (
        "f$play",
        "f$play was replaced by f$sitin, f$sitout and f$leave",
    ),
    ("f$P", "f$P was replaced by f$prwin_number_of_opponents"),
    (
        "f$swag",
        "f$swag and its helpers were replaced by f$betsize (raise-to, in dollars)",
    ),
];

/// The WinHoldem sections of old bots (OH 14: "Found unknown function type").
const WINHOLDEM_SECTIONS: [&str; 4] = ["bankroll", "defcon", "rake", "nit"];

/// The hint that goes with every refusal `alea holdem upgrade` repairs.
pub(crate) const UPGRADE_HINT: &str =
    "`alea holdem upgrade FILE` rewrites an old bot for OpenHoldem 14";

fn classify(name: &str, span: Span) -> Result<SectionKind, Diagnostic> {
    // CFormulaParser::ParseFormula: dates are ignored, `notes` and `dll` in any case.
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return Ok(SectionKind::Date);
    }
    if name.eq_ignore_ascii_case("notes") {
        return Ok(SectionKind::Notes);
    }
    if name.eq_ignore_ascii_case("dll") {
        return Ok(SectionKind::Dll);
    }
    if let Some((_, why)) = OUTDATED.iter().find(|(old, _)| *old == name) {
        return Err(
            Diagnostic::error(format!("outdated function '{name}': {why}"))
                .with_span(span)
                .with_help(UPGRADE_HINT),
        );
    }
    if name.starts_with("f$OpenPPL") {
        return Err(Diagnostic::error(format!(
            "'{name}' is old-style translated OpenPPL, which OpenHoldem 14 no longer loads"
        ))
        .with_span(span)
        .with_help(
            "OpenHoldem 14 reads plain-text OpenPPL: ##f$preflop## … ##f$river## with WHEN rules",
        ));
    }
    if name == "f$" {
        return Err(Diagnostic::error("function name missing after 'f$'").with_span(span));
    }
    if name == "f$debug" {
        return Ok(SectionKind::Debug);
    }
    if name.starts_with("f$") {
        // CFunctionCollection::CheckForMisspelledOpenPPLMainFunction.
        let lower = name.to_ascii_lowercase();
        if lower != name && ["f$preflop", "f$flop", "f$turn", "f$river"].contains(&lower.as_str()) {
            return Err(Diagnostic::error(format!(
                "misspelled OpenPPL main function '{name}': the main functions are lower case"
            ))
            .with_span(span)
            .with_help(format!("write ##{lower}##")));
        }
        return Ok(SectionKind::Function);
    }
    if name.starts_with("list") && name.len() > 4 {
        return Ok(SectionKind::List);
    }
    // COHScriptObject::IsOpenPPLSymbol: an upper-case first letter is an OpenPPL function.
    if name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Ok(SectionKind::Function);
    }
    let mut d = Diagnostic::error(format!("unknown section kind '{name}'")).with_span(span);
    if WINHOLDEM_SECTIONS.contains(&name) {
        d = d
            .with_note(format!(
                "'{name}' is an obsolete WinHoldem section; OpenHoldem 14 refuses it"
            ))
            .with_help(UPGRADE_HINT);
    } else {
        d = d.with_help("functions are ##f$name## or ##OpenPPLName##, hand lists ##listNAME##; did you forget 'f$'?");
    }
    Err(d)
}

/// A hand list: the 169 classes as a 13×13 matrix. `[hi][lo]` with hi > lo is suited,
/// `[lo][hi]` offsuit, `[r][r]` the pair (ranks 0 = deuce … 12 = ace).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandList {
    cells: [[bool; 13]; 13],
}

fn rank_index(c: u8) -> Option<usize> {
    b"23456789TJQKA"
        .iter()
        .position(|&r| r == c.to_ascii_uppercase())
}

impl HandList {
    /// Whether the class (two ranks 2..=14, suited) is listed.
    pub fn contains(&self, r1: u8, r2: u8, suited: bool) -> bool {
        let (hi, lo) = if r1 >= r2 { (r1, r2) } else { (r2, r1) };
        let (hi, lo) = ((hi - 2) as usize, (lo - 2) as usize);
        if hi == lo {
            self.cells[hi][hi]
        } else if suited {
            self.cells[hi][lo]
        } else {
            self.cells[lo][hi]
        }
    }

    /// Number of listed classes.
    pub fn len(&self) -> usize {
        self.cells.iter().flatten().filter(|&&c| c).count()
    }

    /// True when nothing is listed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn add(&mut self, member: &str) -> Result<(), String> {
        let b = member.as_bytes();
        let invalid = || format!("invalid hand-list member '{member}'");
        if b.len() < 2 || b.len() > 3 {
            return Err(invalid());
        }
        let (Some(r1), Some(r2)) = (rank_index(b[0]), rank_index(b[1])) else {
            return Err(invalid());
        };
        let (hi, lo) = (r1.max(r2), r1.min(r2));
        if b.len() == 2 {
            if hi != lo {
                return Err(format!(
                    "old-style list member '{member}' (OpenHoldem 14 refuses it): write '{member}s' and/or '{member}o'"
                ));
            }
            self.cells[hi][hi] = true;
            return Ok(());
        }
        let suited = match b[2] {
            b's' | b'S' => true,
            b'o' | b'O' => false,
            _ => return Err(invalid()),
        };
        if hi == lo {
            // COHScriptList::Set: `AAo` and `KKs` are the pair.
            self.cells[hi][hi] = true;
            return Ok(());
        }
        if suited {
            self.cells[hi][lo] = true;
        } else {
            self.cells[lo][hi] = true;
        }
        Ok(())
    }
}

/// Parses a list body (members, whitespace, comments). Reports every bad member.
pub fn parse_hand_list(file: &SourceFile, body: Span, diags: &mut Vec<Diagnostic>) -> HandList {
    let text = file.text();
    let b = text.as_bytes();
    let (mut i, end) = (body.start as usize, body.end as usize);
    let mut list = HandList::default();
    while i < end {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if text[i..end].starts_with("//") {
            while i < end && b[i] != b'\n' {
                i += 1;
            }
        } else if text[i..end].starts_with("/*") {
            match text[i + 2..end].find("*/") {
                Some(k) => i += 2 + k + 2,
                None => {
                    diags.push(
                        Diagnostic::error("unterminated block comment")
                            .with_span(Span::new(i, i + 2)),
                    );
                    i = end;
                }
            }
        } else {
            let start = i;
            let comment = |i: usize| b[i] == b'/' && i + 1 < end && b[i + 1] == b'/';
            while i < end && !b[i].is_ascii_whitespace() && !comment(i) {
                i += 1;
            }
            // Stay on a character boundary for non-ASCII junk.
            while !text.is_char_boundary(i) {
                i += 1;
            }
            if let Err(msg) = list.add(&text[start..i]) {
                let mut d = Diagnostic::error(msg).with_span(Span::new(start, i));
                if d.message.starts_with("old-style") {
                    d = d.with_help(UPGRADE_HINT);
                }
                diags.push(d);
            }
        }
    }
    list
}

/// One line of `##f$debug##`: the label text and the expression's range.
#[derive(Clone, Debug)]
pub struct DebugLine {
    /// Text before the `=`, trimmed.
    pub label: String,
    /// The expression after the first `=`.
    pub expr: Span,
}

/// Splits the debug tab into lines with an `=`.
pub fn debug_lines(file: &SourceFile, body: Span) -> Vec<DebugLine> {
    let text = file.text();
    let mut out = Vec::new();
    let mut pos = body.start as usize;
    let end = body.end as usize;
    while pos < end {
        let line_end = text[pos..end].find('\n').map_or(end, |k| pos + k);
        let line = &text[pos..line_end];
        if let Some(eq) = line.find('=') {
            out.push(DebugLine {
                label: line[..eq].trim().to_string(),
                expr: Span::new(pos + eq + 1, line_end),
            });
        }
        pos = line_end + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> (Vec<(SectionKind, String)>, Vec<String>) {
        let f = SourceFile::new("t.ohf", text);
        let mut d = Vec::new();
        let s = split_sections(&f, &mut d);
        (
            s.into_iter().map(|s| (s.kind, s.name)).collect(),
            d.into_iter().map(|d| d.message).collect(),
        )
    }

    #[test]
    fn sections() {
        let (s, d) =
            split("\u{feff}\n##2014-02-09 23:16:55##\n##notes##\nhi\n##f$a##\n1\n##list7##\nAA\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(s.len(), 4);
        assert_eq!(s[2], (SectionKind::Function, "f$a".into()));
        assert_eq!(s[3], (SectionKind::List, "list7".into()));
        // OH 14 skips text before the first header (warning here); no header at all is an error.
        assert_eq!(
            split("hello\n##f$a##\n").1,
            ["text before the first section header is ignored"]
        );
        assert_eq!(
            split("hello\n").1,
            [
                "the file contains no section: no ##f$name## or ##listNAME## header \
                 (OpenHoldem 14: \"Input file does not contain any bot-logic\")"
            ]
        );
        // Shanky-style option settings are skipped without a word; a rule line is reported.
        assert_eq!(
            split("MaxStake = 10\nhello\n##f$a##\n").1,
            ["text before the first section header is ignored"]
        );
        assert_eq!(split("##asdf##\n").1, ["unknown section kind 'asdf'"]);
        assert_eq!(
            split("##bankroll##\n").1,
            ["unknown section kind 'bankroll'"]
        );
        assert_eq!(split("##NOTES##\n##f$srai##\n").1, Vec::<String>::new());
        assert_eq!(
            split("##f$Preflop##\n").1,
            ["misspelled OpenPPL main function 'f$Preflop': the main functions are lower case"]
        );
        assert_eq!(split("##f$a\n").1, ["section header without closing '##'"]);
        assert_eq!(split("####\n").1, ["empty section name '####'"]);
        assert_eq!(
            split("##f$a## x\n").1,
            ["text after the closing '##' of a section header"]
        );
        assert_eq!(
            split("##Raise##\n").0[0],
            (SectionKind::Function, "Raise".into())
        );
        assert_eq!(
            split("##f$swag##\n").1,
            [
                "outdated function 'f$swag': f$swag and its helpers were replaced by f$betsize (raise-to, in dollars)"
            ]
        );
        assert_eq!(split("##nit##\n").1, ["unknown section kind 'nit'"]);
    }

    #[test]
    fn lists() {
        let f = SourceFile::new("t", "AA KAs /* c */ t9o // x\n AK KKs 22+ Q");
        let mut d = Vec::new();
        let l = parse_hand_list(&f, Span::new(0, f.text().len()), &mut d);
        assert!(l.contains(14, 14, false));
        assert!(l.contains(13, 14, true));
        assert!(!l.contains(13, 14, false));
        assert!(l.contains(9, 10, false));
        assert!(l.contains(13, 13, false));
        assert_eq!(l.len(), 4);
        // Non-ASCII junk is one bad member, never a panic.
        let f2 = SourceFile::new("t", "AA é//x\nKé ");
        let mut d2 = Vec::new();
        parse_hand_list(&f2, Span::new(0, f2.text().len()), &mut d2);
        assert_eq!(d2.len(), 2);
        let m: Vec<_> = d.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            m,
            [
                "old-style list member 'AK' (OpenHoldem 14 refuses it): write 'AKs' and/or 'AKo'",
                "invalid hand-list member '22+'",
                "invalid hand-list member 'Q'"
            ]
        );
    }
}
