//! What goes over the wire: every request and response body of the API, as `openapi.yaml`
//! documents them. Bodies are plain data; turning them into core types and back is done
//! here too ([`Board::from_json`], [`Board::render`], [`conflict_bodies`]), so handlers only
//! connect a body to the solver pool.
//!
//! - [`board`]: the board's three wire forms, their parsing and rendering.
//! - [`conflict`]: clashing givens.
//! - [`grade`]: the answer of `/grade`.
//! - [`generate`]: the query parameters and the answer of `/generate`.
//! - [`hint`]: the requests of `/hint` and `/explain`, and the step shape they answer.
//! - [`problem`]: the problem body of every error.

pub mod board;
pub mod conflict;
pub mod generate;
pub mod grade;
pub mod hint;
pub mod problem;

pub use board::{Board, BoardError, BoardFormat, WireBoard};
pub use conflict::{CellRef, ConflictBody, conflict_bodies};
pub use generate::{GenerateQuery, GenerateResponse, ParameterError};
pub use grade::{GradeResponse, TechniqueBody};
pub use hint::{
    ExplainRequest, ExplainResponse, HintInput, HintRequest, StepBody, given_changed,
    read_max_steps,
};
pub use problem::Problem;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::sudoku::{Grid, Report};

/// Most boards one `/solve/batch` request may carry.
pub const MAX_BATCH_BOARDS: usize = 1000;

/// `{"board": B}`: the body of `/solve`, `/validate` and `/grade`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRequest {
    /// The board in any of the three wire forms, read by [`Board::from_json`].
    pub board: Value,
}

/// `{"boards": [B, ...]}`: the body of `/solve/batch`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest {
    /// Up to [`MAX_BATCH_BOARDS`] boards, each in any wire form.
    pub boards: Vec<WireBoard>,
}

/// The answer of `/solve`.
#[derive(Debug, Serialize)]
pub struct SolveResponse {
    /// The solution, in the caller's form.
    pub solution: Value,
    /// False when another solution exists too.
    pub unique: bool,
}

impl SolveResponse {
    /// The answer for `board` solved as `solution`, written in the form `board` came in.
    pub fn new(board: &Board, solution: &Grid, unique: bool) -> SolveResponse {
        SolveResponse {
            solution: board.render(solution),
            unique,
        }
    }
}

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

impl From<Result<SolveResponse, Problem>> for BatchResult {
    fn from(answer: Result<SolveResponse, Problem>) -> Self {
        match answer {
            Ok(solved) => BatchResult::Solved(solved),
            Err(error) => BatchResult::Failed { error },
        }
    }
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

impl From<&Report> for ValidateResponse {
    fn from(report: &Report) -> Self {
        ValidateResponse {
            valid: report.valid,
            complete: report.complete,
            solved: report.solved,
            solvable: report.solvable,
            unique: report.unique,
            conflicts: conflict_bodies(&report.conflicts),
        }
    }
}

/// `{"status": "..."}`: the answer of `/healthz` (`ok`) and of a ready `/readyz` (`ready`).
#[derive(Debug, Serialize)]
pub struct StatusBody {
    /// `ok` or `ready`.
    pub status: &'static str,
}
