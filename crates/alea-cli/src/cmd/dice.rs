//! `alea dice` and the engine of the drop-in `dicelab` binary (dicelab.md §7–§8).
//!
//! The statements run in the library's [`Session`] (the statement loop, one [`Report`] per
//! statement); this module only reads input, displays reports (0.7's formats for `dicelab`,
//! tables, JSON and charts for `alea dice`) and keeps the exit status in 0.7's numbering (0 ok,
//! 1 usage/file, 2 syntax, 3 runtime). `dicelab` exits with that number and prints 0.7's
//! diagnostics; `alea dice` maps it to docs/cli.md (1 failed, 2 usage, [`alea_status`]) and
//! prints the one diagnostic format.

use crate::common::{self, Repl, ReplStep};
use alea_core::{Diagnostic, RenderOptions, SourceFile};
use alea_dicelab::calc::CalcOptions;
use alea_dicelab::{Histogram, Modes, Report, Session, SessionOptions, Statement};

#[path = "dice_report.rs"]
mod report;
pub use report::{Analysis, TableStyle};
use std::io::{self, BufRead, Write};
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

/// `dicelab`'s exit status after a syntax error.
pub const EXIT_SYNTAX: u8 = 2;
/// `dicelab`'s exit status after a runtime error.
pub const EXIT_RUNTIME: u8 = 3;
/// `dicelab`'s exit status after a usage or file error.
pub const EXIT_USAGE: u8 = 1;

/// `alea dice`'s exit status (docs/cli.md) for a [`Runner::status`] in 0.7's numbering.
pub fn alea_status(dicelab_status: u8) -> u8 {
    match dicelab_status {
        0 => 0,
        EXIT_USAGE => common::EXIT_USAGE,
        _ => common::EXIT_FAILED,
    }
}

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

/// The session options of `dicelab` flags: roll when no mode is asked for (`-p` alone prints
/// only trees), 0.7's eval count and threshold.
fn session_options(o: &DicelabOptions) -> SessionOptions {
    SessionOptions {
        modes: Modes {
            tree: o.tree,
            roll: o.roll || !(o.tree || o.calc || o.eval),
            calc: o.calc,
            eval: o.eval,
        },
        rolls: o.count,
        calc: CalcOptions {
            threshold: o.threshold,
            ..CalcOptions::default()
        },
    }
}

/// Runs statements through the library's [`Session`], prints their reports in 0.7's formats
/// and keeps the exit status.
pub struct Runner {
    /// The library session (its options may change between statements).
    pub session: Session,
    /// 0 so far, or the status of the worst failure (0.7's numbering).
    pub status: u8,
    /// Print diagnostics in dicelab 0.7's format (the `dicelab` binary) instead of the one
    /// format of `alea`.
    pub dicelab_format: bool,
}

/// The one diagnostic format (plain: the REPL and the tour print it as text).
fn render(file: &SourceFile, d: &Diagnostic) -> String {
    d.render(file)
}

impl Runner {
    /// A runner with the RNG seeded from `opts.seed` (or the OS).
    pub fn new(opts: &DicelabOptions) -> Runner {
        let seed = opts.seed.unwrap_or_else(os_seed);
        Runner {
            session: Session::new(session_options(opts), seed),
            status: 0,
            dicelab_format: false,
        }
    }

    /// A runner of the `dicelab` binary: 0.7's diagnostic format.
    pub fn dicelab(opts: &DicelabOptions) -> Runner {
        Runner {
            dicelab_format: true,
            ..Runner::new(opts)
        }
    }

    fn eprint(&self, file: &SourceFile, d: &Diagnostic) {
        if self.dicelab_format {
            eprint!("{}", d.render_with(file, RenderOptions::bare()));
        } else {
            common::eprint_diagnostics(file, std::slice::from_ref(d));
        }
    }

    fn fail(&mut self, code: u8) {
        self.status = self.status.max(code);
    }

    /// Prints syntax errors and records the status.
    pub fn syntax_errors(&mut self, file: &SourceFile, diagnostics: &[Diagnostic]) {
        for d in diagnostics {
            self.eprint(file, d);
        }
        if !diagnostics.is_empty() {
            self.fail(EXIT_SYNTAX);
        }
    }

