//! The HTTP adapter: the router, its layers, and everything axum.
//!
//! Dependencies between the files point one way (none imports this file's items):
//! - [`wire`]: the bodies, on [`crate::sudoku`] only;
//! - [`metrics`] and [`readiness`]: on nothing here;
//! - [`pool`]: the solver slots, on `metrics`;
//! - [`error`]: [`ApiError`], on `wire` and `pool`; [`extract`]: the JSON body, on `error`;
//! - [`state`]: [`AppState`], the container of `pool`, `metrics`, `readiness` and limits;
//! - `handler` and `layer` (private): on the above, never on [`AppState`] itself;
//! - this file: [`router`], on all of them.

pub mod error;
pub mod extract;
mod handler;
mod layer;
pub mod metrics;
pub mod pool;
pub mod readiness;
pub mod state;
pub mod wire;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::routing::{get, post};
use tower::ServiceBuilder;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

pub use error::ApiError;
use extract::BodyLimit;
use layer::REQUEST_ID;
pub use state::AppState;

/// The whole API with its layers, over `state` (built once, by [`AppState::new`], from the
/// configuration: every limit the router applies comes from it).
pub fn router(state: AppState) -> Router {
    let limits = state.limits;
    let batch_limits = ServiceBuilder::new()
        .layer(DefaultBodyLimit::max(limits.batch_body))
        .layer(axum::Extension(BodyLimit(limits.batch_body)));
    let api = Router::new()
        .route("/solve", post(handler::solve))
        .route(
            "/solve/batch",
            post(handler::solve_batch).layer::<_, std::convert::Infallible>(batch_limits),
        )
        .route("/validate", post(handler::validate))
        .route("/healthz", get(handler::healthz))
        .route("/readyz", get(handler::readyz))
        .route("/metrics", get(metrics::export))
        .route("/openapi.yaml", get(handler::openapi))
        .fallback(handler::not_found)
        .layer(DefaultBodyLimit::max(limits.body))
        .layer(middleware::from_fn_with_state(limits, layer::deadline))
        .layer(middleware::from_fn(layer::problem_for_bare_errors))
        // Under the routing (a `Router::layer`), so it sees the route matched.
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state.metrics),
            metrics::track,
        ))
        .layer(middleware::from_fn(layer::log_request))
        .with_state(state.clone());
    api.layer(layer::cors(&state.cors))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(layer::request_span)
                .on_request(())
                .on_response(())
                .on_failure(()),
        )
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .layer(middleware::map_request(layer::drop_unusable_request_id))
}
