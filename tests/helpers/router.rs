//! The router in-process, through `Router` + `oneshot`: requests without a socket, their
//! answers read whole, and a solver slot held for as long as a test needs it.

use axum::Router;
use axum::body::{Body, Bytes, to_bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode};
use axum::response::Response;
use serde_json::Value;
use sudoku_service::config::Config;
use sudoku_service::http::{AppState, router};
use tower::ServiceExt;

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
    // HTTP/1.1, as the builder makes it, needs a Host (as every client sends).
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "localhost");
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
