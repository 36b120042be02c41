//! `alea dice` and the engine of the drop-in `dicelab` binary (dicelab.md §7–§8).
//!
//! Both front ends share [`Session`], which runs one statement at a time in the order of the
//! spec (tree, roll, calc, eval), writes 0.7's formats and remembers the worst failure for the
//! exit status (0 ok, 1 usage/file, 2 syntax, 3 runtime).

use crate::common::{self, Repl, ReplStep};
use alea_core::{Diagnostic, RenderOptions, Rng, SourceFile};
use alea_dicelab::{Histogram, Roller, Statement};
use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;

/// `dicelab -v`.
pub const VERSION: &str = "dicelab v0.7 by Robert Lemmen <robertle@semistable.com>";

/// `dicelab -h` (on stderr, verbatim from 0.7; it ends with an empty line).
pub const USAGE: &str = "Usage: dicelab [options] [-f <file>]
Options:
  --help -h -?     print this text
  --version -v     print the program version
  --print-tree -p  print the parse tree (for debugging)
  --eval -e        evaluate the statistical distribution by
                   re-rolling
  --calc -c        calculate the distribution
  --count -n       specify the number of rolls used with --eval
                   default is 10000
  --roll -r        roll the dice as specified, will also be used
                   if no other action is requested
  --threshold -t   cutoff threshold, results with a probability less
                   than this value will be discarded by some operations
                   when using --calc
File:
  --file -f        read the dice rolling specs from the file
                   specified, use stdin if not supplied

";

/// Exit status after a syntax error.
pub const EXIT_SYNTAX: u8 = 2;
/// Exit status after a runtime error.
pub const EXIT_RUNTIME: u8 = 3;
/// Exit status after a usage or file error.
pub const EXIT_USAGE: u8 = 1;

/// The options of the `dicelab` binary.
#[derive(Clone, Debug)]
pub struct DicelabOptions {
    /// `-p`
    pub tree: bool,
    /// `-r`
    pub roll: bool,
    /// `-c`
    pub calc: bool,
    /// `-e`
    pub eval: bool,
    /// `-n` (default 10000)
    pub count: u64,
    /// `-t` as f32 (default `(f32)1e-6`)
    pub threshold: f32,
    /// `-f`
    pub file: Option<String>,
    /// `--seed`
    pub seed: Option<u64>,
}

impl Default for DicelabOptions {
    fn default() -> Self {
        DicelabOptions {
            tree: false,
            roll: false,
            calc: false,
            eval: false,
            count: 10_000,
            threshold: 1e-6,
            file: None,
            seed: None,
        }
    }
}

/// A seed from the OS when the user gave none.
pub fn os_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    if let Ok(d) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(d.as_nanos());
    }
    h.write_u32(std::process::id());
    h.finish()
}

// ==== CALC HOOK (exact distributions, the next issue) ====================================
// The one place where `-c` is answered. It returns the calc lines of a statement in 0.7's
// format, or the error to report. Until the exact engine in `alea_dicelab::calc` lands it
// reports that calc is not implemented yet.
/// The calc output of `statement` with `while` threshold `threshold`.
pub fn calc_statement(
    statement: &Statement,
    threshold: f32,
) -> Result<Vec<(Option<i32>, f64)>, Box<Diagnostic>> {
    let _ = threshold;
    Err(Box::new(
        Diagnostic::error("--calc is not implemented yet (exact distributions come next)")
            .with_span(alea_core::Span::point(statement.span.start as usize)),
    ))
}
// ==== end of CALC HOOK ======================================================================

/// Runs statements and keeps the exit status.
pub struct Session {
    /// The options.
    pub opts: DicelabOptions,
    rng: Rng,
    roller: Roller,
    /// 0 so far, or the status of the worst failure.
    pub status: u8,
}

fn render(file: &SourceFile, d: &Diagnostic) -> String {
    d.render_with(file, RenderOptions::bare())
}

