//! `POST /validate` through the router: what it reports for each kind of board.

use axum::http::StatusCode;
use serde_json::json;

use crate::helpers::*;

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
            json!(DEAD_END),
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
