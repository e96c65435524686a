//! Differential tests: the band engine behind [`Solver`], with each of its two rule sets,
//! against the simple reference engine, on samples of every committed puzzle set and on
//! puzzles derived from them (a clue changed, clues removed), comparing solution counts at
//! several limits, and each compiled copy of the search this CPU can run (see [`super::isa`])
//! against the one picked for it.

use super::isa::Isa;
use super::reference;
use super::{Count, DEFAULT_GUESS_BUDGET, Rules, Solver};
use crate::grid::Grid;
use crate::puzzle_sets;
use crate::validate::{is_solved, is_valid};

/// Asserts both engines agree on `grid` at `limit`, the band engine with the rules it
/// picks and with each rule set forced; returns its count with the rules it picks.
fn agree(grid: &Grid, limit: usize, what: &str) -> Count {
    let slow = reference::count_solutions(grid, limit, DEFAULT_GUESS_BUDGET)
        .unwrap_or_else(|err| panic!("{what} {grid}: reference {err}"));
    let solver = Solver::with_budget(DEFAULT_GUESS_BUDGET);
    let mut picked = None;
    for rules in [None, Some(Rules::Full), Some(Rules::Light)] {
        let what = format!("{what} ({rules:?} rules)");
        let fast = solver
            .count_solutions_with(grid, limit, rules)
            .unwrap_or_else(|err| panic!("{what} {grid}: {err}"));
        assert_eq!(
            fast.solutions, slow.solutions,
            "{what} {grid}: solutions up to {limit}"
        );
        assert_eq!(fast.first.is_some(), fast.solutions > 0, "{what} {grid}");
        for &isa in Isa::ALL {
            if isa.is_supported() {
                let other = solver.count_solutions_on(isa, grid, limit, rules);
                assert_eq!(other, Ok(fast), "{what} {grid}: the {isa:?} copy");
            } else {
                eprintln!("{isa:?} not checked: this CPU lacks its features");
            }
        }
        if let Some(first) = fast.first {
            assert!(
                is_solved(&first),
                "{what} {grid}: {first} is not a solution"
            );
            assert!(
                grid.is_kept_by(&first),
                "{what} {grid}: {first} drops a clue"
            );
            if limit > 1 && slow.solutions == 1 {
                assert_eq!(fast.first, slow.first, "{what} {grid}: the one solution");
            }
        }
        picked.get_or_insert(fast);
    }
    picked.expect("the first round")
}

/// The set's sample, each puzzle compared at limit 2, then two derived puzzles each: one
/// with the first clue changed to the smallest digit that clashes with no other clue (most
/// have no solution left, found by search), one with its first four clues removed (often
/// several solutions), compared at limits 1, 2 and 5.
fn check_set(name: &str, step: usize) {
    let sample = puzzle_sets::every(name, step);
    assert!(!sample.is_empty(), "{name}: nothing to compare");
    let mut changed_clues = 0;
    for puzzle in sample {
        agree(&puzzle, 2, name);
        let cells = *puzzle.cells();
        let first_clue = cells.iter().position(|&v| v != 0).expect("a clue");
        let changed = (1..=9).find_map(|digit| {
            let mut changed = cells;
            changed[first_clue] = digit;
            let grid = Grid::from_cells(changed).ok()?;
            (digit != cells[first_clue] && is_valid(&grid)).then_some(grid)
        });
        if let Some(changed) = changed {
            agree(&changed, 2, "changed clue");
            changed_clues += 1;
        }
        let mut fewer = cells;
        for cell in cells.iter().enumerate().filter(|(_, v)| **v != 0).take(4) {
            fewer[cell.0] = 0;
        }
        let fewer = Grid::from_cells(fewer).expect("digits");
        for limit in [1, 2, 5] {
            agree(&fewer, limit, "clues removed");
        }
    }
    assert!(changed_clues > 0, "{name}: no first clue could be changed");
}

#[test]
fn the_17_clue_sample_agrees_with_the_reference() {
    check_set("puzzles2_17_clue", 10);
}

#[test]
fn the_magictour_sample_agrees_with_the_reference() {
    check_set("puzzles3_magictour_top1465", 2);
}

#[test]
fn the_forum_hardest_sample_agrees_with_the_reference() {
    check_set("puzzles5_forum_hardest_1905_11+", 25);
}

#[test]
fn the_improper_serg_sample_agrees_with_the_reference() {
    check_set("puzzles7_serg_benchmark", 10);
}

#[test]
fn the_msolve_hardest_sample_agrees_with_the_reference() {
    check_set("msolve_hardest_to_solve", 5);
}

#[test]
fn the_diabolical_sample_agrees_with_the_reference() {
    check_set("sudoku_exchange_diabolical", 20);
}

#[test]
fn the_empty_grid_agrees_with_the_reference_at_every_limit() {
    for limit in [0, 1, 2, 5] {
        let count = agree(&Grid::EMPTY, limit, "empty grid");
        assert_eq!(count.solutions, limit);
    }
}

#[test]
fn a_solved_grid_with_one_cell_emptied_has_one_solution() {
    let solved = Solver::default().solve(&Grid::EMPTY).expect("a solution");
    for cell in [0, 40, 80] {
        let mut cells = *solved.cells();
        cells[cell] = 0;
        let grid = Grid::from_cells(cells).expect("digits");
        assert_eq!(agree(&grid, 5, "one empty cell").first, Some(solved));
    }
}
