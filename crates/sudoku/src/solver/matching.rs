//! The all-different check: whether every row, column and box can still give each of its
//! nine cells a different digit among the cells' candidates, a perfect matching between the
//! unit's cells and digits.
//!
//! The band rules reason one digit at a time, and the naked singles one cell at a time, so a
//! set of digits squeezed into fewer cells of a unit than there are digits (three digits
//! whose only places in a column are two of its cells) goes unseen until one of those cells
//! is placed, which on a sparse board may be deep below. Such a squeeze stays true in every
//! board below the one where it appears, so the search may abandon that whole subtree as
//! soon as the check sees it (see [`super::search`] for when it looks). The check is a few
//! thousand instructions, too many for every node.

use super::board::Board;
use crate::grid::CELLS;

/// The cells of the 27 units: rows, columns, boxes.
static UNITS: [[u8; 9]; 27] = {
    let mut units = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = (9 * i + j) as u8;
            units[9 + i][j] = (9 * j + i) as u8;
            units[18 + i][j] = (27 * (i / 3) + 3 * (i % 3) + 9 * (j / 3) + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    units
};

/// No cell matched to this digit yet.
const UNMATCHED: u8 = u8::MAX;

impl Board {
    /// True when some row, column or box cannot hold its nine digits in distinct cells: then
    /// neither this board nor any board below it has a solution. Only the unsolved cells are
    /// matched: a placed digit is already out of its units' other cells.
    #[cold]
    #[inline(never)]
    pub(super) fn has_unmatchable_unit(&self) -> bool {
        let mut digits_of = [0u16; CELLS];
        for (i, &mask) in self.cands.iter().enumerate() {
            let (digit, band) = (i / 3, i % 3);
            let mut cells = mask & self.unsolved[band];
            while cells != 0 {
                digits_of[27 * band + cells.trailing_zeros() as usize] |= 1 << digit;
                cells &= cells - 1;
            }
        }
        UNITS
            .iter()
            .any(|unit| !has_perfect_matching(&unit.map(|cell| digits_of[usize::from(cell)])))
    }
}

/// Whether each cell with candidates (an unsolved one) can be given a different digit from
/// its `candidates` (bit `d` for digit `d`): each cell takes its lowest free digit, and only
/// a cell left with none looks for an augmenting path (Kuhn's), which on a board the band
/// rules have propagated is rare.
fn has_perfect_matching(candidates: &[u16; 9]) -> bool {
    let mut cell_of_digit = [UNMATCHED; 9];
    let mut taken = 0u16;
    let mut unmatched = 0u16;
    for (cell, &digits) in candidates.iter().enumerate() {
        let free = digits & !taken;
        // Cells without candidates are solved, and stay out of the matching.
        if free != 0 {
            let digit = free.trailing_zeros() as usize;
            taken |= 1 << digit;
            cell_of_digit[digit] = cell as u8;
        } else if digits != 0 {
            unmatched |= 1 << cell;
        }
    }
    while unmatched != 0 {
        let cell = unmatched.trailing_zeros() as usize;
        unmatched &= unmatched - 1;
        let mut visited = 0u16;
        if !augment(candidates, &mut cell_of_digit, &mut visited, cell) {
            return false;
        }
    }
    true
}

/// Finds `cell` a digit, moving already matched cells to other digits if need be.
fn augment(
    candidates: &[u16; 9],
    cell_of_digit: &mut [u8; 9],
    visited: &mut u16,
    cell: usize,
) -> bool {
    let mut digits = candidates[cell] & !*visited;
    while digits != 0 {
        let digit = digits.trailing_zeros() as usize;
        *visited |= 1 << digit;
        let holder = cell_of_digit[digit];
        if holder == UNMATCHED || augment(candidates, cell_of_digit, visited, usize::from(holder)) {
            cell_of_digit[digit] = cell as u8;
            return true;
        }
        digits &= !*visited;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn three_digits_in_two_cells_of_a_column_are_seen() {
        // Column 4 needs 1, 5 and 6, and only its cells in rows 7 and 8 can take any of them.
        let board = Board::from_grid(
            &Grid::from_line(
                ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........",
            )
            .unwrap(),
        )
        .unwrap();
        assert!(board.has_unmatchable_unit());
    }

    #[test]
    fn a_solvable_board_passes() {
        let board = Board::from_grid(&Grid::from_line(crate::CLASSIC_PUZZLE).unwrap()).unwrap();
        assert!(!board.has_unmatchable_unit());
        assert!(
            !Board::from_grid(&Grid::EMPTY)
                .unwrap()
                .has_unmatchable_unit()
        );
    }

    #[test]
    fn matching_agrees_with_hall() {
        // Hall's condition checked over every subset of cells, on pseudo-random masks.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..5_000 {
            let mut candidates = [0u16; 9];
            for mask in &mut candidates {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *mask =
                    ((state as u16) & (state >> 16) as u16 & 0x1FF) | (1 << ((state >> 40) % 9));
            }
            let hall = (1u32..512).all(|cells| {
                let union = (0..9)
                    .filter(|&c| cells & (1 << c) != 0)
                    .fold(0u16, |union, c| union | candidates[c]);
                union.count_ones() >= cells.count_ones()
            });
            assert_eq!(has_perfect_matching(&candidates), hall, "{candidates:?}");
        }
    }
}
