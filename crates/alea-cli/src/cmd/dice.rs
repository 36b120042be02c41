//! `alea dice` and the engine of the drop-in `dicelab` binary (dicelab.md §7–§8).
//!
//! Both front ends share [`Session`], which runs one statement at a time in the order of the
//! spec (tree, roll, calc, eval), writes 0.7's formats and remembers the worst failure for the
//! exit status (0 ok, 1 usage/file, 2 syntax, 3 runtime).

use crate::common::{self, Repl, ReplStep};
use alea_core::{Diagnostic, RenderOptions, Rng, SourceFile};
use alea_dicelab::calc::{CalcOptions, CalcResult};
use alea_dicelab::{Histogram, Roller, Statement};

#[path = "dice_report.rs"]
mod report;
pub use report::{Analysis, Percentile, TableStyle};
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

// ==== CALC HOOK: the one place where `-c` is answered ====================================
/// The exact distribution of `statement` (dicelab.md §5) with `while` threshold `threshold`
/// (the f32 of `-t`), or the error to report: a runtime error reachable with p > 0, a result
/// that is a list, or a budget error naming the construct that blew up.
pub fn calc_statement(
    statement: &Statement,
    threshold: f32,
) -> Result<CalcResult, Box<Diagnostic>> {
    let options = CalcOptions {
        threshold,
        ..CalcOptions::default()
    };
    alea_dicelab::calc::calculate(statement, &options).map_err(Box::new)
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
                Ok(result) => out.write_all(result.render_dicelab(false).as_bytes())?,
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
    /// Several programs only with --compare.
    pub programs: Vec<String>,
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
    /// Exact distribution (the default mode).
    #[arg(short, long)]
    pub calc: bool,
    /// Print the parse tree.
    #[arg(short = 'p', long)]
    pub print_tree: bool,
    /// `while` threshold for --calc: paths less likely than T are not extended.
    #[arg(short, long, value_name = "T", default_value_t = 1e-6)]
    pub threshold: f32,
    /// Seed of the random generator (rolls and simulations are reproducible).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Exact probabilities as reduced fractions (an `exact` column, and in JSON).
    #[arg(long)]
    pub exact: bool,
    /// One JSON object per statement (JSON Lines).
    #[arg(long)]
    pub json: bool,
    /// Write an SVG chart of the distribution to FILE (one statement, or all with --compare).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
    /// Compare the distributions of every statement (of every PROGRAM) side by side.
    #[arg(long)]
    pub compare: bool,
    /// Percentiles to report (comma-separated, 0 to 100).
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

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("alea dice: {msg}");
    ExitCode::from(EXIT_USAGE)
}

