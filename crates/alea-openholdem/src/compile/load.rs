//! Loading the files of a profile: sections, lists, function bodies (OH-script or OpenPPL) and
//! the debug tab, with the duplicate rules.
//!
//! OpenHoldem 14 loads its OpenPPL library and the bot's files into one function collection
//! (`CFormulaParser::ParseDefaultLibraries`, `CFunctionCollection::Add`); alea loads every file
//! given as one profile the same way, so a function may be used in another file.

use super::{Builder, DebugEntry, Function, Located};
use crate::ast::{Expr, UnOp};
use crate::ohf::{self, SectionKind};
use crate::openppl::{Body, parse_function_body};
use crate::parser::parse_body;
use alea_core::{Diagnostic, Span};
use std::collections::HashMap;

/// Where a section was defined: file and name span.
type Place = (usize, Span);

/// A body without its comments and whitespace, to tell a repeated definition from a
/// different one.
fn normalized(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        out.extend(code.chars().filter(|c| !c.is_whitespace()));
    }
    out
}

impl Builder<'_> {
    /// A load-time warning: shown by `--lint`, not by every evaluation.
    fn lint_warning(&mut self, file: usize, diagnostic: Diagnostic) {
        self.lint.push(Located { file, diagnostic });
    }

    fn place_text(&self, (file, span): Place) -> String {
        let (line, _) = self.files[file].line_col(span.start as usize);
        format!("{}:{line}", self.files[file].name())
    }

    /// Splits every formula file, registers lists and functions and parses their bodies.
    /// Returns the `##f$debug##` section and its file.
    pub(super) fn load_sections(&mut self) -> Option<(usize, ohf::Section)> {
        let mut debug = None;
        let mut seen: HashMap<String, (Place, Span)> = HashMap::new();
        for file_index in 0..self.formula_files {
            let file = &self.files[file_index];
            let mut diags = Vec::new();
            let sections = ohf::split_sections(file, &mut diags);
            for d in diags {
                if d.is_error() {
                    self.error(file_index, d);
                } else {
                    self.lint_warning(file_index, d);
                }
            }
            for s in &sections {
                if matches!(
                    s.kind,
                    SectionKind::List | SectionKind::Function | SectionKind::Debug
                ) && let Some((prev, prev_body)) =
                    seen.insert(s.name.clone(), ((file_index, s.name_span), s.body))
                {
                    let same = normalized(self.files[prev.0].slice(prev_body))
                        == normalized(self.files[file_index].slice(s.body));
                    self.duplicate(&s.name, prev, (file_index, s.name_span), same);
                }
                self.load_section(file_index, s, &mut debug);
            }
        }
        debug
    }

    /// The later definition wins, as OpenHoldem 14 replaces a function it already has
    /// (`CFunctionCollection::Add`), with a warning naming both places. Across the files of a
    /// profile OH 14's own library relies on this (every library file defines
    /// `OpenPPL_License_Text`; a stub of `Omaha_NutFullHouseOrFourOfAKind` is replaced by the
    /// real one), so it cannot be an error; the same body defined again says nothing.
    fn duplicate(&mut self, name: &str, first: Place, again: Place, same_body: bool) {
        if first.0 != again.0 && same_body {
            return;
        }
        let w = if first.0 == again.0 {
            let (line, _) = self.files[first.0].line_col(first.1.start as usize);
            Diagnostic::warning(format!(
                "section '{name}' is defined twice; the later one (this) wins"
            ))
            .with_span(again.1)
            .with_note(format!("first defined at line {line}"))
        } else {
            Diagnostic::warning(format!(
                "'{name}' is defined twice in the profile: here and at {}; this later one wins",
                self.place_text(first)
            ))
            .with_span(again.1)
        };
        self.lint_warning(again.0, w.clone());
        self.error(again.0, w);
    }

    fn load_section(
        &mut self,
        file_index: usize,
        s: &ohf::Section,
        debug: &mut Option<(usize, ohf::Section)>,
    ) {
        let file = &self.files[file_index];
        let body_text = file.slice(s.body);
        if matches!(s.kind, SectionKind::Dll | SectionKind::Date) && !body_text.trim().is_empty() {
            self.lint_warning(
                file_index,
                Diagnostic::warning(format!("the body of section '{}' is ignored", s.name))
                    .with_span(s.name_span),
            );
        }
        match s.kind {
            SectionKind::List => {
                let mut d = Vec::new();
                let list = ohf::parse_hand_list(file, s.body, &mut d);
                for d in d {
                    self.error(file_index, d);
                }
                match self.list_index.get(&s.name) {
                    Some(&i) => self.lists[i as usize].1 = list,
                    None => {
                        self.list_index
                            .insert(s.name.clone(), self.lists.len() as u32);
                        self.lists.push((s.name.clone(), list));
                        self.list_used.push(false);
                        self.list_places.push((file_index, s.name_span));
                    }
                }
            }
            SectionKind::Function => {
                let idx = match self.fn_index.get(&s.name) {
                    Some(&i) => i,
                    None => {
                        let i = self.functions.len() as u32;
                        self.fn_index.insert(s.name.clone(), i);
                        self.functions.push(Function {
                            name: s.name.clone(),
                            file: file_index,
                            header_line: s.header_line,
                            entry: 0,
                            trace_entry: 0,
                            root: None,
                            rules: Vec::new(),
                            name_span: s.name_span,
                            standard: self.standard.contains(&s.name),
                        });
                        self.fn_used.push(false);
                        i
                    }
                };
                let f = &mut self.functions[idx as usize];
                f.file = file_index;
                f.header_line = s.header_line;
                f.name_span = s.name_span;
                f.root = None;
                f.rules.clear();
                let (start, end) = (s.body.start as usize, s.body.end as usize);
                let mut side = Vec::new();
                let parsed = parse_function_body(file, start, end, &mut self.ast, &mut side);
                for d in side {
                    if d.severity == alea_core::Severity::Error {
                        self.error(file_index, d);
                    } else {
                        self.lint_warning(file_index, d);
                    }
                }
                match parsed {
                    Ok(Body::Empty) => {}
                    Ok(Body::Expr(root)) => self.functions[idx as usize].root = Some(root),
                    Ok(Body::Rules(rules)) => self.functions[idx as usize].rules = rules,
                    Err(d) => self.error(file_index, d),
                }
            }
            SectionKind::Debug => *debug = Some((file_index, s.clone())),
            _ => {}
        }
    }

    /// Each line of the debug tab becomes a hidden function (`CFormulaParser::ParseDebugTab`).
    /// A line that does not parse is skipped with a warning, and so is a line naming an
    /// unknown symbol (see `names.rs`): the debug tab is a scratch pad.
    pub(super) fn load_debug(&mut self, section: Option<(usize, ohf::Section)>) -> Vec<DebugEntry> {
        let Some((file_index, section)) = section else {
            return Vec::new();
        };
        let file = &self.files[file_index];
        let mut out = Vec::new();
        for line in ohf::debug_lines(file, section.body) {
            let mut ast = std::mem::take(&mut self.ast);
            let parsed = parse_body(
                file,
                line.expr.start as usize,
                line.expr.end as usize,
                &mut ast,
                "end of line",
            );
            self.ast = ast;
            match parsed {
                Ok(root) => {
                    let idx = self.functions.len() as u32;
                    let bitwise = root.is_some_and(|r| match self.ast.node(r).expr {
                        Expr::Binary(op, ..) => op.is_bitwise(),
                        Expr::Unary(op, _) => op == UnOp::BitNot,
                        _ => false,
                    });
                    self.functions.push(Function {
                        name: "f$debug".into(),
                        file: file_index,
                        header_line: section.header_line,
                        entry: 0,
                        trace_entry: 0,
                        root,
                        rules: Vec::new(),
                        name_span: section.name_span,
                        standard: true,
                    });
                    self.fn_used.push(true);
                    out.push(DebugEntry {
                        label: line.label,
                        function: idx,
                        bitwise,
                    });
                }
                Err(d) => {
                    let mut w = d;
                    w.severity = alea_core::Severity::Warning;
                    w.message = format!("{} (debug line skipped)", w.message);
                    self.error(file_index, w);
                }
            }
        }
        out
    }
}
