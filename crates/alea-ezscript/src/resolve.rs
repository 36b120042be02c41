//! Names to slots. Each function (and the script) has a frame of slots; each block declares the
//! names first assigned in it. Function bodies are resolved at the end of the block that
//! defines them, so they see every name of that block and its enclosing ones (named functions
//! are hoisted, closures capture by reference). Variables captured by a closure are boxed.

use crate::ast::{self, BinOp, ExprKind, FuncDef, Ident, PathStep};
use crate::builtins::Builtin;
use crate::ir::*;
use alea_core::{Diagnostic, Span};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

struct SlotInfo {
    name: Name,
    boxed: bool,
}

struct Pending {
    index: u32,
    def: Rc<FuncDef>,
    span: Span,
}

#[derive(Default)]
struct Scope {
    names: HashMap<Name, u32>,
    decls: Vec<u32>,
    pending: Vec<Pending>,
}

struct FnScope {
    /// The function's own name when it is one of [`Resolver::fixed`]: inside its body (not in
    /// nested functions) the name is the running closure.
    own: Option<Rc<str>>,
    slots: Vec<SlotInfo>,
    captures: Vec<Capture>,
    capture_names: Vec<Name>,
    scopes: Vec<Scope>,
    loops: u32,
}

impl FnScope {
    fn new() -> FnScope {
        FnScope {
            own: None,
            slots: Vec::new(),
            captures: Vec::new(),
            capture_names: Vec::new(),
            scopes: vec![Scope::default()],
            loops: 0,
        }
    }
}

enum Found {
    Local(u32),
    Upval(u32),
    None,
}

/// The resolver's state across the chunks of one program (one script, or the insertions of one
/// template, which share a scope).
pub struct Resolver {
    fns: Vec<FnScope>,
    pub protos: Vec<Option<Arc<Proto>>>,
    /// The text constants, by [`Const::Text`] index.
    pub texts: Vec<Name>,
    pub diags: Vec<Diagnostic>,
    /// What the program was compiled from, shared by its functions ([`Proto::origin`]).
    pub origin: Arc<str>,
    /// The program's [`fixed_functions`], when the whole program is known before it is
    /// resolved (a script; a template's insertions are resolved one by one, so a later one
    /// could still assign a name: none there).
    pub fixed: HashSet<Rc<str>>,
}

impl Default for Resolver {
    fn default() -> Self {
        Resolver::new()
    }
}

impl Resolver {
    pub fn new() -> Resolver {
        Resolver {
            fns: vec![FnScope::new()],
            protos: Vec::new(),
            texts: Vec::new(),
            diags: Vec::new(),
            origin: Arc::from(""),
            fixed: HashSet::new(),
        }
    }

    /// Resolves one chunk of top-level statements into the shared script scope.
    pub fn chunk(&mut self, block: &ast::Block) -> Block {
        let first_decl = self.fns[0].scopes[0].decls.len();
        let first_hoist = self.hoist(&block.stmts);
        let (stmts, tail) = split_tail(block.stmts.iter().map(|s| self.stmt(s)).collect());
        self.flush_pending();
        let f = &self.fns[0];
        let decls: Vec<Decl> = f.scopes[0].decls[first_decl..]
            .iter()
            .map(|&slot| Decl {
                slot,
                boxed: f.slots[slot as usize].boxed,
            })
            .collect();
        Block {
            declares: !decls.is_empty() || !first_hoist.is_empty(),
            decls,
            hoisted: first_hoist,
            stmts,
            tail,
        }
    }

    /// The number of slots and their names of the script frame.
    pub fn script_frame(&self) -> (u32, Vec<Name>) {
        let f = &self.fns[0];
        (
            f.slots.len() as u32,
            f.slots.iter().map(|s| s.name.clone()).collect(),
        )
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diags
            .push(Diagnostic::error(message.into()).with_span(span));
    }

    fn cur(&mut self) -> &mut FnScope {
        self.fns.last_mut().expect("a function scope")
    }

