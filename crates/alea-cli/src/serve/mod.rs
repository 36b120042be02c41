//! `alea serve`: the playground, one local web page for all four languages.
//!
//! hyper's HTTP/1.1 server on a small tokio runtime, routed by axum, with these limits:
//!
//! * TCP_NODELAY on every connection (no Nagle delay on kept-alive answers), at most
//!   [`Config::max_connections`] open at once (more wait in the kernel's backlog);
//! * request headers must arrive within [`Config::header_timeout`] and a request body within
//!   [`Config::body_timeout`] (408 beyond), so slow clients cost a task each, never a thread;
//! * request bodies are capped at [`Config::max_body`] bytes (tower-http's limit: 413);
//! * API computations run on the [`pool`]: [`Config::max_running`] big-stack workers, a queue
//!   fair across clients, 503 with `Retry-After` only when the queue is full, and a deadline
//!   ([`Config::time_limit`], 504 beyond) that really stops the work (the evaluators' step
//!   budgets poll an [`alea_core::Cancel`] token); a client that goes away cancels its job;
//! * [`Running::stop`] (SIGTERM or Ctrl-C in `alea serve`) stops accepting, lets in-flight
//!   requests finish for up to [`Config::grace`], then returns;
//! * the listener binds 127.0.0.1 unless told otherwise.
//!
//! The page's HTML, CSS and JS are embedded with `include_str!` (no front-end build step).

pub mod api;
mod assets;
mod blackjack;
mod dice;
mod ezscript;
mod holdem;
pub mod pool;

use axum::body::Body;
use axum::http::{HeaderValue, Method, Request, Response, StatusCode, header};
use pool::{Outcome, Pool, PoolConfig, Refused};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Limits and address of a playground server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Interface to bind (127.0.0.1 by default: the playground is a local tool).
    pub host: String,
    /// Port (0: any free port).
    pub port: u16,
    /// Connections open at once.
    pub max_connections: usize,
    /// API computations running at once (the pool's workers).
    pub max_running: usize,
    /// Computations one client runs at once (so a few slow clients never hold every worker).
    pub per_client_running: usize,
    /// Computations waiting, over all clients; beyond it 503 with `Retry-After`.
    pub max_queued: usize,
    /// Computations waiting for one client; beyond it 503 with `Retry-After`.
    pub per_client_queued: usize,
    /// Longest wait in the queue (503 `busy` beyond).
    pub queue_wait: Duration,
    /// Largest request body in bytes; larger ones are refused with 413.
    pub max_body: usize,
    /// Time for a request's headers to arrive.
    pub header_timeout: Duration,
    /// Time for a request's body to arrive (408 beyond).
    pub body_timeout: Duration,
    /// Longest run of one computation (504 beyond, and the computation is stopped).
    pub time_limit: Duration,
    /// How long [`Running::stop`] lets in-flight requests finish.
    pub grace: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 8000,
            max_connections: 1024,
            max_running: 8,
            per_client_running: 2,
            max_queued: 256,
            per_client_queued: 32,
            queue_wait: Duration::from_secs(20),
            max_body: 256 * 1024,
            header_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            time_limit: Duration::from_secs(10),
            grace: Duration::from_secs(5),
        }
    }
}

/// Stack of each computation worker: reserved, not committed, so it costs address space only.
/// Of the four languages only dicelab needs more than an ordinary thread's 2 MiB: its exact
/// engine recurses once per level of a deep program, and `alea_dicelab::BIG_STACK_BYTES` is
/// the measured size for programs nested as deep as its parser allows. EZScript fits 2 MiB
/// (its crate doc), OpenHoldem parses and compiles with heap stacks, Blackjack's grammar has
/// no nesting. (It was 512 MiB while dicelab's chains recursed.)
const COMPUTE_STACK: usize = alea_dicelab::BIG_STACK_BYTES;

/// Header naming the page's tab, so that clients behind one address share fairly.
const CLIENT_HEADER: &str = "x-alea-client";

/// A running server; [`Running::stop`] ends it.
pub struct Running {
    addr: SocketAddr,
    shutdown: tokio::sync::watch::Sender<bool>,
    runtime: tokio::runtime::Handle,
    thread: std::thread::JoinHandle<()>,
}

impl Running {
    /// The bound address (useful with port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Blocks until SIGTERM or Ctrl-C, then stops gracefully ([`Running::stop`]).
    pub fn stop_on_signal(self) {
        self.runtime.block_on(async {
            #[cfg(unix)]
            {
                use tokio::signal::unix::{SignalKind, signal};
                match signal(SignalKind::terminate()) {
                    Ok(mut term) => {
                        tokio::select! {
                            _ = term.recv() => {}
                            _ = tokio::signal::ctrl_c() => {}
                        }
                    }
                    Err(_) => {
                        let _ = tokio::signal::ctrl_c().await;
                    }
                }
            }
            #[cfg(not(unix))]
            let _ = tokio::signal::ctrl_c().await;
        });
        self.stop();
    }

