//! The public solver on samples of the shared puzzle sets, against what the sets' README
//! records (checked there with an independent solver): every puzzle of five sets has exactly
//! one solution, every puzzle of Serg's benchmark has several.

use sudoku_service::sudoku::{
    BudgetExhausted, Grid, SolveError, Solver, Verdict, is_solved, puzzle_lines,
};

const SETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles/");

fn sample(name: &str, step: usize) -> Vec<Grid> {
    let path = format!("{SETS}{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{path}: {err}"));
    puzzle_lines(&text)
        .step_by(step)
        .map(|(number, grid)| grid.unwrap_or_else(|err| panic!("{path}:{number}: {err}")))
        .collect()
}

#[test]
fn every_sampled_puzzle_of_the_proper_sets_has_one_solution_that_keeps_its_clues() {
    for (name, step) in [
        ("puzzles2_17_clue", 50),
        ("puzzles3_magictour_top1465", 5),
        ("puzzles5_forum_hardest_1905_11+", 50),
        ("msolve_hardest_to_solve", 5),
        ("sudoku_exchange_diabolical", 50),
    ] {
        for puzzle in sample(name, step) {
            match Solver::default().analyze(&puzzle) {
                Ok(Verdict::Unique(solution)) => {
                    assert!(is_solved(&solution), "{name} {puzzle}: {solution}");
                    assert!(puzzle.is_kept_by(&solution), "{name} {puzzle}: {solution}");
                }
                other => panic!("{name} {puzzle}: {other:?}"),
            }
        }
    }
}

#[test]
fn every_sampled_puzzle_of_serg_benchmark_has_several_solutions() {
    for puzzle in sample("puzzles7_serg_benchmark", 10) {
        match Solver::default().analyze(&puzzle) {
            Ok(Verdict::Multiple(solution)) => {
                assert!(
                    is_solved(&solution) && puzzle.is_kept_by(&solution),
                    "{puzzle}"
                );
            }
            other => panic!("{puzzle}: {other:?}"),
        }
    }
}

#[test]
fn a_hard_puzzle_runs_out_of_a_small_budget_instead_of_reporting_no_solution() {
    let hardest = sample("msolve_hardest_to_solve", 1);
    let exhausted = hardest
        .iter()
        .filter(|puzzle| Solver::with_budget(2).analyze(puzzle).is_err())
        .count();
    assert!(exhausted > 0, "no puzzle needed more than two guesses");
    for puzzle in &hardest[..20] {
        match Solver::with_budget(2).solve(puzzle) {
            Ok(solution) => assert!(is_solved(&solution)),
            Err(SolveError::BudgetExhausted(BudgetExhausted { guesses })) => {
                assert_eq!(guesses, 2)
            }
            Err(SolveError::NoSolution) => panic!("{puzzle}: reported as having no solution"),
        }
    }
}

#[test]
fn a_solved_grid_with_one_cell_emptied_is_unique_and_with_it_changed_has_none() {
    let puzzle = sample("puzzles2_17_clue", 1)[0];
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
