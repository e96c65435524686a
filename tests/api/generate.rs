//! `GET /generate` through the router, and `/grade` and `/generate` together (wrong methods,
//! the pool, metrics, and once over a real socket): every documented status, each
//! difficulty, symmetry and form. What a puzzle is (unique, its difficulty, its symmetry) is
//! checked with the core directly, not taken from the answer; nothing here is timed.

use axum::body::Body;
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use sudoku::{
    Difficulty, GenerateOptions, GradeOptions, Solver, Symmetry, Verdict, generate, grade,
};
use sudoku_service::config::Config;

use crate::helpers::*;

/// Settings under which no search in these tests runs out of time, however slow the
/// machine: the generator's deadline is capped at half the request timeout.
pub(super) fn patient() -> Config {
    Config {
        request_timeout: 24 * 60 * 60,
        generate_deadline: 12 * 60 * 60 * 1000,
        generate_stock: 0,
        ..Config::default()
    }
}

/// The rating as the core writes it (`2.3`), from an answer's number.
fn rating_text(value: &Value) -> String {
    let tenths = (value.as_f64().expect("a number") * 10.0).round() as u64;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// Checks everything a `/generate` answer promises, with the core: the puzzle has one
/// solution, the one sent, keeps its clues in it, has `clues` clues, the symmetry and
/// difficulty claimed (and asked for, when given), and the rating its grade gives.
fn assert_generated(body: &Value, asked: Option<Difficulty>, symmetry: Symmetry, case: &str) {
    let puzzle = grid_of_any_form(&body["puzzle"]).unwrap_or_else(|e| panic!("{case}: {e}"));
    let solution = grid_of_any_form(&body["solution"]).unwrap_or_else(|e| panic!("{case}: {e}"));
    assert_eq!(
        Solver::default().analyze(&puzzle),
        Ok(Verdict::Unique(solution)),
        "{case}: one solution, the one sent"
    );
    assert!(puzzle.is_kept_by(&solution), "{case}: clues kept");
    assert_eq!(body["clues"], puzzle.given_count(), "{case}");
    assert_eq!(body["symmetry"], symmetry.as_str(), "{case}");
    assert!(symmetry.holds_for(&puzzle), "{case}: {symmetry}: {puzzle}");
    let graded = grade(&puzzle, &GradeOptions::default()).unwrap();
    assert_eq!(body["difficulty"], graded.difficulty.as_str(), "{case}");
    assert_eq!(
        rating_text(&body["rating"]),
        graded.rating.to_string(),
        "{case}"
    );
    if let Some(wanted) = asked {
        assert_eq!(graded.difficulty, wanted, "{case}");
    }
    let seed = body["seed"].as_str().expect("the seed is a string");
    assert!(seed.parse::<u64>().is_ok(), "{case}: seed {seed:?}");
    let keys: Vec<&str> = body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys.len(),
        8,
        "{case}: puzzle, solution, difficulty, rating, seed, clues, symmetry, size: {keys:?}"
    );
    assert_eq!(body["size"], 9, "{case}");
}

/// Checks a `/generate` answer of another size or a variant through `/solve`, which the
/// engine answers independently of the generator: one solution, the one sent, the clues
/// kept and counted, the rules sent back as `/solve` takes them.
async fn assert_generated_variant(app: &axum::Router, body: &Value, size: usize, case: &str) {
    assert_eq!(body["size"], size, "{case}");
    assert!(
        body.get("difficulty").is_none() && body.get("rating").is_none(),
        "{case}"
    );
    let puzzle = body["puzzle"].as_str().expect("a string board");
    let solution = body["solution"].as_str().expect("a string board");
    assert_eq!(puzzle.chars().count(), size * size, "{case}");
    let mut request = json!({"board": puzzle});
    if let Some(rules) = body.get("rules") {
        request["rules"] = rules.clone();
    }
    let solved = post_json(app, "/solve", &request).await;
    assert_eq!(solved.status, StatusCode::OK, "{case}: {:?}", solved.body);
    assert_eq!(solved.body["solution"], solution, "{case}");
    assert_eq!(solved.body["unique"], true, "{case}");
    let clues = puzzle.chars().filter(|&c| c != '.').count();
    assert_eq!(body["clues"], clues, "{case}");
    for (given, solved) in puzzle.chars().zip(solution.chars()) {
        assert!(given == '.' || given == solved, "{case}: clues kept");
    }
}