    fn declare(&mut self, name: &str) -> u32 {
        let name: Name = Arc::from(name);
        let f = self.cur();
        let slot = f.slots.len() as u32;
        f.slots.push(SlotInfo {
            name: name.clone(),
            boxed: false,
        });
        let scope = f.scopes.last_mut().expect("a scope");
        scope.names.insert(name.clone(), slot);
        scope.decls.push(slot);
        slot
    }

    fn lookup(&mut self, name: &str) -> Found {
        let depth = self.fns.len() - 1;
        self.lookup_in(depth, name)
    }

    fn lookup_in(&mut self, fn_index: usize, name: &str) -> Found {
        let f = &self.fns[fn_index];
        for scope in f.scopes.iter().rev() {
            if let Some(&slot) = scope.names.get(name) {
                return Found::Local(slot);
            }
        }
        if let Some(i) = f.capture_names.iter().position(|n| &**n == name) {
            return Found::Upval(i as u32);
        }
        if fn_index == 0 {
            return Found::None;
        }
        let capture = match self.lookup_in(fn_index - 1, name) {
            Found::None => return Found::None,
            Found::Local(slot) => {
                self.fns[fn_index - 1].slots[slot as usize].boxed = true;
                Capture::Local(slot)
            }
            Found::Upval(i) => Capture::Upval(i),
        };
        let f = &mut self.fns[fn_index];
        f.captures.push(capture);
        f.capture_names.push(Arc::from(name));
        Found::Upval(f.captures.len() as u32 - 1)
    }

    fn reserve_proto(&mut self, def: &Rc<FuncDef>, span: Span) -> u32 {
        let index = self.protos.len() as u32;
        self.protos.push(None);
        self.cur()
            .scopes
            .last_mut()
            .expect("a scope")
            .pending
            .push(Pending {
                index,
                def: def.clone(),
                span,
            });
        index
    }

    /// Declares the block's named functions up front (hoisting) and reserves their protos.
    fn hoist(&mut self, stmts: &[ast::Stmt]) -> Vec<(u32, u32)> {
        let mut hoisted = Vec::new();
        for stmt in stmts {
            if let ast::StmtKind::FuncDecl(def) = &stmt.kind
                && let Some(name) = &def.name
            {
                let slot = match self
                    .cur()
                    .scopes
                    .last()
                    .and_then(|s| s.names.get(&*name.name))
                {
                    Some(&slot) => slot,
                    None => self.declare(&name.name),
                };
                let index = self.reserve_proto(def, stmt.span);
                hoisted.push((slot, index));
            }
        }
        hoisted
    }

    /// Resolves the bodies of the functions defined in the innermost scope.
    fn flush_pending(&mut self) {
        loop {
            let pending = std::mem::take(&mut self.cur().scopes.last_mut().expect("scope").pending);
            if pending.is_empty() {
                return;
            }
            for p in pending {
                let proto = self.function(&p.def, p.span);
                self.protos[p.index as usize] = Some(Arc::new(proto));
            }
        }
    }

    fn function(&mut self, def: &FuncDef, span: Span) -> Proto {
        let mut f = FnScope::new();
        f.scopes[0] = Scope::default();
        f.own = def
            .name
            .as_ref()
            .filter(|n| self.fixed.contains(&n.name))
            .map(|n| n.name.clone());
        self.fns.push(f);
        let mut param_slots = Vec::new();
        for p in &def.params {
            if self.cur().scopes[0].names.contains_key(&*p.name) {
                self.error(p.span, format!("Parameter {} appears twice", p.name));
            }
            param_slots.push(self.declare(&p.name));
        }
        let body = self.block(&def.body);
        let f = self.fns.pop().expect("pushed above");
        let params: Vec<Decl> = param_slots
            .iter()
            .map(|&slot| Decl {
                slot,
                boxed: f.slots[slot as usize].boxed,
            })
            .collect();
        let boxes_params = params.iter().any(|d| d.boxed);
        let slots = f.slots.len() as u32;
        Proto {
            name: def.name.as_ref().map(|n| Arc::from(&*n.name)),
            boxes_params,
            code: crate::compile::function(&body, params.len(), boxes_params, slots),
            params,
            slots,
            slot_names: f.slots.iter().map(|s| s.name.clone()).collect(),
            captures: f.captures,
            capture_names: f.capture_names,
            body,
            span,
            origin: self.origin.clone(),
        }
    }

