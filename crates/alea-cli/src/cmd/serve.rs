//! `alea serve`: the playground web page (see `docs/playground.md`).

use crate::serve::{Config, start};
use std::process::ExitCode;

/// `alea serve [--host H] [--port P] [--open]`.
#[derive(clap::Args, Debug)]
#[command(after_help = "The page and its JSON API are documented in docs/playground.md.")]
pub struct Args {
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Interface to bind; the default keeps the playground on this machine.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

/// Runs `alea serve` until interrupted.
pub fn run(args: Args) -> ExitCode {
    let config = Config {
        host: args.host.clone(),
        port: args.port,
        ..Config::default()
    };
    let running = match start(config) {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "alea serve: cannot listen on {}:{}: {e}",
                args.host, args.port
            );
            return ExitCode::from(1);
        }
    };
    let url = format!("http://{}/", running.addr());
    // Not through common::stdout: a closed stdout must not stop the server.
    {
        use std::io::Write;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "alea playground: {url}  (Ctrl-C stops it)");
        let _ = out.flush();
    }
    if args.open {
        open_browser(&url);
    }
    // SIGTERM or Ctrl-C: stop accepting, let in-flight requests finish, exit 0.
    running.stop_on_signal();
    ExitCode::SUCCESS
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("alea serve: could not start {opener} ({e}); open {url} yourself");
    }
}
