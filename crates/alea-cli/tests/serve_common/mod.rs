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
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

pub fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (status, text) = request(addr, "POST", path, &body.to_string());
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text:?}"));
    (status, v)
}

pub fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    request(addr, "GET", path, "")
}
