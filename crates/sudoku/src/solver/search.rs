//! The search: propagate, branch, recurse, with every branch tried costing a guess from
//! the budget, and the fresh start with cells only when configurations lose their way.

use super::board::{Board, Rules};
use super::isa::{Isa, Kernel};
use crate::grid::Grid;

/// The search ran out of guesses before it could answer; this proves nothing about the
/// puzzle, and is distinct from "no solution".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the search gave up after {guesses} guesses without an answer")]
pub struct BudgetExhausted {
    /// Guesses made before giving up.
    pub guesses: u64,
}

/// The outcome of counting solutions up to a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// Solutions found, never more than the limit asked for.
    pub solutions: usize,
    /// The first solution found, if any.
    pub first: Option<Grid>,
    /// Guesses the search made (candidates tried at branching cells, configurations tried
    /// at branching digits): a measure of how hard the puzzle was for this solver, zero when
    /// the rules alone solved it.
    pub guesses: u64,
}

impl Count {
    /// No solution found, no guess made.
    pub(super) const NOTHING: Count = Count {
        solutions: 0,
        first: None,
        guesses: 0,
    };
}

/// Counts the solutions of `board` up to `limit`. A search that may branch on configurations
/// has `configuration_guesses` for it; one that runs out of them starts again with cells only
/// (see the [solver's module comment](super)), the guesses spent so far counted against
/// `guess_budget`. The search runs on the compiled copy `isa`.
pub(super) fn count_solutions(
    isa: Isa,
    board: Board,
    limit: usize,
    rules: Rules,
    configurations: bool,
    guess_budget: u64,
    configuration_guesses: u64,
) -> Result<Count, BudgetExhausted> {
    let mut search = Search {
        rules,
        configurations,
        limit,
        guesses_left: if configurations {
            configuration_guesses
        } else {
            guess_budget
        },
        found: Count::NOTHING,
    };
    match isa.run(&mut search, board) {
        Ok(()) => Ok(search.found),
        Err(_) if configurations => {
            // Lost among configurations: start again with cells only, the guesses spent so
            // far counted against the budget.
            let spent = search.found.guesses;
            let mut again = Search {
                configurations: false,
                guesses_left: guess_budget - spent,
                found: Count::NOTHING,
                ..search
            };
            let result = isa.run(&mut again, board);
            again.found.guesses += spent;
            result.map(|()| again.found).map_err(|_| BudgetExhausted {
                guesses: again.found.guesses,
            })
        }
        Err(exhausted) => Err(exhausted),
    }
}

pub(super) struct Search {
    rules: Rules,
    /// Whether the search may branch on configurations (see the [solver's module
    /// comment](super)).
    configurations: bool,
    limit: usize,
    guesses_left: u64,
    found: Count,
}

impl Search {
    /// Searches from `board`, with `recurse` for the branches tried on a copy: the search
    /// itself, as compiled for one instruction set (see [`super::isa`]), into which this is
    /// inlined with everything below it.
    ///
    /// The board is searched in place: a branch's copy is made once, by the caller, and
    /// handed down by reference. Handed down by value it was copied twice, two `memcpy`
    /// calls of the whole board per branch (BENCHMARKS.md).
    #[inline(always)]
    pub(super) fn step<K: Kernel>(
        &mut self,
        board: &mut Board,
        recurse: impl Fn(&mut Search, &mut Board) -> Result<(), BudgetExhausted>,
    ) -> Result<(), BudgetExhausted> {
        loop {
            let Ok(counts) = board.propagate::<K>(self.rules) else {
                return Ok(());
            };
            if board.unsolved == [0; 3] {
                self.found.solutions += 1;
                self.found.first.get_or_insert_with(|| board.to_grid());
                return Ok(());
            }
            let cell = board.branching_cell(self.rules, &counts);
            if self.configurations && cell.or_a_configuration {
                if let Some((digit, [first, second])) = board.branching_configuration::<K>() {
                    self.spend_guess()?;
                    let mut next = *board;
                    next.confine(digit, first);
                    recurse(self, &mut next)?;
                    if self.found.solutions >= self.limit {
                        return Ok(());
                    }
                    self.spend_guess()?;
                    board.confine(digit, second);
                    continue;
                }
            }
            let (band, pos, mut digits) = (cell.band, cell.pos, cell.digits);
            // Every candidate but the last on a copy; the last one continues in place.
            while digits & (digits - 1) != 0 {
                let digit = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                self.spend_guess()?;
                let mut next = *board;
                next.place(digit, band, pos);
                recurse(self, &mut next)?;
                if self.found.solutions >= self.limit {
                    return Ok(());
                }
            }
            self.spend_guess()?;
            board.place(digits.trailing_zeros() as usize, band, pos);
        }
    }

    #[inline(always)]
    fn spend_guess(&mut self) -> Result<(), BudgetExhausted> {
        if self.guesses_left == 0 {
            return Err(BudgetExhausted {
                guesses: self.found.guesses,
            });
        }
        self.guesses_left -= 1;
        self.found.guesses += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::CONFIGURATION_GUESSES;
    use super::*;
    use crate::validate::is_valid;
    use crate::{SolveError, Solver, Verdict};

    fn grid(line: &str) -> Grid {
        Grid::from_line(line).unwrap()
    }

    #[test]
    fn a_valid_looking_puzzle_without_solution_is_found_out_by_search() {
        // Row 0 needs 9 in its last cell, but column 8 already has a 9 lower down.
        let line =
            "12345678.........................................................................";
        let mut cells = *grid(line).cells();
        cells[80] = 9;
        let puzzle = Grid::from_cells(cells).unwrap();
        assert!(is_valid(&puzzle));
        assert_eq!(Solver::default().analyze(&puzzle), Ok(Verdict::None));
    }

    #[test]
    fn a_tiny_budget_is_reported_as_exhausted_not_as_no_solution() {
        let result = Solver::with_budget(1).count_solutions(&Grid::EMPTY, 2);
        assert_eq!(result, Err(BudgetExhausted { guesses: 1 }));
        assert!(matches!(
            Solver::with_budget(0).solve(&Grid::EMPTY),
            Err(SolveError::BudgetExhausted(_))
        ));
    }

    #[test]
    fn a_search_lost_with_configurations_starts_again_with_cells() {
        // msolve_hardest's first puzzle needs more than 50 guesses with configurations.
        let puzzle = grid(
            "98.7..6..7..5..9....4.8....6..3..7...27.............615....3..6...6...9.....573..",
        );
        let normal = Solver::default().count_solutions(&puzzle, 2).unwrap();
        assert!(normal.guesses > 50, "{} guesses", normal.guesses);
        let cells_only = Solver::with_budget(CONFIGURATION_GUESSES)
            .count_solutions(&puzzle, 2)
            .unwrap();
        let restarted = Solver::default()
            .with_configuration_guesses(50)
            .count_solutions(&puzzle, 2)
            .unwrap();
        assert_eq!(restarted.solutions, normal.solutions);
        assert_eq!(restarted.first, normal.first);
        // The 50 spent count, and the rest is the search with cells only.
        assert_eq!(restarted.guesses, 50 + cells_only.guesses);
        // A budget that runs out in the second search reports every guess made.
        let exhausted = Solver::with_budget(60)
            .with_configuration_guesses(50)
            .count_solutions(&puzzle, 2);
        assert_eq!(exhausted, Err(BudgetExhausted { guesses: 60 }));
    }
}
