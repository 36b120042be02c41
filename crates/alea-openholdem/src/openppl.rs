//! OpenPPL function bodies: a sequence of `WHEN` rules, parsed as OpenHoldem 14 parses them
//! (`CFormulaParser::ParseOpenEndedWhenConditionSequence`, `ParseOpenPPLAction`,
//! `ExpectKeywordForce`, `CTokenizer::CheckTokenForOpenPPLAction`).
//!
//! A body whose first token is `WHEN` is OpenPPL; any other body is one OH-script expression.
//! Conditions and `RETURN` values are ordinary expressions (with `%` as percentage), so the
//! rest of the pipeline (names, code, trace) is shared with OH-script.

use crate::ast::{Action, Ast, NodeId, Rule};
use crate::lexer::{Kw, Tok, Token, lex_with_warnings};
use crate::parser::Parser;
use alea_core::{Diagnostic, SourceFile, Span};

/// A parsed function body.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Body {
    /// Nothing but comments: the value 0.
    Empty,
    /// One OH-script expression.
    Expr(NodeId),
    /// OpenPPL rules, tried in order.
    Rules(Vec<Rule>),
}

/// The OpenPPL actions (OH 14's `kOpenPPLActionStrings`), each with the action it stands for
/// (`kOpenPPLActionConstants`, named as `TokenString` names them). `RaiseTo`, `RaiseBy` and
/// `Set` take operands and are handled apart.
const ACTIONS: [(&str, &str); 26] = [
    ("Bet", "Raise"),
    ("Call", "Call"),
    ("Fold", "Fold"),
    ("Play", "Call"),
    ("Beep", "Beep"),
    ("Raise", "Raise"),
    ("Check", "Check"),
    ("Allin", "RaiseMax"),
    ("BetMin", "Raise"),
    ("BetFourthPot", "RaiseFourthPot"),
    ("BetThirdPot", "RaiseThirdPot"),
    ("BetHalfPot", "RaiseHalfPot"),
    ("BetTwoThirdPot", "RaiseTwoThirdPot"),
    ("BetThreeFourthPot", "RaiseThreeFourthPot"),
    ("BetPot", "RaisePot"),
    ("BetMax", "RaiseMax"),
    ("RaiseMin", "Raise"),
    ("RaiseFourthPot", "RaiseFourthPot"),
    ("RaiseThirdPot", "RaiseThirdPot"),
    ("RaiseHalfPot", "RaiseHalfPot"),
    ("RaiseTwoThirdPot", "RaiseTwoThirdPot"),
    ("RaiseThreeFourthPot", "RaiseThreeFourthPot"),
    ("RaisePot", "RaisePot"),
    ("RaiseMax", "RaiseMax"),
    ("SitOut", "SitOut"),
    ("RaiseTo", "RaiseTo"),
];

/// The decision values of OH 14's OpenPPL library (`OpenPPL_Library_Constants.ohf`): what a
/// main function returns for each action. Positive values are bet sizes in big blinds.
pub const ACTION_VALUES: [(&str, f64); 13] = [
    ("Check", 0.0),
    ("Beep", -1_000_000.0),
    ("Fold", -1_000_001.0),
    ("RaiseFourthPot", -1_000_003.0),
    ("RaiseThirdPot", -1_000_004.0),
    ("RaiseHalfPot", -1_000_005.0),
    ("RaiseTwoThirdPot", -1_000_006.0),
    ("RaiseThreeFourthPot", -1_000_007.0),
    ("RaisePot", -1_000_008.0),
    ("RaiseMax", -1_000_009.0),
    ("Call", -1_000_010.0),
    ("None", -1_000_011.0),
    ("Raise", -1_000_012.0),
];

/// The value of an OpenPPL action constant (`Fold`, `Bet`, `Allin`…), as OH 14's library
/// defines them; a profile's own `##Fold##` takes precedence.
pub fn action_constant(name: &str) -> Option<f64> {
    let canonical = match name {
        "SitOut" => "Fold",
        "RaiseMin" | "Bet" | "BetMin" => "Raise",
        "Play" => "Call",
        "Allin" | "BetMax" => "RaiseMax",
        _ => ACTIONS
            .iter()
            .find(|(a, _)| *a == name && a.starts_with("Bet"))
            .map_or(name, |(_, c)| c),
    };
    ACTION_VALUES
        .iter()
        .find(|(n, _)| *n == canonical)
        .map(|(_, v)| *v)
}

