//! The endpoints: body -> core type -> a job on the solver pool -> body. Parsing and
//! rendering live in [`super::wire`], scheduling in [`super::pool`]; what is left here is
//! each endpoint's job and which answer is which.

use std::sync::{Arc, LazyLock};
use std::time::Instant;

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use super::clock::Clock;
use super::daily::{self, DailyPuzzles};
use super::error::ApiError;
use super::extract::{ImageBody, JsonBody, QueryPairs};
use super::gate::Gate;
use super::generator::{Generator, draw_seed};
use super::language::{AcceptLanguage, ContentLanguage};
use super::pool::SolverPool;
use super::puzzle::{batch_input, checked_rules, request_input};
use super::readiness::Readiness;
use super::state::Limits;
use super::wire::{
    BatchFailure, BatchRequest, Board, BoardError, BoardRequest, DailyQuery, DailyResponse,
    ExplainRequest, ExplainResponse, GenerateQuery, GenerateResponse, GradeResponse, HintInput,
    HintRequest, HintWords, MAX_BATCH_BOARDS, ScanQuery, ScanResponse, SizedBoard, SolveResponse,
    StageBody, StatusBody, StepBody, ValidateResponse, conflict_bodies, given_changed,
    is_other_size, read_max_steps, unique_solution, variant_conflict_bodies,
};
use sudoku::messages::{describe, describe_path, describe_reasons, describe_stages, render};
use sudoku::variant::{Puzzle, VariantVerdict, find_variant_conflicts, solve_variant};
use sudoku::{
    GradeError, GradeOptions, Grid, HintError, HintOptions, Report, Verdict, find_conflicts,
};
use sudoku_scan::Scanner;

/// The spec, served as written.
const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");

/// `POST /solve`: the solution in the caller's form, or 422 when there is none.
pub(super) async fn solve(
    State(pool): State<Arc<SolverPool>>,
    JsonBody(request): JsonBody<BoardRequest>,
) -> Result<Response, ApiError> {
    request.check_members().map_err(ApiError::InvalidRequest)?;
    if request.is_variant() {
        let (board, puzzle) = request_input(&request)?;
        let answer = pool
            .run(move |solver| variant_solution(solver, &board, &puzzle))
            .await??;
        return Ok(Json(answer).into_response());
    }
    let board = request.board()?;
    let grid = board.grid;
    let verdict = pool
        .run_inline_first(move |solver| solver.analyze(&grid))
        .await??;
    let (solution, unique) = solution(&board, verdict)?;
    let mut json = Vec::with_capacity(128);
    SolveResponse::write_json(&mut json, &board, &solution, unique);
    Ok(json_text(json))
}

/// One analysed board's solution and whether it is unique, or why there is none.
fn solution(board: &Board, verdict: Verdict) -> Result<(Grid, bool), ApiError> {
    match verdict {
        Verdict::Unique(solution) => Ok((solution, true)),
        Verdict::Multiple(solution) => Ok((solution, false)),
        Verdict::None => Err(ApiError::NoSolution(conflict_bodies(&find_conflicts(
            &board.grid,
        )))),
    }
}

/// The guesses the general engine may take on a board: the solver's, scaled to its side.
pub(super) fn variant_budget(solver: &sudoku::Solver, puzzle: &Puzzle) -> u64 {
    sudoku::variant::scaled_budget(solver.guess_budget(), puzzle.size())
}

/// The answer of `/solve` under the general engine: the solution in the board's form, or
/// 422 with the conflicts that prove there is none.
fn variant_solution(
    solver: &sudoku::Solver,
    board: &SizedBoard,
    puzzle: &Puzzle,
) -> Result<SolveResponse, ApiError> {
    let (solution, unique) = match solve_variant(puzzle, variant_budget(solver, puzzle))? {
        VariantVerdict::Unique(cells) => (cells, true),
        VariantVerdict::Multiple(cells) => (cells, false),
        VariantVerdict::None => {
            let conflicts = find_variant_conflicts(puzzle, puzzle.givens());
            return Err(ApiError::NoSolution(variant_conflict_bodies(&conflicts)));
        }
    };
    Ok(SolveResponse {
        solution: board.render(&solution),
        unique,
    })
}

/// A JSON body already written out, answered as [`Json`] answers one.
fn json_text(text: Vec<u8>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        text,
    )
        .into_response()
}

