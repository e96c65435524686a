//! The request head on the real server, over raw sockets (a client library would mend what
//! is tested here): a `Host` on every HTTP/1.1 request, no transfer coding but `chunked`, and
//! what hyper answers itself, before any layer of ours runs (the answers and limits
//! docs/operations.md describes).

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};
use sudoku_service::config::Config;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::helpers::*;

/// Far more than any answer here takes (they come in a millisecond): only a hang reaches it.
const PATIENCE: Duration = Duration::from_secs(10);

/// An answer read off the socket.
#[derive(Debug)]
struct Raw {
    status: u16,
    /// Header lines in order, names lowercased.
    headers: Vec<(String, String)>,
    body: String,
    /// Whether the server closed the connection after it.
    closed: bool,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(have, _)| have == name)
            .map(|(_, value)| value.as_str())
    }

    fn names(&self) -> Vec<&str> {
        self.headers.iter().map(|(name, _)| name.as_str()).collect()
    }

    /// The problem body's code, asserting that the answer is a problem of `status`.
    fn problem_code(&self, status: u16) -> String {
        assert_eq!(self.status, status, "{self:?}");
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json"),
            "{self:?}"
        );
        let body: Value = serde_json::from_str(&self.body).unwrap();
        assert_eq!(body["status"], status, "{body}");
        assert!(
            body["detail"].as_str().is_some_and(|d| !d.is_empty()),
            "{body}"
        );
        body["code"].as_str().unwrap().to_owned()
    }
}

/// Writes `request` on a new connection and reads until the server closes it or
/// [`PATIENCE`] runs out (then `closed` is false).
async fn send_raw(addr: SocketAddr, request: &[u8]) -> Raw {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let (received, closed) = read_until_closed(&mut stream, PATIENCE).await;
    let (head, body) = received
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no whole head in {received:?}"));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {received:?}"));
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    Raw {
        status,
        headers,
        body: body.to_owned(),
        closed,
    }
}

fn solve_body() -> String {
    json!({ "board": PUZZLE }).to_string()
}

