//! The server's HTTP limits: 405 with `Allow`, slow clients, the fair bounded queue and its
//! 503 with `Retry-After`, and graceful shutdown on SIGTERM (loopback only, a few seconds).

mod serve_common;

use alea_cli::serve::Config;
use serde_json::json;
use serve_common::{get, post, request, server};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The raw response head of `req` sent on a fresh connection.
fn raw(addr: std::net::SocketAddr, req: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(req.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).to_string()
}

#[test]
fn wrong_methods_get_405_with_allow() {
    let s = server(Config::default());
    let r = raw(
        s.addr(),
        "GET /api/dice/calc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(r.starts_with("HTTP/1.1 405"), "{r}");
    assert!(r.to_ascii_lowercase().contains("allow: post"), "{r}");
    let r = raw(
        s.addr(),
        "POST /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert!(r.starts_with("HTTP/1.1 405"), "{r}");
    assert!(r.to_ascii_lowercase().contains("allow: get, head"), "{r}");
    assert_eq!(request(s.addr(), "DELETE", "/", "").0, 405);
    s.stop();
}

#[test]
fn slow_clients_do_not_block_others() {
    let s = server(Config {
        header_timeout: Duration::from_millis(500),
        body_timeout: Duration::from_millis(500),
        ..Config::default()
    });
    // 100 connections that send half a header and stop (slowloris), and 20 that promise a
    // body and send a few bytes of it.
    let mut idle = Vec::new();
    for _ in 0..100 {
        let mut c = TcpStream::connect(s.addr()).unwrap();
        c.write_all(b"POST /api/dice/calc HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            .unwrap();
        idle.push(c);
    }
    let mut slow_bodies = Vec::new();
    for _ in 0..20 {
        let mut c = TcpStream::connect(s.addr()).unwrap();
        c.write_all(
            b"POST /api/dice/calc HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"pro",
        )
        .unwrap();
        slow_bodies.push(c);
    }
    // A normal request is still answered (the figure measured by hand is in playground.md).
    let (status, v) = post(s.addr(), "/api/dice/calc", &json!({"programs": ["d6"]}));
    assert_eq!(status, 200);
    assert_eq!(v["results"][0]["statements"][0]["mean"], 3.5);
    // The slow bodies get a 408 once their time is up.
    let mut c = slow_bodies.pop().unwrap();
    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut head = String::new();
    let _ = BufReader::new(&mut c).read_line(&mut head);
    assert!(head.starts_with("HTTP/1.1 408"), "{head:?}");
    drop((idle, slow_bodies));
    s.stop();
}

#[test]
fn an_overfull_queue_answers_503_with_retry_after_and_others_still_get_in() {
    let s = server(Config {
        max_running: 1,
        per_client_running: 1,
        per_client_queued: 1,
        time_limit: Duration::from_millis(1500),
        ..Config::default()
    });
    let addr = s.addr();
    // Each roll builds and orders a ten-million-die list, so the time limit ends both
    // requests (a count over the dice is folded without a list and is too fast since issue 16).
    let heavy = json!({"program": "sum(high 5000000 10000000#d6)", "times": 100}).to_string();
    let send = |client: &'static str, body: String| {
        std::thread::spawn(move || {
            raw(
                addr,
                &format!(
                    "POST /api/dice/roll HTTP/1.1\r\nHost: x\r\nX-Alea-Client: {client}\r\n\
                     Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                ),
            )
        })
    };
    // Client A: one running, one queued; its third request finds its queue full.
    let a1 = send("a", heavy.clone());
    std::thread::sleep(Duration::from_millis(200));
    let a2 = send("a", heavy.clone());
    std::thread::sleep(Duration::from_millis(200));
    let a3 = send("a", heavy.clone()).join().unwrap();
    assert!(a3.starts_with("HTTP/1.1 503"), "{a3}");
    assert!(a3.to_ascii_lowercase().contains("retry-after: 1"), "{a3}");
    // Client B still gets in, and waits its turn instead of being refused.
    let b = send("b", json!({"program": "d6", "seed": 1}).to_string())
        .join()
        .unwrap();
    assert!(b.starts_with("HTTP/1.1 200"), "{b}");
    for a in [a1, a2] {
        let a = a.join().unwrap();
        assert!(a.starts_with("HTTP/1.1 504"), "{a}");
    }
    assert_eq!(get(addr, "/api/health").0, 200);
    s.stop();
}

#[cfg(unix)]
#[test]
fn sigterm_lets_in_flight_requests_finish_and_exits_0() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(["serve", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start alea serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: std::net::SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    // Six computations (well within the 5 s grace) are running or queued when SIGTERM arrives.
    let body = json!({"program": "count >3 1000000#d6", "times": 10, "seed": 3});
    let clients: Vec<_> = (0..6)
        .map(|_| {
            let body = body.clone();
            std::thread::spawn(move || post(addr, "/api/dice/roll", &body))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    for c in clients {
        let (status, v) = c.join().unwrap();
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["ok"], true);
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    // Nothing listens any more.
    assert!(TcpStream::connect(addr).is_err());
}

#[test]
fn a_client_that_hangs_up_frees_its_worker() {
    // A time limit far beyond the test: only the hang-up can stop these computations.
    let s = server(Config {
        max_running: 2,
        time_limit: Duration::from_secs(600),
        ..Config::default()
    });
    let addr = s.addr();
    let body = json!({"program": "sum 9999999#d6", "rolls": 200000}).to_string();
    let mut held = Vec::new();
    for i in 0..2 {
        let mut c = TcpStream::connect(addr).unwrap();
        c.write_all(
            format!(
                "POST /api/dice/eval HTTP/1.1\r\nHost: x\r\nX-Alea-Client: h{i}\r\n\
                 Content-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .unwrap();
        held.push(c);
    }
    let running = || {
        let (_, text) = get(addr, "/api/health");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["running"].as_u64().unwrap()
    };
    // Both computations start (bounded wait: the test fails rather than hangs).
    let mut tries = 0;
    while running() < 2 {
        tries += 1;
        assert!(tries < 600, "the computations never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(held);
    let mut tries = 0;
    while running() > 0 {
        tries += 1;
        assert!(
            tries < 1200,
            "a computation kept running after its client hung up"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let (status, v) = post(addr, "/api/dice/calc", &json!({"programs": ["d6"]}));
    assert_eq!((status, v["ok"].clone()), (200, json!(true)));
    s.stop();
}

#[test]
fn a_roll_answer_keeps_a_bounded_number_of_values() {
    // 100 rolls of a 9,999,999-die list would be 10⁹ values; the answer stops at its budget
    // (10⁶ values) with an error at the statement, instead of keeping every roll.
    let s = server(Config::default());
    let (status, v) = post(
        s.addr(),
        "/api/dice/roll",
        &json!({"program": "9999999#d6", "times": 100, "seed": "1"}),
    );
    assert_eq!(status, 200);
    assert_eq!(v["ok"], false, "{v}");
    let message = v["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("more than 1000000 values"), "{message}");
    assert_eq!(v["errors"][0]["line"], 1, "{v}");
    // Within the budget, the same program rolled once is answered in full.
    let (_, v) = post(
        s.addr(),
        "/api/dice/roll",
        &json!({"program": "99999#d6", "times": 10, "seed": "1"}),
    );
    assert_eq!(v["ok"], true, "{}", v["errors"]);
    assert_eq!(v["statements"][0]["rolls"].as_array().unwrap().len(), 10);
    assert_eq!(
        v["statements"][0]["rolls"][0].as_array().unwrap().len(),
        99_999
    );
    s.stop();
}