/// `POST /solve/batch`: many boards at once, solved across all solver slots; each board
/// gets the answer `/solve` would have given it, in request order. Each part of the batch
/// is read, solved and written in its job, and the parts' JSON joined here.
pub(super) async fn solve_batch(
    State(pool): State<Arc<SolverPool>>,
    JsonBody(request): JsonBody<BatchRequest>,
) -> Result<Response, ApiError> {
    let count = request.boards.len();
    if count == 0 || count > MAX_BATCH_BOARDS {
        return Err(ApiError::InvalidRequest(BoardError::whole(
            "/boards",
            format!("\"boards\" must hold 1 to {MAX_BATCH_BOARDS} boards, found {count}"),
        )));
    }
    let rules = checked_rules(request.rules.as_ref())?;
    let parts = pool
        .map_parts(request.boards, move |solver, first, boards| {
            let mut json = Vec::with_capacity(boards.len() * BATCH_RESULT_BYTES);
            for (i, board) in (first..).zip(boards) {
                if rules.is_some() || board.is_other_size() || board.fpuzzles_entry().is_some() {
                    if i > 0 {
                        json.push(b',');
                    }
                    let answer = batch_input(board, rules.as_ref(), i)
                        .and_then(|(board, puzzle)| variant_solution(solver, &board, &puzzle));
                    match answer {
                        Ok(solved) => write_json(&mut json, &solved)?,
                        Err(error) => write_json(
                            &mut json,
                            &BatchFailure {
                                error: error.to_problem(),
                            },
                        )?,
                    }
                    continue;
                }
                let answer = board
                    .read(|| format!("/boards/{i}"))
                    .map_err(ApiError::from)
                    .and_then(|board| {
                        let verdict = solver.analyze(&board.grid)?;
                        Ok((board, solution(&board, verdict)?))
                    });
                if i > 0 {
                    json.push(b',');
                }
                match answer {
                    Ok((board, (solution, unique))) => {
                        SolveResponse::write_json(&mut json, &board, &solution, unique);
                    }
                    Err(error) => write_json(
                        &mut json,
                        &BatchFailure {
                            error: error.to_problem(),
                        },
                    )?,
                }
            }
            Ok::<_, ApiError>(json)
        })
        .await?;
    let mut body = Vec::with_capacity(parts.iter().flatten().map(Vec::len).sum::<usize>() + 16);
    body.extend_from_slice(b"{\"results\":[");
    for part in parts {
        body.extend_from_slice(&part?);
    }
    body.extend_from_slice(b"]}");
    Ok(json_text(body))
}

/// About the length of one solved board's result in the line form, to size a part's buffer.
const BATCH_RESULT_BYTES: usize = 112;

/// Appends `value` as compact JSON, as [`Json`] writes a whole body.
fn write_json(out: &mut Vec<u8>, value: &impl serde::Serialize) -> Result<(), ApiError> {
    serde_json::to_writer(out, value)
        .map_err(|err| ApiError::Internal(format!("an answer could not be written: {err}")))
}

/// `POST /validate`: what the board is, for any well-formed board.
pub(super) async fn validate(
    State(pool): State<Arc<SolverPool>>,
    JsonBody(request): JsonBody<BoardRequest>,
) -> Result<Json<ValidateResponse>, ApiError> {
    request.check_members().map_err(ApiError::InvalidRequest)?;
    if request.is_variant() {
        let (_, puzzle) = request_input(&request)?;
        return Ok(Json(
            pool.run(move |solver| variant_report(solver, &puzzle))
                .await??,
        ));
    }
    let grid = request.board()?.grid;
    let report = pool.run(move |solver| Report::of(&grid, solver)).await??;
    Ok(Json(ValidateResponse::from(&report)))
}

/// What `/validate` answers of a board under the general engine.
fn variant_report(
    solver: &sudoku::Solver,
    puzzle: &Puzzle,
) -> Result<ValidateResponse, sudoku::BudgetExhausted> {
    let conflicts = find_variant_conflicts(puzzle, puzzle.givens());
    let valid = conflicts.is_empty();
    let complete = puzzle.givens().iter().all(|&d| d != 0);
    let verdict = if valid {
        solve_variant(puzzle, variant_budget(solver, puzzle))?
    } else {
        VariantVerdict::None
    };
    Ok(ValidateResponse {
        valid,
        complete,
        solved: valid && complete,
        solvable: verdict != VariantVerdict::None,
        unique: matches!(verdict, VariantVerdict::Unique(_)),
        conflicts: variant_conflict_bodies(&conflicts),
    })
}

