//! `alea cards`: hand evaluation and equity for people (docs/cards.md).
//!
//! * `alea cards eval "As Ks Qs Js Ts"`: category, name, rank (1‥7462), pokerval, best five;
//! * `alea cards equity AhKh --board "Qh Jh 2c" --opponents 3`: win/tie/lose, exact when the
//!   deals are few, else seeded Monte Carlo with a 95 % confidence interval.
//!
//! Results go to stdout, errors to stderr (`<board>:1:4: error: …`, the text and a caret).
//! Exit status (docs/cli.md): 0 success, 1 when the cards are invalid, 2 usage errors. With
//! `--json`, errors are `{"diagnostics": [...]}` on stdout.

use crate::common;
use alea_cards::{
    Card, EXACT_MAX_DEALS, Equity, EquityRequest, MAX_ITERATIONS, Method, Tally, best_five_cards,
    enumerate, equity, format_cards, parse_cards, simulate,
};
use alea_core::{Diagnostic, SourceFile, Span};
use serde_json::{Value, json};
use std::io::{self, Write};
use std::process::ExitCode;

/// Default Monte Carlo iterations of `alea cards equity`.
pub const DEFAULT_ITERATIONS: u64 = 100_000;

/// Arguments of `alea cards`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  alea cards eval \"As Ks Qs Js Ts\"\n  \
alea cards eval \"A♠ K♥ K♦ 7♣ 7♥ 2♦ 10♣\" --json\n  \
alea cards equity AhKh --board \"Qh Jh 2c\" --opponents 3\n  \
alea cards equity \"Ad Ac\" --vs \"Kh Ks\"")]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The `alea cards` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Evaluate 5, 6 or 7 cards: category, name, rank, pokerval, best five.
    Eval {
        /// The cards: `As Ks Qs Js Ts`, `AsKsQsJsTs`, `A♠ K♠ Q♠ J♠ 10♠`.
        cards: String,
        /// Names in this language (`en` or `de`).
        #[arg(long, default_value = "en")]
        lang: String,
        /// One JSON object on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Win/tie/lose probabilities of two hole cards against opponents.
    Equity {
        /// The hero's two hole cards: `AhKh`, `"A♥ K♥"`.
        hero: String,
        /// 0, 3, 4 or 5 board cards (any count up to 5).
        #[arg(long, default_value = "")]
        board: String,
        /// Opponents with random hole cards (default 1, or 0 with --vs).
        #[arg(long)]
        opponents: Option<usize>,
        /// An opponent with known hole cards (repeatable): `--vs "Kh Ks"`.
        #[arg(long = "vs", value_name = "CARDS")]
        known: Vec<String>,
        /// Monte Carlo iterations.
        #[arg(long, default_value_t = DEFAULT_ITERATIONS)]
        iterations: u64,
        /// Monte Carlo seed (task i uses stream i of it).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Always simulate, even when exact enumeration is cheap.
        #[arg(long)]
        monte_carlo: bool,
        /// One JSON object on stdout.
        #[arg(long)]
        json: bool,
    },
}

/// Runs `alea cards`.
pub fn run(args: Args) -> ExitCode {
    let mut out = common::stdout();
    let json = match &args.command {
        Command::Eval { json, .. } | Command::Equity { json, .. } => *json,
    };
    let result = match args.command {
        Command::Eval { cards, lang, json } => eval(&mut out, &cards, &lang, json),
        Command::Equity {
            hero,
            board,
            opponents,
            known,
            iterations,
            seed,
            monte_carlo,
            json,
        } => {
            let opts = EquityArgs {
                iterations,
                seed,
                monte_carlo,
                json,
            };
            equity_cmd(&mut out, &hero, &board, opponents, &known, &opts)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if json {
                let v = common::json_diagnostics([(f.file.as_ref(), &*f.diagnostic)]);
                crate::outln!("{v}");
            } else {
                match &f.file {
                    Some(file) => common::eprint_diagnostics(file, &[*f.diagnostic]),
                    None => common::eprint_plain(&f.diagnostic),
                }
            }
            ExitCode::from(f.status)
        }
    }
}

/// Why a card command failed: the diagnostic, the argument text it points into, the status.
#[derive(Debug)]
struct Failure {
    status: u8,
    file: Option<SourceFile>,
    diagnostic: Box<Diagnostic>,
}

