//! The fuzz regression corpus, `tests/data/fuzz/<target>/` (see `scripts/ci/fuzz.sh`),
//! replayed through the router: inputs that once failed, the boards the solver once lost
//! its way on, and the fuzzers' corpora worth keeping. Each input is sent as the target that
//! found it reads it, and the answer is checked against what the server must say: never a
//! 500; a problem+json for what the server's own parser refuses; for a board, the answer the
//! solver gives it here. The hand-picked inputs also have their answers pinned in
//! `tests/data/fuzz/expected.txt`.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use sudoku::{Grid, Report, Solver, Verdict, find_conflicts, is_solved};
use sudoku_service::http::extract::parse_json;
use sudoku_service::http::puzzle::request_input;
use sudoku_service::http::wire::{BatchRequest, Board, BoardRequest, MAX_BATCH_BOARDS};

use crate::helpers::*;

/// (`target/file`, route) -> (status, code or ""): an answer seen, or one pinned.
type Answers = Vec<((String, String), (u16, String))>;

/// The status and code of an answer, as `expected.txt` writes them.
fn status_and_code(answer: &Answer) -> (u16, String) {
    let code = answer.body["code"].as_str().unwrap_or_default();
    (answer.status.as_u16(), code.to_owned())
}

/// Every input of one target's regression folder, by name; fails when the folder is
/// missing or empty, so the replay cannot pass having checked nothing.
fn regressions(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(target);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display()));
    let mut inputs: Vec<(String, Vec<u8>)> = entries
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = format!("{target}/{}", path.file_name().unwrap().to_string_lossy());
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "{} holds no inputs", dir.display());
    inputs
}

/// The answers `expected.txt` pins for `target`'s inputs.
fn pinned_answers(target: &str) -> Answers {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fuzz/expected.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
    let pinned: Answers = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                [input, route, status, ref code @ ..] if code.len() <= 1 => {
                    let status = status
                        .parse()
                        .unwrap_or_else(|_| panic!("expected.txt: {line:?}"));
                    let code = code.first().copied().unwrap_or_default().to_owned();
                    ((input.to_owned(), route.to_owned()), (status, code))
                }
                _ => panic!("expected.txt: {line:?} is not `<input> <route> <status> [<code>]`"),
            },
        )
        .filter(|((input, _), _)| input.starts_with(&format!("{target}/")))
        .collect();
    assert!(!pinned.is_empty(), "expected.txt pins nothing of {target}");
    pinned
}

/// What is wrong with the answers seen against those pinned for `target`: one line each.
fn pinned_answer_faults(target: &str, seen: &Answers) -> Vec<String> {
    pinned_answers(target)
        .into_iter()
        .filter_map(|(key, want)| {
            let got = seen
                .iter()
                .find(|(input, _)| *input == key)
                .map(|(_, got)| got);
            match got {
                Some(got) if *got == want => None,
                Some(got) => Some(format!("{} {}: got {got:?}, pinned {want:?}", key.0, key.1)),
                None => Some(format!("{} {}: pinned, but no such input", key.0, key.1)),
            }
        })
        .collect()
}

/// The wire form a board value is in: `line`, `chars` or `digits`.
fn form_of(board: &Value) -> &'static str {
    let cells = board
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_array);
    if board.is_string() {
        "line"
    } else if cells.flatten().any(Value::is_string) {
        "chars"
    } else {
        "digits"
    }
}

/// Checks a `/solve` answer (alone, or one result of a batch: its status and body) for a
/// board the server's parser reads as `puzzle` in `form`: a solution of it in that form,
/// or `no_solution` with its conflicts, or `search_limit`, as the solver says here.
fn check_solved(puzzle: &Grid, form: &str, status: u16, body: &Value) -> Result<(), String> {
    let problem = |want: u16, code: &str| {
        let ok = status == want
            && body["status"] == want
            && body["code"] == code
            && body["detail"].as_str().is_some_and(|d| !d.is_empty());
        ok.then_some(())
            .ok_or_else(|| format!("expected a {want} {code} problem"))
    };
    match Solver::default().analyze(puzzle) {
        Ok(Verdict::None) => {
            problem(422, "no_solution")?;
            let listed = body["conflicts"].as_array().map_or(usize::MAX, Vec::len);
            if listed != find_conflicts(puzzle).len() {
                return Err(format!("{listed} conflicts listed"));
            }
        }
        Ok(verdict) => {
            if status != 200 {
                return Err("not solved, though solvable".into());
            }
            let solution = grid_of_any_form(&body["solution"])?;
            if !(is_solved(&solution) && puzzle.is_kept_by(&solution)) {
                return Err(format!("{solution} does not solve {puzzle}"));
            }
            if form_of(&body["solution"]) != form {
                return Err(format!("the solution is not in the {form} form"));
            }
            let unique = matches!(verdict, Verdict::Unique(_));
            if body["unique"] != unique {
                return Err(format!("unique should be {unique}"));
            }
        }
        Err(_) => problem(503, "search_limit")?,
    }
    Ok(())
}