/// What a main function's value means (`CAutoplayerFunctions::TranslateOpenPPLDecisionTo…`):
/// a positive value is a bet of that many big blinds, 0 is check (or fold), a large negative
/// value is an action constant.
pub fn describe_decision(value: f64) -> String {
    if value > 0.0 {
        return format!("RaiseTo {} bb", crate::ops::format_value(value));
    }
    if value == 0.0 || value.is_nan() {
        return "Check (else Fold)".into();
    }
    ACTION_VALUES.iter().find(|(_, v)| *v == value).map_or_else(
        || "no action (unknown decision value)".into(),
        |(n, _)| n.to_string(),
    )
}

/// Parses the body `file.text()[start..end]`. `Err` is the error that ends the function;
/// `side` receives warnings, and errors after which parsing goes on as OpenHoldem 14 does (a
/// wrongly cased action: reported, then read as the action), so one rule can report several.
pub(crate) fn parse_function_body(
    file: &SourceFile,
    start: usize,
    end: usize,
    ast: &mut Ast,
    side: &mut Vec<Diagnostic>,
) -> Result<Body, Diagnostic> {
    let tokens = lex_with_warnings(file.text(), start, end, side)?;
    let mut p = Parser::new(file, ast, "end of function");
    if tokens[0].tok != Tok::Kw(Kw::When) {
        let (root, stop) = p.expression(&tokens, 0)?;
        p.expect_end(&tokens, stop)?;
        return Ok(root.map_or(Body::Empty, Body::Expr));
    }
    p.percent = true;
    RuleParser {
        p,
        file,
        tokens: &tokens,
        side,
    }
    .rules()
    .map(Body::Rules)
}

struct RuleParser<'a, 't> {
    p: Parser<'a>,
    file: &'a SourceFile,
    tokens: &'t [Token],
    side: &'t mut Vec<Diagnostic>,
}

impl RuleParser<'_, '_> {
    fn text(&self, i: usize) -> &str {
        self.file.slice(self.tokens[i].span)
    }

    fn error(&self, i: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(message.into()).with_span(self.tokens[i].span)
    }

    fn rules(&mut self) -> Result<Vec<Rule>, Diagnostic> {
        let mut rules = Vec::new();
        let mut i = 0;
        while self.tokens[i].tok == Tok::Kw(Kw::When) {
            let when_span = self.tokens[i].span;
            i += 1;
            match self.tokens[i].tok {
                Tok::Eof => {
                    return Err(self
                        .error(i - 1, "empty WHEN condition at the end of the function")
                        .with_help("write 'WHEN condition action FORCE' or remove the WHEN"));
                }
                Tok::Kw(Kw::When) => {
                    return Err(self
                        .error(i, "two consecutive WHENs")
                        .with_help("a WHEN is followed by a condition"));
                }
                _ => {}
            }
            let (cond, stop) = self.p.expression(self.tokens, i)?;
            let Some(cond) = cond else {
                return Err(self.error(i, "expected a condition after WHEN"));
            };
            i = stop;
            let (action, next) = self.action(i, when_span)?;
            rules.push(Rule {
                cond,
                action,
                when_span,
            });
            i = next;
        }
        if self.tokens[i].tok != Tok::Eof {
            return Err(self
                .error(
                    i,
                    format!("unexpected '{}' after the last rule", self.text(i)),
                )
                .with_note("OpenPPL functions are a sequence of 'WHEN condition action FORCE'"));
        }
        Ok(rules)
    }

