//! Choosing where the search branches: a cell and its candidates, or a digit's
//! configuration in a band or stack (the module comment's "Branching").

use super::board::{Board, Rules};
use super::isa::Kernel;
use super::lanes::CandidateCounts;
use super::tables::{
    COLUMN_OF, CONFIGURATIONS, KEEP, PEERS, PERMUTATIONS, ROWS_OF_COLUMN, digit_columns,
    permutation_matrix,
};

/// With the full rules, the search branches on a digit's configuration in a band or stack
/// rather than on a bivalue cell when the best bivalue cell sees fewer unsolved cells than
/// this (see the [solver's module comment](super)). Chosen by the guesses it saves on
/// `msolve_hardest`, the hardest set: one less does about as well, more does clearly worse
/// (BENCHMARKS.md).
const CONFIGURATION_BRANCHING_BELOW: u32 = 12;

/// With no bivalue cell, the search branches on a configuration rather than on a cell with
/// the fewest candidates only with fewer unsolved cells than this. On emptier boards
/// configurations lose their way: a sparse board with two solutions took far more guesses
/// to find the second that way than by cells. On fuller ones they still save guesses on
/// `msolve_hardest` (BENCHMARKS.md).
const CONFIGURATION_BRANCHING_OPEN_BELOW: u32 = 60;

/// See [`Board::branching_cell`].
pub(super) struct BranchingCell {
    pub(super) band: usize,
    pub(super) pos: usize,
    pub(super) digits: u32,
    /// Whether a digit's configuration, if there is one to branch on, should be preferred
    /// (see the [solver's module comment](super)).
    pub(super) or_a_configuration: bool,
}

impl Board {
    /// The cell to branch on: a bivalue cell if there is one (with the full rules the one
    /// with the most unsolved peers, with the light rules the first), else the first with the
    /// fewest candidates, from the board's candidate `counts` (as [`Board::propagate`]
    /// leaves them). Only called on a propagated, unsolved board, where every unsolved
    /// cell has at least two.
    #[inline(always)]
    pub(super) fn branching_cell(&self, rules: Rules, counts: &CandidateCounts) -> BranchingCell {
        let mut pairs = [0u32; 3];
        let [_, twos, threes] = *counts;
        for (band, pairs) in pairs.iter_mut().enumerate() {
            *pairs = self.unsolved[band] & twos[band] & !threes[band];
            if rules == Rules::Light && *pairs != 0 {
                let pos = pairs.trailing_zeros() as usize;
                return BranchingCell {
                    band,
                    pos,
                    digits: self.digits_at(band, pos),
                    or_a_configuration: false,
                };
            }
        }
        // The best as one number: the count above, and below it the cell's index counted
        // down so that among equal counts the first cell wins; `max` compiles to a
        // conditional move where an `if` was mispredicted.
        let mut best_key = 0u32;
        for (band, &pairs) in pairs.iter().enumerate() {
            let mut cells = pairs;
            while cells != 0 {
                let pos = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let column = COLUMN_OF[pos];
                // One 64-bit count instead of three (the baseline x86-64 target has no
                // popcnt instruction, so each count is a dozen instructions): the peers in
                // the band in the low half, the column's cells in the other two bands above.
                let n = (u64::from(PEERS[pos] & self.unsolved[band])
                    | u64::from(column & self.unsolved[(band + 1) % 3]) << 32
                    | u64::from(column & self.unsolved[(band + 2) % 3]) << 33)
                    .count_ones();
                best_key = best_key.max(n << 8 | (255 - (27 * band + pos) as u32));
            }
        }
        if best_key != 0 {
            let cell = (255 - (best_key & 0xFF)) as usize;
            let (band, pos) = (cell / 27, cell % 27);
            return BranchingCell {
                band,
                pos,
                digits: self.digits_at(band, pos),
                or_a_configuration: best_key >> 8 < CONFIGURATION_BRANCHING_BELOW,
            };
        }
        let mut best = BranchingCell {
            band: 0,
            pos: 0,
            digits: 0,
            or_a_configuration: false,
        };
        let mut best_count = u32::MAX;
        let mut open = 0;
        for band in 0..3 {
            let mut cells = self.unsolved[band];
            while cells != 0 {
                let pos = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                open += 1;
                let digits = self.digits_at(band, pos);
                let count = digits.count_ones();
                if count < best_count {
                    best = BranchingCell {
                        band,
                        pos,
                        digits,
                        or_a_configuration: false,
                    };
                    best_count = count;
                }
            }
        }
        best.or_a_configuration = rules == Rules::Full && open < CONFIGURATION_BRANCHING_OPEN_BELOW;
        best
    }