/// The form an answer's boards are in: `string`, `chars` or `numbers`.
fn form_of(board: &Value) -> &'static str {
    match board {
        Value::String(_) => "string",
        Value::Array(rows) if rows[0][0].is_string() => "chars",
        Value::Array(_) => "numbers",
        _ => "neither",
    }
}

#[tokio::test]
async fn generate_makes_each_difficulty_in_each_form() {
    let app = app_with(&patient());
    for (i, difficulty) in Difficulty::ALL.into_iter().enumerate() {
        let seed = 100 + i as u64;
        let first = get(
            &app,
            &format!("/generate?difficulty={difficulty}&seed={seed}"),
        )
        .await;
        assert_eq!(
            first.status,
            StatusCode::OK,
            "{difficulty}: {:?}",
            first.body
        );
        assert_eq!(first.content_type(), "application/json");
        assert_generated(
            &first.body,
            Some(difficulty),
            Symmetry::None,
            difficulty.as_str(),
        );
        assert_eq!(form_of(&first.body["puzzle"]), "string", "the default form");
        let line = first.body["puzzle"].as_str().unwrap();
        // The seed answered makes the same puzzle (at once), in every form.
        let made_by = first.body["seed"].as_str().unwrap();
        for form in ["string", "chars", "numbers"] {
            let case = format!("{difficulty} {form}");
            let again = get(
                &app,
                &format!("/generate?difficulty={difficulty}&seed={made_by}&form={form}"),
            )
            .await;
            assert_eq!(again.status, StatusCode::OK, "{case}: {:?}", again.body);
            assert_generated(&again.body, Some(difficulty), Symmetry::None, &case);
            assert_eq!(form_of(&again.body["puzzle"]), form, "{case}");
            assert_eq!(form_of(&again.body["solution"]), form, "{case}");
            assert_eq!(
                grid_of_any_form(&again.body["puzzle"]).unwrap(),
                grid(line),
                "{case}"
            );
            assert_eq!(again.body["seed"], made_by, "{case}");
            assert_eq!(again.body["rating"], first.body["rating"], "{case}");
        }
    }
}

#[tokio::test]
async fn generate_writes_empty_cells_as_each_form_does() {
    let app = app();
    let chars = get(&app, "/generate?seed=1&form=chars").await;
    let numbers = get(&app, "/generate?seed=1&form=numbers").await;
    let line = get(&app, "/generate?seed=1").await;
    let line = line.body["puzzle"].as_str().unwrap().to_owned();
    assert_eq!(chars.body["puzzle"], char_rows(&line));
    assert_eq!(numbers.body["puzzle"], int_rows(&line));
    assert!(line.contains('.') && !line.contains('0'));
}

#[tokio::test]
async fn generate_keeps_each_symmetry() {
    let app = app_with(&patient());
    for symmetry in Symmetry::ALL {
        for minimal in [true, false] {
            let case = format!("{symmetry}, minimal {minimal}");
            let answer = get(
                &app,
                &format!(
                    "/generate?difficulty=medium&seed=7&symmetry={symmetry}&minimal={minimal}"
                ),
            )
            .await;
            assert_eq!(answer.status, StatusCode::OK, "{case}: {:?}", answer.body);
            assert_generated(&answer.body, Some(Difficulty::Medium), symmetry, &case);
        }
    }
}

