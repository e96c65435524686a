//! `/scan`: its query parameters and its answer, a photo's reading on the wire.

use serde::Serialize;
use serde_json::Value;

use super::SolveResponse;
use super::board::{BoardFormat, render};
use super::generate::{ParameterError, checked_pairs, parse_form};
use sudoku::{Grid, Solver, Verdict};
use sudoku_scan::{Kind, Scan};

/// The parameters `/scan` takes.
const SCAN_PARAMETERS: [&str; 2] = ["form", "solve"];

/// `/scan`'s query: the form of the boards and whether to solve the givens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanQuery {
    /// The form of `board`, `entries` and the solution (default `string`).
    pub form: BoardFormat,
    /// Whether to add the givens' solution when it is unique.
    pub solve: bool,
}

impl ScanQuery {
    /// Reads the decoded `name=value` pairs of a query string.
    ///
    /// # Errors
    /// A [`ParameterError`] naming the first parameter that is unknown, repeated, or whose
    /// value is not one it takes.
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<ScanQuery, ParameterError> {
        let mut query = ScanQuery {
            form: BoardFormat::String,
            solve: false,
        };
        for (name, value) in checked_pairs(pairs, &SCAN_PARAMETERS)? {
            let error = ParameterError::of(name);
            if name == "form" {
                query.form = parse_form(value).map_err(error)?;
            } else {
                query.solve = match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(error(format!("solve {value:?} is not true or false"))),
                };
            }
        }
        Ok(query)
    }
}

/// One cell of the answer.
#[derive(Debug, Serialize)]
pub struct ScanCell {
    /// 0-based row.
    pub row: u8,
    /// 0-based column.
    pub col: u8,
    /// `given`, `entry`, `candidates` or `empty`.
    pub kind: &'static str,
    /// The digit of a given or an entry, else null.
    pub digit: Option<u8>,
    /// How sure the reading is, 0 to 1.
    pub confidence: f32,
}

/// The answer of `/scan`.
#[derive(Debug, Serialize)]
pub struct ScanResponse {
    /// The printed givens.
    pub board: Value,
    /// The handwritten entries.
    pub entries: Value,
    /// Every cell, row by row.
    pub cells: Vec<ScanCell>,
    /// The grid's corners in the photo's pixels: top-left, top-right, bottom-right,
    /// bottom-left.
    pub corners: [[f32; 2]; 4],
    /// The givens' solution, `/solve`'s answer, when asked for and unique.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<SolveResponse>,
}

impl ScanResponse {
    /// The answer for a scan, its boards in `form`, with the givens' solution if any.
    pub fn new(scan: &Scan, form: BoardFormat, solution: Option<&Grid>) -> ScanResponse {
        let grid =
            |line: String| Grid::from_line(&line).map_or(Value::Null, |grid| render(&grid, form));
        ScanResponse {
            board: grid(scan.givens_line()),
            entries: grid(scan.entries_line()),
            cells: scan
                .cells
                .iter()
                .map(|cell| ScanCell {
                    row: cell.row,
                    col: cell.col,
                    kind: match cell.kind {
                        Kind::Given => "given",
                        Kind::Entry => "entry",
                        Kind::Candidates => "candidates",
                        Kind::Empty => "empty",
                    },
                    digit: cell.digit,
                    // Three decimals are all a caller can use, and keep the body short.
                    confidence: (cell.confidence * 1000.0).round() / 1000.0,
                })
                .collect(),
            corners: scan.corners.map(|(x, y)| [x.round(), y.round()]),
            solution: solution.map(|solution| SolveResponse {
                solution: render(solution, form),
                unique: true,
            }),
        }
    }
}

/// The scanned givens' solution when they have exactly one, for `solve=true`.
pub fn unique_solution(scan: &Scan, solver: &Solver) -> Option<Grid> {
    let givens = Grid::from_line(&scan.givens_line()).ok()?;
    match solver.analyze(&givens) {
        Ok(Verdict::Unique(solution)) => Some(solution),
        _ => None,
    }
}
