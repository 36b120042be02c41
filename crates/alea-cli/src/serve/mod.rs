//! `alea serve`: the playground, one local web page for all four languages.
//!
//! A small blocking HTTP/1.1 server ([`tiny_http`]) with our own limits, chosen over axum +
//! tower-http for build cost on two-core CI (four small dependencies, no async runtime):
//!
//! * a fixed pool of [`Config::http_threads`] threads takes requests; static assets are
//!   answered on them directly;
//! * request bodies are capped at [`Config::max_body`] bytes (413 beyond);
//! * every API computation runs on its own big-stack thread, at most
//!   [`Config::max_running`] at once (503 `busy` beyond), inside the language's step/size
//!   budgets (smaller than the CLI's, see [`api`]); the request waits at most
//!   [`Config::time_limit`] for it (504 beyond; the computation is stopped too: its step
//!   budgets poll an [`alea_core::Cancel`] token with that deadline);
//! * the listener binds 127.0.0.1 unless told otherwise.
//!
//! The page's HTML, CSS and JS are embedded with `include_str!` (no front-end build step).

pub mod api;
mod assets;
mod blackjack;
mod dice;
mod ezscript;
mod holdem;

use serde_json::{Value, json};
use std::io::Read;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// Limits and address of a playground server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Interface to bind (127.0.0.1 by default: the playground is a local tool).
    pub host: String,
    /// Port (0: any free port).
    pub port: u16,
    /// Threads that take requests (and answer static files directly).
    pub http_threads: usize,
    /// API computations running at once; more are refused with 503.
    pub max_running: usize,
    /// Largest request body in bytes; larger ones are refused with 413.
    pub max_body: usize,
    /// How long a request waits for its computation before a 504.
    pub time_limit: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 8000,
            http_threads: 8,
            max_running: 4,
            max_body: 256 * 1024,
            time_limit: Duration::from_secs(10),
        }
    }
}

/// Stack of each computation thread: reserved, not committed, so it costs address space only.
/// Deeply nested dicelab and EZScript programs need it (their crates document the sizes).
const COMPUTE_STACK: usize = 512 << 20;

/// A running server; [`Running::stop`] ends it.
pub struct Running {
    server: Arc<tiny_http::Server>,
    addr: SocketAddr,
    threads: Vec<JoinHandle<()>>,
}

impl Running {
    /// The bound address (useful with port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Blocks until the server stops (it never does on its own).
    pub fn join(self) {
        for t in self.threads {
            let _ = t.join();
        }
    }

    /// Stops accepting and joins the request threads.
    pub fn stop(self) {
        for _ in &self.threads {
            self.server.unblock();
        }
        for t in self.threads {
            let _ = t.join();
        }
    }
}

struct Shared {
    config: Config,
    running: AtomicUsize,
}

/// Binds and starts serving on background threads.
pub fn start(config: Config) -> std::io::Result<Running> {
    let server = tiny_http::Server::http((config.host.as_str(), config.port))
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| std::io::Error::other("not an IP listener"))?;
    let server = Arc::new(server);
    let shared = Arc::new(Shared {
        config: config.clone(),
        running: AtomicUsize::new(0),
    });
    let mut threads = Vec::new();
    for i in 0..config.http_threads.max(1) {
        let server = Arc::clone(&server);
        let shared = Arc::clone(&shared);
        let t = std::thread::Builder::new()
            .name(format!("serve-{i}"))
            .spawn(move || {
                while let Ok(request) = server.recv() {
                    handle(&shared, request);
                }
            })?;
        threads.push(t);
    }
    Ok(Running {
        server,
        addr,
        threads,
    })
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("valid header")
}

fn respond_bytes(request: tiny_http::Request, status: u16, content_type: &str, body: Vec<u8>) {
    let response = tiny_http::Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"));
    // The client may have gone away; nothing to do about it.
    let _ = request.respond(response);
}

fn respond_json(request: tiny_http::Request, status: u16, body: &Value) {
    respond_bytes(
        request,
        status,
        "application/json; charset=utf-8",
        body.to_string().into_bytes(),
    );
}

