//! The search: solving, counting solutions, proving uniqueness, within a budget.
//!
//! # Representation
//! The board is read as three *bands* of three rows. For each digit `d` (0-based, 0..9) and
//! band `b` (0..3), the `u32` at `cands[3 * d + b]` holds where `d` may still go in that band:
//! bit `9 * r + c` is row `3 * b + r`, column `c`, so a band is 27 bits and the band's cells
//! are, in order, row-major cells `27 * b ..27 * b + 27` of the grid. A placed digit keeps its
//! own bit; `unsolved[b]` holds the band's cells not yet placed. The idea of per-digit
//! bitboards cut into 27-bit bands comes from JCZSolve (Zhou and Champagne) and its
//! descendants, tdoku's write-up (Dillon) among them; the code here is our own.
//!
//! # Updating the masks
//! - **Band shrink** (locked candidates, pointing and claiming at once): within one band a
//!   digit occupies exactly one row of each box and one box of each row, so the 3x3 pattern
//!   "row `r` still has candidates in box `k`" must contain a permutation matrix. A table
//!   gives, for each of the 512 patterns, the union of the permutation matrices inside it;
//!   the band is masked with it, and an empty union is a contradiction.
//! - **Row singles**: a row of the band left with one candidate places the digit there. Its
//!   column is cleared from the band's other rows and from the digit's other two bands, and
//!   a newly placed cell is cleared from the other eight digits. Box singles fall out of the
//!   shrink (a box with one cell pins its row to that box).
//! - Each band remembers the value it was last shrunk at (`seen`); passes over the 27 bands
//!   repeat until none changed.
//! - **Naked singles**: per band, one/two/three counters are summed bit-parallel over the 9
//!   digits. An unsolved cell with no candidate is a contradiction; one with a single
//!   candidate is placed, clearing its row, column and box for that digit.
//! - **Stack shrink**, last: the band shrink turned sideways (a digit takes one column of
//!   each box of a stack, one box of each column), skipping digits unchanged since their
//!   last stack shrink (`stack_seen`). It also finds hidden singles in columns: a column
//!   with one candidate left pins the digit's box to that column, and the band's row
//!   single places it.
//!
//! # Branching
//! When the rules stall, the search branches, most often on a cell with two candidates
//! (from the counters above): the one with the most unsolved peers, as placing it reaches
//! furthest. When even that cell sees few unsolved cells (fewer than
//! `CONFIGURATION_BRANCHING_BELOW`, in [`branching`]), or there is no bivalue cell and the
//! board is fairly full (`CONFIGURATION_BRANCHING_OPEN_BELOW`), it branches as tdoku does
//! instead (Dillon's write-up; the code is ours): a digit takes one row in each box of a
//! band, one of six *configurations* (one column in each box of a stack, likewise); in the
//! band or stack whose digits have the fewest configurations left in all, a digit with
//! exactly two (the one with the fewest candidates there) is confined to one, then the
//! other. The two together take fewer
//! guesses than cells alone on each of the five proper sets, most of all on the hardest;
//! configurations alone take more on the easier sets (BENCHMARKS.md). With neither a
//! bivalue cell nor a configuration to take, it branches on the first cell with the fewest
//! candidates.
//!
//! Configurations can lose their way on sparse boards, where a few early confinements
//! leave a large subtree with no solution that only an exhaustive search refutes: there
//! they took far more guesses than cells alone, on one board the whole budget. So
//! configurations are used only on boards of at least [`CONFIGURATIONS_FROM_GIVENS`]
//! givens, only while a board is fairly full (`CONFIGURATION_BRANCHING_OPEN_BELOW`), and a
//! search that has spent [`CONFIGURATION_GUESSES`] with them starts again without them.
//!
//! The first candidate (or configuration) is tried on a copy of the `Copy` board (about 360
//! bytes), the last one in place. Every one tried costs one *guess* from the budget, so a
//! search always ends: with the solutions it found, or with [`BudgetExhausted`].
//!
//! # Squeezed units
//! The rules above reason one digit, or one cell, at a time. A board can have a unit where
//! some digits have fewer cells left than there are digits (three digits whose only places
//! in a column are two of its cells), which no such rule sees until one of those cells is
//! placed: on a sparse board that can be far below, and every subtree in between is
//! refuted the long way. The all-different check ([`matching`]: a perfect matching between
//! each unit's cells and digits) sees it, but costs a few thousand instructions, too many
//! for every node; the search runs it now and then once a board has taken more guesses than
//! most puzzles need, and leaves the whole squeezed subtree when it fires ([`search`]).
//! Before it, at 16 guesses, a cheaper check counts the digits forced into each triad (the
//! three cells a column or row shares with a box: a digit whose places in the column lie in
//! one box): more than three, or three with a cell of the triad that can take none of them,
//! refutes the board; that is the squeeze of most such boards. On a board of fewer than
//! [`SQUEEZE_CHECK_BELOW_GIVENS`] givens the search even looks for it before propagating,
//! where the givens alone show it: digits given in two boxes of a stack (or band) are each
//! left one column (row) of the third box, and three of them in one column's triad with a
//! cell that takes none, or four, decide the board at once.
//! Past a thousand guesses the check enforces the all-different rule instead (every
//! naked and hidden subset, with the band rules between rounds), which also sees squeezes
//! that subsets in other units bring about, and the search also probes every
//! unsolved cell for one whose every candidate the band rules refute, which catches
//! contradictions that need two or more digits at once (the cell the branching never picked
//! refutes every subtree below).
//!
//! # Light rules for puzzles with many givens
//! From [`LIGHT_RULES_FROM_GIVENS`] givens on, the search skips the stack shrink and
//! branches on the first cell with two candidates, as JCZSolve does. With that many givens
//! there is little left for the stack shrink to find or for a well-chosen branching cell to
//! save, and both cost time at every node. Measured on whole files against the full rules,
//! they pay off on puzzles with that many givens (Serg's, and the fullest of diabolical's)
//! and not below; on every puzzle they make 17-clue and `forum_hardest` much slower
//! (BENCHMARKS.md).
//!
//! # Files
//! [`tables`] holds the constant tables and their lookups, [`lanes`] the loops done four
//! masks at a time (SIMD), [`board`] the band board and its propagation, [`branching`] the choice of a branching cell or configuration, [`matching`] the all-different check, [`search`]
//! the search with its budget and fresh start, [`isa`] its copies compiled for x86-64-v3
//! (one of them gathering band patterns with BMI2's `pext`) and the choice of copy made at
//! run time; this file the public API and the choices made from the givens.

