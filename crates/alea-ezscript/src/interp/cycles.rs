//! Reference cycles through captured variables, freed when a run ends.
//!
//! Values are reference counted, and the one way a script makes a cycle is a closure that
//! captures a variable holding (directly, or through lists, objects and other closures) that
//! closure: every recursive `func f` does (its body names `f`). Counting never frees such a
//! cycle, so without this every run of a field with a recursive function leaked it, and a
//! clock that evaluates its fields every second grew without bound.
//!
//! The run tracks the variables it boxes ([`Interp::new_cell`]). When it ends, its own slots
//! and operands are dropped first; a tracked variable still alive is then held either from
//! outside the run (the result, a value a host kept) or only by cycles. Trial deletion tells
//! the two apart: over everything reachable from the surviving variables, a node whose count
//! exceeds the references found inside that graph is held from outside, and so is everything
//! it reaches; the variables left are garbage and are emptied, which breaks their cycles, and
//! ordinary (iterative, `drop.rs`) drops free the rest. Nothing still reachable changes.

use super::{Cell, Closure, Interp};
use crate::value::Value;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

/// The variables a run boxed, as weak references (tracking keeps nothing alive).
#[derive(Default)]
pub(super) struct Tracked {
    cells: Vec<Weak<std::cell::RefCell<Option<Value>>>>,
    /// Length after the last pruning of dead entries.
    pruned: usize,
}

impl Interp<'_> {
    /// A new boxed variable, tracked so a cycle through it is freed when the run ends.
    pub(super) fn new_cell(&mut self, v: Option<Value>) -> Cell {
        let cell = Rc::new(std::cell::RefCell::new(v));
        let t = &mut self.cycles;
        if t.cells.len() >= 2 * t.pruned.max(512) {
            // A long run boxes a variable per call: keep the list proportional to the live
            // ones (a dead weak reference still holds its allocation).
            t.cells.retain(|w| w.strong_count() > 0);
            t.pruned = t.cells.len();
        }
        t.cells.push(Rc::downgrade(&cell));
        cell
    }
}

impl Drop for Interp<'_> {
    fn drop(&mut self) {
        if self.cycles.cells.is_empty() {
            return;
        }
        // The run's own references go first: what stays referenced is held from outside or
        // by a cycle.
        self.stack.clear();
        self.operands.clear();
        self.frames.clear();
        self.closure = None;
        self.text_values.clear();
        let roots: Vec<Cell> = self
            .cycles
            .cells
            .drain(..)
            .filter_map(|w| w.upgrade())
            .collect();
        if !roots.is_empty() {
            free_cycles(roots);
        }
    }
}

/// A reference-counted node of the graph: a variable, closure, list or object.
struct Node {
    /// `Rc::strong_count`, less the references this collector holds itself.
    strong: usize,
    /// References found inside the graph.
    internal: usize,
    children: Vec<usize>,
    /// Its index in `roots`, for a variable of this run (the only nodes ever emptied).
    root: Option<usize>,
    /// Held from outside the graph, or reachable from such a node.
    live: bool,
}

/// The graph of everything reachable from the surviving variables, with an explicit
/// worklist (a cycle can be 100,000 closures long).
struct Graph<'g> {
    nodes: Vec<Node>,
    by_address: HashMap<usize, usize>,
    /// Values still to scan, each with the node that holds it.
    work: Vec<(usize, &'g Value)>,
}

impl<'g> Graph<'g> {
    fn node(&mut self, address: usize, strong: usize, root: Option<usize>) -> (usize, bool) {
        if let Some(&n) = self.by_address.get(&address) {
            return (n, false);
        }
        self.nodes.push(Node {
            strong,
            internal: 0,
            children: Vec::new(),
            root,
            live: false,
        });
        let n = self.nodes.len() - 1;
        self.by_address.insert(address, n);
        (n, true)
    }

