//! Connections are bounded in number and in time, by the real binary under a real
//! `ulimit -n`: a flood of idle connections past the cap leaves the probes and the admin
//! address answering (before the cap, the accept loop ran out of file descriptors and both
//! failed for as long as the flood lasted), and a client that never reads its answers is
//! disconnected after the write timeout instead of holding its connection forever.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use crate::helpers::*;

/// File descriptors the server is started with: its public cap is this less the 64 kept
/// back, 96.
const DESCRIPTORS: u32 = 160;
const CAP: usize = 96;
/// Public connections past the cap that still get an answer.
const OVERFLOW: usize = 16;

/// `serve` with `args` under `ulimit -n` [`DESCRIPTORS`], started, and its log lines.
fn spawn_limited(args: &[&str]) -> (Child, Receiver<String>) {
    spawn_with_descriptors(DESCRIPTORS, args)
}

/// `serve` with `args` under `ulimit -n descriptors`, started, and its log lines.
fn spawn_with_descriptors(descriptors: u32, args: &[&str]) -> (Child, Receiver<String>) {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -n {descriptors} && exec \"$0\" \"$@\""))
        .arg(binary().get_program())
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "info")
        .env("SUDOKU_LOG_FORMAT", "text");
    spawn_reading_stderr(command)
}

/// The server, with an admin address and `args`, under `ulimit -n` [`DESCRIPTORS`]: the
/// process, its public and admin addresses, and its log lines.
fn start(args: &[&str]) -> (Child, SocketAddr, SocketAddr, Receiver<String>) {
    let mut with_admin = vec!["--admin-listen", "127.0.0.1:0"];
    with_admin.extend_from_slice(args);
    let (child, lines) = spawn_limited(&with_admin);
    let public = logged_address(&wait_for(&lines, "listening"));
    let admin = logged_address(&wait_for(&lines, "admin listening"));
    (child, public, admin, lines)
}

/// Sends one request that closes its connection; the whole answer, or the I/O error of a
/// connection closed unanswered.
fn ask(addr: SocketAddr, method: &str, path: &str, body: &str) -> std::io::Result<String> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    if answer.is_empty() {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(answer)
}

