//! `POST /hint` and `POST /explain` over a real socket on 127.0.0.1 (and, where a held
//! solver slot or paused time is needed, through the router): every kind of hint, every
//! status, `Accept-Language`, and that what a hint places or removes is true of the
//! solution. What the answers must be is worked out with the core, not copied in.

use std::num::NonZeroUsize;
use std::time::Duration;

use serde_json::{Value, json};
use sudoku::logic::{Candidates, DEFAULT_WORK_BUDGET, Step, next_step};
use sudoku::{GradeOptions, Grid, Hint, HintOptions, Solver, grade, hint};
use sudoku_service::config::Config;

use crate::helpers::*;

/// A proper 17-clue puzzle whose path needs more than singles (the logic's BUG+1 test).
const HARDER: &str =
    "................12..3.45.................63.417.2.................81..7.3.4...6..";

/// An answer read off the socket.
struct Reply {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Value,
}

impl Reply {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// Asserts a problem+json answer of `status` and `code`.
    fn assert_problem(&self, status: u16, code: &str, case: &str) {
        assert_eq!(self.status, status, "{case}: {}", self.body);
        assert_eq!(
            self.header("content-type"),
            "application/problem+json",
            "{case}"
        );
        assert_eq!(self.body["code"], code, "{case}: {}", self.body);
        assert_eq!(self.body["status"], status, "{case}");
        assert!(
            self.body["detail"].as_str().is_some_and(|d| !d.is_empty()),
            "{case}: {}",
            self.body
        );
    }
}

/// POSTs `body` to `path` on `server`, with `Accept-Language: language` when given.
async fn post(server: &TestServer, path: &str, body: &Value, language: Option<&str>) -> Reply {
    let mut request = reqwest::Client::new().post(server.url(path)).json(body);
    if let Some(language) = language {
        request = request.header("accept-language", language);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Reply {
        status,
        headers,
        body,
    }
}

async fn server() -> TestServer {
    TestServer::start(Config::default()).await
}

fn solution_of(puzzle: &Grid) -> Grid {
    Solver::default().solve(puzzle).unwrap()
}

/// A cell on the wire as a 0..81 index.
fn cell_of(value: &Value) -> usize {
    let row = value["row"].as_u64().unwrap() as usize;
    let col = value["col"].as_u64().unwrap() as usize;
    assert!(row < 9 && col < 9, "{value}");
    row * 9 + col
}

fn candidates_of(list: &Value) -> Vec<(usize, u8)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| (cell_of(c), c["digit"].as_u64().unwrap() as u8))
        .collect()
}

