//! The measured loopback load test of `alea serve` (issue 13, "Measured"; figures in
//! docs/playground.md). It starts `alea serve --port 0` as a child process and runs four phases
//! against it, on 127.0.0.1 only, each bounded in time:
//!
//! 1. **hostile bodies**: a 200 KB `dice/check`, deep nesting in every language, huge repeat
//!    counts; every one must be answered (any status but a connection error or a 500), and the
//!    server's peak RSS (`VmHWM` of `/proc/PID/status`) is reported;
//! 2. **mixed load**: `clients` clients of cheap mixed calls (pages, every language) for
//!    `seconds`, while `heavy` clients send the slowest allowed programs (one at a time each,
//!    dropped at the end, which cancels them); every cheap call must be answered 200, and the
//!    latency percentiles of cheap calls are reported;
//! 3. **slow clients**: `slowloris` connections that trickle half a header and `slow_bodies` that
//!    promise a body and send a few bytes, while a normal request's latency is measured;
//! 4. **SIGTERM under load**: `drain` requests are in flight (running or queued) when SIGTERM
//!    arrives; every one must be answered 200 and the server must exit 0.
//!
//! ```sh
//! cargo build --release -p alea-cli --bin alea
//! cargo run --release -p alea-cli --example serve_load -- --alea target/release/alea
//! ```
//!
//! Options: `--alea PATH` (default: the `alea` next to this example's directory),
//! `--seconds S` (30), `--clients N` (50), `--heavy N` (4), `--slowloris N` (200),
//! `--slow-bodies N` (20), `--drain N` (40). The exit status is 0 when every check held.
//! `tests/serve_load_tool.rs` runs a short version (a few seconds) in `cargo test`, checking
//! correctness only, never a timing.
#![forbid(unsafe_code)]
#![allow(clippy::print_stdout, clippy::print_stderr, missing_docs)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    pub alea: PathBuf,
    pub seconds: f64,
    pub clients: usize,
    pub heavy: usize,
    pub slowloris: usize,
    pub slow_bodies: usize,
    pub drain: usize,
}

impl Options {
    /// The issue's figures: 30 s, 50 clients, 4 heavy, 200 slowloris, 20 slow bodies.
    pub fn full(alea: PathBuf) -> Options {
        Options {
            alea,
            seconds: 30.0,
            clients: 50,
            heavy: 4,
            slowloris: 200,
            slow_bodies: 20,
            drain: 40,
        }
    }
}

/// Latency percentiles in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Latency {
    pub count: usize,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

impl Latency {
    fn of(mut samples: Vec<Duration>) -> Latency {
        samples.sort();
        let at = |q: f64| {
            samples
                .get(((samples.len() as f64 * q).ceil() as usize).saturating_sub(1))
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        Latency {
            count: samples.len(),
            p50: at(0.50),
            p99: at(0.99),
            max: at(1.0),
        }
    }
}

/// Everything measured; [`Report::failures`] lists the checks that did not hold.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub load_before: String,
    pub hostile: Vec<(String, Result<u16, String>)>,
    pub rss_after_hostile_kib: Option<u64>,
    pub cheap: Latency,
    pub cheap_failed: Vec<String>,
    pub heavy_statuses: Vec<u16>,
    pub slow_normal: Latency,
    pub slow_failed: Vec<String>,
    pub drain_statuses: Vec<Result<u16, String>>,
    pub exit: Option<i32>,
    pub rss_peak_kib: Option<u64>,
    pub load_after: String,
}

impl Report {
    /// The checks that failed (empty: all held).
    pub fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (name, r) in &self.hostile {
            match r {
                Ok(500) | Err(_) => out.push(format!("hostile {name}: {r:?}")),
                Ok(_) => {}
            }
        }
        if self.rss_peak_kib.is_some_and(|k| k >= 512 * 1024) {
            out.push(format!("peak RSS {:?} KiB >= 512 MiB", self.rss_peak_kib));
        }
        out.extend(self.cheap_failed.iter().take(20).cloned());
        if self.cheap.count == 0 {
            out.push("no cheap call was made".into());
        }
        out.extend(self.slow_failed.iter().cloned());
        for r in &self.drain_statuses {
            if *r != Ok(200) {
                out.push(format!("in-flight request at SIGTERM: {r:?}"));
            }
        }
        if self.exit != Some(0) {
            out.push(format!("exit status after SIGTERM: {:?}", self.exit));
        }
        out
    }
}

