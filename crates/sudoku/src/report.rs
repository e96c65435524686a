//! Everything worth knowing about a board at once: the answer of `/validate`.

use super::grid::Grid;
use super::solver::{BudgetExhausted, Solver, Verdict};
use super::validate::{Conflict, find_conflicts};

/// What a board is: valid, complete, solved, solvable, unique, and its conflicts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// No two filled cells clash (LeetCode 36: empty cells are ignored).
    pub valid: bool,
    /// No cell is empty.
    pub complete: bool,
    /// Complete and valid.
    pub solved: bool,
    /// At least one solution exists.
    pub solvable: bool,
    /// Exactly one solution exists.
    pub unique: bool,
    /// Every clash among the filled cells.
    pub conflicts: Vec<Conflict>,
    /// The first solution found, when there is one.
    pub solution: Option<Grid>,
}

impl Report {
    /// Examines `grid`, searching (up to two solutions) only when the givens do not clash.
    ///
    /// # Errors
    /// [`BudgetExhausted`] when the search gave up before it could tell.
    pub fn of(grid: &Grid, solver: &Solver) -> Result<Report, BudgetExhausted> {
        let conflicts = find_conflicts(grid);
        let complete = grid.is_complete();
        let verdict = if conflicts.is_empty() {
            solver.analyze(grid)?
        } else {
            Verdict::None
        };
        Ok(Report {
            valid: conflicts.is_empty(),
            complete,
            solved: complete && conflicts.is_empty(),
            solvable: verdict != Verdict::None,
            unique: matches!(verdict, Verdict::Unique(_)),
            conflicts,
            solution: verdict.solution(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_board_is_valid_solvable_and_not_unique() {
        let report = Report::of(&Grid::EMPTY, &Solver::default()).unwrap();
        assert!(report.valid && report.solvable && !report.unique);
        assert!(!report.complete && !report.solved);
        assert!(report.conflicts.is_empty());
    }

    #[test]
    fn clashing_givens_are_invalid_and_unsolvable() {
        let mut cells = [0u8; 81];
        cells[0] = 4;
        cells[1] = 4;
        let report = Report::of(&Grid::from_cells(cells).unwrap(), &Solver::default()).unwrap();
        assert!(!report.valid && !report.solvable && !report.unique);
        assert_eq!(report.conflicts.len(), 2, "the row and the box");
    }
}
