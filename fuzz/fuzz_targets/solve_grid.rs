//! Solve and validate arbitrary grids (81 bytes, each mod 10): no panic, and every answer
//! is consistent with every other.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku::{Grid, Report, Solver, Verdict, find_conflicts, is_solved};

/// Small enough that one run stays fast; `BudgetExhausted` is an allowed answer.
const BUDGET: u64 = 20_000;

fuzz_target!(|data: &[u8]| {
    if data.len() < 81 {
        return;
    }
    let mut cells = [0u8; 81];
    for (cell, byte) in cells.iter_mut().zip(data) {
        *cell = byte % 10;
    }
    let grid = Grid::from_cells(cells).expect("values 0-9 make a grid");
    let solver = Solver::with_budget(BUDGET);
    let conflicts = find_conflicts(&grid);

    let check = |solution: &Grid| {
        assert!(is_solved(solution), "not solved: {grid} -> {solution}");
        assert!(
            grid.is_kept_by(solution),
            "givens changed: {grid} -> {solution}"
        );
    };

    let verdict = solver.analyze(&grid);
    if let Ok(verdict) = verdict {
        if let Some(solution) = verdict.solution() {
            check(&solution);
        }
        if !conflicts.is_empty() {
            assert_eq!(verdict, Verdict::None, "conflicts but a solution: {grid}");
        }
        if grid.is_complete() && conflicts.is_empty() {
            assert_eq!(verdict, Verdict::Unique(grid));
        }
        // Counting further agrees with the verdict.
        if let Ok(count) = solver.count_solutions(&grid, 3) {
            match verdict {
                Verdict::None => assert_eq!(count.solutions, 0, "{grid}"),
                Verdict::Unique(s) => {
                    assert_eq!(count.solutions, 1, "{grid}");
                    assert_eq!(count.first, Some(s));
                }
                Verdict::Multiple(_) => assert!(count.solutions >= 2, "{grid}"),
            }
            if let Some(first) = count.first {
                check(&first);
            }
        }
        match solver.solve(&grid) {
            Ok(solution) => {
                check(&solution);
                assert_ne!(verdict, Verdict::None);
            }
            Err(sudoku::SolveError::NoSolution) => {
                assert_eq!(verdict, Verdict::None);
            }
            Err(sudoku::SolveError::BudgetExhausted(_)) => {}
        }
    }

    // What `/validate` answers.
    if let Ok(report) = Report::of(&grid, &solver) {
        assert_eq!(report.valid, conflicts.is_empty());
        assert_eq!(report.conflicts, conflicts);
        assert_eq!(report.complete, grid.is_complete());
        assert_eq!(report.solved, report.complete && report.valid);
        assert!(!report.unique || report.solvable);
        assert_eq!(report.solvable, report.solution.is_some());
        if report.solved {
            assert!(is_solved(&grid));
            assert!(report.unique);
        }
        if let Some(solution) = report.solution {
            check(&solution);
        }
        if let Ok(verdict) = verdict {
            assert_eq!(report.solvable, verdict != Verdict::None);
            assert_eq!(report.unique, matches!(verdict, Verdict::Unique(_)));
        }
    } else if conflicts.is_empty() {
        assert!(
            verdict.is_err(),
            "Report gave up where analyze did not: {grid}"
        );
    }
});