    fn push_scope(&mut self) {
        self.cur().scopes.push(Scope::default());
    }

    /// Pops the innermost scope after resolving its pending functions; returns its decls.
    fn pop_scope(&mut self) -> Vec<Decl> {
        self.flush_pending();
        let f = self.cur();
        let scope = f.scopes.pop().expect("a scope");
        scope
            .decls
            .iter()
            .map(|&slot| Decl {
                slot,
                boxed: f.slots[slot as usize].boxed,
            })
            .collect()
    }

    fn block(&mut self, block: &ast::Block) -> Block {
        self.push_scope();
        let hoisted = self.hoist(&block.stmts);
        let (stmts, tail) = split_tail(block.stmts.iter().map(|s| self.stmt(s)).collect());
        let decls = self.pop_scope();
        Block {
            declares: !decls.is_empty() || !hoisted.is_empty(),
            decls,
            hoisted,
            stmts,
            tail,
        }
    }

    fn stmt(&mut self, stmt: &ast::Stmt) -> Stmt {
        let span = stmt.span;
        let kind = match &stmt.kind {
            ast::StmtKind::Expr(e) => StmtKind::Expr(self.expr(e)),
            ast::StmtKind::Error => StmtKind::Expr(error_node(span)),
            ast::StmtKind::Assign {
                root,
                path,
                op,
                value,
            } => fuse_update(self.assign(root, path, *op, value), span),
            // Hoisted: created on block entry.
            ast::StmtKind::FuncDecl(_) => {
                StmtKind::Expr(Node::new(NodeKind::Const(Const::Nothing), span))
            }
            ast::StmtKind::ForIn {
                index,
                item,
                list,
                body,
            } => {
                let list = self.expr(list);
                self.push_scope();
                let index = index.as_ref().map(|i| self.declare(&i.name));
                let item = self.declare(&item.name);
                self.cur().loops += 1;
                let body = self.block(body);
                self.cur().loops -= 1;
                let decls = self.pop_scope();
                StmtKind::ForIn {
                    decls,
                    index,
                    item,
                    list,
                    body,
                }
            }
            ast::StmtKind::ForC {
                init,
                cond,
                update,
                body,
            } => {
                self.push_scope();
                let init = init.as_ref().map(|s| Box::new(self.stmt(s)));
                let (cond, hoisted) = condition(self.expr(cond));
                self.cur().loops += 1;
                let body = self.block(body);
                self.cur().loops -= 1;
                let update = update.as_ref().map(|s| Box::new(self.stmt(s)));
                let decls = self.pop_scope();
                StmtKind::ForC {
                    decls,
                    init,
                    cond,
                    pass_cost: cost::PASS + hoisted,
                    update,
                    body,
                }
            }
            ast::StmtKind::While(cond, body) => {
                let (cond, hoisted) = condition(self.expr(cond));
                self.cur().loops += 1;
                let body = self.block(body);
                self.cur().loops -= 1;
                StmtKind::While {
                    cond,
                    pass_cost: cost::PASS + hoisted,
                    body,
                }
            }
            ast::StmtKind::Break | ast::StmtKind::Continue => {
                let is_break = matches!(stmt.kind, ast::StmtKind::Break);
                if self.cur().loops == 0 {
                    let word = if is_break { "break" } else { "continue" };
                    self.error(span, format!("{word} outside a loop"));
                }
                if is_break {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                }
            }
        };
        Stmt { kind, span }
    }

    fn assign(
        &mut self,
        root: &Ident,
        path: &[PathStep],
        op: Option<ast::BinOp>,
        value: &ast::Expr,
    ) -> StmtKind {
        // The right-hand side is resolved first: in `x = x + 1` it reads the outer `x`.
        let value = self.expr(value);
        let path = path
            .iter()
            .map(|step| match step {
                PathStep::Key(k) => PathIr::Key(Arc::from(&*k.name), k.span),
                PathStep::Index(e) => PathIr::Index(self.expr(e)),
            })
            .collect::<Vec<_>>();
        let var = match self.lookup(&root.name) {
            Found::Local(slot) => Var::Local(slot),
            Found::Upval(i) => Var::Upval(i),
            Found::None if op.is_none() && path.is_empty() => Var::Local(self.declare(&root.name)),
            Found::None => Var::Missing,
        };
        StmtKind::Assign {
            var,
            name: Arc::from(&*root.name),
            name_span: root.span,
            path,
            op,
            value,
        }
    }

