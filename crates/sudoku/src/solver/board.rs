//! The band board and its propagation: the masks of the module comment's "Representation",
//! and the rules of its "Updating the masks".

use super::isa::Kernel;
use super::lanes::{self, CandidateCounts};
use super::tables::{
    BAND, COLUMN_OF, CONFIGURATIONS, KEEP, PEERS, ROWS_OF_COLUMN, UNION, digit_columns, single_rows,
};
use crate::grid::{CELLS, Grid};

/// Which rules a search applies; see the [solver's module comment](super).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rules {
    /// Every rule, and the branching cell with the most unsolved peers.
    Full,
    /// No stack shrink, and the first branching cell found.
    Light,
}

/// For band index `i` (`3 * digit + band`): its band, and the indices of the digit's other
/// two bands; a lookup where the arithmetic took three divisions by three per update.
static SIBLINGS: [[u8; 3]; 27] = {
    let mut table = [[0u8; 3]; 27];
    let mut i = 0;
    while i < 27 {
        let (digit_bands, band) = (i - i % 3, i % 3);
        table[i] = [
            band as u8,
            (digit_bands + (band + 1) % 3) as u8,
            (digit_bands + (band + 2) % 3) as u8,
        ];
        i += 1;
    }
    table
};

/// The digits given in each box: for band `b`, bits `10 * s..10 * s + 9` of word `b` hold the
/// digits (bit `d` for digit `d`) given in the band's box of stack `s`. Ten bits a box, the
/// tenth always clear, so that [`Board::givens_overfill_a_triad`] can count the digits of
/// all boxes at once with subtractions that borrow into that bit and no further.
#[derive(Clone, Copy)]
pub(super) struct GivenBoxes(pub(super) [u32; 3]);

/// For each cell of a band, the first bit of its box's digits in [`GivenBoxes`].
static BOX_FIELD: [u8; 27] = {
    let mut table = [0u8; 27];
    let mut pos = 0;
    while pos < 27 {
        table[pos] = (10 * (pos % 9 / 3)) as u8;
        pos += 1;
    }
    table
};

/// The signal that a board has a contradiction; zero-sized so the hot path formats nothing.
pub(super) struct Contradiction;

/// One node of the search; see the [solver's module comment](super) for the layout.
#[derive(Clone, Copy)]
pub(super) struct Board {
    pub(super) cands: [u32; 27],
    seen: [u32; 27],
    /// The masks of each digit's three bands when its stacks were last shrunk.
    stack_seen: [u32; 27],
    /// The configurations left to each digit in each of its stacks (`3 * d + s`), as counted
    /// by the last stack shrink of the digit.
    pub(super) stack_configurations: [u8; 27],
    pub(super) unsolved: [u32; 3],
}

impl Board {
    /// The board of the givens, before any propagation; `None` when two givens clash.
    #[cfg(test)]
    pub(super) fn from_grid(grid: &Grid) -> Option<Board> {
        Board::from_givens(grid).map(|(board, _)| board)
    }

    /// The board of the givens, before any propagation, and the digits given in each box;
    /// `None` when two givens clash.
    ///
    /// Built in bulk rather than by placing the givens one by one: each given only records
    /// its cell, its digit's column, the cells it sees in its band and its digit in its box,
    /// and the 27 masks are then written once.
    #[inline(always)]
    pub(super) fn from_givens(grid: &Grid) -> Option<(Board, GivenBoxes)> {
        let mut boxes = GivenBoxes([0; 3]);
        let mut given = [0u32; 27];
        let mut seen_by = [0u32; 27];
        let mut digit_columns = [0u32; 9];
        let cells = grid.cells();
        let filled = lanes::given_cells(cells);
        for (band, &given_in_band) in filled.iter().enumerate() {
            let mut positions = given_in_band;
            while positions != 0 {
                let pos = positions.trailing_zeros() as usize;
                positions &= positions - 1;
                let digit = usize::from(cells[27 * band + pos] - 1);
                let column = 1 << (pos % 9);
                // The same digit already in this column (any band).
                if digit_columns[digit] & column != 0 {
                    return None;
                }
                digit_columns[digit] |= column;
                given[3 * digit + band] |= 1 << pos;
                seen_by[3 * digit + band] |= PEERS[pos];
                boxes.0[band] |= 1 << (digit + usize::from(BOX_FIELD[pos]));
            }
        }
        let mut cands = [0u32; 27];
        for (i, mask) in cands.iter_mut().enumerate() {
            let (digit, band) = (i / 3, i % 3);
            // The same digit already in this row or box.
            if given[i] & seen_by[i] != 0 {
                return None;
            }
            let blocked = filled[band] | seen_by[i] | (digit_columns[digit] * ROWS_OF_COLUMN);
            *mask = (BAND & !blocked) | given[i];
        }
        let board = Board {
            cands,
            // Never a real mask, so every band is shrunk at least once.
            seen: [u32::MAX; 27],
            stack_seen: [u32::MAX; 27],
            stack_configurations: [0; 27],
            unsolved: [BAND & !filled[0], BAND & !filled[1], BAND & !filled[2]],
        };
        Some((board, boxes))
    }

