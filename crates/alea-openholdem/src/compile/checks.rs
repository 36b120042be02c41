//! Whole-program checks after code generation: dependency cycles and the lint warnings.

use super::{Builder, Located};
use alea_core::{Diagnostic, Span};

impl Builder<'_> {
    /// Reports each dependency cycle once, from the earliest function in it.
    pub(super) fn check_cycles(&mut self) {
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

    pub(super) fn collect_lint(&mut self) {
        for (i, used) in self.list_used.iter().enumerate() {
            if !used {
                let name = &self.lists[i].0;
                let (file, span) = self.list_places[i];
                self.lint.push(Located {
                    file,
                    diagnostic: Diagnostic::warning(format!("list '{name}' is never used"))
                        .with_span(span),
                });
            }
        }
        for (i, f) in self.functions.iter().enumerate() {
            // OpenPPL functions (upper case) are a library's offer: unused is normal.
            let library = f.name.starts_with(|c: char| c.is_ascii_uppercase());
            if f.file < self.formula_files
                && !f.standard
                && !library
                && !self.fn_used[i]
                && f.name != "f$debug"
            {
                self.lint.push(Located {
                    file: f.file,
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
}
