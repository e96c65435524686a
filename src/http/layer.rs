//! The middleware around the routes: deadline, problem bodies for axum's own errors,
//! request logs and ids, CORS, and the headers a security scanner looks for.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::cors::{AllowOrigin, Any, CorsLayer};

use super::auth::X_API_KEY;
use super::error::{ApiError, PROBLEM_JSON};
use super::extract::BodyLimit;
use super::limit::{RATELIMIT, RATELIMIT_POLICY};
use super::metrics::{Metrics, Tally};
use super::state::{CorsOrigins, Limits};

/// The policy of every answer that sets none of its own (all but the playground's, whose
/// own is stricter for a page): JSON and YAML load nothing and are framed by nobody.
pub(super) const API_CONTENT_SECURITY_POLICY: &str = "default-src 'none'; frame-ancestors 'none'";

/// The header that carries a request's id, taken from the client or made up.
pub(super) const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The span every request's log lines belong to.
pub(super) fn request_span(request: &Request<Body>) -> tracing::Span {
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    tracing::info_span!(
        "request",
        method = %request.method(),
        path = %request.uri().path(),
        request_id = %id,
        // The API key's label, once the gate has found a valid key (never the key).
        client = tracing::field::Empty,
    )
}

/// Logs each request once, inside its span: probes and scrapes at DEBUG (they come every
/// few seconds from every orchestrator), everything else at INFO.
pub(super) async fn log_request(request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let quiet = is_quiet(&request);
    let response = next.run(request).await;
    log_done(started, quiet, &response);
    response
}

fn is_quiet(request: &Request) -> bool {
    matches!(request.uri().path(), "/healthz" | "/readyz" | "/metrics")
}

fn log_done(started: std::time::Instant, quiet: bool, response: &Response) {
    let status = response.status().as_u16();
    // Whole microseconds: resolution enough, and an integer is much cheaper to format
    // than a float, on every request.
    let latency_us = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
    if quiet {
        tracing::debug!(status, latency_us, "request done");
    } else {
        tracing::info!(status, latency_us, "request done");
    }
}

/// A client's `x-request-id` is kept only when it is usable in logs: 1 to 128 visible
/// ASCII characters. Otherwise a fresh id is made, as if none had been sent.
pub(super) async fn drop_unusable_request_id(mut request: Request) -> Request {
    let usable = request.headers().get(&REQUEST_ID).map(|id| {
        let bytes = id.as_bytes();
        !bytes.is_empty() && bytes.len() <= 128 && bytes.iter().all(u8::is_ascii_graphic)
    });
    if usable == Some(false) {
        request.headers_mut().remove(&REQUEST_ID);
    }
    request
}

/// Headers a security scanner expects on every answer: `nosniff`, a Content-Security-Policy
/// (the API's, unless the answer has its own), and no `Server` banner.
pub(super) async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers
        .entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(API_CONTENT_SECURITY_POLICY));
    headers.remove(header::SERVER);
    response
}

/// CORS for browsers: the configured origins, our methods and headers (an API key comes
/// as a header, which needs no credentials mode: `Access-Control-Allow-Credentials` is
/// never sent, least of all beside `*`), and the headers a page may read (the request
/// id, `Retry-After`, the rate limit's state and the 401 challenge).
pub(super) fn cors(origins: &CorsOrigins) -> CorsLayer {
    let origins = match origins {
        CorsOrigins::Any => AllowOrigin::from(Any),
        CorsOrigins::Only(list) => AllowOrigin::list(list.iter().cloned()),
    };
    CorsLayer::new()
        .allow_origin(origins)
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers([
            header::CONTENT_TYPE,
            REQUEST_ID,
            header::AUTHORIZATION,
            HeaderName::from_static(X_API_KEY),
        ])
        .expose_headers([
            REQUEST_ID,
            header::RETRY_AFTER,
            RATELIMIT,
            RATELIMIT_POLICY,
            header::WWW_AUTHENTICATE,
        ])
        .max_age(Duration::from_secs(24 * 60 * 60))
}

/// Bounds the whole request, reading the body included, so slow clients let go of their
/// solver slot and connection; puts the body limit where error messages can quote it.
async fn within_deadline(limits: Limits, mut request: Request, next: Next) -> Response {
    request.extensions_mut().insert(BodyLimit(limits.body));
    match tokio::time::timeout(limits.request_timeout, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout(limits.request_timeout.as_secs()).into_response(),
    }
}

/// Turns the bodiless error answers axum makes itself (405, for one) into problem+json,
/// keeping their status and headers (such as `Allow`).
pub(super) async fn problem_for_bare_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let response = next.run(request).await;
    problem_for_bare_error(&method, response)
}

fn problem_for_bare_error(method: &Method, response: Response) -> Response {
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == PROBLEM_JSON.as_bytes());
    if !(status.is_client_error() || status.is_server_error()) || is_problem {
        return response;
    }
    let error = match status.as_u16() {
        405 => ApiError::MethodNotAllowed(method.to_string()),
        500 => ApiError::Internal(format!("bare {status} from a lower layer")),
        _ => ApiError::Other(
            status,
            status.canonical_reason().unwrap_or("error").to_owned(),
        ),
    };
    let (parts, _) = response.into_parts();
    let mut replaced = error.into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            replaced.headers_mut().insert(name, value.clone());
        }
    }
    replaced
}

/// What every request of the public router goes through under the routing, outermost
/// first: its log line ([`log_request`]), its metrics ([`Tally`]), problem bodies for bare
/// errors ([`problem_for_bare_errors`]) and its deadline ([`within_deadline`]). One middleware
/// rather than four: each `from_fn` clones and boxes the service under it per request.
pub(super) async fn each_request(
    State(around): State<AroundEachRequest>,
    request: Request,
    next: Next,
) -> Response {
    let started = std::time::Instant::now();
    let quiet = is_quiet(&request);
    let tally = Tally::start(&request);
    let method = request.method().clone();
    let response = within_deadline(around.limits, request, next).await;
    let response = problem_for_bare_error(&method, response);
    tally.finish(&around.metrics, &response);
    log_done(started, quiet, &response);
    response
}

/// What [`each_request`] needs: where to count, and the limits to hold requests to.
#[derive(Clone)]
pub(super) struct AroundEachRequest {
    pub(super) metrics: Arc<Metrics>,
    pub(super) limits: Limits,
}