fn error_body(message: &str) -> Value {
    json!({"ok": false, "error": message})
}

fn handle(shared: &Arc<Shared>, mut request: tiny_http::Request) {
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("/").to_string();
    let method = request.method().clone();
    if !path.starts_with("/api/") {
        if method != tiny_http::Method::Get && method != tiny_http::Method::Head {
            return respond_json(request, 405, &error_body("only GET for pages"));
        }
        return match assets::get(&path) {
            Some((content_type, body)) => {
                respond_bytes(request, 200, content_type, body.as_bytes().to_vec())
            }
            None => respond_json(request, 404, &error_body("not found")),
        };
    }
    let route = &path["/api/".len()..];
    if method == tiny_http::Method::Get {
        return match api::get(route) {
            Some(v) => respond_json(request, 200, &v),
            None => respond_json(request, 404, &error_body("no such endpoint")),
        };
    }
    if method != tiny_http::Method::Post {
        return respond_json(request, 405, &error_body("use POST with a JSON body"));
    }
    let Some(handler) = api::post_handler(route) else {
        return respond_json(request, 404, &error_body("no such endpoint"));
    };
    let limit = shared.config.max_body;
    if request.body_length().is_some_and(|n| n > limit) {
        return respond_json(
            request,
            413,
            &error_body(&format!("request body larger than {limit} bytes")),
        );
    }
    let mut body = Vec::new();
    if request
        .as_reader()
        .take(limit as u64 + 1)
        .read_to_end(&mut body)
        .is_err()
    {
        return respond_json(request, 400, &error_body("could not read the request body"));
    }
    if body.len() > limit {
        return respond_json(
            request,
            413,
            &error_body(&format!("request body larger than {limit} bytes")),
        );
    }
    let input: Value = match serde_json::from_slice(&body) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => return respond_json(request, 400, &error_body("the body must be a JSON object")),
        Err(e) => {
            return respond_json(request, 400, &error_body(&format!("invalid JSON: {e}")));
        }
    };
    let (status, out) = compute(shared, handler, input);
    respond_json(request, status, &out);
}

/// Decrements the running count when the computation thread ends, however it ends.
struct Permit<'a>(&'a AtomicUsize);

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn compute(shared: &Arc<Shared>, handler: api::Handler, input: Value) -> (u16, Value) {
    let max = shared.config.max_running;
    if shared.running.fetch_add(1, Ordering::SeqCst) >= max {
        shared.running.fetch_sub(1, Ordering::SeqCst);
        return (
            503,
            error_body(&format!("busy: {max} computations are running, try again")),
        );
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let counter = Arc::clone(shared);
    // The evaluators' step budgets poll this token, so a computation past its time limit
    // really stops (within one poll interval) instead of holding its slot for minutes.
    let cancel = alea_core::Cancel::with_timeout(shared.config.time_limit);
    let token = cancel.clone();
    let spawned = std::thread::Builder::new()
        .name("serve-compute".into())
        .stack_size(COMPUTE_STACK)
        .spawn(move || {
            let _permit = Permit(&counter.running);
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                token.scope(|| handler(&input))
            }));
            let reply = match result {
                Ok(v) => (200, v),
                Err(_) => (500, error_body("internal error (a bug: please report it)")),
            };
            let _ = tx.send(reply);
        });
    if spawned.is_err() {
        shared.running.fetch_sub(1, Ordering::SeqCst);
        return (503, error_body("busy: cannot start a computation"));
    }
    match rx.recv_timeout(shared.config.time_limit) {
        // An answer computed after the deadline is the evaluator's "time limit" error.
        Ok(reply) if !cancel.is_cancelled() => reply,
        _ => {
            cancel.cancel();
            (
                504,
                error_body(&format!(
                    "time limit: no answer within {} ms; the computation was stopped",
                    shared.config.time_limit.as_millis()
                )),
            )
        }
    }
}