    /// Puts `digit` in cell `pos` of `band`: the cell leaves the other digits, the digit
    /// leaves the cell's row, column and box. The caller checked the digit was allowed.
    #[inline(always)]
    pub(super) fn place(&mut self, digit: usize, band: usize, pos: usize) {
        let bit = 1u32 << pos;
        for d in 0..9 {
            self.cands[3 * d + band] &= !bit;
        }
        let column = COLUMN_OF[pos];
        for b in 0..3 {
            self.cands[3 * digit + b] &= !column;
        }
        let i = 3 * digit + band;
        self.cands[i] = (self.cands[i] & !PEERS[pos]) | bit;
        self.unsolved[band] &= !bit;
    }

    /// Shrinks band `i` (digit `i / 3`, band `i % 3`) and places its row singles.
    #[inline(always)]
    fn update<K: Kernel>(&mut self, i: usize) -> Result<(), Contradiction> {
        let [band, next, last] = SIBLINGS[i].map(usize::from);
        let mut mask = self.cands[i];
        mask &= KEEP[K::pattern(mask)];
        if mask == 0 {
            return Err(Contradiction);
        }
        self.seen[i] = mask;
        let (singles, single_columns) = single_rows(mask);
        let spread = single_columns * ROWS_OF_COLUMN;
        mask &= !spread | singles;
        self.cands[next] &= !spread;
        self.cands[last] &= !spread;
        // Cleared whether or not any cell was placed: a branch here was mispredicted so
        // often that nine needless and-nots are cheaper (BENCHMARKS.md).
        let placed = singles & self.unsolved[band];
        self.unsolved[band] &= !placed;
        for d in 0..9 {
            self.cands[3 * d + band] &= !placed;
        }
        self.cands[i] = mask;
        Ok(())
    }