/// One request on a fresh connection (`Connection: close`); returns the status and body.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    client: &str,
    body: &str,
) -> Result<(u16, String), String> {
    let mut s = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    send(&mut s, method, path, client, body)?;
    receive(&mut s)
}

fn send(
    s: &mut TcpStream,
    method: &str,
    path: &str,
    client: &str,
    body: &str,
) -> Result<(), String> {
    s.set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| e.to_string())?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Alea-Client: {client}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())
        .and_then(|()| s.write_all(body.as_bytes()))
        .map_err(|e| format!("send: {e}"))
}

fn receive(s: &mut TcpStream) -> Result<(u16, String), String> {
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("no status line in {:?}", &text[..text.len().min(80)]))?;
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    Ok((status, body))
}

/// `VmHWM` (peak resident set) of a process in KiB (Linux only).
pub fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The load average and core count, to read the figures against.
pub fn machine_load() -> String {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{cores} cores, load average {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// Starts `alea serve --port 0` and reads its address from the first line it prints.
pub fn start(alea: &PathBuf) -> Result<(Child, SocketAddr), String> {
    let mut child = Command::new(alea)
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("start {}: {e}", alea.display()))?;
    let mut line = String::new();
    let stdout = child.stdout.take().ok_or("no stdout")?;
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("no address in {line:?}"))?;
    Ok((child, addr))
}

const STATE: &str = include_str!("../../../examples/openholdem/state.json");

/// The `i`th cheap call: (method, path, body, check of the answer's JSON).
fn cheap(i: usize) -> (&'static str, &'static str, String, fn(&Value) -> bool) {
    fn ok(v: &Value) -> bool {
        v["ok"] == true
    }
    fn any(_: &Value) -> bool {
        true
    }
    match i % 7 {
        0 => ("GET", "/app.js", String::new(), any),
        1 => ("GET", "/api/health", String::new(), ok),
        2 => (
            "POST",
            "/api/dice/calc",
            json!({"programs": [format!("sum({}#d6)", 1 + i % 4), "d12"]}).to_string(),
            ok,
        ),
        3 => (
            "POST",
            "/api/dice/roll",
            json!({"program": "sum 3#d6; count >4 10#d6", "times": 10, "seed": i}).to_string(),
            ok,
        ),
        4 => (
            "POST",
            "/api/blackjack/deal",
            json!({"spec": "7bag", "seed": i, "count": 70}).to_string(),
            ok,
        ),
        5 => (
            "POST",
            "/api/holdem/run",
            json!({"formulas": "##f$a##\n1 + 2 * pot\n", "state": STATE}).to_string(),
            ok,
        ),
        _ => (
            "POST",
            "/api/ezscript/run",
            json!({"source": format!("x = {i}; (x * 2).toString")}).to_string(),
            ok,
        ),
    }
}

/// The slowest programs the limits allow: a hundred rolls that each keep the high half of ten
/// million dice (a list built and ordered per roll; a plain count over the dice is folded
/// without a list since issue 16) and a simulation that only the time limit stops (504).
fn heavy(i: usize) -> (&'static str, String) {
    if i.is_multiple_of(2) {
        (
            "/api/dice/roll",
            json!({"program": "sum(high 5000000 9999999#d6)", "times": 100}).to_string(),
        )
    } else {
        (
            "/api/dice/eval",
            json!({"program": "sum 9999999#d6", "rolls": 200000}).to_string(),
        )
    }
}

