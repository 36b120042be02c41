//! `alea blackjack`: deal, canonicalize, simulate and analyse Tetris randomizer specs
//! (docs/blackjack.md; spec §7).

use crate::common::{EXIT_FAILED, EXIT_USAGE};
use alea_blackjack::{ARCADE_PRESETS, NES_POWER_ON, Randomizer, simulate_randomizer};
use alea_blackjack::{
    Analysis, AnalysisOptions, ExactError, ExactOptions, ExactStats, Fallback, Law, Prob, Ratio,
    ResolveError, SimStats, Source, Spec, SpecError, analyse, exact, preset_names, preset_spec,
};
use alea_core::{Diagnostic, SourceFile};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[path = "blackjack_tables.rs"]
mod tables;

#[path = "blackjack_compare.rs"]
mod compare;
use compare::{compare, compare_rows};

/// Arguments of `alea blackjack`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    alea blackjack bag of I,J,L,O,S,T,Z --seed 0\n  \
    alea blackjack 'I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T' --exact\n  \
    alea blackjack tgm2 --stats --plot gaps.svg\n  \
    alea blackjack --compare 7bag 14bag tgm1 tgm2 nes\n  \
    alea blackjack nes-real --rng arcade --seed 0x8988 --frames 1\n\
    Presets: memoryless, 7bag, 14bag, tgm-ace, tgm1, tgm2, lockjaw-mtb, nes, nes-real, gameboy,\n\
    tgm3, pairs, 7+1bag, 7+2bag")]
pub struct Args {
    /// The spec (words are joined with single spaces), or a preset name. With --compare, each
    /// argument is one spec or preset.
    pub spec: Vec<String>,
    /// Use a preset by name.
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    /// Read the spec from a file (`-` for stdin), e.g. examples/blackjack/tgm2.bj.
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    pub file: Option<String>,
    /// Pieces to deal (default 28) or simulate (--stats, default 1000000).
    #[arg(short = 'n', value_name = "N")]
    pub n: Option<u64>,
    /// Seed: u64, decimal or 0x-hex (default: from the OS, reported on stderr).
    #[arg(long, value_name = "S")]
    pub seed: Option<String>,
    /// Simulated frequencies and gap (drought) statistics.
    #[arg(long, conflicts_with_all = ["exact", "canonical"])]
    pub stats: bool,
    /// Exact long-run statistics as fractions.
    #[arg(long, conflicts_with = "canonical")]
    pub exact: bool,
    /// Tail mass that cuts unbounded gap laws.
    #[arg(long, value_name = "EPS", default_value = "1/1000000")]
    pub tail: String,
    /// State limit of the (symmetry-reduced) chain for --exact.
    #[arg(long = "max-states", value_name = "M", default_value_t = 100_000)]
    pub max_states: usize,
    /// Largest recurrent class --exact solves by exact elimination (work grows with its cube).
    #[arg(long = "max-solve", value_name = "M", default_value_t = 1000)]
    pub max_solve: usize,
    /// Work limit of listing one gap law for --exact --json, in 64-bit limb multiplications
    /// (about a second by default); a refusal names the work it needs.
    #[arg(long = "max-work", value_name = "W", default_value_t = alea_blackjack::DEFAULT_MAX_WORK)]
    pub max_work: u64,
    /// Machine output on stdout.
    #[arg(long)]
    pub json: bool,
    /// Print the canonical spec and exit.
    #[arg(long)]
    pub canonical: bool,
    /// Write the gap distributions as an SVG chart (exact when possible, else simulated).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Compare several randomizers side by side.
    #[arg(long)]
    pub compare: bool,
    /// Exact drought, flood (also S/Z), game, some-piece and bagginess tables, and the counted
    /// ones beside them (simulated with the seed, -n deals, default 1000000).
    #[arg(long, conflicts_with_all = ["exact", "stats", "canonical", "compare"])]
    pub tables: bool,
    /// Exact P(gap >= K) for every piece (or --piece), for any K: computed on the chain to K
    /// itself (simulated with -n deals when no exact analysis exists).
    #[arg(long = "gap-at-least", value_name = "K", conflicts_with_all = ["exact", "stats", "canonical", "compare", "tables"])]
    pub gap_at_least: Option<u64>,
    /// Exact law of the next deals given the game's first pieces shown (e.g. I,T): the
    /// preview at the start of a game (specs and presets with a finite chain).
    #[arg(long, value_name = "LIST", conflicts_with_all = ["exact", "stats", "canonical", "compare", "tables", "gap_at_least"])]
    pub preview: Option<String>,
    /// Exact law of each of the first N deals.
    #[arg(long, value_name = "N", conflicts_with_all = ["exact", "stats", "canonical", "compare", "tables", "gap_at_least", "preview"])]
    pub early: Option<usize>,
    /// With --preview: the shown pieces are the next deals far into a game (the dealer's
    /// long-run law) rather than the game's first deals.
    #[arg(long = "long-run")]
    pub long_run: bool,
    /// With --preview: how many deals after the shown pieces (default 1).
    #[arg(long, value_name = "M", default_value_t = 1)]
    pub ahead: usize,
    /// With --gap-at-least or --tables: only this piece.
    #[arg(long, value_name = "P")]
    pub piece: Option<String>,
    /// The dealer's random numbers: `ideal` (the portable RNG of rng.md) or `arcade` (the
    /// game's own RNG, bit for bit: nes-real only; --seed is then the 16-bit LFSR state,
    /// default 0x8988, the power-on value).
    #[arg(long, value_enum, default_value = "ideal")]
    pub rng: RngKind,
    /// With --rng arcade: LFSR steps between two picks (the game steps it once per frame, so
    /// this is the number of frames each piece takes).
    #[arg(long, value_name = "F", default_value_t = 1)]
    pub frames: u32,
}