    fn exprs(&mut self, exprs: &[ast::Expr]) -> Vec<Node> {
        exprs.iter().map(|e| self.expr(e)).collect()
    }

    /// An expression, with the superinstructions chosen and the steps of each node computed
    /// from [`cost`].
    fn expr(&mut self, expr: &ast::Expr) -> Node {
        let span = expr.span;
        let mut node_cost = cost::NODE;
        let kind = match &expr.kind {
            ExprKind::Number(x) => NodeKind::Const(Const::Number(*x)),
            ExprKind::Text(s) => {
                self.texts.push(Arc::from(&**s));
                NodeKind::Const(Const::Text(self.texts.len() as u32 - 1))
            }
            ExprKind::Bool(b) => NodeKind::Const(Const::Bool(*b)),
            ExprKind::Name(name) => match self.lookup(name) {
                Found::Local(slot) => NodeKind::Local(slot),
                Found::Upval(i) => NodeKind::Upval(i),
                Found::None => NodeKind::Global(Arc::from(&**name)),
            },
            ExprKind::List(items) => NodeKind::List(self.exprs(items)),
            ExprKind::Object(entries) => NodeKind::Object(
                entries
                    .iter()
                    .map(|(k, v)| (Arc::from(&*k.name), self.expr(v)))
                    .collect(),
            ),
            ExprKind::Unary(op, e) => NodeKind::Unary(*op, Box::new(self.expr(e))),
            ExprKind::Binary(op, a, b) => {
                let (mut a, mut b) = (self.expr(a), self.expr(b));
                match (&a.kind, &b.kind) {
                    (NodeKind::Local(slot), NodeKind::Const(Const::Number(x)))
                        if !matches!(op, ast::BinOp::And | ast::BinOp::Or) =>
                    {
                        node_cost = cost::LOCAL_NUM;
                        NodeKind::LocalNum(*op, *slot, *x, a.span)
                    }
                    _ => {
                        // The first operand runs first; the second's steps only when the
                        // first is a leaf too (and not for `&&`/`||`, which may skip it).
                        node_cost += hoist(&mut a);
                        if a.is_leaf() && !matches!(op, ast::BinOp::And | ast::BinOp::Or) {
                            node_cost += hoist(&mut b);
                        }
                        NodeKind::Binary(*op, Box::new(a), Box::new(b))
                    }
                }
            }
            ExprKind::If(cond, then, els) => {
                let (cond, hoisted) = condition(self.expr(cond));
                node_cost += hoisted;
                let then = self.block(then);
                let els = els.as_ref().map(|e| Box::new(self.expr(e)));
                NodeKind::If(Box::new(cond), then, els)
            }
            ExprKind::Block(b) => {
                let block = self.block(b);
                // `{ e }` declaring nothing is `e` paying the block's step too.
                if !block.declares && block.stmts.is_empty() {
                    return match block.tail {
                        Some(mut e) => {
                            e.cost += cost::NODE;
                            *e
                        }
                        None => Node::new(NodeKind::Const(Const::Nothing), span),
                    };
                }
                NodeKind::Block(block)
            }
            ExprKind::Func(def) => NodeKind::Func(self.reserve_proto(def, span)),
            ExprKind::Member(obj, name) => {
                NodeKind::Member(Box::new(self.expr(obj)), Arc::from(&*name.name))
            }
            ExprKind::Method(obj, name, args) => NodeKind::Method(
                Box::new(self.expr(obj)),
                Arc::from(&*name.name),
                self.exprs(args),
            ),
            ExprKind::Index(obj, index) => {
                NodeKind::Index(Box::new(self.expr(obj)), Box::new(self.expr(index)))
            }
            ExprKind::Call(callee, args) => {
                let (kind, hoisted) = self.call(callee, args, span);
                node_cost += hoisted;
                kind
            }
            ExprKind::Error => return error_node(span),
        };
        Node {
            kind,
            span,
            cost: node_cost,
        }
    }