/// Asserts that a step body says what `step` says, and that it is true of `solution`.
fn assert_step(body: &Value, step: &Step, solution: &Grid, case: &str) {
    assert_eq!(body["kind"], "step", "{case}: {body}");
    assert_eq!(body["technique"], step.technique.name(), "{case}");
    assert_eq!(
        body["technique_name"],
        step.technique.display_name(),
        "{case}"
    );
    assert_eq!(
        format!("{:.1}", body["rating"].as_f64().unwrap()),
        step.rating.to_string(),
        "{case}"
    );
    let placements = candidates_of(&body["placements"]);
    let eliminations = candidates_of(&body["eliminations"]);
    assert_eq!(placements, step.placements, "{case}");
    assert_eq!(eliminations, step.eliminations, "{case}");
    for &(cell, digit) in &placements {
        assert_eq!(
            solution.cells()[cell],
            digit,
            "{case}: places a wrong digit"
        );
    }
    for &(cell, digit) in &eliminations {
        assert_ne!(
            solution.cells()[cell],
            digit,
            "{case}: removes the solution's digit"
        );
    }
    let highlighted: Vec<usize> = body["highlights"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(cell_of)
        .collect();
    let mut expected = step.cells.clone();
    let mut seen = 0u128;
    expected.retain(|&c| {
        let new = seen >> c & 1 == 0;
        seen |= 1 << c;
        new
    });
    assert_eq!(highlighted, expected, "{case}");
    assert_eq!(
        body["highlights"]["units"].as_array().unwrap().len(),
        step.units.len(),
        "{case}"
    );
    let text = body["explanation"].as_str().unwrap();
    for &(cell, _) in placements.iter().chain(&eliminations) {
        let name = format!("r{}c{}", cell / 9 + 1, cell % 9 + 1);
        assert!(text.contains(&name), "{case}: {name} not in {text:?}");
    }
}

/// The stages of a `/hint` answer: those its kind has, in order, each giving away a little
/// more: the nudge names units only, neither it nor the technique names the cell a digit
/// goes in, and the answer is the hint's own sentence and highlights.
fn assert_stages(body: &Value, case: &str) {
    let expected: &[&str] = match body["kind"].as_str().unwrap() {
        "step" => &["nudge", "technique", "cells", "answer"],
        "mistake" | "pencil_marks" => &["nudge", "answer"],
        _ => &["answer"],
    };
    let stages = body["stages"].as_array().expect("stages");
    let kinds: Vec<&str> = stages.iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, expected, "{case}: {body}");
    let (answer, before) = stages.split_last().unwrap();
    assert_eq!(answer["text"], body["explanation"], "{case}");
    assert_eq!(answer["highlights"], body["highlights"], "{case}");
    let told: Vec<String> = candidates_of(&body["placements"])
        .into_iter()
        .map(|(cell, _)| format!("r{}c{}", cell / 9 + 1, cell % 9 + 1))
        .collect();
    for stage in before.iter().take(2) {
        let text = stage["text"].as_str().unwrap();
        assert!(!text.is_empty(), "{case}");
        for name in &told {
            assert!(
                !text.contains(name.as_str()),
                "{case}: {text} gives away {name}"
            );
        }
    }
    if let Some(nudge) = before.first() {
        assert_eq!(nudge["highlights"]["cells"], json!([]), "{case}");
        assert!(
            !nudge["highlights"]["units"].as_array().unwrap().is_empty(),
            "{case}"
        );
        let text = nudge["text"].as_str().unwrap();
        let names_a_cell = text.as_bytes().windows(4).any(|w| {
            w[0] == b'r' && w[1].is_ascii_digit() && w[2] == b'c' && w[3].is_ascii_digit()
        });
        assert!(!names_a_cell, "{case}: the nudge names a cell: {text}");
    }
    if let [_, technique, ..] = before {
        let name = body["technique_name"].as_str().unwrap();
        assert!(
            technique["text"].as_str().unwrap().contains(name),
            "{case}: {technique}"
        );
    }
}

/// A body of a kind other than `step`: no technique, no rating.
fn assert_plain(body: &Value, kind: &str, case: &str) {
    assert_stages(body, case);
    assert_eq!(body["kind"], kind, "{case}: {body}");
    for field in ["technique", "technique_name", "rating"] {
        assert_eq!(body[field], Value::Null, "{case}: {field}");
    }
    assert!(
        body["explanation"].as_str().is_some_and(|t| !t.is_empty()),
        "{case}"
    );
}

/// The classic puzzle's empty cells, each with a digit it could hold by the givens that
/// is not its solution's.
fn quiet_mistakes() -> Vec<(usize, u8)> {
    let puzzle = grid(PUZZLE);
    let state = Candidates::from_grid(&puzzle).unwrap();
    let solution = grid(SOLUTION);
    (0..81)
        .filter_map(|c| {
            (1..=9)
                .find(|&d| state.has(c, d) && d != solution.cells()[c])
                .map(|d| (c, d))
        })
        .collect()
}

fn with(line: &str, cell: usize, digit: u8) -> String {
    let mut bytes = line.as_bytes().to_vec();
    bytes[cell] = if digit == 0 { b'.' } else { b'0' + digit };
    String::from_utf8(bytes).unwrap()
}

/// Every candidate of `state`, as `candidates` on the wire (81 lists).
fn wire_marks(state: &Candidates) -> Value {
    Value::Array(
        (0..81)
            .map(|c| Value::from((1..=9).filter(|&d| state.has(c, d)).collect::<Vec<u8>>()))
            .collect(),
    )
}

// --- 200: each kind ----------------------------------------------------------------------