/// Which random numbers a dealer uses.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RngKind {
    /// rng.md's portable generator: the game's rule under an ideal RNG.
    Ideal,
    /// The game's own generator, reproducing its sequences from its seed.
    Arcade,
}

/// A failure with its exit status (docs/cli.md: 1 the spec or its analysis failed, 2 usage),
/// its diagnostic and the spec text it points into.
struct Failure {
    status: u8,
    diagnostic: Box<Diagnostic>,
    file: Option<SourceFile>,
}

impl Failure {
    /// The one rendering (plain: the REPL prints it as its answer).
    fn text(&self) -> String {
        match &self.file {
            Some(f) => self.diagnostic.render(f),
            None => self.diagnostic.render(&SourceFile::new("", "")),
        }
    }

    /// Prints the failure: `{"diagnostics": [...]}` on stdout with --json, else the
    /// diagnostic on stderr.
    fn report(&self, json: bool) {
        if json {
            let v = crate::common::json_diagnostics([(self.file.as_ref(), &*self.diagnostic)]);
            crate::outln!("{v}");
        } else {
            match &self.file {
                Some(f) => {
                    crate::common::eprint_diagnostics(f, std::slice::from_ref(&self.diagnostic))
                }
                None => crate::common::eprint_plain(&self.diagnostic),
            }
        }
    }
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A float as JSON (always with a fraction part or exponent, e.g. `1.0`).
fn json_f64(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| "null".into())
}

fn spec_failure(file: SourceFile, e: &SpecError) -> Failure {
    Failure {
        status: EXIT_FAILED,
        diagnostic: Box::new(e.to_diagnostic()),
        file: Some(file),
    }
}

fn plain_failure(status: u8, code: Option<&str>, message: String) -> Failure {
    let mut diagnostic = Diagnostic::error(message);
    diagnostic.code = code.map(str::to_string);
    Failure {
        status,
        diagnostic: Box::new(diagnostic),
        file: None,
    }
}

fn exact_failure(e: &ExactError) -> Failure {
    match e {
        // A name the randomizer does not deal, like an unknown option value: a usage error.
        ExactError::UnknownPiece { .. } => {
            plain_failure(EXIT_USAGE, Some(e.code()), format!("--piece: {e}"))
        }
        _ => plain_failure(EXIT_FAILED, Some(e.code()), e.to_string()),
    }
}

