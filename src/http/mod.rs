//! The HTTP adapter: the router, its layers, and everything axum.
//!
//! Dependencies between the files point one way (none imports this file's items):
//! - [`wire`]: the bodies, on [`crate::sudoku`] only;
//! - [`metrics`], [`readiness`], [`language`] (`Accept-Language`) and [`page`] (the
//!   playground): on nothing here;
//! - [`pool`]: the solver slots, on `metrics`;
//! - [`generator`]: `/generate`'s puzzles and their stock, on `pool`, `readiness` and
//!   `wire`;
//! - [`error`]: [`ApiError`], on `wire` and `pool`; [`extract`]: the JSON body and the
//!   query, on `error` and `wire`;
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

#[cfg(test)]
mod tests {
    /// Every file of the HTTP layer, by module path, with its source.
    const FILES: [(&str, &str); 24] = [
        ("http", include_str!("mod.rs")),
        ("http::admin", include_str!("admin.rs")),
        ("http::auth", include_str!("auth.rs")),
        ("http::client", include_str!("client.rs")),
        ("http::error", include_str!("error.rs")),
        ("http::extract", include_str!("extract.rs")),
        ("http::gate", include_str!("gate.rs")),
        ("http::generator", include_str!("generator.rs")),
        ("http::handler", include_str!("handler.rs")),
        ("http::language", include_str!("language.rs")),
        ("http::layer", include_str!("layer.rs")),
        ("http::limit", include_str!("limit.rs")),
        ("http::metrics", include_str!("metrics.rs")),
        ("http::page", include_str!("page/mod.rs")),
        ("http::pool", include_str!("pool.rs")),
        ("http::readiness", include_str!("readiness.rs")),
        ("http::state", include_str!("state.rs")),
        ("http::wire", include_str!("wire/mod.rs")),
        ("http::wire::board", include_str!("wire/board.rs")),
        ("http::wire::conflict", include_str!("wire/conflict.rs")),
        ("http::wire::generate", include_str!("wire/generate.rs")),
        ("http::wire::grade", include_str!("wire/grade.rs")),
        ("http::wire::hint", include_str!("wire/hint.rs")),
        ("http::wire::problem", include_str!("wire/problem.rs")),
    ];

    /// The files of the layer that `module`'s code (not its tests or comments) refers to
    /// through `super::` or `crate::http::`.
    fn dependencies(module: &str, source: &str) -> Vec<&'static str> {
        let code = source.split("#[cfg(test)]").next().unwrap_or_default();
        let parent = module.rsplit_once("::").map_or("", |(parent, _)| parent);
        let mut found = Vec::new();
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for (prefix, base) in [("super::", parent), ("crate::", "")] {
                for (at, _) in line.match_indices(prefix) {
                    let rest = &line[at + prefix.len()..];
                    let path: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                        .collect();
                    let target = if base.is_empty() {
                        path
                    } else {
                        format!("{base}::{path}")
                    };
                    // The longest file whose module path starts the referred-to path.
                    let file = FILES
                        .iter()
                        .map(|(name, _)| *name)
                        .filter(|name| target == *name || target.starts_with(&format!("{name}::")))
                        .max_by_key(|name| name.len());
                    if let Some(file) = file.filter(|file| *file != module) {
                        found.push(file);
                    }
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    #[test]
    fn every_module_of_the_http_layer_is_in_the_cycle_check() {
        for (module, source) in FILES {
            let code = source.split("#[cfg(test)]").next().unwrap_or_default();
            for line in code.lines() {
                let declared = line.strip_prefix("pub mod ").or(line.strip_prefix("mod "));
                if let Some(child) = declared.and_then(|rest| rest.strip_suffix(';')) {
                    let child = format!("{module}::{child}");
                    assert!(
                        FILES.iter().any(|(name, _)| *name == child),
                        "{child} is missing from FILES"
                    );
                }
            }
        }
    }

    #[test]
    fn no_file_of_the_http_layer_depends_on_itself_through_others() {
        let graph: Vec<(&str, Vec<&str>)> = FILES
            .iter()
            .map(|(module, source)| (*module, dependencies(module, source)))
            .collect();
        for (module, deps) in &graph {
            println!("{module} -> {deps:?}");
        }
        assert!(
            graph.iter().any(|(_, deps)| !deps.is_empty()),
            "no dependency found at all: the scan is broken"
        );
        // Peel off files that depend on nothing left; whatever remains lies on a cycle.
        let mut left = graph.clone();
        while let Some(i) = left.iter().position(|(_, deps)| {
            deps.iter()
                .all(|dep| !left.iter().any(|(module, _)| module == dep))
        }) {
            left.remove(i);
        }
        assert!(
            left.is_empty(),
            "files on or above an import cycle: {left:?}"
        );
        // And none of the files below the router reaches back into it.
        for (module, deps) in &graph {
            assert!(!deps.contains(&"http"), "{module} imports from http/mod.rs");
        }
    }
}