/// `POST /grade`: how hard the puzzle is for a person; 422 unless it has exactly one
/// solution.
pub(super) async fn grade(
    State(pool): State<Arc<SolverPool>>,
    State(limits): State<Limits>,
    JsonBody(request): JsonBody<BoardRequest>,
) -> Result<Json<GradeResponse>, ApiError> {
    request.check_members().map_err(ApiError::InvalidRequest)?;
    if request.is_variant() {
        return Err(ApiError::UnsupportedRules("grading"));
    }
    let board = request.board()?;
    let (grid, step_budget) = (board.grid, limits.grade_steps);
    match pool
        .run(move |&solver| {
            sudoku::grade(
                &grid,
                &GradeOptions {
                    solver,
                    step_budget,
                },
            )
        })
        .await?
    {
        Ok(grade) => Ok(Json(GradeResponse::from(&grade))),
        Err(GradeError::NoSolution) => Err(ApiError::NoSolution(conflict_bodies(&find_conflicts(
            &board.grid,
        )))),
        Err(GradeError::MultipleSolutions) => Err(ApiError::MultipleSolutions("grading")),
        Err(GradeError::SearchLimit(exhausted)) => Err(exhausted.into()),
    }
}

/// `POST /hint`: the next thing the player should know, in the language asked for; 422
/// unless the puzzle has exactly one solution.
pub(super) async fn hint(
    State(pool): State<Arc<SolverPool>>,
    AcceptLanguage(language): AcceptLanguage,
    JsonBody(request): JsonBody<HintRequest>,
) -> Result<(ContentLanguage, Json<StepBody>), ApiError> {
    if request.rules.is_some() || is_other_size(&request.board) {
        return Err(ApiError::UnsupportedRules("a hint"));
    }
    let input = request.read().map_err(ApiError::InvalidBoard)?;
    let (board, givens, marks) = (input.board.grid, input.givens.map(|g| g.grid), input.marks);
    let answer = pool
        .run(move |&solver| {
            let options = HintOptions {
                givens: givens.as_ref(),
                marks: marks.as_ref(),
                solver,
                ..HintOptions::default()
            };
            let hint = sudoku::hint(&board, &options)?;
            let message = describe(&hint, &board, marks.as_ref());
            let reasons = describe_reasons(&hint, &board);
            let stages = describe_stages(&hint, &board, marks.as_ref());
            Ok((hint, message, reasons, stages))
        })
        .await?;
    let (hint, message, reasons, stages) =
        answer.map_err(|error| hint_problem(error, &input, "a hint"))?;
    let words = HintWords {
        language,
        explanation: render(&message, language),
        reasons: reasons.iter().map(|m| render(m, language)).collect(),
        stages: stages
            .iter()
            .map(|stage| StageBody::of(stage, render(&stage.message, language)))
            .collect(),
    };
    let body = StepBody::of_hint(&hint, words);
    Ok((ContentLanguage(language), Json(body)))
}

/// `POST /explain`: the whole logical path, in the language asked for; 422 unless the
/// puzzle has exactly one solution.
pub(super) async fn explain(
    State(pool): State<Arc<SolverPool>>,
    State(limits): State<Limits>,
    AcceptLanguage(language): AcceptLanguage,
    JsonBody(request): JsonBody<ExplainRequest>,
) -> Result<(ContentLanguage, Json<ExplainResponse>), ApiError> {
    if request.rules.is_some() || is_other_size(&request.board) {
        return Err(ApiError::UnsupportedRules("an explanation"));
    }
    let board = Board::from_json(&request.board, "/board")?;
    let max_steps = read_max_steps(request.max_steps.as_ref(), limits.grade_steps)?;
    let input = HintInput {
        board,
        givens: None,
        marks: None,
    };
    let grid = board.grid;
    let (explanation, messages) = pool
        .run(move |&solver| {
            let options = GradeOptions {
                solver,
                step_budget: max_steps,
            };
            let explanation = sudoku::explain(&grid, &options)?;
            let messages = describe_path(&grid, &explanation.steps);
            Ok((explanation, messages))
        })
        .await?
        .map_err(|error| hint_problem(error, &input, "an explanation"))?;
    let sentences = messages.iter().map(|m| render(m, language)).collect();
    Ok((
        ContentLanguage(language),
        Json(ExplainResponse::new(&explanation, sentences, language)),
    ))
}

/// The problem of a hint or an explanation that cannot be given (`what` names it).
fn hint_problem(error: HintError, input: &HintInput, what: &'static str) -> ApiError {
    match error {
        HintError::Conflict(conflicts) => ApiError::NoSolution(conflict_bodies(&conflicts)),
        HintError::NoSolution => ApiError::NoSolution(Vec::new()),
        HintError::MultipleSolutions => ApiError::MultipleSolutions(what),
        HintError::GivenChanged { cell } => {
            ApiError::GivensChanged(vec![given_changed(input, cell)])
        }
        HintError::SearchLimit(exhausted) => exhausted.into(),
    }
}

