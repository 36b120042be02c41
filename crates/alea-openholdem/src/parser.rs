//! The operator-precedence parser (spec §2).
//!
//! An explicit-stack precedence parser (shunting-yard, equivalent to Pratt parsing) rather than a
//! recursive one: nesting costs heap, not native stack, so 10 000 levels work on any thread and
//! the limit is a plain counter.

use crate::ast::{Ast, BinOp, Expr, NodeId, PREFIX_PRECEDENCE, UnOp};
use crate::lexer::{Bracket, Kw, OpTok, Tok, Token, lex};
use alea_core::{Diagnostic, SourceFile, Span};

/// Deepest nesting accepted: open brackets plus pending prefix, right-associative and
/// conditional operators.
pub const MAX_NESTING: usize = 10_000;

enum Pending {
    Prefix(UnOp, Span),
    Binary(BinOp, Span),
    Open(Bracket, Span),
    Question(Span),
    Colon(Span),
}

fn binary_op(op: OpTok) -> Option<BinOp> {
    use OpTok as O;
    Some(match op {
        O::Pow => BinOp::Pow,
        O::Mul => BinOp::Mul,
        O::Div => BinOp::Div,
        O::Mod => BinOp::Mod,
        O::Add => BinOp::Add,
        O::Sub => BinOp::Sub,
        O::Shl => BinOp::Shl,
        O::Shr => BinOp::Shr,
        O::Le => BinOp::Le,
        O::Lt => BinOp::Lt,
        O::Ge => BinOp::Ge,
        O::Gt => BinOp::Gt,
        O::Eq => BinOp::Eq,
        O::Ne => BinOp::Ne,
        O::ApproxEq => BinOp::ApproxEq,
        O::AndAnd => BinOp::And,
        O::BitAnd => BinOp::BitAnd,
        O::XorXor => BinOp::Xor,
        O::BitXor => BinOp::BitXor,
        O::OrOr => BinOp::Or,
        O::BitOr => BinOp::BitOr,
        O::Not | O::BitNot | O::BitCount | O::Ln => return None,
    })
}

fn prefix_op(op: OpTok) -> Option<UnOp> {
    Some(match op {
        OpTok::Not => UnOp::Not,
        OpTok::BitNot => UnOp::BitNot,
        OpTok::Sub => UnOp::Neg,
        OpTok::BitCount => UnOp::BitCount,
        OpTok::Ln => UnOp::Ln,
        _ => return None,
    })
}

pub(crate) struct Parser<'a> {
    file: &'a SourceFile,
    ast: &'a mut Ast,
    operands: Vec<NodeId>,
    stack: Vec<Pending>,
    end_name: &'a str,
    /// Inside an OpenPPL function `%` is percentage, and `N%` before `FORCE` ends the
    /// expression (`CFormulaParser::ParseExpression`).
    pub(crate) percent: bool,
}

/// Parses the body `file.text()[start..end]` into `ast`. `Ok(None)` is an empty body (value 0).
/// `end_name` names the end of input in messages ("end of function", "end of expression").
pub fn parse_body(
    file: &SourceFile,
    start: usize,
    end: usize,
    ast: &mut Ast,
    end_name: &str,
) -> Result<Option<NodeId>, Diagnostic> {
    let tokens = lex(file.text(), start, end)?;
    let mut p = Parser::new(file, ast, end_name);
    let (root, stop) = p.expression(&tokens, 0)?;
    p.expect_end(&tokens, stop)?;
    Ok(root)
}

