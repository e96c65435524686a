//! Helpers and boards shared by the HTTP test suites (`http_api`, `http_server`,
//! `overload`, `hostile`, `adversarial`, `security`): one copy of each, used by all.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes, to_bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode};
use axum::response::Response;
use serde_json::Value;
use sudoku::{Grid, Solver};
use sudoku_service::config::Config;
use sudoku_service::http::{AppState, router};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tower::ServiceExt;

/// The classic puzzle from Wikipedia's Sudoku article, and its solution.
pub(crate) use sudoku::{CLASSIC_PUZZLE as PUZZLE, CLASSIC_SOLUTION as SOLUTION};

/// Not a proper puzzle (13 givens, several solutions, found by a random search for slow
/// inputs): proving two takes about 80,000 guesses, ~20 ms in release and a few hundred in
/// debug, far past the inline guess budget. The slowest input known for this solver.
pub(crate) const SLOW: &str =
    "....8.....18..9..............6.9.....4....8.....62............3.5..........9.....";

/// A board with every cell empty.
pub(crate) fn empty_board() -> String {
    ".".repeat(81)
}

/// [`PUZZLE`] with a second 5 in row 0: two givens clash.
pub(crate) fn clashing_board() -> String {
    format!("55{}", &PUZZLE[2..])
}

/// Row 0 can only end in 9, but column 8 already holds a 9 further down: no clash between
/// givens, and no solution.
pub(crate) fn dead_end_board() -> String {
    format!("12345678.{}9", ".".repeat(71))
}

/// The grid of a line.
pub(crate) fn grid(line: &str) -> Grid {
    Grid::from_line(line).unwrap_or_else(|err| panic!("{line:?}: {err}"))
}

/// Guesses the default solver makes to answer `grid` (solve and prove uniqueness): the
/// measure of how hard a puzzle is for us that no machine's speed changes. The inline
/// path answers up to `INLINE_GUESS_BUDGET` (32) without a solver slot.
pub(crate) fn guesses(grid: &Grid) -> u64 {
    Solver::default()
        .count_solutions(grid, 2)
        .unwrap_or_else(|err| panic!("{grid}: {err}"))
        .guesses
}

/// The router as `main` builds it, with default settings.
pub(crate) fn app() -> Router {
    app_with(&Config::default())
}

/// The router with the given settings.
pub(crate) fn app_with(config: &Config) -> Router {
    app_and_state(config).0
}

/// The router with the given settings, and its state (to reach the pool or readiness).
pub(crate) fn app_and_state(config: &Config) -> (Router, AppState) {
    let state = AppState::new(config);
    (router(state.clone()), state)
}

/// Every path `openapi.yaml` documents, read from its `paths:` section.
pub(crate) fn documented_routes() -> Vec<String> {
    let spec = include_str!("../../openapi.yaml");
    let (_, paths) = spec
        .split_once("\npaths:\n")
        .expect("openapi.yaml has a paths section");
    paths
        .lines()
        .take_while(|line| line.is_empty() || line.starts_with(' '))
        .filter_map(|line| line.strip_prefix("  /"))
        .map(|rest| format!("/{}", rest.trim_end().trim_end_matches(':')))
        .collect()
}

