//! Puzzles sent as f-puzzles data (`"fpuzzles"`): a real share link, killer and jigsaw
//! puzzles in the JSON f-puzzles writes, each answer checked against the rules here without
//! the service; malformed data, constraints the engine does not know, a payload that would
//! decompress past the bound, and the batch entry form.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

/// A real f-puzzles share link: an X-sudoku (both diagonals).
const X_SUDOKU_LINK: &str = "https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSQA3AQwBsBXOeAdlTQgpgDsEAXDBkmSGDBlWgwQBmVuy69+MUdXqMArDI7d4fAQF1khMSoQAODXO0KRpa8PLKJSc1p2KbN/YSXjGAJmfyAu6gDowAbAGWQSE+CCzosi5WwbZEnnYZ3sbw0gmagW4x2ep5Fq5ZjhGlSdFpBpnBRo4AjJHlKY2hUm1W6bZNfj219rHwZtUFqSPZACxDhXVeHUUt8xWMKBNRC52jJWz52yJ9y+sI+4mTywNxax71Uw0ZN/BzW+W6+iDYEFRoAPacWgAagKqB+f0BtAAtJMgA===";

/// Its givens, row by row.
const X_SUDOKU_GIVENS: &str =
    "..7....358.....9...2.67.........356.....1...3..2.8..4....19..5.....5..7.........4";

const DIGITS: &str = "123456789ABCDEFGHIJKLMNOP";

/// The digits of a solution in the string form.
fn digits(solution: &str) -> Vec<usize> {
    solution
        .chars()
        .map(|c| DIGITS.find(c).map_or(0, |i| i + 1))
        .collect()
}

/// Whether every group of `cells` (row-major indexes) holds each digit at most once, and
/// exactly the digits 1 to `side` when `full`.
fn all_differ(values: &[usize], groups: &[Vec<usize>], side: usize, full: bool) -> bool {
    groups.iter().all(|group| {
        let seen: BTreeSet<usize> = group.iter().map(|&i| values[i]).collect();
        seen.len() == group.len() && (!full || seen == (1..=side).collect())
    })
}

/// Rows, columns and the groups of `region` (each cell's region number), for `side`.
fn classic_groups(side: usize, region: impl Fn(usize, usize) -> usize) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = (0..side)
        .map(|r| (0..side).map(|c| r * side + c).collect())
        .collect();
    groups.extend((0..side).map(|c| (0..side).map(|r| r * side + c).collect()));
    let mut regions = vec![Vec::new(); side];
    for i in 0..side * side {
        regions[region(i / side, i % side)].push(i);
    }
    groups.extend(regions);
    groups
}

/// Whether `solution` is full and keeps the givens of `givens` (same form, `.` empty).
fn keeps_givens(solution: &str, givens: &str) -> bool {
    solution.len() == givens.len()
        && !solution.contains('.')
        && givens
            .chars()
            .zip(solution.chars())
            .all(|(g, s)| g == '.' || g == s)
}

/// The f-puzzles JSON of a grid of `side` with `givens` (string form) and a region per
/// cell when `region` says one, plus `extra` members.
fn fpuzzles_json(
    side: usize,
    givens: &str,
    region: impl Fn(usize, usize) -> Option<usize>,
    extra: &Value,
) -> String {
    let grid: Vec<Vec<Value>> = (0..side)
        .map(|r| {
            (0..side)
                .map(|c| {
                    let mut cell = json!({});
                    let given = givens.as_bytes()[r * side + c];
                    if given != b'.' {
                        cell["value"] = json!(DIGITS.find(char::from(given)).unwrap() + 1);
                        cell["given"] = json!(true);
                    }
                    if let Some(region) = region(r, c) {
                        cell["region"] = json!(region);
                    }
                    cell
                })
                .collect()
        })
        .collect();
    let mut puzzle =
        json!({"size": side, "title": "A test", "author": "sudoku-service", "grid": grid});
    for (name, value) in extra.as_object().unwrap() {
        puzzle[name] = value.clone();
    }
    puzzle.to_string()
}