#[tokio::test]
async fn the_same_seed_gives_the_same_answer() {
    let app = app_with(&patient());
    for query in [
        "seed=0",
        "seed=18446744073709551615&symmetry=rotational",
        "seed=42&difficulty=hard&minimal=false&form=numbers",
    ] {
        let path = format!("/generate?{query}");
        let first = get(&app, &path).await;
        let second = get(&app, &path).await;
        assert_eq!(first.status, StatusCode::OK, "{query}: {:?}", first.body);
        assert_eq!(first.body, second.body, "{query}");
    }
    // Without a difficulty, the first attempt is taken: its seed is the one sent.
    let answer = get(&app, "/generate?seed=123456789").await;
    assert_eq!(answer.body["seed"], "123456789");
    assert_generated(&answer.body, None, Symmetry::None, "any difficulty");
    // And the core agrees on the puzzle.
    let made = generate(
        &GenerateOptions {
            seed: 123_456_789,
            ..GenerateOptions::default()
        },
        &mut || true,
    )
    .unwrap();
    assert_eq!(answer.body["puzzle"], made.puzzle.to_line());
}

#[tokio::test]
async fn generate_without_a_seed_draws_one_that_reproduces_the_answer() {
    for stock in [0, 2] {
        let app = app_with(&Config {
            generate_stock: stock,
            ..patient()
        });
        let mut seeds = Vec::new();
        for _ in 0..3 {
            let answer = get(&app, "/generate?difficulty=easy&symmetry=mirror").await;
            assert_eq!(
                answer.status,
                StatusCode::OK,
                "stock {stock}: {:?}",
                answer.body
            );
            assert_generated(
                &answer.body,
                Some(Difficulty::Easy),
                Symmetry::Mirror,
                "drawn",
            );
            let seed = answer.body["seed"].as_str().unwrap().to_owned();
            let again = get(
                &app,
                &format!("/generate?difficulty=easy&symmetry=mirror&seed={seed}"),
            )
            .await;
            assert_eq!(again.body, answer.body, "stock {stock}: seed {seed}");
            seeds.push(seed);
        }
        seeds.dedup();
        assert_eq!(seeds.len(), 3, "stock {stock}: fresh seeds: {seeds:?}");
    }
}

#[tokio::test]
async fn generate_names_each_bad_parameter() {
    let app = app();
    for (query, parameter) in [
        ("difficulty=Hard", "difficulty"),
        ("difficulty=impossible", "difficulty"),
        ("difficulty=", "difficulty"),
        ("seed=-1", "seed"),
        ("seed=1.5", "seed"),
        ("seed=%2B1", "seed"),
        ("seed=abc", "seed"),
        ("seed=18446744073709551616", "seed"),
        ("seed=", "seed"),
        ("symmetry=spiral", "symmetry"),
        ("symmetry=None", "symmetry"),
        ("form=line", "form"),
        ("form=", "form"),
        ("minimal=yes", "minimal"),
        ("minimal=1", "minimal"),
        ("dificulty=hard", "dificulty"),
        ("difficulty=easy&level=3", "level"),
        ("seed=1&seed=2", "seed"),
        ("difficulty=easy&difficulty=hard", "difficulty"),
        ("s%C3%A9ed=1", "séed"),
        ("size=7", "size"),
        ("size=09", "size"),
        ("size=26", "size"),
        ("size=", "size"),
        ("variant=sandwich", "variant"),
        ("variant=killer&size=16", "variant"),
        ("size=16&difficulty=easy", "difficulty"),
        ("variant=jigsaw&minimal=true", "minimal"),
    ] {
        let answer = get(&app, &format!("/generate?{query}")).await;
        answer.assert_problem(400, "invalid_parameter", query);
        assert_eq!(
            answer.body["parameter"], parameter,
            "{query}: {:?}",
            answer.body
        );
        assert!(
            answer.body["detail"].as_str().unwrap().contains(parameter),
            "{query}: {:?}",
            answer.body
        );
    }
}

