//! The shared benchmark sets (`data/puzzles/`): every answer is a complete valid
//! grid keeping the givens, uniqueness matches the sets' README, and puzzles made unsolvable
//! by one wrong extra clue are found to have no solution.
//!
//! Release builds check every puzzle; debug builds every 50th. `SUDOKU_CORPUS_STRIDE=N`
//! overrides the stride.

use std::path::PathBuf;

use sudoku_service::sudoku::{Grid, Solver, Verdict, is_solved, is_valid, puzzle_lines};

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/puzzles")
}

fn stride() -> usize {
    std::env::var("SUDOKU_CORPUS_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(if cfg!(debug_assertions) { 50 } else { 1 })
}

/// The puzzles of one set (every `stride()`-th), with their line numbers.
fn puzzles(name: &str) -> Vec<(usize, Grid)> {
    let path = corpus_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    let all: Vec<(usize, Grid)> = puzzle_lines(&text)
        .map(|(number, grid)| {
            let grid = grid.unwrap_or_else(|err| panic!("{}:{number}: {err}", path.display()));
            (number, grid)
        })
        .collect();
    assert!(
        all.len() >= 1000,
        "{name} looks truncated: {} puzzles",
        all.len()
    );
    all.into_iter().step_by(stride()).collect()
}

/// Solves every puzzle of `name`, checks each answer, and returns how many were unique.
fn check_set(name: &str, expect_unique: bool) {
    let solver = Solver::default();
    let puzzles = puzzles(name);
    for (line, puzzle) in &puzzles {
        let verdict = solver.analyze(puzzle).unwrap();
        let solution = verdict
            .solution()
            .unwrap_or_else(|| panic!("{name}:{line}: no solution found"));
        assert!(
            is_solved(&solution),
            "{name}:{line}: {solution} is not a valid grid"
        );
        assert!(
            puzzle.is_kept_by(&solution),
            "{name}:{line}: a given was changed"
        );
        assert_eq!(
            matches!(verdict, Verdict::Unique(_)),
            expect_unique,
            "{name}:{line}: uniqueness"
        );
    }
}

/// Adds one clue that disagrees with the unique solution, in a cell where it clashes with no
/// given: the puzzle then has no solution, but only a search can tell.
fn check_derived_unsolvable(name: &str) {
    let solver = Solver::default();
    for (line, puzzle) in puzzles(name).iter().step_by(10) {
        let Verdict::Unique(solution) = solver.analyze(puzzle).unwrap() else {
            panic!("{name}:{line} is not unique");
        };
        let wrong = (0..81).find_map(|cell| {
            let mut cells = *puzzle.cells();
            if cells[cell] != 0 {
                return None;
            }
            (1..=9u8)
                .filter(|&d| d != solution.cells()[cell])
                .find_map(|d| {
                    cells[cell] = d;
                    let candidate = Grid::from_cells(cells).unwrap();
                    is_valid(&candidate).then_some(candidate)
                })
        });
        let wrong = wrong.unwrap_or_else(|| panic!("{name}:{line}: no cell takes a wrong clue"));
        assert_eq!(
            solver.analyze(&wrong),
            Ok(Verdict::None),
            "{name}:{line}: {wrong}"
        );
    }
}

#[test]
fn all_17_clue_puzzles_are_solved_uniquely() {
    check_set("puzzles2_17_clue", true);
}

#[test]
fn magictour_top1465_is_solved_uniquely() {
    check_set("puzzles3_magictour_top1465", true);
}

#[test]
fn forum_hardest_is_solved_uniquely() {
    check_set("puzzles5_forum_hardest_1905_11+", true);
}

#[test]
fn serg_benchmark_puzzles_all_have_several_solutions() {
    check_set("puzzles7_serg_benchmark", false);
}

#[test]
fn msolve_hardest_to_solve_is_solved_uniquely() {
    check_set("msolve_hardest_to_solve", true);
}

#[test]
fn sudoku_exchange_diabolical_is_solved_uniquely() {
    check_set("sudoku_exchange_diabolical", true);
}

#[test]
fn one_wrong_extra_clue_makes_a_puzzle_unsolvable() {
    for name in [
        "puzzles2_17_clue",
        "puzzles3_magictour_top1465",
        "puzzles5_forum_hardest_1905_11+",
        "msolve_hardest_to_solve",
    ] {
        check_derived_unsolvable(name);
    }
}