/// An answer, with the body parsed as JSON when it is JSON (else `Value::String`).
#[derive(Debug)]
pub(crate) struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Answer {
    pub(crate) fn content_type(&self) -> &str {
        self.headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// What is wrong with this answer as a problem+json of `status` and `code`, if anything:
    /// the status, the media type, and a problem object whose `type`, `title`, `status`,
    /// `code` and `detail` are all there and agree.
    pub(crate) fn problem_fault(&self, status: u16, code: &str) -> Option<String> {
        let body = &self.body;
        if self.status.as_u16() != status {
            return Some(format!("status {} instead of {status}", self.status));
        }
        if self.content_type() != "application/problem+json" {
            return Some(format!("content type {:?}", self.content_type()));
        }
        if body["code"] != code {
            return Some(format!("code {} instead of {code}", body["code"]));
        }
        if body["status"] != status
            || body["type"] != format!("urn:sudoku-service:problem:{code}")
            || body["title"].as_str().is_none_or(str::is_empty)
        {
            return Some("a malformed problem object".into());
        }
        if body["detail"].as_str().is_none_or(|d| d.trim().is_empty()) {
            return Some("no detail".into());
        }
        None
    }

    /// Asserts this is a problem+json answer with the given status and code.
    pub(crate) fn assert_problem(&self, status: u16, code: &str, case: &str) {
        if let Some(fault) = self.problem_fault(status, code) {
            panic!("{case}: {fault}: {:?}", self.body);
        }
    }
}

/// Sends one request through the router without a socket.
pub(crate) async fn call(
    app: &Router,
    method: Method,
    path: &str,
    content_type: Option<&str>,
    body: impl Into<Body>,
) -> Answer {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(content_type) = content_type {
        request = request.header("content-type", content_type);
    }
    let response = app
        .clone()
        .oneshot(request.body(body.into()).unwrap())
        .await
        .unwrap();
    read_answer(response).await.0
}

/// A response read to its end: the answer (a body that is not JSON kept as a string) and
/// the raw body bytes.
pub(crate) async fn read_answer(response: Response) -> (Answer, Bytes) {
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    let answer = Answer {
        status,
        headers,
        body,
    };
    (answer, bytes)
}

/// POSTs a JSON value.
pub(crate) async fn post_json(app: &Router, path: &str, body: &Value) -> Answer {
    call(
        app,
        Method::POST,
        path,
        Some("application/json"),
        json_bytes(body),
    )
    .await
}

/// `GET path`, with no body.
pub(crate) async fn get(app: &Router, path: &str) -> Answer {
    call(app, Method::GET, path, None, Body::empty()).await
}

/// A JSON value as request body bytes.
pub(crate) fn json_bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap()
}

/// The grid of a line as rows of integers.
pub(crate) fn int_rows(line: &str) -> Value {
    Value::Array(
        line.as_bytes()
            .chunks(9)
            .map(|row| {
                row.iter()
                    .map(|&b| Value::from(if b == b'.' { 0 } else { b - b'0' }))
                    .collect()
            })
            .collect(),
    )
}

/// The grid of a line as rows of one-character strings.
pub(crate) fn char_rows(line: &str) -> Value {
    Value::Array(
        line.chars()
            .collect::<Vec<_>>()
            .chunks(9)
            .map(|row| row.iter().map(|c| Value::String(c.to_string())).collect())
            .collect(),
    )
}

/// The grid a solution stands for in any of the three wire forms, read independently of
/// the server's parser: a line, rows of one-character strings, or rows of integers.
pub(crate) fn grid_of_any_form(value: &Value) -> Result<Grid, String> {
    let line: String = match value {
        Value::String(line) => line.clone(),
        Value::Array(rows) if rows.len() == 9 => rows
            .iter()
            .map(|row| match row.as_array() {
                Some(cells) if cells.len() == 9 => cells
                    .iter()
                    .map(|cell| match cell {
                        Value::String(text) if text.chars().count() == 1 => Ok(text.clone()),
                        Value::Number(n) if n.as_u64().is_some_and(|d| d <= 9) => Ok(n.to_string()),
                        other => Err(format!("cell {other}")),
                    })
                    .collect::<Result<String, String>>(),
                _ => Err(format!("row {row}")),
            })
            .collect::<Result<String, String>>()?,
        other => return Err(format!("not a board: {other}")),
    };
    Grid::from_line(&line).map_err(|err| format!("{line:?}: {err}"))
}