impl Failure {
    fn usage(message: String) -> Failure {
        Failure {
            status: common::EXIT_USAGE,
            ..Failure::from(message)
        }
    }
}

/// Invalid cards or hands: the data failed.
impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure {
            status: common::EXIT_FAILED,
            file: None,
            diagnostic: Box::new(Diagnostic::error(message)),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.file {
            Some(file) => f.write_str(&self.diagnostic.render(file)),
            None => write!(f, "{}", self.diagnostic),
        }
    }
}

/// `alea repl cards` is not a language REPL; point people at the subcommands.
pub fn repl() -> ExitCode {
    eprintln!("alea cards has no REPL: use `alea cards eval CARDS` or `alea cards equity HERO`");
    ExitCode::from(2)
}

/// Parses card text, rendering a parse error as a diagnostic against the text.
fn cards_arg(name: &str, text: &str) -> Result<Vec<Card>, Failure> {
    parse_cards(text).map_err(|e| {
        let file = SourceFile::new(format!("<{name}>"), text.to_string());
        let end = text[e.at..]
            .chars()
            .next()
            .map_or(e.at, |c| e.at + c.len_utf8());
        Failure {
            status: common::EXIT_FAILED,
            diagnostic: Box::new(Diagnostic::error(e.message).with_span(Span::new(e.at, end))),
            file: Some(file),
        }
    })
}

fn io_err(e: io::Error) -> Failure {
    Failure::from(format!("cannot write output: {e}"))
}

fn eval(out: &mut dyn Write, text: &str, lang: &str, json: bool) -> Result<(), Failure> {
    let cards = cards_arg("cards", text)?;
    let (best, rank) = best_five_cards(&cards).map_err(|e| e.to_string())?;
    let german = lang.eq_ignore_ascii_case("de") || lang.to_ascii_lowercase().starts_with("de-");
    let category = rank.category();
    let (category_name, name) = if german {
        (category.name_de(), rank.name_de())
    } else {
        (category.name(), rank.name())
    };
    if json {
        let v = json!({
            "cards": cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "best": best.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "category": category_name,
            "type": category.identifier(),
            "name": name,
            "rank": rank.value(),
            "pokerval": rank.pokerval(),
            "value": rank.ez_value(),
        });
        writeln!(out, "{v}").map_err(io_err)
    } else {
        let lines = [
            format!("cards     {}", format_cards(&cards, true)),
            format!("best      {}", format_cards(&best, true)),
            format!("category  {category_name}"),
            format!("name      {name}"),
            format!("rank      {} of 7462", rank.value()),
            format!("pokerval  0x{:08X}", rank.pokerval()),
        ];
        writeln!(out, "{}", lines.join("\n")).map_err(io_err)
    }
}

struct EquityArgs {
    iterations: u64,
    seed: u64,
    monte_carlo: bool,
    json: bool,
}

fn equity_cmd(
    out: &mut dyn Write,
    hero: &str,
    board: &str,
    opponents: Option<usize>,
    known: &[String],
    opts: &EquityArgs,
) -> Result<(), Failure> {
    let hero_cards = cards_arg("hero", hero)?;
    let hero: [Card; 2] = hero_cards
        .as_slice()
        .try_into()
        .map_err(|_| format!("the hero needs 2 cards, found {}", hero_cards.len()))?;
    let board = cards_arg("board", board)?;
    let mut known_hands = Vec::new();
    for k in known {
        let cards = cards_arg("vs", k)?;
        let hand: [Card; 2] = cards
            .as_slice()
            .try_into()
            .map_err(|_| format!("--vs needs 2 cards, found {} in '{k}'", cards.len()))?;
        known_hands.push(hand);
    }
    let random = opponents.unwrap_or(if known_hands.is_empty() { 1 } else { 0 });
    let req = EquityRequest {
        hero,
        board,
        known: known_hands,
        random,
    };
    if !(1..=MAX_ITERATIONS).contains(&opts.iterations) {
        return Err(Failure::usage(format!(
            "--iterations must be between 1 and {MAX_ITERATIONS}"
        )));
    }
    let result = common::with_progress(
        || format!("computing equity ({})", describe_request(&req)),
        || {
            if opts.monte_carlo {
                simulate(&req, opts.iterations, opts.seed).map(|tally| Equity {
                    tally,
                    method: Method::MonteCarlo { seed: opts.seed },
                })
            } else if req.validate().is_ok() && req.deals() <= EXACT_MAX_DEALS {
                enumerate(&req).map(|tally| Equity {
                    tally,
                    method: Method::Exact,
                })
            } else {
                equity(&req, opts.iterations, opts.seed)
            }
        },
    )
    .map_err(|e| e.to_string())?;
    if opts.json {
        writeln!(out, "{}", equity_json(&req, &result)).map_err(io_err)
    } else {
        write!(out, "{}", equity_text(&req, &result)).map_err(io_err)
    }
}