/// Bodies meant to cost the server memory or time out of proportion to their size.
fn hostile() -> Vec<(String, &'static str, String)> {
    let sum = format!("{}1", "1+".repeat(100_000));
    let parens = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    let lists = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let holdem = format!("##f$a##\n{}1{}\n", "(".repeat(100_000), ")".repeat(100_000));
    // Eight at once (one per worker) of the largest distribution the calc limit allows: the
    // memory of the server is eight times one computation's.
    let widest = (0..8).map(|i| {
        (
            format!("widest distribution on dice/calc #{i}"),
            "/api/dice/calc",
            json!({"programs": ["sum 99999999#d200000"]}).to_string(),
        )
    });
    // Eight at once of the longest list a roll may hold, each rolled as often as allowed: the
    // answer's values budget (budget::DICE_ROLLED_VALUES) stops each before it keeps 100.
    let longest = (0..8).map(|i| {
        (
            format!("longest lists on dice/roll #{i}"),
            "/api/dice/roll",
            json!({"program": "9999999#d6", "times": 100}).to_string(),
        )
    });
    widest
        .chain(longest)
        .chain([
            (
                "200 KB sum on dice/check".into(),
                "/api/dice/check",
                json!({"program": sum}).to_string(),
            ),
            (
                "200 KB nesting on dice/check".into(),
                "/api/dice/check",
                json!({"program": parens}).to_string(),
            ),
            (
                "200 KB nesting on dice/calc".into(),
                "/api/dice/calc",
                json!({"programs": [parens]}).to_string(),
            ),
            (
                "200 KB sum on dice/roll".into(),
                "/api/dice/roll",
                json!({"program": sum, "times": 100}).to_string(),
            ),
            (
                "huge repeat count on dice/roll".into(),
                "/api/dice/roll",
                json!({"program": "sum 999999999999#d6\n999999999#999999999#d6", "times": 100})
                    .to_string(),
            ),
            (
                "huge repeat count on dice/calc".into(),
                "/api/dice/calc",
                json!({"programs": ["sum 99999999#d1000000", "count >3 (99999999#(999#d6))"]})
                    .to_string(),
            ),
            (
                "huge repeat count on dice/eval".into(),
                "/api/dice/eval",
                json!({"program": "sum 9999999#d6", "rolls": 200000}).to_string(),
            ),
            (
                "200 KB nesting on ezscript/run".into(),
                "/api/ezscript/run",
                json!({"source": lists}).to_string(),
            ),
            (
                "huge repeat on ezscript/run".into(),
                "/api/ezscript/run",
                json!({"source": "s = \"xxxxxxxxxx\"; while (true) { s = s + s }"}).to_string(),
            ),
            (
                "200 KB nesting on holdem/run".into(),
                "/api/holdem/run",
                json!({"formulas": holdem, "state": STATE}).to_string(),
            ),
            (
                "huge count on blackjack/deal".into(),
                "/api/blackjack/deal",
                json!({"spec": "tgm3", "count": 10000, "seed": 1}).to_string(),
            ),
        ])
        .collect()
}

fn phase_hostile(addr: SocketAddr, pid: u32, report: &mut Report) {
    let threads: Vec<_> = hostile()
        .into_iter()
        .enumerate()
        .map(|(i, (name, path, body))| {
            std::thread::spawn(move || {
                let r = request(addr, "POST", path, &format!("hostile-{i}"), &body);
                (name, r.map(|(s, _)| s))
            })
        })
        .collect();
    for t in threads {
        report
            .hostile
            .push(t.join().unwrap_or(("?".into(), Err("panic".into()))));
    }
    let health = request(addr, "GET", "/api/health", "after-hostile", "");
    if !matches!(health, Ok((200, _))) {
        report
            .hostile
            .push(("health afterwards".into(), health.map(|(s, _)| s)));
    }
    report.rss_after_hostile_kib = peak_rss_kib(pid);
}