#[tokio::test]
async fn generate_gives_up_at_its_deadline_with_search_limit() {
    // A seed whose first attempt is not extreme; with a deadline of 0 no second one runs.
    let options = |seed| GenerateOptions {
        difficulty: Some(Difficulty::Extreme),
        seed,
        max_attempts: 1,
        ..GenerateOptions::default()
    };
    let seed = (0..u64::MAX)
        .find(|&seed| generate(&options(seed), &mut || true).is_err())
        .unwrap();
    let app = app_with(&Config {
        generate_deadline: 0,
        ..Config::default()
    });
    let answer = get(&app, &format!("/generate?difficulty=extreme&seed={seed}")).await;
    answer.assert_problem(503, "search_limit", "deadline 0");
    assert_eq!(answer.headers["retry-after"], "1");
    let detail = answer.body["detail"].as_str().unwrap();
    assert!(
        detail.contains("extreme") && detail.contains("retry"),
        "{detail}"
    );
    // Without a seed too (the stock being empty).
    let app = app_with(&Config {
        generate_deadline: 0,
        generate_stock: 0,
        ..Config::default()
    });
    let answer = get(&app, "/generate?difficulty=easy&seed=5").await;
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "the first attempt always runs"
    );
}

#[tokio::test]
async fn generate_makes_every_small_size_and_each_variant() {
    let app = app_with(&patient());
    for (query, size) in [
        ("size=4&seed=3", 4),
        ("size=6&seed=3&symmetry=rotational", 6),
        ("size=8&seed=3", 8),
        ("size=10&seed=3", 10),
        ("size=12&seed=5", 12),
        ("variant=jigsaw&seed=3", 9),
        ("variant=killer&seed=3", 9),
        ("variant=diagonal&seed=3&symmetry=mirror", 9),
        ("variant=windoku&seed=3", 9),
        ("variant=classic&size=9&seed=4", 9),
    ] {
        let answer = get(&app, &format!("/generate?{query}")).await;
        assert_eq!(answer.status, StatusCode::OK, "{query}: {:?}", answer.body);
        if query.contains("classic") {
            assert_generated(&answer.body, None, Symmetry::None, query);
            continue;
        }
        assert_generated_variant(&app, &answer.body, size, query).await;
        let rules = &answer.body["rules"];
        let variant = query
            .strip_prefix("variant=")
            .and_then(|rest| rest.split('&').next());
        match variant.unwrap_or("classic") {
            "jigsaw" => assert_eq!(rules["regions"].as_array().map(Vec::len), Some(9)),
            "killer" => {
                let cells: usize = rules["cages"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|cage| {
                        assert!(cage["sum"].is_u64(), "{cage}");
                        cage["cells"].as_array().unwrap().len()
                    })
                    .sum();
                assert_eq!(cells, 81, "the cages cover the grid");
                assert!(answer.body["clues"].as_u64().unwrap() < 20);
            }
            "diagonal" => assert_eq!(rules["diagonals"], json!(["main", "anti"])),
            "windoku" => assert_eq!(rules["extra_regions"].as_array().map(Vec::len), Some(4)),
            _ => assert!(answer.body.get("rules").is_none(), "{query}: classic rules"),
        }
    }
}