    /// tdoku's branching (Dillon's write-up; the code here is ours): in the band or stack
    /// whose digits have the fewest configurations left in all, a digit with exactly two
    /// (of those, the one with the fewest candidates there). Returns the digit and, for each of its two configurations, the masks that confine
    /// the digit's three bands to it; `None` when that band or stack has no such digit, or
    /// every digit everywhere is down to one configuration. Only called on a board propagated
    /// with the full rules, where every band and stack pattern is a union of configurations,
    /// so that either confinement removes candidates.
    #[inline(always)]
    pub(super) fn branching_configuration<K: Kernel>(&self) -> Option<(usize, [[u32; 3]; 2])> {
        let mut totals = [0u32; 6];
        // Counted afresh in the bands (in a band update it would cost every puzzle), kept by
        // the stack shrink in the stacks.
        let count = |digit: usize, unit: usize| {
            if unit < 3 {
                CONFIGURATIONS[K::pattern(self.cands[3 * digit + unit])]
            } else {
                self.stack_configurations[3 * digit + unit - 3]
            }
        };
        for digit in 0..9 {
            for (unit, total) in totals.iter_mut().enumerate() {
                *total += u32::from(count(digit, unit));
            }
        }
        // A total of nine: every digit has one configuration left there.
        let unit = (0..6)
            .filter(|&unit| totals[unit] > 9)
            .min_by_key(|&unit| totals[unit])?;
        // Of the digits with two configurations there, the one with the fewest candidates
        // in the unit: msolve_hardest 304 guesses a puzzle to 296, forum_hardest 156 to
        // 155; the first such digit, or the one with the most, take more (BENCHMARKS.md).
        let candidates_in_unit = |digit: usize| {
            if unit < 3 {
                self.cands[3 * digit + unit].count_ones()
            } else {
                let stack = (7 << (3 * (unit - 3))) * ROWS_OF_COLUMN;
                (0..3)
                    .map(|band| (self.cands[3 * digit + band] & stack).count_ones())
                    .sum()
            }
        };
        let digit = (0..9)
            .filter(|&digit| count(digit, unit) == 2)
            .min_by_key(|&digit| (candidates_in_unit(digit), digit))?;
        let bands = &self.cands[3 * digit..3 * digit + 3];
        let p = if unit < 3 {
            K::pattern(bands[unit])
        } else {
            K::stack_pattern(digit_columns(bands), unit - 3)
        };
        // The count read above comes from the last update of these masks; the split is only
        // sound with exactly two configurations, so that is checked on the masks themselves.
        if CONFIGURATIONS[p] != 2 {
            return None;
        }
        let mut confinements = [[u32::MAX; 3]; 2];
        let matrices = PERMUTATIONS
            .iter()
            .map(|&perm| permutation_matrix(perm))
            .filter(|&matrix| p & matrix == matrix);
        for (masks, matrix) in confinements.iter_mut().zip(matrices) {
            if unit < 3 {
                // Row r of the band in box k, for each (r, k) of the matrix.
                masks[unit] = KEEP[matrix];
            } else {
                // Band b in column c of the stack, for each (b, c) of the matrix.
                let shift = 3 * (unit - 3);
                for (band, mask) in masks.iter_mut().enumerate() {
                    let column = ((matrix >> (3 * band)) & 7).trailing_zeros() as usize;
                    *mask = !((7 << shift) * ROWS_OF_COLUMN) | (ROWS_OF_COLUMN << (shift + column));
                }
            }
        }
        Some((digit, confinements))
    }

    /// Masks the three bands of `digit` (see [`Board::branching_configuration`]).
    #[inline(always)]
    pub(super) fn confine(&mut self, digit: usize, masks: [u32; 3]) {
        for (band, mask) in masks.into_iter().enumerate() {
            self.cands[3 * digit + band] &= mask;
        }
    }

    /// The digits (bit `d` for digit `d`) still allowed in cell `pos` of `band`.
    #[inline(always)]
    fn digits_at(&self, band: usize, pos: usize) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.cands[3 * d + band] >> pos) & 1) << d;
        }
        digits
    }
}

#[cfg(test)]
mod tests {
    use super::super::isa::Portable;
    use super::*;
    use crate::Solver;
    use crate::puzzle_sets;

    #[test]
    fn a_configuration_split_keeps_the_solution_on_exactly_one_side() {
        let hardest = puzzle_sets::read(puzzle_sets::path("msolve_hardest_to_solve"))
            .unwrap_or_else(|err| panic!("{err}"));
        let (mut in_bands, mut in_stacks) = (0, 0);
        for (number, puzzle) in hardest.into_iter().take(50) {
            let solution = Solver::default().solve(&puzzle).unwrap();
            let solved = Board::from_grid(&solution).unwrap();
            let contains_solution =
                |board: &Board| (0..27).all(|i| solved.cands[i] & !board.cands[i] == 0);
            // Down the side of every split the solution is on, as far as splits go.
            let mut board = Board::from_grid(&puzzle).unwrap();
            loop {
                assert!(
                    board.propagate::<Portable>(Rules::Full).is_ok(),
                    "line {number}"
                );
                let Some((digit, sides)) = board.branching_configuration::<Portable>() else {
                    break;
                };
                let mut boards = [board; 2];
                for (side, masks) in boards.iter_mut().zip(sides) {
                    side.confine(digit, masks);
                    assert!(
                        side.cands != board.cands,
                        "line {number}: a side removes nothing"
                    );
                }
                let holds = boards.map(|side| contains_solution(&side));
                assert!(
                    holds[0] != holds[1],
                    "line {number}: the solution on {holds:?}"
                );
                if sides[0].iter().filter(|&&mask| mask == u32::MAX).count() == 2 {
                    in_bands += 1;
                } else {
                    in_stacks += 1;
                }
                board = boards[usize::from(holds[1])];
            }
            assert!(contains_solution(&board), "line {number}");
        }
        assert!(
            in_bands > 0 && in_stacks > 0,
            "{in_bands} in bands, {in_stacks} in stacks"
        );
    }
}