/// Resolves one spec text or preset name (the library's one rule, [`Source::resolve`]).
fn resolve(text: &str) -> Result<Source, Failure> {
    Source::resolve(text).map_err(|e| match e {
        ResolveError::Spec(e) => spec_failure(SourceFile::new("<spec>", text), &e),
        // An unknown name, like an unknown option value: a usage error.
        ResolveError::UnknownPreset(e) => plain_failure(EXIT_USAGE, None, e.to_string()),
    })
}

fn preset(name: &str) -> Result<Source, Failure> {
    Source::preset(name).map_err(|e| plain_failure(EXIT_USAGE, None, e.to_string()))
}

fn parse_seed(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// A seed from the operating system's randomness (via std's hasher keys) and the clock.
fn os_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    h.write_u128(t);
    h.finish()
}

/// Runs `alea blackjack`.
pub fn run(args: Args) -> ExitCode {
    let json = args.json;
    match run_inner(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            f.report(json);
            ExitCode::from(f.status)
        }
    }
}

fn targets(args: &Args) -> Result<Vec<Source>, Failure> {
    let mut out = Vec::new();
    if args.compare {
        for s in &args.spec {
            out.push(resolve(s)?);
        }
        if let Some(p) = &args.preset {
            out.push(preset(p)?);
        }
        if out.is_empty() {
            return Err(plain_failure(
                EXIT_USAGE,
                None,
                "--compare needs specs or presets".into(),
            ));
        }
        return Ok(out);
    }
    if let Some(path) = &args.file {
        if args.preset.is_some() || !args.spec.is_empty() {
            return Err(plain_failure(
                EXIT_USAGE,
                None,
                "give a spec, --preset or --file, not several".into(),
            ));
        }
        let file =
            crate::common::read_source(path).map_err(|m| plain_failure(EXIT_FAILED, None, m))?;
        return match Spec::parse(file.text()) {
            Ok(s) => Ok(vec![Source::Spec(s)]),
            Err(e) => Err(spec_failure(file, &e)),
        };
    }
    match (&args.preset, args.spec.is_empty()) {
        (Some(_), false) => Err(plain_failure(
            EXIT_USAGE,
            None,
            "give either a spec or --preset, not both".into(),
        )),
        (Some(p), true) => Ok(vec![preset(p)?]),
        (None, true) => Err(plain_failure(
            EXIT_USAGE,
            None,
            "no spec given; try 'alea blackjack bag of I,J,L,O,S,T,Z' or --preset tgm2".into(),
        )),
        (None, false) => Ok(vec![resolve(&args.spec.join(" "))?]),
    }
}

/// The arcade dealer that `--rng arcade` asks for, after checking the options it allows.
fn arcade_dealer(args: &Args, targets: &[Source]) -> Result<Randomizer, Failure> {
    if args.compare || args.exact || args.canonical {
        return Err(plain_failure(
            EXIT_USAGE,
            None,
            "--rng arcade deals and simulates (--stats); --exact, --compare and --canonical \
             assume the ideal RNG"
                .into(),
        ));
    }
    let name = match &targets[0] {
        Source::Builtin(n) => *n,
        Source::Spec(_) => {
            return Err(plain_failure(
                EXIT_USAGE,
                None,
                format!(
                    "--rng arcade needs a preset with a documented arcade RNG ({})",
                    ARCADE_PRESETS.join(", ")
                ),
            ));
        }
    };
    let state = match &args.seed {
        Some(s) => parse_seed(s).ok_or_else(|| {
            plain_failure(
                EXIT_USAGE,
                None,
                format!("invalid --seed '{s}' (expected a u64, decimal or 0x-hex)"),
            )
        })?,
        None => u64::from(NES_POWER_ON),
    };
    Randomizer::preset_arcade(name, state, args.frames)
        .map_err(|e| plain_failure(EXIT_USAGE, None, e.to_string()))
}

