//! Recursive descent with Pratt operators. Never panics, always returns a tree (with `Error`
//! nodes where the source is wrong), reports at most one error per statement, and guards its
//! nesting depth (spec §11: 128, `Nesting is too deep`).

use crate::ast::*;
use crate::lexer::{Tok, Token};
use alea_core::{Diagnostic, Span};
use std::rc::Rc;

/// Deepest nesting of brackets, blocks and operands the parser accepts.
pub const MAX_NESTING: u32 = 128;

/// 1-based line and column (in characters) of a byte offset of `src`.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(src.len());
    while !src.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Parses tokens (from [`crate::lexer::lex`]) of `src` into a block ending at `Eof` or `InsertEnd`.
pub fn parse(src: &str, tokens: Vec<Token>) -> (Block, Vec<Diagnostic>) {
    let mut p = Parser {
        src,
        toks: tokens,
        pos: 0,
        depth: 0,
        diags: Vec::new(),
        panicking: false,
        aborted: false,
    };
    let start = p.peek_span().start as usize;
    let stmts = p.statements(false);
    let end = p.peek_span().end as usize;
    let block = Block {
        stmts,
        span: Span::new(start, end),
    };
    (block, p.diags)
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    depth: u32,
    diags: Vec<Diagnostic>,
    /// An error was reported in the current statement: stay quiet until recovery.
    panicking: bool,
    /// Nesting too deep: stop parsing altogether.
    aborted: bool,
}

fn binop(tok: &Tok) -> Option<(BinOp, u8)> {
    Some(match tok {
        Tok::OrOr => (BinOp::Or, 1),
        Tok::AndAnd => (BinOp::And, 2),
        Tok::EqEq => (BinOp::Eq, 3),
        Tok::NotEq => (BinOp::Ne, 3),
        Tok::Lt => (BinOp::Lt, 3),
        Tok::Gt => (BinOp::Gt, 3),
        Tok::Le => (BinOp::Le, 3),
        Tok::Ge => (BinOp::Ge, 3),
        Tok::Plus => (BinOp::Add, 4),
        Tok::Minus => (BinOp::Sub, 4),
        Tok::Star => (BinOp::Mul, 5),
        Tok::Slash => (BinOp::Div, 5),
        Tok::Percent => (BinOp::Rem, 5),
        _ => return None,
    })
}

