//! Loading: sections, parsing, name resolution, cycle detection and code generation.
//!
//! A program is compiled once into flat code for a small stack machine (see [`crate::Machine`]):
//! names become slots, `&&`, `||` and `?:` become jumps, and every function body is one run of
//! instructions ending in `Ret`. Code generation walks the trees with an explicit stack, so deep
//! or very long formulas cost heap, never native stack.

use crate::ast::{Ast, BinOp, Expr, NodeId, Rule, UnOp};
use crate::ohf::HandList;
use crate::parser::parse_body;
use crate::symbols::Symbol;
use alea_core::{Diagnostic, SourceFile, Span};
use std::collections::HashMap;
use std::sync::Arc;

mod checks;
mod load;
mod multiplex;
mod names;
mod peephole;
mod rules;

/// A diagnostic and the file it is about (an index into [`Program::files`]: the profile's
/// formula files in order, then the `-e` expression).
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// Index into the program's files.
    pub file: usize,
    /// The diagnostic.
    pub diagnostic: Diagnostic,
}

impl Located {
    /// Renders in OpenHoldem's format (`FILE:LINE:COL: error: MESSAGE`, line, caret).
    pub fn render(&self, files: &[SourceFile]) -> String {
        self.diagnostic
            .render_with(&files[self.file], alea_core::RenderOptions::single_caret())
    }
}

/// One instruction of the stack machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Instr {
    Const(f64),
    /// A symbol slot.
    Sym(u32),
    /// A list slot.
    List(u32),
    MemRead(u32),
    MemSet(u32),
    MemAdd(u32),
    MemSub(u32),
    MemInc(u32),
    Call(u32),
    /// A call the trace does not show (the opponent count behind `prwin`).
    HiddenCall(u32),
    Ret,
    Not,
    BitNot,
    Neg,
    BitCount,
    Ln,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    ApproxEq,
    BitAnd,
    BitOr,
    BitXor,
    Xor,
    /// `&&`: if the top is false keep it and jump, else pop it.
    JumpIfFalseKeep(u32),
    /// `||`: if the top is true keep it and jump, else pop it.
    JumpIfTrueKeep(u32),
    JumpIfFalsePop(u32),
    Jump(u32),
    ToBool,
    /// End of a conditional (for the trace).
    Mark,
    // Binary operators with a literal right operand (one dispatch instead of two).
    AddK(f64),
    SubK(f64),
    MulK(f64),
    /// Only for a non-zero divisor.
    DivK(f64),
    LtK(f64),
    LeK(f64),
    GtK(f64),
    GeK(f64),
    EqK(f64),
    NeK(f64),
    BitAndK(f64),
    /// A state symbol and a literal: `call <= 4` (fast code only).
    SymK(u32, KOp, f64),
    // Fused pairs of the fast code ([`peephole::fuse_pairs`]): each does the work of its own
    // instruction and of the next one, then continues after the next one (or at its target).
    /// `SymK` and `JumpIfFalseKeep` (the slot fits 16 bits so the instruction stays 16 bytes).
    SymKJumpIfFalseKeep(u16, KOp, u32, f64),
    /// `SymK` and `JumpIfTrueKeep`.
    SymKJumpIfTrueKeep(u16, KOp, u32, f64),
    /// `SymK` and `JumpIfFalsePop`.
    SymKJumpIfFalsePop(u16, KOp, u32, f64),
    /// An operator with a literal (`GeK(3)`) and `JumpIfFalseKeep`.
    KJumpIfFalseKeep(KOp, u32, f64),
    /// An operator with a literal and `JumpIfTrueKeep`.
    KJumpIfTrueKeep(KOp, u32, f64),
    /// An operator with a literal and `JumpIfFalsePop`.
    KJumpIfFalsePop(KOp, u32, f64),
    /// A state symbol and `JumpIfFalsePop`.
    SymJumpIfFalsePop(u32, u32),
    /// A list and `JumpIfFalsePop`.
    ListJumpIfFalsePop(u32, u32),
    /// A state symbol and the binary operator that takes it as right operand: `pot + call`.
    OpSym(KOp, u32),
    /// `Call` and `JumpIfFalsePop`: jumps at once when the function is cached, else calls it
    /// and returns to the jump.
    CallJumpIfFalsePop(u32, u32),
    /// `Not` and `JumpIfFalseKeep` (`!a && b`).
    NotJumpIfFalseKeep(u32),
    /// `Not` and `JumpIfFalsePop` (`!a ? b : c`).
    NotJumpIfFalsePop(u32),
    /// `Const` and `Jump`.
    ConstJump(u32, f64),
    /// `Const` and `Ret`.
    ConstRet(f64),
}

