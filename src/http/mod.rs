//! The HTTP adapter: the router, its layers, and everything axum.

pub mod board;
pub mod error;
pub mod extract;
pub mod metrics;
pub mod page;
pub mod routes;
pub mod state;

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tower_http::cors::{AllowOrigin, Any, CorsLayer};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::config::Config;
pub use error::ApiError;
use extract::BodyLimit;
pub use state::AppState;

/// Every route the API serves (all are fixed paths).
pub const ROUTES: [&str; 7] = [
    "/solve",
    "/solve/batch",
    "/validate",
    "/healthz",
    "/readyz",
    "/metrics",
    "/openapi.yaml",
];

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The whole API with its layers, for `state` built from `config`.
pub fn router(config: &Config) -> (Router, AppState) {
    let state = AppState::new(config);
    (router_with_state(config, state.clone()), state)
}

/// The whole API over an existing state (tests use this to reach the state too).
pub fn router_with_state(config: &Config, state: AppState) -> Router {
    let api = Router::new()
        .route("/solve", post(routes::solve))
        .route(
            "/solve/batch",
            post(routes::solve_batch).layer::<_, std::convert::Infallible>(
                tower::ServiceBuilder::new()
                    .layer(DefaultBodyLimit::max(config.batch_body_limit))
                    .layer(axum::Extension(BodyLimit(config.batch_body_limit))),
            ),
        )
        .route("/validate", post(routes::validate))
        .route("/healthz", get(routes::healthz))
        .route("/readyz", get(routes::readyz))
        .route("/metrics", get(metrics::export))
        .route("/openapi.yaml", get(routes::openapi))
        .merge(page::router())
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(config.body_limit))
        .layer(middleware::from_fn_with_state(state.clone(), deadline))
        .layer(middleware::from_fn(problem_for_bare_errors))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            metrics::track,
        ))
        .layer(middleware::from_fn(log_request))
        .with_state(state);
    api.layer(cors(config))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request<Body>| {
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
                    )
                })
                .on_request(())
                .on_response(())
                .on_failure(()),
        )
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .layer(middleware::map_request(drop_unusable_request_id))
}

/// Logs each request once, inside its span: probes and scrapes at DEBUG (they come every
/// few seconds from every orchestrator), everything else at INFO.
async fn log_request(request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let quiet = matches!(request.uri().path(), "/healthz" | "/readyz" | "/metrics");
    let response = next.run(request).await;
    let status = response.status().as_u16();
    // Microsecond resolution is plenty, and keeps the field short.
    let latency_ms = (started.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    if quiet {
        tracing::debug!(status, latency_ms, "request done");
    } else {
        tracing::info!(status, latency_ms, "request done");
    }
    response
}

/// A client's `x-request-id` is kept only when it is usable in logs: 1 to 128 visible
/// ASCII characters. Otherwise a fresh id is made, as if none had been sent.
async fn drop_unusable_request_id(mut request: Request) -> Request {
    let usable = request.headers().get(&REQUEST_ID).map(|id| {
        let bytes = id.as_bytes();
        !bytes.is_empty() && bytes.len() <= 128 && bytes.iter().all(u8::is_ascii_graphic)
    });
    if usable == Some(false) {
        request.headers_mut().remove(&REQUEST_ID);
    }
    request
}

fn cors(config: &Config) -> CorsLayer {
    let origins = if config.cors_allows_any_origin() {
        AllowOrigin::from(Any)
    } else {
        AllowOrigin::list(
            config
                .cors_origins
                .iter()
                .filter_map(|origin| HeaderValue::from_str(origin.trim()).ok()),
        )
    };
    CorsLayer::new()
        .allow_origin(origins)
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers([header::CONTENT_TYPE, REQUEST_ID])
        .expose_headers([REQUEST_ID, header::RETRY_AFTER])
        .max_age(Duration::from_secs(24 * 60 * 60))
}

async fn not_found(request: Request) -> ApiError {
    ApiError::NotFound(request.uri().path().to_owned())
}

/// Bounds the whole request, reading the body included, so slow clients let go of their
/// solver slot and connection; puts the body limit where error messages can quote it.
async fn deadline(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    request
        .extensions_mut()
        .insert(BodyLimit(state.body_limit()));
    let seconds = state.request_timeout_secs();
    match tokio::time::timeout(Duration::from_secs(seconds), next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout(seconds).into_response(),
    }
}

/// Turns the bodiless error answers axum makes itself (405, for one) into problem+json,
/// keeping their status and headers (such as `Allow`).
async fn problem_for_bare_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let response = next.run(request).await;
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == error::PROBLEM_JSON.as_bytes());
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