async fn solve_fpuzzles(app: &Router, data: &str) -> String {
    let answer = post_json(app, "/solve", &json!({ "fpuzzles": data })).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    answer.body["solution"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_real_share_link_is_solved_as_an_x_sudoku() {
    let app = app();
    let answer = post_json(&app, "/solve", &json!({ "fpuzzles": X_SUDOKU_LINK })).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["unique"], true);
    let solution = answer.body["solution"].as_str().unwrap();
    assert!(keeps_givens(solution, X_SUDOKU_GIVENS), "{solution}");
    let mut groups = classic_groups(9, |r, c| (r / 3) * 3 + c / 3);
    groups.push((0..9).map(|i| i * 9 + i).collect());
    groups.push((0..9).map(|i| i * 9 + 8 - i).collect());
    assert!(
        all_differ(&digits(solution), &groups, 9, true),
        "{solution}"
    );
    // The bare payload, and /validate, read it alike.
    let payload = X_SUDOKU_LINK.split_once("load=").unwrap().1;
    assert_eq!(solve_fpuzzles(&app, payload).await, solution);
    let report = post_json(&app, "/validate", &json!({ "fpuzzles": payload })).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.body);
    assert_eq!(
        (
            &report.body["valid"],
            &report.body["solvable"],
            &report.body["unique"]
        ),
        (&json!(true), &json!(true), &json!(true))
    );
}

#[tokio::test]
async fn a_killer_puzzle_is_solved_within_its_cages() {
    let app = app();
    // Each row cut into three cages of three, their sums those of the classic solution.
    let solution_digits = digits(SOLUTION);
    let cages: Vec<Vec<usize>> = (0..27)
        .map(|k| (0..3).map(|i| (k / 3) * 9 + (k % 3) * 3 + i).collect())
        .collect();
    let killercage: Vec<Value> = cages
        .iter()
        .map(|cage| {
            let sum: usize = cage.iter().map(|&i| solution_digits[i]).sum();
            let names: Vec<String> = cage
                .iter()
                .map(|i| format!("R{}C{}", i / 9 + 1, i % 9 + 1))
                .collect();
            json!({"cells": names, "value": sum.to_string()})
        })
        .collect();
    let givens: String = PUZZLE
        .chars()
        .enumerate()
        .map(|(i, c)| if i % 2 == 0 { c } else { '.' })
        .collect();
    let data = fpuzzles_json(
        9,
        &givens,
        |_, _| None,
        &json!({ "killercage": killercage }),
    );
    let solution = solve_fpuzzles(&app, &data).await;
    assert!(keeps_givens(&solution, &givens), "{solution}");
    let values = digits(&solution);
    assert!(all_differ(
        &values,
        &classic_groups(9, |r, c| (r / 3) * 3 + c / 3),
        9,
        true
    ));
    for cage in &cages {
        let expected: usize = cage.iter().map(|&i| solution_digits[i]).sum();
        assert_eq!(cage.iter().map(|&i| values[i]).sum::<usize>(), expected);
    }
    assert!(all_differ(&values, &cages, 9, false));
}

#[tokio::test]
async fn a_7x7_jigsaw_with_odd_cells_and_a_thermometer_keeps_its_regions() {
    let app = app();
    // A 7x7 has no boxes: each broken diagonal is a region, and the cyclic square
    // (r + c) mod 7 + 1 fills it; a third of its cells given.
    let region = |r: usize, c: usize| (r + 7 - c) % 7;
    let cyclic: Vec<char> = (0..49)
        .map(|i| DIGITS.as_bytes()[(i / 7 + i % 7) % 7] as char)
        .collect();
    let givens: String = cyclic
        .iter()
        .enumerate()
        .map(|(i, &c)| if i % 3 == 0 { c } else { '.' })
        .collect();
    let extra = json!({
        "odd": [{"cell": "R1C1"}],
        "even": [{"cell": "R1C2"}],
        "thermometer": [{"lines": [["R2C1", "R2C2", "R2C3"]]}],
    });
    let data = fpuzzles_json(7, &givens, |r, c| Some(region(r, c)), &extra);
    let solution = solve_fpuzzles(&app, &data).await;
    assert!(keeps_givens(&solution, &givens), "{solution}");
    let values = digits(&solution);
    assert!(
        all_differ(&values, &classic_groups(7, region), 7, true),
        "{solution}"
    );
    assert!(values[0] % 2 == 1 && values[1] % 2 == 0, "{solution}");
    assert!(values[7] < values[8] && values[8] < values[9], "{solution}");
}

