//! The HTTP API through `Router` + `oneshot`: every documented status, each board form.

mod common;

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{Method, StatusCode};
use common::*;
use serde_json::{Value, json};
use sudoku::Grid;
use sudoku_service::config::Config;
use sudoku_service::http::ApiError;
use sudoku_service::http::pool::{BATCH_PART, INLINE_GUESS_BUDGET};

#[tokio::test]
async fn solve_answers_in_the_form_it_was_asked_in() {
    let app = app();
    let cases = [
        ("line", json!(PUZZLE), json!(SOLUTION)),
        (
            "line with zeros",
            json!(PUZZLE.replace('.', "0")),
            json!(SOLUTION),
        ),
        ("chars", char_rows(PUZZLE), char_rows(SOLUTION)),
        (
            "chars with zeros",
            char_rows(&PUZZLE.replace('.', "0")),
            char_rows(SOLUTION),
        ),
        ("ints", int_rows(PUZZLE), int_rows(SOLUTION)),
    ];
    for (case, board, expected) in cases {
        let answer = post_json(&app, "/solve", &json!({ "board": board })).await;
        assert_eq!(answer.status, StatusCode::OK, "{case}: {:?}", answer.body);
        assert_eq!(answer.content_type(), "application/json", "{case}");
        assert_eq!(
            answer.body,
            json!({"solution": expected, "unique": true}),
            "{case}"
        );
    }
}

#[tokio::test]
async fn solve_accepts_null_as_an_empty_cell_in_an_integer_board() {
    let mut board = int_rows(PUZZLE);
    board[0][2] = Value::Null;
    let answer = post_json(&app(), "/solve", &json!({ "board": board })).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body["solution"], int_rows(SOLUTION));
}

#[tokio::test]
async fn solve_reports_a_board_with_several_solutions_as_not_unique() {
    let answer = post_json(&app(), "/solve", &json!({ "board": empty_board() })).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body["unique"], false);
    assert_solves(&Grid::EMPTY, &answer.body["solution"], "empty board");
}

#[tokio::test]
async fn solve_answers_422_with_the_conflicts_when_two_givens_share_a_row() {
    let answer = post_json(&app(), "/solve", &json!({ "board": clashing_board() })).await;
    answer.assert_problem(422, "no_solution", "clash");
    assert_eq!(
        answer.body["conflicts"][0],
        json!({"unit": "row", "index": 0, "digit": 5, "cells": [{"row": 0, "col": 0}, {"row": 0, "col": 1}]})
    );
}

#[tokio::test]
async fn solve_answers_422_without_conflicts_when_the_search_finds_nothing() {
    let answer = post_json(&app(), "/solve", &json!({ "board": dead_end_board() })).await;
    answer.assert_problem(422, "no_solution", "dead end");
    assert_eq!(answer.body["conflicts"], json!([]));
}

#[tokio::test]
async fn solve_answers_503_search_limit_when_the_budget_runs_out() {
    let config = Config {
        guess_budget: 0,
        ..Config::default()
    };
    let answer = post_json(
        &app_with(&config),
        "/solve",
        &json!({ "board": empty_board() }),
    )
    .await;
    answer.assert_problem(503, "search_limit", "budget 0");
}

#[tokio::test]
async fn validate_describes_each_kind_of_board() {
    let app = app();
    let mut broken_solution = SOLUTION.to_string();
    broken_solution.replace_range(0..2, "35");
    // (case, board, valid, complete, solved, solvable, unique, conflict count)
    let cases = [
        ("puzzle", json!(PUZZLE), true, false, false, true, true, 0),
        (
            "puzzle as ints",
            int_rows(PUZZLE),
            true,
            false,
            false,
            true,
            true,
            0,
        ),
        (
            "puzzle as chars",
            char_rows(PUZZLE),
            true,
            false,
            false,
            true,
            true,
            0,
        ),
        ("solution", json!(SOLUTION), true, true, true, true, true, 0),
        (
            "empty",
            json!(empty_board()),
            true,
            false,
            false,
            true,
            false,
            0,
        ),
        (
            "clash",
            json!(clashing_board()),
            false,
            false,
            false,
            false,
            false,
            2,
        ),
        (
            "dead end",
            json!(dead_end_board()),
            true,
            false,
            false,
            false,
            false,
            0,
        ),
        (
            "complete but wrong",
            json!(broken_solution),
            false,
            true,
            false,
            false,
            false,
            2,
        ),
    ];
    for (case, board, valid, complete, solved, solvable, unique, conflicts) in cases {
        let answer = post_json(&app, "/validate", &json!({ "board": board })).await;
        assert_eq!(answer.status, StatusCode::OK, "{case}: {:?}", answer.body);
        let body = &answer.body;
        assert_eq!(
            (
                body["valid"].as_bool(),
                body["complete"].as_bool(),
                body["solved"].as_bool(),
                body["solvable"].as_bool(),
                body["unique"].as_bool(),
                body["conflicts"].as_array().map(Vec::len)
            ),
            (
                Some(valid),
                Some(complete),
                Some(solved),
                Some(solvable),
                Some(unique),
                Some(conflicts)
            ),
            "{case}: {body}"
        );
    }
}

