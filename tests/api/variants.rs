//! Boards of every side from 4 to 25 and the variant rules, through the router: `/solve`,
//! `/solve/batch` and `/validate` answer them in the form asked, malformed rules are 400
//! naming the member, and the classic-only endpoints say so with 422.

use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const DIGITS: &str = "123456789ABCDEFGHIJKLMNOP";

/// One solution of the empty board of `side`, from `/solve` itself.
async fn a_solution(app: &Router, side: usize) -> String {
    let answer = post_json(app, "/solve", &json!({ "board": ".".repeat(side * side) })).await;
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "{side}x{side}: {}",
        answer.body
    );
    assert_eq!(answer.body["unique"], false);
    answer.body["solution"].as_str().unwrap().to_owned()
}

/// Whether `solution` is a full board of `side` whose rows, columns and boxes each hold
/// every digit once, checked here without the service.
fn keeps_the_classic_rules(solution: &str, side: usize, box_rows: usize, box_cols: usize) -> bool {
    let cells: Vec<char> = solution.chars().collect();
    let all: std::collections::BTreeSet<char> = DIGITS[..side].chars().collect();
    let unit = |members: Vec<usize>| {
        members
            .iter()
            .map(|&i| cells[i])
            .collect::<std::collections::BTreeSet<_>>()
            == all
    };
    cells.len() == side * side
        && (0..side).all(|r| unit((0..side).map(|c| r * side + c).collect()))
        && (0..side).all(|c| unit((0..side).map(|r| r * side + c).collect()))
        && (0..side).all(|b| {
            let (top, left) = (
                (b / (side / box_cols)) * box_rows,
                (b % (side / box_cols)) * box_cols,
            );
            unit(
                (0..side)
                    .map(|i| (top + i / box_cols) * side + left + i % box_cols)
                    .collect(),
            )
        })
}

