//! Data-driven cases: every `tests/cases/*.ez` file (format in `spec.ez`'s header). Every
//! parse is also checked for the tree invariants (children inside parents, statements in
//! order).

use alea_ezscript::{
    Block, Env, Expr, ExprKind, MapHost, PathStep, Program, StmtKind, Template, Value, line_col,
    parse_script,
};

fn host() -> MapHost {
    MapHost::new()
        .with("totalBuyIns", 24.0)
        .with("currentPlayerCount", 14.0)
        .with("secondsUntilNextBreak", 1946.0)
        .with("secondsLeftInLevel", 746.0)
        .with("blindLevelNumber", 7.0)
        .with("blindLevelCount", 18.0)
        .with("levelIndex", 8.0)
        .with("anteText", "100")
        .with("emptyText", "")
        .with("nothingValue", Value::Nothing)
        .with(
            "levels",
            Value::list(vec![Value::text("Pregame"), Value::text("Level 1")]),
        )
        .with_now(1753035300000.0)
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('u') => {
                let hex: String = chars.by_ref().skip(1).take_while(|c| *c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
            }
            other => panic!("bad escape {other:?}"),
        }
    }
    out
}

fn check_expr(e: &Expr, parent: alea_core::Span, errors: &mut Vec<String>) {
    if !parent.contains(e.span) {
        errors.push(format!("{:?} outside its parent {:?}", e.span, parent));
    }
    let mut child = |c: &Expr| check_expr(c, e.span, errors);
    match &e.kind {
        ExprKind::List(items) | ExprKind::Call(_, items) => items.iter().for_each(&mut child),
        ExprKind::Object(entries) => entries.iter().for_each(|(_, v)| child(v)),
        ExprKind::Unary(_, a) | ExprKind::Member(a, _) => child(a),
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            child(a);
            child(b);
        }
        ExprKind::Method(a, _, args) => {
            child(a);
            args.iter().for_each(child);
        }
        ExprKind::If(c, then, els) => {
            child(c);
            if let Some(els) = els {
                child(els);
            }
            check_block(then, e.span, errors);
        }
        ExprKind::Block(b) => check_block(b, e.span, errors),
        ExprKind::Func(def) => check_block(&def.body, e.span, errors),
        _ => {}
    }
}

fn check_block(b: &Block, parent: alea_core::Span, errors: &mut Vec<String>) {
    if !parent.contains(b.span) {
        errors.push(format!("block {:?} outside {:?}", b.span, parent));
    }
    let mut prev_end = b.span.start;
    for s in &b.stmts {
        if s.span.start < prev_end || !b.span.contains(s.span) {
            errors.push(format!(
                "statement {:?} out of order in {:?}",
                s.span, b.span
            ));
        }
        prev_end = s.span.end;
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::While(e, _) => check_expr(e, s.span, errors),
            StmtKind::Assign { value, path, .. } => {
                check_expr(value, s.span, errors);
                for p in path {
                    if let PathStep::Index(e) = p {
                        check_expr(e, s.span, errors);
                    }
                }
            }
            _ => {}
        }
        match &s.kind {
            StmtKind::While(_, body)
            | StmtKind::ForIn { body, .. }
            | StmtKind::ForC { body, .. } => check_block(body, s.span, errors),
            StmtKind::FuncDecl(def) => check_block(&def.body, s.span, errors),
            _ => {}
        }
    }
}

/// Parses and checks the tree invariants; returns the violations.
fn invariants(src: &str) -> Vec<String> {
    let (block, _) = parse_script(src);
    let mut errors = Vec::new();
    let whole = alea_core::Span::new(0, src.len());
    check_block(&block, whole, &mut errors);
    errors
}

enum Want {
    Value(String),
    Error(Option<(usize, usize)>, String),
    Template(Option<String>, String),
}

struct Case {
    line: usize,
    source: String,
    want: Want,
}

fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut source: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut template_error: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        if source.is_empty()
            && template_error.is_none()
            && (line.is_empty() || line.starts_with('#'))
        {
            continue;
        }
        if source.is_empty() {
            start = i + 1;
        }
        let src = source.join("\n");
        if let Some(rest) = line.strip_prefix("T!! ") {
            template_error = Some(rest.to_string());
        } else if let Some(rest) = line.strip_prefix("T=>") {
            let rest = rest.strip_prefix(' ').unwrap_or(rest);
            cases.push(Case {
                line: start,
                source: src,
                want: Want::Template(template_error.take(), unescape(rest)),
            });
            source.clear();
        } else if let Some(rest) = line.strip_prefix("=> ") {
            cases.push(Case {
                line: start,
                source: src,
                want: Want::Value(unescape(rest)),
            });
            source.clear();
        } else if let Some(rest) = line.strip_prefix("!! ") {
            let mut pos = None;
            let mut msg = rest.to_string();
            if let Some((first, tail)) = rest.split_once(' ')
                && let Some((l, c)) = first.split_once(':')
                && let (Ok(l), Ok(c)) = (l.parse(), c.parse())
            {
                pos = Some((l, c));
                msg = tail.to_string();
            }
            cases.push(Case {
                line: start,
                source: src,
                want: Want::Error(pos, msg),
            });
            source.clear();
        } else {
            source.push(line);
        }
    }
    assert!(source.is_empty(), "unterminated case at line {start}");
    cases
}

fn run_case(case: &Case) -> Result<(), String> {
    let host = host();
    let env = Env::with_host(&host);
    match &case.want {
        Want::Template(err, text) => {
            let out = Template::compile(&case.source).render(&env);
            if &out.text != text {
                return Err(format!("rendered {:?}, want {:?}", out.text, text));
            }
            let first = out.errors.first().map(|d| d.message.clone());
            if &first != err {
                return Err(format!("errors {first:?}, want {err:?}"));
            }
            Ok(())
        }
        Want::Value(want) => {
            let bad = invariants(&case.source);
            if !bad.is_empty() {
                return Err(format!("tree invariants: {bad:?}"));
            }
            let program = Program::compile(&case.source)
                .map_err(|d| format!("compile error {:?}", d[0].message))?;
            let out = program
                .run_display(&env)
                .map_err(|e| format!("run error {:?}", e.message))?;
            if &out.text != want {
                return Err(format!("got {:?}, want {:?}", out.text, want));
            }
            Ok(())
        }
        Want::Error(pos, want) => {
            let bad = invariants(&case.source);
            if !bad.is_empty() {
                return Err(format!("tree invariants: {bad:?}"));
            }
            let (message, span) = match Program::compile(&case.source) {
                Err(d) => (d[0].message.clone(), d[0].span.unwrap_or_default()),
                Ok(p) => match p.run_display(&env) {
                    Ok(v) => return Err(format!("ran to {:?}, want error {want:?}", v.text)),
                    Err(e) => (e.message, e.span),
                },
            };
            if &message != want {
                return Err(format!("error {message:?}, want {want:?}"));
            }
            if let Some(pos) = pos {
                let got = line_col(&case.source, span.start as usize);
                if got != *pos {
                    return Err(format!("error at {got:?}, want {pos:?}"));
                }
            }
            Ok(())
        }
    }
}

#[test]
fn case_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ez"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    let mut total = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let cases = parse_cases(&text);
        total += cases.len();
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let results: Vec<(usize, Result<(), String>)> = {
            parse_cases(&text)
                .iter()
                .map(|c| (c.line, run_case(c)))
                .collect()
        };
        for (line, r) in results {
            if let Err(e) = r {
                failures.push(format!("{name}:{line}: {e}"));
            }
        }
    }
    assert!(total > 50, "only {total} cases");
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