    /// Stops accepting, lets in-flight requests finish (up to the grace period), and returns.
    pub fn stop(self) {
        let _ = self.shutdown.send(true);
        let _ = self.thread.join();
    }
}

struct Shared {
    config: Config,
    pool: Pool,
}

/// Binds and starts serving on a background thread.
pub fn start(config: Config) -> std::io::Result<Running> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("serve-http")
        .enable_all()
        .build()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind((
        config.host.as_str(),
        config.port,
    )))?;
    let addr = listener.local_addr()?;
    let pool = Pool::new(PoolConfig {
        workers: config.max_running.max(1),
        per_client_running: config.per_client_running.max(1),
        queue: config.max_queued,
        per_client_queue: config.per_client_queued.max(1),
        queue_wait: config.queue_wait,
        time_limit: config.time_limit,
        stack: COMPUTE_STACK,
    })?;
    let shared = Arc::new(Shared {
        config: config.clone(),
        pool,
    });
    let (shutdown, watch) = tokio::sync::watch::channel(false);
    let handle = runtime.handle().clone();
    let thread = std::thread::Builder::new()
        .name("serve".into())
        .spawn(move || {
            runtime.block_on(serve(listener, shared, watch));
            // Connections past the grace period are dropped with the runtime.
            runtime.shutdown_timeout(Duration::from_millis(100));
        })?;
    Ok(Running {
        addr,
        shutdown,
        runtime: handle,
        thread,
    })
}

