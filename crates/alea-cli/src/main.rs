//! `alea`: one subcommand per language, a REPL, the tour of built-in examples.
#![forbid(unsafe_code)]
#![allow(clippy::print_stdout, clippy::print_stderr)]

use alea_cli::cmd;
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::process::ExitCode;

/// alea: the little languages of games of chance.
#[derive(Parser, Debug)]
#[command(name = "alea", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run every language's built-in examples.
    Tour,
    /// dicelab ("bones"): roll, simulate and analyse dice schemes.
    Dice(cmd::dice::Args),
    /// Blackjack: Tetris piece randomizers.
    Blackjack(cmd::blackjack::Args),
    /// OpenHoldem formulas against a table state.
    Holdem(cmd::holdem::Args),
    /// EZScript: tournament clock scripts and templates.
    #[command(alias = "ez")]
    Ezscript(cmd::ezscript::Args),
    /// Cards: hand evaluation and equity.
    Cards(cmd::cards::Args),
    /// The playground: one local web page for all four languages.
    Serve(cmd::serve::Args),
    /// Interactive read-eval-print loop for one language.
    Repl {
        /// Which language.
        language: Language,
    },
    /// Print a shell completion script (e.g. `alea completions bash > ~/.local/share/bash-completion/completions/alea`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) on stdout, or write one page per command into DIR.
    Man {
        /// Write alea.1 and alea-COMMAND.1 into this directory instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum Language {
    Dice,
    Blackjack,
    Holdem,
    #[value(alias = "ez")]
    Ezscript,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Tour => tour(),
        Command::Dice(a) => cmd::dice::run(a),
        Command::Blackjack(a) => cmd::blackjack::run(a),
        Command::Holdem(a) => cmd::holdem::run(a),
        Command::Ezscript(a) => cmd::ezscript::run(a),
        Command::Cards(a) => cmd::cards::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Completions { shell } => {
            let mut out = alea_cli::common::stdout();
            clap_complete::generate(shell, &mut Cli::command(), "alea", &mut out);
            let _ = out.flush();
            ExitCode::SUCCESS
        }
        Command::Man { dir } => man(dir.as_deref()),
        Command::Repl { language } => match language {
            Language::Dice => cmd::dice::repl(),
            Language::Blackjack => cmd::blackjack::repl(),
            Language::Holdem => cmd::holdem::repl(),
            Language::Ezscript => cmd::ezscript::repl(),
        },
    }
}

/// `alea man`: the page of `alea` on stdout, or every page (`alea.1`, `alea-dice.1`, …) in DIR.
fn man(dir: Option<&std::path::Path>) -> ExitCode {
    let command = Cli::command();
    let Some(dir) = dir else {
        let mut out = alea_cli::common::stdout();
        return match clap_mangen::Man::new(command).render(&mut out) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("alea man: {e}");
                alea_cli::common::failed()
            }
        };
    };
    let written =
        std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(command, dir));
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("alea man: cannot write into {}: {e}", dir.display());
            alea_cli::common::failed()
        }
    }
}

/// The README's first command: every language's built-in examples, one section each.
fn tour() -> ExitCode {
    let mut out = alea_cli::common::stdout();
    type Tour = fn(&mut dyn Write) -> std::io::Result<()>;
    let sections: [(&str, Tour); 5] = [
        ("dicelab", cmd::dice::tour),
        ("Blackjack", cmd::blackjack::tour),
        ("OpenHoldem", cmd::holdem::tour),
        ("EZScript", cmd::ezscript::tour),
        ("Cards", cmd::cards::tour),
    ];
    for (name, section) in sections {
        let _ = writeln!(out, "==== {name} ====");
        if let Err(e) = section(&mut out) {
            eprintln!("alea tour: {name}: {e}");
            return alea_cli::common::failed();
        }
        let _ = writeln!(out);
    }
    ExitCode::SUCCESS
}
