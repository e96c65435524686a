//! `POST /solve` through the router: each board form, unique or not, no solution, the
//! guess budget, a cell error located, and a solve that panics.

use axum::http::StatusCode;
use serde_json::{Value, json};
use sudoku::Grid;
use sudoku_service::config::Config;
use sudoku_service::http::ApiError;

use crate::helpers::*;

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
    let answer = post_json(&app(), "/solve", &json!({ "board": DEAD_END })).await;
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
            .contains("cell r7c4 is a string"),
        "{:?}",
        answer.body
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