#[tokio::test]
async fn other_sizes_and_variants_come_back_the_same_for_a_seed_in_each_form() {
    let app = app_with(&patient());
    let first = get(&app, "/generate?variant=killer&seed=77").await;
    let again = get(&app, "/generate?variant=killer&seed=77").await;
    assert_eq!(first.body, again.body);
    assert_eq!(first.body["seed"], "77");
    let line = get(&app, "/generate?size=6&seed=8").await;
    let line = line.body["puzzle"].as_str().unwrap().to_owned();
    let numbers = get(&app, "/generate?size=6&seed=8&form=numbers").await;
    let rows = numbers.body["puzzle"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    let flat: String = rows
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .map(|cell| match cell.as_u64().unwrap() {
            0 => '.',
            digit => char::from_digit(digit as u32, 10).unwrap(),
        })
        .collect();
    assert_eq!(flat, line);
    let sixteen = get(&app, "/generate?size=16&seed=8&form=chars").await;
    assert_eq!(sixteen.status, StatusCode::OK, "{:?}", sixteen.body);
    let letters = sixteen.body["solution"].as_array().unwrap();
    assert!(
        letters
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .any(|c| c == "G")
    );
}

#[tokio::test]
async fn a_large_puzzle_past_the_deadline_is_search_limit_with_retry_after() {
    let app = app_with(&Config {
        generate_deadline: 0,
        ..Config::default()
    });
    let answer = get(&app, "/generate?size=25&seed=1").await;
    answer.assert_problem(503, "search_limit", "deadline 0");
    assert_eq!(answer.headers["retry-after"], "1");
}

// --- /grade and /generate: methods, the pool, metrics, a real socket --------------------

#[tokio::test]
async fn wrong_methods_are_405_with_the_methods_each_route_takes() {
    let app = app();
    for (method, path, allow) in [
        (Method::GET, "/grade", "POST"),
        (Method::PUT, "/grade", "POST"),
        (Method::DELETE, "/grade", "POST"),
        (Method::POST, "/generate", "GET,HEAD"),
        (Method::PUT, "/generate", "GET,HEAD"),
        (Method::PATCH, "/generate", "GET,HEAD"),
    ] {
        let case = format!("{method} {path}");
        let answer = call(&app, method, path, None, Body::empty()).await;
        answer.assert_problem(405, "method_not_allowed", &case);
        assert_eq!(answer.headers["allow"], allow, "{case}");
    }
}

#[tokio::test]
async fn both_are_shed_when_every_slot_and_the_line_are_full() {
    let (app, state) = app_and_state(&Config {
        max_concurrent_solves: Some(std::num::NonZeroUsize::MIN),
        max_queued_solves: 0,
        generate_stock: 0,
        ..Config::default()
    });
    let held = SlotHolder::take(&state).await;
    let graded = post_json(&app, "/grade", &json!({ "board": PUZZLE })).await;
    graded.assert_problem(503, "overloaded", "/grade");
    assert_eq!(graded.headers["retry-after"], "1");
    let made = get(&app, "/generate?seed=1").await;
    made.assert_problem(503, "overloaded", "/generate");
    assert_eq!(made.headers["retry-after"], "1");
    held.release().await;
    assert_eq!(
        post_json(&app, "/grade", &json!({ "board": PUZZLE }))
            .await
            .status,
        200
    );
    assert_eq!(get(&app, "/generate?seed=1").await.status, 200);
}

#[tokio::test]
async fn both_routes_are_counted_by_route_in_the_metrics() {
    let app = app();
    post_json(&app, "/grade", &json!({ "board": PUZZLE })).await;
    get(&app, "/generate?seed=2").await;
    get(&app, "/generate?form=x").await;
    let metrics = get(&app, "/metrics").await;
    let text = metrics.body.as_str().unwrap();
    for series in [
        r#"http_requests_total{method="POST",route="/grade",status="200"} 1"#,
        r#"http_requests_total{method="GET",route="/generate",status="200"} 1"#,
        r#"http_requests_total{method="GET",route="/generate",status="400"} 1"#,
    ] {
        assert!(text.contains(series), "{series} missing from:\n{text}");
    }
}

#[tokio::test]
async fn grade_and_generate_over_a_real_socket() {
    let server = TestServer::start(patient()).await;
    let client = reqwest::Client::new();
    let made = client
        .get(server.url("/generate?difficulty=hard&seed=9&symmetry=rotational&form=chars"))
        .header("x-request-id", "generate-1")
        .header("origin", "http://example.test")
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), 200);
    assert_eq!(made.headers()["x-request-id"], "generate-1");
    assert_eq!(made.headers()["access-control-allow-origin"], "*");
    // The answer carries the solution: no cache may keep it.
    assert_eq!(made.headers()["cache-control"], "no-store");
    let made: Value = made.json().await.unwrap();
    assert_generated(
        &made,
        Some(Difficulty::Hard),
        Symmetry::Rotational,
        "socket",
    );
    let graded = client
        .post(server.url("/grade"))
        .json(&json!({ "board": made["puzzle"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(graded.status(), 200);
    let graded: Value = graded.json().await.unwrap();
    assert_eq!(graded["difficulty"], "hard");
    assert_eq!(graded["rating"], made["rating"]);
    let bad = client
        .get(server.url("/generate?symmetry=spiral"))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    assert_eq!(bad.headers()["content-type"], "application/problem+json");
    let head = client
        .head(server.url("/generate?seed=9"))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["cache-control"], "no-store");
    server.shutdown().await.unwrap();
}
