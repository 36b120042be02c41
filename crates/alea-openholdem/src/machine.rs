//! The evaluator: a stack machine over a compiled [`Program`], with the caches of spec §4.2/§9.
//!
//! Three caches, each invalidated by a counter rather than cleared:
//! * state symbols (and list membership, PV facts): valid until [`Machine::set_state`];
//! * run symbols (`prwin`, `handrank…`, `randomhand`…) and function values: valid for one run
//!   ([`Machine::begin_run`] bumps the epoch), so a function's memory side effects happen at
//!   most once per run;
//! * `random`: new per reference.

use crate::cards::{self, AleaCards, HandEvaluator, PvFacts};
use crate::catalog::Prefix;
use crate::compile::{Instr, Located, NO_NODE, Program};
use crate::ops;
use crate::state::{SymbolProvider, is_table_symbol};
use crate::symbols::{Lifetime, Symbol};
use crate::trace::{self, RawEvent, TraceLine};
use alea_core::{Diagnostic, Rng, Span};
use std::sync::Arc;

// The full catalogue's and ICM's values (the machine's side of crate::catalog_eval, crate::icm).
mod catalog;

/// Options of a run that do not come from the formula file.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunOptions {
    /// Warnings are errors.
    pub strict: bool,
    /// `--opponents`: overrides `f$prwin_number_of_opponents`.
    pub opponents: Option<u32>,
    /// `--iterations`: overrides `f$prwin_number_of_iterations`.
    pub iterations: Option<u64>,
    /// Most prwin iterations of a run (a server's time limit); more are capped with a warning.
    /// Always at most [`alea_cards::MAX_ITERATIONS`].
    pub max_iterations: Option<u64>,
}

/// The prwin simulation of a run (for `--json`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrwinReport {
    /// Opponents simulated.
    pub opponents: u32,
    /// Iterations.
    pub iterations: u64,
    /// The result.
    pub equity: cards::Equity,
}

#[derive(Clone, Copy)]
struct Frame {
    function: u32,
    return_pc: u32,
    base_depth: u32,
    call_pc: u32,
    hidden: bool,
}

/// Evaluates a [`Program`] against a table state. Compile once, then call [`Machine::run`] (or
/// [`Machine::begin_run`] and [`Machine::eval`]) as often as needed.
pub struct Machine<'p> {
    program: &'p Program,
    provider: Option<Box<dyn SymbolProvider + 'p>>,
    evaluator: Arc<dyn HandEvaluator>,
    options: RunOptions,
    epoch: u32,
    state_vals: Vec<f64>,
    state_valid: Vec<bool>,
    run_vals: Vec<f64>,
    run_epoch: Vec<u32>,
    fn_vals: Vec<f64>,
    fn_epoch: Vec<u32>,
    list_vals: Vec<f64>,
    memory: Vec<f64>,
    /// True when `memory` may differ from `memory_init` (a store ran since the last reset).
    memory_dirty: bool,
    memory_init: Vec<f64>,
    memory_names: Vec<String>,
    stack: Vec<f64>,
    frames: Vec<Frame>,
    rng_random: Rng,
    rng_prwin: Rng,
    seed: u64,
    pv: Option<PvFacts>,
    prwin: Option<(u32, PrwinReport)>,
    warnings: Vec<Located>,
    trace: Option<Vec<RawEvent>>,
    hidden: u32,
}

type Fail = Box<Located>;