    /// Runs the band rules until no band changes.
    ///
    /// Each pass first gathers the changed bands into a bitmask, without a branch and four
    /// bands at a time ([`lanes::changed`]), then updates those. Testing each band in turn (`if cands != seen { update }`, with a copy
    /// of `update` per band) cost a mispredicted branch for nearly every band updated, most
    /// of the engine's mispredictions: the mask runs a few more instructions but mispredicts
    /// far less, and is faster (BENCHMARKS.md).
    #[inline(always)]
    fn update_bands<K: Kernel>(&mut self) -> Result<(), Contradiction> {
        loop {
            let mut dirty = lanes::changed(&self.cands, &self.seen);
            if dirty == 0 {
                return Ok(());
            }
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                self.update::<K>(i)?;
            }
        }
    }

    /// Places every naked single. When it placed none it returns the counters it read,
    /// which still describe the board; `None` when it placed some.
    #[inline(always)]
    fn place_naked_singles(&mut self) -> Result<Option<CandidateCounts>, Contradiction> {
        let mut placed_any = false;
        // Counted for the three bands at once, before any placement: a single placed in one
        // band changes the others only where the next round looks again.
        let counts = lanes::candidate_counts(&self.cands);
        let [ones, twos, _] = counts;
        for band in 0..3 {
            let unsolved = self.unsolved[band];
            if unsolved == 0 {
                continue;
            }
            if unsolved & !ones[band] != 0 {
                return Err(Contradiction);
            }
            let singles = unsolved & !twos[band];
            if singles == 0 {
                continue;
            }
            placed_any = true;
            for d in 0..9 {
                let mut cells = self.cands[3 * d + band] & singles;
                while cells != 0 {
                    let pos = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    // A single placed just before in this pass may have taken the digit.
                    if self.cands[3 * d + band] & (1 << pos) == 0 {
                        return Err(Contradiction);
                    }
                    self.place(d, band, pos);
                }
            }
        }
        Ok((!placed_any).then_some(counts))
    }

    /// The band shrink turned sideways: within a stack, a digit takes one column of each
    /// box and one box of each column. True when it removed any candidate.
    #[inline(always)]
    fn shrink_stacks<K: Kernel>(&mut self) -> Result<bool, Contradiction> {
        let mut changed = false;
        for d in 0..9 {
            if self.cands[3 * d..3 * d + 3] == self.stack_seen[3 * d..3 * d + 3] {
                continue;
            }
            let cols = digit_columns(&self.cands[3 * d..3 * d + 3]);
            let mut allowed = 0;
            for stack in 0..3 {
                let p = K::stack_pattern(cols, stack);
                let u = u32::from(UNION[p]);
                self.stack_configurations[3 * d + stack] = CONFIGURATIONS[p];
                if u == 0 {
                    return Err(Contradiction);
                }
                allowed |= K::stack_columns(u, stack);
            }
            for b in 0..3 {
                let i = 3 * d + b;
                let columns = (allowed >> (9 * b)) & 0x1FF;
                let mask = self.cands[i] & (columns * ROWS_OF_COLUMN);
                if mask != self.cands[i] {
                    self.cands[i] = mask;
                    changed = true;
                }
                self.stack_seen[i] = mask;
            }
        }
        Ok(changed)
    }

    /// Applies the rules until none changes anything. Returns the candidate counters of
    /// the board it leaves (all zero when it is solved): those of the last round of naked
    /// singles, which placed nothing and after which nothing changed, so the choice of a
    /// branching cell need not count again.
    #[inline(always)]
    pub(super) fn propagate<K: Kernel>(
        &mut self,
        rules: Rules,
    ) -> Result<CandidateCounts, Contradiction> {
        loop {
            self.update_bands::<K>()?;
            if self.unsolved == [0; 3] {
                return Ok([[0; 3]; 3]);
            }
            // No separate column hidden singles: the stack shrink finds them (a column with
            // one candidate confines the digit to that column in its box, which the band's
            // row single then places), and dropping the check saved time with the very
            // same guess counts (BENCHMARKS.md).
            if let Some(counts) = self.place_naked_singles()? {
                if rules == Rules::Light || !self.shrink_stacks::<K>()? {
                    return Ok(counts);
                }
            }
        }
    }

    /// The grid of a solved board.
    pub(super) fn to_grid(self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (i, &mask) in self.cands.iter().enumerate() {
            let (digit, band) = (i / 3, i % 3);
            let mut bits = mask;
            while bits != 0 {
                cells[27 * band + bits.trailing_zeros() as usize] = digit as u8 + 1;
                bits &= bits - 1;
            }
        }
        // Every value is a digit, so this cannot fail.
        Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::is_valid;
    use crate::{Solver, Verdict};

    #[test]
    fn every_kind_of_clash_between_givens_has_no_solution() {
        // The same digit twice in a row, a column, a box (and nowhere else in common).
        for (a, b) in [(0, 8), (0, 72), (0, 20), (40, 44), (80, 8)] {
            let mut cells = [0u8; CELLS];
            cells[a] = 7;
            cells[b] = 7;
            let puzzle = Grid::from_cells(cells).unwrap();
            assert!(!is_valid(&puzzle));
            // Found while the board is set up, before any search.
            assert!(Board::from_grid(&puzzle).is_none(), "cells {a} and {b}");
            assert_eq!(Solver::default().analyze(&puzzle), Ok(Verdict::None));
        }
    }
}
