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

pub use board::{Board, BoardError, BoardFormat};
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
    pub boards: Vec<Value>,
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

    /// The JSON text of [`SolveResponse::new`]'s answer, byte for byte what serde writes
    /// for it: for a board that came as a line (the common case, and `/solve`'s hot path)
    /// written straight into one buffer, without a [`Value`] or serde in between.
    pub fn json(board: &Board, solution: &Grid, unique: bool) -> String {
        if board.format != BoardFormat::Line {
            let answer = SolveResponse::new(board, solution, unique);
            // Serializing plain strings, numbers and booleans cannot fail.
            return serde_json::to_string(&answer).unwrap_or_default();
        }
        // The line holds only digits and `.`, which JSON strings take unescaped.
        let mut json = String::with_capacity(128);
        json.push_str(r#"{"solution":""#);
        board::push_line(&mut json, solution);
        json.push_str(if unique {
            r#"","unique":true}"#
        } else {
            r#"","unique":false}"#
        });
        json
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::CLASSIC_PUZZLE;

    #[test]
    fn the_written_solve_answer_is_what_serde_writes_in_every_form() {
        let puzzle = Grid::from_line(CLASSIC_PUZZLE).unwrap();
        let mut solution = puzzle;
        // A grid with empty cells too, so that `.` is written as well as digits.
        for (i, cell) in [(0, 0), (40, 7), (80, 9)] {
            let mut cells = *solution.cells();
            cells[i] = cell;
            solution = Grid::from_cells(cells).unwrap();
        }
        for format in [BoardFormat::Line, BoardFormat::Chars, BoardFormat::Digits] {
            let board = Board {
                grid: puzzle,
                format,
            };
            for unique in [true, false] {
                let expected =
                    serde_json::to_string(&SolveResponse::new(&board, &solution, unique)).unwrap();
                assert_eq!(
                    SolveResponse::json(&board, &solution, unique),
                    expected,
                    "{format:?}, unique {unique}"
                );
            }
        }
    }
}
