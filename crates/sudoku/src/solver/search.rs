//! The search: propagate, branch, recurse, with every branch tried costing a guess from
//! the budget, and the fresh start with cells only when configurations lose their way.
//!
//! # Leaving a squeezed subtree
//! Now and then, when a node branches, the search runs a check that can refute a board the
//! band rules leave open (see [`super::matching`]). When it does, the node returns
//! [`Halt::Squeezed`], and each node above checks its own board as the halt reaches it: one
//! that is refuted too returns it in turn (no board below it has a solution either), the
//! first that is not carries on with its next branch. So the subtree below the node where the
//! squeeze first appeared is left at once, however large, a backjump driven by a fact that
//! holds all the way down. The first check, at [`TRIAD_CHECK_AT`] guesses, is the cheap one
//! on triads ([`Check::Triads`]); the all-different check follows at [`FIRST_UNIT_CHECK_AT`];
//! after one that finds nothing, the next comes at [`UNIT_CHECK_GROWTH`] times the guesses,
//! so that a search that meets no squeeze checks a few times in all; after one that finds a
//! squeeze, the next comes [`UNIT_CHECK_GAP`] guesses later. From [`ALL_DIFFERENT_FROM`]
//! guesses on, the check is the stronger [`Check::AllDifferent`], and from [`PROBING_FROM`]
//! the search also probes every cell at its own pace, a refuting cell being tried alone on
//! the nodes above. The count of guesses to the next check shares the budget's countdown, so
//! the search pays nothing at a node for it.

use super::board::{Board, GivenBoxes, Rules};
use super::isa::{Isa, Kernel};
use crate::grid::Grid;

/// The guesses a search makes before its first all-different check: more than most proper
/// puzzles need, so that they pay nothing for it, and few enough that a board with a unit
/// squeezed that the band rules cannot see is decided within a few hundred. At 64 (the
/// stronger check from 1,024) `forum_hardest` took 2.2% more instructions than without any
/// check; at 128 (from 512) `msolve_hardest` 1.5% more instructions but 4% more time, the
/// checks' loops running slower than the search's; at 256 (from 1,024) it runs as fast as
/// without (BENCHMARKS.md).
pub(super) const FIRST_UNIT_CHECK_AT: u64 = 256;

/// The guesses a search makes before its triad check (`Board::has_overfilled_triad`), the
/// cheapest of the checks, which sees the commonest squeeze (digits forced into the three
/// cells a column or row shares with a box) long before the all-different check. Most
/// puzzles of the easier sets need fewer; at 8, Serg's took 7% more instructions, at 16 no
/// set takes more than 1.1% more (BENCHMARKS.md), and the family is decided in 16.
pub(super) const TRIAD_CHECK_AT: u64 = 16;

/// The guesses between an all-different check that found a squeeze and the next one, and
/// the fewest after one that found none.
const UNIT_CHECK_GAP: u64 = 16;

/// After an all-different check that found no squeeze, the next comes at this many times
/// its guesses: a search that meets none checks a few times in all.
const UNIT_CHECK_GROWTH: u64 = 4;

/// From this many guesses on, the checks enforce the all-different rule on every unit
/// ([`Board::is_refuted_by_all_different`]) rather than only test it: several times dearer,
/// and seen only by boards that are hard to decide, it also sees squeezes that subsets in
/// other units bring about (a board the matching check alone left to 198,287 guesses takes
/// 1,088 with this from 1,024).
const ALL_DIFFERENT_FROM: u64 = 1_024;

/// The first probing of every unsolved cell ([`Board::refuting_cell`]), after this many
/// guesses: dearer still (hundreds of propagations), and reached by no puzzle of the
/// committed sets but 2 of `msolve_hardest`'s 1,000. After one that finds nothing the next
/// comes at twice the guesses; after one that refutes the board, an eighth later. Kept
/// apart from the other checks, which keep their own pace.
const PROBING_FROM: u64 = 1_024;

/// How hard a check looks.
#[derive(Clone, Copy)]
pub(super) enum Check {
    /// Whether every triad can hold the digits forced into it; at the first branch.
    Triads,
    /// Whether every unit has a perfect matching.
    Units,
    /// The all-different rule on every unit, with the band rules, to a fixed point.
    AllDifferent,
    /// Whether every candidate of this cell (band, position) is refuted by the band rules;
    /// found by probing every cell, and tried alone on the nodes above.
    Probe(u8, u8),
}