// The machine copies one instruction per dispatch: keep them two words.
const _: () = assert!(std::mem::size_of::<Instr>() == 16);

/// The operator of [`Instr::SymK`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KOp {
    Add,
    Sub,
    Mul,
    Div,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
}

impl KOp {
    fn of(i: Instr) -> Option<(KOp, f64)> {
        Some(match i {
            Instr::AddK(k) => (KOp::Add, k),
            Instr::SubK(k) => (KOp::Sub, k),
            Instr::MulK(k) => (KOp::Mul, k),
            Instr::DivK(k) => (KOp::Div, k),
            Instr::LtK(k) => (KOp::Lt, k),
            Instr::LeK(k) => (KOp::Le, k),
            Instr::GtK(k) => (KOp::Gt, k),
            Instr::GeK(k) => (KOp::Ge, k),
            Instr::EqK(k) => (KOp::Eq, k),
            Instr::NeK(k) => (KOp::Ne, k),
            Instr::BitAndK(k) => (KOp::BitAnd, k),
            _ => return None,
        })
    }

    /// `a OP k`.
    #[inline(always)]
    pub(crate) fn apply(self, a: f64, k: f64) -> f64 {
        use crate::ops;
        match self {
            KOp::Add => a + k,
            KOp::Sub => a - k,
            KOp::Mul => a * k,
            KOp::Div => a / k,
            KOp::Lt => ops::lt(a, k),
            KOp::Le => ops::le(a, k),
            KOp::Gt => ops::gt(a, k),
            KOp::Ge => ops::ge(a, k),
            KOp::Eq => ops::equal(a, k),
            KOp::Ne => ops::not_equal(a, k),
            KOp::BitAnd => ops::bit_and(a, k),
        }
    }
}

/// What [`Builder::fold`] did.
enum Folded {
    /// Nothing: emit the operator.
    No,
    /// The node is one `Const`.
    Done,
    /// The right operand's `Const` was dropped: emit this literal form instead.
    Fused(Instr),
}

/// The fused form of `op` with the literal right operand `k`, if there is one.
fn fused(op: BinOp, k: f64) -> Option<Instr> {
    Some(match op {
        BinOp::Add => Instr::AddK(k),
        BinOp::Sub => Instr::SubK(k),
        BinOp::Mul => Instr::MulK(k),
        BinOp::Div if k != 0.0 => Instr::DivK(k),
        BinOp::Lt => Instr::LtK(k),
        BinOp::Le => Instr::LeK(k),
        BinOp::Gt => Instr::GtK(k),
        BinOp::Ge => Instr::GeK(k),
        BinOp::Eq => Instr::EqK(k),
        BinOp::Ne => Instr::NeK(k),
        BinOp::BitAnd => Instr::BitAndK(k),
        _ => return None,
    })
}

/// A defined function.
#[derive(Clone, Debug)]
pub(crate) struct Function {
    pub name: String,
    pub file: usize,
    pub header_line: usize,
    pub entry: u32,
    pub trace_entry: u32,
    pub root: Option<NodeId>,
    /// The rules of an OpenPPL body (then `root` is `None`).
    pub rules: Vec<Rule>,
    pub name_span: Span,
    pub standard: bool,
}

/// A line of `##f$debug##`.
#[derive(Clone, Debug)]
pub(crate) struct DebugEntry {
    pub label: String,
    pub function: u32,
    pub bitwise: bool,
}

/// A compiled profile (formula files, and optionally an expression over them).
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) files: Arc<Vec<SourceFile>>,
    /// How many of `files` are formula files (the expression, if any, comes after them).
    pub(crate) formula_files: usize,
    pub(crate) ast: Ast,
    pub(crate) code: Vec<Instr>,
    /// Per instruction: the node it completes (for the trace and warnings), or `NO_NODE`.
    pub(crate) node_of: Vec<NodeId>,
    /// The same program with every traced node marked (`--trace`), and its node table.
    pub(crate) trace_code: Vec<Instr>,
    pub(crate) trace_node_of: Vec<NodeId>,
    /// Per node: the file it belongs to and its depth under its function's root.
    pub(crate) node_file: Vec<u32>,
    pub(crate) node_depth: Vec<u32>,
    pub(crate) functions: Vec<Function>,
    pub(crate) slots: Vec<(String, Symbol)>,
    pub(crate) lists: Vec<(String, HandList)>,
    pub(crate) memory_names: Vec<String>,
    pub(crate) debug: Vec<DebugEntry>,
    pub(crate) expr: Option<u32>,
    pub(crate) max_stack: usize,
    pub(crate) lint: Vec<Located>,
    /// References to standard functions the profile does not define (value 0).
    pub(crate) undefined_standard: Vec<Located>,
}