mod board;
mod branching;
#[cfg(test)]
mod differential;
mod isa;
mod lanes;
mod matching;
#[cfg(test)]
mod reference;
mod search;
mod tables;

use super::grid::{CELLS, Grid};
use board::{Board, Rules};
use isa::Isa;
pub use search::{BudgetExhausted, Count};

/// Guesses allowed per search unless configured otherwise. The hardest known 9x9 puzzles
/// need a few thousand at most; the budget only stops pathological work.
pub const DEFAULT_GUESS_BUDGET: u64 = 1_000_000;

/// Puzzles with at least this many givens are searched with the light rules (see the module
/// comment).
const LIGHT_RULES_FROM_GIVENS: u32 = 30;

/// Boards with fewer givens have them checked for digits squeezed into a triad before any
/// propagation ([`Board::givens_overfill_a_triad`]), which decides a board without a solution
/// of that kind at once. From 30 givens on, three digits given in two boxes of one stack or
/// band are so common that the check's slow part would run on nearly every board (all of
/// Serg's, 3.5 boxes a board), 8% more instructions there for nothing (BENCHMARKS.md).
const SQUEEZE_CHECK_BELOW_GIVENS: u32 = 30;

/// Boards with fewer givens are searched without configurations: no proper puzzle has fewer
/// than 17, and on sparser boards configurations lose their way (the module comment).
const CONFIGURATIONS_FROM_GIVENS: u32 = 17;

/// A search with the full rules may branch on configurations for this many guesses; one that
/// needs more starts again with cells only. Well above what any puzzle of the committed sets
/// needs, and well below what a sparse board lost among configurations spends (the module
/// comment; BENCHMARKS.md).
const CONFIGURATION_GUESSES: u64 = 10_000;

/// Why [`Solver::solve`] found no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The puzzle has no solution (conflicting givens, or an exhaustive search).
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The search budget ran out first; see [`BudgetExhausted`].
    #[error(transparent)]
    BudgetExhausted(#[from] BudgetExhausted),
}

