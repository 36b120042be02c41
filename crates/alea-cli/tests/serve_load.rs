//! Load test on loopback: 2,000 requests from 16 concurrent clients (static pages and API
//! calls of every language), bounded and self-stopping. Asserts no errors and that the resident
//! memory of this process (server and clients) stays bounded.

mod serve_common;

use alea_cli::serve::Config;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const REQUESTS: usize = 2_000;
const CLIENTS: usize = 16;
const STATE: &str = include_str!("../../../examples/openholdem/state.json");

/// Resident set size in KiB (Linux); `None` elsewhere.
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn two_thousand_requests_sixteen_at_a_time() {
    let server = serve_common::server(Config {
        max_running: CLIENTS,
        ..Config::default()
    });
    let addr = server.addr();
    let next = Arc::new(AtomicUsize::new(0));
    let failures = Arc::new(AtomicUsize::new(0));
    let run = |next: Arc<AtomicUsize>, failures: Arc<AtomicUsize>| {
        move || {
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= REQUESTS {
                    break;
                }
                let ok = match i % 5 {
                    0 => serve_common::get(addr, "/app.js").0 == 200,
                    1 => {
                        let (s, v) = serve_common::post(
                            addr,
                            "/api/dice/calc",
                            &json!({"programs": [format!("sum({}#d6)", 1 + i % 4)]}),
                        );
                        s == 200 && v["ok"] == true
                    }
                    2 => {
                        let (s, v) = serve_common::post(
                            addr,
                            "/api/blackjack/deal",
                            &json!({"spec": "7bag", "seed": i, "count": 50}),
                        );
                        s == 200 && v["ok"] == true
                    }
                    3 => {
                        let (s, v) = serve_common::post(
                            addr,
                            "/api/holdem/run",
                            &json!({"formulas": "##f$a##\n1 + 2 * pot\n", "state": STATE}),
                        );
                        s == 200 && v["ok"] == true
                    }
                    _ => {
                        let (s, v) = serve_common::post(
                            addr,
                            "/api/ezscript/run",
                            &json!({"source": format!("x = {i}; (x * 2).toString")}),
                        );
                        s == 200 && v["text"].as_str().and_then(|t| t.parse().ok()) == Some(i * 2)
                    }
                };
                if !ok {
                    failures.fetch_add(1, Ordering::SeqCst);
                }
            }
        }
    };
    // A warm-up round first, so the memory baseline includes the allocator's working set.
    let warm = Arc::new(AtomicUsize::new(REQUESTS - 100));
    run(warm, Arc::clone(&failures))();
    let before = rss_kib();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| std::thread::spawn(run(Arc::clone(&next), Arc::clone(&failures))))
        .collect();
    for c in clients {
        c.join().expect("client thread");
    }
    let after = rss_kib();
    assert_eq!(failures.load(Ordering::SeqCst), 0, "failed requests");
    assert!(next.load(Ordering::SeqCst) >= REQUESTS);
    if let (Some(b), Some(a)) = (before, after) {
        // Generous: 16 computation threads' touched stacks and buffers, never a leak per request.
        assert!(a < b + 256 * 1024, "RSS grew from {b} KiB to {a} KiB");
    }
    server.stop();
}
