//! A log output that stops draining never stops serving: the real binary with its stderr a
//! pipe that nobody reads once it has said where it listens. Lines past the queue and the
//! pipe are dropped, counted in `/metrics`; every request is still answered, and once the
//! pipe is read again the log says how many lines went.
//!
//! And what reaches the log cannot be forged by a request: a path is logged with the bytes
//! outside URI characters percent-encoded, in both formats.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpStream};
use std::process::Stdio;
use std::time::Duration;

use crate::helpers::*;

/// Requests that each log a line: more than the log queue (8,192 lines) and a pipe's
/// buffer (64 KiB, a few hundred lines) hold together.
const REQUESTS: usize = 12_000;

/// One `GET` on an open keep-alive connection; its status and body.
fn get(connection: &mut BufReader<TcpStream>, path: &str) -> (u16, String) {
    exchange(
        connection,
        &format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n"),
    )
}

#[test]
fn a_log_pipe_nobody_reads_drops_lines_and_every_request_is_answered() {
    let mut child = binary()
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("RUST_LOG", "info")
        .env("SUDOKU_LOG_FORMAT", "text")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read up to the line that names the address, then never again (the pipe stays open).
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut addr: Option<SocketAddr> = None;
    for _ in 0..100 {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if let Some(rest) = line.split("addr=").nth(1) {
            addr = rest.split_whitespace().next().and_then(|a| a.parse().ok());
            break;
        }
    }
    let addr = addr.expect("the server says where it listens");
    let stream = TcpStream::connect(addr).unwrap();
    // A request that waited on a stalled log writer would wait forever: this turns that
    // into a failure.
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut connection = BufReader::new(stream);
    for _ in 0..REQUESTS {
        assert_eq!(get(&mut connection, "/no-such-page").0, 404);
    }
    // The count reaches /metrics within a second or so; bounded polls.
    let mut dropped = 0.0;
    for _ in 0..100 {
        let (status, body) = get(&mut connection, "/metrics");
        assert_eq!(status, 200);
        dropped = body
            .lines()
            .find_map(|line| line.strip_prefix("log_lines_dropped_total "))
            .map_or(0.0, |value| value.trim().parse().unwrap());
        if dropped > 0.0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(dropped > 0.0, "no dropped line counted");
    // Drained again, the log says how many went (within the lines queued and the pipe's).
    let told = (0..3 * REQUESTS).any(|_| {
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap() > 0
            && line.contains("log lines dropped while the log output was not draining")
    });
    assert!(told, "the log never told of the dropped lines");
    child.kill().unwrap();
    child.wait().unwrap();
}

/// A path of bytes hyper lets through that could forge a log line: a quote, braces, a
/// backslash, `=`, and Unicode line separators and spaces between words that read as a time,
/// a level and fields.
const FORGING_PATH: &str = "/forged\"}:{x=1\u{2028}2026-12-04T00:00:00Z\u{a0}INFO\u{3000}\
                            request\u{85}done\\status=200";

/// That path as the log must show it: those bytes percent-encoded, the rest as sent.
const LOGGED_PATH: &str = "/forged%22%7D:%7Bx=1%E2%80%A82026-12-04T00:00:00Z%C2%A0INFO%E3%80%80\
                           request%C2%85done%5Cstatus=200";

/// The first line of `lines` that contains `needle`, waited for at most 30 s.
fn line_with(lines: &std::sync::mpsc::Receiver<String>, needle: &str) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let line = lines
            .recv_timeout(left)
            .unwrap_or_else(|err| panic!("no line with {needle:?}: {err}"));
        if line.contains(needle) {
            return line;
        }
    }
}

#[test]
fn a_path_cannot_forge_fields_or_lines_of_the_log() {
    for format in ["text", "json"] {
        let (mut child, lines) = spawn_logging(
            &["serve", "--listen", "127.0.0.1:0"],
            &[("RUST_LOG", "info"), ("SUDOKU_LOG_FORMAT", format)],
        );
        let listening = line_with(&lines, "listening");
        let addr: SocketAddr = match serde_json::from_str::<serde_json::Value>(&listening) {
            Ok(json) => json["addr"].as_str().unwrap().parse().unwrap(),
            Err(_) => listening
                .split("addr=")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
                .unwrap()
                .parse()
                .unwrap(),
        };
        let mut connection = BufReader::new(TcpStream::connect(addr).unwrap());
        let request = format!("GET {FORGING_PATH} HTTP/1.1\r\nHost: localhost\r\n\r\n");
        assert_eq!(exchange(&mut connection, &request).0, 404);
        let done = line_with(&lines, "request done");
        child.kill().unwrap();
        child.wait().unwrap();
        if format == "text" {
            assert!(
                done.contains(&format!(" path={LOGGED_PATH} ")),
                "the path, encoded, as one field: {done}"
            );
            assert!(done.is_ascii(), "only ASCII: {done}");
            assert_eq!(
                done.matches(['{', '}', '"', '\\']).count(),
                2,
                "no brace, quote or backslash but the span's own: {done}"
            );
        } else {
            let line: serde_json::Value = serde_json::from_str(&done).unwrap();
            assert_eq!(line["span"]["path"], LOGGED_PATH, "{done}");
        }
    }
}
