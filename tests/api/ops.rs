//! What operators read, through the router: `/healthz`, `/readyz` (and draining), the spec
//! as written, and the metrics with their route labels.

use axum::http::StatusCode;
use serde_json::json;
use sudoku_service::config::Config;

use crate::helpers::*;

#[tokio::test]
async fn health_readiness_spec_and_metrics_answer() {
    let (app, state) = app_and_state(&Config::default());
    let health = get(&app, "/healthz").await;
    assert_eq!(
        (health.status, health.body.clone()),
        (StatusCode::OK, json!({"status": "ok"}))
    );
    let ready = get(&app, "/readyz").await;
    assert_eq!(
        (ready.status, ready.body.clone()),
        (StatusCode::OK, json!({"status": "ready"}))
    );
    let spec = get(&app, "/openapi.yaml").await;
    assert_eq!(spec.content_type(), "application/yaml");
    assert_eq!(
        spec.body.as_str().unwrap(),
        include_str!("../../openapi.yaml"),
        "the spec is served as written"
    );

    post_json(&app, "/solve", &json!({ "board": PUZZLE })).await;
    let metrics = get(&app, "/metrics").await;
    assert!(metrics.content_type().starts_with("text/plain"));
    let text = metrics.body.as_str().unwrap();
    for needle in [
        r#"http_requests_total{method="POST",route="/solve",status="200"} 1"#,
        r"http_request_duration_seconds_bucket{",
        "solver_duration_seconds_count 1",
        "solves_in_flight 0",
        "overloaded_rejections_total 0",
        "log_lines_dropped_total ",
        "search_limit_answers_total ",
        "build_info{version=",
    ] {
        assert!(text.contains(needle), "metrics lack {needle:?}:\n{text}");
    }

    state.readiness.set_not_ready();
    let draining = get(&app, "/readyz").await;
    draining.assert_problem(503, "not_ready", "draining");
    let alive = get(&app, "/healthz").await;
    assert_eq!(
        alive.status,
        StatusCode::OK,
        "liveness holds while draining"
    );
}

#[tokio::test]
async fn metrics_label_requests_by_route_and_unmatched_paths_share_one_label() {
    let app = app();
    for path in ["/nowhere", "/solve/", "/users/1", "/users/2"] {
        assert_eq!(
            get(&app, path).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    // A wrong method still matched a route: it is counted under that route.
    assert_eq!(
        get(&app, "/solve").await.status,
        StatusCode::METHOD_NOT_ALLOWED
    );
    get(&app, "/healthz").await;
    let text = get(&app, "/metrics").await.body;
    let text = text.as_str().unwrap();
    for needle in [
        r#"http_requests_total{method="GET",route="unmatched",status="404"} 4"#,
        r#"http_requests_total{method="GET",route="/solve",status="405"} 1"#,
        r#"http_requests_total{method="GET",route="/healthz",status="200"} 1"#,
    ] {
        assert!(text.contains(needle), "metrics lack {needle:?}:\n{text}");
    }
    for path in ["/nowhere", "/users/", "route=\"/solve/\""] {
        assert!(!text.contains(path), "a series for {path:?}:\n{text}");
    }
}
