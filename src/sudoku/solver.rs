//! The search: solving, counting solutions, proving uniqueness, within a budget.
//!
//! # Representation
//! A digit `d` (1..=9) is bit `1 << d` of a `u16` mask, so `0x3FE` is "any digit". Each
//! empty cell keeps the mask of digits none of its 20 peers (same row, column or box) hold.
//! Placing a digit clears its bit from every peer; a peer left with one bit is a *naked
//! single* and is queued for placement, a peer left with none is a contradiction. When the
//! queue runs dry, each of the 27 units is scanned for *hidden singles*: a digit the unit
//! still needs that only one of its cells allows (and a needed digit no cell allows is a
//! contradiction). Both rules repeat until neither places anything.
//!
//! The search then branches on the empty cell with the fewest candidates (MRV), trying each
//! digit on a copy of the `Copy` board. Every branch costs one *guess* from the budget, so a
//! search always ends: with the solutions it found, or with [`BudgetExhausted`].

use super::grid::{CELLS, Grid};
use super::validate::is_valid;

/// Guesses allowed per search unless configured otherwise. The hardest known 9x9 puzzles
/// need a few thousand at most; the budget only stops pathological work.
pub const DEFAULT_GUESS_BUDGET: u64 = 1_000_000;

const ALL_DIGITS: u16 = 0x3FE;

/// The search ran out of guesses before it could answer; this proves nothing about the
/// puzzle, and is distinct from "no solution".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the search gave up after {guesses} guesses without an answer")]
pub struct BudgetExhausted {
    /// Guesses made before giving up.
    pub guesses: u64,
}

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

/// The outcome of counting solutions up to a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// Solutions found, never more than the limit asked for.
    pub solutions: usize,
    /// The first solution found, if any.
    pub first: Option<Grid>,
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
}

impl Default for Solver {
    fn default() -> Self {
        Solver::with_budget(DEFAULT_GUESS_BUDGET)
    }
}

impl Solver {
    /// A solver that gives up after `guess_budget` guesses in one search.
    pub fn with_budget(guess_budget: u64) -> Solver {
        Solver { guess_budget }
    }

    /// The number of guesses one search may make.
    pub fn guess_budget(&self) -> u64 {
        self.guess_budget
    }

    /// The first solution found.
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
        let mut search = Search {
            limit,
            guesses_left: self.guess_budget,
            guesses: 0,
            found: Count {
                solutions: 0,
                first: None,
            },
        };
        if limit == 0 || !is_valid(grid) {
            return Ok(search.found);
        }
        if let Some(board) = Board::from_grid(grid) {
            search.run(board)?;
        }
        Ok(search.found)
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

/// The 20 peers of each cell, and the 9 cells of each of the 27 units, built at compile time.
const PEERS: [[u8; 20]; CELLS] = build_peers();
const UNITS: [[u8; 9]; 27] = build_units();

const fn build_units() -> [[u8; 9]; 27] {
    let mut units = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            units[i][k] = (i * 9 + k) as u8;
            units[9 + i][k] = (k * 9 + i) as u8;
            units[18 + i][k] = ((i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3) as u8;
            k += 1;
        }
        i += 1;
    }
    units
}

