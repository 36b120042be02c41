//! The hand-written parser of dicelab.md §2, reproducing dicelab 0.7's LALR parses.
//!
//! Structure: `expr` is a comma-joined run of `elem`s; an `elem` is a list construct or a
//! scalar (Pratt parsing over `+ - . * / % ^`, prefix `-` and `d`) optionally followed by one
//! `#` (right operand: one `elem`) or `..` (right operand: a scalar). Every sub-`expr` is
//! greedy, which gives 0.7's far-right extents. A parenthesised expression in element position
//! is a list element unless its content is a scalar, in which case it is an atom and binary
//! operators may follow it.
//!
//! The parser never panics: every error is a [`Diagnostic`]; the statement is then skipped up
//! to the next `;`. Nesting is bounded by [`MAX_DEPTH`] and the tree size by [`MAX_NODES`].

use crate::ast::*;
use crate::lexer::{Lexer, Token, TokenKind, describe};
use alea_core::{Diagnostic, SourceFile, Span};
use std::ops::Range;

/// Deepest nesting accepted (each `(`, prefix operator, keyword construct or right operand
/// counts one). dicelab 0.7 parses 9 990 nested parentheses; deeper input is the syntax error
/// `program nested too deeply`.
pub const MAX_DEPTH: u32 = 10_000;

/// Largest number of syntax nodes in one parse; more is the error `program too large`.
pub const MAX_NODES: usize = 2_000_000;

type PResult<T> = Result<T, Box<Diagnostic>>;

/// Parses a whole program (dicelab.md §2: `stmt { ";" [stmt] }`, so empty input and a leading
/// `;` are errors). Returns the well-formed statements and one diagnostic per bad statement.
pub fn parse(file: &SourceFile) -> (Program, Vec<Diagnostic>) {
    parse_range(file, 0..file.text().len(), false)
}

/// Parses the statements in `range` of `file` (positions stay those of the whole file). With
/// `allow_empty`, a range holding no statement at all (e.g. a lone `;` after earlier input, as
/// in interactive use) is accepted.
pub fn parse_range(
    file: &SourceFile,
    range: Range<usize>,
    allow_empty: bool,
) -> (Program, Vec<Diagnostic>) {
    let text = file.text();
    let end = range.end.min(text.len());
    let start = range.start.min(end);
    let mut p = Parser {
        text,
        lexer: Lexer::new(text, start),
        tok: Token {
            kind: TokenKind::Eof,
            span: Span::point(start),
        },
        end,
        prev_end: start,
        depth: 0,
        nodes: 0,
    };
    p.bump();
    let mut program = Program::default();
    let mut diagnostics = Vec::new();
    let mut first = !allow_empty;
    loop {
        let empty_ok = !first;
        first = false;
        if empty_ok && matches!(p.tok.kind, TokenKind::Semi | TokenKind::Eof) {
            // An empty statement: `1;;2;`.
        } else {
            match p.statement() {
                Ok(s) => program.statements.push(s),
                Err(d) => {
                    diagnostics.push(*d);
                    p.skip_to_semi();
                }
            }
        }
        match p.tok.kind {
            TokenKind::Eof => break,
            TokenKind::Semi => p.bump(),
            _ => unreachable_statement_end(&mut p, &mut diagnostics),
        }
    }
    (program, diagnostics)
}

/// `statement()` returns only at `;` or end of input, and `skip_to_semi` stops only there, so
/// this is never reached; it recovers anyway instead of panicking.
fn unreachable_statement_end(p: &mut Parser<'_>, diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.push(*p.unexpected("';' or end of input"));
    p.skip_to_semi();
    if p.tok.kind == TokenKind::Semi {
        p.bump();
    }
}

struct Parser<'a> {
    text: &'a str,
    lexer: Lexer<'a>,
    tok: Token,
    end: usize,
    /// End of the last consumed token.
    prev_end: usize,
    depth: u32,
    nodes: usize,
}

/// Binding power of a binary operator token: (level, right operand's level).
fn binary_op(kind: TokenKind) -> Option<(BinOp, u8, u8)> {
    Some(match kind {
        TokenKind::Plus => (BinOp::Add, 10, 11),
        TokenKind::Minus => (BinOp::Sub, 10, 11),
        TokenKind::Dot => (BinOp::Concat, 10, 11),
        TokenKind::Star => (BinOp::Mul, 20, 21),
        TokenKind::Slash => (BinOp::Div, 20, 21),
        TokenKind::Percent => (BinOp::Rem, 20, 21),
        TokenKind::Caret => (BinOp::Pow, 40, 40),
        _ => return None,
    })
}

