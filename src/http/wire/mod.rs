//! What goes over the wire: every request and response body of the API, as `openapi.yaml`
//! documents them. Bodies are plain data; turning them into core types and back is done
//! here too ([`Board::from_json`], [`Board::render`], [`conflict_bodies`]), so handlers only
//! connect a body to the solver pool.
//!
//! - [`board`]: the board's three wire forms, their parsing and rendering.
//! - [`conflict`]: clashing givens.
//! - [`grade`]: the answer of `/grade`.
//! - [`generate`]: the query parameters and the answer of `/generate`.
//! - [`daily`]: the query parameters and the answer of `/daily`.
//! - [`hint`]: the requests of `/hint` and `/explain`, and the step shape they answer.
//! - [`print`](mod@print): the bodies and queries of `/render` and `/booklet`.
//! - [`problem`]: the problem body of every error.
//! - [`scan`]: the query and the answer of `/scan`.

pub mod board;
pub mod conflict;
pub mod daily;
pub mod fpuzzles;
pub mod generate;
pub mod grade;
pub mod hint;
pub mod lz_string;
pub mod print;
pub mod problem;
pub mod scan;
pub mod variant;

pub use board::{Board, BoardError, BoardFormat, WireBoard};
pub use conflict::{CellRef, ConflictBody, conflict_bodies};
pub use daily::{DailyQuery, DailyResponse};
pub use generate::{GenerateQuery, GenerateResponse, ParameterError};
pub use grade::{GradeResponse, TechniqueBody};
pub use hint::{
    ExplainRequest, ExplainResponse, HintInput, HintRequest, HintWords, StageBody, StepBody,
    given_changed, read_max_steps,
};
pub use problem::Problem;
pub use scan::{ScanQuery, ScanResponse, unique_solution};
pub use variant::{
    RulesBody, RulesFault, SizedBoard, is_other_size, read_puzzle, variant_conflict_bodies,
};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use sudoku::{Grid, Report};

/// Most boards one `/solve/batch` request may carry.
pub const MAX_BATCH_BOARDS: usize = 1000;

/// `{"board": B, "rules"?: R}` or `{"fpuzzles": F}`: the body of `/solve`, `/validate` and
/// `/grade`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRequest {
    /// The board in any of the three wire forms, the plain line already read into its grid.
    #[serde(default, deserialize_with = "variant::present")]
    pub board: Option<WireBoard>,
    /// Rules beside the classic ones of the board's size, when there are any.
    #[serde(default, deserialize_with = "variant::present")]
    pub rules: Option<RulesBody>,
    /// The puzzle as f-puzzles shares it, instead of `board` and `rules`.
    #[serde(default, deserialize_with = "variant::present")]
    pub fpuzzles: Option<String>,
}

impl BoardRequest {
    /// Checks that the body holds one puzzle: a board (with rules or not), or f-puzzles
    /// data, which carries its own rules.
    ///
    /// # Errors
    /// A [`BoardError`] for `invalid_request`, pointing at the member at fault.
    pub fn check_members(&self) -> Result<(), BoardError> {
        match (&self.board, &self.rules, &self.fpuzzles) {
            (Some(_), _, Some(_)) => Err(BoardError::whole(
                "/fpuzzles",
                "send either \"board\" (with \"rules\" if any) or \"fpuzzles\", not both",
            )),
            (None, Some(_), Some(_)) => Err(BoardError::whole(
                "/rules",
                "\"rules\" cannot go with \"fpuzzles\": the f-puzzles data carries its own rules",
            )),
            (None, _, None) => Err(missing_board()),
            _ => Ok(()),
        }
    }

    /// The board sent, as [`Board::from_json`] reads it.
    ///
    /// # Errors
    /// A [`BoardError`] located under `/board`, or saying that there is no board.
    pub fn board(&self) -> Result<Board, BoardError> {
        self.board
            .as_ref()
            .ok_or_else(missing_board)?
            .read(|| "/board".to_owned())
    }

    /// Whether this request is for the general engine: f-puzzles data, rules, or a side
    /// other than 9.
    pub fn is_variant(&self) -> bool {
        self.fpuzzles.is_some()
            || self.rules.is_some()
            || self.board.as_ref().is_some_and(WireBoard::is_other_size)
    }
}

fn missing_board() -> BoardError {
    BoardError::whole("/board", "missing member \"board\" (or \"fpuzzles\")")
}

/// `{"boards": [B, ...], "rules"?: R}`: the body of `/solve/batch`; the rules, when given,
/// hold for every board.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest {
    /// Up to [`MAX_BATCH_BOARDS`] boards, each in any wire form.
    pub boards: Vec<WireBoard>,
    /// Rules for every board, when there are any.
    #[serde(default, deserialize_with = "variant::present")]
    pub rules: Option<RulesBody>,
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
    /// Appends the JSON of [`SolveResponse::new`]'s answer to `out`, the very bytes
    /// `serde_json` writes for it. The line form, a batch's usual answer, is written
    /// straight from the grid: through a `Value` and serde's string escaping it cost more
    /// than reading the board.
    pub fn write_json(out: &mut Vec<u8>, board: &Board, solution: &Grid, unique: bool) {
        if board.format == BoardFormat::String {
            out.extend_from_slice(br#"{"solution":""#);
            out.extend_from_slice(&solution.line_bytes());
            out.extend_from_slice(if unique {
                br#"","unique":true}"#
            } else {
                br#"","unique":false}"#
            });
        } else {
            // Writing to a Vec cannot fail, and the body is plain data.
            let _ = serde_json::to_writer(out, &SolveResponse::new(board, solution, unique));
        }
    }
}

/// A board's result in a batch when it has no solution to give: the problem object
/// `/solve` would have answered, under `error`. A solved board's result is the body
/// `/solve` answers ([`SolveResponse::write_json`]); the handler joins them into
/// `{"results": [...]}`, one per board in request order.
#[derive(Debug, Serialize)]
pub struct BatchFailure {
    /// The problem (status, code, detail, and `errors` or `conflicts`).
    pub error: Problem,
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
    use sudoku::{CLASSIC_PUZZLE, CLASSIC_SOLUTION};

    #[test]
    fn an_answer_written_directly_is_the_json_serde_writes() {
        let puzzle = Grid::from_line(CLASSIC_PUZZLE).unwrap();
        let solution = Grid::from_line(CLASSIC_SOLUTION).unwrap();
        for format in [
            BoardFormat::String,
            BoardFormat::Chars,
            BoardFormat::Numbers,
        ] {
            let board = Board {
                grid: puzzle,
                format,
            };
            for unique in [true, false] {
                let mut written = b"[".to_vec();
                SolveResponse::write_json(&mut written, &board, &solution, unique);
                let expected = serde_json::to_vec(&SolveResponse::new(&board, &solution, unique));
                assert_eq!(written[1..], expected.unwrap()[..], "{format:?} {unique}");
            }
        }
    }
}