    /// Runs one statement and prints what each mode gave (tree, roll, calc, eval), then its
    /// runtime error if one ended it.
    pub fn run_statement(
        &mut self,
        file: &SourceFile,
        statement: &Statement,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let report = self.session.run(statement);
        if let Some(tree) = &report.tree {
            out.write_all(tree.as_bytes())?;
        }
        if let Some(values) = &report.roll {
            let mut line = String::with_capacity(values.len() * 4 + 1);
            for v in values {
                line.push_str(&v.to_string());
                line.push(' ');
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        if let Some(result) = &report.calc {
            out.write_all(result.render_dicelab(false).as_bytes())?;
        }
        if let Some(h) = &report.eval {
            out.write_all(eval_lines(h).as_bytes())?;
        }
        if let Some(d) = report.diagnostic() {
            // Keep stdout and stderr in order for someone watching both.
            out.flush()?;
            self.eprint(file, d);
            self.fail(EXIT_RUNTIME);
        }
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
    let path = file.unwrap_or("-");
    common::read_file(path, common::Encoding::Utf8, common::MAX_SOURCE_BYTES).map_err(|e| match e {
        common::ReadError::Io { reason, .. } if file.is_some() => {
            format!("Could not open file \"{path}\": {reason}")
        }
        e => e.to_string(),
    })
}

/// Runs the `dicelab` binary with parsed options; returns the exit status.
pub fn run_dicelab(opts: DicelabOptions) -> u8 {
    if opts.file.is_none() && common::stdin_is_terminal() {
        return alea_dicelab::with_big_stack(move || run_interactive(opts));
    }
    let file = match read_input(opts.file.as_deref()) {
        Ok(f) => f,
        Err(msg) => {
            eprintln!("{msg}");
            return EXIT_USAGE;
        }
    };
    // Called from the binary's main thread: a short program runs right here, without the
    // big-stack thread (issue 16: about a third of a short `dicelab -c`'s whole-process time).
    alea_dicelab::with_stack_for(file.text().len(), move || run_whole(opts, &file))
}

/// Parses `file` whole, then runs every statement (nothing runs after a syntax error).
pub fn run_whole(opts: DicelabOptions, file: &SourceFile) -> u8 {
    let mut session = Runner::dicelab(&opts);
    let (program, diagnostics) = alea_dicelab::parse(file);
    if !diagnostics.is_empty() {
        session.syntax_errors(file, &diagnostics);
        return session.status;
    }
    let mut out = io::BufWriter::new(common::stdout());
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
    let mut session = Runner::dicelab(&opts);
    let mut text = String::new();
    let mut consumed = 0usize;
    let stdin = io::stdin();
    let mut lines = stdin.lock();
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
                let mut out = common::stdout();
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
    /// Simulate N rolls (default 1000000) and print the distribution. A value that is not a
    /// number is the program: `-e 'sum(3#d6)'` simulates sum(3#d6).
    #[arg(short, long, value_name = "N", num_args = 0..=1, default_missing_value = "1000000")]
    pub eval: Option<String>,
    /// Number of rolls for --eval (1 to 100000000).
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
    /// One JSON object per statement (JSON Lines); errors as `{"diagnostics": [...]}` lines.
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
    common::usage_error(msg)
}

/// Default rolls of `alea dice -e`.
const DEFAULT_ROLLS: u64 = 1_000_000;

/// The roll count of `alea dice`, checked against the limit: `-n` wins over `-e N`. `None` when
/// no simulation was asked for.
fn eval_rolls(eval: Option<u64>, count: Option<u64>) -> Result<Option<u64>, String> {
    match count.or(eval) {
        Some(n) => alea_dicelab::check_rolls(n).map(Some),
        None => Ok(None),
    }
}

/// `-e`'s optional value: all digits is the roll count, anything else is the program (clap
/// would otherwise hand `-e 'sum(3#d6)'` the program as the count). A count too large for a
/// u64 is still a count, refused by the limit check.
fn split_eval_value(value: &str) -> Result<u64, String> {
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(value.parse::<u64>().unwrap_or(u64::MAX));
    }
    Err(value.to_string())
}

/// Runs `alea dice`.
pub fn run(mut args: Args) -> ExitCode {
    // `-e TEXT`: TEXT is the program unless it is a number.
    let mut eval_count = None;
    if let Some(value) = args.eval.take() {
        match split_eval_value(&value) {
            Ok(n) => eval_count = Some(n),
            Err(program) => {
                eval_count = Some(DEFAULT_ROLLS);
                args.programs.insert(0, program);
            }
        }
    }
    let rolls = match eval_rolls(eval_count, args.count) {
        Ok(r) => r,
        Err(msg) => {
            let flag = if args.count.is_some() { "-n" } else { "-e" };
            return usage_error(&format!("{flag}: {msg}"));
        }
    };
    let files: Vec<SourceFile> = match (args.programs.as_slice(), &args.file) {
        ([], path) => {
            if path.is_none() && common::stdin_is_terminal() {
                eprintln!("{STDIN_NOTICE}");
            }
            match common::read_source(path.as_deref().unwrap_or("-")) {
                Ok(f) => vec![f],
                // The program could not be loaded: the data failed, not the command line.
                Err(msg) => {
                    common::eprint_plain(&Diagnostic::error(msg));
                    return common::failed();
                }
            }
        }
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
    let want_eval = eval_count.is_some() || (args.count.is_some() && !args.roll);
    let rolls = want_eval.then(|| rolls.unwrap_or(DEFAULT_ROLLS));
    let code = alea_dicelab::with_big_stack(move || run_report(&args, rolls, &files));
    ExitCode::from(alea_status(code))
}

/// What `alea dice` says before it waits for a program typed on a terminal.
pub const STDIN_NOTICE: &str = "alea dice: no PROGRAM given, reading it from stdin \
    (end with Ctrl-D; `alea dice --help` for usage, `alea repl dice` for a prompt)";

/// How `alea dice` and its REPL display reports.
struct Display {
    json: bool,
    compare: bool,
    exact: bool,
    style: TableStyle,
    threshold: f32,
}

impl Display {
    /// Prints one statement's report; returns the distribution to chart or compare (calc's
    /// when there is one, else eval's).
    fn show(
        &self,
        file: &SourceFile,
        statement: &Statement,
        report: &Report,
        out: &mut dyn Write,
    ) -> (Option<Analysis>, Option<Diagnostic>) {
        let text = file.slice(statement.span).trim().to_string();
        if let Some(tree) = &report.tree {
            let _ = out.write_all(tree.as_bytes());
        }
        if let Some(values) = &report.roll {
            if self.json {
                let _ = writeln!(
                    out,
                    "{}",
                    serde_json::json!({"program": text, "roll": values})
                );
            } else {
                let strs: Vec<String> = values.iter().map(i32::to_string).collect();
                let _ = writeln!(out, "{}", strs.join(" "));
            }
        }
        let mut charted = None;
        if let Some(result) = &report.calc {
            let a = Analysis::exact(&text, result.clone(), self.threshold);
            self.table(&a, None, out);
            charted = Some(a);
        }
        if let Some(h) = &report.eval {
            let a = Analysis::sampled(&text, h.clone());
            self.table(&a, Some(h.rolls), out);
            charted.get_or_insert(a);
        }
        let error = report.diagnostic().cloned();
        if let Some(d) = &error
            && self.json
        {
            // The statement's line: its program, then the one diagnostic shape (docs/cli.md).
            let v = common::json_diagnostics([(Some(file), d)]);
            let program = serde_json::Value::from(text);
            let _ = writeln!(
                out,
                "{{\"program\":{program},\"diagnostics\":{}}}",
                v["diagnostics"]
            );
        }
        (charted, error)
    }

    /// One distribution: a JSON line, or (unless --compare prints one table for all) the
    /// program, the table and the footer.
    fn table(&self, a: &Analysis, rolls: Option<u64>, out: &mut dyn Write) {
        if self.json {
            let _ = writeln!(out, "{}", a.json(self.exact));
            return;
        }
        if self.compare {
            return;
        }
        let _ = match rolls {
            Some(n) => writeln!(out, "{}  ({n} rolls)", a.program),
            None => writeln!(out, "{}", a.program),
        };
        let _ = out.write_all(a.table(&self.style).as_bytes());
    }
}

fn default_style() -> TableStyle {
    TableStyle {
        bars: true,
        ascii: false,
        width: 40,
        exact: false,
        percentiles: report::parse_percentiles("5,25,50,75,95").unwrap_or_default(),
    }
}

/// `alea repl dice`: statements run when their `;` or the end of the line arrives; the mode is
/// the exact distribution (as `alea dice`) until `:roll`, `:eval` or `:tree` changes it.
pub fn repl() -> ExitCode {
    let mut session = Session::new(SessionOptions::default(), os_seed());
    let display = Display {
        json: false,
        compare: false,
        exact: false,
        style: default_style(),
        threshold: CalcOptions::default().threshold,
    };
    let handle = move |text: &str| -> ReplStep {
        let file = SourceFile::new("<repl>", text.to_string());
        if let Some(rest) = text.trim().strip_prefix(':') {
            let (cmd, arg) = rest.split_once(' ').unwrap_or((rest, ""));
            return ReplStep::Done(repl_command(&mut session, cmd, arg.trim()));
        }
        // Parsing, running and dropping a deeply nested statement recurse as deep as it
        // nests: on the big stack, as `alea dice` and `dicelab` do.
        let session = &mut session;
        let display = &display;
        alea_dicelab::with_big_stack(move || {
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
                let report = session.run(statement);
                let (_, error) = display.show(&file, statement, &report, &mut out);
                if let Some(d) = error {
                    out.extend_from_slice(render(&file, &d).as_bytes());
                }
            }
            ReplStep::Done(String::from_utf8_lossy(&out).into_owned())
        })
    };
    common::run_repl(Repl {
        name: "dice",
        help: REPL_HELP,
        handle: Box::new(handle),
    })
}

const REPL_HELP: &str = "Type a dicelab statement, e.g. sum(3#d6) or count >4 5#d6.
A statement may span lines: it runs once it is complete.
:calc                     the exact distribution (the default mode, as alea dice)
:roll, :eval [N], :tree   roll once, simulate N rolls (default 1000000), toggle the tree
:seed N                   reseed the generator
:quit                     leave";

/// A REPL `:command`; returns what to print.
fn repl_command(session: &mut Session, cmd: &str, arg: &str) -> String {
    let modes = &mut session.options.modes;
    match cmd {
        "calc" => {
            (modes.calc, modes.roll, modes.eval) = (true, false, false);
            "mode: calc (exact distribution)".to_string()
        }
        "roll" => {
            (modes.calc, modes.roll, modes.eval) = (false, true, false);
            "mode: roll".to_string()
        }
        "eval" => {
            let rolls = if arg.is_empty() {
                Ok(DEFAULT_ROLLS)
            } else {
                match split_eval_value(arg) {
                    Ok(n) => alea_dicelab::check_rolls(n),
                    Err(_) => Err(format!("usage: :eval [N] (got '{arg}')")),
                }
            };
            match rolls {
                Ok(n) => {
                    (modes.calc, modes.roll, modes.eval) = (false, false, true);
                    session.options.rolls = n;
                    format!("mode: eval ({n} rolls)")
                }
                Err(msg) => msg,
            }
        }
        "tree" => {
            modes.tree = !modes.tree;
            format!("tree: {}", if modes.tree { "on" } else { "off" })
        }
        "seed" => match arg.parse::<u64>() {
            Ok(n) => {
                session.reseed(n);
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
    let mut session = Runner::new(&opts);
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
fn run_report(args: &Args, rolls: Option<u64>, files: &[SourceFile]) -> u8 {
    let threshold = adjust_threshold(args.threshold);
    let want_eval = rolls.is_some();
    let options = SessionOptions {
        modes: Modes {
            tree: args.print_tree,
            roll: args.roll,
            calc: args.calc || !(args.roll || want_eval || args.print_tree),
            eval: want_eval,
        },
        rolls: rolls.unwrap_or(DEFAULT_ROLLS),
        calc: CalcOptions {
            threshold,
            ..CalcOptions::default()
        },
    };
    let mut runner = Runner {
        session: Session::new(options, args.seed.unwrap_or_else(os_seed)),
        status: 0,
        dicelab_format: false,
    };
    let mut statements = Vec::new();
    for file in files {
        let (program, diagnostics) = alea_dicelab::parse(file);
        if args.json && !diagnostics.is_empty() {
            common::print_json_diagnostics(Some(file), &diagnostics);
        }
        runner.syntax_errors(file, &diagnostics);
        statements.extend(program.statements.into_iter().map(|s| (file, s)));
    }
    if runner.status != 0 {
        return runner.status;
    }
    let percentiles = match report::parse_percentiles(&args.percentiles) {
        Ok(p) => p,
        Err(msg) => {
            let _ = common::usage_error(msg);
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
    let display = Display {
        json: args.json,
        compare: args.compare,
        exact: args.exact,
        style: TableStyle {
            bars: !args.no_bars,
            ascii: args.ascii,
            width: args.width.clamp(1, 1000),
            exact: args.exact,
            percentiles,
        },
        threshold,
    };
    // The distributions drawn by --plot and compared by --compare: calc's when asked for.
    let mut charted: Vec<Analysis> = Vec::new();
    let mut out = common::stdout();
    for (file, statement) in &statements {
        // Sampling and big exact distributions can take seconds: a spinner on a terminal.
        let report = {
            let _progress = common::Progress::spinner(match rolls {
                Some(n) => format!("sampling {n} rolls"),
                None => "calculating".to_string(),
            });
            runner.session.run(statement)
        };
        let (analysis, error) = display.show(file, statement, &report, &mut out);
        charted.extend(analysis);
        if let Some(d) = error {
            let _ = out.flush();
            runner.eprint(file, &d);
            runner.fail(EXIT_RUNTIME);
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
            // Not a usage error: `alea dice` exits 1 (docs/cli.md).
            runner.fail(EXIT_RUNTIME);
        }
    }
    let _ = out.flush();
    runner.status
}
