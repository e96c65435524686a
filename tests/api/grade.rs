//! `POST /grade` through the router: each board form, agreement with the generator, the step
//! budget, boards without exactly one solution and malformed bodies. What `/grade` must
//! answer is worked out with the core; nothing here is timed. The tests of `/grade` and
//! `/generate` together are in `generate.rs`.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use sudoku::grade::DEFAULT_STEP_BUDGET;
use sudoku::{GradeOptions, Grid, grade};
use sudoku_service::config::Config;

use crate::generate::patient;
use crate::helpers::*;

/// What `/grade` must answer for `grid`, worked out by the core.
fn expected_grade(grid: &Grid, steps: usize) -> Value {
    let options = GradeOptions {
        step_budget: steps,
        ..GradeOptions::default()
    };
    let grade = grade(grid, &options).expect("gradable");
    json!({
        "difficulty": grade.difficulty.as_str(),
        "rating": grade.rating.value(),
        "solved_by_logic": grade.solved_by_logic,
        "techniques": grade.techniques.iter().map(|t| json!({
            "name": t.name(),
            "rating": t.rating.value(),
            "count": t.count,
        })).collect::<Vec<_>>(),
    })
}

#[tokio::test]
async fn grade_answers_for_each_board_form() {
    let app = app();
    let expected = expected_grade(&grid(PUZZLE), DEFAULT_STEP_BUDGET);
    assert_eq!(expected["difficulty"], "easy");
    for (form, board) in [
        ("line", json!(PUZZLE)),
        ("chars", char_rows(PUZZLE)),
        ("ints", int_rows(PUZZLE)),
    ] {
        let answer = post_json(&app, "/grade", &json!({ "board": board })).await;
        assert_eq!(answer.status, StatusCode::OK, "{form}: {:?}", answer.body);
        assert_eq!(answer.content_type(), "application/json", "{form}");
        assert_eq!(answer.body, expected, "{form}");
        let steps: u64 = answer.body["techniques"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["count"].as_u64().unwrap())
            .sum();
        assert_eq!(
            steps,
            81 - 30,
            "{form}: one step per empty cell, singles only"
        );
    }
}

#[tokio::test]
async fn grade_of_a_generated_puzzle_agrees_with_the_generator() {
    let app = app_with(&patient());
    for difficulty in ["medium", "hard", "expert"] {
        let made = get(&app, &format!("/generate?difficulty={difficulty}&seed=3")).await;
        assert_eq!(made.status, StatusCode::OK, "{difficulty}: {:?}", made.body);
        let graded = post_json(&app, "/grade", &json!({ "board": made.body["puzzle"] })).await;
        assert_eq!(
            graded.status,
            StatusCode::OK,
            "{difficulty}: {:?}",
            graded.body
        );
        assert_eq!(graded.body["difficulty"], difficulty);
        assert_eq!(graded.body["rating"], made.body["rating"], "{difficulty}");
        assert_eq!(graded.body["solved_by_logic"], true, "{difficulty}");
        let techniques = graded.body["techniques"].as_array().unwrap();
        let hardest = techniques.last().unwrap();
        assert_eq!(hardest["rating"], graded.body["rating"], "{difficulty}");
        assert!(
            techniques
                .windows(2)
                .all(|w| w[0]["rating"].as_f64() <= w[1]["rating"].as_f64()),
            "{difficulty}: in order of rating: {techniques:?}"
        );
    }
}

#[tokio::test]
async fn grade_beyond_its_step_budget_answers_the_rating_reached() {
    let app = app_with(&Config {
        grade_step_budget: 5,
        ..Config::default()
    });
    let answer = post_json(&app, "/grade", &json!({ "board": PUZZLE })).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    assert_eq!(answer.body["solved_by_logic"], false);
    assert_eq!(answer.body, expected_grade(&grid(PUZZLE), 5));
    let counted: u64 = answer.body["techniques"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["count"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 5);
}

#[tokio::test]
async fn grade_a_solved_board_needs_no_step() {
    let answer = post_json(&app(), "/grade", &json!({ "board": SOLUTION })).await;
    assert_eq!(
        answer.body,
        json!({"difficulty": "easy", "rating": 0.0, "solved_by_logic": true, "techniques": []})
    );
}

#[tokio::test]
async fn grade_refuses_a_board_without_exactly_one_solution() {
    let app = app();
    let clash = post_json(&app, "/grade", &json!({ "board": clashing_board() })).await;
    clash.assert_problem(422, "no_solution", "clashing givens");
    // The conflicts `/solve` gives for the same board.
    let solve = post_json(&app, "/solve", &json!({ "board": clashing_board() })).await;
    assert_eq!(clash.body["conflicts"], solve.body["conflicts"]);
    assert_eq!(clash.body["conflicts"][0]["digit"], 5);

    let dead_end = post_json(&app, "/grade", &json!({ "board": DEAD_END })).await;
    dead_end.assert_problem(422, "no_solution", "dead end");
    assert_eq!(dead_end.body["conflicts"], json!([]));

    for (case, board) in [
        ("empty", json!(empty_board())),
        ("thirteen givens", json!(SLOW)),
        ("empty ints", int_rows(&empty_board())),
    ] {
        let answer = post_json(&app, "/grade", &json!({ "board": board })).await;
        answer.assert_problem(422, "multiple_solutions", case);
        assert!(
            answer.body["detail"]
                .as_str()
                .unwrap()
                .contains("exactly one"),
            "{case}: {:?}",
            answer.body
        );
        assert!(answer.body.get("conflicts").is_none(), "{case}");
    }
}

#[tokio::test]
async fn grade_refuses_malformed_bodies_as_every_endpoint_does() {
    let app = app();
    let short = post_json(&app, "/grade", &json!({ "board": &PUZZLE[..80] })).await;
    short.assert_problem(400, "invalid_board", "short line");
    assert_eq!(short.body["errors"][0]["pointer"], "/board");
    let cell = {
        let mut rows = int_rows(PUZZLE);
        rows[2][7] = json!(10);
        post_json(&app, "/grade", &json!({ "board": rows })).await
    };
    cell.assert_problem(400, "invalid_board", "cell ten");
    assert_eq!(cell.body["errors"][0]["pointer"], "/board/2/7");
    let extra = post_json(&app, "/grade", &json!({ "board": PUZZLE, "x": 1 })).await;
    extra.assert_problem(400, "invalid_request", "unknown field");
    let broken = call(
        &app,
        Method::POST,
        "/grade",
        Some("application/json"),
        "{\"board\":",
    )
    .await;
    broken.assert_problem(400, "invalid_json", "broken JSON");
    let plain = call(&app, Method::POST, "/grade", Some("text/plain"), PUZZLE).await;
    plain.assert_problem(415, "unsupported_media_type", "text/plain");
    let big = call(
        &app,
        Method::POST,
        "/grade",
        Some("application/json"),
        vec![b' '; 70_000],
    )
    .await;
    big.assert_problem(413, "payload_too_large", "70 kB");
}
