//! Loading: sections, parsing, name resolution, cycle detection and code generation.
//!
//! A program is compiled once into flat code for a small stack machine (see [`crate::Machine`]):
//! names become slots, `&&`, `||` and `?:` become jumps, and every function body is one run of
//! instructions ending in `Ret`. Code generation walks the trees with an explicit stack, so deep
//! or very long formulas cost heap, never native stack.

use crate::ast::{Ast, BinOp, Expr, NodeId, UnOp};
use crate::ohf::{self, HandList, SectionKind};
use crate::parser::parse_body;
use crate::symbols::{self, Symbol};
use alea_core::{Diagnostic, SourceFile, Span};
use std::collections::HashMap;
use std::sync::Arc;

/// A diagnostic and the file it is about (0: the formula file, 1: the `-e` expression).
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
    pub root: Option<NodeId>,
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

/// A compiled formula file (and optionally an expression over it).
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) files: Arc<Vec<SourceFile>>,
    pub(crate) ast: Ast,
    pub(crate) code: Vec<Instr>,
    /// Per instruction: the node it completes (for the trace and warnings), or `NO_NODE`.
    pub(crate) node_of: Vec<NodeId>,
    /// Per node: the file it belongs to and its depth under its function's root.
    pub(crate) node_file: Vec<u8>,
    pub(crate) node_depth: Vec<u32>,
    pub(crate) functions: Vec<Function>,
    pub(crate) slots: Vec<(String, Symbol)>,
    pub(crate) lists: Vec<(String, HandList)>,
    pub(crate) memory_names: Vec<String>,
    pub(crate) debug: Vec<DebugEntry>,
    pub(crate) expr: Option<u32>,
    pub(crate) max_stack: usize,
    pub(crate) lint: Vec<Located>,
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
    compile(Some(file), None)
}

/// Loads an expression (`alea holdem -e`), optionally over a formula file's functions and lists.
pub fn compile_expr(file: Option<SourceFile>, expr: SourceFile) -> Compilation {
    compile(file, Some(expr))
}

struct Dep {
    callee: u32,
    via: Option<String>,
    span: Span,
}

struct Builder<'a> {
    files: &'a [SourceFile],
    ast: Ast,
    code: Vec<Instr>,
    node_of: Vec<NodeId>,
    node_file: Vec<u8>,
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
    diags: Vec<Located>,
    deps: Vec<Vec<Dep>>,
    fn_used: Vec<bool>,
    standard: Vec<String>,
    max_stack: usize,
    depth_now: usize,
    lint: Vec<Located>,
}