fn run_inner(args: Args) -> Result<(), Failure> {
    if args.long_run && args.preview.is_none() {
        // Checked here: clap's `requires` lets it pass next to --early, which conflicts
        // with --preview.
        return Err(plain_failure(
            EXIT_USAGE,
            None,
            "--long-run goes with --preview (the next pieces shown far into a game)".into(),
        ));
    }
    let targets = targets(&args)?;
    if args.rng == RngKind::Arcade {
        let dealer = arcade_dealer(&args, &targets)?;
        let label = format!("{} --rng arcade", targets[0].label());
        let stdout = io::stdout();
        let mut out = BufWriter::new(stdout.lock());
        let seed = dealer_seed(&args);
        let result = if args.stats || args.plot.is_some() {
            let stats = simulate_randomizer(dealer, args.n.unwrap_or(1_000_000));
            let a = Analysis {
                label,
                pieces: stats.pieces.clone(),
                law: Law::Simulated {
                    stats,
                    seed,
                    why: None,
                },
            };
            if let Some(path) = &args.plot {
                write_plot(
                    path,
                    &format!("gap distribution: {}", a.label),
                    &piece_series(&a),
                )?;
            }
            print_analysis(&mut out, &a, args.json)
        } else {
            deal_with(
                &mut out,
                dealer,
                &label,
                seed,
                args.n.unwrap_or(28),
                args.json,
            )
        };
        return finish(result, &mut out);
    }
    let tail = Ratio::parse(&args.tail)
        .filter(|t| !t.is_zero() && *t < Ratio::one())
        .ok_or_else(|| {
            plain_failure(
                EXIT_USAGE,
                None,
                format!(
                    "invalid --tail '{}' (expected a fraction between 0 and 1, e.g. 1/1000000)",
                    args.tail
                ),
            )
        })?;
    let opts = ExactOptions {
        tail,
        max_states: args.max_states,
        max_solve: args.max_solve,
        max_work: args.max_work,
        ..ExactOptions::default()
    };
    let (seed, seed_from_os) = match &args.seed {
        Some(s) => (
            parse_seed(s).ok_or_else(|| {
                plain_failure(
                    EXIT_USAGE,
                    None,
                    format!("invalid --seed '{s}' (expected a u64, decimal or 0x-hex)"),
                )
            })?,
            false,
        ),
        None => (os_seed(), true),
    };
    let report_seed = || {
        if seed_from_os && !args.json {
            eprintln!("seed: {seed}");
        }
    };
    if !args.json && !args.canonical {
        for t in &targets {
            if let Source::Spec(spec) = t {
                for w in spec.warnings() {
                    eprintln!("warning: {w}");
                }
            }
        }
    }
    let mut out = BufWriter::new(crate::common::stdout());
    let io_result = if args.compare {
        let stats_n = args.n.unwrap_or(1_000_000);
        if args.stats {
            report_seed();
        }
        let rows = {
            let _progress = crate::common::Progress::spinner(format!(
                "analysing {} randomizers",
                targets.len()
            ));
            // The text table reads P(gap >= 12) and the spread: twelve listed gaps suffice.
            let opts = if args.json || args.plot.is_some() {
                opts.clone()
            } else {
                ExactOptions {
                    list_gaps: Some(12),
                    ..opts.clone()
                }
            };
            compare_rows(&targets, &opts, args.stats, seed, stats_n)?
        };
        compare(&mut out, &rows, &args)
    } else {
        let target = &targets[0];
        if args.canonical {
            return canonical(&mut out, target, args.json);
        }
        if args.tables
            || args.preview.is_some()
            || args.early.is_some()
            || args.gap_at_least.is_some()
        {
            return tables::run(&args, target, &opts, seed, &report_seed, &mut out);
        }
        let plot_only = args.plot.is_some() && !args.stats && !args.exact;
        if args.exact || args.stats || plot_only {
            // The text report lists no gap law (frequency, Kac's mean and the longest gap
            // need none), and no report of one randomizer shows E[gap²]: with many rolls
            // each listed gap costs thousands of digits.
            let exact = ExactOptions {
                list_gaps: (!args.json && args.plot.is_none()).then_some(0),
                second_moment: false,
                ..opts.clone()
            };
            let analysis_opts = AnalysisOptions {
                exact,
                simulate: args.stats.then(|| (seed, args.n.unwrap_or(1_000_000))),
                // A plot alone falls back to a simulated law; --exact never does.
                fallback: if plot_only {
                    Fallback::Simulate {
                        seed,
                        deals: 1_000_000,
                    }
                } else {
                    Fallback::None
                },
            };
            let a = {
                let _progress = crate::common::Progress::spinner(match analysis_opts.simulate {
                    Some((_, n)) => format!("simulating {n} pieces"),
                    None => "analysing".to_string(),
                });
                analyse(target, &analysis_opts).map_err(|e| exact_failure(&e))?
            };
            if !a.is_exact() {
                report_seed();
            }
            if let Some(path) = &args.plot {
                write_plot(
                    path,
                    &format!("gap distribution: {}", a.label),
                    &piece_series(&a),
                )?;
            }
            print_analysis(&mut out, &a, args.json)
        } else {
            report_seed();
            deal(&mut out, target, seed, args.n.unwrap_or(28), args.json)
        }
    };
    finish(io_result, &mut out)
}

