//! Helpers shared by the HTTP test suites.
#![allow(dead_code)]

use axum::Router;
use axum::body::{Body, Bytes, to_bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode};
use axum::response::Response;
use serde_json::Value;
use sudoku_service::config::Config;
use sudoku_service::http::{AppState, router};
use tower::ServiceExt;

/// The classic puzzle from Wikipedia's Sudoku article, and its solution.
pub const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
pub const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// Not a proper puzzle (13 givens, several solutions, found by a random search for slow
/// inputs): proving two takes about 80,000 guesses, ~20 ms in release and a few hundred in
/// debug, far past the inline guess budget. The slowest input known for this solver.
pub const SLOW: &str =
    "....8.....18..9..............6.9.....4....8.....62............3.5..........9.....";

/// The router as `main` builds it, with default settings.
pub fn app() -> Router {
    app_with(&Config::default())
}

/// The router with the given settings.
pub fn app_with(config: &Config) -> Router {
    app_and_state(config).0
}

/// The router with the given settings, and its state (to reach the pool or readiness).
pub fn app_and_state(config: &Config) -> (Router, AppState) {
    let state = AppState::new(config);
    (router(state.clone()), state)
}

/// Every path `openapi.yaml` documents, read from its `paths:` section.
pub fn documented_routes() -> Vec<String> {
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
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Answer {
    pub fn content_type(&self) -> &str {
        self.headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// Asserts this is a problem+json answer with the given status and code.
    pub fn assert_problem(&self, status: u16, code: &str, case: &str) {
        assert_eq!(self.status.as_u16(), status, "{case}: {:?}", self.body);
        assert_eq!(self.content_type(), "application/problem+json", "{case}");
        assert_eq!(self.body["code"], code, "{case}: {:?}", self.body);
        assert_eq!(self.body["status"], status, "{case}");
        assert!(
            self.body["detail"].as_str().is_some_and(|d| !d.is_empty()),
            "{case}: no detail in {:?}",
            self.body
        );
        assert!(
            self.body["type"].is_string() && self.body["title"].is_string(),
            "{case}"
        );
    }
}

/// Sends one request through the router without a socket.
pub async fn call(
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
pub async fn read_answer(response: Response) -> (Answer, Bytes) {
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
pub async fn post_json(app: &Router, path: &str, body: &Value) -> Answer {
    call(
        app,
        Method::POST,
        path,
        Some("application/json"),
        serde_json::to_vec(body).unwrap(),
    )
    .await
}

/// The grid of a line as rows of integers.
pub fn int_rows(line: &str) -> Value {
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
pub fn char_rows(line: &str) -> Value {
    Value::Array(
        line.chars()
            .collect::<Vec<_>>()
            .chunks(9)
            .map(|row| row.iter().map(|c| Value::String(c.to_string())).collect())
            .collect(),
    )
}

/// The real server on a free 127.0.0.1 port, stopped by [`TestServer::shutdown`].
pub struct TestServer {
    pub addr: std::net::SocketAddr,
    pub stop: Option<tokio::sync::oneshot::Sender<()>>,
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    /// Binds 127.0.0.1:0 and serves `config` until shut down.
    pub async fn start(config: Config) -> TestServer {
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

    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Asks the server to stop and waits (at most 10 s) until it has.
    pub async fn shutdown(mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(std::time::Duration::from_secs(10), self.task)
            .await
            .expect("server stopped within 10 s")
            .expect("server task did not panic")
    }
}