fn compile(file: Option<SourceFile>, expr: Option<SourceFile>) -> Compilation {
    let mut files = vec![file.unwrap_or_else(|| SourceFile::new("<none>", ""))];
    let has_expr = expr.is_some();
    if let Some(e) = expr {
        files.push(e);
    }
    let files = Arc::new(files);
    let mut b = Builder {
        files: &files,
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
        diags: Vec::new(),
        deps: Vec::new(),
        fn_used: Vec::new(),
        standard: standard_functions(),
        max_stack: 0,
        depth_now: 0,
        lint: Vec::new(),
    };
    let debug_section = b.load_sections();
    let expr_fn = if has_expr {
        let f = &files[1];
        let idx = b.functions.len() as u32;
        b.functions.push(Function {
            name: "<expr>".into(),
            file: 1,
            header_line: 0,
            entry: 0,
            root: None,
            name_span: Span::point(0),
            standard: false,
        });
        b.fn_used.push(true);
        match parse_body(f, 0, f.text().len(), &mut b.ast, "end of expression") {
            Ok(root) => b.functions[idx as usize].root = root,
            Err(d) => b.error(1, d),
        }
        Some(idx)
    } else {
        None
    };
    let debug = b.load_debug(debug_section);
    b.node_file.resize(b.ast.nodes.len(), 0);
    b.node_depth.resize(b.ast.nodes.len(), 0);
    for i in 0..b.functions.len() {
        b.deps.push(Vec::new());
        b.generate(i as u32);
    }
    b.check_cycles();
    b.collect_lint();
    let diagnostics = std::mem::take(&mut b.diags);
    let failed = diagnostics.iter().any(|d| d.diagnostic.is_error());
    let program = (!failed).then(|| Program {
        files: files.clone(),
        ast: b.ast,
        code: b.code,
        node_of: b.node_of,
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

    /// Splits the formula file, registers lists and functions, parses bodies. Returns the
    /// `##f$debug##` section.
    fn load_sections(&mut self) -> Option<ohf::Section> {
        let file = &self.files[0];
        let mut diags = Vec::new();
        let sections = ohf::split_sections(file, &mut diags);
        for d in diags {
            self.error(0, d);
        }
        let mut debug = None;
        let mut seen: HashMap<String, Span> = HashMap::new();
        for s in &sections {
            if matches!(
                s.kind,
                SectionKind::List | SectionKind::Function | SectionKind::Debug
            ) && let Some(prev) = seen.insert(s.name.clone(), s.name_span)
            {
                {
                    let (line, _) = file.line_col(prev.start as usize);
                    let w = Diagnostic::warning(format!(
                        "section '{}' is defined twice; the later one (this) wins",
                        s.name
                    ))
                    .with_span(s.name_span)
                    .with_note(format!("first defined at line {line}"));
                    self.lint.push(Located {
                        file: 0,
                        diagnostic: w.clone(),
                    });
                    self.error(0, w);
                }
            }
            let body_text = file.slice(s.body);
            if matches!(s.kind, SectionKind::Dll | SectionKind::Date)
                && !body_text.trim().is_empty()
            {
                self.lint.push(Located {
                    file: 0,
                    diagnostic: Diagnostic::warning(format!(
                        "the body of section '{}' is ignored",
                        s.name
                    ))
                    .with_span(s.name_span),
                });
            }
            match s.kind {
                SectionKind::List => {
                    let mut d = Vec::new();
                    let list = ohf::parse_hand_list(file, s.body, &mut d);
                    for d in d {
                        self.error(0, d);
                    }
                    match self.list_index.get(&s.name) {
                        Some(&i) => self.lists[i as usize].1 = list,
                        None => {
                            self.list_index
                                .insert(s.name.clone(), self.lists.len() as u32);
                            self.lists.push((s.name.clone(), list));
                            self.list_used.push(false);
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
                                file: 0,
                                header_line: s.header_line,
                                entry: 0,
                                root: None,
                                name_span: s.name_span,
                                standard: self.standard.contains(&s.name),
                            });
                            self.fn_used.push(false);
                            i
                        }
                    };
                    let f = &mut self.functions[idx as usize];
                    f.header_line = s.header_line;
                    f.name_span = s.name_span;
                    f.root = None;
                    let start = s.body.start as usize;
                    let end = s.body.end as usize;
                    match parse_body(file, start, end, &mut self.ast, "end of function") {
                        Ok(root) => self.functions[idx as usize].root = root,
                        Err(d) => self.error(0, d),
                    }
                }
                SectionKind::Debug => debug = Some(s.clone()),
                _ => {}
            }
        }
        debug
    }

    /// Each line of the debug tab becomes a hidden function.
    fn load_debug(&mut self, section: Option<ohf::Section>) -> Vec<DebugEntry> {
        let Some(section) = section else {
            return Vec::new();
        };
        let file = &self.files[0];
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
                        file: 0,
                        header_line: section.header_line,
                        entry: 0,
                        root,
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
                    self.error(0, w);
                }
            }
        }
        out
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

    /// Generates the code of function `f`.
    fn generate(&mut self, f: u32) {
        let file = self.functions[f as usize].file;
        self.functions[f as usize].entry = self.code.len() as u32;
        self.depth_now = 0;
        let Some(root) = self.functions[f as usize].root else {
            self.emit(Instr::Const(0.0), NO_NODE);
            self.emit(Instr::Ret, NO_NODE);
            return;
        };
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
        }
        let mut work = vec![Work::Visit(root, 0)];
        let mut jumps: Vec<u32> = Vec::new();
        while let Some(w) = work.pop() {
            match w {
                Work::Visit(n, depth) => {
                    self.node_file[n as usize] = file as u8;
                    self.node_depth[n as usize] = depth;
                    match self.ast.node(n).expr {
                        Expr::Num(v) => {
                            self.emit(Instr::Const(v), NO_NODE);
                        }
                        Expr::Ident => self.resolve(f, n),
                        Expr::Unary(_, x) => {
                            work.push(Work::Op(n));
                            work.push(Work::Visit(x, depth + 1));
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
                                    self.node_file[r as usize] = file as u8;
                                    self.node_depth[r as usize] = depth + 1;
                                    work.push(Work::Fused(n, instr));
                                }
                                None => {
                                    work.push(Work::Op(n));
                                    work.push(Work::Visit(r, depth + 1));
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
                Work::Op(n) => {
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
                    self.emit(instr, n);
                }
                Work::Fused(n, instr) => {
                    self.emit(instr, n);
                }
                Work::AndJump => jumps.push(self.emit(Instr::JumpIfFalseKeep(0), NO_NODE)),
                Work::OrJump => jumps.push(self.emit(Instr::JumpIfTrueKeep(0), NO_NODE)),
                Work::LogicEnd(n) => {
                    if let Some(j) = jumps.pop() {
                        self.patch(j);
                    }
                    // The right operand's value replaces the kept left one on this path.
                    self.depth_now = self.depth_now.saturating_sub(1).max(1);
                    self.emit(Instr::ToBool, n);
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
                    self.emit(Instr::Mark, n);
                }
            }
        }
        self.emit(Instr::Ret, NO_NODE);
    }

    fn name_of(&self, f: u32, n: NodeId) -> String {
        let file = self.functions[f as usize].file;
        self.files[file].slice(self.ast.node(n).op_span).to_string()
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
    fn resolve(&mut self, f: u32, n: NodeId) {
        let name = self.name_of(f, n);
        let span = self.ast.node(n).op_span;
        let file = self.functions[f as usize].file;
        if let Err(d) = self.emit_name(f, &name, span, n, true) {
            self.error(file, d);
            self.emit(Instr::Const(0.0), n);
        }
    }

    fn call_function(
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

    fn emit_name(
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
        if name.starts_with("f$") {
            if name == "f$debug" {
                self.emit(Instr::Const(0.0), n);
                return Ok(());
            }
            if self.call_function(f, name, span, n, None) {
                return Ok(());
            }
            if self.standard.iter().any(|s| s == name) {
                self.emit(Instr::Const(0.0), n);
                return Ok(());
            }
            let mut candidates: Vec<String> = self.standard.clone();
            candidates.extend(self.fn_index.keys().cloned());
            return Err(with_suggestions(
                Diagnostic::error(format!("undefined function '{name}'")).with_span(span),
                name,
                candidates.iter().map(|s| s.as_str()),
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
            let names: Vec<String> = self.lists.iter().map(|l| l.0.clone()).collect();
            return Err(with_suggestions(
                Diagnostic::error(format!("undefined list '{name}'")).with_span(span),
                list,
                names.iter().map(|s| s.as_str()),
            ));
        }
        if let Some(rest) = name.strip_prefix("me_") {
            return self.emit_memory(f, name, rest, span, n, allow_store);
        }
        if let Some(sym) = symbols::lookup(name) {
            self.emit_symbol(f, sym, name, span, n);
            return Ok(());
        }
        if symbols::is_live_table_name(name) {
            return Err(Diagnostic::error(format!(
                "symbol '{name}' needs a live table: not available offline"
            ))
            .with_span(span));
        }
        let mut candidates = symbols::all_names();
        candidates.extend(self.lists.iter().map(|l| l.0.clone()));
        candidates.extend(self.fn_index.keys().cloned());
        Err(with_suggestions(
            Diagnostic::error(format!("unknown symbol '{name}'")).with_span(span),
            name,
            candidates.iter().map(|s| s.as_str()),
        ))
    }

    fn emit_symbol(&mut self, f: u32, sym: Symbol, name: &str, span: Span, n: NodeId) {
        let deps = sym.function_deps();
        for (k, dep) in deps.iter().enumerate() {
            let defined_nonempty = self
                .fn_index
                .get(*dep)
                .is_some_and(|&i| self.functions[i as usize].root.is_some());
            // For the opponent count an empty function means 1; for iterations the default.
            if !(defined_nonempty && self.call_function(f, dep, span, NO_NODE, Some(name))) {
                let absent = if k == 0 { 0.0 } else { f64::NAN };
                self.emit(Instr::Const(absent), NO_NODE);
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
        let valid_name = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric());
        let (verb, tail) = rest.split_once('_').ok_or_else(|| bad("missing a NAME"))?;
        match verb {
            "re" | "inc" => {
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
                    self.emit_name(f, value, vspan, NO_NODE, false)
                        .map_err(|d| d.with_note(format!("in the VALUE of '{name}'")))?;
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

    /// Reports each dependency cycle once, from the earliest function in it.
    fn check_cycles(&mut self) {
        let nf = self.functions.len();
        let mut state = vec![0u8; nf]; // 0 new, 1 on stack, 2 done
        let mut reported = vec![false; nf];
        for root in 0..nf {
            if state[root] != 0 {
                continue;
            }
            // Iterative DFS: (function, next dependency index).
            let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
            state[root] = 1;
            while let Some(&mut (fun, ref mut next)) = stack.last_mut() {
                if *next >= self.deps[fun].len() {
                    state[fun] = 2;
                    stack.pop();
                    continue;
                }
                let callee = self.deps[fun][*next].callee as usize;
                *next += 1;
                match state[callee] {
                    0 => {
                        state[callee] = 1;
                        stack.push((callee, 0));
                    }
                    1 => {
                        let pos = stack.iter().position(|&(g, _)| g == callee).unwrap_or(0);
                        let cycle: Vec<usize> = stack[pos..].iter().map(|&(g, _)| g).collect();
                        if cycle.iter().any(|&g| reported[g]) {
                            continue;
                        }
                        cycle.iter().for_each(|&g| reported[g] = true);
                        self.report_cycle(&cycle);
                    }
                    _ => {}
                }
            }
        }
    }

    fn report_cycle(&mut self, cycle: &[usize]) {
        // Start from the earliest function (declaration order = file order).
        let start = (0..cycle.len()).min_by_key(|&k| cycle[k]).unwrap_or(0);
        let order: Vec<usize> = (0..cycle.len())
            .map(|k| cycle[(start + k) % cycle.len()])
            .collect();
        let mut text = String::from("cycle: ");
        let mut first_span = None;
        for (k, &g) in order.iter().enumerate() {
            let next = order[(k + 1) % order.len()];
            text.push_str(&self.functions[g].name);
            text.push_str(" -> ");
            let dep = self.deps[g].iter().find(|d| d.callee as usize == next);
            if let Some(d) = dep {
                if first_span.is_none() {
                    first_span = Some((self.functions[g].file, d.span));
                }
                if let Some(via) = &d.via {
                    text.push_str(via);
                    text.push_str(" -> ");
                }
            }
        }
        text.push_str(&self.functions[order[0]].name);
        let (file, span) = first_span.unwrap_or((0, Span::point(0)));
        self.error(file, Diagnostic::error(text).with_span(span));
    }

    fn collect_lint(&mut self) {
        for (i, used) in self.list_used.iter().enumerate() {
            if !used {
                let name = &self.lists[i].0;
                self.lint.push(Located {
                    file: 0,
                    diagnostic: Diagnostic::warning(format!("list '{name}' is never used"))
                        .with_span(self.section_span(name)),
                });
            }
        }
        for (i, f) in self.functions.iter().enumerate() {
            if f.file == 0 && !f.standard && !self.fn_used[i] && f.name != "f$debug" {
                self.lint.push(Located {
                    file: 0,
                    diagnostic: Diagnostic::warning(format!(
                        "function '{}' is never used and is not a standard function",
                        f.name
                    ))
                    .with_span(f.name_span),
                });
            }
        }
        for &(file, span, cell) in &self.memory_reads {
            if !self.memory_written[cell as usize] {
                self.lint.push(Located {
                    file,
                    diagnostic: Diagnostic::warning(format!(
                        "memory cell '{}' is read but never written",
                        self.memory_names[cell as usize]
                    ))
                    .with_span(span),
                });
            }
        }
        crate::lint::precedence_traps(self.files, &self.ast, &self.functions, &mut self.lint);
    }

    fn section_span(&self, name: &str) -> Span {
        let text = self.files[0].text();
        let needle = format!("##{name}##");
        text.find(&needle)
            .map_or(Span::point(0), |i| Span::new(i + 2, i + 2 + name.len()))
    }
}

fn binary_instr(op: BinOp) -> Instr {
    match op {
        BinOp::Pow => Instr::Pow,
        BinOp::Mul => Instr::Mul,
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

fn with_suggestions<'a>(
    d: Diagnostic,
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    let s = symbols::suggest(name, candidates);
    if s.is_empty() {
        return d;
    }
    let list = s
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(" or ");
    let message = format!("{}; did you mean {list}?", d.message);
    Diagnostic { message, ..d }
}