impl<'p> Machine<'p> {
    /// A machine without a table state: table and card symbols are run-time errors.
    pub fn new(program: &'p Program) -> Machine<'p> {
        let nslots = program.slots.len();
        let nfun = program.functions.len();
        let nmem = program.memory_names.len();
        let mut m = Machine {
            program,
            provider: None,
            evaluator: default_evaluator(),
            options: RunOptions::default(),
            epoch: 1,
            state_vals: vec![0.0; nslots],
            state_valid: vec![false; nslots],
            run_vals: vec![0.0; nslots],
            run_epoch: vec![0; nslots],
            fn_vals: vec![0.0; nfun],
            fn_epoch: vec![0; nfun],
            list_vals: vec![0.0; program.lists.len()],
            memory: vec![0.0; nmem],
            memory_dirty: false,
            memory_init: vec![0.0; nmem],
            memory_names: program.memory_names.clone(),
            stack: Vec::with_capacity(program.max_stack.max(16)),
            frames: Vec::with_capacity(16),
            rng_random: Rng::stream(0, 0),
            rng_prwin: Rng::stream(0, 1),
            seed: 0,
            pv: None,
            prwin: None,
            warnings: Vec::new(),
            trace: None,
            hidden: 0,
        };
        m.set_seed(0);
        m
    }

    /// Sets the table state; invalidates every state-level cache and resets memory's initial
    /// cells from the state. The state's seed is used unless [`Machine::set_seed`] follows.
    pub fn set_state(&mut self, provider: Box<dyn SymbolProvider + 'p>) {
        self.state_valid.iter_mut().for_each(|v| *v = false);
        self.pv = None;
        self.memory_names.truncate(self.program.memory_names.len());
        self.memory_init = vec![0.0; self.memory_names.len()];
        for (name, v) in provider.derived_memory() {
            if let Some(i) = self.memory_names.iter().position(|n| n == name) {
                self.memory_init[i] = *v;
            }
        }
        for (name, v) in provider.memory() {
            match self.memory_names.iter().position(|n| n == name) {
                Some(i) => self.memory_init[i] = *v,
                None => {
                    self.memory_names.push(name.clone());
                    self.memory_init.push(*v);
                }
            }
        }
        self.memory = self.memory_init.clone();
        self.memory_dirty = false;
        let hero = provider.hero();
        for (i, (_, list)) in self.program.lists.iter().enumerate() {
            self.list_vals[i] = match hero {
                [a, b] => f64::from(u8::from(list.contains(a.rank, b.rank, a.suit == b.suit))),
                _ => 0.0,
            };
        }
        if let Some(seed) = provider.seed() {
            self.set_seed(seed);
        }
        self.provider = Some(provider);
        self.begin_run();
    }

    /// Replaces the hand evaluator (see [`HandEvaluator`]; the default is [`AleaCards`]).
    pub fn set_evaluator(&mut self, evaluator: Arc<dyn HandEvaluator>) {
        self.evaluator = evaluator;
        self.state_valid.iter_mut().for_each(|v| *v = false);
        self.pv = None;
    }

    /// Sets the options.
    pub fn set_options(&mut self, options: RunOptions) {
        self.options = options;
    }

    /// Seeds `random*` (stream 0) and prwin (stream 1).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng_random = Rng::stream(seed, 0);
        self.rng_prwin = Rng::stream(seed, 1);
    }