#[tokio::test]
async fn a_hint_is_the_logical_solvers_next_step_in_each_board_form() {
    let server = server().await;
    let puzzle = grid(PUZZLE);
    let step = next_step(
        &Candidates::from_grid(&puzzle).unwrap(),
        &mut DEFAULT_WORK_BUDGET.clone(),
    )
    .unwrap();
    for (form, board) in [
        ("line", json!(PUZZLE)),
        ("chars", char_rows(PUZZLE)),
        ("ints", int_rows(PUZZLE)),
    ] {
        let reply = post(&server, "/hint", &json!({ "board": board }), None).await;
        assert_eq!(reply.status, 200, "{form}: {}", reply.body);
        assert_eq!(reply.header("content-type"), "application/json", "{form}");
        assert_eq!(reply.header("content-language"), "en", "{form}");
        assert!(
            reply
                .header("vary")
                .to_ascii_lowercase()
                .contains("accept-language"),
            "{form}: vary {:?}",
            reply.header("vary")
        );
        assert_step(&reply.body, &step, &puzzle_solution(), form);
        assert_stages(&reply.body, form);
        // With its givens in another form, the same hint.
        let with_givens = post(
            &server,
            "/hint",
            &json!({ "board": board, "givens": int_rows(PUZZLE) }),
            None,
        )
        .await;
        assert_eq!(with_givens.body, reply.body, "{form} with givens");
    }
    server.shutdown().await.unwrap();
}

fn puzzle_solution() -> Grid {
    grid(SOLUTION)
}

