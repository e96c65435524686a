//! Shutdown has a deadline, by the real binary: a client that never reads its answers keeps
//! a connection busy, and SIGTERM still ends the process, with exit 0, once the drain time is
//! up, or at once on a second signal.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, ExitStatus};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use crate::helpers::*;

/// The server with its drain limited to `drain_seconds`, its address and its log lines.
fn start(drain_seconds: &str) -> (Child, SocketAddr, Receiver<String>) {
    let (child, lines) = spawn_logging(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--shutdown-timeout",
            drain_seconds,
        ],
        &[("RUST_LOG", "info"), ("SUDOKU_LOG_FORMAT", "text")],
    );
    let addr = wait_for(&lines, "listening")
        .split("addr=")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|addr| addr.parse().ok())
        .expect("the server says where it listens");
    (child, addr, lines)
}

/// The next log line that holds `text`.
fn wait_for(lines: &Receiver<String>, text: &str) -> String {
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no {text:?} in the log"));
        if line.contains(text) {
            return line;
        }
    }
}

/// A connection asked for far more than the socket buffers hold (the 90 KB spec, 400
/// times) and never read: the server is left writing to it.
fn a_client_that_never_reads(addr: SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    let requests = "GET /openapi.yaml HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(400);
    stream.write_all(requests.as_bytes()).unwrap();
    // The first answer's status line: the server is answering, and then nothing more is
    // read. It fills the socket buffers within milliseconds; a pause lets it get there.
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut status_line = String::new();
    reader.read_line(&mut status_line).unwrap();
    assert!(status_line.starts_with("HTTP/1.1 200"), "{status_line}");
    std::thread::sleep(Duration::from_millis(300));
    stream
}

/// The exit status, if the process ends within `polls` tenths of a second.
fn exit_within(child: &mut Child, polls: u32) -> Option<ExitStatus> {
    for _ in 0..polls {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    None
}

#[test]
fn sigterm_ends_the_drain_when_its_time_is_up_even_with_a_client_that_never_reads() {
    let (mut child, addr, lines) = start("1");
    let _stuck = a_client_that_never_reads(addr);
    send_signal(child.id(), "TERM");
    wait_for(&lines, "drain time is up");
    let status = exit_within(&mut child, 100);
    if status.is_none() {
        child.kill().unwrap();
    }
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

#[test]
fn a_second_signal_ends_the_drain_at_once() {
    let (mut child, addr, lines) = start("600");
    let _stuck = a_client_that_never_reads(addr);
    send_signal(child.id(), "TERM");
    wait_for(&lines, "shutting down");
    // Still draining: the client holds its connection and the limit is ten minutes away.
    assert!(
        exit_within(&mut child, 5).is_none(),
        "ended without a second signal"
    );
    send_signal(child.id(), "INT");
    wait_for(&lines, "a second signal");
    let status = exit_within(&mut child, 100);
    if status.is_none() {
        child.kill().unwrap();
    }
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}