fn describe_request(req: &EquityRequest) -> String {
    let mut s = format!("hero {}", format_cards(&req.hero, true));
    if !req.board.is_empty() {
        s += &format!(", board {}", format_cards(&req.board, true));
    }
    for k in &req.known {
        s += &format!(", vs {}", format_cards(k, true));
    }
    if req.random > 0 {
        let plural = if req.random == 1 { "" } else { "s" };
        s += &format!(", {} random opponent{plural}", req.random);
    }
    s
}

fn equity_text(req: &EquityRequest, e: &Equity) -> String {
    let t: &Tally = &e.tally;
    let mut s = describe_request(req) + "\n";
    match e.method {
        Method::Exact => s += &format!("exact: {} deals enumerated\n", t.total),
        Method::MonteCarlo { seed } => {
            s += &format!(
                "Monte Carlo: {} iterations, seed {seed}, ± is a 95 % interval\n",
                t.total
            )
        }
    }
    let row = |name: &str, p: f64| match e.method {
        Method::Exact => format!("{name:<7}{:>9.4} %\n", 100.0 * p),
        Method::MonteCarlo { .. } => {
            format!(
                "{name:<7}{:>9.4} % ± {:.4}\n",
                100.0 * p,
                100.0 * e.margin(p)
            )
        }
    };
    s += &row("win", t.win());
    s += &row("tie", t.tie());
    s += &row("lose", t.lose());
    s += &row("equity", t.equity());
    s
}

fn equity_json(req: &EquityRequest, e: &Equity) -> Value {
    let t = &e.tally;
    let (method, seed) = match e.method {
        Method::Exact => ("exact", Value::Null),
        Method::MonteCarlo { seed } => ("monte-carlo", json!(seed)),
    };
    json!({
        "hero": req.hero.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "board": req.board.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "known": req.known.iter().map(|h| format_cards(h, false)).collect::<Vec<_>>(),
        "random": req.random,
        "method": method,
        "seed": seed,
        "deals": t.total,
        "wins": t.wins,
        "ties": t.ties,
        "losses": t.losses,
        "win": t.win(),
        "tie": t.tie(),
        "lose": t.lose(),
        "equity": t.equity(),
        "margin": e.margin(t.win()),
    })
}

/// The built-in examples for `alea tour`.
pub fn tour(out: &mut dyn Write) -> io::Result<()> {
    let to_io = |e: Failure| io::Error::other(e.to_string());
    for hand in [
        "As Ks Qs Js Ts",
        "A♠ K♥ K♦ 7♣ 7♥ 2♦ 10♣",
        "5d 4c 3h 2s Ac 9d 9c",
    ] {
        writeln!(out, "$ alea cards eval \"{hand}\"")?;
        eval(out, hand, "en", false).map_err(to_io)?;
        writeln!(out)?;
    }
    let exact = EquityArgs {
        iterations: 10_000,
        seed: 0,
        monte_carlo: false,
        json: false,
    };
    writeln!(out, "$ alea cards equity AhKh --board \"Qh Jh 2c\"")?;
    equity_cmd(out, "AhKh", "Qh Jh 2c", None, &[], &exact).map_err(to_io)?;
    writeln!(out)?;
    writeln!(
        out,
        "$ alea cards equity AhKh --board \"Qh Jh 2c\" --opponents 3 --iterations 10000"
    )?;
    equity_cmd(out, "AhKh", "Qh Jh 2c", Some(3), &[], &exact).map_err(to_io)?;
    Ok(())
}