/// How many solutions a puzzle has, as far as anyone solving it cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No solution.
    None,
    /// Exactly one solution, given.
    Unique(Grid),
    /// At least two; the first one found is given.
    Multiple(Grid),
}

impl Verdict {
    /// The solution found, if any.
    pub fn solution(&self) -> Option<Grid> {
        match *self {
            Verdict::None => None,
            Verdict::Unique(grid) | Verdict::Multiple(grid) => Some(grid),
        }
    }
}

/// Solves grids within a guess budget. Cheap to copy; holds no state between calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solver {
    guess_budget: u64,
    /// See [`CONFIGURATION_GUESSES`]; smaller in tests of the fresh start.
    configuration_guesses: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::with_budget(DEFAULT_GUESS_BUDGET)
    }
}

impl Solver {
    /// A solver that gives up after `guess_budget` guesses in one search.
    pub fn with_budget(guess_budget: u64) -> Solver {
        Solver {
            guess_budget,
            configuration_guesses: CONFIGURATION_GUESSES,
        }
    }

    /// This solver, starting a search afresh with cells only after `guesses` guesses with
    /// configurations instead of [`CONFIGURATION_GUESSES`].
    #[cfg(test)]
    fn with_configuration_guesses(self, guesses: u64) -> Solver {
        Solver {
            configuration_guesses: guesses,
            ..self
        }
    }

    /// The number of guesses one search may make.
    pub fn guess_budget(&self) -> u64 {
        self.guess_budget
    }

    /// The first solution found.
    ///
    /// ```
    /// use sudoku::{CLASSIC_PUZZLE, CLASSIC_SOLUTION, Grid, SolveError, Solver};
    ///
    /// let puzzle: Grid = CLASSIC_PUZZLE.parse()?;
    /// assert_eq!(Solver::default().solve(&puzzle)?.to_line(), CLASSIC_SOLUTION);
    ///
    /// // Two 5s in the top row: no solution, and the search says so at once.
    /// let clash: Grid = format!("55{}", &CLASSIC_PUZZLE[2..]).parse()?;
    /// assert_eq!(Solver::default().solve(&clash), Err(SolveError::NoSolution));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`SolveError::NoSolution`] when there is none, [`SolveError::BudgetExhausted`] when
    /// the search gave up first.
    pub fn solve(&self, grid: &Grid) -> Result<Grid, SolveError> {
        self.count_solutions(grid, 1)?
            .first
            .ok_or(SolveError::NoSolution)
    }

    /// Counts solutions, stopping at `limit`; uniqueness is `count_solutions(g, 2)` finding 1.
    /// Givens that conflict give 0 without searching.
    ///
    /// # Errors
    /// [`BudgetExhausted`] when the search gave up before reaching the limit or the end.
    pub fn count_solutions(&self, grid: &Grid, limit: usize) -> Result<Count, BudgetExhausted> {
        self.count_solutions_with(grid, limit, None)
    }

    /// [`Solver::count_solutions`] with the rules given, or chosen by the givens when `None`.
    fn count_solutions_with(
        &self,
        grid: &Grid,
        limit: usize,
        rules: Option<Rules>,
    ) -> Result<Count, BudgetExhausted> {
        self.count_solutions_on(Isa::detected(), grid, limit, rules)
    }

    /// [`Solver::count_solutions_with`] on the compiled copy of the search `isa`.
    fn count_solutions_on(
        &self,
        isa: Isa,
        grid: &Grid,
        limit: usize,
        rules: Option<Rules>,
    ) -> Result<Count, BudgetExhausted> {
        // No separate `is_valid` pass, a sizeable share of an easy puzzle's work (see
        // BENCHMARKS.md): `Board::from_givens` finds every clash between givens as it places
        // them.
        let Some((board, boxes)) = Board::from_givens(grid).filter(|_| limit > 0) else {
            return Ok(Count::NOTHING);
        };
        let open: u32 = board.unsolved.iter().map(|cells| cells.count_ones()).sum();
        let givens = CELLS as u32 - open;
        let rules = rules.unwrap_or(if givens >= LIGHT_RULES_FROM_GIVENS {
            Rules::Light
        } else {
            Rules::Full
        });
        let configurations = rules == Rules::Full
            && givens >= CONFIGURATIONS_FROM_GIVENS
            && self.guess_budget > self.configuration_guesses;
        // Only sparser boards have their givens checked for a squeezed triad (see
        // `SQUEEZE_CHECK_BELOW_GIVENS`).
        let squeeze_check = (givens < SQUEEZE_CHECK_BELOW_GIVENS).then_some(&boxes);
        search::count_solutions(
            isa,
            board,
            squeeze_check,
            limit,
            rules,
            configurations,
            self.guess_budget,
            self.configuration_guesses,
        )
    }

