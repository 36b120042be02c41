//! Shared helpers of the `serve*` tests: an in-process server on an ephemeral loopback port and
//! a minimal HTTP/1.1 client (only ever 127.0.0.1).
#![allow(dead_code)]

use alea_cli::serve::{Config, Running, start};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

pub fn server(config: Config) -> Running {
    start(Config {
        host: "127.0.0.1".into(),
        port: 0,
        ..config
    })
    .expect("bind 127.0.0.1:0")
}

/// One request; returns (status, body).
pub fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    assert!(addr.ip().is_loopback());
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).expect("send");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let status: u16 = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let chunked = head
        .lines()
        .any(|l| l.eq_ignore_ascii_case("transfer-encoding: chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_string()
    };
    (status, body)
}

/// The body of a `Transfer-Encoding: chunked` response (hex size line, data, CRLF; size 0 ends).
fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).expect("chunk size");
        if n == 0 {
            break;
        }
        out.push_str(&after[..n]);
        rest = &after[n + 2..];
    }
    out
}

pub fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (status, text) = request(addr, "POST", path, &body.to_string());
    let v = serde_json::from_str(&text).unwrap_or_else(|e| {
        let end = text.char_indices().nth(300).map_or(text.len(), |(i, _)| i);
        panic!("{path}: {e}: {:?}", &text[..end])
    });
    (status, v)
}

pub fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    request(addr, "GET", path, "")
}