/// The end of every output mode: flush, and report a write failure (status 1) except a
/// closed pipe (`alea blackjack … | head`), which is not an error.
fn finish(result: io::Result<()>, out: &mut dyn Write) -> Result<(), Failure> {
    match result.and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(plain_failure(
            EXIT_FAILED,
            None,
            format!("cannot write output: {e}"),
        )),
    }
}

fn canonical(out: &mut dyn Write, target: &Source, json: bool) -> Result<(), Failure> {
    match target {
        Source::Spec(s) => {
            let r = if json {
                writeln!(out, "{{\"spec\": {}}}", json_str(&s.to_string()))
            } else {
                writeln!(out, "{s}")
            };
            finish(r, out)
        }
        Source::Builtin(n) => Err(plain_failure(
            EXIT_USAGE,
            None,
            format!("preset '{n}' is built in and has no Blackjack form"),
        )),
    }
}

/// The arcade dealer's seed as reported: the LFSR state it starts from.
fn dealer_seed(args: &Args) -> u64 {
    args.seed
        .as_deref()
        .and_then(parse_seed)
        .unwrap_or(u64::from(NES_POWER_ON))
}

/// Streams `n` deals: constant memory for any `n`.
fn deal(out: &mut dyn Write, target: &Source, seed: u64, n: u64, json: bool) -> io::Result<()> {
    deal_with(out, target.randomizer(seed), &target.label(), seed, n, json)
}

fn deal_with(
    out: &mut dyn Write,
    mut r: Randomizer,
    label: &str,
    seed: u64,
    n: u64,
    json: bool,
) -> io::Result<()> {
    let names: Vec<String> = r.pieces().iter().map(|s| s.to_string()).collect();
    if json {
        let quoted: Vec<String> = names.iter().map(|s| json_str(s)).collect();
        write!(
            out,
            "{{\"spec\": {}, \"seed\": \"{seed}\", \"pieces\": [",
            json_str(label)
        )?;
        for i in 0..n {
            let p = r.deal();
            if i > 0 {
                out.write_all(b",")?;
            }
            out.write_all(quoted[p.0 as usize].as_bytes())?;
        }
        writeln!(out, "]}}")
    } else {
        for i in 0..n {
            let p = r.deal();
            if i > 0 {
                out.write_all(b" ")?;
            }
            out.write_all(names[p.0 as usize].as_bytes())?;
        }
        writeln!(out)
    }
}