pub(crate) const NO_NODE: NodeId = u32::MAX;

/// The standard function names that are implicitly empty (spec §4.2).
pub fn standard_functions() -> Vec<String> {
    let mut v: Vec<String> = [
        "f$beep",
        "f$allin",
        "f$betpot_2_1",
        "f$betpot_1_1",
        "f$betpot_3_4",
        "f$betpot_2_3",
        "f$betpot_1_2",
        "f$betpot_1_3",
        "f$betpot_1_4",
        "f$betsize",
        "f$raise",
        "f$call",
        "f$check",
        "f$fold",
        "f$prefold",
        "f$sitin",
        "f$sitout",
        "f$leave",
        "f$close",
        "f$rebuy",
        "f$rematch",
        "f$autopost",
        "f$chat",
        "f$delay",
        "f$prwin_number_of_opponents",
        "f$prwin_number_of_iterations",
        "f$prwin_mustplay",
        "f$prwin_topclip",
        "f$prwin_willplay",
        "f$prwin_wontplay",
        "f$preflop",
        "f$flop",
        "f$turn",
        "f$river",
        "f$test",
        "f$debug",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for i in 1..=9 {
        v.push(format!("f$icm_prize{i}"));
    }
    for s in [
        "startup",
        "connection",
        "handreset",
        "new_round",
        "my_turn",
        "heartbeat",
    ] {
        v.push(format!("f$ini_function_on_{s}"));
    }
    v
}

/// The 14 autoplayer functions, in OpenHoldem's order (the default output).
pub const AUTOPLAYER_FUNCTIONS: [&str; 14] = [
    "f$beep",
    "f$allin",
    "f$betpot_2_1",
    "f$betpot_1_1",
    "f$betpot_3_4",
    "f$betpot_2_3",
    "f$betpot_1_2",
    "f$betpot_1_3",
    "f$betpot_1_4",
    "f$betsize",
    "f$raise",
    "f$call",
    "f$check",
    "f$fold",
];

/// The result of loading: every diagnostic, and the program if there was no error.
#[derive(Debug)]
pub struct Compilation {
    /// The files diagnostics point into.
    pub files: Arc<Vec<SourceFile>>,
    /// Errors and warnings, in file order.
    pub diagnostics: Vec<Located>,
    /// The program, when there is no error.
    pub program: Option<Program>,
}

impl Compilation {
    /// True when some diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.diagnostic.is_error())
    }
}

/// Loads a formula file.
pub fn compile_file(file: SourceFile) -> Compilation {
    compile(vec![file], None)
}

/// Loads an expression (`alea holdem -e`), optionally over a formula file's functions and lists.
pub fn compile_expr(file: Option<SourceFile>, expr: SourceFile) -> Compilation {
    compile(file.into_iter().collect(), Some(expr))
}

/// Loads a profile: several formula files as one set of functions and lists (as OpenHoldem 14
/// loads its OpenPPL library with a bot), and optionally an expression over them.
pub fn compile_profile(files: Vec<SourceFile>, expr: Option<SourceFile>) -> Compilation {
    compile(files, expr)
}

struct Dep {
    callee: u32,
    via: Option<String>,
    span: Span,
}