impl Session {
    /// A session with the RNG seeded from `opts.seed` (or the OS).
    pub fn new(opts: DicelabOptions) -> Session {
        let seed = opts.seed.unwrap_or_else(os_seed);
        Session {
            opts,
            rng: Rng::seed_from_u64(seed),
            roller: Roller::new(),
            status: 0,
        }
    }

    fn fail(&mut self, code: u8) {
        self.status = self.status.max(code);
    }

    /// Prints syntax errors and records the status.
    pub fn syntax_errors(&mut self, file: &SourceFile, diagnostics: &[Diagnostic]) {
        for d in diagnostics {
            eprint!("{}", render(file, d));
        }
        if !diagnostics.is_empty() {
            self.fail(EXIT_SYNTAX);
        }
    }

    /// Runs one statement in every requested mode: tree, roll, calc, eval.
    pub fn run_statement(
        &mut self,
        file: &SourceFile,
        statement: &Statement,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let o = &self.opts;
        let (tree, calc, eval) = (o.tree, o.calc, o.eval);
        let roll = o.roll || !(o.tree || o.calc || o.eval);
        if tree {
            out.write_all(alea_dicelab::print_tree(&statement.expr).as_bytes())?;
        }
        if roll {
            match self.roller.roll(statement, &mut self.rng) {
                Ok(values) => {
                    let mut line = String::with_capacity(values.len() * 4 + 1);
                    for v in values {
                        line.push_str(&v.to_string());
                        line.push(' ');
                    }
                    line.push('\n');
                    out.write_all(line.as_bytes())?;
                }
                Err(d) => return self.runtime_error(file, &d, out),
            }
        }
        if calc {
            match calc_statement(statement, self.opts.threshold) {
                Ok(outcomes) => {
                    for (v, p) in outcomes {
                        match v {
                            None => writeln!(out, " ()\t{p:.6}\t")?,
                            Some(v) => writeln!(out, "{v:>3}\t{p:.6}\t")?,
                        }
                    }
                }
                Err(d) => return self.runtime_error(file, &d, out),
            }
        }
        if eval {
            let seed = self.rng.next_u64();
            match alea_dicelab::eval(statement, self.opts.count, seed) {
                Ok(h) => out.write_all(eval_lines(&h).as_bytes())?,
                Err(d) => return self.runtime_error(file, &d, out),
            }
        }
        Ok(())
    }

    fn runtime_error(
        &mut self,
        file: &SourceFile,
        d: &Diagnostic,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        // Keep stdout and stderr in order for someone watching both.
        out.flush()?;
        eprint!("{}", render(file, d));
        self.fail(EXIT_RUNTIME);
        Ok(())
    }
}

/// 0.7's eval lines: `()` first, then `"%3i\t%0.6f\n"` with p = (float)count/(float)N.
pub fn eval_lines(h: &Histogram) -> String {
    let mut s = String::new();
    if h.empty > 0 {
        s.push_str(&format!(" ()\t{:.6}\n", f64::from(h.frequency(h.empty))));
    }
    for (&v, &c) in &h.counts {
        s.push_str(&format!("{v:>3}\t{:.6}\n", f64::from(h.frequency(c))));
    }
    s
}