/// Asserts that `solution` (in any wire form) solves `puzzle`: complete, valid, and
/// keeping every given.
pub(crate) fn assert_solves(puzzle: &Grid, solution: &Value, case: &str) {
    let solution = grid_of_any_form(solution).unwrap_or_else(|err| panic!("{case}: {err}"));
    assert!(
        sudoku::is_solved(&solution),
        "{case}: not a solution: {solution}"
    );
    assert!(
        puzzle.is_kept_by(&solution),
        "{case}: givens changed: {puzzle} -> {solution}"
    );
}

/// A request body that sends what is pushed into the returned sender, and never ends
/// while the sender lives.
pub(crate) fn pending_body() -> (
    tokio::sync::mpsc::Sender<Result<Bytes, std::io::Error>>,
    Body,
) {
    let (sender, mut receiver) = tokio::sync::mpsc::channel(1);
    let stream = futures_util::stream::poll_fn(move |cx| receiver.poll_recv(cx));
    (sender, Body::from_stream(stream))
}

/// A job holding one solver slot of a pool until released (or until the holder is dropped).
pub(crate) struct SlotHolder {
    release: std::sync::mpsc::Sender<()>,
    job: tokio::task::JoinHandle<()>,
}

impl SlotHolder {
    /// Takes a slot of `state`'s pool and returns once the job holding it runs.
    pub(crate) async fn take(state: &AppState) -> SlotHolder {
        let (release, released) = std::sync::mpsc::channel::<()>();
        let (started, is_started) = tokio::sync::oneshot::channel();
        let pool = std::sync::Arc::clone(&state.pool);
        let job = tokio::spawn(async move {
            pool.run(move |_| {
                let _ = started.send(());
                // A test that fails drops its holder; then the job ends too.
                let _ = released.recv();
            })
            .await
            .expect("the holding job ran");
        });
        is_started.await.expect("the holding job started");
        SlotHolder { release, job }
    }

    /// Gives the slot back and waits until the job holding it has ended.
    pub(crate) async fn release(self) {
        self.release.send(()).unwrap();
        self.job.await.unwrap();
    }
}

/// Reads from `stream` until EOF, an error, or `limit`; returns what came, whether the
/// server closed the connection (EOF or reset) within the limit.
pub(crate) async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, bool) {
    let mut received = Vec::new();
    let deadline = Instant::now() + limit;
    let mut buf = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return (String::from_utf8_lossy(&received).into(), true),
            Ok(Ok(n)) => received.extend_from_slice(&buf[..n]),
            Err(_) => return (String::from_utf8_lossy(&received).into(), false),
        }
    }
}

/// The real server on a free 127.0.0.1 port, stopped by [`TestServer::shutdown`].
pub(crate) struct TestServer {
    pub addr: std::net::SocketAddr,
    pub stop: Option<tokio::sync::oneshot::Sender<()>>,
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    /// Binds 127.0.0.1:0 and serves `config` until shut down.
    pub(crate) async fn start(config: Config) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            sudoku_service::server::serve(listener, &config, async {
                let _ = stopped.await;
            })
            .await
        });
        TestServer {
            addr,
            stop: Some(stop),
            task,
        }
    }

    /// Binds 127.0.0.1:0 twice and serves `config`, with the admin router (`/metrics` and
    /// the probes) on the second address, which is returned beside the server.
    pub(crate) async fn start_with_admin(config: Config) -> (TestServer, std::net::SocketAddr) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let admin = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let admin_addr = admin.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            sudoku_service::server::serve_with_admin(listener, Some(admin), &config, async {
                let _ = stopped.await;
            })
            .await
        });
        let server = TestServer {
            addr,
            stop: Some(stop),
            task,
        };
        (server, admin_addr)
    }

    /// The URL of `path` on this server.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Asks the server to stop and waits (at most 10 s) until it has.
    pub(crate) async fn shutdown(mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(std::time::Duration::from_secs(10), self.task)
            .await
            .expect("server stopped within 10 s")
            .expect("server task did not panic")
    }
}
