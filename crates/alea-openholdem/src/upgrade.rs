//! `alea holdem upgrade`: rewrites an old (WinHoldem-era) bot into what OpenHoldem 14 loads.
//!
//! Every rewrite mirrors one of OH 14's refusals: renamed functions
//! (`CFunctionCollection::CheckForOutdatedFunction`), WinHoldem sections ("Found unknown
//! function type"), old list members (`COHScriptList::ErrorOldStyleFormat`) and outdated
//! symbols with a replacement (`IsOutdatedSymbol`). Nothing is dropped: what has no OpenHoldem
//! 14 equivalent (`##bankroll##`, `##f$play##` …) moves into `##notes##`, and text before the
//! first header too.

use crate::outdated::outdated_symbol;

/// The rewritten file and what changed (1-based line of the original, description).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upgrade {
    /// The new file text.
    pub text: String,
    /// The changes, in file order.
    pub changes: Vec<(usize, String)>,
}

const RENAMED_FUNCTIONS: [(&str, &str); 4] = [
    ("f$alli", "f$allin"),
    ("f$rais", "f$raise"),
    ("f$swag", "f$betsize"),
    ("f$P", "f$prwin_number_of_opponents"),
];

struct Section<'a> {
    line: usize,
    name: &'a str,
    body: Vec<&'a str>,
}

/// Rewrites `text`.
pub fn upgrade(text: &str) -> Upgrade {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut preamble: Vec<&str> = Vec::new();
    let mut sections: Vec<Section> = Vec::new();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end();
        if bare.starts_with("##") && bare.len() >= 4 && bare.ends_with("##") {
            sections.push(Section {
                line: i + 1,
                name: &bare[2..bare.len() - 2],
                body: Vec::new(),
            });
        } else if let Some(s) = sections.last_mut() {
            s.body.push(line);
        } else {
            preamble.push(line);
        }
    }
    let defined: Vec<&str> = sections.iter().map(|s| s.name).collect();
    let mut changes = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    if preamble.iter().any(|l| !l.trim().is_empty()) {
        changes.push((
            1,
            "moved the text before the first header into ##notes##".into(),
        ));
        notes.extend(preamble.iter().map(|l| l.to_string()));
    }
    let mut out: Vec<String> = Vec::new();
    for s in &sections {
        let renamed = RENAMED_FUNCTIONS
            .iter()
            .find(|(old, _)| *old == s.name)
            .map(|(_, new)| *new)
            .or((s.name == "nit").then_some("f$prwin_number_of_iterations"));
        let winholdem = matches!(s.name, "bankroll" | "defcon" | "rake" | "nit" | "f$play")
            || s.name.starts_with("f$OpenPPL");
        match renamed {
            Some(new) if !defined.contains(&new) => {
                changes.push((s.line, format!("renamed ##{}## to ##{new}##", s.name)));
                out.push(format!("##{new}##\n"));
                out.push(rewrite_body(&s.body, s.line, &mut changes));
                continue;
            }
            _ => {}
        }
        if winholdem || renamed.is_some() {
            changes.push((
                s.line,
                format!(
                    "moved ##{}## into ##notes## (OpenHoldem 14 has no equivalent)",
                    s.name
                ),
            ));
            notes.push(format!("[{}]\n", s.name));
            notes.extend(s.body.iter().map(|l| l.to_string()));
            continue;
        }
        if s.name.eq_ignore_ascii_case("notes") {
            notes.extend(s.body.iter().map(|l| l.to_string()));
            continue;
        }
        out.push(format!("##{}##\n", s.name));
        if s.name.starts_with("list") {
            out.push(rewrite_list(&s.body, s.line, &mut changes));
        } else {
            out.push(rewrite_body(&s.body, s.line, &mut changes));
        }
    }
    let mut text = String::new();
    if !notes.is_empty() {
        text.push_str("##notes##\n");
        for n in &notes {
            text.push_str(n);
            if !n.ends_with('\n') {
                text.push('\n');
            }
        }
    }
    for o in out {
        text.push_str(&o);
    }
    if !text.ends_with('\n') && !text.is_empty() {
        text.push('\n');
    }
    changes.sort_by_key(|c| c.0);
    Upgrade { text, changes }
}

/// `AK` (both suitednesses in WinHoldem) becomes `AKs AKo`.
fn rewrite_list(body: &[&str], header: usize, changes: &mut Vec<(usize, String)>) -> String {
    let mut out = String::new();
    for (k, line) in body.iter().enumerate() {
        let (code, comment) = split_comment(line);
        let mut new = String::new();
        let mut changed = false;
        for (i, word) in code.split(' ').enumerate() {
            if i > 0 {
                new.push(' ');
            }
            let b = word.trim_end_matches(['\r', '\n', '\t']).as_bytes();
            let rank = |c: u8| crate::lexer::is_rank(c);
            if b.len() == 2 && rank(b[0]) && rank(b[1]) && !b[0].eq_ignore_ascii_case(&b[1]) {
                let w = std::str::from_utf8(b).unwrap_or("");
                new.push_str(&format!("{w}s {w}o"));
                new.push_str(&word[2..]);
                changed = true;
            } else {
                new.push_str(word);
            }
        }
        if changed {
            changes.push((
                header + 1 + k,
                "old list members XY written as XYs XYo".into(),
            ));
        }
        out.push_str(&new);
        out.push_str(comment);
    }
    out
}

fn split_comment(line: &str) -> (&str, &str) {
    match line.find("//") {
        Some(i) => (&line[..i], &line[i..]),
        None => (line, ""),
    }
}

/// Renames references to renamed functions and outdated symbols (outside comments).
fn rewrite_body(body: &[&str], header: usize, changes: &mut Vec<(usize, String)>) -> String {
    let mut out = String::new();
    let mut in_block = false;
    for (k, line) in body.iter().enumerate() {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if in_block {
                match line[i..].find("*/") {
                    Some(e) => {
                        out.push_str(&line[i..i + e + 2]);
                        i += e + 2;
                        in_block = false;
                    }
                    None => {
                        out.push_str(&line[i..]);
                        i = b.len();
                    }
                }
                continue;
            }
            if line[i..].starts_with("//") {
                out.push_str(&line[i..]);
                break;
            }
            if line[i..].starts_with("/*") {
                in_block = true;
                out.push_str("/*");
                i += 2;
                continue;
            }
            let c = b[i];
            if c.is_ascii_alphabetic() || c == b'$' {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'$' || b[i] == b'_')
                {
                    i += 1;
                }
                let word = &line[start..i];
                let new = RENAMED_FUNCTIONS
                    .iter()
                    .find(|(old, _)| *old == word)
                    .map(|(_, n)| *n)
                    .or_else(|| outdated_symbol(word).and_then(|(_, n)| n));
                match new {
                    Some(n) => {
                        changes.push((header + 1 + k, format!("'{word}' written as '{n}'")));
                        out.push_str(n);
                    }
                    None => out.push_str(word),
                }
                continue;
            }
            let ch = line[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_an_old_bot() {
        let old = "my old bot\n##bankroll##\n1000\n##f$alli##\nbr == 4 && f$P > 2\n##f$P##\n2\n##list1##\nAA AK // x\n";
        let u = upgrade(old);
        assert_eq!(
            u.text,
            "##notes##\nmy old bot\n[bankroll]\n1000\n##f$allin##\nbetround == 4 && f$prwin_number_of_opponents > 2\n##f$prwin_number_of_opponents##\n2\n##list1##\nAA AKs AKo // x\n"
        );
        assert_eq!(u.changes.len(), 7, "{:?}", u.changes);
    }
}