/// Reads the whole program: the `-f` file, or stdin. 0.7's message for a missing file.
fn read_input(file: Option<&str>) -> Result<SourceFile, String> {
    match file {
        Some(path) => {
            let mut bytes = Vec::new();
            let opened = std::fs::File::open(path);
            let read = opened.and_then(|f| {
                f.take(common::MAX_SOURCE_BYTES + 1)
                    .read_to_end(&mut bytes)
                    .map(|_| ())
            });
            if let Err(e) = read {
                let msg = e.to_string();
                let reason = msg.split(" (os error").next().unwrap_or(&msg);
                return Err(format!("Could not open file \"{path}\": {reason}"));
            }
            to_source(path, bytes)
        }
        None => {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .take(common::MAX_SOURCE_BYTES + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read <stdin>: {e}"))?;
            to_source("<stdin>", bytes)
        }
    }
}

fn to_source(name: &str, bytes: Vec<u8>) -> Result<SourceFile, String> {
    if bytes.len() as u64 > common::MAX_SOURCE_BYTES {
        return Err(format!(
            "{name}: input larger than {} MiB",
            common::MAX_SOURCE_BYTES >> 20
        ));
    }
    String::from_utf8(bytes)
        .map(|text| SourceFile::new(name, text))
        .map_err(|e| {
            format!(
                "{name}: not valid UTF-8 (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            )
        })
}

/// Runs the `dicelab` binary with parsed options; returns the exit status.
pub fn run_dicelab(opts: DicelabOptions) -> u8 {
    alea_dicelab::with_big_stack(move || {
        if opts.file.is_none() && common::stdin_is_terminal() {
            return run_interactive(opts);
        }
        let file = match read_input(opts.file.as_deref()) {
            Ok(f) => f,
            Err(msg) => {
                eprintln!("{msg}");
                return EXIT_USAGE;
            }
        };
        run_whole(opts, &file)
    })
}

/// Parses `file` whole, then runs every statement (nothing runs after a syntax error).
pub fn run_whole(opts: DicelabOptions, file: &SourceFile) -> u8 {
    let mut session = Session::new(opts);
    let (program, diagnostics) = alea_dicelab::parse(file);
    if !diagnostics.is_empty() {
        session.syntax_errors(file, &diagnostics);
        return session.status;
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for statement in &program.statements {
        if session.run_statement(file, statement, &mut out).is_err() {
            return EXIT_USAGE;
        }
    }
    if out.flush().is_err() {
        return EXIT_USAGE;
    }
    session.status
}

/// Terminal input: each statement runs as soon as its `;` arrives (0.7's behaviour); a
/// syntax error skips that statement only.
fn run_interactive(opts: DicelabOptions) -> u8 {
    let mut session = Session::new(opts);
    let mut text = String::new();
    let mut consumed = 0usize;
    let stdin = io::stdin();
    let mut lines = stdin.lock();
    let stdout = io::stdout();
    loop {
        let mut line = String::new();
        let eof = match lines.read_line(&mut line) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => {
                eprintln!("cannot read <stdin>: {e}");
                session.fail(EXIT_USAGE);
                true
            }
        };
        text.push_str(&line);
        let (mut pieces, rest) = alea_dicelab::split_statements(&text, consumed);
        if eof {
            let has_tokens = alea_dicelab::Lexer::new(&text, rest).next_token().kind
                != alea_dicelab::TokenKind::Eof;
            if has_tokens || consumed == 0 && pieces.is_empty() {
                pieces.push(rest..text.len());
            }
        }
        if !pieces.is_empty() {
            let file = SourceFile::new("<stdin>", text.clone());
            for piece in pieces {
                let first = consumed == 0;
                consumed = piece.end;
                let (program, diagnostics) = alea_dicelab::parse_range(&file, piece, !first);
                session.syntax_errors(&file, &diagnostics);
                let mut out = stdout.lock();
                for statement in &program.statements {
                    let _ = session.run_statement(&file, statement, &mut out);
                }
                let _ = out.flush();
            }
        }
        if eof {
            return session.status;
        }
    }
}

/// Arguments of `alea dice`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The program (statements separated by `;`); read from `-f FILE` or stdin when absent.
    pub program: Option<String>,
    /// Read the program from FILE.
    #[arg(short, long, value_name = "FILE")]
    pub file: Option<String>,
    /// Roll once and print the values.
    #[arg(short, long)]
    pub roll: bool,
    /// Simulate N rolls (default 1000000) and print the distribution.
    #[arg(short, long, value_name = "N", num_args = 0..=1, default_missing_value = "1000000")]
    pub eval: Option<u64>,
    /// Number of rolls for --eval.
    #[arg(short = 'n', long, value_name = "N")]
    pub count: Option<u64>,
    /// Exact distribution (the default mode once the exact engine lands).
    #[arg(short, long)]
    pub calc: bool,
    /// Print the parse tree.
    #[arg(short = 'p', long)]
    pub print_tree: bool,
    /// `while` threshold for --calc.
    #[arg(short, long, value_name = "T", default_value_t = 1e-6)]
    pub threshold: f32,
    /// Seed of the random generator (rolls and simulations are reproducible).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// One JSON object per statement (JSON Lines).
    #[arg(long)]
    pub json: bool,
    /// Percentiles to report (comma-separated).
    #[arg(long, value_name = "LIST", default_value = "5,25,50,75,95")]
    pub percentiles: String,
    /// No bars in the table.
    #[arg(long)]
    pub no_bars: bool,
    /// Bars of `#` instead of block characters.
    #[arg(long)]
    pub ascii: bool,
    /// Width of the longest bar.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub width: usize,
}

/// Runs `alea dice`.
pub fn run(args: Args) -> ExitCode {
    let file = match (&args.program, &args.file) {
        (Some(p), None) => SourceFile::new("<expr>", p.clone()),
        (None, Some(path)) => match common::read_source(path) {
            Ok(f) => f,
            Err(msg) => {
                eprintln!("alea dice: {msg}");
                return ExitCode::from(EXIT_USAGE);
            }
        },
        (None, None) => match common::read_source("-") {
            Ok(f) => f,
            Err(msg) => {
                eprintln!("alea dice: {msg}");
                return ExitCode::from(EXIT_USAGE);
            }
        },
        (Some(_), Some(_)) => {
            eprintln!("alea dice: give either a PROGRAM or -f FILE, not both");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let code = alea_dicelab::with_big_stack(move || run_report(&args, &file));
    ExitCode::from(code)
}

/// `alea repl dice`: statements run when their `;` or the end of the line arrives.
pub fn repl() -> ExitCode {
    let mut session = Session::new(DicelabOptions::default());
    let handle = move |text: &str| -> ReplStep {
        let file = SourceFile::new("<repl>", text.to_string());
        if let Some(rest) = text.trim().strip_prefix(':') {
            let (cmd, arg) = rest.split_once(' ').unwrap_or((rest, ""));
            return ReplStep::Done(repl_command(&mut session, cmd, arg.trim()));
        }
        let (program, diagnostics) = alea_dicelab::parse(&file);
        if let Some(d) = diagnostics.first() {
            // An error at the very end means the statement goes on on the next line.
            if d.span
                .is_some_and(|s| s.start as usize >= text.trim_end().len())
            {
                return ReplStep::Incomplete;
            }
            let msgs: String = diagnostics.iter().map(|d| render(&file, d)).collect();
            return ReplStep::Done(msgs);
        }
        let mut out = Vec::new();
        for statement in &program.statements {
            let _ = session.run_statement(&file, statement, &mut out);
        }
        ReplStep::Done(String::from_utf8_lossy(&out).into_owned())
    };
    common::run_repl(Repl {
        name: "dice",
        help: REPL_HELP,
        handle: Box::new(handle),
    })
}

const REPL_HELP: &str = "Type a dicelab statement, e.g. sum(3#d6) or count >4 5#d6.
A statement may span lines: it runs once it is complete.
:roll, :eval [N], :tree   switch mode (roll is the default)
:seed N                   reseed the generator
:quit                     leave";

fn repl_command(session: &mut Session, cmd: &str, arg: &str) -> String {
    match cmd {
        "roll" => {
            session.opts.roll = true;
            session.opts.eval = false;
            "mode: roll".to_string()
        }
        "eval" => {
            session.opts.roll = false;
            session.opts.eval = true;
            if let Ok(n) = arg.parse::<u64>() {
                session.opts.count = n.clamp(1, 100_000_000);
            }
            format!("mode: eval ({} rolls)", session.opts.count)
        }
        "tree" => {
            session.opts.tree = !session.opts.tree;
            format!("tree: {}", if session.opts.tree { "on" } else { "off" })
        }
        "seed" => match arg.parse::<u64>() {
            Ok(n) => {
                session.rng = Rng::seed_from_u64(n);
                format!("seed: {n}")
            }
            Err(_) => "usage: :seed N".to_string(),
        },
        _ => format!("unknown command :{cmd} (try :help)"),
    }
}

/// The man-page examples that `alea tour` runs (dicelab.md §9), each rolled with seed 1.
pub const TOUR: [(&str, &str); 9] = [
    ("success count, target 8 on five d10", "count >7 5#d10"),
    (
        "successes minus botches",
        "let c=5#d10 in (count >7 c)-(count ==1 c)",
    ),
    ("rolls until a 6", "count (while x=d6 do ((count <6 x)#d6))"),
    ("D&D ability scores", "6#sum(drop low 1 4#d6)"),
    ("11..66 morale table", "d6.d6"),
    ("median of 3d20", "high 1 low 2 3#d20"),
    (
        "3d6 rerolling 6s",
        "sum(while x=3#d6 do ((count ==6 x)#d6))",
    ),
    (
        "Fibonacci",
        "let n = 20 in let f = (1,1) in foreach i in 1..n do \
         let f = (f,sum(high 2 f)) in if ==n i then f else ()",
    ),
    (
        "Risk",
        "let a = 3#d6 in let b = 2#d6 in \
         count( (<(high 1 a) high 1 b), (<(high 1 low 2 a) low 1 b))",
    ),
];

/// Runs the built-in examples of the language for `alea tour`: each man-page example rolled
/// once and simulated 100000 times, seed 1.
pub fn tour(out: &mut dyn Write) -> io::Result<()> {
    let opts = DicelabOptions {
        roll: true,
        seed: Some(1),
        ..DicelabOptions::default()
    };
    let mut session = Session::new(opts);
    for (title, program) in TOUR {
        writeln!(out, "# {title}\n{program}")?;
        let file = SourceFile::new("<tour>", program);
        let (p, d) = alea_dicelab::parse(&file);
        if !d.is_empty() {
            return Err(io::Error::other(render(&file, &d[0])));
        }
        for statement in &p.statements {
            write!(out, "roll: ")?;
            session.run_statement(&file, statement, out)?;
            if let Ok(h) = alea_dicelab::eval(statement, 100_000, 1) {
                writeln!(out, "100000 rolls: mean {:.3}", mean_of(&h))?;
            }
        }
    }
    Ok(())
}

fn mean_of(h: &Histogram) -> f64 {
    let n: u64 = h.counts.values().sum();
    if n == 0 {
        return 0.0;
    }
    h.counts
        .iter()
        .map(|(&v, &c)| f64::from(v) * c as f64)
        .sum::<f64>()
        / n as f64
}

/// One row of a distribution: `None` is the empty outcome `()`.
pub type Outcome = (Option<i32>, f64);

/// How `alea dice` prints a distribution.
#[derive(Clone, Debug)]
pub struct TableStyle {
    /// Draw bars.
    pub bars: bool,
    /// `#` bars instead of block characters.
    pub ascii: bool,
    /// Width of the longest bar.
    pub width: usize,
    /// Percentiles to report.
    pub percentiles: Vec<f64>,
}

fn bar(p: f64, p_max: f64, style: &TableStyle) -> String {
    if p_max <= 0.0 {
        return String::new();
    }
    let eighths = (p / p_max * style.width as f64 * 8.0).round() as usize;
    if style.ascii {
        return "#".repeat(eighths / 8);
    }
    let mut s = "\u{2588}".repeat(eighths / 8);
    // U+2589..U+258F are 7/8 down to 1/8.
    if !eighths.is_multiple_of(8) {
        s.push(char::from_u32(0x2590 - (eighths % 8) as u32).unwrap_or('#'));
    }
    s
}

/// Mean and sd of the numeric outcomes (conditional on a numeric result).
pub fn moments(outcomes: &[Outcome]) -> Option<(f64, f64)> {
    let total: f64 = outcomes.iter().filter(|o| o.0.is_some()).map(|o| o.1).sum();
    if total <= 0.0 {
        return None;
    }
    let mean = outcomes
        .iter()
        .filter_map(|&(v, p)| v.map(|v| f64::from(v) * p))
        .sum::<f64>()
        / total;
    let ex2 = outcomes
        .iter()
        .filter_map(|&(v, p)| v.map(|v| f64::from(v) * f64::from(v) * p))
        .sum::<f64>()
        / total;
    Some((mean, (ex2 - mean * mean).max(0.0).sqrt()))
}

/// The table of dicelab.md §8: value, probability, at least, at most, bar; then the footer.
pub fn render_table(outcomes: &[Outcome], style: &TableStyle) -> String {
    let p_max = outcomes.iter().map(|o| o.1).fold(0.0, f64::max);
    let numeric: f64 = outcomes.iter().filter(|o| o.0.is_some()).map(|o| o.1).sum();
    let mut s = format!(
        "{:>7} {:>12} {:>9} {:>9}\n",
        "value", "probability", "at least", "at most"
    );
    let mut below = 0.0;
    for &(v, p) in outcomes {
        let (value, least, most) = match v {
            None => ("()".to_string(), "-".to_string(), "-".to_string()),
            Some(v) => {
                let least = (numeric - below) / numeric;
                below += p;
                let most = below / numeric;
                (v.to_string(), format!("{least:.6}"), format!("{most:.6}"))
            }
        };
        s.push_str(&format!("{value:>7} {p:>12.6} {least:>9} {most:>9}"));
        if style.bars {
            s.push(' ');
            s.push_str(&bar(p, p_max, style));
        }
        s.push('\n');
    }
    if let Some((mean, sd)) = moments(outcomes) {
        let nums: Vec<i32> = outcomes.iter().filter_map(|o| o.0).collect();
        let min = nums.iter().min().copied().unwrap_or(0);
        let max = nums.iter().max().copied().unwrap_or(0);
        s.push_str(&format!(
            "mean {mean:.6}  sd {sd:.6}  min {min}  max {max}\n"
        ));
        let mut parts = Vec::new();
        for &q in &style.percentiles {
            let mut acc = 0.0;
            let hit = outcomes.iter().filter(|o| o.0.is_some()).find(|o| {
                acc += o.1;
                acc / numeric >= q / 100.0 - 1e-12
            });
            if let Some(&(Some(v), _)) = hit {
                parts.push(format!("p{q}: {v}"));
            }
        }
        if !parts.is_empty() {
            s.push_str(&parts.join("  "));
            s.push('\n');
        }
    }
    if let Some(&(None, p)) = outcomes.first() {
        s.push_str(&format!("P(()) = {p:.6}\n"));
    }
    s
}

fn json_error(program: &str, file: &SourceFile, d: &Diagnostic) -> String {
    let (line, column) = d.line_col(file).unwrap_or((0, 0));
    serde_json::json!({
        "program": program,
        "error": {"message": d.message, "line": line, "column": column}
    })
    .to_string()
}

fn histogram_outcomes(h: &Histogram) -> Vec<Outcome> {
    let n = h.rolls as f64;
    let mut v = Vec::new();
    if h.empty > 0 {
        v.push((None, h.empty as f64 / n));
    }
    v.extend(h.counts.iter().map(|(&k, &c)| (Some(k), c as f64 / n)));
    v
}

/// `alea dice`: runs every statement in the requested modes; returns the exit status.
fn run_report(args: &Args, file: &SourceFile) -> u8 {
    let mut session = Session::new(DicelabOptions {
        seed: args.seed,
        threshold: args.threshold,
        ..DicelabOptions::default()
    });
    let (program, diagnostics) = alea_dicelab::parse(file);
    if !diagnostics.is_empty() {
        session.syntax_errors(file, &diagnostics);
        return session.status;
    }
    let style = TableStyle {
        bars: !args.no_bars,
        ascii: args.ascii,
        width: args.width.clamp(1, 1000),
        percentiles: args
            .percentiles
            .split(',')
            .filter_map(|p| p.trim().parse::<f64>().ok())
            .filter(|p| (0.0..=100.0).contains(p))
            .collect(),
    };
    let rolls = args
        .count
        .or(args.eval)
        .unwrap_or(1_000_000)
        .clamp(1, 100_000_000);
    let want_eval = args.eval.is_some() || (args.count.is_some() && !args.roll);
    let want_calc = args.calc || !(args.roll || want_eval || args.print_tree);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for statement in &program.statements {
        let text = file.slice(statement.span).trim().to_string();
        if args.print_tree {
            let _ = out.write_all(alea_dicelab::print_tree(&statement.expr).as_bytes());
        }
        if args.roll {
            match session.roller.roll(statement, &mut session.rng) {
                Ok(values) if args.json => {
                    let _ = writeln!(
                        out,
                        "{}",
                        serde_json::json!({"program": text, "roll": values})
                    );
                }
                Ok(values) => {
                    let strs: Vec<String> = values.iter().map(i32::to_string).collect();
                    let _ = writeln!(out, "{}", strs.join(" "));
                }
                Err(d) => report_error(&mut session, args, file, &text, &d, &mut out),
            }
        }
        let mut eval_now = want_eval;
        if want_calc {
            match calc_statement(statement, args.threshold) {
                Ok(outcomes) => print_distribution(args, &text, &outcomes, None, &style, &mut out),
                Err(d) if d.message.contains("not implemented yet") && !args.calc => {
                    // Until the exact engine lands, the default mode simulates.
                    eval_now = true;
                }
                Err(d) => report_error(&mut session, args, file, &text, &d, &mut out),
            }
        }
        if eval_now {
            let seed = session.rng.next_u64();
            match alea_dicelab::eval(statement, rolls, seed) {
                Ok(h) => {
                    let outcomes = histogram_outcomes(&h);
                    print_distribution(args, &text, &outcomes, Some(&h), &style, &mut out);
                }
                Err(d) => report_error(&mut session, args, file, &text, &d, &mut out),
            }
        }
    }
    let _ = out.flush();
    session.status
}

fn report_error(
    session: &mut Session,
    args: &Args,
    file: &SourceFile,
    text: &str,
    d: &Diagnostic,
    out: &mut dyn Write,
) {
    if args.json {
        let _ = writeln!(out, "{}", json_error(text, file, d));
    }
    let _ = out.flush();
    eprint!("{}", render(file, d));
    session.fail(EXIT_RUNTIME);
}

fn print_distribution(
    args: &Args,
    text: &str,
    outcomes: &[Outcome],
    histogram: Option<&Histogram>,
    style: &TableStyle,
    out: &mut dyn Write,
) {
    let stats = moments(outcomes);
    if args.json {
        let mean = stats.map(|s| s.0);
        let sd = stats.map(|s| s.1);
        let line = match histogram {
            Some(h) => {
                let mut rows = Vec::new();
                if h.empty > 0 {
                    rows.push(serde_json::json!({"value": null, "count": h.empty,
                        "probability": h.empty as f64 / h.rolls as f64}));
                }
                for (&v, &c) in &h.counts {
                    rows.push(serde_json::json!({"value": v, "count": c,
                        "probability": c as f64 / h.rolls as f64}));
                }
                serde_json::json!({"program": text, "rolls": h.rolls, "outcomes": rows,
                    "mean": mean, "sd": sd})
            }
            None => {
                let rows: Vec<_> = outcomes
                    .iter()
                    .map(|&(v, p)| serde_json::json!({"value": v, "probability": p}))
                    .collect();
                serde_json::json!({"program": text, "outcomes": rows, "mean": mean, "sd": sd,
                    "truncated_mass": 0.0})
            }
        };
        let _ = writeln!(out, "{line}");
    } else {
        if let Some(h) = histogram {
            let _ = writeln!(out, "{text}  ({} rolls)", h.rolls);
        } else {
            let _ = writeln!(out, "{text}");
        }
        let _ = out.write_all(render_table(outcomes, style).as_bytes());
    }
}
