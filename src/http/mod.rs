//! The HTTP adapter: the router, its layers, and everything axum.
//!
//! Dependencies between the files point one way (none imports this file's items):
//! - [`wire`]: the bodies, on [`sudoku`] only;
//! - [`metrics`], [`readiness`], [`language`] (`Accept-Language`) and [`page`] (the
//!   playground): on nothing here;
//! - [`error`]: [`ApiError`], on `wire`; [`extract`]: the JSON body and the query, on
//!   `error` and `wire`;
//! - [`pool`]: the solver slots, on `metrics` and `error`;
//! - [`generator`]: `/generate`'s puzzles and their stock, on `pool` and `readiness`;
//! - [`client`] (whose quota a request spends), [`auth`] (the API keys) and [`limit`] (the
//!   rate limits): on nothing here;
//! - [`gate`]: the key check and rate limit, with each route's cost, on `auth`, `client`,
//!   `limit`, `error`, `metrics`, `page` and `wire`;
//! - [`state`]: [`AppState`], the container of `pool`, `generator`, `metrics`, `readiness`,
//!   `gate` and limits;
//! - `handler` and `layer` (private): on the above, never on [`AppState`] itself;
//! - [`admin`]: the admin address's router, on `state`, `handler`, `layer` and `metrics`;
//! - this file: [`router`], on all of them.

pub mod admin;
pub mod auth;
pub mod client;
pub mod error;
pub mod extract;
pub mod gate;
pub mod generator;
mod handler;
pub mod language;
mod layer;
pub mod limit;
pub mod metrics;
pub mod page;
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
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

pub use error::ApiError;
use extract::BodyLimit;
use layer::REQUEST_ID;
pub use state::AppState;

/// The whole API with its layers, over `state` (built once, by [`AppState::new`], from the
/// configuration: every limit the router applies comes from it).
///
/// Two routers, one inside the other, for speed: axum clones a route's service, with every
/// layer a `Router::layer` put around it, for each request it serves. So the layers that need
/// the route matched (metrics, and those inside them) go around the routes in one
/// `Router::layer`, and the others (request ids, the span, CORS, security headers) around the
/// finished inner router, once, as the outer router's only service.
// By value: the router is the state's owner from here on (handlers get clones of it).
#[allow(clippy::needless_pass_by_value)]
pub fn router(state: AppState) -> Router {
    let limits = state.limits;
    let batch_limits = ServiceBuilder::new()
        .layer(DefaultBodyLimit::max(limits.batch_body))
        .layer(axum::Extension(BodyLimit(limits.batch_body)));
    let around = layer::AroundEachRequest {
        metrics: Arc::clone(&state.metrics),
        limits,
    };
    // Outermost first, as in every `ServiceBuilder`.
    let under_the_routing = ServiceBuilder::new()
        // Under the routing, so that the metrics see the route matched.
        .layer(middleware::from_fn_with_state(around, layer::each_request))
        // Keys and rate limits, only when a deployment turns them on.
        .layer(tower::util::option_layer(state.gate.is_on().then(|| {
            middleware::from_fn_with_state(Arc::clone(&state.gate), gate::check)
        })))
        .layer(DefaultBodyLimit::max(limits.body));
    let api = Router::new()
        .route("/solve", post(handler::solve))
        .route(
            "/solve/batch",
            post(handler::solve_batch).layer::<_, std::convert::Infallible>(batch_limits),
        )
        .route("/validate", post(handler::validate))
        .route("/grade", post(handler::grade))
        .route("/hint", post(handler::hint))
        .route("/explain", post(handler::explain))
        .route("/generate", get(handler::generate))
        .route("/healthz", get(handler::healthz))
        .route("/readyz", get(handler::readyz))
        .route("/metrics", admin::public_metrics(&state))
        .route("/openapi.yaml", get(handler::openapi))
        .merge(page::router())
        .fallback(handler::not_found)
        .layer(under_the_routing)
        .with_state(state.clone());
    let around_the_routing = ServiceBuilder::new()
        .layer(middleware::map_response(layer::security_headers))
        .layer(middleware::map_request(layer::drop_unusable_request_id))
        .layer(SetRequestIdLayer::new(REQUEST_ID, layer::MakeRequestIds))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(layer::request_span)
                .on_request(())
                .on_response(())
                .on_failure(()),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(layer::cors(&state.cors));
    Router::new().fallback_service(around_the_routing.service(api))
}
