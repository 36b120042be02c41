//! Name resolution (spec §5.2): constants, functions, lists, memory symbols, the catalogue,
//! with suggestions for unknown names.

use super::{Builder, Dep, Instr, NO_NODE};
use crate::ast::NodeId;
use crate::symbols::{self, Symbol};
use alea_core::{Diagnostic, Span};

impl Builder<'_> {
    pub(super) fn name_of(&self, f: u32, n: NodeId) -> String {
        if let Some(name) = self.ast.names.get(&n) {
            return name.clone();
        }
        let file = self.functions[f as usize].file;
        self.files[file].slice(self.ast.node(n).op_span).to_string()
    }

    /// The memory cell of an OpenPPL user variable (`user…`, case as written).
    pub(super) fn user_variable(&mut self, name: &str) -> u32 {
        self.memory_cell(name)
    }

    fn slot(&mut self, key: String, sym: Symbol) -> u32 {
        if let Some(&i) = self.slot_index.get(&key) {
            return i;
        }
        let i = self.slots.len() as u32;
        self.slots.push((key.clone(), sym));
        self.slot_index.insert(key, i);
        i
    }

    fn memory_cell(&mut self, name: &str) -> u32 {
        let name = name.to_ascii_lowercase();
        if let Some(&i) = self.memory_index.get(&name) {
            return i;
        }
        let i = self.memory_names.len() as u32;
        self.memory_names.push(name.clone());
        self.memory_index.insert(name, i);
        self.memory_written.push(false);
        i
    }

    /// Resolves the identifier node `n` of function `f` and emits its code.
    pub(super) fn resolve(&mut self, f: u32, n: NodeId) {
        let name = self.name_of(f, n);
        let span = self.ast.node(n).op_span;
        let file = self.functions[f as usize].file;
        if let Err(mut d) = self.emit_name(f, &name, span, n, true) {
            if self.functions[f as usize].name == "f$debug" {
                // The debug tab is a scratch pad: an unknown name there is a warning and
                // the line shows 0.
                d.severity = alea_core::Severity::Warning;
                d.message = format!("{} (in the debug tab: the line shows 0)", d.message);
                self.lint.push(super::Located {
                    file,
                    diagnostic: d,
                });
            } else {
                self.error(file, d);
            }
            self.emit(Instr::Const(0.0), n);
        }
    }

    pub(super) fn call_function(
        &mut self,
        f: u32,
        name: &str,
        span: Span,
        n: NodeId,
        via: Option<&str>,
    ) -> bool {
        let hidden = via.is_some();
        match self.fn_index.get(name) {
            Some(&callee) => {
                self.fn_used[callee as usize] = true;
                self.deps[f as usize].push(Dep {
                    callee,
                    via: via.map(str::to_string),
                    span,
                });
                let i = if hidden {
                    Instr::HiddenCall(callee)
                } else {
                    Instr::Call(callee)
                };
                self.emit(i, n);
                true
            }
            None => false,
        }
    }

    pub(super) fn emit_name(
        &mut self,
        f: u32,
        name: &str,
        span: Span,
        n: NodeId,
        allow_store: bool,
    ) -> Result<(), Diagnostic> {
        if let Some(v) = symbols::constant(name) {
            self.emit(Instr::Const(v), n);
            return Ok(());
        }
        if let Some((why, instead)) = crate::outdated::outdated_symbol(name) {
            let mut d = Diagnostic::error(format!(
                "outdated symbol '{name}' (OpenHoldem 14 refuses it): {why}"
            ))
            .with_span(span);
            if let Some(new) = instead {
                d = d.with_help(format!("use '{new}'; {}", crate::ohf::UPGRADE_HINT));
            }
            return Err(d);
        }
        if name.starts_with(|c: char| c.is_ascii_uppercase()) {
            return self.emit_openppl_name(f, name, span, n);
        }
        if name.starts_with("f$") {
            if name == "f$debug" {
                self.emit(Instr::Const(0.0), n);
                return Ok(());
            }
            if self.call_function(f, name, span, n, None) {
                return Ok(());
            }
            if self.standard.iter().any(|s| s == name) {
                let file = self.functions[f as usize].file;
                self.undefined_standard.push(super::Located {
                    file,
                    diagnostic: Diagnostic::error(format!("undefined function '{name}'"))
                        .with_span(span)
                        .with_note("a standard function the profile does not define is 0"),
                });
                self.emit(Instr::Const(0.0), n);
                return Ok(());
            }
            return Err(self.with_suggestions(
                Diagnostic::error(format!("undefined function '{name}'")).with_span(span),
                name,
                Pool::Functions,
            ));
        }
        if let Some(list) = name
            .strip_prefix("is")
            .filter(|l| l.starts_with("list"))
            .or(name.starts_with("list").then_some(name))
        {
            if let Some(&i) = self.list_index.get(list) {
                self.list_used[i as usize] = true;
                self.emit(Instr::List(i), n);
                return Ok(());
            }
            return Err(self.with_suggestions(
                Diagnostic::error(format!("undefined list '{name}'")).with_span(span),
                list,
                Pool::Lists,
            ));
        }
        if let Some(rest) = name.strip_prefix("me_") {
            return self.emit_memory(f, name, rest, span, n, allow_store);
        }
        if let Some(rest) = name.strip_prefix("hand$").or(name.strip_prefix("board$"))
            && crate::handexpr::mistaken_spades(rest)
        {
            // CSymbolEngineOpenPPLHandAndBoardExpression::CheckForProbablyMistakenSpadesInsteadOfSuited.
            return Err(Diagnostic::error(format!(
                "hand or board expression '{name}' ends in 's' (spades) after two ranks: OpenHoldem 14 refuses it as ambiguous"
            ))
            .with_span(span)
            .with_help(format!("write '{name}uited' for suited, or put the spade first ('Ks' before the other rank)")));
        }
        if let Some(sym) = symbols::lookup(name) {
            self.emit_symbol(f, sym, name, span, n);
            return Ok(());
        }
        if name.len() >= 4 && name[..4].eq_ignore_ascii_case("user") {
            // CSymbolEngineOpenPPLUserVariables::EvaluateSymbol: 1 once SET, else 0.
            let cell = self.user_variable(name);
            let file = self.functions[f as usize].file;
            self.memory_reads.push((file, span, cell));
            self.emit(Instr::MemRead(cell), n);
            return Ok(());
        }
        if let Some(parts) = super::multiplex::split(name) {
            return self.emit_multiplexed(f, parts, span, n);
        }
        if symbols::is_live_table_name(name) {
            return Err(Diagnostic::error(format!(
                "symbol '{name}' needs a live table: not available offline"
            ))
            .with_span(span));
        }
        Err(self.with_suggestions(
            Diagnostic::error(format!("unknown symbol '{name}'")).with_span(span),
            name,
            Pool::Everything,
        ))
    }

    /// A name with an upper-case first letter is an OpenPPL function of the profile
    /// (`COHScriptObject::IsOpenPPLSymbol`); names are case-sensitive, and a name differing
    /// only in case gets OH 14's hint (`CFunctionCollection::GetSimilarNameWithDifferentCases`).
    /// Without a definition the action constants (`Fold`, `RaiseMax` …) and `Others` have the
    /// values of OH 14's OpenPPL library.
    fn emit_openppl_name(
        &mut self,
        f: u32,
        name: &str,
        span: Span,
        n: NodeId,
    ) -> Result<(), Diagnostic> {
        if self.call_function(f, name, span, n, None) {
            return Ok(());
        }
        if let Some(parts) = super::multiplex::split(name) {
            return self.emit_multiplexed(f, parts, span, n);
        }
        if name == "Random" {
            // CSymbolEngineRandom provides `Random` as well as `random`.
            self.emit_symbol(f, Symbol::Random, name, span, n);
            return Ok(());
        }
        let builtin = match name {
            "Others" => Some(1.0),
            _ => crate::openppl::action_constant(name),
        };
        if let Some(v) = builtin {
            self.emit(Instr::Const(v), n);
            return Ok(());
        }
        let mut d =
            Diagnostic::error(format!("undefined OpenPPL function '{name}'")).with_span(span);
        let lower = name.to_ascii_lowercase();
        if lower.starts_with("hand$") || lower.starts_with("board$") || lower.starts_with("user") {
            d = d.with_help("hand$ and board$ expressions and user variables are lower case");
        } else if self.openppl_library_missing(name) {
            d = d.with_help(
                "OpenPPL symbols come from OpenHoldem's OpenPPL library: add its files to the profile",
            );
        }
        Err(self.with_suggestions(d, name, Pool::Everything))
    }

    /// True when the profile defines no OpenPPL function at all (so no library is loaded).
    fn openppl_library_missing(&self, _name: &str) -> bool {
        !self
            .fn_index
            .keys()
            .any(|k| k.starts_with(|c: char| c.is_ascii_uppercase()))
    }

    pub(super) fn emit_symbol(&mut self, f: u32, sym: Symbol, name: &str, span: Span, n: NodeId) {
        let deps = sym.function_deps();
        for (k, dep) in deps.iter().enumerate() {
            let defined_nonempty = self
                .fn_index
                .get(*dep)
                .is_some_and(|&i| self.functions[i as usize].root.is_some());
            // For the opponent count an empty function means 1; for iterations and ICM
            // payouts the default.
            if !(defined_nonempty && self.call_function(f, dep, span, NO_NODE, Some(name))) {
                self.emit(Instr::Const(sym.absent_dep(k)), NO_NODE);
            }
        }
        let slot = self.slot(name.to_string(), sym);
        // Dependency values were pushed; Sym pops them.
        self.depth_now = self.depth_now.saturating_sub(deps.len());
        self.emit(Instr::Sym(slot), n);
    }

    fn emit_memory(
        &mut self,
        f: u32,
        name: &str,
        rest: &str,
        span: Span,
        n: NodeId,
        allow_store: bool,
    ) -> Result<(), Diagnostic> {
        let bad = |why: &str| {
            Diagnostic::error(format!("invalid memory symbol '{name}': {why}"))
                .with_span(span)
                .with_help("forms: me_st_NAME_VALUE, me_re_NAME, me_inc_NAME, me_add_NAME_VALUE, me_sub_NAME_VALUE")
        };
        let valid_name =
            |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '$');
        let (verb, tail) = rest.split_once('_').ok_or_else(|| bad("missing a NAME"))?;
        match verb {
            "re" | "inc" => {
                // CSymbolEngineMemorySymbols::LeftHandSide: the NAME ends at the next '_';
                // OH 14 ignores what follows (`me_re_pot_old` reads `pot`).
                let tail = tail.split('_').next().unwrap_or("");
                if !valid_name(tail) {
                    return Err(bad("NAME is letters and digits"));
                }
                let cell = self.memory_cell(tail);
                if verb == "re" {
                    let file = self.functions[f as usize].file;
                    self.memory_reads.push((file, span, cell));
                    self.emit(Instr::MemRead(cell), n);
                } else {
                    if !allow_store {
                        return Err(bad("a stored VALUE cannot itself store"));
                    }
                    self.memory_written[cell as usize] = true;
                    self.emit(Instr::MemInc(cell), n);
                }
                Ok(())
            }
            "st" | "add" | "sub" => {
                if !allow_store {
                    return Err(bad("a stored VALUE cannot itself store"));
                }
                let (cell_name, value) =
                    tail.split_once('_').ok_or_else(|| bad("missing a VALUE"))?;
                if !valid_name(cell_name) {
                    return Err(bad("NAME is letters and digits"));
                }
                if value.is_empty() {
                    return Err(bad("missing a VALUE"));
                }
                let cell = self.memory_cell(cell_name);
                self.memory_written[cell as usize] = true;
                if let Some(v) = memory_number(value) {
                    self.emit(Instr::Const(v), NO_NODE);
                } else {
                    let vspan = Span::new(span.end as usize - value.len(), span.end as usize);
                    let r = self.emit_name(f, value, vspan, NO_NODE, false);
                    if let Err(d) = &r
                        && !d.message.starts_with("unknown symbol")
                    {
                        return Err(d.clone().with_note(format!("in the VALUE of '{name}'")));
                    }
                    if let Err(d) = r {
                        // OH 14 evaluates a stored VALUE only when the store runs
                        // (CSymbolEngineMemorySymbols::EvaluateRightHandExpression), so the
                        // file loads: a warning, and the store writes 0.
                        let mut d = d.with_note(format!(
                            "in the VALUE of '{name}' (OpenHoldem 14 loads this; the store writes 0)"
                        ));
                        d.severity = alea_core::Severity::Warning;
                        let file = self.functions[f as usize].file;
                        self.lint.push(super::Located {
                            file,
                            diagnostic: d,
                        });
                        self.emit(Instr::Const(0.0), NO_NODE);
                    }
                    // The value's own node is not traced separately.
                    if let Some(last) = self.node_of.last_mut() {
                        *last = NO_NODE;
                    }
                }
                let i = match verb {
                    "st" => Instr::MemSet(cell),
                    "add" => Instr::MemAdd(cell),
                    _ => Instr::MemSub(cell),
                };
                self.emit(i, n);
                Ok(())
            }
            _ => Err(bad("unknown verb")),
        }
    }
}