fn print_exact(out: &mut dyn Write, e: &ExactStats, json: bool) -> io::Result<()> {
    if json {
        return writeln!(out, "{}", e.to_json());
    }
    writeln!(out, "spec: {}", e.spec)?;
    writeln!(
        out,
        "repeat probability: {} ≈ {:.6}",
        e.repeat_probability.to_plain_string(),
        e.repeat_probability.to_f64()
    )?;
    if let Some(h) = &e.from_history_probability {
        writeln!(
            out,
            "every roll hits the history: {} ≈ {:.7}",
            h.to_plain_string(),
            h.to_f64()
        )?;
    }
    writeln!(
        out,
        "{:<8} {:>12} {:>10} {:>9} {:>9}",
        "piece", "frequency", "≈", "mean gap", "max gap"
    )?;
    for (i, p) in e.pieces.iter().enumerate() {
        let g = &e.gaps[i];
        // Exact (Kac), so the cut-off tail is not dropped.
        let mean = e.mean_gap(i).to_f64();
        let max = g
            .max_gap
            .map_or_else(|| "unbounded".to_string(), |m| m.to_string());
        writeln!(
            out,
            "{:<8} {:>12} {:>10.6} {:>9.3} {:>9}",
            p,
            e.frequency[i].to_plain_string(),
            e.frequency[i].to_f64(),
            mean,
            max
        )?;
    }
    writeln!(
        out,
        "(gap laws listed to max_gap or until the tail is at most {}; --json for every fraction)",
        e.tail_limit.to_plain_string()
    )
}

fn print_stats(
    out: &mut dyn Write,
    label: &str,
    seed: u64,
    s: &SimStats,
    json: bool,
) -> io::Result<()> {
    if json {
        let map = |f: &dyn Fn(usize) -> String| -> String {
            let items: Vec<String> = s
                .pieces
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{}: {}", json_str(p), f(i)))
                .collect();
            format!("{{{}}}", items.join(", "))
        };
        let gaps = |i: usize| {
            let g = &s.gaps[i];
            let hist: Vec<String> = g
                .histogram()
                .iter()
                .map(|(gap, c)| format!("{{\"gap\":{gap},\"count\":{c}}}"))
                .collect();
            format!(
                "{{\"count\": {}, \"mean\": {}, \"max\": {}, \"histogram\": [{}]}}",
                g.count,
                g.mean().map_or("null".to_string(), json_f64),
                g.max.map_or("null".to_string(), |m| m.to_string()),
                hist.join(",")
            )
        };
        return writeln!(
            out,
            "{{\"spec\": {}, \"seed\": \"{seed}\", \"n\": {}, \"counts\": {}, \"frequency\": {}, \
             \"repeat_rate\": {}, \"gaps\": {}}}",
            json_str(label),
            s.n,
            map(&|i| s.counts[i].to_string()),
            map(&|i| json_f64(s.frequency(i))),
            json_f64(s.repeat_rate()),
            map(&gaps)
        );
    }
    writeln!(out, "spec: {label}")?;
    writeln!(out, "seed: {seed}, {} pieces simulated", s.n)?;
    writeln!(out, "repeat rate: {:.6}", s.repeat_rate())?;
    writeln!(
        out,
        "{:<8} {:>10} {:>10} {:>9} {:>12}",
        "piece", "count", "frequency", "mean gap", "longest gap"
    )?;
    for (i, p) in s.pieces.iter().enumerate() {
        let g = &s.gaps[i];
        writeln!(
            out,
            "{:<8} {:>10} {:>10.6} {:>9} {:>12}",
            p,
            s.counts[i],
            s.frequency(i),
            g.mean().map_or("-".to_string(), |m| format!("{m:.3}")),
            g.max.map_or("-".to_string(), |m| m.to_string())
        )?;
    }
    writeln!(out, "gap histogram (gap: count), first 16 gaps per piece:")?;
    for (i, p) in s.pieces.iter().enumerate() {
        let h: Vec<String> = s.gaps[i]
            .histogram()
            .iter()
            .take(16)
            .map(|(g, c)| format!("{g}:{c}"))
            .collect();
        writeln!(out, "  {p}: {}", h.join(" "))?;
    }
    Ok(())
}

fn print_analysis(out: &mut dyn Write, a: &Analysis, json: bool) -> io::Result<()> {
    match &a.law {
        Law::Exact(e) => print_exact(out, e, json),
        Law::Simulated { stats, seed, .. } => print_stats(out, &a.label, *seed, stats, json),
    }
}