    /// The action after a condition (none for an open-ended WHEN) and the index after it.
    fn action(&mut self, i: usize, when: Span) -> Result<(Option<Action>, usize), Diagnostic> {
        let t = self.tokens[i];
        match t.tok {
            Tok::Kw(Kw::When) | Tok::Eof => return Ok((None, i)),
            Tok::Kw(Kw::Return) => {
                let (value, stop) = self.p.expression(self.tokens, i + 1)?;
                let value = value.ok_or_else(|| {
                    self.error(i + 1, "expected a value after RETURN")
                        .with_help("write 'RETURN expression FORCE'")
                })?;
                return Ok((Some(Action::Return(value)), self.force(stop, "RETURN")?));
            }
            Tok::Kw(Kw::Set) => {
                let v = self.tokens[i + 1];
                let name = self.file.slice(v.span);
                let is_user = name.len() >= 4 && name[..4].eq_ignore_ascii_case("user");
                if v.tok != Tok::Ident || !(is_user || name.starts_with("me_")) {
                    return Err(self
                        .error(i + 1, format!("expected a user variable after SET, found '{name}'"))
                        .with_help(
                            "SET takes a user variable (user_raised_preflop) or a memory command (me_st_pi_3_141, me_inc_hands)",
                        ));
                }
                let id = self.p.ast().push(crate::ast::Expr::Ident, v.span, v.span);
                return Ok((Some(Action::Set(id)), i + 2));
            }
            Tok::Ident => {}
            _ => return Err(self.missing_action(i, when)),
        }
        let word = self.text(i).to_string();
        let Some(&(spelled, canonical)) = ACTIONS
            .iter()
            .chain([("RaiseBy", "RaiseBy")].iter())
            .find(|(a, _)| a.eq_ignore_ascii_case(&word))
        else {
            return Err(self.missing_action(i, when));
        };
        if spelled != word {
            // CTokenizer::CheckTokenForOpenPPLAction: actions are case-sensitive; OH 14 reports
            // the spelling and goes on with the token read as the action, so the rest of the
            // rule is checked too (a missing FORCE after it is a second error).
            let d = self
                .error(
                    i,
                    format!("action '{word}' is spelled '{spelled}' in OpenPPL"),
                )
                .with_help(format!("write '{spelled}'"));
            self.side.push(d);
        }
        let node = self.p.ast().push(crate::ast::Expr::Ident, t.span, t.span);
        if canonical != spelled {
            // `Allin` is the action RaiseMax, evaluated as that symbol.
            self.p.ast().names.insert(node, canonical.to_string());
        }
        match canonical {
            "RaiseTo" | "RaiseBy" => {
                let (amount, stop) = self.p.expression(self.tokens, i + 1)?;
                let amount = amount.ok_or_else(|| {
                    self.error(i + 1, format!("expected the bet size after {spelled}"))
                        .with_help(format!(
                            "write '{spelled} 3 FORCE' (big blinds){}",
                            if canonical == "RaiseBy" {
                                " or 'RaiseBy 60% FORCE' (of the pot)"
                            } else {
                                ""
                            }
                        ))
                })?;
                let (action, stop) = if canonical == "RaiseTo" {
                    (Action::RaiseTo(amount), stop)
                } else if self.text(stop) == "%" {
                    (Action::RaiseByPot(amount), stop + 1)
                } else {
                    (Action::RaiseBy(amount), stop)
                };
                Ok((Some(action), self.force(stop, spelled)?))
            }
            "Raise" if self.tokens[i + 1].tok != Tok::Kw(Kw::Force) => {
                // CFormulaParser::ParseOpenPPLRaiseExpression.
                Err(self
                    .error(
                        i + 1,
                        format!("missing keyword FORCE after action {spelled}"),
                    )
                    .with_help("for a bet size write 'RaiseTo N FORCE' or 'RaiseBy N FORCE'"))
            }
            _ => Ok((
                Some(Action::Fixed(node, canonical)),
                self.force(i + 1, spelled)?,
            )),
        }
    }

    /// Expects `FORCE` at `i`; returns the index after it.
    fn force(&self, i: usize, after: &str) -> Result<usize, Diagnostic> {
        if self.tokens[i].tok != Tok::Kw(Kw::Force) {
            let found = match self.tokens[i].tok {
                Tok::Eof => "end of function".to_string(),
                _ => format!("'{}'", self.text(i)),
            };
            return Err(self
                .error(
                    i,
                    format!("missing keyword FORCE after {after}, found {found}"),
                )
                .with_help("every action ends with FORCE: 'WHEN condition Fold FORCE'"));
        }
        match self.tokens[i + 1].tok {
            Tok::Kw(Kw::Force) => Err(self.error(i + 1, "duplicate keyword FORCE")),
            Tok::Kw(Kw::Delay) => Err(self
                .error(i + 1, "unsupported Shanky-style DELAY")
                .with_help("OpenHoldem's f$delay sets the delay")),
            _ => Ok(i + 1),
        }
    }