#[tokio::test]
async fn malformed_requests_are_400_problems_that_point_at_the_fault() {
    let app = app();
    let mut ten = int_rows(PUZZLE);
    ten[2][7] = json!(10);
    let mut negative = int_rows(PUZZLE);
    negative[1][1] = json!(-1);
    let mut float = int_rows(PUZZLE);
    float[0][0] = json!(1.5);
    let mut two_chars = char_rows(PUZZLE);
    two_chars[8][8] = json!("55");
    let mut x = char_rows(PUZZLE);
    x[4][4] = json!("x");
    let mut ragged = int_rows(PUZZLE);
    ragged[3] = json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 0]);
    let mut nested = int_rows(PUZZLE);
    nested[5][5] = json!([[1]]);
    let eight_rows = Value::Array(int_rows(PUZZLE).as_array().unwrap()[..8].to_vec());
    // (case, body, code, expected pointer of the first error when the board is at fault)
    let cases: Vec<(&str, Vec<u8>, &str, Option<&str>)> = vec![
        ("not json", b"{board".to_vec(), "invalid_json", None),
        ("empty body", b"".to_vec(), "invalid_json", None),
        (
            "truncated",
            br#"{"board": "53..7"#.to_vec(),
            "invalid_json",
            None,
        ),
        (
            "invalid utf-8",
            b"{\"board\": \"\xff\xfe\"}".to_vec(),
            "invalid_json",
            None,
        ),
        ("missing board", br"{}".to_vec(), "invalid_board", None),
        (
            "extra field",
            br#"{"board": "", "x": 1}"#.to_vec(),
            "invalid_board",
            None,
        ),
        ("array body", br"[1, 2]".to_vec(), "invalid_board", None),
        (
            "board is a number",
            br#"{"board": 10}"#.to_vec(),
            "invalid_board",
            Some("/board"),
        ),
        (
            "board is null",
            br#"{"board": null}"#.to_vec(),
            "invalid_board",
            Some("/board"),
        ),
        (
            "short string",
            br#"{"board": "123"}"#.to_vec(),
            "invalid_board",
            Some("/board"),
        ),
        (
            "bad character",
            json!({"board": format!("x{}", &PUZZLE[1..])})
                .to_string()
                .into_bytes(),
            "invalid_board",
            Some("/board"),
        ),
        (
            "eight rows",
            json!({ "board": eight_rows }).to_string().into_bytes(),
            "invalid_board",
            Some("/board"),
        ),
        (
            "row of ten",
            json!({ "board": ragged }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/3"),
        ),
        (
            "ten",
            json!({ "board": ten }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/2/7"),
        ),
        (
            "minus one",
            json!({ "board": negative }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/1/1"),
        ),
        (
            "float",
            json!({ "board": float }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/0/0"),
        ),
        (
            "\"55\"",
            json!({ "board": two_chars }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/8/8"),
        ),
        (
            "\"x\"",
            json!({ "board": x }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/4/4"),
        ),
        (
            "nested too deep",
            json!({ "board": nested }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/5/5"),
        ),
        (
            "deep nesting",
            format!("{{\"board\": {}{}}}", "[".repeat(5000), "]".repeat(5000)).into_bytes(),
            "invalid_json",
            None,
        ),
    ];
    for path in ["/solve", "/validate"] {
        for (case, body, code, pointer) in &cases {
            let answer = call(
                &app,
                Method::POST,
                path,
                Some("application/json"),
                body.clone(),
            )
            .await;
            answer.assert_problem(400, code, &format!("{path} {case}"));
            if let Some(pointer) = pointer {
                assert_eq!(
                    answer.body["errors"][0]["pointer"], *pointer,
                    "{path} {case}: {:?}",
                    answer.body
                );
            }
        }
    }
}

#[tokio::test]
async fn a_cell_error_names_its_row_and_column() {
    let mut board = int_rows(PUZZLE);
    board[6][3] = json!("7");
    let answer = post_json(&app(), "/solve", &json!({ "board": board })).await;
    answer.assert_problem(400, "invalid_board", "mixed forms");
    assert_eq!(answer.body["errors"][0]["row"], 6);
    assert_eq!(answer.body["errors"][0]["col"], 3);
    assert!(
        answer.body["detail"]
            .as_str()
            .unwrap()
            .contains("row 6, column 3"),
        "{:?}",
        answer.body
    );
}

#[tokio::test]
async fn content_type_and_size_are_checked_before_the_board() {
    let app = app();
    let body = json!({ "board": PUZZLE }).to_string();
    for (case, content_type) in [
        ("missing", None),
        ("text/plain", Some("text/plain")),
        ("form", Some("application/x-www-form-urlencoded")),
    ] {
        let answer = call(&app, Method::POST, "/solve", content_type, body.clone()).await;
        answer.assert_problem(415, "unsupported_media_type", case);
    }
    let charset = call(
        &app,
        Method::POST,
        "/solve",
        Some("application/json; charset=utf-8"),
        body,
    )
    .await;
    assert_eq!(charset.status, StatusCode::OK);
    let huge = format!("{{\"board\": \"{}\"}}", "1".repeat(100_000));
    let answer = call(&app, Method::POST, "/solve", Some("application/json"), huge).await;
    answer.assert_problem(413, "payload_too_large", "100 kB");
    assert!(answer.body["detail"].as_str().unwrap().contains("65536"));
}

#[tokio::test]
async fn unknown_paths_and_wrong_methods_are_problems() {
    let app = app();
    let answer = call(&app, Method::GET, "/nowhere", None, Body::empty()).await;
    answer.assert_problem(404, "not_found", "404");
    for (method, path, allow) in [
        (Method::GET, "/solve", "POST"),
        (Method::DELETE, "/validate", "POST"),
        (Method::PUT, "/solve/batch", "POST"),
        (Method::POST, "/healthz", "GET,HEAD"),
    ] {
        let answer = call(&app, method.clone(), path, None, Body::empty()).await;
        answer.assert_problem(405, "method_not_allowed", &format!("{method} {path}"));
        assert_eq!(answer.headers["allow"], allow, "{method} {path}");
    }
}

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
        include_str!("../openapi.yaml"),
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

#[tokio::test]
async fn batch_answers_each_board_in_order() {
    let boards = json!([
        PUZZLE,
        int_rows(PUZZLE),
        clashing_board(),
        "xyz",
        empty_board(),
        char_rows(PUZZLE)
    ]);
    let answer = post_json(&app(), "/solve/batch", &json!({ "boards": boards })).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    let results = answer.body["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    assert_eq!(results[0], json!({"solution": SOLUTION, "unique": true}));
    assert_eq!(
        results[1],
        json!({"solution": int_rows(SOLUTION), "unique": true})
    );
    assert_eq!(results[2]["error"]["code"], "no_solution");
    assert_eq!(results[2]["error"]["status"], 422);
    assert_eq!(results[3]["error"]["code"], "invalid_board");
    assert_eq!(results[3]["error"]["errors"][0]["pointer"], "/boards/3");
    assert_eq!(results[4]["unique"], false);
    assert_solves(&Grid::EMPTY, &results[4]["solution"], "empty board");
    assert_eq!(
        results[5],
        json!({"solution": char_rows(SOLUTION), "unique": true})
    );
}

#[tokio::test]
async fn a_batch_of_several_parts_answers_each_board_as_solve_would_alone() {
    let app = app();
    let kinds = [
        json!(PUZZLE),
        int_rows(PUZZLE),
        json!(clashing_board()),
        json!("xyz"),
        char_rows(PUZZLE),
        json!(SOLUTION),
        json!(empty_board()),
    ];
    // Every kind in every part, at places that move from part to part.
    let boards: Vec<Value> = (0..3 * BATCH_PART + 5)
        .map(|i| kinds[(i * 3 + i / BATCH_PART) % kinds.len()].clone())
        .collect();
    let answer = post_json(&app, "/solve/batch", &json!({ "boards": boards })).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    let results = answer.body["results"].as_array().unwrap();
    assert_eq!(results.len(), boards.len());
    let mut failed = 0;
    for (i, (board, result)) in boards.iter().zip(results).enumerate() {
        let alone = post_json(&app, "/solve", &json!({ "board": board })).await;
        if alone.status != StatusCode::OK {
            failed += 1;
            // The same problem, located in the batch instead of at `/board`.
            let located = alone
                .body
                .to_string()
                .replace("\"/board", &format!("\"/boards/{i}"));
            let problem: Value = serde_json::from_str(&located).unwrap();
            assert_eq!(result, &json!({ "error": problem }), "board {i}");
        } else if board == &json!(empty_board()) {
            assert_eq!(result["unique"], false, "board {i}");
            assert_solves(&Grid::EMPTY, &result["solution"], "empty board");
        } else {
            assert_eq!(result, &alone.body, "board {i}");
        }
    }
    assert!(failed >= 2 * 4, "{failed} boards failed");
}

#[tokio::test]
async fn batch_takes_a_thousand_boards_but_not_one_more_or_none() {
    let app = app();
    let full = vec![json!(PUZZLE); 1000];
    let answer = post_json(&app, "/solve/batch", &json!({ "boards": full })).await;
    assert_eq!(answer.status, StatusCode::OK);
    let results = answer.body["results"].as_array().unwrap();
    assert_eq!(results.len(), 1000);
    assert!(results.iter().all(|r| r["solution"] == SOLUTION));
    for count in [0, 1001] {
        let boards = vec![json!(PUZZLE); count];
        let answer = post_json(&app, "/solve/batch", &json!({ "boards": boards })).await;
        answer.assert_problem(400, "invalid_board", &format!("{count} boards"));
    }
}

#[tokio::test]
async fn a_full_line_of_waiting_solves_is_shed_with_503_and_retry_after() {
    let config = Config {
        max_concurrent_solves: std::num::NonZeroUsize::new(1),
        max_queued_solves: 0,
        ..Config::default()
    };
    let (app, state) = app_and_state(&config);
    let slot = SlotHolder::take(&state).await;
    // Easy puzzles are answered without a solver slot; this one needs the blocking pool.
    assert!(guesses(&grid(SLOW)) > INLINE_GUESS_BUDGET);
    assert!(guesses(&grid(PUZZLE)) <= INLINE_GUESS_BUDGET);
    let answer = post_json(&app, "/solve", &json!({ "board": SLOW })).await;
    answer.assert_problem(503, "overloaded", "slot taken, no queue");
    assert_eq!(answer.headers["retry-after"], "1");
    let easy = post_json(&app, "/solve", &json!({ "board": PUZZLE })).await;
    assert_eq!(easy.status, StatusCode::OK, "easy puzzles need no slot");
    let health = get(&app, "/healthz").await;
    assert_eq!(
        health.status,
        StatusCode::OK,
        "health answers while solvers are busy"
    );
    slot.release().await;
    let answer = post_json(&app, "/solve", &json!({ "board": SLOW })).await;
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "serves again once the slot is free"
    );
    let metrics = get(&app, "/metrics").await;
    assert!(
        metrics
            .body
            .as_str()
            .unwrap()
            .contains("overloaded_rejections_total 1")
    );
}

#[tokio::test]
async fn a_panicking_solve_is_a_500_problem_and_the_service_keeps_serving() {
    let (app, state) = app_and_state(&Config::default());
    let failed = state
        .pool
        .run(|_| -> u8 { panic!("forced panic inside a solve") })
        .await
        .unwrap_err();
    let failed = ApiError::from(failed);
    assert_eq!(failed.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(failed.code(), "internal");
    let answer = post_json(&app, "/solve", &json!({ "board": PUZZLE })).await;
    assert_eq!(answer.status, StatusCode::OK);
    let metrics = get(&app, "/metrics").await;
    assert!(
        metrics
            .body
            .as_str()
            .unwrap()
            .contains("solves_in_flight 0")
    );
}

/// Paused time: the clock moves only when the runtime has nothing else to do, straight to
/// the next timer, so the deadline is met exactly and no machine is too slow for it.
#[tokio::test(start_paused = true)]
async fn a_body_that_never_finishes_is_cut_off_with_408_at_the_deadline() {
    let config = Config {
        request_timeout: 1,
        ..Config::default()
    };
    let (sender, body) = pending_body();
    sender
        .send(Ok(Bytes::from_static(b"{\"board\": ")))
        .await
        .unwrap();
    let started = tokio::time::Instant::now();
    let answered = tokio::time::timeout(
        Duration::from_secs(60),
        call(
            &app_with(&config),
            Method::POST,
            "/solve",
            Some("application/json"),
            body,
        ),
    )
    .await;
    let waited = started.elapsed();
    let answer = answered.expect("an answer before the 60 s guard");
    answer.assert_problem(408, "timeout", "trickled body");
    assert!(
        answer.body["detail"].as_str().unwrap().contains("1 s"),
        "{:?}",
        answer.body
    );
    assert!(
        (Duration::from_secs(1)..Duration::from_millis(1_010)).contains(&waited),
        "cut off after {waited:?}, not at the 1 s deadline"
    );
    drop(sender);
}