const fn build_peers() -> [[u8; 20]; CELLS] {
    let mut peers = [[0u8; 20]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / 9, cell % 9);
        let mut n = 0;
        let mut other = 0;
        while other < CELLS {
            let (r2, c2) = (other / 9, other % 9);
            let same_box = r / 3 == r2 / 3 && c / 3 == c2 / 3;
            if other != cell && (r == r2 || c == c2 || same_box) {
                peers[cell][n] = other as u8;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
}

/// The signal that a board has a contradiction; zero-sized so the hot path formats nothing.
struct Contradiction;

/// One node of the search: values, candidates of empty cells, and queued naked singles.
#[derive(Clone, Copy)]
struct Board {
    values: [u8; CELLS],
    candidates: [u16; CELLS],
    empty: u8,
    queue: [u8; CELLS],
    queued: u8,
}

impl Board {
    fn from_grid(grid: &Grid) -> Option<Board> {
        let mut board = Board {
            values: [0; CELLS],
            candidates: [ALL_DIGITS; CELLS],
            empty: CELLS as u8,
            queue: [0; CELLS],
            queued: 0,
        };
        for (cell, &digit) in grid.cells().iter().enumerate() {
            if digit != 0 && board.values[cell] == 0 {
                board.place(cell, digit).ok()?;
            }
        }
        board.propagate().ok()?;
        Some(board)
    }

    fn place(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        let bit = 1u16 << digit;
        if self.candidates[cell] & bit == 0 {
            return Err(Contradiction);
        }
        self.values[cell] = digit;
        self.candidates[cell] = 0;
        self.empty -= 1;
        for &peer in &PEERS[cell] {
            let peer = usize::from(peer);
            let mask = self.candidates[peer];
            if mask & bit != 0 {
                let left = mask & !bit;
                self.candidates[peer] = left;
                if left == 0 {
                    return Err(Contradiction);
                }
                if left & (left - 1) == 0 {
                    self.queue[usize::from(self.queued)] = peer as u8;
                    self.queued += 1;
                }
            }
        }
        Ok(())
    }

    fn place_queued(&mut self) -> Result<(), Contradiction> {
        while self.queued > 0 {
            self.queued -= 1;
            let cell = usize::from(self.queue[usize::from(self.queued)]);
            if self.values[cell] == 0 {
                let mask = self.candidates[cell];
                if mask == 0 {
                    return Err(Contradiction);
                }
                self.place(cell, mask.trailing_zeros() as u8)?;
            }
        }
        Ok(())
    }

    /// Places naked and hidden singles until neither rule finds one.
    fn propagate(&mut self) -> Result<(), Contradiction> {
        loop {
            self.place_queued()?;
            if self.empty == 0 || !self.place_hidden_singles()? {
                return Ok(());
            }
        }
    }

    /// One pass of hidden singles over all units; true when it placed anything.
    fn place_hidden_singles(&mut self) -> Result<bool, Contradiction> {
        let mut placed_any = false;
        for unit in &UNITS {
            let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
            for &cell in unit {
                let cell = usize::from(cell);
                let mask = self.candidates[cell];
                twice |= once & mask;
                once |= mask;
                placed |= (1u16 << self.values[cell]) & ALL_DIGITS;
            }
            let needed = ALL_DIGITS & !placed;
            if needed & !once != 0 {
                return Err(Contradiction);
            }
            let mut hidden = once & !twice & needed;
            while hidden != 0 {
                let digit = hidden.trailing_zeros() as u8;
                hidden &= hidden - 1;
                let bit = 1u16 << digit;
                let Some(&cell) = unit
                    .iter()
                    .find(|&&c| self.candidates[usize::from(c)] & bit != 0)
                else {
                    // An earlier placement in this pass took the digit's only cell.
                    return Err(Contradiction);
                };
                self.place(usize::from(cell), digit)?;
                placed_any = true;
            }
            self.place_queued()?;
        }
        Ok(placed_any)
    }

    /// The empty cell with the fewest candidates (a bivalue cell ends the scan early).
    fn branching_cell(&self) -> usize {
        let mut best = 0;
        let mut best_count = u32::MAX;
        for cell in 0..CELLS {
            if self.values[cell] == 0 {
                let count = self.candidates[cell].count_ones();
                if count < best_count {
                    best = cell;
                    best_count = count;
                    if count <= 2 {
                        break;
                    }
                }
            }
        }
        best
    }

    fn to_grid(&self) -> Grid {
        // Every value is a placed digit or 0, so this cannot fail.
        Grid::from_cells(self.values).unwrap_or(Grid::EMPTY)
    }
}

struct Search {
    limit: usize,
    guesses_left: u64,
    guesses: u64,
    found: Count,
}

impl Search {
    fn run(&mut self, board: Board) -> Result<(), BudgetExhausted> {
        if board.empty == 0 {
            self.found.solutions += 1;
            self.found.first.get_or_insert_with(|| board.to_grid());
            return Ok(());
        }
        let cell = board.branching_cell();
        let mut options = board.candidates[cell];
        while options != 0 {
            let digit = options.trailing_zeros() as u8;
            options &= options - 1;
            if self.guesses_left == 0 {
                return Err(BudgetExhausted {
                    guesses: self.guesses,
                });
            }
            self.guesses_left -= 1;
            self.guesses += 1;
            let mut next = board;
            if next.place(cell, digit).is_ok() && next.propagate().is_ok() {
                self.run(next)?;
                if self.found.solutions >= self.limit {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::validate::is_solved;

    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const EASY_SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn grid(line: &str) -> Grid {
        Grid::from_line(line).unwrap()
    }

    #[test]
    fn peers_and_units_are_the_sudoku_ones() {
        for (cell, peers) in PEERS.iter().enumerate() {
            let mut sorted = peers.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), 20, "cell {cell}");
            assert!(!sorted.contains(&(cell as u8)));
        }
        for unit in &UNITS {
            let mut sorted = unit.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), 9);
        }
    }

    #[test]
    fn solves_the_classic_puzzle_uniquely() {
        let verdict = Solver::default().analyze(&grid(EASY)).unwrap();
        assert_eq!(verdict, Verdict::Unique(grid(EASY_SOLUTION)));
    }

    #[test]
    fn the_empty_grid_has_many_solutions() {
        let count = Solver::default().count_solutions(&Grid::EMPTY, 5).unwrap();
        assert_eq!(count.solutions, 5);
        assert!(is_solved(&count.first.unwrap()));
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let mut line = EASY.to_string();
        line.replace_range(2..3, "5");
        assert_eq!(
            Solver::default().solve(&grid(&line)),
            Err(SolveError::NoSolution)
        );
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
    fn a_complete_valid_grid_is_its_own_unique_solution() {
        let solved = grid(EASY_SOLUTION);
        assert_eq!(
            Solver::with_budget(0).analyze(&solved),
            Ok(Verdict::Unique(solved))
        );
    }
}
