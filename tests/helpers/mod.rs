//! What the test suites share: the boards every suite uses (one definition each), the wire
//! forms of a board, and the ways to reach the service: the router in-process
//! ([`router`]), the real server on a local port ([`server`]), the built binary as a child
//! process ([`process`]), and temporary input files ([`temp_file`]).
//!
//! Both suites include this folder (`#[path = "../helpers/mod.rs"] mod helpers;` in
//! `tests/api/main.rs` and `tests/cli/main.rs`) and import it whole with
//! `use crate::helpers::*`.
#![allow(dead_code, unused_imports)] // each suite uses its own part of these

mod process;
mod router;
mod server;
mod temp_file;

pub(crate) use process::*;
pub(crate) use router::*;
pub(crate) use server::*;
pub(crate) use temp_file::TempFile;

use serde_json::Value;
use sudoku::{Grid, Solver};

/// The classic puzzle from Wikipedia's Sudoku article, and its solution.
pub(crate) use sudoku::{CLASSIC_PUZZLE as PUZZLE, CLASSIC_SOLUTION as SOLUTION};

/// Not a proper puzzle (17 givens, several solutions, found by `examples/hard_to_decide`,
/// the board with solutions of `data/hard-to-decide/adversarial` that takes the most
/// guesses): proving two takes 1,156 guesses, ~0.3 ms in release and a few in debug, far
/// past the inline guess budget. The slowest input with a solution known for this solver.
/// (The one before, `....8.....18..9....` with 13 givens, took about 80,000 guesses until
/// the all-different checks; 99 since.)
pub(crate) const SLOW: &str =
    "....3....5........2........7.1.6..........4....497.1.....1.97...9.........3...6..";

/// A board with every cell empty.
pub(crate) fn empty_board() -> String {
    ".".repeat(81)
}

/// [`PUZZLE`] with a second 5 in row 0: two givens clash.
pub(crate) fn clashing_board() -> String {
    format!("55{}", &PUZZLE[2..])
}

/// Row 0 can only end in 9, but column 8 already holds a 9 further down: no clash between
/// givens, and no solution.
pub(crate) const DEAD_END: &str =
    "12345678........................................................................9";

/// The grid of a line.
pub(crate) fn grid(line: &str) -> Grid {
    Grid::from_line(line).unwrap_or_else(|err| panic!("{line:?}: {err}"))
}

/// Guesses the default solver makes to answer `grid` (solve and prove uniqueness): the
/// measure of how hard a puzzle is for us that no machine's speed changes. The inline
/// path answers up to `INLINE_GUESS_BUDGET` (32) without a solver slot.
pub(crate) fn guesses(grid: &Grid) -> u64 {
    Solver::default()
        .count_solutions(grid, 2)
        .unwrap_or_else(|err| panic!("{grid}: {err}"))
        .guesses
}

/// The grid of a line as rows of integers.
pub(crate) fn int_rows(line: &str) -> Value {
    Value::Array(
        line.as_bytes()
            .chunks(9)
            .map(|row| {
                row.iter()
                    .map(|&b| Value::from(if b == b'.' { 0 } else { b - b'0' }))
                    .collect()
            })
            .collect(),
    )
}

/// The grid of a line as rows of one-character strings.
pub(crate) fn char_rows(line: &str) -> Value {
    Value::Array(
        line.chars()
            .collect::<Vec<_>>()
            .chunks(9)
            .map(|row| row.iter().map(|c| Value::String(c.to_string())).collect())
            .collect(),
    )
}

/// The grid a solution stands for in any of the three wire forms, read independently of
/// the server's parser: a line, rows of one-character strings, or rows of integers.
pub(crate) fn grid_of_any_form(value: &Value) -> Result<Grid, String> {
    let line: String = match value {
        Value::String(line) => line.clone(),
        Value::Array(rows) if rows.len() == 9 => rows
            .iter()
            .map(|row| match row.as_array() {
                Some(cells) if cells.len() == 9 => cells
                    .iter()
                    .map(|cell| match cell {
                        Value::String(text) if text.chars().count() == 1 => Ok(text.clone()),
                        Value::Number(n) if n.as_u64().is_some_and(|d| d <= 9) => Ok(n.to_string()),
                        other => Err(format!("cell {other}")),
                    })
                    .collect::<Result<String, String>>(),
                _ => Err(format!("row {row}")),
            })
            .collect::<Result<String, String>>()?,
        other => return Err(format!("not a board: {other}")),
    };
    Grid::from_line(&line).map_err(|err| format!("{line:?}: {err}"))
}

/// Asserts that `solution` (in any wire form) solves `puzzle`: complete, valid, and
/// keeping every given.
pub(crate) fn assert_solves(puzzle: &Grid, solution: &Value, case: &str) {
    let solution = grid_of_any_form(solution).unwrap_or_else(|err| panic!("{case}: {err}"));
    assert!(
        sudoku::is_solved(&solution),
        "{case}: not a solution: {solution}"
    );
    assert!(
        puzzle.is_kept_by(&solution),
        "{case}: givens changed: {puzzle} -> {solution}"
    );
}