    /// The seed in use.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Starts a new run (OpenHoldem's heartbeat): function values and run symbols are
    /// forgotten, memory restarts from the state's cells, warnings are cleared.
    pub fn begin_run(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.epoch = 1;
            self.run_epoch.iter_mut().for_each(|e| *e = 0);
            self.fn_epoch.iter_mut().for_each(|e| *e = 0);
        }
        if self.memory_dirty {
            self.memory.copy_from_slice(&self.memory_init);
            self.memory_dirty = false;
        }
        self.warnings.clear();
        self.prwin = None;
    }

    /// Records a trace of the following evaluations (until [`Machine::take_trace`]).
    pub fn enable_trace(&mut self) {
        self.trace = Some(Vec::new());
    }

    /// The trace lines recorded so far, in print order, and stops tracing.
    pub fn take_trace(&mut self) -> Vec<TraceLine> {
        let raw = self.trace.take().unwrap_or_default();
        trace::build(self.program, &raw)
    }

    /// Warnings of the current run.
    pub fn warnings(&self) -> &[Located] {
        &self.warnings
    }

    /// Memory cells (name, value) in first-use order.
    pub fn memory(&self) -> Vec<(String, f64)> {
        self.memory_names
            .iter()
            .cloned()
            .zip(self.memory.iter().copied())
            .collect()
    }

    /// The prwin simulation of this run, if one ran.
    pub fn prwin_report(&self) -> Option<PrwinReport> {
        self.prwin.filter(|(e, _)| *e == self.epoch).map(|(_, r)| r)
    }

    /// Index of a function by name (defined ones only).
    pub fn function_index(&self, name: &str) -> Option<u32> {
        self.program
            .functions
            .iter()
            .position(|f| {
                f.name == name && f.file < self.program.formula_files && name != "f$debug"
            })
            .map(|i| i as u32)
    }

    /// A new run, then the function `name` (0 for standard functions that are not defined).
    pub fn run(&mut self, name: &str) -> Result<f64, Box<Located>> {
        self.begin_run();
        self.eval(name)
    }

    /// Evaluates `name` in the current run.
    pub fn eval(&mut self, name: &str) -> Result<f64, Box<Located>> {
        match self.function_index(name) {
            Some(f) => self.call_top(f, 1),
            None => {
                if self.trace.is_some() && !self.program.functions.is_empty() {
                    self.push_event(RawEvent::function_const(name, 0));
                }
                Ok(0.0)
            }
        }
    }

    /// Evaluates function `f` (from [`Machine::function_index`]) in the current run: the
    /// allocation-free path of a bot loop.
    pub fn eval_index(&mut self, f: u32) -> Result<f64, Box<Located>> {
        self.call_top(f, 1)
    }

    /// Evaluates the functions `ids` (from [`Machine::function_index`]) in order in the current
    /// run, one value each into `out` (resized to match): a bot loop's heartbeat in one pass of
    /// the machine. With the trace on, this is [`Machine::eval_index`] for each.
    pub fn eval_many(&mut self, ids: &[u32], out: &mut Vec<f64>) -> Result<(), Box<Located>> {
        if self.trace.is_some() {
            out.clear();
            out.resize(ids.len(), 0.0);
            for (f, o) in ids.iter().zip(out.iter_mut()) {
                *o = self.call_top(*f, 1)?;
            }
            return Ok(());
        }
        // Every entry is written on success; on an error the entries from the failing
        // function on are 0 (as if `out` had been zeroed first, without a memset per run).
        out.resize(ids.len(), 0.0);
        self.frames.clear();
        let mut written = 0;
        let r = self.exec_many::<false>(ids, out, 1, &mut written);
        if r.is_err() {
            out[written..].fill(0.0);
        }
        r
    }

    /// Evaluates the `-e` expression in the current run.
    pub fn eval_expr(&mut self) -> Result<f64, Box<Located>> {
        match self.program.expr {
            Some(f) => self.call_top(f, 0),
            None => Ok(0.0),
        }
    }

    /// Evaluates the `##f$debug##` lines: (label, value, bitwise) each.
    pub fn eval_debug(&mut self) -> Result<Vec<(String, f64, bool)>, Box<Located>> {
        let mut out = Vec::new();
        for d in &self.program.debug {
            let v = self.call_top(d.function, 0)?;
            out.push((d.label.clone(), v, d.bitwise));
        }
        Ok(out)
    }

    fn push_event(&mut self, e: RawEvent) {
        if self.hidden == 0
            && let Some(t) = &mut self.trace
        {
            t.push(e);
        }
    }

    fn call_top(&mut self, f: u32, base: u32) -> Result<f64, Fail> {
        self.frames.clear();
        self.hidden = 0;
        let cached = self.fn_epoch[f as usize] == self.epoch;
        let r = if self.trace.is_some() {
            self.exec::<true>(f, base)
        } else {
            self.exec::<false>(f, base)
        };
        if r.is_ok() && self.trace.is_some() && base == 1 {
            let v = *r.as_ref().unwrap_or(&0.0);
            self.push_event(RawEvent::function(f, 0, v, cached));
        }
        r
    }

    /// The node table of the code being run (trace code while tracing).
    fn node_table(&self) -> &'p [u32] {
        if self.trace.is_some() {
            &self.program.trace_node_of
        } else {
            &self.program.node_of
        }
    }

    /// The error of a symbol read without a table state (run with only formulas).
    fn needs_state(&self, name: &str, pc: u32) -> Fail {
        let d = Diagnostic::error(format!(
            "symbol '{name}' needs a table state (--state FILE.json)"
        ));
        self.located(pc, d)
    }

    fn located(&self, pc: u32, diagnostic: Diagnostic) -> Fail {
        let mut node = self
            .node_table()
            .get(pc as usize)
            .copied()
            .unwrap_or(NO_NODE);
        // A merged symbol-and-literal instruction fails at its symbol.
        if self.trace.is_none()
            && matches!(
                self.program.code.get(pc as usize),
                Some(
                    Instr::SymK(..)
                        | Instr::SymKJumpIfFalseKeep(..)
                        | Instr::SymKJumpIfTrueKeep(..)
                        | Instr::SymKJumpIfFalsePop(..)
                )
            )
            && let crate::ast::Expr::Binary(_, l, _) = self.program.ast.node(node).expr
        {
            node = l;
        }
        let (file, span) = if node == NO_NODE {
            (0, None)
        } else {
            (
                self.program.node_file[node as usize] as usize,
                Some(self.program.ast.node(node).op_span),
            )
        };
        let diagnostic = match span {
            Some(s) => diagnostic.with_span(s),
            None => diagnostic,
        };
        Box::new(Located { file, diagnostic })
    }

    fn division_by_zero(&mut self, pc: u32, function: u32) -> Result<(), Fail> {
        let node = self.node_table()[pc as usize];
        let n = self.program.ast.node(node);
        let divisor = match n.expr {
            crate::ast::Expr::Binary(_, _, r) => trace::label(self.program, r),
            _ => String::new(),
        };
        let fname = &self.program.functions[function as usize].name;
        let place = if fname == "<expr>" {
            String::new()
        } else {
            format!(" in {fname}")
        };
        let msg = format!("division by zero{place} (divisor '{divisor}' is 0); result -1");
        self.warn_or_fail(pc, msg)
    }

    fn exec<const TRACE: bool>(&mut self, f: u32, base: u32) -> Result<f64, Fail> {
        let mut out = [0.0];
        self.exec_many::<TRACE>(&[f], &mut out, base, &mut 0)?;
        Ok(out[0])
    }

    /// Evaluates `queue` in order into `out`, in one pass of the machine; `written` counts the
    /// entries of `out` written.
    fn exec_many<const TRACE: bool>(
        &mut self,
        queue: &[u32],
        out: &mut [f64],
        base: u32,
        written: &mut usize,
    ) -> Result<(), Fail> {
        // A local stack the compiler knows is not aliased by `self`.
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        let r = self.exec_on::<TRACE>(&mut stack, queue, out, base, written);
        self.stack = stack;
        r
    }

    #[inline(always)]
    fn exec_on<const TRACE: bool>(
        &mut self,
        stack: &mut Vec<f64>,
        queue: &[u32],
        out: &mut [f64],
        base: u32,
        written: &mut usize,
    ) -> Result<(), Fail> {
        let prog = self.program;
        let (code, node_of) = if TRACE {
            (&prog.trace_code[..], &prog.trace_node_of[..])
        } else {
            (&prog.code[..], &prog.node_of[..])
        };
        let entry = |g: u32| {
            let fun = &prog.functions[g as usize];
            if TRACE { fun.trace_entry } else { fun.entry }
        };
        // The next function of the queue that is not cached yet; cached ones are copied out.
        let mut qi = 0;
        macro_rules! next_in_queue {
            () => {{
                loop {
                    match queue.get(qi) {
                        None => return Ok(()),
                        Some(&g) if self.fn_epoch[g as usize] == self.epoch => {
                            out[qi] = self.fn_vals[g as usize];
                            qi += 1;
                            *written = qi;
                        }
                        Some(&g) => break g,
                    }
                }
            }};
        }
        let f = next_in_queue!();
        let top = |g: u32| Frame {
            function: g,
            return_pc: u32::MAX,
            base_depth: base,
            call_pc: u32::MAX,
            hidden: false,
        };
        // The running function's frame lives here; `self.frames` holds its callers only, so a
        // top-level function costs no push or pop.
        let mut frame = top(f);
        let mut pc = entry(f);
        // The top of the value stack lives in `tos_bits` (a register); `stack` holds the rest.
        // The bottom entry is a dummy, never read. It is kept as the f64's bits: a general
        // register can be callee-saved, so the cold calls of the loop (symbol_slow, Vec growth)
        // do not force it to memory around every instruction (measured: ≈ 4 % per heartbeat).
        let mut tos_bits: u64 = 0;
        macro_rules! tos {
            () => {
                f64::from_bits(tos_bits)
            };
        }
        macro_rules! set_tos {
            ($v:expr) => {
                tos_bits = f64::to_bits($v)
            };
        }
        macro_rules! push {
            ($v:expr) => {{
                let v = $v;
                stack.push(tos!());
                set_tos!(v);
            }};
        }
        macro_rules! pop {
            () => {{
                let v = tos!();
                set_tos!(stack.pop().unwrap_or(0.0));
                v
            }};
        }
        macro_rules! bin {
            ($e:expr) => {{
                let a = stack.pop().unwrap_or(0.0);
                #[allow(clippy::redundant_closure_call)]
                {
                    set_tos!(($e)(a, tos!()));
                }
            }};
        }
        macro_rules! un {
            ($e:expr) => {{
                #[allow(clippy::redundant_closure_call)]
                {
                    set_tos!(($e)(tos!()));
                }
            }};
        }
        // The jumps of fused pairs, given the value `$v` the first instruction would push.
        macro_rules! if_false_keep {
            ($v:expr, $t:expr) => {{
                let v = $v;
                if ops::truth(v) {
                    pc += 2;
                } else {
                    push!(v);
                    pc = $t;
                }
                continue;
            }};
        }
        macro_rules! if_true_keep {
            ($v:expr, $t:expr) => {{
                let v = $v;
                if ops::truth(v) {
                    push!(v);
                    pc = $t;
                } else {
                    pc += 2;
                }
                continue;
            }};
        }
        macro_rules! if_false_pop {
            ($v:expr, $t:expr) => {{
                pc = if ops::truth($v) { pc + 2 } else { $t };
                continue;
            }};
        }
        // The value of a state-lifetime slot (the slow path never touches the stack for them).
        macro_rules! state_symbol {
            ($s:expr) => {{
                let s = $s as usize;
                if self.state_valid[s] {
                    self.state_vals[s]
                } else {
                    self.symbol_slow(stack, s, pc)?
                }
            }};
        }
        // Returns from the current function with `tos` as its value.
        macro_rules! ret {
            () => {{
                // The callee pushed exactly one value over the caller's stack: it stays
                // in `tos` as the call's result.
                let v = tos!();
                let done = frame;
                self.fn_vals[done.function as usize] = v;
                self.fn_epoch[done.function as usize] = self.epoch;
                let Some(caller) = self.frames.pop() else {
                    out[qi] = v;
                    qi += 1;
                    *written = qi;
                    let g = next_in_queue!();
                    frame = top(g);
                    stack.clear();
                    set_tos!(0.0);
                    pc = entry(g);
                    continue;
                };
                if TRACE {
                    if done.hidden {
                        self.hidden = self.hidden.saturating_sub(1);
                    } else {
                        let node = node_of[done.call_pc as usize];
                        let d = caller.base_depth + prog.node_depth[node as usize];
                        self.push_event(RawEvent::function(done.function, d, v, false));
                    }
                }
                frame = caller;
                pc = done.return_pc;
                continue;
            }};
        }
        // Calls function `g` (not cached in this run): the caller's frame is saved.
        macro_rules! enter {
            ($g:expr, $hidden:expr) => {{
                let g: u32 = $g;
                let node = node_of[pc as usize];
                let hidden = $hidden || node == NO_NODE;
                let depth = if node == NO_NODE {
                    frame.base_depth
                } else {
                    frame.base_depth + prog.node_depth[node as usize]
                };
                if self.frames.len() >= 1_000_000 {
                    return Err(
                        self.located(pc, Diagnostic::error("function calls nested too deeply"))
                    );
                }
                if TRACE && hidden {
                    self.hidden += 1;
                }
                self.frames.push(frame);
                frame = Frame {
                    function: g,
                    return_pc: pc + 1,
                    base_depth: depth + 1,
                    call_pc: pc,
                    hidden,
                };
                pc = entry(g);
                continue;
            }};
        }
        loop {
            let instr = code[pc as usize];
            match instr {
                Instr::Const(v) => push!(v),
                Instr::Sym(slot) => {
                    let s = slot as usize;
                    if self.state_valid[s] {
                        push!(self.state_vals[s]);
                    } else {
                        // Spill, let the slow path pop its dependency values, push the result.
                        stack.push(tos!());
                        set_tos!(self.symbol_slow(stack, s, pc)?);
                    }
                }
                Instr::List(i) => push!(self.list_vals[i as usize]),
                Instr::MemRead(c) => push!(self.memory[c as usize]),
                Instr::MemInc(c) => {
                    self.memory[c as usize] += 1.0;
                    self.memory_dirty = true;
                    push!(0.0);
                }
                Instr::MemSet(c) | Instr::MemAdd(c) | Instr::MemSub(c) => {
                    self.memory_dirty = true;
                    let cell = &mut self.memory[c as usize];
                    match instr {
                        Instr::MemSet(_) => *cell = tos!(),
                        Instr::MemAdd(_) => *cell += tos!(),
                        _ => *cell -= tos!(),
                    }
                    set_tos!(0.0);
                }
                Instr::Call(g) | Instr::HiddenCall(g) => {
                    if self.fn_epoch[g as usize] == self.epoch {
                        let v = self.fn_vals[g as usize];
                        push!(v);
                        if TRACE && matches!(instr, Instr::Call(_)) {
                            let node = node_of[pc as usize];
                            if node != NO_NODE {
                                let d = frame.base_depth + prog.node_depth[node as usize];
                                self.push_event(RawEvent::function(g, d, v, true));
                            }
                        }
                    } else {
                        enter!(g, matches!(instr, Instr::HiddenCall(_)))
                    }
                }
                Instr::CallJumpIfFalsePop(g, t) => {
                    if self.fn_epoch[g as usize] == self.epoch {
                        if_false_pop!(self.fn_vals[g as usize], t)
                    }
                    // Not cached: an ordinary call, which returns to the jump after it.
                    enter!(g, false)
                }
                Instr::Ret => ret!(),
                Instr::ConstRet(v) => {
                    push!(v);
                    ret!()
                }
                Instr::ConstJump(t, v) => {
                    push!(v);
                    pc = t;
                    continue;
                }
                Instr::Not => un!(ops::not),
                Instr::BitNot => un!(ops::bit_not),
                Instr::Neg => un!(ops::neg),
                Instr::BitCount => un!(ops::bit_count),
                Instr::Ln => un!(ops::ln),
                Instr::Add => bin!(|a: f64, b: f64| a + b),
                Instr::Sub => bin!(|a: f64, b: f64| a - b),
                Instr::Mul => bin!(|a: f64, b: f64| a * b),
                Instr::Div | Instr::Mod => {
                    let b = pop!();
                    let v = if b == 0.0 {
                        self.division_by_zero(pc, frame.function)?;
                        -1.0
                    } else if matches!(instr, Instr::Div) {
                        tos!() / b
                    } else {
                        ops::fmod(tos!(), b)
                    };
                    set_tos!(v);
                }
                Instr::Pow => bin!(ops::pow),
                Instr::Shl => bin!(ops::shl),
                Instr::Shr => bin!(ops::shr),
                Instr::Lt => bin!(ops::lt),
                Instr::Le => bin!(ops::le),
                Instr::Gt => bin!(ops::gt),
                Instr::Ge => bin!(ops::ge),
                Instr::Eq => bin!(ops::equal),
                Instr::Ne => bin!(ops::not_equal),
                Instr::ApproxEq => bin!(ops::approx_eq),
                Instr::BitAnd => bin!(ops::bit_and),
                Instr::BitOr => bin!(ops::bit_or),
                Instr::BitXor => bin!(ops::bit_xor),
                Instr::Xor => bin!(ops::xor),
                Instr::JumpIfFalseKeep(t) => {
                    if ops::truth(tos!()) {
                        pop!();
                    } else {
                        pc = t;
                        continue;
                    }
                }
                Instr::JumpIfTrueKeep(t) => {
                    if ops::truth(tos!()) {
                        pc = t;
                        continue;
                    } else {
                        pop!();
                    }
                }
                Instr::JumpIfFalsePop(t) => {
                    if !ops::truth(pop!()) {
                        pc = t;
                        continue;
                    }
                }
                Instr::Jump(t) => {
                    pc = t;
                    continue;
                }
                Instr::ToBool => un!(ops::to_bool),
                Instr::Mark => {}
                Instr::AddK(k) => un!(|a: f64| a + k),
                Instr::SubK(k) => un!(|a: f64| a - k),
                Instr::MulK(k) => un!(|a: f64| a * k),
                Instr::DivK(k) => un!(|a: f64| a / k),
                Instr::LtK(k) => un!(|a: f64| ops::lt(a, k)),
                Instr::LeK(k) => un!(|a: f64| ops::le(a, k)),
                Instr::GtK(k) => un!(|a: f64| ops::gt(a, k)),
                Instr::GeK(k) => un!(|a: f64| ops::ge(a, k)),
                Instr::EqK(k) => un!(|a: f64| ops::equal(a, k)),
                Instr::NeK(k) => un!(|a: f64| ops::not_equal(a, k)),
                Instr::BitAndK(k) => un!(|a: f64| ops::bit_and(a, k)),
                Instr::SymK(slot, op, k) => push!(op.apply(state_symbol!(slot), k)),
                Instr::SymKJumpIfFalseKeep(s, op, t, k) => {
                    if_false_keep!(op.apply(state_symbol!(s), k), t)
                }
                Instr::SymKJumpIfTrueKeep(s, op, t, k) => {
                    if_true_keep!(op.apply(state_symbol!(s), k), t)
                }
                Instr::SymKJumpIfFalsePop(s, op, t, k) => {
                    if_false_pop!(op.apply(state_symbol!(s), k), t)
                }
                // An operator with a literal on `tos`, then the jump (the operand is replaced).
                Instr::KJumpIfFalseKeep(op, t, k) => {
                    let v = op.apply(tos!(), k);
                    if ops::truth(v) {
                        pop!();
                        pc += 2;
                    } else {
                        set_tos!(v);
                        pc = t;
                    }
                    continue;
                }
                Instr::KJumpIfTrueKeep(op, t, k) => {
                    let v = op.apply(tos!(), k);
                    if ops::truth(v) {
                        set_tos!(v);
                        pc = t;
                    } else {
                        pop!();
                        pc += 2;
                    }
                    continue;
                }
                Instr::KJumpIfFalsePop(op, t, k) => {
                    let v = op.apply(pop!(), k);
                    if_false_pop!(v, t)
                }
                // `!x` then the jump: `!x` is false exactly when `x` is true.
                Instr::NotJumpIfFalseKeep(t) => {
                    if ops::truth(tos!()) {
                        set_tos!(0.0);
                        pc = t;
                    } else {
                        pop!();
                        pc += 2;
                    }
                    continue;
                }
                Instr::NotJumpIfFalsePop(t) => {
                    let v = pop!();
                    if_false_pop!(ops::not(v), t)
                }
                Instr::SymJumpIfFalsePop(s, t) => if_false_pop!(state_symbol!(s), t),
                Instr::ListJumpIfFalsePop(i, t) => if_false_pop!(self.list_vals[i as usize], t),
                Instr::OpSym(op, s) => {
                    let b = state_symbol!(s);
                    set_tos!(op.apply(tos!(), b));
                    pc += 2;
                    continue;
                }
            }
            if TRACE {
                let node = node_of[pc as usize];
                if node != NO_NODE && !matches!(instr, Instr::Call(_) | Instr::HiddenCall(_)) {
                    let d = frame.base_depth + prog.node_depth[node as usize];
                    self.push_event(RawEvent::node(node, d, tos!()));
                }
            }
            pc += 1;
        }
    }

    /// The value of symbol slot `s` when it is not a cached state symbol; pops the dependency
    /// values pushed before it.
    #[cold]
    fn symbol_slow(&mut self, stack: &mut Vec<f64>, s: usize, pc: u32) -> Result<f64, Fail> {
        let (ref name, sym) = self.program.slots[s];
        match sym.lifetime() {
            Lifetime::State => {
                if self.state_valid[s] {
                    return Ok(self.state_vals[s]);
                }
                let v = self.compute(sym, name, pc, 0, 0.0)?;
                self.state_vals[s] = v;
                self.state_valid[s] = true;
                Ok(v)
            }
            Lifetime::Run => {
                let deps = sym.function_deps().len();
                let mut dep = [0.0f64; 9];
                for k in (0..deps).rev() {
                    dep[k] = stack.pop().unwrap_or(0.0);
                }
                if self.run_epoch[s] == self.epoch {
                    return Ok(self.run_vals[s]);
                }
                // Only the ICM symbols depend on the nine f$icm_prize functions.
                if deps == crate::icm::PRIZE_FUNCTIONS.len() {
                    let v = self.compute_icm(name, pc, &dep)?;
                    self.run_vals[s] = v;
                    self.run_epoch[s] = self.epoch;
                    return Ok(v);
                }
                let n = match self.options.opponents {
                    Some(n) => n.clamp(1, 22),
                    None => {
                        let t = dep[0].trunc();
                        if t.is_nan() {
                            1
                        } else {
                            t.clamp(1.0, 22.0) as u32
                        }
                    }
                };
                let v = self.compute(sym, name, pc, n, dep[1])?;
                self.run_vals[s] = v;
                self.run_epoch[s] = self.epoch;
                Ok(v)
            }
            Lifetime::Reference => Ok(self.rng_random.unit_f64()),
        }
    }

    fn compute(
        &mut self,
        sym: Symbol,
        name: &str,
        pc: u32,
        n: u32,
        iters: f64,
    ) -> Result<f64, Fail> {
        if matches!(
            sym,
            Symbol::RandomHand | Symbol::RandomRound | Symbol::RandomHeartbeat
        ) {
            return Ok(self.rng_random.unit_f64());
        }
        if let Symbol::Prefix(p @ (Prefix::Log | Prefix::Msgbox)) = sym {
            // CSymbolEngineVariousDataLookup: log$ is 1 (handy in ANDed conditions), msgbox$ 0.
            return Ok(if p == Prefix::Log { 1.0 } else { 0.0 });
        }
        let Some(provider) = &self.provider else {
            return Err(self.needs_state(name, pc));
        };
        if let Some(v) = provider.given(name) {
            return Ok(v);
        }
        if matches!(sym, Symbol::Fixed(_) | Symbol::Prefix(_)) {
            return self.compute_catalog(sym, name, pc);
        }
        if sym == Symbol::HandRankP {
            return Ok(2652.0 / (1.0 + f64::from(n)));
        }
        if is_table_symbol(sym) {
            return Ok(provider.table_symbol(sym));
        }
        let (hero, board) = (provider.hero(), provider.board());
        if let Some(v) = cards::plain_card_value(sym, hero, board) {
            return Ok(v);
        }
        let have_hero = hero.len() == 2;
        let needs_cards = have_hero
            || (sym == Symbol::PokerVal(crate::symbols::CardSet::Common) && !board.is_empty());
        if !needs_cards {
            return Ok(0.0);
        }
        let eval = self.evaluator.clone();
        let hole = [hero.first().copied(), hero.get(1).copied()];
        match sym {
            Symbol::PrWin | Symbol::PrTie | Symbol::PrLos => {
                let board = board.to_vec();
                let report = self.prwin_report_of_run(pc, n, iters, hole, &board)?;
                Ok(match sym {
                    Symbol::PrWin => report.equity.win,
                    Symbol::PrTie => report.equity.tie,
                    _ => report.equity.lose,
                })
            }
            Symbol::HandRank169
            | Symbol::HandRank2652
            | Symbol::HandRank1326
            | Symbol::HandRank1000 => {
                let [Some(a), Some(b)] = hole else {
                    return Ok(0.0);
                };
                let k = n.min(9);
                Ok(match sym {
                    Symbol::HandRank169 => f64::from(eval.handrank169([a, b], k)),
                    Symbol::HandRank2652 => f64::from(eval.handrank2652([a, b], k)),
                    Symbol::HandRank1326 => f64::from(eval.handrank2652([a, b], k)) / 2.0,
                    _ => (1000.0 * f64::from(eval.handrank2652([a, b], k)) / 2652.0).trunc(),
                })
            }
            _ => {
                if self.pv.is_none() {
                    self.pv = Some(cards::pv_facts(eval.as_ref(), hero, board));
                }
                let facts = self
                    .pv
                    .as_ref()
                    .map_or_else(PvFacts::default, |f| f.clone());
                Ok(match sym {
                    Symbol::PrWinNow | Symbol::PrLosNow => cards::now_value(sym, &facts, n),
                    _ => cards::pv_value(sym, &facts, have_hero),
                })
            }
        }
    }
}

/// One shared [`AleaCards`] for every machine (it has no state).
fn default_evaluator() -> Arc<dyn HandEvaluator> {
    static DEFAULT: std::sync::OnceLock<Arc<dyn HandEvaluator>> = std::sync::OnceLock::new();
    DEFAULT.get_or_init(|| Arc::new(AleaCards)).clone()
}

/// Spans are used by the trace to print the position of a node.
pub(crate) fn node_line_col(program: &Program, node: u32) -> (usize, usize, Span) {
    let n = program.ast.node(node);
    let file = &program.files[program.node_file[node as usize] as usize];
    let (l, c) = file.line_col(n.span.start as usize);
    (l, c, n.span)
}
