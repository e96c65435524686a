//! The admin address (`--admin-listen`): `/metrics` and the probes, for Prometheus and the
//! orchestrator, on an address that need not face the internet. With it, the public
//! address answers 404 at `/metrics`.

use axum::Router;
use axum::middleware;
use axum::routing::{MethodRouter, any, get};

use super::error::ApiError;
use super::handler;
use super::head;
use super::layer;
use super::metrics;
use super::state::AppState;

/// The admin router: metrics and probes, with the security headers, problem bodies and
/// head checks of the public one, and no key or rate limit (whoever reaches this address is
/// trusted).
// By value, as `super::router`: the router owns its state.
#[allow(clippy::needless_pass_by_value)]
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(metrics::export))
        .route("/healthz", get(handler::healthz))
        .route("/readyz", get(handler::readyz))
        .fallback(handler::not_found)
        .layer(middleware::from_fn(layer::problem_for_bare_errors))
        .layer(middleware::from_fn(head::refuse_bad_heads))
        .layer(middleware::from_fn(layer::log_request))
        .with_state(state.clone())
        .layer(middleware::map_response(layer::security_headers))
}

/// What a public connection past the cap is answered: the probes as ever, so that the
/// orchestrator does not restart a server that only needs to shed connections, and 503
/// `overloaded` to anything else. One request, then the connection closes.
// By value, as `router`.
#[allow(clippy::needless_pass_by_value)]
pub fn overflow_router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(handler::healthz))
        .route("/readyz", get(handler::readyz))
        .fallback(|| async { ApiError::ConnectionsFull })
        .layer(middleware::from_fn(layer::problem_for_bare_errors))
        .layer(middleware::from_fn(head::refuse_bad_heads))
        .with_state(state)
        .layer(middleware::map_response(layer::security_headers))
}

/// The public address's `/metrics`: the metrics, or a 404 like any unknown path when they
/// are served on the admin address.
pub fn public_metrics(state: &AppState) -> MethodRouter<AppState> {
    if state.metrics_on_public_port {
        get(metrics::export)
    } else {
        any(handler::not_found)
    }
}
