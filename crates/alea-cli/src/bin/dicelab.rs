//! `dicelab`: a drop-in replacement for dicelab 0.7 (dicelab.md §7).
//!
//! Options are parsed as glibc's `getopt_long` does (bundled short options, unambiguous
//! prefixes of long options, arguments split on spaces first so `#!` lines work); the
//! messages and exit codes are 0.7's.
#![forbid(unsafe_code)]
#![allow(clippy::print_stdout, clippy::print_stderr)]

use alea_cli::cmd::dice::{DicelabOptions, USAGE, VERSION, run_dicelab};
use std::process::ExitCode;

/// Outcome of option parsing: run, or exit now with a status.
enum Parsed {
    Run(DicelabOptions),
    Exit(u8),
}

const LONG: [(&str, char, bool); 10] = [
    ("help", 'h', false),
    ("version", 'v', false),
    ("calc", 'c', false),
    ("roll", 'r', false),
    ("eval", 'e', false),
    ("count", 'n', true),
    ("print-tree", 'p', false),
    ("threshold", 't', true),
    ("file", 'f', true),
    ("seed", 'S', true),
];

fn usage_exit() -> Parsed {
    eprint!("{USAGE}");
    Parsed::Exit(1)
}

/// C `atoi`: optional spaces, sign, digits; stops at the first non-digit; 0 when none.
fn atoi(s: &str) -> i64 {
    let s = s.trim_start();
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut v: i64 = 0;
    for b in digits.bytes().take_while(u8::is_ascii_digit) {
        v = v.saturating_mul(10).saturating_add(i64::from(b - b'0'));
    }
    let v = if neg { -v } else { v };
    // atoi returns an int: keep the low 32 bits as glibc's strtol-then-cast does.
    i64::from(v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

/// C `atof` of the longest numeric prefix (0 when none), stored as f32.
fn atof(s: &str) -> f32 {
    let s = s.trim_start();
    let candidate: String = s
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'e' | 'E'))
        .collect();
    (1..=candidate.len())
        .rev()
        .find_map(|i| candidate[..i].parse::<f64>().ok())
        .unwrap_or(0.0) as f32
}

fn apply(opts: &mut DicelabOptions, prog: &str, short: char, arg: Option<&str>) -> Option<Parsed> {
    match short {
        'h' | '?' => return Some(usage_exit()),
        'v' => {
            println!("{VERSION}");
            return Some(Parsed::Exit(0));
        }
        'c' => opts.calc = true,
        'r' => opts.roll = true,
        'e' => opts.eval = true,
        'p' => opts.tree = true,
        'n' => {
            let mut n = atoi(arg.unwrap_or(""));
            if n < 1 {
                eprintln!("Value for --count too low, adjusted to 1");
                n = 1;
            } else if n > 100_000_000 {
                eprintln!("Value for --count too high, adjusted to 100000000");
                n = 100_000_000;
            }
            opts.count = n as u64;
        }
        't' => {
            let mut t = atof(arg.unwrap_or(""));
            if t.is_nan() || t < f32::MIN_POSITIVE {
                eprintln!("Value for --threshold too low, adjusted");
                t = f32::MIN_POSITIVE;
            } else if t > 0.01 {
                eprintln!("Value for --threshold too high, adjusted to 0.010000");
                t = 0.01;
            }
            opts.threshold = t;
        }
        'f' => opts.file = arg.map(str::to_string),
        'S' => match arg.unwrap_or("").trim().parse::<u64>() {
            Ok(s) => opts.seed = Some(s),
            Err(_) => {
                eprintln!(
                    "{prog}: invalid value for --seed: '{}' (expected an integer from 0 to {})",
                    arg.unwrap_or(""),
                    u64::MAX
                );
                return Some(usage_exit());
            }
        },
        _ => {}
    }
    None
}

fn parse_args(raw: Vec<String>) -> Parsed {
    let prog = raw
        .first()
        .cloned()
        .unwrap_or_else(|| "dicelab".to_string());
    // 0.7 splits every argument on spaces first (so `#!/usr/bin/dicelab --calc --file` works).
    let args: Vec<String> = raw
        .iter()
        .skip(1)
        .flat_map(|a| a.split(' ').filter(|s| !s.is_empty()).map(str::to_string))
        .collect();
    let mut opts = DicelabOptions::default();
    let mut stray: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            stray.extend(args[i..].iter().cloned());
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let exact = LONG.iter().find(|(l, ..)| *l == name);
            let matches: Vec<_> = LONG.iter().filter(|(l, ..)| l.starts_with(name)).collect();
            let found = match (exact, matches.len()) {
                (Some(e), _) => e,
                (None, 1) => matches[0],
                (None, 0) => {
                    eprintln!("{prog}: unrecognized option '--{name}'");
                    return usage_exit();
                }
                (None, _) => {
                    let list: Vec<String> =
                        matches.iter().map(|(l, ..)| format!("'--{l}'")).collect();
                    eprintln!(
                        "{prog}: option '--{name}' is ambiguous; possibilities: {}",
                        list.join(" ")
                    );
                    return usage_exit();
                }
            };
            let (lname, short, takes) = *found;
            let arg = if takes {
                match inline {
                    Some(v) => Some(v.to_string()),
                    None if i < args.len() => {
                        i += 1;
                        Some(args[i - 1].clone())
                    }
                    None => {
                        eprintln!("{prog}: option '--{lname}' requires an argument");
                        return usage_exit();
                    }
                }
            } else if inline.is_some() {
                eprintln!("{prog}: option '--{lname}' doesn't allow an argument");
                return usage_exit();
            } else {
                None
            };
            if let Some(p) = apply(&mut opts, &prog, short, arg.as_deref()) {
                return p;
            }
        } else if a.len() > 1 && a.starts_with('-') {
            let chars: Vec<char> = a[1..].chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                j += 1;
                let takes = match c {
                    'n' | 't' | 'f' => true,
                    'h' | '?' | 'v' | 'c' | 'r' | 'e' | 'p' => false,
                    _ => {
                        eprintln!("{prog}: invalid option -- '{c}'");
                        return usage_exit();
                    }
                };
                let arg = if takes {
                    if j < chars.len() {
                        let rest: String = chars[j..].iter().collect();
                        j = chars.len();
                        Some(rest)
                    } else if i < args.len() {
                        i += 1;
                        Some(args[i - 1].clone())
                    } else {
                        eprintln!("{prog}: option requires an argument -- '{c}'");
                        return usage_exit();
                    }
                } else {
                    None
                };
                if let Some(p) = apply(&mut opts, &prog, c, arg.as_deref()) {
                    return p;
                }
            }
        } else {
            stray.push(a.clone());
        }
    }
    if let Some(s) = stray.first() {
        eprintln!("useless argument \"{s}\"");
        return usage_exit();
    }
    Parsed::Run(opts)
}

fn main() -> ExitCode {
    match parse_args(std::env::args().collect()) {
        Parsed::Exit(code) => ExitCode::from(code),
        Parsed::Run(opts) => ExitCode::from(run_dicelab(opts)),
    }
}