struct Builder<'a> {
    files: &'a [SourceFile],
    formula_files: usize,
    /// Where each list is defined (for lint).
    list_places: Vec<(usize, Span)>,
    ast: Ast,
    code: Vec<Instr>,
    node_of: Vec<NodeId>,
    node_file: Vec<u32>,
    node_depth: Vec<u32>,
    functions: Vec<Function>,
    fn_index: HashMap<String, u32>,
    slots: Vec<(String, Symbol)>,
    slot_index: HashMap<String, u32>,
    lists: Vec<(String, HandList)>,
    list_index: HashMap<String, u32>,
    list_used: Vec<bool>,
    memory_names: Vec<String>,
    memory_index: HashMap<String, u32>,
    memory_written: Vec<bool>,
    memory_reads: Vec<(usize, Span, u32)>,
    for_trace: bool,
    diags: Vec<Located>,
    deps: Vec<Vec<Dep>>,
    fn_used: Vec<bool>,
    standard: Vec<String>,
    max_stack: usize,
    depth_now: usize,
    lint: Vec<Located>,
    undefined_standard: Vec<Located>,
    /// Suggestion pools and results (see `names.rs`).
    pools: HashMap<names::Pool, Vec<String>>,
    suggestions: HashMap<(names::Pool, String), Vec<String>>,
}

fn compile(mut files: Vec<SourceFile>, expr: Option<SourceFile>) -> Compilation {
    let formula_files = files.len();
    let has_expr = expr.is_some();
    if let Some(e) = expr {
        files.push(e);
    }
    let files = Arc::new(files);
    let mut b = Builder {
        files: &files,
        formula_files,
        list_places: Vec::new(),
        ast: Ast::default(),
        code: Vec::new(),
        node_of: Vec::new(),
        node_file: Vec::new(),
        node_depth: Vec::new(),
        functions: Vec::new(),
        fn_index: HashMap::new(),
        slots: Vec::new(),
        slot_index: HashMap::new(),
        lists: Vec::new(),
        list_index: HashMap::new(),
        list_used: Vec::new(),
        memory_names: Vec::new(),
        memory_index: HashMap::new(),
        memory_written: Vec::new(),
        memory_reads: Vec::new(),
        for_trace: true,
        diags: Vec::new(),
        deps: Vec::new(),
        fn_used: Vec::new(),
        standard: standard_functions(),
        max_stack: 0,
        depth_now: 0,
        lint: Vec::new(),
        undefined_standard: Vec::new(),
        pools: HashMap::new(),
        suggestions: HashMap::new(),
    };
    let debug_section = b.load_sections();
    let expr_fn = if has_expr {
        let f = &files[formula_files];
        let idx = b.functions.len() as u32;
        b.functions.push(Function {
            name: "<expr>".into(),
            file: formula_files,
            header_line: 0,
            entry: 0,
            trace_entry: 0,
            root: None,
            rules: Vec::new(),
            name_span: Span::point(0),
            standard: false,
        });
        b.fn_used.push(true);
        match parse_body(f, 0, f.text().len(), &mut b.ast, "end of expression") {
            Ok(root) => b.functions[idx as usize].root = root,
            Err(d) => b.error(formula_files, d),
        }
        Some(idx)
    } else {
        None
    };
    let debug = b.load_debug(debug_section);
    b.node_file.resize(b.ast.nodes.len(), 0);
    b.node_depth.resize(b.ast.nodes.len(), 0);
    // Two code generations: first the trace code (every node marked; it also collects the
    // dependencies, slots and diagnostics), then the fast code (no marks, no redundant 0/1
    // conversions), whose side effects on the builder are undone.
    b.for_trace = true;
    for i in 0..b.functions.len() {
        b.deps.push(Vec::new());
        b.generate(i as u32);
        b.functions[i].trace_entry = b.functions[i].entry;
    }
    let trace_code = std::mem::take(&mut b.code);
    let trace_node_of = std::mem::take(&mut b.node_of);
    let (diag_len, reads_len) = (b.diags.len(), b.memory_reads.len());
    let (lint_len, undefined_len) = (b.lint.len(), b.undefined_standard.len());
    let deps = std::mem::take(&mut b.deps);
    b.for_trace = false;
    for i in 0..b.functions.len() {
        b.deps.push(Vec::new());
        b.generate(i as u32);
    }
    peephole::thread_jumps(&mut b.code);
    peephole::fuse_pairs(&mut b.code, &b.slots);
    b.diags.truncate(diag_len);
    b.memory_reads.truncate(reads_len);
    b.lint.truncate(lint_len);
    b.undefined_standard.truncate(undefined_len);
    b.deps = deps;
    b.check_cycles();
    b.collect_lint();
    let diagnostics = std::mem::take(&mut b.diags);
    let failed = diagnostics.iter().any(|d| d.diagnostic.is_error());
    let program = (!failed).then(|| Program {
        files: files.clone(),
        formula_files,
        ast: b.ast,
        code: b.code,
        node_of: b.node_of,
        trace_code,
        trace_node_of,
        node_file: b.node_file,
        node_depth: b.node_depth,
        functions: b.functions,
        slots: b.slots,
        lists: b.lists,
        memory_names: b.memory_names,
        debug,
        expr: expr_fn,
        max_stack: b.max_stack + 2,
        lint: b.lint,
        undefined_standard: b.undefined_standard,
    });
    Compilation {
        files,
        diagnostics,
        program,
    }
}