/// The accept loop: one task per connection, graceful shutdown on the watch.
async fn serve(
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let config = shared.config.clone();
    let router = router(Arc::clone(&shared));
    let connections = Arc::new(tokio::sync::Semaphore::new(config.max_connections.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    loop {
        let permit = tokio::select! {
            _ = stop.changed() => break,
            p = Arc::clone(&connections).acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
        };
        let (stream, peer) = tokio::select! {
            _ = stop.changed() => break,
            r = listener.accept() => match r {
                Ok(r) => r,
                // Out of file descriptors and the like: wait a little, keep serving.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service =
            hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(Peer(peer));
                tower::ServiceExt::oneshot(router.clone(), request)
            });
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(config.header_timeout)
            .keep_alive(true)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    shared.pool.close();
    // In-flight requests finish (idle kept-alive connections close at once), up to the grace.
    let _ = tokio::time::timeout(config.grace, graceful.shutdown()).await;
}

/// The peer address of a request's connection.
#[derive(Clone, Copy)]
struct Peer(SocketAddr);

fn router(shared: Arc<Shared>) -> axum::Router {
    let limit = shared.config.max_body;
    axum::Router::new()
        .fallback(move |request: Request<Body>| handle(Arc::clone(&shared), request))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(limit))
}

fn respond(status: StatusCode, content_type: &'static str, body: Vec<u8>) -> Response<Body> {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

fn respond_json(status: StatusCode, body: &Value) -> Response<Body> {
    respond(
        status,
        "application/json; charset=utf-8",
        body.to_string().into_bytes(),
    )
}

fn error_body(message: &str) -> Value {
    json!({"ok": false, "error": message})
}

fn with_header(
    mut r: Response<Body>,
    name: header::HeaderName,
    value: &'static str,
) -> Response<Body> {
    r.headers_mut()
        .insert(name, HeaderValue::from_static(value));
    r
}

fn method_not_allowed(allow: &'static str, message: &str) -> Response<Body> {
    with_header(
        respond_json(StatusCode::METHOD_NOT_ALLOWED, &error_body(message)),
        header::ALLOW,
        allow,
    )
}

async fn handle(shared: Arc<Shared>, request: Request<Body>) -> Response<Body> {
    let path = request.uri().path().to_string();
    let method = request.method().clone();
    let is_get = method == Method::GET || method == Method::HEAD;
    let Some(route) = path.strip_prefix("/api/") else {
        if !is_get {
            return method_not_allowed("GET, HEAD", "only GET for pages");
        }
        return match assets::get(&path) {
            Some((content_type, body)) => {
                respond(StatusCode::OK, content_type, body.as_bytes().to_vec())
            }
            None => respond_json(StatusCode::NOT_FOUND, &error_body("not found")),
        };
    };
    if let Some(mut v) = api::get(route) {
        if route == "health" {
            // The pool's load: lets a client (and the tests) see that a cancelled
            // computation really left its worker.
            let (queued, running) = shared.pool.load();
            v["queued"] = json!(queued);
            v["running"] = json!(running);
        }
        return if is_get {
            respond_json(StatusCode::OK, &v)
        } else {
            method_not_allowed("GET, HEAD", "use GET")
        };
    }
    let Some(handler) = api::post_handler(route) else {
        return respond_json(StatusCode::NOT_FOUND, &error_body("no such endpoint"));
    };
    if method != Method::POST {
        return method_not_allowed("POST", "use POST with a JSON body");
    }
    let client = client_key(&request);
    let limit = shared.config.max_body;
    let read = axum::body::to_bytes(request.into_body(), usize::MAX);
    let body = match tokio::time::timeout(shared.config.body_timeout, read).await {
        Err(_) => {
            return with_header(
                respond_json(
                    StatusCode::REQUEST_TIMEOUT,
                    &error_body("the request body did not arrive in time"),
                ),
                header::CONNECTION,
                "close",
            );
        }
        Ok(Err(e)) => {
            // tower-http's limit ends a body without Content-Length with this error.
            let mut too_large = false;
            let mut cause: Option<&dyn std::error::Error> = Some(&e);
            while let Some(c) = cause {
                too_large |= c.to_string().contains("length limit exceeded");
                cause = c.source();
            }
            return if too_large {
                respond_json(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    &error_body(&format!("request body larger than {limit} bytes")),
                )
            } else {
                respond_json(
                    StatusCode::BAD_REQUEST,
                    &error_body("could not read the request body"),
                )
            };
        }
        Ok(Ok(b)) => b,
    };
    let mut input: Value = match serde_json::from_slice(&body) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => {
            return respond_json(
                StatusCode::BAD_REQUEST,
                &error_body("the body must be a JSON object"),
            );
        }
        Err(e) => {
            return respond_json(
                StatusCode::BAD_REQUEST,
                &error_body(&format!("invalid JSON: {e}")),
            );
        }
    };
    if let Err(e) = seed_in(&mut input) {
        return respond_json(StatusCode::OK, &e);
    }
    compute(&shared, client, handler, input).await
}

/// Seeds travel as decimal strings: JavaScript numbers hold 53 bits, so the page's 64-bit seed
/// would be rounded and no longer reproduce its roll. A request's `seed` may be a string (or,
/// as before, a JSON integer); the handlers see the integer. Done here once for every endpoint.
fn seed_in(input: &mut Value) -> Result<(), Value> {
    let Some(Value::String(text)) = input.get("seed") else {
        return Ok(());
    };
    match text.trim().parse::<u64>() {
        Ok(n) => {
            input["seed"] = json!(n);
            Ok(())
        }
        Err(_) => Err(api::bad_request(
            "`seed` must be a decimal integer from 0 to 18446744073709551615",
        )),
    }
}

/// The answer's `seed` as a decimal string (see [`seed_in`]).
fn seed_out(output: &mut Value) {
    if let Some(n) = output.get("seed").and_then(Value::as_u64) {
        output["seed"] = json!(n.to_string());
    }
}

/// Fairness key: the peer's IP address and the page's tab id (at most 64 bytes of it).
fn client_key(request: &Request<Body>) -> String {
    let ip = request
        .extensions()
        .get::<Peer>()
        .map_or_else(String::new, |p| p.0.ip().to_string());
    let tab = request
        .headers()
        .get(CLIENT_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let end = tab.char_indices().nth(64).map_or(tab.len(), |(i, _)| i);
    format!("{ip} {}", &tab[..end])
}

fn busy(message: &str) -> Response<Body> {
    with_header(
        respond_json(StatusCode::SERVICE_UNAVAILABLE, &error_body(message)),
        header::RETRY_AFTER,
        "1",
    )
}

async fn compute(
    shared: &Shared,
    client: String,
    handler: api::Handler,
    input: Value,
) -> Response<Body> {
    let ticket = match shared.pool.submit(client, move || handler(&input)) {
        Ok(t) => t,
        Err(Refused::Full) => return busy("busy: the queue of computations is full, try again"),
        Err(Refused::ClientFull) => {
            return busy("busy: you have too many computations waiting, try again");
        }
        Err(Refused::Closed) => return busy("the server is shutting down"),
    };
    // Dropping the ticket (this future dropped: the client went away) cancels the job.
    let mut ticket = ticket;
    let limit = shared.config.time_limit;
    match (&mut ticket.outcome).await {
        Ok(Outcome::Done(mut v)) => {
            seed_out(&mut v);
            respond_json(StatusCode::OK, &v)
        }
        Ok(Outcome::TimedOut) => respond_json(
            StatusCode::GATEWAY_TIMEOUT,
            &error_body(&format!(
                "time limit: no answer within {} ms; the computation was stopped",
                limit.as_millis()
            )),
        ),
        Ok(Outcome::Busy) => busy("busy: waited too long for a free worker, try again"),
        Ok(Outcome::Panicked) | Err(_) => respond_json(
            StatusCode::INTERNAL_SERVER_ERROR,
            &error_body("internal error (a bug: please report it)"),
        ),
    }
}