fn selector(kind: TokenKind) -> Option<Selector> {
    Some(match kind {
        TokenKind::First => Selector::First,
        TokenKind::Last => Selector::Last,
        TokenKind::Low => Selector::Low,
        TokenKind::High => Selector::High,
        TokenKind::EqEq => Selector::Eq,
        TokenKind::Ne => Selector::Ne,
        TokenKind::Lt => Selector::Lt,
        TokenKind::Gt => Selector::Gt,
        TokenKind::Le => Selector::Le,
        TokenKind::Ge => Selector::Ge,
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    fn bump(&mut self) {
        self.prev_end = self.tok.span.end as usize;
        let t = self.lexer.next_token();
        self.tok = if t.span.start as usize >= self.end {
            Token {
                kind: TokenKind::Eof,
                span: Span::point(self.end),
            }
        } else {
            t
        };
    }

    fn unexpected(&self, expected: &str) -> Box<Diagnostic> {
        let message = match self.tok.kind {
            TokenKind::Invalid(c) => format!("invalid character '{}'", c.escape_debug()),
            _ => format!(
                "syntax error: unexpected {}, expected {expected}",
                describe(self.tok, self.text)
            ),
        };
        Box::new(Diagnostic::error(message).with_span(self.tok.span))
    }

    fn expect(&mut self, kind: TokenKind, expected: &str) -> PResult<Span> {
        if self.tok.kind == kind {
            let span = self.tok.span;
            self.bump();
            Ok(span)
        } else {
            Err(self.unexpected(expected))
        }
    }

    fn skip_to_semi(&mut self) {
        while !matches!(self.tok.kind, TokenKind::Semi | TokenKind::Eof) {
            self.bump();
        }
    }

    /// Enters one nesting level; fails past [`MAX_DEPTH`].
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Box::new(
                Diagnostic::error("program nested too deeply").with_span(self.tok.span),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn node(&mut self, kind: ExprKind, span: Span) -> PResult<Expr> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(Box::new(
                Diagnostic::error(format!(
                    "program too large (more than {MAX_NODES} syntax nodes)"
                ))
                .with_span(span),
            ));
        }
        Ok(Expr { kind, span })
    }

    fn statement(&mut self) -> PResult<Statement> {
        // A failed statement may have left levels open.
        self.depth = 0;
        let start = self.tok.span.start as usize;
        let expr = self.expr()?;
        if !matches!(self.tok.kind, TokenKind::Semi | TokenKind::Eof) {
            return Err(self.unexpected("';' or end of input"));
        }
        Ok(Statement {
            span: Span::new(start, self.prev_end),
            expr,
            slots: 0,
        })
    }

    /// `expr = elem { "," elem }`, greedy.
    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let first = self.elem()?;
        self.expr_rest(first)
    }

    /// The rest of an `expr` (entered) whose first element is `first`.
    fn expr_rest(&mut self, first: Expr) -> PResult<Expr> {
        if self.tok.kind != TokenKind::Comma {
            self.leave();
            return Ok(first);
        }
        let mut items = vec![first];
        while self.tok.kind == TokenKind::Comma {
            self.bump();
            items.push(self.elem()?);
        }
        let span = items[0].span.to(items[items.len() - 1].span);
        self.leave();
        self.node(ExprKind::List(items), span)
    }

    fn boxed_expr(&mut self) -> PResult<Box<Expr>> {
        self.expr().map(Box::new)
    }

    /// An element. A run of `(` opening nested expressions (`((((1))))`, 9,990 deep in 0.7)
    /// is read with a loop and a count of pending `(`, each with its `expr` entered, rather
    /// than one native call per parenthesis; on the way out each `(` takes the rest of its
    /// `expr`, its `)` and, around a single-value content, the element's tail.
    fn elem(&mut self) -> PResult<Expr> {
        let mut open = 0usize;
        let mut e = loop {
            let start = self.tok.span;
            if self.tok.kind != TokenKind::LParen {
                break self.elem_other()?;
            }
            self.bump();
            if self.tok.kind == TokenKind::RParen {
                let close = self.tok.span;
                self.bump();
                break self.node(ExprKind::Empty, start.to(close))?;
            }
            self.enter()?;
            open += 1;
        };
        for _ in 0..open {
            let inner = self.expr_rest(e)?;
            self.expect(TokenKind::RParen, "')'")?;
            e = if inner.is_scalar_class() {
                let scalar = self.binary_rest(inner, 0)?;
                self.scalar_tail(scalar)?
            } else {
                inner
            };
        }
        Ok(e)
    }

    /// An element that does not start with `(`.
    fn elem_other(&mut self) -> PResult<Expr> {
        let start = self.tok.span;
        match self.tok.kind {
            TokenKind::Perm | TokenKind::Sort | TokenKind::Rev => {
                let op = match self.tok.kind {
                    TokenKind::Perm => Reorder::Perm,
                    TokenKind::Sort => Reorder::Sort,
                    _ => Reorder::Rev,
                };
                self.bump();
                let operand = self.boxed_expr()?;
                let span = start.to(operand.span);
                self.node(ExprKind::Reorder(op, operand), span)
            }
            TokenKind::Drop | TokenKind::Keep => {
                let drop = self.tok.kind == TokenKind::Drop;
                self.bump();
                let Some(sel) = selector(self.tok.kind) else {
                    return Err(self.unexpected("'first', 'last', 'low', 'high' or a comparison"));
                };
                self.filter(start, drop, sel)
            }
            kind if selector(kind).is_some() => {
                let sel = selector(kind).unwrap_or(Selector::First);
                self.filter(start, false, sel)
            }
            TokenKind::If => {
                self.bump();
                let cond = self.boxed_expr()?;
                self.expect(TokenKind::Then, "'then'")?;
                let then_branch = self.boxed_expr()?;
                self.expect(TokenKind::Else, "'else'")?;
                let else_branch = self.boxed_expr()?;
                let span = start.to(else_branch.span);
                self.node(
                    ExprKind::If {
                        cond,
                        then_branch,
                        else_branch,
                    },
                    span,
                )
            }
            TokenKind::Let => {
                self.bump();
                let var = self.binding()?;
                self.expect(TokenKind::Assign, "'='")?;
                let value = self.boxed_expr()?;
                self.expect(TokenKind::In, "'in'")?;
                let body = self.boxed_expr()?;
                let span = start.to(body.span);
                self.node(ExprKind::Let { var, value, body }, span)
            }
            TokenKind::While => {
                self.bump();
                let var = self.binding()?;
                self.expect(TokenKind::Assign, "'='")?;
                let init = self.boxed_expr()?;
                self.expect(TokenKind::Do, "'do'")?;
                let body = self.boxed_expr()?;
                let span = start.to(body.span);
                self.node(ExprKind::While { var, init, body }, span)
            }
            TokenKind::Foreach => {
                self.bump();
                let var = self.binding()?;
                self.expect(TokenKind::In, "'in'")?;
                let list = self.boxed_expr()?;
                self.expect(TokenKind::Do, "'do'")?;
                let body = self.boxed_expr()?;
                let span = start.to(body.span);
                self.node(ExprKind::Foreach { var, list, body }, span)
            }
            _ => {
                // Not a nesting level of its own: the `expr` (or `#`) around this element
                // already counted one, and every way back into `elem` from here passes
                // `expr` or a counted `scalar`. So `sum sum … 1` costs one level per `sum`,
                // as 0.7's parser stack does (it takes about 9,990 of them).
                let lhs = self.unary()?;
                let scalar = self.binary_rest(lhs, 0)?;
                self.scalar_tail(scalar)
            }
        }
    }

    /// After a scalar in element position: one optional `#` elem or `..` scalar.
    fn scalar_tail(&mut self, scalar: Expr) -> PResult<Expr> {
        match self.tok.kind {
            TokenKind::Hash => {
                let op_span = self.tok.span;
                self.bump();
                self.enter()?;
                let body = self.elem()?;
                self.leave();
                let span = scalar.span.to(body.span);
                self.node(
                    ExprKind::Repeat {
                        count: Box::new(scalar),
                        op_span,
                        body: Box::new(body),
                    },
                    span,
                )
            }
            TokenKind::DotDot => {
                let op_span = self.tok.span;
                self.bump();
                let hi = self.scalar(0)?;
                let span = scalar.span.to(hi.span);
                self.node(
                    ExprKind::Range {
                        lo: Box::new(scalar),
                        op_span,
                        hi: Box::new(hi),
                    },
                    span,
                )
            }
            _ => Ok(scalar),
        }
    }

    fn filter(&mut self, start: Span, drop: bool, selector: Selector) -> PResult<Expr> {
        let selector_span = self.tok.span;
        self.bump();
        let n = self.boxed_expr()?;
        let list = self.boxed_expr()?;
        let span = start.to(list.span);
        self.node(
            ExprKind::Filter {
                drop,
                selector,
                selector_span,
                n,
                list,
            },
            span,
        )
    }

    fn binding(&mut self) -> PResult<Binding> {
        if self.tok.kind != TokenKind::Var {
            return Err(self.unexpected("a variable name"));
        }
        let span = self.tok.span;
        self.bump();
        Ok(Binding {
            name: self.text[span.range()].to_string(),
            span,
            slot: 0,
        })
    }

    /// A scalar whose binary operators bind at least at `min_level`.
    fn scalar(&mut self, min_level: u8) -> PResult<Expr> {
        self.enter()?;
        let lhs = self.unary()?;
        let result = self.binary_rest(lhs, min_level);
        self.leave();
        result
    }

    /// Each operator of a left-assoc chain (`1+1+…+1`) nests its left operand one level
    /// deeper in the tree, so it counts one nesting level, as a `(` does: every pass over
    /// the tree (compiling, rolling, calc) recurses along that spine, and a 150,000-term sum
    /// overflowed the 64 MiB stack (`with_big_stack`) where dicelab 0.7's LALR parser, which
    /// needs no stack for left recursion, reads it.
    fn binary_rest(&mut self, mut lhs: Expr, min_level: u8) -> PResult<Expr> {
        // (An error abandons the statement, whose parse starts again at depth 0.)
        let mut chained = 0;
        while let Some((op, level, rhs_level)) = binary_op(self.tok.kind) {
            if level < min_level {
                break;
            }
            self.enter()?;
            chained += 1;
            let op_span = self.tok.span;
            self.bump();
            let rhs = self.scalar(rhs_level)?;
            let span = lhs.span.to(rhs.span);
            lhs = self.node(
                ExprKind::Binary {
                    op,
                    op_span,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            )?;
        }
        for _ in 0..chained {
            self.leave();
        }
        Ok(lhs)
    }

    /// A run of prefix `-`, `d` and (in atom position) `(` is read with a loop and a stack of
    /// pending operators rather than one native call per operator, so a 5,000-deep `-(-(…))`
    /// needs no deep stack. Each pending operator is what the recursive reading would have had
    /// on the call stack: `-` and `d` wait for their operand `scalar(11)` / `scalar(50)`, `(`
    /// for its `scalar(0)` and the `)`; the nesting levels are counted the same way.
    fn unary(&mut self) -> PResult<Expr> {
        // (operator, its span, the operand's binding level); `None` is a `(`.
        let mut pending: Vec<(Option<bool>, Span, u8)> = Vec::new();
        loop {
            let start = self.tok.span;
            let (op, level) = match self.tok.kind {
                TokenKind::Minus => (Some(true), 11),
                TokenKind::D => (Some(false), 50),
                // `(` only in atom position, i.e. after a prefix operator (elem reads a
                // leading `(` itself).
                TokenKind::LParen if !pending.is_empty() => (None, 0),
                _ => break,
            };
            self.bump();
            self.enter()?;
            pending.push((op, start, level));
        }
        let mut e = self.atom()?;
        while let Some((op, start, level)) = pending.pop() {
            let operand = self.binary_rest(e, level)?;
            self.leave();
            e = match op {
                None => {
                    self.expect(TokenKind::RParen, "')'")?;
                    operand
                }
                Some(neg) => {
                    let span = start.to(operand.span);
                    let kind = if neg {
                        ExprKind::Neg(Box::new(operand))
                    } else {
                        ExprKind::Die(Box::new(operand))
                    };
                    self.node(kind, span)?
                }
            };
        }
        Ok(e)
    }

    fn atom(&mut self) -> PResult<Expr> {
        let start = self.tok.span;
        match self.tok.kind {
            TokenKind::Number(n) => {
                self.bump();
                self.node(ExprKind::Number(n), start)
            }
            TokenKind::Var => {
                self.bump();
                let name = self.text[start.range()].to_string();
                self.node(ExprKind::Var(Var { name, slot: None }), start)
            }
            TokenKind::LParen => {
                self.bump();
                let inner = self.scalar(0)?;
                self.expect(TokenKind::RParen, "')'")?;
                Ok(inner)
            }
            TokenKind::Sum | TokenKind::Prod | TokenKind::Count => self.aggregates(),

            _ => Err(self.unexpected("an expression")),
        }
    }

    /// `sum e`, `prod e`, `count e`, where `e` is an `expr`. A run of these keywords
    /// (`sum sum … 1`) is read with a loop: each keyword after the first opens the `expr` of
    /// the one before (one nesting level each, as 0.7's parser stack), and on the way back
    /// out each finished aggregate continues its element (binary operators, `#`, `..`) and
    /// its `expr` (commas), exactly as the recursive reading would.
    fn aggregates(&mut self) -> PResult<Expr> {
        let keyword = |kind: TokenKind| match kind {
            TokenKind::Sum => Some(Aggregate::Sum),
            TokenKind::Prod => Some(Aggregate::Prod),
            TokenKind::Count => Some(Aggregate::Count),
            _ => None,
        };
        let mut pending = Vec::new();
        while let Some(op) = keyword(self.tok.kind) {
            if !pending.is_empty() {
                self.enter()?;
            }
            pending.push((op, self.tok.span));
            self.bump();
        }
        let mut operand = self.expr()?;
        loop {
            let Some((op, start)) = pending.pop() else {
                return Err(self.unexpected("an expression"));
            };
            let span = start.to(operand.span);
            let node = self.node(ExprKind::Aggregate(op, Box::new(operand)), span)?;
            if pending.is_empty() {
                return Ok(node);
            }
            let scalar = self.binary_rest(node, 0)?;
            let first = self.scalar_tail(scalar)?;
            operand = self.expr_rest(first)?;
        }
    }
}