#[tokio::test]
async fn every_side_from_4_to_25_is_solved_in_the_form_it_came_in() {
    let app = app();
    for (side, box_rows, box_cols) in [
        (4, 2, 2),
        (6, 2, 3),
        (8, 2, 4),
        (10, 2, 5),
        (12, 3, 4),
        (15, 3, 5),
        (16, 4, 4),
        (20, 4, 5),
        (25, 5, 5),
    ] {
        let solution = a_solution(&app, side).await;
        assert!(
            keeps_the_classic_rules(&solution, side, box_rows, box_cols),
            "{side}x{side}: {solution}"
        );
        // One cell emptied in each row, on the diagonal: the puzzle has that one solution.
        let puzzle: String = solution
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i / side == i % side {
                    '.'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        let answer = post_json(&app, "/solve", &json!({ "board": puzzle })).await;
        assert_eq!(
            answer.body,
            json!({"solution": solution, "unique": true}),
            "{side}x{side}"
        );

        let rows: Vec<Vec<u32>> = puzzle
            .chars()
            .map(|c| c.to_digit(36).unwrap_or(0))
            .collect::<Vec<_>>()
            .chunks(side)
            .map(<[u32]>::to_vec)
            .collect();
        let answer = post_json(&app, "/solve", &json!({ "board": rows })).await;
        let solved = answer.body["solution"]
            .as_array()
            .expect("rows of integers")
            .clone();
        let back: String = solved
            .iter()
            .flat_map(|row| {
                row.as_array()
                    .unwrap()
                    .iter()
                    .map(|d| DIGITS.as_bytes()[d.as_u64().unwrap() as usize - 1] as char)
            })
            .collect();
        assert_eq!(back, solution, "{side}x{side} as integers");
    }
}

#[tokio::test]
async fn the_rules_decide_the_solution_and_validate_names_each_rule_broken() {
    let app = app();
    let cell = |row: usize, col: usize| json!({"row": row, "col": col});
    let killer = json!({
        "cages": [{"sum": 3, "cells": [cell(0, 2), cell(0, 3)]}],
        "thermometers": [[cell(1, 0), cell(1, 1), cell(1, 2), cell(1, 3)]],
    });
    let answer = post_json(
        &app,
        "/solve",
        &json!({"board": ".".repeat(16), "rules": killer}),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let solution = answer.body["solution"].as_str().unwrap().to_owned();
    assert_eq!(&solution[4..8], "1234", "the thermometer rises: {solution}");
    let cage: u32 = solution[2..4]
        .chars()
        .map(|c| c.to_digit(10).unwrap())
        .sum();
    assert_eq!(cage, 3, "the cage sums to 3: {solution}");

    // X-sudoku: two 1s on the main diagonal, which rows, columns and boxes allow.
    let board = "1.........1.....";
    let answer = post_json(
        &app,
        "/validate",
        &json!({"board": board, "rules": {"diagonals": ["main"]}}),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body["valid"], false);
    assert_eq!(
        answer.body["conflicts"],
        json!([{"unit": "diagonal", "index": 0, "digit": 1, "cells": [cell(0, 0), cell(2, 2)],
                "message": "1 appears 2 times in diagonal 1: r1c1, r3c3"}])
    );
    let answer = post_json(&app, "/validate", &json!({"board": board})).await;
    assert_eq!(
        answer.body["valid"], true,
        "without the rule nothing clashes"
    );

    let answer = post_json(
        &app,
        "/solve",
        &json!({"board": board, "rules": {"diagonals": ["main"]}}),
    )
    .await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer.body["code"], "no_solution");
    assert_eq!(answer.body["conflicts"][0]["unit"], "diagonal");

    // A 4x4 with the anti-king rule has no solution: four cells of a box touch each other.
    let answer = post_json(
        &app,
        "/validate",
        &json!({"board": ".".repeat(16), "rules": {"anti_king": true}}),
    )
    .await;
    assert_eq!(
        (
            answer.body["valid"].clone(),
            answer.body["solvable"].clone()
        ),
        (json!(true), json!(false))
    );
}

#[tokio::test]
async fn malformed_rules_and_boards_are_400_naming_the_member() {
    let app = app();
    let cell = |row: usize, col: usize| json!({"row": row, "col": col});
    let cases: Vec<(Value, &str, &str, &str)> = vec![
        (
            json!({"board": ".".repeat(16), "rules": {"cages": [{"sum": 3, "cells": [cell(0, 0), cell(4, 0)]}]}}),
            "invalid_rules",
            "/rules/cages/0/cells/1",
            "r5c1 is off the board: a 4x4 board has rows and columns 1 to 4",
        ),
        (
            json!({"board": ".".repeat(16), "rules": {"cages": [{"sum": 9, "cells": [cell(0, 0), cell(0, 1)]}]}}),
            "invalid_rules",
            "/rules/cages/0/sum",
            "cage 1 cannot sum to 9: 2 different digits of 1 to 4 make 3 to 7",
        ),
        (
            json!({"board": ".".repeat(49)}),
            "invalid_rules",
            "/rules/regions",
            "a 7x7 board has no boxes (7 is prime): give its jigsaw regions",
        ),
        (
            json!({"board": ".".repeat(36), "rules": {"box": {"rows": 2, "cols": 2}}}),
            "invalid_rules",
            "/rules/box",
            "boxes of 2 by 2 cells do not tile a 6x6 board: rows times columns must be 6",
        ),
        (
            json!({"board": format!("5{}", ".".repeat(15))}),
            "invalid_board",
            "/board",
            "invalid cell '5' at r1c1 (character 1 of 16); a 4x4 board takes 1-4, \".\" or \"0\"",
        ),
        (
            json!({"board": ".".repeat(16), "rules": {"knights": true}}),
            "invalid_request",
            "/rules/knights",
            "unknown member",
        ),
        (
            json!({"board": ".".repeat(16), "rules": [null, null]}),
            "invalid_request",
            "/rules",
            "must be",
        ),
        (
            json!({"board": ".".repeat(16), "rules": {"cages": [{"sum": null, "cells": [cell(0, 0)]}]}}),
            "invalid_request",
            "/rules/cages/0/sum",
            "",
        ),
        (
            json!({"board": ".".repeat(16), "rules": {"odd": [[0, 0]]}}),
            "invalid_request",
            "/rules/odd/0",
            "",
        ),
        (
            json!({"board": ".".repeat(16), "rules": null}),
            "invalid_request",
            "/rules",
            "",
        ),
    ];
    for (body, code, pointer, words) in cases {
        let answer = post_json(&app, "/solve", &body).await;
        assert_eq!(
            answer.status,
            StatusCode::BAD_REQUEST,
            "{body}: {}",
            answer.body
        );
        assert_eq!(answer.body["code"], code, "{body}: {}", answer.body);
        assert_eq!(
            answer.body["errors"][0]["pointer"], pointer,
            "{}",
            answer.body
        );
        assert!(
            answer.body["detail"].as_str().unwrap().contains(words),
            "{}",
            answer.body
        );
    }
}

#[tokio::test]
async fn a_batch_mixes_sizes_and_takes_rules_for_every_board() {
    let app = app();
    let body = json!({"boards": [".".repeat(16), PUZZLE, "12"]});
    let answer = post_json(&app, "/solve/batch", &body).await;
    assert_eq!(answer.status, StatusCode::OK);
    let results = answer.body["results"].as_array().unwrap();
    assert_eq!(results[0]["unique"], false);
    assert_eq!(results[1], json!({"solution": SOLUTION, "unique": true}));
    assert_eq!(results[2]["error"]["code"], "invalid_board");

    let body = json!({"boards": ["1.........1.....", "1..............."], "rules": {"diagonals": ["main", "anti"]}});
    let answer = post_json(&app, "/solve/batch", &body).await;
    let results = answer.body["results"].as_array().unwrap();
    assert_eq!(results[0]["error"]["code"], "no_solution");
    let solution = results[1]["solution"].as_str().unwrap();
    let diagonal: String = (0..4).map(|i| solution.as_bytes()[i * 5] as char).collect();
    let mut sorted: Vec<char> = diagonal.chars().collect();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        ['1', '2', '3', '4'],
        "the main diagonal holds every digit: {solution}"
    );

    // Rules that fit no board at all (a thermometer of one cell) fail the whole batch.
    let body =
        json!({"boards": [".".repeat(16)], "rules": {"thermometers": [[{"row": 0, "col": 0}]]}});
    let answer = post_json(&app, "/solve/batch", &body).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.body["code"], "invalid_rules");
    assert_eq!(answer.body["errors"][0]["pointer"], "/rules/thermometers/0");
    assert_eq!(
        answer.body["detail"],
        "thermometer 1 must have 2 to 25 cells, found 1"
    );
}

#[tokio::test]
async fn grading_hints_and_explanations_say_they_are_classic_only() {
    let app = app();
    for (path, body, what) in [
        ("/grade", json!({"board": ".".repeat(16)}), "grading"),
        (
            "/grade",
            json!({"board": PUZZLE, "rules": {"anti_knight": true}}),
            "grading",
        ),
        ("/hint", json!({"board": PUZZLE, "rules": {}}), "a hint"),
        ("/hint", json!({"board": ".".repeat(36)}), "a hint"),
        (
            "/explain",
            json!({"board": ".".repeat(256)}),
            "an explanation",
        ),
    ] {
        let answer = post_json(&app, path, &body).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{path} {body}"
        );
        assert_eq!(answer.body["code"], "unsupported_rules");
        let detail = answer.body["detail"].as_str().unwrap();
        assert!(
            detail.starts_with(&format!("{what} is for classic 9x9 boards for now")),
            "{detail}"
        );
    }
}