    /// Solves and proves uniqueness (counts up to two solutions).
    ///
    /// # Errors
    /// [`BudgetExhausted`] when the search gave up before it could tell.
    pub fn analyze(&self, grid: &Grid) -> Result<Verdict, BudgetExhausted> {
        let count = self.count_solutions(grid, 2)?;
        Ok(match (count.solutions, count.first) {
            (1, Some(solution)) => Verdict::Unique(solution),
            (n, Some(solution)) if n > 1 => Verdict::Multiple(solution),
            _ => Verdict::None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::is_solved;
    use crate::{CLASSIC_PUZZLE, CLASSIC_SOLUTION};

    fn grid(line: &str) -> Grid {
        Grid::from_line(line).unwrap()
    }

    #[test]
    fn solves_the_classic_puzzle_uniquely() {
        let verdict = Solver::default().analyze(&grid(CLASSIC_PUZZLE)).unwrap();
        assert_eq!(verdict, Verdict::Unique(grid(CLASSIC_SOLUTION)));
    }

    #[test]
    fn the_empty_grid_has_many_solutions() {
        let count = Solver::default().count_solutions(&Grid::EMPTY, 5).unwrap();
        assert_eq!(count.solutions, 5);
        assert!(is_solved(&count.first.unwrap()));
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let mut line = CLASSIC_PUZZLE.to_string();
        line.replace_range(2..3, "5");
        assert_eq!(
            Solver::default().solve(&grid(&line)),
            Err(SolveError::NoSolution)
        );
    }

    #[test]
    fn sparse_boards_are_searched_with_cells_only() {
        // Four givens (found by proptest): with configurations the search ran out of a
        // million guesses; with cells only it takes a few hundred.
        let sparse = grid(
            "...1.....2...3.....................6.............................................",
        );
        let count = Solver::default().count_solutions(&sparse, 2).unwrap();
        assert_eq!(count.solutions, 2);
        assert!(count.guesses < 1_000, "{} guesses", count.guesses);
    }

    #[test]
    fn the_givens_pick_the_rules() {
        // Serg's first puzzle (35 givens, several solutions) cut down to exactly 30 givens and
        // to 29, the two sides of the line: on both the rule sets guess differently, so the
        // guesses tell which rules ran.
        let serg =
            "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
        let with_givens = |givens: usize| {
            let mut cells = *grid(serg).cells();
            let mut extra = cells.iter().filter(|&&v| v != 0).count() - givens;
            for cell in cells.iter_mut().rev() {
                if extra > 0 && *cell != 0 {
                    *cell = 0;
                    extra -= 1;
                }
            }
            Grid::from_cells(cells).unwrap()
        };
        let guesses = |puzzle: &Grid, rules| {
            Solver::default()
                .count_solutions_with(puzzle, 2, rules)
                .unwrap()
                .guesses
        };
        let threshold = LIGHT_RULES_FROM_GIVENS as usize;
        for (givens, expected) in [(threshold, Rules::Light), (threshold - 1, Rules::Full)] {
            let puzzle = with_givens(givens);
            let (full, light) = (
                guesses(&puzzle, Some(Rules::Full)),
                guesses(&puzzle, Some(Rules::Light)),
            );
            assert_ne!(
                full, light,
                "{puzzle}: the rules must guess differently here"
            );
            let picked = if expected == Rules::Full { full } else { light };
            assert_eq!(guesses(&puzzle, None), picked, "{givens} givens");
        }
    }

    #[test]
    fn a_complete_valid_grid_is_its_own_unique_solution() {
        let solved = grid(CLASSIC_SOLUTION);
        assert_eq!(
            Solver::with_budget(0).analyze(&solved),
            Ok(Verdict::Unique(solved))
        );
    }
}