    fn edge(&mut self, from: usize, to: usize) {
        self.nodes[to].internal += 1;
        self.nodes[from].children.push(to);
    }

    /// Adds the node `v` is (if it is one) as a child of `from`, and queues what it holds.
    fn scan(&mut self, from: usize, v: &'g Value) {
        let (to, new) = match v {
            // A list or object of texts and numbers reaches no variable: no node (a list of
            // 100,000 small lists costs one node, not 100,001).
            Value::List(l) if !l.iter().any(holds_nodes) => return,
            Value::Object(m) if !m.values().any(holds_nodes) => return,
            Value::List(l) => self.node(address(l), Rc::strong_count(l), None),
            Value::Object(m) => self.node(address(m), Rc::strong_count(m), None),
            Value::Function(c) => self.node(address(c), Rc::strong_count(c), None),
            _ => return,
        };
        self.edge(from, to);
        if !new {
            return;
        }
        match v {
            Value::List(l) => {
                let items = l.iter().filter(|v| holds_nodes(v));
                self.work.extend(items.map(|item| (to, item)));
            }
            Value::Object(m) => {
                let items = m.values().filter(|v| holds_nodes(v));
                self.work.extend(items.map(|item| (to, item)));
            }
            Value::Function(c) => {
                if let Closure::User { captures, .. } = &**c {
                    for cell in captures {
                        let (target, new) = self.node(address(cell), Rc::strong_count(cell), None);
                        if new {
                            // Not a variable of this run (it would be a root): treated as held
                            // from outside, and not scanned.
                            self.nodes[target].live = true;
                        }
                        self.edge(to, target);
                    }
                }
            }
            _ => {}
        }
    }
}

fn address<T: ?Sized>(rc: &Rc<T>) -> usize {
    Rc::as_ptr(rc) as *const u8 as usize
}

/// Empties every variable of `roots` that is held only by the graph reachable from them.
fn free_cycles(roots: Vec<Cell>) {
    let mut garbage: Vec<Value> = Vec::new();
    {
        // The borrows last until the graph is done; none is borrowed elsewhere (the run is
        // over), and one that were would count as held from outside.
        let guards: Vec<_> = roots.iter().map(|c| c.try_borrow().ok()).collect();
        let mut g = Graph {
            nodes: Vec::new(),
            by_address: HashMap::new(),
            work: Vec::new(),
        };
        for (i, (cell, guard)) in roots.iter().zip(&guards).enumerate() {
            // Less the reference `roots` holds.
            let (n, _) = g.node(address(cell), Rc::strong_count(cell) - 1, Some(i));
            match guard {
                Some(v) => g.work.extend(v.as_ref().map(|v| (n, v))),
                None => g.nodes[n].live = true,
            }
        }
        while let Some((from, v)) = g.work.pop() {
            g.scan(from, v);
        }
        let mut live: Vec<usize> = Vec::new();
        for (i, n) in g.nodes.iter_mut().enumerate() {
            if n.live || n.strong > n.internal {
                n.live = true;
                live.push(i);
            }
        }
        while let Some(n) = live.pop() {
            for i in 0..g.nodes[n].children.len() {
                let c = g.nodes[n].children[i];
                if !g.nodes[c].live {
                    g.nodes[c].live = true;
                    live.push(c);
                }
            }
        }
        let dead: Vec<usize> = g
            .nodes
            .iter()
            .filter(|n| !n.live)
            .filter_map(|n| n.root)
            .collect();
        drop(g);
        drop(guards);
        for i in dead {
            if let Some(v) = roots[i].borrow_mut().take() {
                garbage.push(v);
            }
        }
    }
    // Dropped after every borrow ended: freeing runs other values' drops.
    drop(garbage);
    drop(roots);
}

/// Whether `v` is a list, object or function (what can reach a variable).
fn holds_nodes(v: &Value) -> bool {
    matches!(v, Value::List(_) | Value::Object(_) | Value::Function(_))
}