/// `3`, `3_141` (= 3.141).
fn memory_number(s: &str) -> Option<f64> {
    let (int, frac) = match s.split_once('_') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    if !digits(int) || frac.is_some_and(|f| !digits(f)) {
        return None;
    }
    let text = match frac {
        Some(f) => format!("{int}.{f}"),
        None => int.to_string(),
    };
    text.parse().ok()
}

/// The names a suggestion is searched among.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Pool {
    /// Standard and defined functions.
    Functions,
    /// Defined lists.
    Lists,
    /// The catalogue, lists and functions.
    Everything,
}

impl Builder<'_> {
    /// Adds "did you mean …" to `d`. Each pool is built once, each name searched once (a bot
    /// written for a missing library repeats a few hundred unknown names thousands of times),
    /// and only while generating the trace code, whose diagnostics are the ones kept.
    pub(super) fn with_suggestions(&mut self, d: Diagnostic, name: &str, pool: Pool) -> Diagnostic {
        if !self.for_trace {
            return d;
        }
        let key = (pool, name.to_string());
        let found = match self.suggestions.get(&key) {
            Some(s) => s.clone(),
            None => {
                if !self.pools.contains_key(&pool) {
                    let names: Vec<String> = match pool {
                        Pool::Functions => {
                            let mut v = self.standard.clone();
                            v.extend(self.fn_index.keys().cloned());
                            v
                        }
                        Pool::Lists => self.lists.iter().map(|l| l.0.clone()).collect(),
                        Pool::Everything => {
                            let mut v = symbols::all_names();
                            v.extend(self.lists.iter().map(|l| l.0.clone()));
                            v.extend(self.fn_index.keys().cloned());
                            v
                        }
                    };
                    self.pools.insert(pool, names);
                }
                let candidates = &self.pools[&pool];
                let s = symbols::suggest(name, candidates.iter().map(|s| s.as_str()));
                self.suggestions.insert(key, s.clone());
                s
            }
        };
        if found.is_empty() {
            return d;
        }
        let list = found
            .iter()
            .map(|n| format!("'{n}'"))
            .collect::<Vec<_>>()
            .join(" or ");
        let message = format!("{}; did you mean {list}?", d.message);
        Diagnostic { message, ..d }
    }
}