/// Runs `alea dice`.
pub fn run(args: Args) -> ExitCode {
    let files: Vec<SourceFile> = match (args.programs.as_slice(), &args.file) {
        ([], path) => match common::read_source(path.as_deref().unwrap_or("-")) {
            Ok(f) => vec![f],
            Err(msg) => return usage_error(&msg),
        },
        (_, Some(_)) => return usage_error("give either a PROGRAM or -f FILE, not both"),
        ([p], None) => vec![SourceFile::new("<expr>", p.clone())],
        (ps, None) if args.compare => ps
            .iter()
            .enumerate()
            .map(|(i, p)| SourceFile::new(format!("<expr {}>", i + 1), p.clone()))
            .collect(),
        (_, None) => {
            return usage_error(
                "several PROGRAMs need --compare (or separate the statements with ';')",
            );
        }
    };
    let code = alea_dicelab::with_big_stack(move || run_report(&args, &files));
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

/// dicelab's `-t` bounds (dicelab.md §7), with its messages.
fn adjust_threshold(t: f32) -> f32 {
    if t.is_nan() || t < f32::MIN_POSITIVE {
        eprintln!("Value for --threshold too low, adjusted");
        f32::MIN_POSITIVE
    } else if t > 0.01 {
        eprintln!("Value for --threshold too high, adjusted to 0.010000");
        0.01
    } else {
        t
    }
}

/// `alea dice`: checks every program, then runs every statement in the requested modes;
/// returns the exit status.
fn run_report(args: &Args, files: &[SourceFile]) -> u8 {
    let threshold = adjust_threshold(args.threshold);
    let mut session = Session::new(DicelabOptions {
        seed: args.seed,
        threshold,
        ..DicelabOptions::default()
    });
    let mut statements = Vec::new();
    for file in files {
        let (program, diagnostics) = alea_dicelab::parse(file);
        session.syntax_errors(file, &diagnostics);
        statements.extend(program.statements.into_iter().map(|s| (file, s)));
    }
    if session.status != 0 {
        return session.status;
    }
    let percentiles = match report::parse_percentiles(&args.percentiles) {
        Ok(p) => p,
        Err(msg) => {
            eprintln!("alea dice: {msg}");
            return EXIT_USAGE;
        }
    };
    if args.plot.is_some() && statements.len() > 1 && !args.compare {
        eprintln!(
            "alea dice: --plot draws one statement, and there are {} (use --compare to \
             overlay them)",
            statements.len()
        );
        return EXIT_USAGE;
    }
    let style = TableStyle {
        bars: !args.no_bars,
        ascii: args.ascii,
        width: args.width.clamp(1, 1000),
        exact: args.exact,
        percentiles,
    };
    let rolls = args
        .count
        .or(args.eval)
        .unwrap_or(1_000_000)
        .clamp(1, 100_000_000);
    let want_eval = args.eval.is_some() || (args.count.is_some() && !args.roll);
    let want_calc = args.calc || !(args.roll || want_eval || args.print_tree);
    // The distributions drawn by --plot and compared by --compare: calc's when asked for.
    let mut charted: Vec<Analysis> = Vec::new();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for (file, statement) in &statements {
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
        if want_calc {
            match calc_statement(statement, threshold) {
                Ok(result) => {
                    let a = Analysis::exact(&text, result, threshold);
                    show(args, &a, None, &style, &mut out);
                    charted.push(a);
                }
                Err(d) => report_error(&mut session, args, file, &text, &d, &mut out),
            }
        }
        if want_eval {
            let seed = session.rng.next_u64();
            match alea_dicelab::eval(statement, rolls, seed) {
                Ok(h) => {
                    let a = Analysis::sampled(&text, h);
                    show(args, &a, Some(rolls), &style, &mut out);
                    if !want_calc {
                        charted.push(a);
                    }
                }
                Err(d) => report_error(&mut session, args, file, &text, &d, &mut out),
            }
        }
    }
    if args.compare && !args.json && !charted.is_empty() {
        let _ = out.write_all(report::compare_table(&charted, args.exact).as_bytes());
    }
    if let Some(path) = &args.plot {
        let svg = match charted.as_slice() {
            [] => None,
            [one] if !args.compare => Some(report::plot_one(one)),
            all => Some(report::plot_compare(all)),
        };
        if let Some(svg) = svg
            && let Err(e) = std::fs::write(path, svg)
        {
            let _ = out.flush();
            eprintln!("alea dice: cannot write {path}: {e}");
            session.fail(EXIT_USAGE);
        }
    }
    let _ = out.flush();
    session.status
}

/// Prints one distribution: a JSON line, or (unless --compare prints one table for all) the
/// program, the table and the footer.
fn show(args: &Args, a: &Analysis, rolls: Option<u64>, style: &TableStyle, out: &mut dyn Write) {
    if args.json {
        let _ = writeln!(out, "{}", a.json(args.exact));
        return;
    }
    if args.compare {
        return;
    }
    let _ = match rolls {
        Some(n) => writeln!(out, "{}  ({n} rolls)", a.program),
        None => writeln!(out, "{}", a.program),
    };
    let _ = out.write_all(a.table(style).as_bytes());
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
        let (line, column) = d.line_col(file).unwrap_or((0, 0));
        let _ = writeln!(
            out,
            "{}",
            alea_dicelab::calc::json_error(text, &d.message, line, column)
        );
    }
    let _ = out.flush();
    eprint!("{}", render(file, d));
    session.fail(EXIT_RUNTIME);
}