/// One line per piece: P(gap = g).
fn piece_series(a: &Analysis) -> Vec<(String, Vec<f64>)> {
    (0..a.pieces.len())
        .map(|i| {
            let law = a.gap_law(i).iter().map(Prob::to_f64).collect();
            (a.pieces[i].clone(), law)
        })
        .collect()
}

/// Gap laws as an SVG line chart (alea-plot), one line per series, to the longest law.
fn gap_chart(title: &str, lines: &[(String, Vec<f64>)]) -> String {
    line_chart(title, "gap (pieces dealt in between)", "probability", lines)
}

/// An SVG line chart (alea-plot), one line per series, to the longest series (0 past a
/// series' end).
fn line_chart(title: &str, x_label: &str, y_label: &str, lines: &[(String, Vec<f64>)]) -> String {
    let longest = lines.iter().map(|l| l.1.len()).max().unwrap_or(1).max(1);
    alea_plot::Chart {
        title: title.to_string(),
        x_label: x_label.into(),
        y_label: y_label.into(),
        kind: alea_plot::ChartKind::Lines,
        categories: (0..longest).map(|g| g.to_string()).collect(),
        series: lines
            .iter()
            .map(|(name, law)| alea_plot::Series {
                name: name.clone(),
                values: (0..longest)
                    .map(|g| law.get(g).copied().unwrap_or(0.0))
                    .collect(),
            })
            .collect(),
    }
    .to_svg()
}

fn write_plot(path: &PathBuf, title: &str, lines: &[(String, Vec<f64>)]) -> Result<(), Failure> {
    write_svg(path, &gap_chart(title, lines))
}

/// Writes a chart to `--plot PATH` (status 1 when it cannot).
fn write_svg(path: &PathBuf, svg: &str) -> Result<(), Failure> {
    std::fs::write(path, svg).map_err(|e| {
        plain_failure(
            EXIT_FAILED,
            None,
            format!("cannot write {}: {e}", path.display()),
        )
    })
}

/// The seed's examples, by their names on the original page.
pub const EXAMPLES: [(&str, &str); 12] = [
    ("Random Generator", "bag of I,J,L,O,S,T,Z"),
    ("14-piece bag", "bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z"),
    (
        "14-piece bag, dealt halfway",
        "7 bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
    ),
    ("Memoryless", "I,J,L,O,S,T,Z"),
    (
        "Memoryless including small pieces",
        "I,J,L,O,S,T,Z,I2,I3,L3",
    ),
    (
        "Memoryless more difficult (10% I)",
        "I,I,J,J,J,L,L,L,O,O,O,S,S,S,T,T,T,Z,Z,Z",
    ),
    ("SZSZ", "S,Z"),
    ("Move to Back", "I,J,L,O,S,T,Z with 4 history"),
    ("SZSZ alternating", "S,Z with 1 history"),
    (
        "TGM1 randomizer",
        "I,J,L,O,S,T,Z with 4 history 4 rolls first I,J,L,T",
    ),
    (
        "TGM2/3 randomizer",
        "I,J,L,O,S,T,Z with 4 history 6 rolls first I,J,L,T",
    ),
    (
        "Lardarse's more difficult",
        "5 bag of I,T,J,J,L,L,O,O,S,S,S,Z,Z,Z",
    ),
];

const REPL_HELP: &str = "Type a spec (or a preset name) to see its canonical form and a deal.\n\
  :seed S        set the seed (default 0; each deal continues the stream)\n\
  :n N           pieces per deal (default 28)\n\
  :exact SPEC    exact statistics\n\
  :stats SPEC    simulated statistics (1000000 pieces)\n\
  :presets       list the presets";

/// `alea repl blackjack`.
pub fn repl() -> ExitCode {
    let mut seed: u64 = 0;
    let mut n: u64 = 28;
    let handle = move |text: &str| -> crate::common::ReplStep {
        crate::common::ReplStep::Done(repl_line(text, &mut seed, &mut n))
    };
    crate::common::run_repl(crate::common::Repl {
        name: "blackjack",
        help: REPL_HELP,
        handle: Box::new(handle),
    })
}