#[tokio::test]
async fn malformed_data_is_400_invalid_fpuzzles_and_unknown_constraints_422() {
    let app = app();
    for (data, expected) in [
        ("N4Ig!!".to_owned(), "not base64"),
        ("{\"size\": 9}".to_owned(), "\"grid\" must be 9 rows"),
        (
            "{\"size\": 30, \"grid\": []}".to_owned(),
            "\"size\" must be an integer",
        ),
        (
            fpuzzles_json(
                4,
                &".".repeat(16),
                |_, _| None,
                &json!({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "20"}]}),
            ),
            "rules do not fit",
        ),
    ] {
        let answer = post_json(&app, "/solve", &json!({ "fpuzzles": data })).await;
        assert_eq!(
            answer.problem_fault(400, "invalid_fpuzzles"),
            None,
            "{}",
            answer.body
        );
        assert_eq!(answer.body["errors"][0]["pointer"], "/fpuzzles");
        let detail = answer.body["detail"].as_str().unwrap();
        assert!(detail.contains(expected), "{data}: {detail}");
    }
    let data = fpuzzles_json(
        9,
        &".".repeat(81),
        |_, _| None,
        &json!({"arrow": [{"lines": [["R1C1", "R1C2"]], "cells": ["R1C1"]}], "xv": [{"cells": ["R1C1", "R1C2"], "value": "X"}], "palindrome": []}),
    );
    for route in ["/solve", "/validate"] {
        let answer = post_json(&app, route, &json!({ "fpuzzles": data })).await;
        assert_eq!(
            answer.problem_fault(422, "unsupported_rules"),
            None,
            "{}",
            answer.body
        );
        let detail = answer.body["detail"].as_str().unwrap();
        assert!(
            detail.contains("constraints arrow, xv are not supported"),
            "{detail}"
        );
    }
}

#[tokio::test]
async fn a_payload_that_would_decompress_hugely_is_refused_fast() {
    let app = app();
    // About 8 KB that spell ten million characters (tests/data/fpuzzles/README.md).
    let bomb = include_str!("../data/fpuzzles/ten-million-a.txt").trim();
    let started = Instant::now();
    let answer = post_json(&app, "/solve", &json!({ "fpuzzles": bomb })).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        answer.problem_fault(400, "invalid_fpuzzles"),
        None,
        "{}",
        answer.body
    );
    let detail = answer.body["detail"].as_str().unwrap();
    assert!(
        detail.contains("longer than 1048576 characters"),
        "{detail}"
    );
}

#[tokio::test]
async fn a_body_holds_one_puzzle_and_fpuzzles_brings_its_own_rules() {
    let app = app();
    let payload = X_SUDOKU_LINK.split_once("load=").unwrap().1;
    for (body, pointer) in [
        (json!({"board": PUZZLE, "fpuzzles": payload}), "/fpuzzles"),
        (
            json!({"rules": {"anti_king": true}, "fpuzzles": payload}),
            "/rules",
        ),
        (json!({"rules": {"anti_king": true}}), "/board"),
        (json!({"fpuzzles": 5}), "/fpuzzles"),
    ] {
        for route in ["/solve", "/validate", "/grade"] {
            let answer = post_json(&app, route, &body).await;
            assert_eq!(
                answer.problem_fault(400, "invalid_request"),
                None,
                "{route} {body}: {}",
                answer.body
            );
            assert_eq!(
                answer.body["errors"][0]["pointer"], pointer,
                "{route} {body}"
            );
        }
    }
    let answer = post_json(&app, "/grade", &json!({ "fpuzzles": payload })).await;
    assert_eq!(
        answer.problem_fault(422, "unsupported_rules"),
        None,
        "{}",
        answer.body
    );
}

#[tokio::test]
async fn a_batch_entry_may_be_fpuzzles_data() {
    let app = app();
    let payload = X_SUDOKU_LINK.split_once("load=").unwrap().1;
    let solved = solve_fpuzzles(&app, payload).await;
    let body = json!({"boards": [
        PUZZLE,
        {"fpuzzles": X_SUDOKU_LINK},
        {"fpuzzles": "N4Ig!!"},
        {"fpuzzles": payload, "board": PUZZLE},
        {"board": PUZZLE},
    ]});
    let answer = post_json(&app, "/solve/batch", &body).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let results = answer.body["results"].as_array().unwrap();
    assert_eq!(results[0]["solution"], SOLUTION);
    assert_eq!(results[1]["solution"], solved.as_str());
    assert_eq!(results[2]["error"]["code"], "invalid_fpuzzles");
    assert_eq!(
        results[2]["error"]["errors"][0]["pointer"],
        "/boards/2/fpuzzles"
    );
    assert_eq!(results[3]["error"]["code"], "invalid_request");
    assert_eq!(
        results[3]["error"]["errors"][0]["pointer"],
        "/boards/3/board"
    );
    assert_eq!(
        results[4]["error"]["code"], "invalid_board",
        "an object is no board"
    );
    // Batch rules are for boards: an f-puzzles entry has its own.
    let body = json!({"boards": [{"fpuzzles": payload}], "rules": {"anti_king": true}});
    let answer = post_json(&app, "/solve/batch", &body).await;
    assert_eq!(
        answer.body["results"][0]["error"]["code"], "invalid_request",
        "{}",
        answer.body
    );
}
