//! Properties that hold for every grid: solutions are valid and keep the givens, removing
//! givens never makes a solvable grid unsolvable, and lines round-trip.

use proptest::prelude::*;
use sudoku::{
    CLASSIC_SOLUTION, Grid, ParseError, Solver, Verdict, find_conflicts, is_solved, is_valid,
};

/// A solved grid made from `CLASSIC_SOLUTION` by symmetries that keep it valid: relabel
/// digits, swap rows within a band, swap bands, transpose.
fn solved_grid() -> impl Strategy<Value = Grid> {
    (
        Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        prop::array::uniform3(Just(vec![0usize, 1, 2]).prop_shuffle()),
        Just(vec![0usize, 1, 2]).prop_shuffle(),
        any::<bool>(),
    )
        .prop_map(|(digits, rows_in_band, bands, transpose)| {
            let base = Grid::from_line(CLASSIC_SOLUTION).unwrap();
            let mut cells = [0u8; 81];
            for r in 0..9 {
                let source_row = bands[r / 3] * 3 + rows_in_band[r / 3][r % 3];
                for c in 0..9 {
                    let v = base.get(source_row, c);
                    let (tr, tc) = if transpose { (c, r) } else { (r, c) };
                    cells[tr * 9 + tc] = digits[usize::from(v) - 1];
                }
            }
            Grid::from_cells(cells).unwrap()
        })
}

/// A solved grid and a puzzle from it with `keep` cells chosen by a mask.
fn puzzle_from_solved() -> impl Strategy<Value = (Grid, Grid)> {
    (solved_grid(), prop::collection::vec(any::<bool>(), 81)).prop_map(|(solved, keep)| {
        let mut cells = *solved.cells();
        for (cell, keep) in cells.iter_mut().zip(keep) {
            if !keep {
                *cell = 0;
            }
        }
        (solved, Grid::from_cells(cells).unwrap())
    })
}

/// Any grid at all: random digits in random cells, clashes included.
fn any_grid() -> impl Strategy<Value = Grid> {
    prop::collection::vec(prop_oneof![6 => Just(0u8), 1 => 1..=9u8], 81).prop_map(|v| {
        let mut cells = [0u8; 81];
        cells.copy_from_slice(&v);
        Grid::from_cells(cells).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn generated_solved_grids_are_valid(grid in solved_grid()) {
        prop_assert!(is_solved(&grid));
    }

    #[test]
    fn removing_givens_from_a_solved_grid_never_makes_it_unsolvable((solved, puzzle) in puzzle_from_solved()) {
        let count = Solver::default().count_solutions(&puzzle, 2).unwrap();
        prop_assert!(count.solutions >= 1);
        let first = count.first.unwrap();
        prop_assert!(is_solved(&first));
        prop_assert!(puzzle.is_kept_by(&first));
        if count.solutions == 1 {
            prop_assert_eq!(first, solved, "a unique solution must be the grid it came from");
        }
    }

    #[test]
    fn any_solution_of_any_grid_is_valid_and_keeps_the_givens(grid in any_grid()) {
        let verdict = Solver::default().analyze(&grid).unwrap();
        if !find_conflicts(&grid).is_empty() {
            prop_assert_eq!(verdict, Verdict::None);
        }
        if let Some(solution) = verdict.solution() {
            prop_assert!(is_solved(&solution));
            prop_assert!(grid.is_kept_by(&solution));
            prop_assert!(is_valid(&grid));
        }
    }

    #[test]
    fn counting_agrees_with_analyze(grid in any_grid()) {
        let solver = Solver::default();
        let count = solver.count_solutions(&grid, 2).unwrap();
        let verdict = solver.analyze(&grid).unwrap();
        let expected = match count.solutions {
            0 => Verdict::None,
            1 => Verdict::Unique(count.first.unwrap()),
            _ => Verdict::Multiple(count.first.unwrap()),
        };
        prop_assert_eq!(verdict, expected);
        let one = solver.count_solutions(&grid, 1).unwrap();
        prop_assert_eq!(one.solutions, count.solutions.min(1));
    }

    #[test]
    fn lines_round_trip(line in "[1-9.]{81}") {
        let grid = Grid::from_line(&line).unwrap();
        prop_assert_eq!(grid.to_line(), line.clone());
        let zeros = line.replace('.', "0");
        prop_assert_eq!(Grid::from_line(&zeros).unwrap(), grid);
    }

    #[test]
    fn lines_of_the_wrong_length_are_rejected_with_their_length(line in "[1-9.]{0,200}") {
        prop_assume!(line.len() != 81);
        let err = Grid::from_line(&line).unwrap_err();
        prop_assert_eq!(err.clone(), ParseError::WrongLength(line.len()));
        let count = line.len().to_string();
        prop_assert!(err.to_string().contains(&format!("found {count} character")), "{}", err);
    }
}