impl Check {
    /// Whether the check proves that `board` has no solution. Out of line: kept out of the
    /// search's own code, where the halt's test alone was enough to cost instructions on
    /// every set.
    #[cold]
    #[inline(never)]
    fn refutes(self, board: &Board) -> bool {
        match self {
            Check::Triads => board.has_overfilled_triad(),
            Check::Units => board.has_unmatchable_unit(),
            Check::AllDifferent => board.is_refuted_by_all_different(),
            Check::Probe(band, pos) => board.is_refuted_at(usize::from(band), usize::from(pos)),
        }
    }
}

/// Why a search stopped before its end.
pub(super) enum Halt {
    /// The guess budget ran out.
    Exhausted,
    /// The check refuted a node's board: the nodes above leave until one it does not
    /// refute.
    Squeezed(Check),
}

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

/// Counts the solutions of `board` up to `limit`; none, without a search, when the board is
/// that of the givens and `squeeze_check` holds their digits in each box, which overfill a
/// triad ([`Board::givens_overfill_a_triad`]). A search that may branch on configurations
/// has `configuration_guesses` for it; one that runs out of them starts again with cells only
/// (see the [solver's module comment](super)), the guesses spent so far counted against
/// `guess_budget`. The search runs on the compiled copy `isa`.
#[allow(clippy::too_many_arguments)]
pub(super) fn count_solutions(
    isa: Isa,
    board: Board,
    squeeze_check: Option<&GivenBoxes>,
    limit: usize,
    rules: Rules,
    configurations: bool,
    guess_budget: u64,
    configuration_guesses: u64,
) -> Result<Count, BudgetExhausted> {
    // Here rather than in the caller, where the check made the board be copied on its way
    // here, 64 instructions a puzzle more.
    if squeeze_check.is_some_and(|boxes| board.givens_overfill_a_triad(boxes)) {
        return Ok(Count::NOTHING);
    }
    let mut search = Search::new(
        rules,
        configurations,
        limit,
        if configurations {
            configuration_guesses
        } else {
            guess_budget
        },
    );
    match isa.run(&mut search, board) {
        // Squeezed at the root: no solution.
        Ok(()) | Err(Halt::Squeezed(_)) => Ok(search.found),
        Err(Halt::Exhausted) if configurations => {
            // Lost among configurations: start again with cells only, the guesses spent so
            // far counted against the budget.
            let spent = search.found.guesses;
            let mut again = Search::new(rules, false, limit, guess_budget - spent);
            let result = isa.run(&mut again, board);
            again.found.guesses += spent;
            match result {
                Ok(()) | Err(Halt::Squeezed(_)) => Ok(again.found),
                Err(Halt::Exhausted) => Err(BudgetExhausted {
                    guesses: again.found.guesses,
                }),
            }
        }
        Err(Halt::Exhausted) => Err(BudgetExhausted {
            guesses: search.found.guesses,
        }),
    }
}

pub(super) struct Search {
    rules: Rules,
    /// Whether the search may branch on configurations (see the [solver's module
    /// comment](super)).
    configurations: bool,
    limit: usize,
    /// Guesses left before the next event: the end of the budget or the next all-different
    /// check, whichever comes first.
    guesses_to_event: u64,
    /// The guesses allowed in all.
    guess_budget: u64,
    /// The guess count at which the next all-different check is due.
    check_at: u64,
    /// The guess count at which the next probing of every cell is due.
    probe_at: u64,
    found: Count,
}