fn phase_mixed(addr: SocketAddr, o: &Options, report: &mut Report) {
    let stop = Arc::new(AtomicBool::new(false));
    let open_heavy: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
    let heavy_threads: Vec<_> = (0..o.heavy)
        .map(|h| {
            let (stop, open) = (Arc::clone(&stop), Arc::clone(&open_heavy));
            std::thread::spawn(move || {
                let mut statuses = Vec::new();
                let mut i = h;
                while !stop.load(Ordering::SeqCst) {
                    let (path, body) = heavy(i);
                    i += 1;
                    let Ok(mut s) = TcpStream::connect(addr) else {
                        continue;
                    };
                    if let Ok(c) = s.try_clone() {
                        open.lock().unwrap_or_else(|e| e.into_inner()).push(c);
                    }
                    if send(&mut s, "POST", path, &format!("heavy-{h}"), &body).is_ok()
                        && let Ok((status, _)) = receive(&mut s)
                    {
                        statuses.push(status);
                    }
                }
                statuses
            })
        })
        .collect();
    // Let the heavy programs occupy their workers first.
    std::thread::sleep(Duration::from_millis(300));
    let until = Instant::now() + Duration::from_secs_f64(o.seconds);
    let clients: Vec<_> = (0..o.clients)
        .map(|c| {
            std::thread::spawn(move || {
                let mut latencies = Vec::new();
                let mut failed = Vec::new();
                let mut i = c;
                while Instant::now() < until {
                    let (method, path, body, check) = cheap(i);
                    i += 1;
                    let t = Instant::now();
                    let r = request(addr, method, path, &format!("tab-{c}"), &body);
                    let took = t.elapsed();
                    match r {
                        Ok((200, text)) => {
                            let v: Value = if path.starts_with("/api/") {
                                serde_json::from_str(&text).unwrap_or(Value::Null)
                            } else {
                                Value::Null
                            };
                            if check(&v) {
                                latencies.push(took);
                            } else {
                                failed.push(format!("{path}: wrong answer {text:.120}"));
                            }
                        }
                        Ok((status, text)) => {
                            failed.push(format!("{path}: status {status} {text:.120}"))
                        }
                        Err(e) => failed.push(format!("{path}: {e}")),
                    }
                }
                (latencies, failed)
            })
        })
        .collect();
    let mut all = Vec::new();
    for c in clients {
        let (l, f) = c
            .join()
            .unwrap_or((Vec::new(), vec!["client panicked".into()]));
        all.extend(l);
        report.cheap_failed.extend(f);
    }
    report.cheap = Latency::of(all);
    // Hang up on the heavy programs: the server cancels what they were computing.
    stop.store(true, Ordering::SeqCst);
    for s in open_heavy.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        let _ = s.shutdown(Shutdown::Both);
    }
    for t in heavy_threads {
        report.heavy_statuses.extend(t.join().unwrap_or_default());
    }
}