impl<'a> Parser<'a> {
    pub(crate) fn new(file: &'a SourceFile, ast: &'a mut Ast, end_name: &'a str) -> Parser<'a> {
        Parser {
            file,
            ast,
            operands: Vec::new(),
            stack: Vec::new(),
            end_name,
            percent: false,
        }
    }

    pub(crate) fn describe(&self, t: &Token) -> String {
        match t.tok {
            Tok::Eof => self.end_name.to_string(),
            _ => format!("'{}'", self.file.slice(t.span)),
        }
    }

    pub(crate) fn ast(&mut self) -> &mut Ast {
        self.ast
    }

    /// An error unless `tokens[stop]` is the end.
    pub(crate) fn expect_end(&self, tokens: &[Token], stop: usize) -> Result<(), Diagnostic> {
        let t = &tokens[stop.min(tokens.len() - 1)];
        if t.tok == Tok::Eof {
            return Ok(());
        }
        let mut d = Diagnostic::error(format!(
            "unexpected {} after end of expression",
            self.describe(t)
        ))
        .with_span(t.span);
        if t.tok == Tok::Kw(Kw::When) {
            // CFormulaParser::CheckForExtraTokensAfterEndOfFunction.
            d = d.with_note(
                "this function is one OH-script expression; an OpenPPL function starts with WHEN",
            );
        }
        Err(d)
    }

    fn push_pending(&mut self, p: Pending, at: Span) -> Result<(), Diagnostic> {
        if self.stack.len() >= MAX_NESTING {
            return Err(Diagnostic::error("expression nested too deeply")
                .with_span(at)
                .with_note(format!("at most {MAX_NESTING} levels of nesting")));
        }
        self.stack.push(p);
        Ok(())
    }

    fn push_operand(&mut self, id: NodeId) {
        self.operands.push(id);
    }

    /// `hand = AKs` / `board = AKQ`: OH 14's Shanky-style expression, the identifier
    /// `hand$AKs` (`CFormulaParser::ParseShankyStyleHandAndBoardExpression`). Returns the
    /// index after it.
    fn hand_expression(&mut self, tokens: &[Token], at: usize) -> Result<usize, Diagnostic> {
        let kw = tokens[at];
        let prefix = if kw.tok == Tok::Kw(Kw::Hand) {
            "hand$"
        } else {
            "board$"
        };
        let eq = tokens[at + 1];
        if !matches!(eq.tok, Tok::Op(OpTok::Eq | OpTok::ApproxEq)) {
            return Err(Diagnostic::error(format!(
                "expected '=' after '{}' in a hand or board expression, found {}",
                self.file.slice(kw.span),
                self.describe(&eq)
            ))
            .with_span(eq.span)
            .with_help(format!(
                "write '{} = AKs', or the symbol '{prefix}AKs'",
                self.file.slice(kw.span)
            )));
        }
        let mut name = prefix.to_string();
        let mut i = at + 2;
        let mut span = kw.span.to(eq.span);
        let looks = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|c| b"23456789TJQKASUIEDCH".contains(&c.to_ascii_uppercase()))
        };
        while matches!(tokens[i].tok, Tok::Ident | Tok::Num(_) | Tok::Cards)
            && looks(self.file.slice(tokens[i].span))
        {
            name.push_str(self.file.slice(tokens[i].span));
            span = span.to(tokens[i].span);
            i += 1;
        }
        let id = self.ast.push(Expr::Ident, span, span);
        self.ast.names.insert(id, name);
        self.push_operand(id);
        Ok(i)
    }

    /// Parses one expression from `tokens[at..]` and returns it with the index of the token
    /// that ends it: the end, or a token that cannot continue it (`WHEN`, an action, `FORCE`).
    pub(crate) fn expression(
        &mut self,
        tokens: &[Token],
        at: usize,
    ) -> Result<(Option<NodeId>, usize), Diagnostic> {
        self.operands.clear();
        self.stack.clear();
        if tokens[at].tok == Tok::Eof {
            return Ok((None, at));
        }
        let mut expect_operand = true;
        let mut prev: Option<&Token> = None;
        let mut idx = at;
        while idx < tokens.len() {
            let t = &tokens[idx];
            idx += 1;
            if expect_operand {
                match t.tok {
                    Tok::Num(v) => {
                        let id = self.ast.push(Expr::Num(v), t.span, t.span);
                        self.operands.push(id);
                        expect_operand = false;
                    }
                    Tok::Ident => {
                        let id = self.ast.push(Expr::Ident, t.span, t.span);
                        self.operands.push(id);
                        expect_operand = false;
                    }
                    Tok::Kw(Kw::Hand | Kw::Board) => {
                        idx = self.hand_expression(tokens, idx - 1)?;
                        expect_operand = false;
                    }
                    Tok::Kw(Kw::In) if tokens[idx].tok == Tok::Ident => {
                        // `In BigBlind` is `InBigBlind` (ParseShankyStyleInPositionExpression).
                        let pos = tokens[idx];
                        idx += 1;
                        let span = t.span.to(pos.span);
                        let id = self.ast.push(Expr::Ident, span, span);
                        self.ast
                            .names
                            .insert(id, format!("In{}", self.file.slice(pos.span)));
                        self.operands.push(id);
                        expect_operand = false;
                    }
                    Tok::Cards => {
                        let text = self.file.slice(t.span);
                        let mut d = Diagnostic::error("malformed number").with_span(t.span);
                        if crate::lexer::looks_like_hand(text) {
                            d = d
                                .with_help(format!("hand symbols start with '$': write '${text}'"));
                        }
                        return Err(d);
                    }
                    Tok::Open(b) => self.push_pending(Pending::Open(b, t.span), t.span)?,
                    Tok::Op(op) if prefix_op(op).is_some() => {
                        let u = prefix_op(op).unwrap_or(UnOp::Neg);
                        self.push_pending(Pending::Prefix(u, t.span), t.span)?;
                    }
                    Tok::Close(_) if matches!(self.stack.last(), Some(Pending::Open(..))) => {
                        let open = match self.stack.last() {
                            Some(Pending::Open(_, s)) => *s,
                            _ => t.span,
                        };
                        return Err(Diagnostic::error("empty brackets").with_span(open.to(t.span)));
                    }
                    _ => return Err(self.expected_operand(t, prev)),
                }
            } else {
                let percent_action = self.percent
                    && t.tok == Tok::Op(OpTok::Mod)
                    && matches!(tokens[idx].tok, Tok::Kw(Kw::Force | Kw::When) | Tok::Eof);
                match t.tok {
                    Tok::Op(op) if binary_op(op).is_some() && !percent_action => {
                        let mut b = binary_op(op).unwrap_or(BinOp::Add);
                        if b == BinOp::Mod && self.percent && self.file.slice(t.span) == "%" {
                            b = BinOp::Percent;
                        }
                        let prec = b.precedence();
                        let right_assoc = b == BinOp::Pow;
                        loop {
                            let reduce = match self.stack.last() {
                                Some(Pending::Prefix(..)) => PREFIX_PRECEDENCE >= prec,
                                Some(Pending::Binary(top, _)) => {
                                    let tp = top.precedence();
                                    tp > prec || (tp == prec && !right_assoc)
                                }
                                _ => false,
                            };
                            if !reduce {
                                break;
                            }
                            self.reduce_top();
                        }
                        self.push_pending(Pending::Binary(b, t.span), t.span)?;
                        expect_operand = true;
                    }
                    Tok::Question => {
                        self.reduce_operators();
                        self.push_pending(Pending::Question(t.span), t.span)?;
                        expect_operand = true;
                    }
                    Tok::Colon => {
                        loop {
                            match self.stack.last() {
                                Some(Pending::Question(q)) => {
                                    let q = *q;
                                    self.stack.pop();
                                    self.stack.push(Pending::Colon(q));
                                    break;
                                }
                                Some(
                                    Pending::Prefix(..) | Pending::Binary(..) | Pending::Colon(_),
                                ) => self.reduce_top(),
                                _ => {
                                    return Err(Diagnostic::error(
                                        "unexpected ':' without a matching '?'",
                                    )
                                    .with_span(t.span));
                                }
                            }
                        }
                        expect_operand = true;
                    }
                    Tok::Close(b) => {
                        self.reduce_to_bracket(t)?;
                        match self.stack.pop() {
                            Some(Pending::Open(open, open_span)) => {
                                if open != b {
                                    return Err(self.unclosed(open, open_span, t));
                                }
                                if let Some(&id) = self.operands.last() {
                                    let n = &mut self.ast.nodes[id as usize];
                                    n.span = open_span.to(t.span);
                                }
                            }
                            _ => {
                                return Err(Diagnostic::error(format!(
                                    "unexpected '{}' after end of expression",
                                    b.close()
                                ))
                                .with_span(t.span));
                            }
                        }
                    }
                    _ => {
                        // The end, or an operand where an operator belongs: the expression
                        // ends here if nothing is left open.
                        self.reduce_to_bracket(t)?;
                        if let Some(Pending::Open(open, open_span)) = self.stack.last() {
                            return Err(self.unclosed(*open, *open_span, t));
                        }
                        return Ok((self.operands.pop(), idx - 1));
                    }
                }
            }
            prev = Some(t);
        }
        // The token list always ends with Eof, handled above.
        Ok((self.operands.pop(), tokens.len() - 1))
    }

    fn unclosed(&self, open: Bracket, open_span: Span, found: &Token) -> Diagnostic {
        let (line, col) = self.file.line_col(open_span.start as usize);
        Diagnostic::error(format!(
            "expected '{}' to close '{}' at {line}:{col}, found {}",
            open.close(),
            open.open(),
            self.describe(found)
        ))
        .with_span(found.span)
        .with_label(open_span, format!("'{}' opened here", open.open()))
    }

    fn expected_operand(&self, t: &Token, prev: Option<&Token>) -> Diagnostic {
        if let Tok::Kw(kw) = t.tok
            && kw != Kw::Hand
            && kw != Kw::Board
        {
            let word = self.file.slice(t.span).to_ascii_uppercase();
            let what = match kw {
                Kw::When => {
                    "starts an OpenPPL rule, which begins a function body, not an expression"
                }
                _ => "is an OpenPPL keyword: it belongs to a WHEN rule",
            };
            return Diagnostic::error(format!("'{word}' {what}")).with_span(t.span);
        }
        let mut d = Diagnostic::error(format!(
            "expected an operand (number, identifier, bracket, prefix operator), found {}",
            self.describe(t)
        ))
        .with_span(t.span);
        match t.tok {
            Tok::Op(OpTok::Add) => d = d.with_help("there is no unary '+'"),
            Tok::Op(OpTok::ApproxEq) => {
                d = d.with_help("'~~' is approximately-equal; for a double bit-not write '~(~x)'")
            }
            Tok::Op(OpTok::Gt)
                if prev
                    .is_some_and(|p| p.tok == Tok::Op(OpTok::Lt) && p.span.end == t.span.start) =>
            {
                d = d.with_help("there is no '<>': write '!='")
            }
            _ => {}
        }
        d
    }

    /// Reduces prefix and binary operators (not conditionals) down to a bracket or `?`/`:`.
    fn reduce_operators(&mut self) {
        while matches!(
            self.stack.last(),
            Some(Pending::Prefix(..) | Pending::Binary(..))
        ) {
            self.reduce_top();
        }
    }

    /// Reduces everything down to the innermost open bracket (or the bottom); a `?` without
    /// its `:` is an error.
    fn reduce_to_bracket(&mut self, t: &Token) -> Result<(), Diagnostic> {
        loop {
            match self.stack.last() {
                None | Some(Pending::Open(..)) => return Ok(()),
                Some(Pending::Question(_)) => {
                    return Err(Diagnostic::error("expected ':' in conditional expression")
                        .with_span(t.span));
                }
                _ => self.reduce_top(),
            }
        }
    }

    fn pop_operand(&mut self) -> NodeId {
        // The state machine guarantees enough operands; 0 is never reached in practice.
        self.operands.pop().unwrap_or(0)
    }

    fn reduce_top(&mut self) {
        let Some(top) = self.stack.pop() else { return };
        match top {
            Pending::Prefix(op, span) => {
                let x = self.pop_operand();
                let s = span.to(self.ast.node(x).span);
                let id = self.ast.push(Expr::Unary(op, x), s, span);
                self.operands.push(id);
            }
            Pending::Binary(op, span) => {
                let r = self.pop_operand();
                let l = self.pop_operand();
                let s = self.ast.node(l).span.to(self.ast.node(r).span);
                let id = self.ast.push(Expr::Binary(op, l, r), s, span);
                self.operands.push(id);
            }
            Pending::Colon(q) => {
                let f = self.pop_operand();
                let t = self.pop_operand();
                let c = self.pop_operand();
                let s = self.ast.node(c).span.to(self.ast.node(f).span);
                let id = self.ast.push(Expr::Cond(c, t, f), s, q);
                self.operands.push(id);
            }
            Pending::Open(..) | Pending::Question(_) => self.stack.push(top),
        }
    }
}

