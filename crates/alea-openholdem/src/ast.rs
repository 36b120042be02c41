//! Syntax trees of formula bodies: one arena per file, spans on every node.

use alea_core::Span;

/// Index of a node in an [`Ast`].
pub type NodeId = u32;

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `!`, `NOT`
    Not,
    /// `~`, `BITNOT`
    BitNot,
    /// `-`
    Neg,
    /// backtick, `BITCOUNT`
    BitCount,
    /// `ln`
    Ln,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `**`
    Pow,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`, `MOD`
    Mod,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`, `=`
    Eq,
    /// `!=`
    Ne,
    /// `~~`
    ApproxEq,
    /// `&`
    BitAnd,
    /// `^`
    BitXor,
    /// `|`
    BitOr,
    /// `&&`
    And,
    /// `^^`
    Xor,
    /// `||`
    Or,
    /// `%` inside an OpenPPL function: `a % b` is `a * b / 100` (OH 14's
    /// `kTokenOperatorPercentage`, `CParseTreeOperatorNode::EvaluateBinaryExpression`).
    Percent,
}

impl BinOp {
    /// Binding power: higher binds tighter (the seed's table).
    pub fn precedence(self) -> u8 {
        use BinOp::*;
        match self {
            Or => 2,
            Xor => 3,
            And => 4,
            BitOr => 5,
            BitXor => 6,
            BitAnd => 7,
            Eq | Ne | ApproxEq => 8,
            Lt | Le | Gt | Ge => 9,
            Shl | Shr => 10,
            Add | Sub => 11,
            Mul | Div | Mod | Percent => 12,
            Pow => 14,
        }
    }

    /// True for the bitwise operators whose result is a 32-bit pattern.
    pub fn is_bitwise(self) -> bool {
        matches!(
            self,
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
        )
    }

    /// True for comparisons (`== != ~~ < <= > >=`).
    pub fn is_comparison(self) -> bool {
        self.precedence() == 8 || self.precedence() == 9
    }
}

/// Binding power of prefix operators: above `*`, below `**`.
pub const PREFIX_PRECEDENCE: u8 = 13;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expr {
    /// A number literal.
    Num(f64),
    /// A name; its text is the node's span.
    Ident,
    /// A prefix operator and its operand.
    Unary(UnOp, NodeId),
    /// A binary operator and its operands.
    Binary(BinOp, NodeId, NodeId),
    /// `c ? t : f`.
    Cond(NodeId, NodeId, NodeId),
}

/// A node: its kind, its full span (brackets around it included) and the operator's span.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    /// What it is.
    pub expr: Expr,
    /// The whole expression, brackets included.
    pub span: Span,
    /// The operator token (`?` for conditionals); the name or number itself otherwise.
    pub op_span: Span,
}

/// The node arena of one file.
#[derive(Clone, Debug, Default)]
pub struct Ast {
    /// All nodes; children come before their parents.
    pub nodes: Vec<Node>,
    /// Names of identifier nodes whose name is not their source text: `hand = AKs` is the
    /// symbol `hand$AKs`, `In BigBlind` is `InBigBlind` (OH 14's Shanky-style forms).
    pub names: std::collections::HashMap<NodeId, String>,
}

/// What an OpenPPL rule does when its condition holds (`CFormulaParser::ParseOpenPPLAction`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// `RETURN expr FORCE`: the value.
    Return(NodeId),
    /// `Fold FORCE`, `RaiseMax FORCE`…: the identifier node, named by its canonical action.
    Fixed(NodeId, &'static str),
    /// `RaiseTo N FORCE`: raise to N big blinds.
    RaiseTo(NodeId),
    /// `RaiseBy N FORCE`: `ncallbets + N`.
    RaiseBy(NodeId),
    /// `RaiseBy N% FORCE`: `ncallbets + N/100 * (pot / bet + nbetstocall)`.
    RaiseByPot(NodeId),
    /// `SET user_x` / `SET me_st_x_1`: done, then the next rule is tried.
    Set(NodeId),
}

/// One `WHEN` of an OpenPPL function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    /// The condition.
    pub cond: NodeId,
    /// `None` for an open-ended `WHEN`, which guards the rules after it up to the next
    /// open-ended one.
    pub action: Option<Action>,
    /// The `WHEN` keyword.
    pub when_span: Span,
}

impl Ast {
    /// Adds a node and returns its id.
    pub fn push(&mut self, expr: Expr, span: Span, op_span: Span) -> NodeId {
        self.nodes.push(Node {
            expr,
            span,
            op_span,
        });
        (self.nodes.len() - 1) as NodeId
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The children of a node, in evaluation order.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> {
        let (a, b, c) = match self.node(id).expr {
            Expr::Num(_) | Expr::Ident => (None, None, None),
            Expr::Unary(_, x) => (Some(x), None, None),
            Expr::Binary(_, l, r) => (Some(l), Some(r), None),
            Expr::Cond(x, y, z) => (Some(x), Some(y), Some(z)),
        };
        a.into_iter().chain(b).chain(c)
    }
}
