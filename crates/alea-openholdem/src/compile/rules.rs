//! Code of OpenPPL functions: the rules become a flat run of tests and returns, evaluated as
//! OpenHoldem 14 evaluates its when-condition trees (`CParseTreeOperatorNode::
//! EvaluateTernaryExpression`, back-patched by `CFormulaParser::BackPatchOpenEndedWhen…`):
//!
//! * an open-ended `WHEN c` guards the rules after it up to the next open-ended `WHEN`: when
//!   `c` is false they are skipped;
//! * `WHEN c action FORCE` returns the action's value when `c` holds;
//! * `WHEN c SET user_x` sets the variable and goes on with the next rule;
//! * when no rule fires the value is 0, or for `f$preflop` … `f$river` the profile's
//!   `DefaultPreflop` … `DefaultRiver` when it defines one
//!   (`CParseTreeTerminalNodeEndOfFunction`).

use super::{Builder, Instr, NO_NODE};
use crate::ast::Action;
use crate::symbols;
use alea_core::Diagnostic;

/// The fallback function of a main OpenPPL function: `f$flop` → `DefaultFlop`.
pub(crate) fn default_function(name: &str) -> Option<String> {
    let round = ["preflop", "flop", "turn", "river"]
        .into_iter()
        .find(|r| name.strip_prefix("f$") == Some(*r))?;
    let mut s = String::from("Default");
    s.push_str(&round[..1].to_ascii_uppercase());
    s.push_str(&round[1..]);
    Some(s)
}

impl Builder<'_> {
    /// Pushes a table symbol the actions compute with (`ncallbets`, `pot` …).
    fn action_symbol(&mut self, f: u32, name: &str) {
        let span = self.functions[f as usize].name_span;
        match symbols::lookup(name) {
            Some(sym) => self.emit_symbol(f, sym, name, span, NO_NODE),
            None => {
                let file = self.functions[f as usize].file;
                self.error(
                    file,
                    Diagnostic::error(format!("internal: symbol '{name}' is missing"))
                        .with_span(span),
                );
                self.emit(Instr::Const(0.0), NO_NODE);
            }
        }
    }

    pub(super) fn generate_rules(&mut self, f: u32) {
        let rules = self.functions[f as usize].rules.clone();
        let mut guard: Option<u32> = None;
        for rule in rules {
            let Some(action) = rule.action else {
                // A new open-ended WHEN: the previous guard's rules end here.
                if let Some(j) = guard.take() {
                    self.patch(j);
                }
                self.generate_expr(f, rule.cond);
                guard = Some(self.emit(Instr::JumpIfFalsePop(0), NO_NODE));
                continue;
            };
            self.generate_expr(f, rule.cond);
            let skip = self.emit(Instr::JumpIfFalsePop(0), NO_NODE);
            match action {
                Action::Return(n) | Action::RaiseTo(n) => self.generate_expr(f, n),
                Action::Fixed(n, _) => self.resolve(f, n),
                Action::RaiseBy(n) => {
                    // CParseTreeTerminalNodeBetsizeAction::Evaluate: ncallbets + N.
                    self.action_symbol(f, "ncallbets");
                    self.generate_expr(f, n);
                    self.emit(Instr::Add, NO_NODE);
                }
                Action::RaiseByPot(n) => {
                    // ncallbets + N/100 * (pot / bet + nbetstocall).
                    self.action_symbol(f, "ncallbets");
                    self.generate_expr(f, n);
                    self.emit(Instr::MulK(0.01), NO_NODE);
                    self.action_symbol(f, "pot");
                    self.action_symbol(f, "bet");
                    self.emit(Instr::Div, NO_NODE);
                    self.action_symbol(f, "nbetstocall");
                    self.emit(Instr::Add, NO_NODE);
                    self.emit(Instr::Mul, NO_NODE);
                    self.emit(Instr::Add, NO_NODE);
                }
                Action::Set(n) => {
                    self.generate_set(f, n);
                    // Drop the command's 0 and go on with the next rule.
                    let next = self.code.len() as u32 + 1;
                    self.emit(Instr::JumpIfFalsePop(next), NO_NODE);
                    self.patch(skip);
                    continue;
                }
            }
            self.emit(Instr::Ret, NO_NODE);
            self.patch(skip);
        }
        if let Some(j) = guard {
            self.patch(j);
        }
        let name = self.functions[f as usize].name.clone();
        let fallback = default_function(&name).filter(|d| self.fn_index.contains_key(d));
        let span = self.functions[f as usize].name_span;
        match fallback {
            Some(d) => {
                self.call_function(f, &d, span, NO_NODE, None);
            }
            None => {
                self.emit(Instr::Const(0.0), NO_NODE);
            }
        }
        self.emit(Instr::Ret, NO_NODE);
    }

    /// `SET user_x` sets the user variable to 1 (`CSymbolEngineOpenPPLUserVariables::Set`);
    /// `SET me_st_…` runs the memory command. Either leaves a 0 on the stack.
    fn generate_set(&mut self, f: u32, n: crate::ast::NodeId) {
        let name = self.name_of(f, n);
        if name.starts_with("me_") {
            self.resolve(f, n);
            return;
        }
        let cell = self.user_variable(&name);
        self.memory_written[cell as usize] = true;
        self.emit(Instr::Const(1.0), NO_NODE);
        self.emit(Instr::MemSet(cell), n);
    }
}