/// The first answer to `ask` whose status line holds `status`, within 50 tries 100 ms
/// apart (the overflow's few places may be held for a second by the flood itself).
fn ask_until(addr: SocketAddr, method: &str, path: &str, body: &str, status: &str) -> String {
    let mut last = None;
    for _ in 0..50 {
        match ask(addr, method, path, body) {
            Ok(answer) if answer.lines().next().is_some_and(|l| l.contains(status)) => {
                return answer;
            }
            other => last = Some(other),
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("no {status} from {method} {path}; the last try: {last:?}");
}

/// The value of the sample `series` in the admin address's `/metrics`.
fn metric(admin: SocketAddr, series: &str) -> u64 {
    let answer = ask(admin, "GET", "/metrics", "").unwrap();
    answer
        .lines()
        .find_map(|line| line.strip_prefix(series)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {series} in\n{answer}"))
}

/// Waits, 100 polls 100 ms apart, until `check` holds of the sample `series`.
fn wait_for_metric(admin: SocketAddr, series: &str, check: impl Fn(u64) -> bool) -> u64 {
    let mut value = metric(admin, series);
    for _ in 0..100 {
        if check(value) {
            return value;
        }
        std::thread::sleep(Duration::from_millis(100));
        value = metric(admin, series);
    }
    panic!("{series} stayed at {value}");
}

const OPEN: &str = "connections_open{listener=\"public\"}";
const REFUSED: &str = "connections_refused_total{listener=\"public\"}";
const EVICTED: &str = "connections_evicted_total{listener=\"public\"}";
const STALLED: &str = "connections_write_stalled_total{listener=\"public\"}";

/// `count` connections to `addr`, each sent `first` (nothing when empty) and held.
fn flood(addr: SocketAddr, count: u32, first: &str) -> Vec<TcpStream> {
    (0..count)
        .map(|_| {
            let mut stream = TcpStream::connect(addr).unwrap();
            stream.write_all(first.as_bytes()).unwrap();
            stream
        })
        .collect()
}

#[test]
fn a_flood_of_silent_connections_makes_room_for_a_client_that_speaks() {
    // Idle connections stay for the request timeout: long enough to hold the flood.
    let (mut child, public, admin, lines) = start(&["--request-timeout", "60"]);
    wait_for(&lines, "connections bounded max_connections=96");
    let mut silent = flood(public, CAP as u32, "");
    wait_for_metric(admin, OPEN, |open| open == CAP as u64);
    // Once they have been silent for a second, each newcomer takes the oldest one's place.
    std::thread::sleep(Duration::from_millis(1100));
    silent.extend(flood(public, CAP as u32, ""));
    wait_for_metric(admin, EVICTED, |evicted| evicted == CAP as u64);
    assert_eq!(metric(admin, OPEN), CAP as u64);
    assert_eq!(metric(admin, REFUSED), 0);
    std::thread::sleep(Duration::from_millis(1100));
    // The oldest silent connection gives way: never a 503, never a reset.
    let board = format!("{{\"board\":\"{PUZZLE}\"}}");
    for _ in 0..10 {
        let solved = ask(public, "POST", "/solve", &board).unwrap();
        assert!(solved.starts_with("HTTP/1.1 200"), "{solved}");
    }
    drop(silent);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_flood_past_the_cap_leaves_the_probes_and_the_admin_address_answering() {
    let (mut child, public, admin, lines) = start(&["--request-timeout", "60"]);
    wait_for(&lines, "connections bounded max_connections=96");
    // Half a request head each: connections that have spoken are never closed for room.
    let speaking = flood(public, 2 * DESCRIPTORS, "GET /healthz HTTP/1.1\r\n");
    let past = speaking.len() - CAP - OVERFLOW;
    wait_for_metric(admin, REFUSED, |refused| refused >= past as u64);
    wait_for_metric(admin, OPEN, |open| open == CAP as u64);

    let healthz = ask(admin, "GET", "/healthz", "").unwrap();
    assert!(healthz.starts_with("HTTP/1.1 200"), "admin: {healthz}");
    let healthz = ask_until(public, "GET", "/healthz", "", " 200 ");
    assert!(healthz.contains("\"ok\""), "{healthz}");
    let readyz = ask_until(public, "GET", "/readyz", "", " 200 ");
    assert!(readyz.contains("\"ready\""), "{readyz}");
    let board = format!("{{\"board\":\"{PUZZLE}\"}}");
    let shed = ask_until(public, "POST", "/solve", &board, " 503 ");
    for part in [
        "content-type: application/problem+json",
        "retry-after: 1",
        "\"code\":\"overloaded\"",
        "as many connections as it may",
        "x-content-type-options: nosniff",
    ] {
        assert!(
            shed.to_lowercase().contains(&part.to_lowercase()),
            "{part}: {shed}"
        );
    }

    drop(speaking);
    wait_for_metric(admin, OPEN, |open| open == 0);
    let solved = ask(public, "POST", "/solve", &board).unwrap();
    assert!(
        solved.starts_with("HTTP/1.1 200"),
        "after the flood: {solved}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let log: Vec<String> = lines.try_iter().collect();
    assert!(
        !log.iter().any(|line| line.contains("accept failed")),
        "{log:#?}"
    );
}

#[test]
fn a_client_that_never_reads_is_disconnected_after_the_write_timeout() {
    let (mut child, public, admin, _lines) = start(&["--write-timeout", "1"]);
    let stuck = a_client_that_never_reads(public);
    wait_for_metric(admin, STALLED, |stalled| stalled == 1);
    wait_for_metric(admin, OPEN, |open| open == 0);
    // Still serving, the stuck client's answers gone with its connection.
    let healthz = ask(public, "GET", "/healthz", "").unwrap();
    assert!(healthz.starts_with("HTTP/1.1 200"), "{healthz}");
    drop(stuck);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_cap_past_the_descriptor_limit_is_refused_at_start() {
    let (mut child, lines) = spawn_limited(&["--max-connections", &(CAP + 1).to_string()]);
    let status = exit_within_or_kill(&mut child, 100);
    assert!(status.is_some_and(|s| !s.success()), "{status:?}");
    let log: Vec<String> = lines.try_iter().collect();
    assert!(
        log.iter().any(|line| line
            .contains("--max-connections 97 needs 161 file descriptors, and the limit is 160")),
        "{log:#?}"
    );
}

/// The resident memory of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/PID/status")
}

#[test]
fn connections_that_never_speak_cost_no_request_buffers() {
    const SILENT: u32 = 800;
    let (mut child, lines) = spawn_with_descriptors(
        4096,
        &["--admin-listen", "127.0.0.1:0", "--request-timeout", "60"],
    );
    let public = logged_address(&wait_for(&lines, "listening"));
    let admin = logged_address(&wait_for(&lines, "admin listening"));
    // Warm: the first requests grow the heap, the worker threads' arenas among it.
    for _ in 0..50 {
        ask(public, "GET", "/healthz", "").unwrap();
    }
    let before = rss_kib(child.id());
    let silent = flood(public, SILENT, "");
    wait_for_metric(admin, OPEN, |open| open == u64::from(SILENT));
    let held = rss_kib(child.id());
    let per_connection = (held.saturating_sub(before)) * 1024 / u64::from(SILENT);
    println!(
        "{SILENT} silent connections: RSS {before} KiB before, {held} KiB held, {per_connection} bytes each"
    );
    // hyper's read and write buffers alone would be 16 KiB a connection.
    assert!(per_connection < 4096, "{per_connection} bytes a connection");
    drop(silent);
    child.kill().unwrap();
    child.wait().unwrap();
}