impl Builder<'_> {
    fn error(&mut self, file: usize, diagnostic: Diagnostic) {
        self.diags.push(Located { file, diagnostic });
    }

    fn emit(&mut self, i: Instr, node: NodeId) -> u32 {
        self.code.push(i);
        self.node_of.push(node);
        self.depth_now = match i {
            Instr::Const(_)
            | Instr::Sym(_)
            | Instr::List(_)
            | Instr::MemRead(_)
            | Instr::MemInc(_)
            | Instr::Call(_)
            | Instr::HiddenCall(_) => self.depth_now + 1,
            Instr::Ret | Instr::JumpIfFalsePop(_) => self.depth_now.saturating_sub(1),
            Instr::Add
            | Instr::Sub
            | Instr::Mul
            | Instr::Div
            | Instr::Mod
            | Instr::Pow
            | Instr::Shl
            | Instr::Shr
            | Instr::Lt
            | Instr::Le
            | Instr::Gt
            | Instr::Ge
            | Instr::Eq
            | Instr::Ne
            | Instr::ApproxEq
            | Instr::BitAnd
            | Instr::BitOr
            | Instr::BitXor
            | Instr::Xor => self.depth_now.saturating_sub(1),
            _ => self.depth_now,
        };
        self.max_stack = self.max_stack.max(self.depth_now);
        (self.code.len() - 1) as u32
    }

    fn patch(&mut self, at: u32) {
        let target = self.code.len() as u32;
        match &mut self.code[at as usize] {
            Instr::JumpIfFalseKeep(t)
            | Instr::JumpIfTrueKeep(t)
            | Instr::JumpIfFalsePop(t)
            | Instr::Jump(t) => *t = target,
            _ => {}
        }
    }

    /// True when both operands of the logical node `n` are already exactly 0 or 1
    /// (comparisons, logical operators, `!`), so its 0/1 conversion is the identity.
    fn both_boolean(&self, n: NodeId) -> bool {
        let boolean = |id: NodeId| match self.ast.node(id).expr {
            Expr::Binary(op, ..) => {
                op.is_comparison() || matches!(op, BinOp::And | BinOp::Or | BinOp::Xor)
            }
            Expr::Unary(UnOp::Not, _) => true,
            _ => false,
        };
        match self.ast.node(n).expr {
            Expr::Binary(_, l, r) => boolean(l) && boolean(r),
            _ => false,
        }
    }

    /// Emits `instr`, an operator with a literal right operand, for node `n`; in the fast code
    /// a state symbol feeding it merges into one instruction.
    fn fuse_k(&mut self, n: NodeId, instr: Instr) {
        let left = match self.ast.node(n).expr {
            Expr::Binary(_, l, _) => l,
            _ => NO_NODE,
        };
        let merged = match (self.code.last(), KOp::of(instr)) {
            (Some(&Instr::Sym(slot)), Some((op, k)))
                if !self.for_trace
                    && self.node_of.last() == Some(&left)
                    && self.slots[slot as usize].1.lifetime()
                        == crate::symbols::Lifetime::State =>
            {
                Some(Instr::SymK(slot, op, k))
            }
            _ => None,
        };
        match merged {
            Some(m) => {
                let last = self.code.len() - 1;
                self.code[last] = m;
                self.node_of[last] = n;
            }
            None => {
                self.emit(instr, n);
            }
        }
    }

    /// Constant folding in the fast code, for the operator node `n` whose operands' code
    /// starts at `start` (and the right one's at `right`): an operator whose operands are
    /// each one `Const` becomes one `Const` (unless it would warn), and a right operand that
    /// is one `Const` becomes the operator's literal form (`x * 2 ** 1` is `MulK(2)`). Jumps
    /// can land on `start` but never inside an operand of one instruction.
    fn fold(&mut self, n: NodeId, start: usize, right: usize) -> Folded {
        let len = self.code.len();
        let constant = |at: usize| match self.code.get(at) {
            Some(&Instr::Const(v)) => Some(v),
            _ => None,
        };
        match self.ast.node(n).expr {
            Expr::Unary(op, _) if start + 1 == len => match constant(start) {
                Some(a) => {
                    self.code.truncate(start);
                    self.node_of.truncate(start);
                    self.depth_now = self.depth_now.saturating_sub(1);
                    self.emit(Instr::Const(peephole::fold_unary(op, a)), n);
                    Folded::Done
                }
                None => Folded::No,
            },
            Expr::Binary(op, ..) if right + 1 == len => {
                let Some(b) = constant(right) else {
                    return Folded::No;
                };
                let both = if start + 1 == right {
                    constant(start).and_then(|a| peephole::fold_binary(op, a, b))
                } else {
                    None
                };
                if let Some(v) = both {
                    self.code.truncate(start);
                    self.node_of.truncate(start);
                    self.depth_now = self.depth_now.saturating_sub(2);
                    self.emit(Instr::Const(v), n);
                    return Folded::Done;
                }
                match fused(op, b) {
                    Some(instr) => {
                        self.code.truncate(right);
                        self.node_of.truncate(right);
                        self.depth_now = self.depth_now.saturating_sub(1);
                        Folded::Fused(instr)
                    }
                    None => Folded::No,
                }
            }
            _ => Folded::No,
        }
    }

    /// Generates the code of function `f`.
    fn generate(&mut self, f: u32) {
        self.functions[f as usize].entry = self.code.len() as u32;
        self.depth_now = 0;
        if !self.functions[f as usize].rules.is_empty() {
            self.generate_rules(f);
            return;
        }
        let Some(root) = self.functions[f as usize].root else {
            self.emit(Instr::Const(0.0), NO_NODE);
            self.emit(Instr::Ret, NO_NODE);
            return;
        };
        self.generate_expr(f, root);
        self.emit(Instr::Ret, NO_NODE);
    }

    /// Generates the code of the expression `root` of function `f`: its value on the stack.
    fn generate_expr(&mut self, f: u32, root: NodeId) {
        let file = self.functions[f as usize].file;
        enum Work {
            Visit(NodeId, u32),
            Op(NodeId),
            AndJump,
            OrJump,
            LogicEnd(NodeId),
            CondJump,
            CondElse,
            CondEnd(NodeId),
            Fused(NodeId, Instr),
            /// Records where the next operand's code starts (for folding in `Op`).
            Start,
        }
        let mut work = vec![Work::Visit(root, 0)];
        let mut jumps: Vec<u32> = Vec::new();
        let mut starts: Vec<usize> = Vec::new();
        while let Some(w) = work.pop() {
            match w {
                Work::Visit(n, depth) => {
                    self.node_file[n as usize] = file as u32;
                    self.node_depth[n as usize] = depth;
                    match self.ast.node(n).expr {
                        Expr::Num(v) => {
                            self.emit(Instr::Const(v), NO_NODE);
                        }
                        Expr::Ident => self.resolve(f, n),
                        Expr::Unary(_, x) => {
                            work.push(Work::Op(n));
                            work.push(Work::Visit(x, depth + 1));
                            work.push(Work::Start);
                        }
                        Expr::Binary(BinOp::And, l, r) => {
                            work.push(Work::LogicEnd(n));
                            work.push(Work::Visit(r, depth + 1));
                            work.push(Work::AndJump);
                            work.push(Work::Visit(l, depth + 1));
                        }
                        Expr::Binary(BinOp::Or, l, r) => {
                            work.push(Work::LogicEnd(n));
                            work.push(Work::Visit(r, depth + 1));
                            work.push(Work::OrJump);
                            work.push(Work::Visit(l, depth + 1));
                        }
                        Expr::Binary(op, l, r) => {
                            let k = match self.ast.node(r).expr {
                                Expr::Num(k) => fused(op, k),
                                _ => None,
                            };
                            match k {
                                Some(instr) => {
                                    self.node_file[r as usize] = file as u32;
                                    self.node_depth[r as usize] = depth + 1;
                                    work.push(Work::Fused(n, instr));
                                }
                                None => {
                                    work.push(Work::Op(n));
                                    work.push(Work::Visit(r, depth + 1));
                                    work.push(Work::Start);
                                    work.push(Work::Visit(l, depth + 1));
                                    work.push(Work::Start);
                                    continue;
                                }
                            }
                            work.push(Work::Visit(l, depth + 1));
                        }
                        Expr::Cond(c, t, e) => {
                            work.push(Work::CondEnd(n));
                            work.push(Work::Visit(e, depth + 1));
                            work.push(Work::CondElse);
                            work.push(Work::Visit(t, depth + 1));
                            work.push(Work::CondJump);
                            work.push(Work::Visit(c, depth + 1));
                        }
                    }
                }
                Work::Start => starts.push(self.code.len()),
                Work::Op(n) => {
                    let operands = match self.ast.node(n).expr {
                        Expr::Binary(..) => 2,
                        _ => 1,
                    };
                    let first = starts.len().saturating_sub(operands);
                    let start = starts.get(first).copied().unwrap_or(usize::MAX);
                    let last_start = starts.last().copied().unwrap_or(usize::MAX);
                    starts.truncate(first);
                    if !self.for_trace {
                        match self.fold(n, start, last_start) {
                            Folded::Done => continue,
                            Folded::Fused(instr) => {
                                self.fuse_k(n, instr);
                                continue;
                            }
                            Folded::No => {}
                        }
                    }
                    let instr = match self.ast.node(n).expr {
                        Expr::Unary(op, _) => match op {
                            UnOp::Not => Instr::Not,
                            UnOp::BitNot => Instr::BitNot,
                            UnOp::Neg => Instr::Neg,
                            UnOp::BitCount => Instr::BitCount,
                            UnOp::Ln => Instr::Ln,
                        },
                        Expr::Binary(op, ..) => binary_instr(op),
                        _ => Instr::Mark,
                    };
                    if matches!(self.ast.node(n).expr, Expr::Binary(BinOp::Percent, ..)) {
                        self.emit(instr, NO_NODE);
                        self.emit(Instr::MulK(0.01), n);
                        continue;
                    }
                    self.emit(instr, n);
                }
                Work::Fused(n, instr) => self.fuse_k(n, instr),
                Work::AndJump => jumps.push(self.emit(Instr::JumpIfFalseKeep(0), NO_NODE)),
                Work::OrJump => jumps.push(self.emit(Instr::JumpIfTrueKeep(0), NO_NODE)),
                Work::LogicEnd(n) => {
                    if let Some(j) = jumps.pop() {
                        self.patch(j);
                    }
                    // The right operand's value replaces the kept left one on this path.
                    self.depth_now = self.depth_now.saturating_sub(1).max(1);
                    if self.for_trace || !self.both_boolean(n) {
                        self.emit(Instr::ToBool, n);
                    }
                }
                Work::CondJump => jumps.push(self.emit(Instr::JumpIfFalsePop(0), NO_NODE)),
                Work::CondElse => {
                    let j = self.emit(Instr::Jump(0), NO_NODE);
                    if let Some(c) = jumps.pop() {
                        self.patch(c);
                    }
                    jumps.push(j);
                    self.depth_now = self.depth_now.saturating_sub(1);
                }
                Work::CondEnd(n) => {
                    if let Some(j) = jumps.pop() {
                        self.patch(j);
                    }
                    if self.for_trace {
                        self.emit(Instr::Mark, n);
                    }
                }
            }
        }
    }
}

fn binary_instr(op: BinOp) -> Instr {
    match op {
        BinOp::Pow => Instr::Pow,
        // Followed by `MulK(0.01)` (see `generate`).
        BinOp::Mul | BinOp::Percent => Instr::Mul,
        BinOp::Div => Instr::Div,
        BinOp::Mod => Instr::Mod,
        BinOp::Add => Instr::Add,
        BinOp::Sub => Instr::Sub,
        BinOp::Shl => Instr::Shl,
        BinOp::Shr => Instr::Shr,
        BinOp::Lt => Instr::Lt,
        BinOp::Le => Instr::Le,
        BinOp::Gt => Instr::Gt,
        BinOp::Ge => Instr::Ge,
        BinOp::Eq => Instr::Eq,
        BinOp::Ne => Instr::Ne,
        BinOp::ApproxEq => Instr::ApproxEq,
        BinOp::BitAnd => Instr::BitAnd,
        BinOp::BitXor => Instr::BitXor,
        BinOp::BitOr => Instr::BitOr,
        BinOp::Xor => Instr::Xor,
        // Compiled with jumps; never reached.
        BinOp::And | BinOp::Or => Instr::ToBool,
    }
}