#[tokio::test]
async fn a_wrong_digit_is_reported_first_without_its_right_digit() {
    let server = server().await;
    let mistakes = quiet_mistakes();
    let (first, digit) = mistakes[3];
    let (later, other) = mistakes[mistakes.len() - 1];
    let board = with(&with(PUZZLE, later, other), first, digit);
    // Pencil marks that are all wrong too: the digit comes first.
    let marks = Value::Array(vec![json!([]); 81]);
    let reply = post(
        &server,
        "/hint",
        &json!({ "board": board, "givens": PUZZLE, "candidates": marks }),
        None,
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_plain(&reply.body, "mistake", "wrong digit");
    assert_eq!(reply.body["placements"], json!([]));
    assert_eq!(reply.body["eliminations"], json!([]));
    let cells: Vec<usize> = reply.body["highlights"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(cell_of)
        .collect();
    assert_eq!(cells, [first]);
    let text = reply.body["explanation"].as_str().unwrap();
    assert!(
        text.contains(&format!("r{}c{}", first / 9 + 1, first % 9 + 1)),
        "{text}"
    );
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn pencil_marks_missing_the_solutions_digit_come_before_a_step() {
    let server = server().await;
    let state = Candidates::from_grid(&grid(PUZZLE)).unwrap();
    let solution = puzzle_solution();
    let mut marks = wire_marks(&state);
    // A cell with other candidates than its digit, so that its marks are not left empty.
    let cell = (0..81).find(|&c| state.mask(c).count_ones() > 1).unwrap();
    let right = solution.cells()[cell];
    marks[cell] = Value::from(
        (1..=9)
            .filter(|&d| state.has(cell, d) && d != right)
            .collect::<Vec<u8>>(),
    );
    let body = json!({ "board": PUZZLE, "candidates": marks });
    let reply = post(&server, "/hint", &body, None).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_plain(&reply.body, "pencil_marks", "a mark lost");
    assert_eq!(cell_of(&reply.body["highlights"]["cells"][0]), cell);
    // Every mark of the cell crossed out: the same kind, in other words.
    let mut emptied = body.clone();
    emptied["candidates"][cell] = json!([]);
    let reply2 = post(&server, "/hint", &emptied, None).await;
    assert_plain(&reply2.body, "pencil_marks", "every mark removed");
    assert_ne!(reply2.body["explanation"], reply.body["explanation"]);
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_player_who_crossed_out_the_steps_candidates_gets_the_next_one() {
    let server = server().await;
    let puzzle = grid(HARDER);
    let solution = solution_of(&puzzle);
    // Walk to the first step that only removes candidates.
    let mut state = Candidates::from_grid(&puzzle).unwrap();
    let step = loop {
        let step = next_step(&state, &mut DEFAULT_WORK_BUDGET.clone()).unwrap();
        if step.placements.is_empty() {
            break step;
        }
        step.apply(&mut state);
    };
    let board = state.to_grid().to_line();
    let marks = wire_marks(&state);
    let body = json!({ "board": board, "givens": HARDER, "candidates": marks });
    let reply = post(&server, "/hint", &body, None).await;
    assert_step(&reply.body, &step, &solution, "before");
    assert_stages(&reply.body, "before");
    let mut after = state.clone();
    step.apply(&mut after);
    let next = next_step(&after, &mut DEFAULT_WORK_BUDGET.clone()).unwrap();
    let body = json!({ "board": board, "givens": HARDER, "candidates": wire_marks(&after) });
    let reply = post(&server, "/hint", &body, None).await;
    assert_step(&reply.body, &next, &solution, "after crossing out");
    assert_stages(&reply.body, "after crossing out");
    // Marks as 9 rows of 9, with null for cells the player left unmarked: the same.
    let mut rows = Vec::new();
    for row in 0..9 {
        let entries: Vec<Value> = (0..9)
            .map(|col| {
                let cell = row * 9 + col;
                if after.mask(cell) == state.mask(cell) {
                    Value::Null
                } else {
                    wire_marks(&after)[cell].clone()
                }
            })
            .collect();
        rows.push(Value::Array(entries));
    }
    let body = json!({ "board": board, "givens": HARDER, "candidates": rows });
    let in_rows = post(&server, "/hint", &body, None).await;
    assert_eq!(in_rows.body, reply.body);
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn the_solved_board_gets_a_sentence_and_no_technique() {
    let server = server().await;
    for body in [
        json!({ "board": SOLUTION }),
        json!({ "board": SOLUTION, "givens": PUZZLE }),
    ] {
        let reply = post(&server, "/hint", &body, None).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_plain(&reply.body, "solved", "solved");
        assert_eq!(reply.body["highlights"], json!({"cells": [], "units": []}));
    }
    server.shutdown().await.unwrap();
}

/// A puzzle of the hardest set (`puzzles5_forum_hardest_1905_11+`, line 1) whose first
/// step no technique finds within the default work budget; the test checks it with the
/// core before asking the server.
const STUCK: &str =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

#[tokio::test]
async fn a_stuck_position_reveals_one_digit_of_the_solution() {
    let puzzle = grid(STUCK);
    let Ok(Hint::Stuck {
        reveal: (cell, digit),
    }) = hint(&puzzle, &HintOptions::default())
    else {
        panic!("the logic finds a step in {STUCK}");
    };
    assert_eq!(solution_of(&puzzle).cells()[cell], digit);
    let server = server().await;
    let reply = post(&server, "/hint", &json!({ "board": STUCK }), None).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_plain(&reply.body, "stuck", "stuck");
    assert_eq!(candidates_of(&reply.body["placements"]), [(cell, digit)]);
    assert_eq!(cell_of(&reply.body["highlights"]["cells"][0]), cell);
    let text = reply.body["explanation"].as_str().unwrap();
    let name = format!("r{}c{}", cell / 9 + 1, cell % 9 + 1);
    assert!(text.contains(&format!("{name} is {digit}")), "{text}");
    server.shutdown().await.unwrap();
}

// --- Accept-Language -----------------------------------------------------------------------

#[tokio::test]
async fn accept_language_picks_the_german_table_and_falls_back_to_english() {
    let server = server().await;
    let body = json!({ "board": PUZZLE });
    let english = post(&server, "/hint", &body, None).await;
    for (header, language) in [
        ("de", "de"),
        ("de-CH, en;q=0.5", "de"),
        ("fr, de;q=0.4, en;q=0.3", "de"),
        ("fr", "en"),
        ("de;q=0, *", "en"),
        ("en;q=0.2, de;q=0.9", "de"),
        ("not a header ;;; q=x", "en"),
    ] {
        let reply = post(&server, "/hint", &body, Some(header)).await;
        assert_eq!(reply.status, 200, "{header}");
        assert_eq!(reply.header("content-language"), language, "{header}");
        // Only the words change.
        let mut fields = reply.body.clone();
        for words in ["explanation", "technique_name"] {
            fields[words] = english.body[words].clone();
        }
        for (i, stage) in english.body["stages"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            fields["stages"][i]["text"] = stage["text"].clone();
        }
        assert_eq!(fields, english.body, "{header}");
        let same_words = reply.body["explanation"] == english.body["explanation"];
        assert_eq!(
            same_words,
            language == "en",
            "{header}: {}",
            reply.body["explanation"]
        );
    }
    let german = post(&server, "/hint", &body, Some("de")).await;
    // The technique's name and every stage are German too.
    assert_eq!(german.body["technique_name"], "Versteckter Einer im Block");
    assert_stages(&german.body, "German");
    assert_eq!(
        german.body["stages"][0]["text"],
        "Der nächste Schritt liegt in Block 2."
    );
    let text = german.body["explanation"].as_str().unwrap();
    assert!(
        text.contains("Block") || text.contains("Zeile") || text.contains("Spalte"),
        "{text}"
    );
    let explained = post(
        &server,
        "/explain",
        &json!({"board": PUZZLE, "max_steps": 2}),
        Some("de"),
    )
    .await;
    assert_eq!(explained.header("content-language"), "de");
    assert_eq!(
        explained.body["steps"][0]["explanation"],
        german.body["explanation"]
    );
    server.shutdown().await.unwrap();
}

// --- /explain --------------------------------------------------------------------------

#[tokio::test]
async fn explain_gives_the_graders_path_its_rating_and_difficulty() {
    let server = server().await;
    let puzzle = grid(HARDER);
    let solution = solution_of(&puzzle);
    let reply = post(&server, "/explain", &json!({ "board": HARDER }), None).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.header("content-language"), "en");
    let graded = post(&server, "/grade", &json!({ "board": HARDER }), None).await;
    assert_eq!(reply.body["rating"], graded.body["rating"]);
    assert_eq!(reply.body["difficulty"], graded.body["difficulty"]);
    assert_eq!(reply.body["solved"], graded.body["solved_by_logic"]);
    assert_eq!(reply.body["solved"], true);
    let grade = grade(&puzzle, &GradeOptions::default()).unwrap();
    let steps = reply.body["steps"].as_array().unwrap();
    assert_eq!(steps.len(), grade.steps);
    let mut state = Candidates::from_grid(&puzzle).unwrap();
    for (i, body) in steps.iter().enumerate() {
        let step = next_step(&state, &mut DEFAULT_WORK_BUDGET.clone()).unwrap();
        assert_step(body, &step, &solution, &format!("step {i}"));
        assert!(
            body.get("stages").is_none(),
            "step {i}: stages are for hints"
        );
        step.apply(&mut state);
    }
    assert!(state.is_solved());
    // max_steps bounds the path.
    let short = post(
        &server,
        "/explain",
        &json!({ "board": HARDER, "max_steps": 4 }),
        None,
    )
    .await;
    assert_eq!(short.status, 200);
    assert_eq!(short.body["solved"], false);
    assert_eq!(short.body["steps"].as_array().unwrap()[..], steps[..4]);
    server.shutdown().await.unwrap();
}

// --- 400, 413, 415 -------------------------------------------------------------------------

#[tokio::test]
async fn malformed_requests_are_400_with_a_pointer() {
    let server = server().await;
    let mut digit_ten = vec![json!(null); 81];
    digit_ten[12] = json!([3, 10]);
    let cases: Vec<(&str, &str, Value, &str, Option<&str>)> = vec![
        (
            "bad board",
            "/hint",
            json!({"board": "x"}),
            "invalid_board",
            Some("/board"),
        ),
        (
            "no board",
            "/hint",
            json!({"givens": PUZZLE}),
            "invalid_request",
            Some("/board"),
        ),
        (
            "unknown field",
            "/hint",
            json!({"board": PUZZLE, "marks": []}),
            "invalid_request",
            Some("/marks"),
        ),
        (
            "bad givens",
            "/hint",
            json!({"board": PUZZLE, "givens": [[1]]}),
            "invalid_board",
            Some("/givens"),
        ),
        (
            "null givens",
            "/hint",
            json!({"board": PUZZLE, "givens": null}),
            "invalid_board",
            Some("/givens"),
        ),
        (
            "80 candidates",
            "/hint",
            json!({"board": PUZZLE, "candidates": vec![json!([]); 80]}),
            "invalid_board",
            Some("/candidates"),
        ),
        (
            "digit 10",
            "/hint",
            json!({"board": PUZZLE, "candidates": digit_ten}),
            "invalid_board",
            Some("/candidates/12/1"),
        ),
        (
            "candidates text",
            "/hint",
            json!({"board": PUZZLE, "candidates": "123"}),
            "invalid_board",
            Some("/candidates"),
        ),
        (
            "explain bad board",
            "/explain",
            json!({"board": [1, 2]}),
            "invalid_board",
            Some("/board"),
        ),
        (
            "explain givens",
            "/explain",
            json!({"board": PUZZLE, "givens": PUZZLE}),
            "invalid_request",
            Some("/givens"),
        ),
    ];
    for (case, path, body, code, pointer) in cases {
        let reply = post(&server, path, &body, None).await;
        reply.assert_problem(400, code, case);
        if let Some(pointer) = pointer {
            assert_eq!(
                reply.body["errors"][0]["pointer"], pointer,
                "{case}: {}",
                reply.body
            );
        }
    }
    for steps in [
        json!(0),
        json!(1001),
        json!(-1),
        json!(1.5),
        json!("3"),
        json!(null),
    ] {
        let reply = post(
            &server,
            "/explain",
            &json!({"board": PUZZLE, "max_steps": steps}),
            None,
        )
        .await;
        let case = format!("max_steps {steps}");
        reply.assert_problem(400, "invalid_parameter", &case);
        assert_eq!(reply.body["parameter"], "max_steps", "{case}");
    }
    // Broken JSON, and no JSON content type.
    for path in ["/hint", "/explain"] {
        let client = reqwest::Client::new();
        let broken = client
            .post(server.url(path))
            .header("content-type", "application/json")
            .body("{\"board\":")
            .send()
            .await
            .unwrap();
        assert_eq!(broken.status(), 400, "{path}");
        let body: Value = broken.json().await.unwrap();
        assert_eq!(body["code"], "invalid_json", "{path}");
        let plain = client
            .post(server.url(path))
            .header("content-type", "text/plain")
            .body(json!({"board": PUZZLE}).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(plain.status(), 415, "{path}");
        let body: Value = plain.json().await.unwrap();
        assert_eq!(body["code"], "unsupported_media_type", "{path}");
    }
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_body_over_the_limit_is_413() {
    let server = TestServer::start(Config {
        body_limit: 1024,
        ..Config::default()
    })
    .await;
    // Pencil marks as long lists of repeats: well formed, and too large.
    let marks = Value::Array(vec![json!(vec![1; 20]); 81]);
    for path in ["/hint", "/explain"] {
        let body = json!({ "board": PUZZLE, "candidates": marks });
        let reply = post(&server, path, &body, None).await;
        reply.assert_problem(413, "payload_too_large", path);
    }
    server.shutdown().await.unwrap();
}

// --- 422 -----------------------------------------------------------------------------------

#[tokio::test]
async fn puzzles_without_exactly_one_solution_are_422() {
    let server = server().await;
    for path in ["/hint", "/explain"] {
        let clash = post(&server, path, &json!({ "board": clashing_board() }), None).await;
        clash.assert_problem(422, "no_solution", path);
        let solve = post(
            &server,
            "/solve",
            &json!({ "board": clashing_board() }),
            None,
        )
        .await;
        assert_eq!(clash.body["conflicts"], solve.body["conflicts"], "{path}");
        assert_eq!(clash.body["conflicts"][0]["digit"], 5, "{path}");

        let dead_end = post(&server, path, &json!({ "board": DEAD_END }), None).await;
        dead_end.assert_problem(422, "no_solution", path);
        assert_eq!(dead_end.body["conflicts"], json!([]), "{path}");

        let empty = post(&server, path, &json!({ "board": empty_board() }), None).await;
        empty.assert_problem(422, "multiple_solutions", path);
    }
    // With givens the givens are the puzzle: several solutions however full the board.
    let open_givens = post(
        &server,
        "/hint",
        &json!({ "board": PUZZLE, "givens": empty_board() }),
        None,
    )
    .await;
    open_givens.assert_problem(422, "multiple_solutions", "empty givens");
    assert!(
        open_givens.body["detail"]
            .as_str()
            .unwrap()
            .contains("a hint"),
        "{}",
        open_givens.body
    );
    // A board that erases or changes a given: the first such cell, in the board's form.
    let given = (0..81)
        .rev()
        .find(|&c| PUZZLE.as_bytes()[c] != b'.')
        .unwrap();
    let (row, col) = (given / 9, given % 9);
    let erased = with(PUZZLE, given, 0);
    let other = (PUZZLE.as_bytes()[given] - b'0') % 9 + 1;
    let changed = int_rows(&with(PUZZLE, given, other));
    for (case, board, pointer) in [
        ("erased", json!(erased), "/board".to_owned()),
        ("changed", changed, format!("/board/{row}/{col}")),
    ] {
        let body = json!({ "board": board, "givens": PUZZLE });
        let reply = post(&server, "/hint", &body, None).await;
        reply.assert_problem(422, "givens_changed", case);
        let error = &reply.body["errors"][0];
        assert_eq!(error["pointer"], pointer.as_str(), "{case}");
        assert_eq!(
            (error["row"].clone(), error["col"].clone()),
            (json!(row), json!(col)),
            "{case}"
        );
    }
    // Without givens, a player's wrong digit leaves the board without a solution.
    let (cell, digit) = quiet_mistakes()[0];
    let wrong = post(
        &server,
        "/hint",
        &json!({ "board": with(PUZZLE, cell, digit) }),
        None,
    )
    .await;
    wrong.assert_problem(422, "no_solution", "a wrong digit, no givens");
    server.shutdown().await.unwrap();
}

// --- 503, 408 ------------------------------------------------------------------------------

#[tokio::test]
async fn both_are_shed_when_every_slot_and_the_line_are_full() {
    let (app, state) = app_and_state(&Config {
        max_concurrent_solves: Some(NonZeroUsize::MIN),
        max_queued_solves: 0,
        generate_stock: 0,
        ..Config::default()
    });
    let held = SlotHolder::take(&state).await;
    for path in ["/hint", "/explain"] {
        let shed = post_json(&app, path, &json!({ "board": PUZZLE })).await;
        shed.assert_problem(503, "overloaded", path);
        assert_eq!(shed.headers["retry-after"], "1", "{path}");
    }
    held.release().await;
    for path in ["/hint", "/explain"] {
        let answer = post_json(&app, path, &json!({ "board": PUZZLE })).await;
        assert_eq!(answer.status, 200, "{path}: {:?}", answer.body);
    }
}

#[tokio::test]
async fn a_search_beyond_the_guess_budget_is_503_search_limit() {
    let server = TestServer::start(Config {
        guess_budget: 1,
        ..Config::default()
    })
    .await;
    assert!(guesses(&grid(SLOW)) > 1);
    for path in ["/hint", "/explain"] {
        let reply = post(&server, path, &json!({ "board": SLOW }), None).await;
        reply.assert_problem(503, "search_limit", path);
    }
    server.shutdown().await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_body_that_never_ends_is_408() {
    let app = app_with(&Config {
        request_timeout: 1,
        ..Config::default()
    });
    for path in ["/hint", "/explain"] {
        let (_sender, body) = pending_body();
        let request = tokio::spawn({
            let app = app.clone();
            async move {
                call(
                    &app,
                    axum::http::Method::POST,
                    path,
                    Some("application/json"),
                    body,
                )
                .await
            }
        });
        tokio::time::advance(Duration::from_millis(1_001)).await;
        let answer = request.await.unwrap();
        answer.assert_problem(408, "timeout", path);
    }
}

#[tokio::test]
async fn both_routes_are_counted_by_route_in_the_metrics() {
    let app = app();
    post_json(&app, "/hint", &json!({ "board": PUZZLE })).await;
    post_json(
        &app,
        "/explain",
        &json!({ "board": PUZZLE, "max_steps": 0 }),
    )
    .await;
    let metrics = get(&app, "/metrics").await;
    let text = metrics.body.as_str().unwrap();
    for series in [
        r#"http_requests_total{method="POST",route="/hint",status="200"} 1"#,
        r#"http_requests_total{method="POST",route="/explain",status="400"} 1"#,
    ] {
        assert!(text.contains(series), "{series} missing from:\n{text}");
    }
}

/// A board on the way through a top-1465 puzzle, reached by the digits of the hints before
/// it, whose hint without pencil marks needs eliminations before a digit can be placed;
/// with that hint.
fn a_board_whose_next_digit_needs_eliminations() -> (Grid, Hint) {
    let set = include_str!("../../data/puzzles/puzzles3_magictour_top1465");
    let walk = |puzzle: Grid| {
        let mut board = puzzle;
        for _ in 0..81 {
            let options = HintOptions {
                givens: Some(&puzzle),
                ..HintOptions::default()
            };
            match hint(&board, &options).ok()? {
                found @ Hint::Deduction { .. } => return Some((board, found)),
                Hint::Step(step) => {
                    let mut cells = *board.cells();
                    for &(cell, digit) in &step.placements {
                        cells[cell] = digit;
                    }
                    board = Grid::from_cells(cells).ok()?;
                }
                _ => return None,
            }
        }
        None
    };
    set.lines()
        .filter_map(|line| line.trim().parse::<Grid>().ok())
        .take(10)
        .find_map(walk)
        .expect("among the first 10 puzzles, a board whose next digit needs eliminations")
}

#[tokio::test]
async fn without_pencil_marks_a_hint_places_a_digit_with_the_eliminations_it_needs() {
    let server = server().await;
    let (puzzle, expected) = a_board_whose_next_digit_needs_eliminations();
    let Hint::Deduction { because, placement } = expected else {
        unreachable!()
    };
    for language in [None, Some("de")] {
        let reply = post(
            &server,
            "/hint",
            &json!({ "board": puzzle.to_line() }),
            language,
        )
        .await;
        let case = format!("{language:?}");
        assert_eq!(reply.status, 200, "{case}: {}", reply.body);
        assert_eq!(reply.body["kind"], "step", "{case}");
        assert_eq!(
            reply.body["technique"],
            placement.technique.name(),
            "{case}"
        );
        let placed: Vec<(usize, u8)> = reply.body["placements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let at = |k: &str| p[k].as_u64().unwrap();
                ((at("row") * 9 + at("col")) as usize, at("digit") as u8)
            })
            .collect();
        assert_eq!(placed, placement.placements, "{case}");
        assert_stages(&reply.body, &case);
        let reasons = reply.body["because"].as_array().expect("the reasons");
        assert_eq!(reasons.len(), because.len(), "{case}");
        let whole = reply.body["explanation"].as_str().unwrap();
        for (reason, step) in reasons.iter().zip(&because) {
            assert_eq!(reason["kind"], "step", "{case}");
            assert_eq!(reason["technique"], step.technique.name(), "{case}");
            assert_eq!(reason["placements"], json!([]), "{case}");
            assert_eq!(
                reason["eliminations"].as_array().unwrap().len(),
                step.eliminations.len(),
                "{case}"
            );
            let sentence = reason["explanation"].as_str().unwrap();
            assert!(
                !sentence.is_empty() && whole.contains(sentence),
                "{case}: {whole}"
            );
            assert!(reason.get("because").is_none(), "{case}: reasons have none");
        }
        // With the player's full pencil marks, the first elimination is the hint itself.
        let marks: Vec<Value> = {
            let state = Candidates::from_grid(&puzzle).unwrap();
            (0..81)
                .map(|c| json!(sudoku::logic::digits_of(state.mask(c)).collect::<Vec<_>>()))
                .collect()
        };
        let with_marks = post(
            &server,
            "/hint",
            &json!({ "board": puzzle.to_line(), "candidates": marks }),
            language,
        )
        .await;
        assert_eq!(with_marks.status, 200, "{case}: {}", with_marks.body);
        assert_eq!(
            with_marks.body["technique"],
            because[0].technique.name(),
            "{case}"
        );
        assert_eq!(with_marks.body["placements"], json!([]), "{case}");
        assert!(with_marks.body.get("because").is_none(), "{case}");
        assert_stages(&with_marks.body, &case);
    }
    server.shutdown().await.unwrap();
}