fn assign_op(tok: &Tok) -> Option<AssignOp> {
    Some(match tok {
        Tok::Assign => None,
        Tok::PlusAssign => Some(BinOp::Add),
        Tok::MinusAssign => Some(BinOp::Sub),
        Tok::StarAssign => Some(BinOp::Mul),
        Tok::SlashAssign => Some(BinOp::Div),
        Tok::PercentAssign => Some(BinOp::Rem),
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map_or(&Tok::Eof, |t| &t.tok)
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        self.toks
            .get(self.pos + ahead)
            .map_or(&Tok::Eof, |t| &t.tok)
    }

    fn peek_span(&self) -> Span {
        match self.toks.get(self.pos) {
            Some(t) => t.span,
            None => self
                .toks
                .last()
                .map_or(Span::point(0), |t| Span::point(t.span.end as usize)),
        }
    }

    fn prev_end(&self) -> usize {
        if self.pos == 0 {
            return self.peek_span().start as usize;
        }
        self.toks[self.pos - 1].span.end as usize
    }

    fn advance(&mut self) -> Span {
        let span = self.peek_span();
        if self.pos < self.toks.len() && !matches!(self.peek(), Tok::Eof | Tok::InsertEnd) {
            self.pos += 1;
        }
        span
    }

    fn at_end(&self) -> bool {
        matches!(self.peek(), Tok::Eof | Tok::InsertEnd)
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == tok {
            self.advance();
            true
        } else {
            false
        }
    }

    fn skip_newlines(&mut self) {
        while *self.peek() == Tok::Newline {
            self.advance();
        }
    }

    fn describe_current(&self) -> String {
        let span = self.peek_span();
        self.peek().describe(&self.src[span.range()])
    }

    /// Reports `Syntax error at L:C: expected X, found Y` at the current token.
    fn expected(&mut self, what: &str) {
        let found = self.describe_current();
        let span = self.peek_span();
        if let Tok::Error(msg) = self.peek() {
            let msg = msg.to_string();
            self.error_at(span, &msg);
        } else {
            self.error_at(span, &format!("expected {what}, found {found}"));
        }
    }

    fn error_at(&mut self, span: Span, what: &str) {
        if self.panicking || self.aborted {
            return;
        }
        self.panicking = true;
        let (line, col) = line_col(self.src, span.start as usize);
        self.diags.push(
            Diagnostic::error(format!("Syntax error at {line}:{col}: {what}")).with_span(span),
        );
    }

    fn expect(&mut self, tok: Tok, what: &str) -> bool {
        if self.eat(&tok) {
            true
        } else {
            self.expected(what);
            false
        }
    }

    /// Enters one nesting level; false (after reporting once) when too deep.
    fn enter(&mut self) -> bool {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            if !self.aborted {
                let span = self.peek_span();
                self.diags
                    .push(Diagnostic::error("Nesting is too deep").with_span(span));
                self.aborted = true;
            }
            // Give up on the rest of the input: nothing after this can be trusted.
            self.pos = self.toks.len().saturating_sub(1);
            return false;
        }
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Statements up to `}` (in a block) or the end.
    fn statements(&mut self, in_block: bool) -> Vec<Stmt> {
        let mut stmts = Vec::new();
        loop {
            while matches!(self.peek(), Tok::Newline | Tok::Semi) {
                self.advance();
            }
            if self.at_end() || self.aborted || (in_block && *self.peek() == Tok::RBrace) {
                break;
            }
            let stmt = self.statement();
            let ok = matches!(
                self.peek(),
                Tok::Newline | Tok::Semi | Tok::Eof | Tok::InsertEnd
            ) || (in_block && *self.peek() == Tok::RBrace);
            if !ok {
                self.expected("end of statement");
            }
            if self.panicking {
                self.recover(in_block);
                self.panicking = false;
            }
            stmts.push(stmt);
        }
        stmts
    }

    fn recover(&mut self, in_block: bool) {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Tok::Eof | Tok::InsertEnd => return,
                Tok::Newline | Tok::Semi if depth == 0 => return,
                Tok::RBrace if depth == 0 && in_block => return,
                Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
                Tok::RParen | Tok::RBracket | Tok::RBrace => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.advance();
        }
    }

    fn block(&mut self) -> Block {
        self.skip_newlines();
        let start = self.peek_span().start as usize;
        if !self.expect(Tok::LBrace, "{") {
            return Block {
                stmts: vec![],
                span: Span::new(start, start),
            };
        }
        if !self.enter() {
            return Block {
                stmts: vec![],
                span: Span::new(start, start),
            };
        }
        let stmts = self.statements(true);
        self.leave();
        self.expect(Tok::RBrace, "}");
        Block {
            stmts,
            span: Span::new(start, self.prev_end()),
        }
    }

    fn statement(&mut self) -> Stmt {
        let start = self.peek_span().start as usize;
        let kind = match self.peek() {
            Tok::Func if *self.peek_at(1) == Tok::Name => {
                self.advance();
                let name = self.ident();
                let def = self.func_rest(Some(name));
                StmtKind::FuncDecl(def)
            }
            Tok::For => self.for_statement(),
            Tok::While => {
                self.advance();
                let cond = self.expr();
                let body = self.block();
                StmtKind::While(cond, body)
            }
            Tok::Break => {
                self.advance();
                StmtKind::Break
            }
            Tok::Continue => {
                self.advance();
                StmtKind::Continue
            }
            _ => self.simple(),
        };
        Stmt {
            kind,
            span: Span::new(start, self.prev_end()),
        }
    }

    fn ident(&mut self) -> Ident {
        let span = self.peek_span();
        if *self.peek() == Tok::Name {
            self.advance();
            Ident {
                name: Rc::from(&self.src[span.range()]),
                span,
            }
        } else {
            self.expected("a name");
            Ident {
                name: Rc::from(""),
                span,
            }
        }
    }

    fn for_statement(&mut self) -> StmtKind {
        self.advance();
        let is_for_in =
            *self.peek() == Tok::Name && matches!(self.peek_at(1), Tok::Comma | Tok::In);
        if is_for_in {
            let first = self.ident();
            let (index, item) = if self.eat(&Tok::Comma) {
                (Some(first), self.ident())
            } else {
                (None, first)
            };
            self.expect(Tok::In, "in");
            let list = self.expr();
            let body = self.block();
            return StmtKind::ForIn {
                index,
                item,
                list,
                body,
            };
        }
        let paren = self.eat(&Tok::LParen);
        let init = if *self.peek() == Tok::Semi {
            None
        } else {
            Some(Box::new(self.simple_stmt()))
        };
        self.expect(Tok::Semi, ";");
        let cond = self.expr();
        self.expect(Tok::Semi, ";");
        let update = if matches!(self.peek(), Tok::RParen | Tok::LBrace) {
            None
        } else {
            Some(Box::new(self.simple_stmt()))
        };
        if paren {
            self.expect(Tok::RParen, ")");
        }
        let body = self.block();
        StmtKind::ForC {
            init,
            cond,
            update,
            body,
        }
    }

    fn simple_stmt(&mut self) -> Stmt {
        let start = self.peek_span().start as usize;
        let kind = self.simple();
        Stmt {
            kind,
            span: Span::new(start, self.prev_end()),
        }
    }

    /// An assignment or an expression.
    fn simple(&mut self) -> StmtKind {
        let expr = self.expr();
        let Some(op) = assign_op(self.peek()) else {
            return StmtKind::Expr(expr);
        };
        let op_span = self.advance();
        let value = self.expr();
        match to_target(expr) {
            Some((root, path)) => StmtKind::Assign {
                root,
                path,
                op,
                value,
            },
            None => {
                self.error_at(
                    op_span,
                    "expected a name, a key or an index before the assignment",
                );
                StmtKind::Error
            }
        }
    }

    /// An expression.
    pub fn expr(&mut self) -> Expr {
        self.binary(1)
    }

    fn binary(&mut self, min: u8) -> Expr {
        if !self.enter() {
            return self.error_expr();
        }
        let mut lhs = self.unary();
        let mut lhs_is_cmp = false;
        while let Some((op, prec)) = binop(self.peek()) {
            if prec < min {
                break;
            }
            if prec == 3 && lhs_is_cmp {
                let span = self.peek_span();
                self.error_at(span, "Comparisons cannot be chained");
                break;
            }
            self.advance();
            let rhs = self.binary(prec + 1);
            let span = lhs.span.to(rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
            };
            lhs_is_cmp = prec == 3;
        }
        self.leave();
        lhs
    }

    /// An error node: an empty span where the expression should have started.
    fn error_expr(&self) -> Expr {
        Expr {
            kind: ExprKind::Error,
            span: Span::point(self.prev_end()),
        }
    }

    fn unary(&mut self) -> Expr {
        let op = match self.peek() {
            Tok::Minus => UnOp::Neg,
            Tok::Bang => UnOp::Not,
            _ => return self.postfix(),
        };
        let start = self.advance();
        if !self.enter() {
            return self.error_expr();
        }
        let operand = self.unary();
        self.leave();
        let span = start.to(operand.span);
        Expr {
            kind: ExprKind::Unary(op, Box::new(operand)),
            span,
        }
    }

    fn args(&mut self, close: Tok, what: &str) -> Vec<Expr> {
        let mut args = Vec::new();
        loop {
            self.skip_newlines();
            if *self.peek() == close || self.at_end() || self.panicking {
                break;
            }
            args.push(self.expr());
            self.skip_newlines();
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.skip_newlines();
        self.expect(close, what);
        args
    }

    fn postfix(&mut self) -> Expr {
        let mut expr = self.primary();
        loop {
            if self.panicking {
                return expr;
            }
            match self.peek() {
                Tok::Dot => {
                    self.advance();
                    let name = self.ident();
                    if *self.peek() == Tok::LParen {
                        self.advance();
                        let args = self.args(Tok::RParen, ")");
                        let span = Span::new(expr.span.start as usize, self.prev_end());
                        expr = Expr {
                            kind: ExprKind::Method(Box::new(expr), name, args),
                            span,
                        };
                    } else {
                        let span = expr.span.to(name.span);
                        expr = Expr {
                            kind: ExprKind::Member(Box::new(expr), name),
                            span,
                        };
                    }
                }
                Tok::LBracket => {
                    self.advance();
                    let index = self.expr();
                    self.expect(Tok::RBracket, "]");
                    let span = Span::new(expr.span.start as usize, self.prev_end());
                    expr = Expr {
                        kind: ExprKind::Index(Box::new(expr), Box::new(index)),
                        span,
                    };
                }
                Tok::LParen => {
                    self.advance();
                    let args = self.args(Tok::RParen, ")");
                    let span = Span::new(expr.span.start as usize, self.prev_end());
                    expr = Expr {
                        kind: ExprKind::Call(Box::new(expr), args),
                        span,
                    };
                }
                _ => return expr,
            }
        }
    }

    fn primary(&mut self) -> Expr {
        let span = self.peek_span();
        let kind = match self.peek().clone() {
            Tok::Number(x) => {
                self.advance();
                ExprKind::Number(x)
            }
            Tok::Text(s) => {
                self.advance();
                ExprKind::Text(Rc::from(&*s))
            }
            Tok::True => {
                self.advance();
                ExprKind::Bool(true)
            }
            Tok::False => {
                self.advance();
                ExprKind::Bool(false)
            }
            Tok::Name => {
                self.advance();
                ExprKind::Name(Rc::from(&self.src[span.range()]))
            }
            Tok::LParen => {
                self.advance();
                let inner = self.expr();
                self.expect(Tok::RParen, ")");
                return Expr {
                    kind: inner.kind,
                    span: Span::new(span.start as usize, self.prev_end()),
                };
            }
            Tok::LBracket => {
                self.advance();
                ExprKind::List(self.args(Tok::RBracket, "]"))
            }
            Tok::LBrace => {
                self.advance();
                self.object()
            }
            Tok::If => return self.if_expr(),
            Tok::Func => {
                self.advance();
                ExprKind::Func(self.func_rest(None))
            }
            _ => {
                self.expected("an expression");
                return self.error_expr();
            }
        };
        Expr {
            kind,
            span: Span::new(span.start as usize, self.prev_end()),
        }
    }

    fn object(&mut self) -> ExprKind {
        let mut entries = Vec::new();
        loop {
            self.skip_newlines();
            let key_span = self.peek_span();
            let key = match self.peek().clone() {
                Tok::RBrace => break,
                Tok::Name => {
                    self.advance();
                    Rc::from(&self.src[key_span.range()])
                }
                Tok::Text(s) => {
                    self.advance();
                    Rc::from(&*s)
                }
                _ => {
                    self.expected("a key");
                    break;
                }
            };
            self.skip_newlines();
            self.expect(Tok::Colon, ":");
            self.skip_newlines();
            let value = self.expr();
            entries.push((
                Ident {
                    name: key,
                    span: key_span,
                },
                value,
            ));
            self.skip_newlines();
            if self.panicking || !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.skip_newlines();
        self.expect(Tok::RBrace, "}");
        ExprKind::Object(entries)
    }

    fn if_expr(&mut self) -> Expr {
        let start = self.advance();
        let cond = self.expr();
        let then = self.block();
        let els = if self.eat(&Tok::Else) {
            if *self.peek() == Tok::If {
                Some(Box::new(self.if_expr()))
            } else {
                let b = self.block();
                let span = b.span;
                Some(Box::new(Expr {
                    kind: ExprKind::Block(b),
                    span,
                }))
            }
        } else {
            None
        };
        Expr {
            kind: ExprKind::If(Box::new(cond), then, els),
            span: Span::new(start.start as usize, self.prev_end()),
        }
    }

    fn func_rest(&mut self, name: Option<Ident>) -> Rc<FuncDef> {
        let mut params = Vec::new();
        if self.expect(Tok::LParen, "(") {
            loop {
                self.skip_newlines();
                if *self.peek() != Tok::Name {
                    break;
                }
                params.push(self.ident());
                self.skip_newlines();
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, ")");
        }
        let body = self.block();
        Rc::new(FuncDef { name, params, body })
    }
}

/// Turns `a.b[c]` into an assignment target: a root name and its path.
fn to_target(expr: Expr) -> Option<(Ident, Vec<PathStep>)> {
    let mut path = Vec::new();
    let mut cur = expr;
    loop {
        match cur.kind {
            ExprKind::Name(name) => {
                path.reverse();
                return Some((
                    Ident {
                        name,
                        span: cur.span,
                    },
                    path,
                ));
            }
            ExprKind::Member(obj, key) => {
                path.push(PathStep::Key(key));
                cur = *obj;
            }
            ExprKind::Index(obj, index) => {
                path.push(PathStep::Index(*index));
                cur = *obj;
            }
            _ => return None,
        }
    }
}