    /// A call, and the steps its node pays on entry beyond its own.
    fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> (NodeKind, u32) {
        if let ExprKind::Name(name) = &callee.kind
            && matches!(self.lookup(name), Found::None)
        {
            let was = match &**name {
                "was" => Some(Was::Was),
                "changed" => Some(Was::Changed),
                "becameTrue" => Some(Was::BecameTrue),
                _ => None,
            };
            if let Some(was) = was {
                if args.len() != 1 {
                    self.error(
                        span,
                        format!("{name} expects 1 argument, got {}", args.len()),
                    );
                    return (error_node(span).kind, 0);
                }
                return (NodeKind::Was(was, Box::new(self.expr(&args[0]))), 0);
            }
            if let Some(b) = Builtin::by_name(name) {
                return (NodeKind::CallBuiltin(b, self.exprs(args)), 0);
            }
        }
        // The running function calling itself by its own name, which nothing rebinds.
        let own = match (&callee.kind, &self.cur().own) {
            (ExprKind::Name(name), Some(own)) => name == own,
            _ => false,
        };
        let callee = self.expr(callee);
        let mut args = self.exprs(args);
        if let NodeKind::Upval(i) = callee.kind {
            // The callee's step, and those of the leading leaf arguments (they run before
            // anything with an effect).
            let mut hoisted = callee.cost;
            for a in &mut args {
                if !a.is_leaf() {
                    break;
                }
                hoisted += hoist(a);
            }
            if let [
                Node {
                    kind: NodeKind::LocalNum(op, slot, y, local_span),
                    span: arg_span,
                    ..
                },
            ] = args[..]
            {
                let kind = NodeKind::CallUpvalLocalNum {
                    upval: i,
                    own,
                    callee_span: callee.span,
                    op,
                    slot,
                    y,
                    local_span,
                    arg_span,
                };
                return (kind, hoisted);
            }
            return (NodeKind::CallUpval(i, callee.span, args, own), hoisted);
        }
        (NodeKind::Call(Box::new(callee), args), 0)
    }
}