/// Checks a `/validate` answer for a board the server's parser reads as `puzzle`.
fn check_validated(puzzle: &Grid, answer: &Answer) -> Result<(), String> {
    let Ok(report) = Report::of(puzzle, &Solver::default()) else {
        return answer
            .problem_fault(503, "search_limit")
            .map_or(Ok(()), Err);
    };
    let body = &answer.body;
    let got = (
        body["valid"].as_bool(),
        body["complete"].as_bool(),
        body["solved"].as_bool(),
        body["solvable"].as_bool(),
        body["unique"].as_bool(),
        body["conflicts"].as_array().map(Vec::len),
    );
    let want = (
        Some(report.valid),
        Some(report.complete),
        Some(report.solved),
        Some(report.solvable),
        Some(report.unique),
        Some(report.conflicts.len()),
    );
    if answer.status != StatusCode::OK || got != want {
        return Err(format!("expected the report {want:?}"));
    }
    Ok(())
}

/// Checks a refusal: a problem+json of one of the documented refusals of a body.
fn check_refused(answer: &Answer) -> Result<(), String> {
    let (status, code) = status_and_code(answer);
    if !matches!(
        (status, code.as_str()),
        (400, "invalid_json" | "invalid_request" | "invalid_board") | (413, "payload_too_large")
    ) {
        return Err("expected a documented refusal".into());
    }
    answer.problem_fault(status, &code).map_or(Ok(()), Err)
}

/// Checks the answer to a `/solve` or `/validate` body against the server's own reading
/// of the body.
fn check_board_answer(route: &str, body: &[u8], answer: &Answer) -> Result<(), String> {
    if answer.status == StatusCode::INTERNAL_SERVER_ERROR {
        return Err("a 500".into());
    }
    let Ok(request) = parse_json::<BoardRequest>(body) else {
        return check_refused(answer);
    };
    if request.fpuzzles.is_some() {
        return check_fpuzzles_answer(&request, answer);
    }
    let Ok(board) = request.board() else {
        return check_refused(answer);
    };
    if route == "/validate" {
        return check_validated(&board.grid, answer);
    }
    if !answer.status.is_success() && answer.content_type() != "application/problem+json" {
        return Err("neither a solution nor a problem".into());
    }
    // The form as the JSON sent shows it, not as the server's reading of it says.
    let sent: Value = serde_json::from_slice(body).map_err(|err| err.to_string())?;
    let form = form_of(&sent["board"]);
    check_solved(&board.grid, form, answer.status.as_u16(), &answer.body)
}

/// Checks the answer to an f-puzzles body against the server's own reading of the data:
/// the problem it finds, or an answer (a solution, a report, or `no_solution`).
fn check_fpuzzles_answer(request: &BoardRequest, answer: &Answer) -> Result<(), String> {
    match request_input(request) {
        Err(error) => answer
            .problem_fault(error.status().as_u16(), error.code())
            .map_or(Ok(()), Err),
        Ok(_) if answer.status == StatusCode::OK || answer.body["code"] == "no_solution" => Ok(()),
        Ok(_) => Err(format!(
            "expected an answer, found {:?}",
            status_and_code(answer)
        )),
    }
}

