//! Thin handlers: body -> core types -> solver on the blocking pool -> body.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::board::{Board, ConflictBody, conflict_bodies};
use super::error::{ApiError, Problem};
use super::extract::JsonBody;
use super::state::AppState;
use crate::sudoku::{Grid, Report, Verdict, find_conflicts};

/// The spec, served as written.
pub const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");

/// `{"board": B}`: the body of `/solve` and `/validate`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRequest {
    /// The board in any of the three wire forms.
    pub board: Value,
}

/// The answer of `/solve`.
#[derive(Debug, Serialize)]
pub struct SolveResponse {
    /// The solution, in the caller's form.
    pub solution: Value,
    /// False when another solution exists too.
    pub unique: bool,
}

/// `{"boards": [B, ...]}`: the body of `/solve/batch`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest {
    /// Up to [`MAX_BATCH_BOARDS`] boards, each in any wire form.
    pub boards: Vec<Value>,
}

/// Most boards one `/solve/batch` request may carry.
pub const MAX_BATCH_BOARDS: usize = 1000;

/// One board's result in a batch: its solution, or the problem it would have had alone.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum BatchResult {
    /// Solved: the same body `/solve` answers.
    Solved(SolveResponse),
    /// Not solved: the problem object `/solve` would have answered, under `error`.
    Failed {
        /// The problem (status, code, detail, and `errors` or `conflicts`).
        error: Problem,
    },
}

/// The answer of `/solve/batch`: one result per board, in request order.
#[derive(Debug, Serialize)]
pub struct BatchResponse {
    /// The results, index for index with the request's boards.
    pub results: Vec<BatchResult>,
}

/// The answer of `/validate`.
#[derive(Debug, Serialize)]
pub struct ValidateResponse {
    /// No two filled cells clash.
    pub valid: bool,
    /// No empty cell.
    pub complete: bool,
    /// Complete and valid.
    pub solved: bool,
    /// At least one solution exists.
    pub solvable: bool,
    /// Exactly one solution exists.
    pub unique: bool,
    /// The clashes among filled cells.
    pub conflicts: Vec<ConflictBody>,
}

/// `POST /solve`: the solution in the caller's form, or 422 when there is none.
pub async fn solve(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<BoardRequest>,
) -> Result<Json<SolveResponse>, ApiError> {
    let board = Board::from_json(&request.board, "/board")?;
    let verdict = state.analyze(board.grid).await??;
    solve_response(&board, verdict).map(Json)
}

/// The answer for one solved board: its solution, or why there is none.
pub fn solve_response(board: &Board, verdict: Verdict) -> Result<SolveResponse, ApiError> {
    match verdict {
        Verdict::Unique(solution) | Verdict::Multiple(solution) => Ok(SolveResponse {
            solution: board.render(&solution),
            unique: matches!(verdict, Verdict::Unique(_)),
        }),
        Verdict::None => Err(ApiError::NoSolution(conflict_bodies(&find_conflicts(
            &board.grid,
        )))),
    }
}

/// `POST /solve/batch`: many boards at once, solved across all solver slots.
pub async fn solve_batch(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<BatchRequest>,
) -> Result<Json<BatchResponse>, ApiError> {
    let count = request.boards.len();
    if count == 0 || count > MAX_BATCH_BOARDS {
        return Err(ApiError::InvalidRequest(format!(
            "boards must hold 1 to {MAX_BATCH_BOARDS} boards, found {count}"
        )));
    }
    let boards: Vec<Result<Board, ApiError>> = request
        .boards
        .iter()
        .enumerate()
        .map(|(i, value)| Board::from_json(value, &format!("/boards/{i}")).map_err(ApiError::from))
        .collect();
    let grids: Vec<Grid> = boards.iter().flatten().map(|board| board.grid).collect();
    let mut verdicts = state.analyze_all(grids).await?.into_iter();
    let results = boards
        .into_iter()
        .map(|board| {
            let answer = board.and_then(|board| {
                let verdict = verdicts
                    .next()
                    .ok_or_else(|| ApiError::Internal("batch result missing".into()))?;
                solve_response(&board, verdict?)
            });
            match answer {
                Ok(solved) => BatchResult::Solved(solved),
                Err(error) => BatchResult::Failed {
                    error: error.to_problem(),
                },
            }
        })
        .collect();
    Ok(Json(BatchResponse { results }))
}

/// `POST /validate`: what the board is, for any well-formed board.
pub async fn validate(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<BoardRequest>,
) -> Result<Json<ValidateResponse>, ApiError> {
    let board = Board::from_json(&request.board, "/board")?;
    let report = state
        .run_solver(move |solver| Report::of(&board.grid, solver))
        .await??;
    Ok(Json(ValidateResponse {
        valid: report.valid,
        complete: report.complete,
        solved: report.solved,
        solvable: report.solvable,
        unique: report.unique,
        conflicts: conflict_bodies(&report.conflicts),
    }))
}

/// `GET /healthz`: the process is alive.
pub async fn healthz() -> Json<Value> {
    Json(serde_json::json!({"status": "ok"}))
}

/// `GET /openapi.yaml`: the API contract.
pub async fn openapi() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/yaml"),
        )],
        OPENAPI_YAML,
    )
        .into_response()
}

/// `GET /readyz`: ready to take traffic; 503 once shutdown has begun.
pub async fn readyz(State(state): State<AppState>) -> Response {
    if state.is_ready() {
        Json(serde_json::json!({"status": "ready"})).into_response()
    } else {
        ApiError::NotReady.into_response()
    }
}