/// `x op= number` / `x op= y` on a plain local becomes a [`StmtKind::NumUpdate`] (which keeps
/// the full assignment for the cases its fast path does not cover).
/// The names of a program bound exactly once, by a function declaration (`func f(…)`), and
/// never otherwise: no assignment's root, parameter, loop variable or other function (named
/// function expressions included) anywhere in the program has the name. Inside such a
/// function's own body its name can only be its own declaration, whose variable is set once,
/// when the block declaring it is entered, to the closure being made — the closure that is
/// running when the body calls the name (each entry makes a new variable and closure). So
/// the compiler may call the running closure instead of reading the variable
/// ([`crate::code::Op::CallUpvalLocalNum`]'s `own`).
pub fn fixed_functions(block: &ast::Block) -> HashSet<Rc<str>> {
    #[derive(Default)]
    struct Count {
        decls: HashMap<Rc<str>, u32>,
        other: HashSet<Rc<str>>,
    }
    impl Count {
        fn block(&mut self, b: &ast::Block) {
            for s in &b.stmts {
                self.stmt(s);
            }
        }
        fn func(&mut self, def: &FuncDef) {
            for p in &def.params {
                self.other.insert(p.name.clone());
            }
            self.block(&def.body);
        }
        fn stmt(&mut self, s: &ast::Stmt) {
            match &s.kind {
                ast::StmtKind::Expr(e) => self.expr(e),
                ast::StmtKind::Assign {
                    root, path, value, ..
                } => {
                    self.other.insert(root.name.clone());
                    for step in path {
                        if let PathStep::Index(e) = step {
                            self.expr(e);
                        }
                    }
                    self.expr(value);
                }
                ast::StmtKind::FuncDecl(def) => {
                    if let Some(n) = &def.name {
                        *self.decls.entry(n.name.clone()).or_default() += 1;
                    }
                    self.func(def);
                }
                ast::StmtKind::ForIn {
                    index,
                    item,
                    list,
                    body,
                } => {
                    if let Some(i) = index {
                        self.other.insert(i.name.clone());
                    }
                    self.other.insert(item.name.clone());
                    self.expr(list);
                    self.block(body);
                }
                ast::StmtKind::ForC {
                    init,
                    cond,
                    update,
                    body,
                } => {
                    for s in init.iter().chain(update) {
                        self.stmt(s);
                    }
                    self.expr(cond);
                    self.block(body);
                }
                ast::StmtKind::While(cond, body) => {
                    self.expr(cond);
                    self.block(body);
                }
                ast::StmtKind::Break | ast::StmtKind::Continue | ast::StmtKind::Error => {}
            }
        }
        fn expr(&mut self, e: &ast::Expr) {
            match &e.kind {
                ExprKind::Number(_)
                | ExprKind::Text(_)
                | ExprKind::Bool(_)
                | ExprKind::Name(_)
                | ExprKind::Error => {}
                ExprKind::List(items) => items.iter().for_each(|e| self.expr(e)),
                ExprKind::Object(fields) => fields.iter().for_each(|(_, e)| self.expr(e)),
                ExprKind::Unary(_, e) | ExprKind::Member(e, _) => self.expr(e),
                ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                    self.expr(a);
                    self.expr(b);
                }
                ExprKind::If(cond, then, els) => {
                    self.expr(cond);
                    self.block(then);
                    if let Some(e) = els {
                        self.expr(e);
                    }
                }
                ExprKind::Block(b) => self.block(b),
                ExprKind::Func(def) => {
                    if let Some(n) = &def.name {
                        self.other.insert(n.name.clone());
                    }
                    self.func(def);
                }
                ExprKind::Method(recv, _, args) => {
                    self.expr(recv);
                    args.iter().for_each(|e| self.expr(e));
                }
                ExprKind::Call(callee, args) => {
                    self.expr(callee);
                    args.iter().for_each(|e| self.expr(e));
                }
            }
        }
    }
    let mut count = Count::default();
    count.block(block);
    count
        .decls
        .into_iter()
        .filter(|(name, n)| *n == 1 && !count.other.contains(name))
        .map(|(name, _)| name)
        .collect()
}

fn fuse_update(kind: StmtKind, span: Span) -> StmtKind {
    let StmtKind::Assign {
        var: Var::Local(slot),
        path,
        op: Some(op),
        value,
        ..
    } = &kind
    else {
        return kind;
    };
    if !path.is_empty() {
        return kind;
    }
    let rhs = match &value.kind {
        NodeKind::Const(Const::Number(b)) => Operand::Num(*b),
        NodeKind::Local(y) => Operand::Local(*y),
        _ => return kind,
    };
    let (slot, op, rhs_span) = (*slot, *op, value.span);
    StmtKind::NumUpdate {
        slot,
        op,
        rhs,
        rhs_span,
        full: Box::new(Stmt { kind, span }),
    }
}

/// The last statement of a block as its value, when it is an expression.
fn split_tail(mut stmts: Vec<Stmt>) -> (Vec<Stmt>, Option<Box<Node>>) {
    let tail = match stmts.pop() {
        Some(Stmt {
            kind: StmtKind::Expr(e),
            ..
        }) => Some(Box::new(e)),
        Some(other) => {
            stmts.push(other);
            None
        }
        None => None,
    };
    (stmts, tail)
}

/// A condition: `local < number` & co. fused, anything else as a value; and the steps the
/// `if` or loop pass takes over from it.
fn condition(node: Node) -> (Cond, u32) {
    match node.kind {
        NodeKind::LocalNum(
            op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne),
            slot,
            y,
            local_span,
        ) => (
            Cond::LocalCmp {
                op,
                slot,
                y,
                local_span,
                span: node.span,
            },
            node.cost,
        ),
        kind => {
            let mut n = Node {
                kind,
                span: node.span,
                cost: node.cost,
            };
            let hoisted = hoist(&mut n);
            (Cond::Value(n), hoisted)
        }
    }
}