/// Checks the answer to a `/solve/batch` body against the server's own reading of it.
fn check_batch_answer(body: &[u8], answer: &Answer) -> Result<(), String> {
    if answer.status == StatusCode::INTERNAL_SERVER_ERROR {
        return Err("a 500".into());
    }
    let request = match parse_json::<BatchRequest>(body) {
        Ok(request) if (1..=MAX_BATCH_BOARDS).contains(&request.boards.len()) => request,
        _ => return check_refused(answer),
    };
    let results = answer.body["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if answer.status != StatusCode::OK || results.len() != request.boards.len() {
        return Err(format!("expected {} results", request.boards.len()));
    }
    // The boards as sent, for the oracle below: the server's own type reads plain lines
    // straight into grids.
    let sent: Vec<Value> = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|body| body["boards"].as_array().cloned())
        .unwrap_or_default();
    if sent.len() != request.boards.len() {
        return Err(format!(
            "{} boards sent, {} read",
            sent.len(),
            request.boards.len()
        ));
    }
    for (i, (board, result)) in sent.iter().zip(&results).enumerate() {
        let pointer = format!("/boards/{i}");
        let checked = match Board::from_json(board, &pointer) {
            Ok(read) => match result.get("error") {
                Some(problem) => {
                    let status = problem["status"].as_u64().map_or(0, |s| s as u16);
                    check_solved(&read.grid, form_of(board), status, problem)
                }
                None => check_solved(&read.grid, form_of(board), 200, result),
            },
            Err(_) => {
                let error = &result["error"];
                let at = error["errors"][0]["pointer"].as_str().unwrap_or_default();
                let ok = error["status"] == 400
                    && error["code"] == "invalid_board"
                    && at.starts_with(&pointer);
                ok.then_some(())
                    .ok_or_else(|| "expected an invalid_board problem".into())
            }
        };
        checked.map_err(|fault| format!("board {i}: {fault}"))?;
    }
    Ok(())
}

/// Replays `target`'s inputs, each made a body by `to_body`, on each of `routes`; fails
/// listing every answer that is wrong or differs from its pinned one.
async fn replay(target: &str, routes: &[&str], to_body: impl Fn(&str, Vec<u8>) -> Vec<u8>) {
    let app = app();
    let inputs = regressions(target);
    let mut faults = Vec::new();
    let mut seen = Answers::new();
    for (name, bytes) in inputs.iter().cloned() {
        let body = to_body(&name, bytes);
        for &route in routes {
            let json = Some("application/json");
            let answer = call(&app, Method::POST, route, json, body.clone()).await;
            let checked = if route == "/solve/batch" {
                check_batch_answer(&body, &answer)
            } else {
                check_board_answer(route, &body, &answer)
            };
            if let Err(fault) = checked {
                let got = format!("{} {}", answer.status, answer.body);
                faults.push(format!("{name} {route}: {fault}; got {got}"));
            }
            seen.push(((name.clone(), route.to_owned()), status_and_code(&answer)));
        }
    }
    faults.extend(pinned_answer_faults(target, &seen));
    println!("{} {target} inputs replayed on {routes:?}", inputs.len());
    assert!(
        faults.is_empty(),
        "{} faults:\n{}",
        faults.len(),
        faults.join("\n")
    );
}

#[tokio::test]
async fn fuzz_regressions_of_the_body_parser_never_fail_the_server() {
    replay("parse_body", &["/solve", "/validate"], |_, bytes| bytes).await;
}

#[tokio::test]
async fn fuzz_regressions_of_the_batch_parser_never_fail_the_server() {
    replay("parse_batch", &["/solve/batch"], |_, bytes| bytes).await;
}

#[tokio::test]
async fn fuzz_regressions_of_the_line_parser_never_fail_the_server() {
    // The target reads the bytes as a line; over the wire that is a JSON string board, or
    // a body that is not JSON when they are not UTF-8.
    replay(
        "parse_line",
        &["/solve", "/validate"],
        |_, bytes| match String::from_utf8(bytes) {
            Ok(line) => json_bytes(&json!({ "board": line })),
            Err(err) => [b"{\"board\": \"".as_slice(), err.as_bytes(), b"\"}"].concat(),
        },
    )
    .await;
}

#[tokio::test]
async fn fuzz_regressions_of_the_solver_never_fail_the_server() {
    // The target reads the first 81 bytes, each mod 10, as the cells.
    replay("solve_grid", &["/solve", "/validate"], |name, bytes| {
        assert!(bytes.len() >= 81, "{name}: fewer than 81 bytes");
        let line: String = bytes[..81]
            .iter()
            .map(|b| char::from(b'0' + b % 10))
            .collect();
        json_bytes(&json!({ "board": line }))
    })
    .await;
}