fn phase_slow(addr: SocketAddr, o: &Options, report: &mut Report) {
    let mut held = Vec::new();
    for _ in 0..o.slowloris {
        match TcpStream::connect(addr) {
            Ok(mut c) => {
                let _ = c.write_all(b"POST /api/dice/calc HTTP/1.1\r\nHost: x\r\nX-Slow: ");
                held.push(c);
            }
            Err(e) => report.slow_failed.push(format!("slowloris connect: {e}")),
        }
    }
    for _ in 0..o.slow_bodies {
        match TcpStream::connect(addr) {
            Ok(mut c) => {
                let _ = c.write_all(
                    b"POST /api/dice/calc HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{\"pro",
                );
                held.push(c);
            }
            Err(e) => report.slow_failed.push(format!("slow body connect: {e}")),
        }
    }
    // Twenty normal requests over two seconds, while the slow ones hold their connections
    // (the server's header timeout is 5 s, its body timeout 10 s).
    let body = json!({"programs": ["sum(2#d6)"]}).to_string();
    let mut samples = Vec::new();
    for i in 0..20 {
        let t = Instant::now();
        match request(addr, "POST", "/api/dice/calc", "normal", &body) {
            Ok((200, text)) if text.contains("\"mean\":7.0") => samples.push(t.elapsed()),
            other => report
                .slow_failed
                .push(format!("normal request {i}: {other:?}")),
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    report.slow_normal = Latency::of(samples);
    drop(held);
}

fn phase_sigterm(addr: SocketAddr, child: &mut Child, o: &Options, report: &mut Report) {
    let barrier = Arc::new(Barrier::new(o.drain + 1));
    let threads: Vec<_> = (0..o.drain)
        .map(|i| {
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let body = if i.is_multiple_of(2) {
                    json!({"program": "count >3 100000#d6", "times": 10, "seed": i})
                } else {
                    json!({"programs": ["sum(3#d6)", "sum 40#d20"]})
                };
                let path = if i.is_multiple_of(2) {
                    "/api/dice/roll"
                } else {
                    "/api/dice/calc"
                };
                let sent = TcpStream::connect(addr)
                    .map_err(|e| format!("connect: {e}"))
                    .and_then(|mut s| {
                        send(
                            &mut s,
                            "POST",
                            path,
                            &format!("drain-{i}"),
                            &body.to_string(),
                        )
                        .map(|()| s)
                    });
                barrier.wait();
                sent.and_then(|mut s| receive(&mut s)).map(|(s, _)| s)
            })
        })
        .collect();
    barrier.wait();
    // Every request is written; give the server a moment to accept the connections.
    std::thread::sleep(Duration::from_millis(200));
    report.rss_peak_kib = peak_rss_kib(child.id());
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    for t in threads {
        report
            .drain_statuses
            .push(t.join().unwrap_or(Err("panic".into())));
    }
    let until = Instant::now() + Duration::from_secs(15);
    while Instant::now() < until {
        if let Ok(Some(status)) = child.try_wait() {
            report.exit = status.code();
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Runs every phase against a fresh `alea serve`.
pub fn run(o: &Options) -> Result<Report, String> {
    let mut report = Report {
        load_before: machine_load(),
        ..Report::default()
    };
    let (mut child, addr) = start(&o.alea)?;
    phase_hostile(addr, child.id(), &mut report);
    phase_mixed(addr, o, &mut report);
    phase_slow(addr, o, &mut report);
    phase_sigterm(addr, &mut child, o, &mut report);
    report.load_after = machine_load();
    Ok(report)
}

fn print(o: &Options, r: &Report) {
    println!(
        "machine: {} (before), {} (after)",
        r.load_before, r.load_after
    );
    println!("hostile bodies:");
    for (name, status) in &r.hostile {
        println!("  {name}: {status:?}");
    }
    println!(
        "  peak RSS after them: {} KiB",
        r.rss_after_hostile_kib.unwrap_or(0)
    );
    let c = &r.cheap;
    println!(
        "mixed: {} clients for {} s with {} heavy: {} cheap calls answered, {} failed; \
         p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; heavy answers {:?}",
        o.clients,
        o.seconds,
        o.heavy,
        c.count,
        r.cheap_failed.len(),
        c.p50,
        c.p99,
        c.max,
        r.heavy_statuses
    );
    let s = &r.slow_normal;
    println!(
        "slow clients: {} slowloris + {} slow bodies: a normal request p50 {:.1} ms, max {:.1} ms ({} of 20)",
        o.slowloris, o.slow_bodies, s.p50, s.max, s.count
    );
    let ok = r.drain_statuses.iter().filter(|s| **s == Ok(200)).count();
    println!(
        "SIGTERM with {} in flight: {ok} answered 200, exit {:?}",
        o.drain, r.exit
    );
    println!("peak RSS over the run: {} KiB", r.rss_peak_kib.unwrap_or(0));
}

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The example lives in target/PROFILE/examples/; the binary in target/PROFILE/.
    let sibling = std::env::current_exe()
        .ok()
        .and_then(|p| Some(p.parent()?.parent()?.join("alea")))
        .unwrap_or_else(|| PathBuf::from("alea"));
    let mut o = Options::full(arg(&args, "--alea", sibling));
    o.seconds = arg(&args, "--seconds", o.seconds);
    o.clients = arg(&args, "--clients", o.clients);
    o.heavy = arg(&args, "--heavy", o.heavy);
    o.slowloris = arg(&args, "--slowloris", o.slowloris);
    o.slow_bodies = arg(&args, "--slow-bodies", o.slow_bodies);
    o.drain = arg(&args, "--drain", o.drain);
    match run(&o) {
        Ok(r) => {
            print(&o, &r);
            let failures = r.failures();
            for f in &failures {
                eprintln!("FAILED: {f}");
            }
            if failures.is_empty() {
                std::process::ExitCode::SUCCESS
            } else {
                std::process::ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("serve_load: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