/// Writes a node back as fully bracketed text (tests and debugging).
pub fn to_sexpr(ast: &Ast, file: &SourceFile, id: NodeId) -> String {
    let mut out = String::new();
    // Iterative to stay safe on deep trees.
    enum Step {
        Node(NodeId),
        Text(&'static str),
        Owned(String),
    }
    let mut work = vec![Step::Node(id)];
    while let Some(step) = work.pop() {
        match step {
            Step::Text(s) => out.push_str(s),
            Step::Owned(s) => out.push_str(&s),
            Step::Node(n) => {
                let node = ast.node(n);
                match node.expr {
                    Expr::Num(_) | Expr::Ident => out.push_str(file.slice(node.op_span)),
                    Expr::Unary(_, x) => {
                        out.push('(');
                        out.push_str(file.slice(node.op_span));
                        out.push(' ');
                        work.push(Step::Text(")"));
                        work.push(Step::Node(x));
                    }
                    Expr::Binary(_, l, r) => {
                        out.push('(');
                        work.push(Step::Text(")"));
                        work.push(Step::Node(r));
                        work.push(Step::Owned(format!(" {} ", file.slice(node.op_span))));
                        work.push(Step::Node(l));
                    }
                    Expr::Cond(c, t, f) => {
                        out.push('(');
                        work.push(Step::Text(")"));
                        work.push(Step::Node(f));
                        work.push(Step::Text(" : "));
                        work.push(Step::Node(t));
                        work.push(Step::Text(" ? "));
                        work.push(Step::Node(c));
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sexpr(s: &str) -> String {
        let f = SourceFile::new("<expr>", s);
        let mut ast = Ast::default();
        match parse_body(&f, 0, s.len(), &mut ast, "end of expression") {
            Ok(Some(id)) => to_sexpr(&ast, &f, id),
            Ok(None) => "<empty>".into(),
            Err(d) => format!("error: {}", d.message),
        }
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(sexpr("1 + 2 * 3 ** 4"), "(1 + (2 * (3 ** 4)))");
        assert_eq!(sexpr("2 ** 3 ** 2"), "(2 ** (3 ** 2))");
        assert_eq!(sexpr("-2 ** 2"), "(- (2 ** 2))");
        assert_eq!(sexpr("2 ** -1"), "(2 ** (- 1))");
        assert_eq!(sexpr("ln x ** 2"), "(ln (x ** 2))");
        assert_eq!(sexpr("ln 8 / ln 2"), "((ln 8) / (ln 2))");
        assert_eq!(sexpr("10 - 4 - 3"), "((10 - 4) - 3)");
        assert_eq!(sexpr("a & b == c"), "(a & (b == c))");
        assert_eq!(sexpr("NOT betround > 1"), "((NOT betround) > 1)");
        assert_eq!(sexpr("0 ? 1 : 0 ? 2 : 3"), "(0 ? 1 : (0 ? 2 : 3))");
        assert_eq!(sexpr("1 ? 0 ? 5 : 6 : 7"), "(1 ? (0 ? 5 : 6) : 7)");
        assert_eq!(sexpr("1 && 1 ^^ 1"), "((1 && 1) ^^ 1)");
        assert_eq!(sexpr("1 | 2 ^ 3 & 4"), "(1 | (2 ^ (3 & 4)))");
        assert_eq!(sexpr("[2 + 3] * {4 + 5}"), "((2 + 3) * (4 + 5))");
        assert_eq!(sexpr("1--1"), "(1 - (- 1))");
        assert_eq!(sexpr("  // nothing\n"), "<empty>");
    }

    #[test]
    fn errors() {
        assert_eq!(
            sexpr("(2 + 3]"),
            "error: expected ')' to close '(' at 1:1, found ']'"
        );
        assert_eq!(
            sexpr("(1"),
            "error: expected ')' to close '(' at 1:1, found end of expression"
        );
        assert_eq!(
            sexpr("1 ? 2"),
            "error: expected ':' in conditional expression"
        );
        assert_eq!(
            sexpr("0 ? 1 2"),
            "error: expected ':' in conditional expression"
        );
        assert_eq!(sexpr("()"), "error: empty brackets");
        assert_eq!(
            sexpr("(1))"),
            "error: unexpected ')' after end of expression"
        );
        assert!(sexpr("+5").starts_with("error: expected an operand"));
        assert!(sexpr("~~5").starts_with("error: expected an operand"));
        assert!(sexpr("3 <> 2").starts_with("error: expected an operand"));
        assert!(sexpr("1 +").ends_with("found end of expression"));
        assert_eq!(
            sexpr("1 2"),
            "error: unexpected '2' after end of expression"
        );
    }

    #[test]
    fn nesting_limit() {
        let ok = format!("{}1{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert_eq!(sexpr(&ok), "1");
        let deep = format!(
            "{}1{}",
            "(".repeat(MAX_NESTING + 1),
            ")".repeat(MAX_NESTING + 1)
        );
        assert_eq!(sexpr(&deep), "error: expression nested too deeply");
    }
}