/// A node standing for a syntax error; never run (programs with errors do not run) except in
/// template insertions, which fail on their own.
fn error_node(span: Span) -> Node {
    Node::new(NodeKind::Global(Arc::from("")), span)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The superinstructions are chosen here, with their steps from `cost`.
    #[test]
    fn fib_compiles_to_superinstructions() {
        let (ast, diags) =
            crate::parse_script("func fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }");
        assert!(diags.is_empty());
        let mut r = Resolver::new();
        r.chunk(&ast);
        let proto = r.protos[0].clone().expect("resolved");
        let body = proto.body.tail.as_deref().expect("a tail");
        let NodeKind::If(cond, _, Some(els)) = &body.kind else {
            panic!("an if: {body:?}");
        };
        assert!(matches!(**cond, Cond::LocalCmp { op: BinOp::Lt, .. }));
        // The `if` and its fused condition's three nodes.
        assert_eq!(body.cost, cost::NODE + cost::LOCAL_NUM);
        // `else { a + b }` folded into the operator, paying the block's step too.
        let NodeKind::Binary(BinOp::Add, a, _) = &els.kind else {
            panic!("a binary: {els:?}");
        };
        assert_eq!(els.cost, 2 * cost::NODE);
        // `fib(n - 1)`: the call, its captured callee and its argument `local op number` in
        // one node and one charge.
        assert!(
            matches!(
                a.kind,
                NodeKind::CallUpvalLocalNum {
                    op: BinOp::Sub,
                    y: 1.0,
                    ..
                }
            ),
            "{a:?}"
        );
        assert_eq!(a.cost, 2 * cost::NODE + cost::LOCAL_NUM);
    }

    /// Whether each call of `f` in `f`'s own body (its argument `n - 1`) is marked `own`.
    fn own_calls(src: &str) -> Vec<bool> {
        let (ast, diags) = crate::parse_script(src);
        assert!(diags.is_empty(), "{src}");
        let mut r = Resolver::new();
        r.fixed = fixed_functions(&ast);
        r.chunk(&ast);
        assert!(r.diags.is_empty(), "{src}");
        let mut found = Vec::new();
        for proto in r.protos.iter().flatten() {
            for op in &proto.code.ops {
                match op {
                    crate::code::Op::CallUpvalLocalNum { own, .. }
                    | crate::code::Op::UpvalCallee { own, .. } => found.push(*own),
                    _ => {}
                }
            }
        }
        found
    }

    /// A call is the running closure only when nothing else can bind the name.
    #[test]
    fn own_calls_only_for_names_bound_once() {
        let f = "func f(n) { if n < 1 { 0 } else { f(n - 1) + f(n - 1, 2) } }";
        assert_eq!(own_calls(f), [true, true]);
        for other in [
            "f = 1",
            "f += 1",
            "o = {}; f.x = 1",
            "func f(x) { x }",
            "func g(f) { f }",
            "for f in [1] { }",
            "for f, i in [1] { }",
            "for i, f in [1] { }",
        ] {
            let src = format!("{f}; {other}");
            assert!(own_calls(&src).iter().all(|own| !own), "{src}");
        }
        // A function inside `f` calling `f` runs another closure: not marked.
        let nested = "func f(n) { g = func(m) { f(m - 1) }; if n < 1 { 0 } else { g(n) } }";
        assert_eq!(own_calls(nested), [false]);
        // Another function's name, and a resolver that was not given the program (templates).
        assert_eq!(
            own_calls("func f(n) { g(n - 1) }; func g(n) { if n < 1 { 0 } else { f(n - 1) } }"),
            [false, false]
        );
        let (ast, _) = crate::parse_script(f);
        let mut r = Resolver::new();
        r.chunk(&ast);
        let proto = r.protos[0].clone().expect("resolved");
        assert!(
            !proto
                .code
                .ops
                .iter()
                .any(|op| matches!(op, crate::code::Op::CallUpvalLocalNum { own: true, .. }))
        );
    }
}
