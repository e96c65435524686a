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
//! - [`clock`]: what "today" is, on nothing here; [`daily`]: `/daily`'s seeds and the last
//!   puzzles made, on `generator` and `error`;
//! - `print` (private): `/render` and `/booklet`, on `pool`, `puzzle`, `wire` and the
//!   `sudoku-print` crate;
//! - [`caller`] (whose quota a request spends), [`auth`] (the API keys) and [`limit`] (the
//!   rate limits): on nothing here;
//! - [`gate`]: the key check and rate limit at a route's cost, on `auth`, `caller`,
//!   `limit`, `error`, `metrics` and `wire`;
//! - [`state`]: [`AppState`], the container of `pool`, `generator`, `daily`, `clock`,
//!   `metrics`, `readiness`, `gate` and limits;
//! - `head` (private): the request head's `Host` and `Transfer-Encoding`, on `error`;
//! - `handler` and `layer` (private): on the above, never on [`AppState`] itself;
//! - [`admin`]: the admin address's router, on `state`, `handler`, `layer` and `metrics`;
//! - this file: [`router`], each route registered with its cost, on all of them.

pub mod admin;
pub mod auth;
pub mod caller;
pub mod clock;
pub mod daily;
pub mod error;
pub mod extract;
pub mod gate;
pub mod generator;
mod handler;
mod head;
pub mod language;
mod layer;
pub mod limit;
pub mod metrics;
pub mod page;
pub mod pool;
mod print;
pub mod puzzle;
pub mod readiness;
pub mod state;
pub mod wire;

use std::convert::Infallible;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::handler::Handler;
use axum::middleware;
use axum::routing::{MethodRouter, get, post};
use tower::ServiceBuilder;
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

pub use error::ApiError;
use extract::BodyLimit;
use gate::{Cost, Gate};
use layer::REQUEST_ID;
pub use state::AppState;

