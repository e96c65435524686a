//! `POST /solve/batch` through the router: each board answered in order and as `/solve`
//! would answer it alone, across parts, and the limits on the number of boards.

use axum::http::StatusCode;
use serde_json::{Value, json};
use sudoku::Grid;
use sudoku_service::http::pool::BATCH_PART;

use crate::helpers::*;

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
        answer.assert_problem(400, "invalid_request", &format!("{count} boards"));
        assert_eq!(answer.body["errors"][0]["pointer"], "/boards");
    }
}
