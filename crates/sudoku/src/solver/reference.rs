//! The first, simple engine, kept as a reference for differential tests of the fast one.
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
//! digit on a copy of the `Copy` board. Every branch costs one *guess* from the budget.

use super::{BudgetExhausted, Count};
use crate::grid::{CELLS, Grid};
use crate::validate::is_valid;

const ALL_DIGITS: u16 = 0x3FE;

/// Counts solutions of `grid` up to `limit` with at most `budget` guesses, the way the
/// public solver did before the band engine: the oracle of the differential tests.
pub(super) fn count_solutions(
    grid: &Grid,
    limit: usize,
    budget: u64,
) -> Result<Count, BudgetExhausted> {
    let mut search = Search {
        limit,
        guesses_left: budget,
        found: Count {
            solutions: 0,
            first: None,
            guesses: 0,
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
                if left.is_power_of_two() {
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

    fn to_grid(self) -> Grid {
        // Every value is a placed digit or 0, so this cannot fail.
        Grid::from_cells(self.values).unwrap_or(Grid::EMPTY)
    }
}

struct Search {
    limit: usize,
    guesses_left: u64,
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
                    guesses: self.found.guesses,
                });
            }
            self.guesses_left -= 1;
            self.found.guesses += 1;
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
}