    /// `CFormulaParser::ErrorMissingAction`.
    fn missing_action(&self, i: usize, when: Span) -> Diagnostic {
        let t = self.tokens[i];
        let text = self.text(i);
        let hint = match t.tok {
            Tok::Num(_) => "found a number: probably a missing operator".to_string(),
            Tok::Open(_) => "found a bracket: probably a missing operator".to_string(),
            Tok::Ident if text.len() >= 4 && text[..4].eq_ignore_ascii_case("user") => {
                format!("to set a user variable write 'SET {text}'")
            }
            Tok::Ident => {
                "found an identifier: a missing operator, or a misspelled action".to_string()
            }
            _ => "expected an action, RETURN, SET or the next WHEN".to_string(),
        };
        Diagnostic::error(format!("missing action after the WHEN condition, found '{text}'"))
            .with_span(t.span)
            .with_label(when, "this WHEN")
            .with_help(format!(
                "{hint}; actions: Fold, Check, Call, Raise, RaiseTo N, RaiseBy N, RaiseBy N%, RaisePot, RaiseMax, Allin, RETURN expr, SET user_x"
            ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Body, String> {
        let f = SourceFile::new("t.ohf", text);
        let mut ast = Ast::default();
        let mut side = Vec::new();
        let parsed = parse_function_body(&f, 0, text.len(), &mut ast, &mut side);
        // The first error, whether parsing went on after it or not.
        match side
            .into_iter()
            .find(|d| d.severity == alea_core::Severity::Error)
        {
            Some(d) => Err(d.message),
            None => parsed.map_err(|d| d.message),
        }
    }

    #[test]
    fn rules_and_actions() {
        let Ok(Body::Rules(r)) = parse(
            "WHEN x > 1\n WHEN y RaiseTo 3 FORCE\n WHEN z RaiseBy 60% FORCE\nWHEN Others Fold FORCE",
        ) else {
            panic!()
        };
        assert_eq!(r.len(), 4);
        assert!(r[0].action.is_none());
        assert!(matches!(r[1].action, Some(Action::RaiseTo(_))));
        assert!(matches!(r[2].action, Some(Action::RaiseByPot(_))));
        assert!(matches!(r[3].action, Some(Action::Fixed(_, "Fold"))));
        assert!(matches!(parse("1 + 2"), Ok(Body::Expr(_))));
        assert!(matches!(parse("// x\n"), Ok(Body::Empty)));
        assert!(matches!(
            parse("WHEN a SET user_x WHEN b Allin FORCE"),
            Ok(Body::Rules(_))
        ));
    }

    #[test]
    fn a_wrongly_cased_action_is_reported_and_the_rule_still_checked() {
        // CTokenizer::CheckTokenForOpenPPLAction reports the case and reads the action, so
        // CFormulaParser then also reports the missing FORCE (OpenPPL's Error_16 test file).
        let text = "WHEN a RAISEMAX FOOORCE";
        let f = SourceFile::new("t.ohf", text);
        let mut ast = Ast::default();
        let mut side = Vec::new();
        let fatal = parse_function_body(&f, 0, text.len(), &mut ast, &mut side).unwrap_err();
        assert_eq!(side.len(), 1);
        assert_eq!(
            side[0].message,
            "action 'RAISEMAX' is spelled 'RaiseMax' in OpenPPL"
        );
        assert_eq!(
            fatal.message,
            "missing keyword FORCE after RaiseMax, found 'FOOORCE'"
        );
    }

    #[test]
    fn errors() {
        let e = |t: &str| parse(t).unwrap_err();
        assert!(e("WHEN a Fold").starts_with("missing keyword FORCE after Fold"));
        assert_eq!(
            e("WHEN a FOLD FORCE"),
            "action 'FOLD' is spelled 'Fold' in OpenPPL"
        );
        assert_eq!(e("WHEN a Fold FORCE FORCE"), "duplicate keyword FORCE");
        assert!(e("WHEN a Raise 3 FORCE").starts_with("missing keyword FORCE after action Raise"));
        assert!(e("WHEN a b Fold FORCE").starts_with("missing action"));
        assert_eq!(e("WHEN"), "empty WHEN condition at the end of the function");
        assert_eq!(e("WHEN WHEN a Fold FORCE"), "two consecutive WHENs");
        assert!(e("1 WHEN a Fold FORCE").starts_with("unexpected 'WHEN'"));
        assert!(e("WHEN a SET x").starts_with("expected a user variable"));
        assert!(e("WHEN a Fold FORCE DELAY 3").starts_with("unsupported"));
    }

    #[test]
    fn decisions() {
        assert_eq!(action_constant("Allin"), Some(-1_000_009.0));
        assert_eq!(action_constant("BetPot"), Some(-1_000_008.0));
        assert_eq!(action_constant("SitOut"), Some(-1_000_001.0));
        assert_eq!(describe_decision(-1_000_001.0), "Fold");
        assert_eq!(describe_decision(2.5), "RaiseTo 2.5 bb");
        assert_eq!(describe_decision(0.0), "Check (else Fold)");
    }
}
