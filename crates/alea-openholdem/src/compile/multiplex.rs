//! OpenHoldem 14's multiplexed names (`CSymbolEngineMultiplexer`): `NAME_POSTFIX`, with a
//! postfix naming a chair, a betting round or a suit, is `NAME` followed by the postfix's
//! value: `currentbet_dealerchair` is `currentbet3` when the dealer sits in chair 3,
//! `nbetsround_flop` is `nbetsround2`, `StartingStackSize_buttonchair` the library function
//! `StartingStackSize3`.
//!
//! Rounds and suits are constants, so the name is rewritten at load time. A chair or the
//! current round is known only at run time: the code tests the postfix against each value
//! whose name resolves and takes that one (else 0, as OH 14's unknown result).

use super::{Builder, Instr, NO_NODE};
use crate::ast::NodeId;
use crate::symbols;
use alea_core::{Diagnostic, Span};

/// The postfixes OH 14 multiplexes (`kSupportedPostFixes`).
const POSTFIXES: [&str; 31] = [
    "userchair",
    "headsupchair",
    "smallblindchair",
    "bigblindchair",
    "dealerchair",
    "buttonchair",
    "cutoffchair",
    "mp3chair",
    "mp2chair",
    "mp1chair",
    "ep3chair",
    "ep2chair",
    "ep1chair",
    "utgchair",
    "firstcallerchair",
    "lastcallerchair",
    "firstraiserchair",
    "lastraiserchair",
    "raischair",
    "bigstackchair",
    "smallstackchair",
    "preflop",
    "flop",
    "turn",
    "river",
    "previousround",
    "currentround",
    "clubs",
    "diamonds",
    "hearts",
    "spades",
];

/// `(NAME, POSTFIX)` when `name` is a multiplexed name.
pub(super) fn split(name: &str) -> Option<(&str, &str)> {
    let (pure, postfix) = name.rsplit_once('_')?;
    (!pure.is_empty() && POSTFIXES.contains(&postfix)).then_some((pure, postfix))
}

impl Builder<'_> {
    fn resolvable(&self, name: &str) -> bool {
        self.fn_index.contains_key(name)
            || symbols::lookup(name).is_some()
            || symbols::constant(name).is_some()
    }

    /// Emits the multiplexed name `pure_postfix`.
    pub(super) fn emit_multiplexed(
        &mut self,
        f: u32,
        (pure, postfix): (&str, &str),
        span: Span,
        n: NodeId,
    ) -> Result<(), Diagnostic> {
        if let Some(v) = symbols::constant(postfix) {
            let name = format!("{pure}{}", v as i64);
            return self
                .emit_name(f, &name, span, n, false)
                .map_err(|d| d.with_note(format!("'{pure}_{postfix}' stands for '{name}'")));
        }
        let values: Vec<i64> = if postfix.ends_with("chair") {
            (0..10).collect()
        } else {
            (1..5).collect()
        };
        let candidates: Vec<(i64, String)> = values
            .into_iter()
            .map(|v| (v, format!("{pure}{v}")))
            .filter(|(_, c)| self.resolvable(c))
            .collect();
        if candidates.is_empty() {
            return Err(Diagnostic::error(format!(
                "unknown symbol '{pure}_{postfix}': no '{pure}N' for the {postfix}'s values"
            ))
            .with_span(span));
        }
        let depth = self.depth_now;
        let mut ends = Vec::new();
        for (v, c) in candidates {
            self.emit_name(f, postfix, span, NO_NODE, false)?;
            self.emit(Instr::EqK(v as f64), NO_NODE);
            let skip = self.emit(Instr::JumpIfFalsePop(0), NO_NODE);
            self.emit_name(f, &c, span, n, false)?;
            ends.push(self.emit(Instr::Jump(0), NO_NODE));
            self.depth_now = depth;
            self.patch(skip);
        }
        self.emit(Instr::Const(0.0), n);
        for e in ends {
            self.patch(e);
        }
        self.depth_now = depth + 1;
        Ok(())
    }
}
