//! The HTTP adapter: the router, its layers, and everything axum.

pub mod board;
pub mod error;
pub mod extract;
pub mod metrics;
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
use tracing::Level;

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
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(config.body_limit))
        .layer(middleware::from_fn_with_state(state.clone(), deadline))
        .layer(middleware::from_fn(problem_for_bare_errors))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            metrics::track,
        ))
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
                .on_response(
                    |response: &Response, latency: Duration, _span: &tracing::Span| {
                        tracing::event!(
                            Level::INFO,
                            status = response.status().as_u16(),
                            latency_ms = latency.as_secs_f64() * 1000.0,
                            "request done"
                        );
                    },
                )
                .on_failure(()),
        )
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
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
