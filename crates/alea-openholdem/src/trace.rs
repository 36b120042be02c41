//! `--trace`: one line per evaluated reference and operator (spec §6), in OpenHoldem's
//! indented-log style.
//!
//! The machine records events in post-order (a node completes after its operands); [`build`]
//! turns them into print order (a node before its operands) using the depths, without
//! recursion.

use crate::ast::{Expr, NodeId, UnOp};
use crate::compile::Program;
use crate::ops;

#[derive(Clone, Debug)]
pub(crate) enum What {
    Node(NodeId),
    Function(u32),
    Named(String),
}

/// An event as the machine records it.
#[derive(Clone, Debug)]
pub(crate) struct RawEvent {
    depth: u32,
    what: What,
    value: f64,
    cached: bool,
}

impl RawEvent {
    pub(crate) fn node(node: NodeId, depth: u32, value: f64) -> RawEvent {
        RawEvent {
            depth,
            what: What::Node(node),
            value,
            cached: false,
        }
    }
    pub(crate) fn function(f: u32, depth: u32, value: f64, cached: bool) -> RawEvent {
        RawEvent {
            depth,
            what: What::Function(f),
            value,
            cached,
        }
    }
    pub(crate) fn function_const(name: &str, depth: u32) -> RawEvent {
        RawEvent {
            depth,
            what: What::Named(name.to_string()),
            value: 0.0,
            cached: false,
        }
    }
}

/// One printed trace line.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceLine {
    /// Indentation level.
    pub depth: u32,
    /// The name, or the operator's source text.
    pub label: String,
    /// The value.
    pub value: f64,
    /// `function`, `symbol`, `list`, `memory` or `operator`.
    pub kind: &'static str,
    /// A function value taken from this run's cache.
    pub cached: bool,
    /// The bit pattern of a bitwise result.
    pub bits: Option<String>,
    /// `FILE:LINE` of a function's header.
    pub header: Option<String>,
    /// Position of the node (1-based); the header line for functions.
    pub line: usize,
    /// Column.
    pub col: usize,
}

impl TraceLine {
    /// `<2·depth spaces><label> = <value>[ (0b<bits>)][ [FILE:LINE] | [cached]]`.
    pub fn render(&self) -> String {
        let mut s = format!(
            "{}{} = {}",
            "  ".repeat(self.depth as usize),
            self.label,
            ops::format_value(self.value)
        );
        if let Some(b) = &self.bits {
            s.push_str(&format!(" (0b{b})"));
        }
        if self.cached {
            s.push_str(" [cached]");
        } else if let Some(h) = &self.header {
            s.push_str(&format!(" [{h}]"));
        }
        s
    }
}

/// The source text of a node: comments removed, whitespace collapsed, one pair of enclosing
/// brackets dropped.
pub(crate) fn label(program: &Program, node: NodeId) -> String {
    let file = &program.files[program.node_file[node as usize] as usize];
    let text = file.slice(program.ast.node(node).span);
    let mut out = String::new();
    let b = text.as_bytes();
    let mut i = 0;
    let mut space = false;
    while i < b.len() {
        if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            space = true;
            continue;
        }
        if text[i..].starts_with("/*") {
            i = text[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
            space = true;
            continue;
        }
        let c = text[i..].chars().next().unwrap_or(' ');
        if c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
        i += c.len_utf8();
    }
    strip_brackets(&out).to_string()
}

fn strip_brackets(s: &str) -> &str {
    let b = s.as_bytes();
    if b.len() < 2 {
        return s;
    }
    let close = match b[0] {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        _ => return s,
    };
    if b[b.len() - 1] != close {
        return s;
    }
    // The first bracket must close at the very end.
    let mut depth = 0i32;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 && i != b.len() - 1 {
                    return s;
                }
            }
            _ => {}
        }
    }
    s[1..s.len() - 1].trim()
}

fn kind_of(program: &Program, node: NodeId, name: &str) -> &'static str {
    match program.ast.node(node).expr {
        Expr::Ident => {
            if name.starts_with("me_") {
                "memory"
            } else if name.starts_with("list") || name.starts_with("islist") {
                "list"
            } else if name.starts_with("f$") {
                "function"
            } else {
                "symbol"
            }
        }
        _ => "operator",
    }
}

fn is_bitwise(program: &Program, node: NodeId) -> bool {
    match program.ast.node(node).expr {
        Expr::Binary(op, ..) => op.is_bitwise(),
        Expr::Unary(op, _) => op == UnOp::BitNot,
        _ => false,
    }
}

fn line_of(program: &Program, e: &RawEvent) -> TraceLine {
    match &e.what {
        What::Node(n) => {
            let label = label(program, *n);
            let (line, col, _) = crate::machine::node_line_col(program, *n);
            TraceLine {
                depth: e.depth,
                kind: kind_of(program, *n, &label),
                bits: is_bitwise(program, *n).then(|| ops::bit_pattern(e.value)),
                label,
                value: e.value,
                cached: false,
                header: None,
                line,
                col,
            }
        }
        What::Function(f) => {
            let fun = &program.functions[*f as usize];
            let file = &program.files[fun.file];
            TraceLine {
                depth: e.depth,
                label: fun.name.clone(),
                value: e.value,
                kind: "function",
                cached: e.cached,
                bits: None,
                header: Some(format!("{}:{}", file.name(), fun.header_line)),
                line: fun.header_line,
                col: 1,
            }
        }
        What::Named(name) => TraceLine {
            depth: e.depth,
            label: name.clone(),
            value: e.value,
            kind: "function",
            cached: false,
            bits: None,
            header: None,
            line: 0,
            col: 0,
        },
    }
}

/// Post-order events to print order.
pub(crate) fn build(program: &Program, raw: &[RawEvent]) -> Vec<TraceLine> {
    // Each stack entry: an event and its children (indices into `raw`).
    let mut stack: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); raw.len()];
    for (i, e) in raw.iter().enumerate() {
        let mut mine = Vec::new();
        while stack.last().is_some_and(|(j, _)| raw[*j].depth > e.depth) {
            if let Some((j, _)) = stack.pop() {
                mine.push(j);
            }
        }
        mine.reverse();
        children[i] = mine;
        stack.push((i, Vec::new()));
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut work: Vec<usize> = stack.iter().rev().map(|(i, _)| *i).collect();
    while let Some(i) = work.pop() {
        out.push(line_of(program, &raw[i]));
        work.extend(children[i].iter().rev());
    }
    out
}