impl Search {
    fn new(rules: Rules, configurations: bool, limit: usize, guess_budget: u64) -> Search {
        Search {
            rules,
            configurations,
            limit,
            guesses_to_event: guess_budget.min(TRIAD_CHECK_AT),
            guess_budget,
            check_at: TRIAD_CHECK_AT,
            probe_at: PROBING_FROM,
            found: Count::NOTHING,
        }
    }

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
        recurse: impl Fn(&mut Search, &mut Board) -> Result<(), Halt>,
    ) -> Result<(), Halt> {
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
                    self.spend_guess(board)?;
                    let mut next = *board;
                    next.confine(digit, first);
                    let branch = recurse(self, &mut next);
                    Self::unless_squeezed_here(branch, board)?;
                    if self.found.solutions >= self.limit {
                        return Ok(());
                    }
                    self.spend_guess(board)?;
                    board.confine(digit, second);
                    continue;
                }
            }
            let (band, pos, mut digits) = (cell.band, cell.pos, cell.digits);
            // Every candidate but the last on a copy; the last one continues in place.
            while digits & (digits - 1) != 0 {
                let digit = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                self.spend_guess(board)?;
                let mut next = *board;
                next.place(digit, band, pos);
                let branch = recurse(self, &mut next);
                Self::unless_squeezed_here(branch, board)?;
                if self.found.solutions >= self.limit {
                    return Ok(());
                }
            }
            self.spend_guess(board)?;
            board.place(digits.trailing_zeros() as usize, band, pos);
        }
    }

    /// A branch's outcome as seen from the node above, whose propagated board is `board`:
    /// a squeeze below that this board does not have ends there.
    #[inline(always)]
    fn unless_squeezed_here(branch: Result<(), Halt>, board: &Board) -> Result<(), Halt> {
        match branch {
            Err(Halt::Squeezed(check)) if !check.refutes(board) => Ok(()),
            other => other,
        }
    }

    /// Spends a guess to branch at the node whose propagated board is `board`.
    #[inline(always)]
    fn spend_guess(&mut self, board: &Board) -> Result<(), Halt> {
        if self.guesses_to_event == 0 {
            self.next_event(board)?;
        }
        self.guesses_to_event -= 1;
        self.found.guesses += 1;
        Ok(())
    }

    /// The budget's end or the all-different check, reached at a node about to branch; on
    /// carrying on, the guesses to the next event.
    #[cold]
    #[inline(never)]
    fn next_event(&mut self, board: &Board) -> Result<(), Halt> {
        let guesses = self.found.guesses;
        if guesses >= self.guess_budget {
            return Err(Halt::Exhausted);
        }
        if guesses >= self.check_at {
            let check = if guesses < FIRST_UNIT_CHECK_AT {
                Check::Triads
            } else if guesses >= ALL_DIFFERENT_FROM {
                Check::AllDifferent
            } else {
                Check::Units
            };
            if check.refutes(board) {
                // Squeezes happen on this board: look again soon.
                self.check_at = guesses + UNIT_CHECK_GAP;
                return Err(Halt::Squeezed(check));
            }
            self.check_at = if guesses < FIRST_UNIT_CHECK_AT {
                FIRST_UNIT_CHECK_AT
            } else {
                (UNIT_CHECK_GROWTH * guesses).max(guesses + UNIT_CHECK_GAP)
            };
        }
        if guesses >= self.probe_at {
            if let Some((band, pos)) = board.refuting_cell() {
                // Soon again, but not so soon that probing takes most of a long search.
                self.probe_at = guesses + UNIT_CHECK_GAP;
                return Err(Halt::Squeezed(Check::Probe(band as u8, pos as u8)));
            }
            self.probe_at = 2 * guesses;
        }
        self.guesses_to_event =
            (self.check_at.min(self.probe_at) - guesses).min(self.guess_budget - guesses);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CONFIGURATION_GUESSES, DEFAULT_GUESS_BUDGET};
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
    fn a_squeezed_unit_is_left_at_the_first_check() {
        // Column 4 needs 1, 5 and 6 in its two cells of rows 7 and 8: the band rules never
        // see it, and before the all-different check the search spent its whole budget.
        let squeezed = grid(
            ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........",
        );
        // The givens show it (boxes 1 and 4 hold all three digits): no guess at all.
        let count = Solver::default().count_solutions(&squeezed, 2).unwrap();
        assert_eq!((count.solutions, count.guesses), (0, 0));
        // Without that check, the search's own triad check sees it, and the nodes above it
        // are squeezed too, back to the root.
        let (board, boxes) = Board::from_givens(&squeezed).unwrap();
        assert!(board.givens_overfill_a_triad(&boxes));
        let search = |budget| {
            count_solutions(
                Isa::detected(),
                board,
                None,
                2,
                Rules::Full,
                budget > CONFIGURATION_GUESSES,
                budget,
                CONFIGURATION_GUESSES,
            )
        };
        let count = search(DEFAULT_GUESS_BUDGET).unwrap();
        assert_eq!((count.solutions, count.guesses), (0, TRIAD_CHECK_AT));
        // The budget still ends a search that runs out before the check.
        assert_eq!(search(10), Err(BudgetExhausted { guesses: 10 }));
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
