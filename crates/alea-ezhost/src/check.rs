//! `alea ez check FILE`: every script field of a tournament file compiled and run once, as
//! the app's editor does, each failure reported with its position in the file.

use crate::fields::{run_payout, run_points};
use crate::host::{PayoutHost, StateHost};
use crate::session::{Kind, Session, eval_field};
use alea_core::{Diagnostic, Span};
use alea_tournament::{Field, LoadError};

/// Where the script at a JSON path lies in the file, and how its decoded text maps back.
struct Located {
    /// Byte offset in the file of each byte of the decoded text (plus one past the end).
    offsets: Vec<usize>,
}

impl Located {
    /// Finds the JSON string at `path` in `file` and maps its characters.
    fn find(file: &str, path: &str) -> Option<Located> {
        let probe = LoadError {
            path: path.to_string(),
            message: String::new(),
            line: 0,
            column: 0,
        };
        let span = probe.span(file)?;
        let start = span.start as usize;
        if file.as_bytes().get(start) != Some(&b'"') {
            return None;
        }
        let mut offsets = Vec::new();
        let mut chars = file[start + 1..].char_indices().peekable();
        let base = start + 1;
        while let Some((i, c)) = chars.next() {
            let at = base + i;
            let decoded = match c {
                '"' => {
                    offsets.push(at);
                    return Some(Located { offsets });
                }
                '\\' => match chars.next() {
                    Some((_, 'u')) => {
                        let hex: String = (0..4)
                            .filter_map(|_| chars.next().map(|(_, c)| c))
                            .collect();
                        let unit = u32::from_str_radix(&hex, 16).unwrap_or(0xFFFD);
                        // A surrogate pair's second half is four more escaped characters.
                        if (0xD800..0xDC00).contains(&unit) {
                            for _ in 0..6 {
                                chars.next();
                            }
                            '\u{10000}'
                        } else {
                            char::from_u32(unit).unwrap_or('\u{FFFD}')
                        }
                    }
                    Some((_, e)) => match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        'b' => '\u{8}',
                        'f' => '\u{c}',
                        other => other,
                    },
                    None => break,
                },
                c => c,
            };
            offsets.extend(std::iter::repeat_n(at, decoded.len_utf8()));
        }
        None
    }

    fn map(&self, span: Option<Span>) -> Option<Span> {
        let last = *self.offsets.last()?;
        let at = |i: usize| self.offsets.get(i).copied().unwrap_or(last);
        span.map(|s| {
            Span::new(
                at(s.start as usize),
                at(s.end as usize).max(at(s.start as usize)),
            )
        })
    }
}

impl Session {
    /// Checks every script of the tournament: `settings.payoutScript`, `settings.pointsFormula`
    /// (for every placed player), and each alert's `condition` and `tts` (run against the
    /// file's state, which also serves as the `was` snapshot). Each distinct failure is one
    /// error `PATH: message` whose span points into the file text the session was built from.
    /// An empty list means every field works.
    pub fn check(&self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = Vec::new();
        let file = self.source_text.as_deref().unwrap_or("");
        let mut report = |path: &str, diags: Vec<Diagnostic>| {
            let located = Located::find(file, path);
            for d in diags {
                let span = match &located {
                    Some(l) => l.map(d.span),
                    None => None,
                };
                let mut e = Diagnostic::error(format!("{path}: {}", d.message));
                e.span = span;
                if !out.contains(&e) {
                    out.push(e);
                }
            }
        };
        let data = self.state.data();
        let settings = &data.settings;
        if let Some(src) = &settings.payout_script {
            let s = &self.state;
            let host = PayoutHost::new(
                |n| s.global(n).and_then(|v| v.as_number()),
                self.now(),
                self.locale(),
            );
            if let Err(d) = run_payout(src, &host, &self.format, self.fuel(Kind::Payout)) {
                report("settings.payoutScript", d);
            }
        }
        if let Some(src) = &settings.points_formula {
            let mut diags = Vec::new();
            for i in self.state.placed_players() {
                let id = f64::from(data.players[i].id);
                let host = StateHost::new(self.state.clone(), Field::Points, self.locale())
                    .with_player_id(id);
                if let Err(d) = run_points(src, &host, &self.format, self.fuel(Kind::Points)) {
                    diags.extend(d);
                }
            }
            if self.state.placed_players().is_empty()
                && let Err(d) = alea_ezscript::Program::compile(src)
            {
                diags.extend(d);
            }
            report("settings.pointsFormula", diags);
        }
        for (i, alert) in data.alerts.iter().enumerate() {
            let snapshot = Some(&self.state);
            let fuel = self.fuel(Kind::Alert);
            let cond = eval_field(
                &self.state,
                snapshot,
                &self.format,
                Kind::Alert,
                &alert.condition,
                false,
                fuel,
            );
            report(
                &format!("alerts[{i}].condition"),
                cond.errors.into_iter().map(|e| e.diagnostic).collect(),
            );
            if let Some(tts) = &alert.tts {
                let t = eval_field(
                    &self.state,
                    snapshot,
                    &self.format,
                    Kind::Alert,
                    tts,
                    true,
                    fuel,
                );
                report(
                    &format!("alerts[{i}].tts"),
                    t.errors.into_iter().map(|e| e.diagnostic).collect(),
                );
            }
        }
        out
    }
}
