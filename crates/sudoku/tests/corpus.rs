//! A binary of its own: CI runs it alone in release over every puzzle, a build the other
//! suites do not need.
//!
//! The committed puzzle sets (`data/puzzles/`) against what their README records (checked
//! there with an independent solver): every answer is a complete valid grid keeping the
//! givens, every puzzle of the five proper sets has exactly one solution and every puzzle of
//! Serg's benchmark several, puzzles made unsolvable by one wrong extra clue are found to
//! have no solution, and a small budget runs out rather than reporting no solution.
//!
//! Release builds check every puzzle; debug builds a sample of each set, at the stride
//! [`SETS`] gives. `SUDOKU_CORPUS_STRIDE=N` checks every N-th puzzle of every set instead.

use sudoku::puzzle_sets;
use sudoku::{BudgetExhausted, Grid, SolveError, Solver, Verdict, is_solved, is_valid};

/// Every committed set, with the stride of its sample in debug builds: denser for the two
/// small sets, which every 50th puzzle would leave at 20-30, and for Serg's, the only one
/// whose puzzles have several solutions.
const SETS: [(&str, usize); 6] = [
    ("puzzles2_17_clue", 50),
    ("puzzles3_magictour_top1465", 5),
    ("puzzles5_forum_hardest_1905_11+", 50),
    ("msolve_hardest_to_solve", 5),
    ("sudoku_exchange_diabolical", 50),
    ("puzzles7_serg_benchmark", 10),
];

fn stride(name: &str) -> usize {
    let debug_stride = SETS
        .iter()
        .find(|(set, _)| *set == name)
        .unwrap_or_else(|| panic!("{name} is not in SETS"))
        .1;
    std::env::var("SUDOKU_CORPUS_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(if cfg!(debug_assertions) {
            debug_stride
        } else {
            1
        })
}

/// The puzzles of one set (every `stride(name)`-th), with their line numbers.
fn puzzles(name: &str) -> Vec<(usize, Grid)> {
    let all = puzzle_sets::read(puzzle_sets::path(name)).unwrap_or_else(|err| panic!("{err}"));
    assert!(
        all.len() >= 1000,
        "{name} looks truncated: {} puzzles",
        all.len()
    );
    all.into_iter().step_by(stride(name)).collect()
}

/// Solves every puzzle of the set's sample and checks each answer: a valid grid that keeps
/// the givens, unique or not as expected.
fn check_set(name: &str, expect_unique: bool) {
    let solver = Solver::default();
    for (line, puzzle) in &puzzles(name) {
        let verdict = solver
            .analyze(puzzle)
            .unwrap_or_else(|err| panic!("{name}:{line}: {err}"));
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
    let sample: Vec<_> = puzzles(name).into_iter().step_by(10).collect();
    assert!(!sample.is_empty(), "{name}: nothing to derive from");
    for (line, puzzle) in &sample {
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
fn every_committed_set_is_checked() {
    let checked: Vec<&str> = SETS.iter().map(|(name, _)| *name).collect();
    assert_eq!(checked, puzzle_sets::ALL);
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
    check_set(puzzle_sets::IMPROPER, false);
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

#[test]
fn a_hard_puzzle_runs_out_of_a_small_budget_instead_of_reporting_no_solution() {
    let hardest = puzzle_sets::load("msolve_hardest_to_solve");
    let exhausted = hardest
        .iter()
        .filter(|puzzle| Solver::with_budget(2).analyze(puzzle).is_err())
        .count();
    assert!(exhausted > 0, "no puzzle needed more than two guesses");
    for puzzle in &hardest[..20] {
        match Solver::with_budget(2).solve(puzzle) {
            Ok(solution) => assert!(is_solved(&solution)),
            Err(SolveError::BudgetExhausted(BudgetExhausted { guesses })) => {
                assert_eq!(guesses, 2);
            }
            Err(SolveError::NoSolution) => panic!("{puzzle}: reported as having no solution"),
        }
    }
}

#[test]
fn a_solved_grid_with_one_cell_emptied_is_unique_and_with_it_changed_has_none() {
    let puzzle = puzzle_sets::load("puzzles2_17_clue")[0];
    let solution = Solver::default().solve(&puzzle).expect("a solution");
    // The solution less one cell has one way back; any other digit there clashes.
    let mut cells = *solution.cells();
    cells[0] = 0;
    let blank = Grid::from_cells(cells).expect("digits");
    assert_eq!(
        Solver::default().analyze(&blank),
        Ok(Verdict::Unique(solution))
    );
    let mut clashing = cells;
    clashing[0] = if solution.cells()[0] == 1 { 2 } else { 1 };
    let clashing = Grid::from_cells(clashing).expect("digits");
    assert_eq!(Solver::default().analyze(&clashing), Ok(Verdict::None));
}