/// `POST /solve` with `host` (a whole header line, or nothing) in HTTP/1.1 or 1.0.
fn solve_request(version: &str, host: &str) -> Vec<u8> {
    let body = solve_body();
    format!(
        "POST /solve HTTP/{version}\r\n{host}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[tokio::test]
async fn an_http_1_1_request_without_a_host_is_400_on_every_route() {
    let (server, admin) = TestServer::start_with_admin(Config::default()).await;
    let hostless = |method: &str, path: &str| {
        format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n\r\n").into_bytes()
    };
    // Every kind of route: the API, a probe, the spec, the page, an unknown path, a 405.
    let mut cases = vec![
        ("POST /solve", server.addr, solve_request("1.1", "")),
        (
            "GET /generate",
            server.addr,
            hostless("GET", "/generate?seed=1"),
        ),
        ("GET /healthz", server.addr, hostless("GET", "/healthz")),
        ("GET /readyz", server.addr, hostless("GET", "/readyz")),
        (
            "GET /openapi.yaml",
            server.addr,
            hostless("GET", "/openapi.yaml"),
        ),
        ("GET /", server.addr, hostless("GET", "/")),
        ("GET /nope", server.addr, hostless("GET", "/nope")),
        ("GET /solve", server.addr, hostless("GET", "/solve")),
        ("admin /healthz", admin, hostless("GET", "/healthz")),
        ("admin /metrics", admin, hostless("GET", "/metrics")),
    ];
    cases.push((
        "two Host lines",
        server.addr,
        solve_request("1.1", "Host: a\r\nHost: b\r\n"),
    ));
    cases.push((
        "a Host with a user",
        server.addr,
        solve_request("1.1", "Host: user@localhost\r\n"),
    ));
    cases.push((
        "HTTP/1.0 with two Host lines",
        server.addr,
        solve_request("1.0", "Host: a\r\nHost: b\r\n"),
    ));
    for (case, addr, request) in cases {
        let answer = send_raw(addr, &request).await;
        assert_eq!(answer.problem_code(400), "invalid_host", "{case}");
        assert_eq!(answer.header("x-content-type-options"), Some("nosniff"));
        if addr == server.addr {
            assert!(answer.header("x-request-id").is_some(), "{case}");
        }
    }
    // HTTP/1.0 needs no Host; an empty one is allowed (a target without an authority).
    for (version, host) in [("1.0", ""), ("1.1", "Host:\r\n"), ("1.1", "Host: x:80\r\n")] {
        let answer = send_raw(server.addr, &solve_request(version, host)).await;
        assert_eq!(answer.status, 200, "HTTP/{version} {host:?}: {answer:?}");
        assert!(answer.body.contains(SOLUTION), "{answer:?}");
    }
    let probe = send_raw(admin, b"GET /healthz HTTP/1.0\r\n\r\n").await;
    assert_eq!(probe.status, 200, "{probe:?}");
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_request_refused_for_its_head_spends_no_quota_and_is_counted() {
    let server = TestServer::start(Config {
        rate_limit: 1,
        rate_limit_window: 3600,
        ..Config::default()
    })
    .await;
    for _ in 0..3 {
        let answer = send_raw(server.addr, &solve_request("1.1", "")).await;
        assert_eq!(answer.problem_code(400), "invalid_host");
    }
    let answer = send_raw(server.addr, &solve_request("1.1", "Host: localhost\r\n")).await;
    assert_eq!(
        answer.status, 200,
        "the one unit is still there: {answer:?}"
    );
    assert_eq!(
        answer.header("ratelimit"),
        Some("\"per-client\";r=0;t=3600")
    );
    let metrics = send_raw(
        server.addr,
        b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(
        metrics
            .body
            .contains("http_requests_total{method=\"POST\",route=\"/solve\",status=\"400\"} 3"),
        "{}",
        metrics.body
    );
    server.shutdown().await.unwrap();
}

/// `POST /solve` with these `Transfer-Encoding` lines and `body` as one chunk (a gzip header
/// and some bytes of it, for a coding the server must not take as the JSON itself), asking
/// to keep the connection open or not.
fn chunked_solve(codings: &[&str], body: &[u8], keep_alive: bool) -> Vec<u8> {
    let mut request =
        b"POST /solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n".to_vec();
    if !keep_alive {
        request.extend_from_slice(b"Connection: close\r\n");
    }
    for coding in codings {
        request.extend_from_slice(format!("Transfer-Encoding: {coding}\r\n").as_bytes());
    }
    request.extend_from_slice(format!("\r\n{:x}\r\n", body.len()).as_bytes());
    request.extend_from_slice(body);
    request.extend_from_slice(b"\r\n0\r\n\r\n");
    request
}

#[tokio::test]
async fn a_transfer_coding_but_chunked_is_501_and_closes_the_connection() {
    let server = TestServer::start(Config::default()).await;
    let gzip = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03{\"board\":\"5\"}";
    // Codings we do not decode, named in any case, in one line or several.
    for codings in [
        &["gzip, chunked"][..],
        &["GZIP, Chunked"],
        &["deflate,chunked"],
        &["identity, chunked"],
        &["gzip", "chunked"],
    ] {
        let answer = send_raw(server.addr, &chunked_solve(codings, gzip, true)).await;
        assert_eq!(
            answer.problem_code(501),
            "unsupported_transfer_coding",
            "{codings:?}"
        );
        assert_eq!(answer.header("connection"), Some("close"), "{codings:?}");
        assert!(answer.closed, "{codings:?}: the connection is closed");
        assert!(answer.header("x-request-id").is_some(), "{codings:?}");
    }
    // Chunked twice is a malformed message rather than an unknown coding.
    for codings in [&["chunked, chunked"][..], &["chunked", "chunked"]] {
        let answer = send_raw(server.addr, &chunked_solve(codings, gzip, true)).await;
        assert_eq!(answer.problem_code(400), "bad_request", "{codings:?}");
        assert!(answer.closed, "{codings:?}: the connection is closed");
    }
    // Chunked alone, in any case, is read as ever.
    let body = solve_body();
    for coding in ["chunked", "Chunked", "CHUNKED"] {
        let answer = send_raw(
            server.addr,
            &chunked_solve(&[coding], body.as_bytes(), false),
        )
        .await;
        assert_eq!(answer.status, 200, "{coding}: {answer:?}");
        assert!(answer.body.contains(SOLUTION), "{answer:?}");
    }
    // Without chunked last, hyper refuses the head itself (a bare 400, see below).
    for codings in [&["gzip"][..], &["chunked, gzip"], &["chunked", "gzip"]] {
        let answer = send_raw(server.addr, &chunked_solve(codings, gzip, true)).await;
        assert_eq!(answer.status, 400, "{codings:?}: {answer:?}");
        assert_eq!(answer.body, "", "{codings:?}");
    }
    server.shutdown().await.unwrap();
}

/// What hyper answers itself, for a head it cannot take: the status alone, with
/// `connection: close`, `content-length: 0` and `date`, no body, none of our headers; then
/// it closes. `docs/operations.md` lists these answers and limits.
#[tokio::test]
async fn hyper_answers_a_head_it_cannot_take_with_a_bare_status_and_closes() {
    let server = TestServer::start(Config::default()).await;
    let target = |length: usize| format!("/{}", "a".repeat(length - 1));
    let get = |target: &str, extra: &str| {
        format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n")
            .into_bytes()
    };
    let header_lines = |count: usize| {
        // Host and Connection are two of them.
        (0..count - 2).fold(String::new(), |mut lines, i| {
            let _ = write!(lines, "X-H{i}: v\r\n");
            lines
        })
    };
    let one_header_of = |head_bytes: usize| {
        let empty = get("/nope", "X-Big: \r\n").len();
        get(
            "/nope",
            &format!("X-Big: {}\r\n", "a".repeat(head_bytes - empty)),
        )
    };
    // (case, request, what hyper answers, or 404 when the head reaches the router)
    let cases = [
        ("a malformed request line", b"GARBAGE\r\n\r\n".to_vec(), 400),
        (
            "an unknown version",
            b"GET / HTTP/1.2\r\nHost: x\r\n\r\n".to_vec(),
            400,
        ),
        (
            "a header line without a colon",
            get("/", "Bad Header\r\n"),
            400,
        ),
        ("a control byte in a header", get("/", "X: a\x01b\r\n"), 400),
        (
            "a path that is not UTF-8",
            b"GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            400,
        ),
        (
            "a Content-Length that is not a number",
            get("/", "Content-Length: abc\r\n"),
            400,
        ),
        (
            "two different Content-Lengths",
            get("/", "Content-Length: 1\r\nContent-Length: 2\r\n"),
            400,
        ),
        ("a target of 20,000 bytes", get(&target(20_000), ""), 404),
        ("a target of 100,000 bytes", get(&target(100_000), ""), 431),
        ("100 header lines", get("/nope", &header_lines(100)), 404),
        ("101 header lines", get("/nope", &header_lines(101)), 431),
        ("a head of 20,000 bytes", one_header_of(20_000), 404),
        ("a head of 100,000 bytes", one_header_of(100_000), 431),
    ];
    for (case, request, status) in cases {
        let answer = send_raw(server.addr, &request).await;
        assert_eq!(answer.status, status, "{case}");
        if status == 404 {
            assert_eq!(answer.problem_code(404), "not_found", "{case}");
            continue;
        }
        assert_eq!(
            answer.names(),
            ["connection", "content-length", "date"],
            "{case}: {answer:?}"
        );
        assert_eq!(answer.header("connection"), Some("close"), "{case}");
        assert_eq!(answer.header("content-length"), Some("0"), "{case}");
        assert_eq!(answer.body, "", "{case}");
        assert!(answer.closed, "{case}: the connection is closed");
    }
    server.shutdown().await.unwrap();
}
