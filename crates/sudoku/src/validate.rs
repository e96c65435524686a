//! Conflicts among the filled cells of a grid (the LeetCode 36 check).

use super::grid::Grid;

/// The three kinds of Sudoku unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// A row, indexed 0..9 from the top.
    Row,
    /// A column, indexed 0..9 from the left.
    Column,
    /// A 3x3 box, indexed 0..9 row-major from the top-left.
    Box,
}

impl Unit {
    /// All units, in the order conflicts are reported.
    pub const ALL: [Unit; 3] = [Unit::Row, Unit::Column, Unit::Box];

    /// The lower-case name used on the wire and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
        }
    }

    /// The 0-based (row, col) of the `k`-th cell of unit `index`.
    pub fn cell(self, index: usize, k: usize) -> (usize, usize) {
        match self {
            Unit::Row => (index, k),
            Unit::Column => (k, index),
            Unit::Box => (index / 3 * 3 + k / 3, index % 3 * 3 + k % 3),
        }
    }
}

/// A digit that appears more than once in one unit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Conflict {
    /// The kind of unit.
    pub unit: Unit,
    /// Which unit of that kind, 0..9.
    pub index: usize,
    /// The repeated digit, 1..=9.
    pub digit: u8,
    /// Every cell of the unit holding that digit, as 0-based (row, col), in unit order.
    pub cells: Vec<(usize, usize)>,
}

/// Every conflict among the filled cells, rows first, then columns, then boxes; within a
/// kind by unit index, then digit. Empty cells never conflict.
///
/// ```
/// use sudoku::{CLASSIC_PUZZLE, Grid, Unit, find_conflicts, is_valid};
///
/// let puzzle: Grid = CLASSIC_PUZZLE.parse()?;
/// assert!(is_valid(&puzzle) && find_conflicts(&puzzle).is_empty());
///
/// // A second 5 in the top row, beside the first.
/// let clash: Grid = format!("55{}", &CLASSIC_PUZZLE[2..]).parse()?;
/// assert!(!is_valid(&clash));
/// let conflicts = find_conflicts(&clash);
/// assert_eq!((conflicts[0].unit, conflicts[0].index, conflicts[0].digit), (Unit::Row, 0, 5));
/// assert_eq!(conflicts[0].cells, vec![(0, 0), (0, 1)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn find_conflicts(grid: &Grid) -> Vec<Conflict> {
    let mut conflicts = Vec::new();
    for unit in Unit::ALL {
        for index in 0..9 {
            let mut seen: [Vec<(usize, usize)>; 10] = Default::default();
            for k in 0..9 {
                let (row, col) = unit.cell(index, k);
                let digit = grid.get(row, col);
                if digit != 0 {
                    seen[usize::from(digit)].push((row, col));
                }
            }
            for (digit, cells) in seen.into_iter().enumerate().skip(1) {
                if cells.len() > 1 {
                    conflicts.push(Conflict {
                        unit,
                        index,
                        digit: digit as u8,
                        cells,
                    });
                }
            }
        }
    }
    conflicts
}

/// True when the filled cells break no rule (LeetCode 36: empty cells are ignored).
pub fn is_valid(grid: &Grid) -> bool {
    // A bitmask pass; cheaper than collecting conflicts on the hot path of `solve`.
    let mut rows = [0u16; 9];
    let mut cols = [0u16; 9];
    let mut boxes = [0u16; 9];
    for (i, &v) in grid.cells().iter().enumerate() {
        if v == 0 {
            continue;
        }
        let bit = 1u16 << v;
        let (r, c) = (i / 9, i % 9);
        let b = r / 3 * 3 + c / 3;
        if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
            return false;
        }
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
    }
    true
}

/// True when the grid is complete and valid: a finished Sudoku.
pub fn is_solved(grid: &Grid) -> bool {
    grid.is_complete() && is_valid(grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_with(cells: &[(usize, usize, u8)]) -> Grid {
        let mut values = [0u8; 81];
        for &(r, c, v) in cells {
            values[r * 9 + c] = v;
        }
        Grid::from_cells(values).unwrap()
    }

    #[test]
    fn the_empty_grid_is_valid_and_unsolved() {
        assert!(find_conflicts(&Grid::EMPTY).is_empty());
        assert!(is_valid(&Grid::EMPTY));
        assert!(!is_solved(&Grid::EMPTY));
    }

    #[test]
    fn a_repeated_digit_in_a_row_is_one_row_conflict() {
        let grid = grid_with(&[(2, 0, 7), (2, 8, 7)]);
        assert_eq!(
            find_conflicts(&grid),
            vec![Conflict {
                unit: Unit::Row,
                index: 2,
                digit: 7,
                cells: vec![(2, 0), (2, 8)]
            }]
        );
        assert!(!is_valid(&grid));
    }

    #[test]
    fn two_cells_sharing_a_column_and_box_give_two_conflicts() {
        let grid = grid_with(&[(0, 4, 3), (2, 4, 3)]);
        let found: Vec<(Unit, usize)> = find_conflicts(&grid)
            .iter()
            .map(|c| (c.unit, c.index))
            .collect();
        assert_eq!(found, vec![(Unit::Column, 4), (Unit::Box, 1)]);
    }

    #[test]
    fn three_copies_of_a_digit_are_listed_in_one_conflict() {
        let grid = grid_with(&[(5, 1, 9), (5, 4, 9), (5, 7, 9)]);
        let conflicts = find_conflicts(&grid);
        assert_eq!(conflicts.len(), 1);
        assert_eq!(conflicts[0].cells, vec![(5, 1), (5, 4), (5, 7)]);
    }

    #[test]
    fn box_cells_are_numbered_row_major() {
        assert_eq!(Unit::Box.cell(0, 0), (0, 0));
        assert_eq!(Unit::Box.cell(4, 4), (4, 4));
        assert_eq!(Unit::Box.cell(5, 7), (5, 7));
        assert_eq!(Unit::Box.cell(8, 8), (8, 8));
        assert_eq!(Unit::Box.cell(7, 3), (7, 3));
    }
}