/// The whole API with its layers, over `state` (built once, by [`AppState::new`], from the
/// configuration: every limit the router applies comes from it).
///
/// Two routers, one inside the other, for speed: axum clones a route's service, with every
/// layer put around it, for each request it serves. So the layers that need the route
/// matched (metrics, the gate at the route's cost, and those inside them) go around each
/// route once, as it is registered, and the others (request ids, the span, CORS, security
/// headers) around the finished inner router, once, as the outer router's only service.
// By value: the router is the state's owner from here on (handlers get clones of it).
#[allow(clippy::needless_pass_by_value)]
pub fn router(state: AppState) -> Router {
    let limits = state.limits;
    let batch_limits = ServiceBuilder::new()
        .layer(DefaultBodyLimit::max(limits.batch_body))
        .layer(axum::Extension(BodyLimit(limits.batch_body)));
    let scan_limits = ServiceBuilder::new()
        .layer(DefaultBodyLimit::max(limits.scan_body))
        .layer(axum::Extension(BodyLimit(limits.scan_body)));
    let routes = Routes {
        router: Router::new(),
        around: layer::AroundEachRequest {
            metrics: Arc::clone(&state.metrics),
            limits,
        },
        // Keys and rate limits, only when a deployment turns them on.
        gate: state.gate.is_on().then(|| Arc::clone(&state.gate)),
    };
    let api = routes
        .route("/solve", post(handler::solve), Cost::SOLVE)
        .route(
            "/solve/batch",
            post(handler::solve_batch).layer::<_, Infallible>(batch_limits.clone()),
            Cost::PerBoard,
        )
        .route("/validate", post(handler::validate), Cost::SOLVE)
        .route("/grade", post(handler::grade), Cost::HEAVY)
        .route("/hint", post(handler::hint), Cost::HEAVY)
        .route("/explain", post(handler::explain), Cost::HEAVY)
        .route("/generate", get(handler::generate), Cost::HEAVY)
        // As much as /generate: a day not asked for yet is a puzzle made.
        .route("/daily", get(handler::daily), Cost::HEAVY)
        .route("/render", post(print::render), Cost::HEAVY)
        .route("/booklet", get(print::booklet_generated), Cost::HEAVY)
        // One unit per board, as a batch: each is solved and graded.
        .route(
            "/booklet",
            post(print::booklet_sent).layer::<_, Infallible>(batch_limits),
            Cost::PerBoard,
        )
        .route(
            "/scan",
            post(handler::scan).layer::<_, Infallible>(scan_limits),
            Cost::HEAVY,
        )
        // Scrapes come every few seconds from one address; on the public port they still
        // need a key when keys are on (the admin port is where they belong).
        .route("/metrics", admin::public_metrics(&state), Cost::Free)
        // Open to all: the probes (an orchestrator has no key), the spec and the page.
        .open("/healthz", get(handler::healthz))
        .open("/readyz", get(handler::readyz))
        .open("/openapi.yaml", get(handler::openapi))
        .open_all(page::router())
        // As much as the heavy routes, so that probing is not free either.
        .fallback(handler::not_found, Cost::HEAVY)
        .router
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

/// The API's routes as they are registered, each with the layers under the routing and
/// what a request to it costs.
struct Routes {
    router: Router<AppState>,
    around: layer::AroundEachRequest,
    /// `None` when keys and limits are off: then no route carries the gate.
    gate: Option<Arc<Gate>>,
}

impl Routes {
    /// `path`, at `cost` per request.
    fn route(self, path: &str, method_router: MethodRouter<AppState>, cost: Cost) -> Routes {
        self.add(Router::new().route(path, method_router), Some(cost))
    }

    /// `path`, open to all: no key, no cost.
    fn open(self, path: &str, method_router: MethodRouter<AppState>) -> Routes {
        self.add(Router::new().route(path, method_router), None)
    }

    /// Every route of `routes`, open to all.
    fn open_all(self, routes: Router<AppState>) -> Routes {
        self.add(routes, None)
    }

    /// Any path that is not a route, answered by `handler` at `cost`.
    fn fallback<H, T>(self, handler: H, cost: Cost) -> Routes
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(Router::new().fallback(handler), Some(cost))
    }

    /// Merges `routes` in, under the layers every route has and the gate at `cost` (none
    /// when `cost` is `None`).
    fn add(self, routes: Router<AppState>, cost: Option<Cost>) -> Routes {
        let gate = self.gate.as_ref().zip(cost).map(|(gate, cost)| {
            middleware::from_fn_with_state((Arc::clone(gate), cost), gate::check)
        });
        // Outermost first, as in every `ServiceBuilder`.
        let under_the_routing = ServiceBuilder::new()
            // Under the routing, so that the metrics see the route matched.
            .layer(middleware::from_fn_with_state(
                self.around.clone(),
                layer::each_request,
            ))
            .layer(tower::util::option_layer(gate))
            .layer(DefaultBodyLimit::max(self.around.limits.body));
        Routes {
            router: self.router.merge(routes.layer(under_the_routing)),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use axum::body::Body;
    use axum::http::{Method, Request, StatusCode, header};
    use axum::response::Response;
    use tower::ServiceExt;

    /// The quota of the limited router: more than any request below costs.
    const QUOTA: u32 = 100;

    /// Sends one request with a JSON body through a fresh router over `config`.
    async fn send(config: &Config, method: &Method, path: &str, body: &str) -> Response {
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "localhost")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_owned()))
            .unwrap();
        router(AppState::new(config))
            .oneshot(request)
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn each_route_costs_what_it_declares_and_open_ones_need_no_key() {
        let keys = std::env::temp_dir().join(format!("route-costs-{}.keys", std::process::id()));
        std::fs::write(&keys, "alpha k3y-for-the-route-costs\n").unwrap();
        let keyed = Config {
            api_keys_file: Some(keys.clone()),
            ..Config::default()
        };
        let limited = Config {
            rate_limit: QUOTA,
            ..Config::default()
        };
        // (method, path, body, units spent or `None` when open to all)
        let mut routes = vec![
            (Method::POST, "/solve", "{}", Some(1)),
            (Method::GET, "/solve", "", Some(1)),
            (Method::POST, "/validate", "{}", Some(1)),
            (
                Method::POST,
                "/solve/batch",
                r#"{"boards":[1,2,3]}"#,
                Some(3),
            ),
            (Method::POST, "/grade", "{}", Some(10)),
            (Method::POST, "/hint", "{}", Some(10)),
            (Method::POST, "/explain", "{}", Some(10)),
            (Method::GET, "/generate?nope=1", "", Some(10)),
            (Method::GET, "/daily?nope=1", "", Some(10)),
            (Method::POST, "/render", "{}", Some(10)),
            (Method::GET, "/booklet?nope=1", "", Some(10)),
            (Method::POST, "/booklet", r#"{"boards":[1,2]}"#, Some(2)),
            (Method::GET, "/metrics", "", Some(0)),
            (Method::GET, "/nope", "", Some(10)),
            (Method::POST, "/solve/", "{}", Some(10)),
            (Method::GET, "/healthz", "", None),
            (Method::GET, "/readyz", "", None),
            (Method::GET, "/openapi.yaml", "", None),
        ];
        routes.extend(page::paths().map(|path| (Method::GET, path, "", None)));
        for (method, path, body, units) in routes {
            let unkeyed = send(&keyed, &method, path, body).await;
            assert_eq!(
                unkeyed.status() == StatusCode::UNAUTHORIZED,
                units.is_some(),
                "{method} {path} without a key: {}",
                unkeyed.status()
            );
            let answer = send(&limited, &method, path, body).await;
            // `"per-client";r=REMAINING;t=RESET`, when the request spent units.
            let remaining = answer.headers().get("ratelimit").map(|state| {
                let state = state.to_str().unwrap();
                state
                    .split(';')
                    .find_map(|field| field.strip_prefix("r="))
                    .unwrap()
                    .parse::<u32>()
                    .unwrap()
            });
            let spent = units.filter(|&units| units > 0);
            assert_eq!(
                remaining,
                spent.map(|units| QUOTA - units),
                "{method} {path}"
            );
        }
        std::fs::remove_file(keys).unwrap();
    }
}