/// `GET /generate`: a new puzzle as the query asks, its boards in the form asked for.
pub(super) async fn generate(
    State(generator): State<Arc<Generator>>,
    State(limits): State<Limits>,
    QueryPairs(pairs): QueryPairs,
) -> Result<Json<GenerateResponse>, ApiError> {
    // From the request's arrival, so that time spent waiting for a slot counts too.
    let arrived = Instant::now();
    let query = GenerateQuery::from_pairs(&pairs)?;
    let deadline = arrived + limits.generate_deadline_for(query.size);
    let seed = query.seed.unwrap_or_else(draw_seed);
    if !query.is_classic() {
        let made = generator
            .generate_variant(query.variant_options(seed), deadline)
            .await??;
        return Ok(Json(GenerateResponse::of_variant(&made, &query)));
    }
    let made = generator
        .generate(query.options(seed), query.seed.is_some(), deadline)
        .await??;
    Ok(Json(GenerateResponse::new(&made, query.form)))
}

/// `GET /daily`: the day's puzzle at a difficulty (today's, UTC, unless a past `date` is
/// asked), with a strong `ETag` (304 to a matching `If-None-Match`) and cacheable until the
/// day ends.
pub(super) async fn daily(
    State(daily): State<Arc<DailyPuzzles>>,
    State(generator): State<Arc<Generator>>,
    State(clock): State<Clock>,
    State(limits): State<Limits>,
    State(gate): State<Arc<Gate>>,
    request: axum::http::HeaderMap,
    QueryPairs(pairs): QueryPairs,
) -> Result<Response, ApiError> {
    let arrived = Instant::now();
    let query = DailyQuery::from_pairs(&pairs)?;
    let (today, left_today) = daily::today(clock.now());
    let date = query.date.unwrap_or(today);
    if date > today {
        return Err(ApiError::DateInFuture(date.to_string(), today.to_string()));
    }
    let deadline = arrived + limits.daily_deadline();
    let made = daily
        .puzzle(&generator, date, query.difficulty, deadline)
        .await?;
    let answer = DailyResponse {
        date: date.to_string(),
        puzzle: GenerateResponse::new(&made, query.form),
    };
    let body = serde_json::to_vec(&answer).map_err(|err| ApiError::Internal(err.to_string()))?;
    // Behind API keys, a shared cache must not hand the answer to callers without one.
    Ok(daily::cached_json(
        body,
        left_today,
        gate.keys().is_on(),
        &request,
    ))
}

/// The scanner, its model loaded on the first scan and shared by all.
static SCANNER: LazyLock<Scanner> = LazyLock::new(Scanner::new);

/// `POST /scan`: a photo read into a board, its givens solved when asked and unique.
pub(super) async fn scan(
    State(pool): State<Arc<SolverPool>>,
    State(limits): State<Limits>,
    QueryPairs(pairs): QueryPairs,
    ImageBody(image): ImageBody,
) -> Result<Json<ScanResponse>, ApiError> {
    let query = ScanQuery::from_pairs(&pairs)?;
    let scan_limits = sudoku_scan::Limits {
        max_pixels: limits.scan_pixels,
    };
    let answer = pool
        .run(move |solver| {
            let scan = SCANNER.scan(&image, &scan_limits)?;
            let solution = query
                .solve
                .then(|| unique_solution(&scan, solver))
                .flatten();
            Ok::<_, ApiError>(ScanResponse::new(&scan, query.form, solution.as_ref()))
        })
        .await??;
    Ok(Json(answer))
}

/// `GET /healthz`: the process is alive.
pub(super) async fn healthz() -> Json<StatusBody> {
    Json(StatusBody { status: "ok" })
}

/// `GET /readyz`: ready to take traffic; 503 once shutdown has begun.
pub(super) async fn readyz(
    State(readiness): State<Arc<Readiness>>,
) -> Result<Json<StatusBody>, ApiError> {
    if readiness.is_ready() {
        Ok(Json(StatusBody { status: "ready" }))
    } else {
        Err(ApiError::NotReady)
    }
}

/// `GET /openapi.yaml`: the API contract.
pub(super) async fn openapi() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/yaml"),
        )],
        OPENAPI_YAML,
    )
        .into_response()
}

/// Any path that is not a route.
pub(super) async fn not_found(request: Request) -> ApiError {
    ApiError::NotFound(request.uri().path().to_owned())
}