fn render(f: Failure) -> String {
    f.text()
}

/// One REPL line: the printed answer.
fn repl_line(text: &str, seed: &mut u64, n: &mut u64) -> String {
    let text = text.trim();
    let mut buf: Vec<u8> = Vec::new();
    let (cmd, rest) = match text.strip_prefix(':') {
        Some(c) => c.split_once(' ').unwrap_or((c, "")),
        None => ("", text),
    };
    match cmd {
        "seed" => match parse_seed(rest) {
            Some(s) => {
                *seed = s;
                format!("seed: {s}")
            }
            None => "error: expected a u64 seed".to_string(),
        },
        "n" => match rest.trim().parse::<u64>() {
            Ok(v) if v <= 100_000 => {
                *n = v;
                format!("n: {v}")
            }
            _ => "error: expected a count up to 100000".to_string(),
        },
        "presets" => preset_names().join(" "),
        "exact" => match resolve(rest) {
            Ok(t) => match t.exact(&ExactOptions::default()) {
                Ok(e) => {
                    let _ = print_exact(&mut buf, &e, false);
                    String::from_utf8_lossy(&buf).into_owned()
                }
                Err(e) => render(exact_failure(&e)),
            },
            Err(f) => render(f),
        },
        "stats" => match resolve(rest) {
            Ok(t) => {
                let opts = AnalysisOptions {
                    simulate: Some((*seed, 1_000_000)),
                    ..AnalysisOptions::default()
                };
                if let Ok(a) = analyse(&t, &opts) {
                    let _ = print_analysis(&mut buf, &a, false);
                }
                String::from_utf8_lossy(&buf).into_owned()
            }
            Err(f) => render(f),
        },
        "" => match resolve(rest) {
            Ok(t) => {
                let _ = writeln!(buf, "{}", t.label());
                let _ = deal(&mut buf, &t, *seed, *n, false);
                *seed = seed.wrapping_add(1);
                String::from_utf8_lossy(&buf).into_owned()
            }
            Err(f) => render(f),
        },
        other => format!("unknown command ':{other}'; :help lists the commands"),
    }
}

/// Runs the built-in examples of the language for `alea tour`: every example of the seed page
/// with its canonical form and a short deal (seed 0), then the presets.
pub fn tour(out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "Blackjack specs name a list of pieces and a rule for dealing them (seed 0, 21 pieces):"
    )?;
    for (name, text) in EXAMPLES {
        let spec = Spec::parse(text).map_err(io::Error::other)?;
        writeln!(out, "\n{name}\n  {spec}")?;
        write!(out, "  ")?;
        deal(out, &Source::Spec(spec), 0, 21, false)?;
    }
    writeln!(out, "\nPresets (alea blackjack --preset NAME):")?;
    for name in preset_names() {
        let t = preset(name).map_err(|f| io::Error::other(f.text()))?;
        let shown = match &t {
            Source::Spec(s) => s.to_string(),
            Source::Builtin(_) => "(built-in dealer)".to_string(),
        };
        write!(out, "  {name:<12} {shown}\n               ")?;
        deal(out, &t, 0, 21, false)?;
    }
    let tgm2 = Spec::parse(preset_spec("tgm2").unwrap_or_default()).map_err(io::Error::other)?;
    let e = exact(&tgm2, &ExactOptions::default()).map_err(io::Error::other)?;
    writeln!(
        out,
        "\nExact: in TGM2 every roll hits the history with probability {} ≈ {:.7}.",
        e.from_history_probability
            .clone()
            .unwrap_or_else(Ratio::zero)
            .to_plain_string(),
        e.from_history_probability
            .as_ref()
            .map_or(0.0, |r| r.to_f64())
    )?;
    writeln!(out, "Error example:")?;
    let bad = "I,J,L,O,S,T,Z with 7 history";
    if let Err(e) = Spec::parse(bad) {
        write!(
            out,
            "{}",
            spec_failure(SourceFile::new("<spec>", bad), &e).text()
        )?;
    }
    Ok(())
}
