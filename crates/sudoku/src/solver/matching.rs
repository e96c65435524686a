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

use super::board::{Board, GivenBoxes, Rules};
use super::isa::Portable;
use super::tables::{ROWS_OF_COLUMN, columns};
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

/// The first cell of each row of a band.
const ROW_STARTS: u32 = 1 | 1 << 9 | 1 << 18;

/// The first cell of each of a band's nine row triads.
const ROW_TRIAD_STARTS: u32 = ROW_STARTS * 0b100_1001;

/// Adds one to the bit-sliced counters `count` (ones, twos, four or more) where `bits` is set.
#[inline(always)]
fn add_to_count(count: &mut [u32; 3], bits: u32) {
    let carry = count[0] & bits;
    count[0] ^= bits;
    count[2] |= count[1] & carry;
    count[1] ^= carry;
}

/// The row triads of a band mask (bit of the triad's first cell) holding every candidate
/// of their row: a row whose candidates lie in one box.
#[inline(always)]
fn rows_in_one_box(mask: u32) -> u32 {
    let present = mask | mask >> 1 | mask >> 2;
    let [first, second, third] = [0, 3, 6].map(|shift| (present >> shift) & ROW_STARTS);
    let only_first = first & !second & !third;
    let only_second = second & !first & !third;
    let only_third = third & !first & !second;
    only_first | only_second << 3 | only_third << 6
}

/// The lowest bit of each of six 10-bit fields: those of two words of [`GivenBoxes`] side
/// by side.
const FIELD_LOWS: u64 = 0x0004_0100_4010_0401;

/// The tenth bit of each field, never a digit.
const FIELD_GUARDS: u64 = FIELD_LOWS << 9;

/// The nine digit bits of each field of one word of [`GivenBoxes`].
const FIELD_DIGITS: u32 = 0x1FF * 0x10_0401;

/// Each field of `digits` without its lowest digit: `x & (x - 1)` in every field at once,
/// each subtraction borrowing through its field's zeros into the guard bit and no further.
#[inline(always)]
fn without_lowest(digits: u64) -> u64 {
    digits & ((digits | FIELD_GUARDS) - FIELD_LOWS)
}

/// The fields of `digits` that hold three digits or more (their bits, nonzero or zero).
#[inline(always)]
fn three_or_more(digits: u64) -> u64 {
    without_lowest(without_lowest(digits))
}

/// Two words of 10-bit fields side by side, for [`three_or_more`].
#[inline(always)]
fn side_by_side(low: u32, high: u32) -> u64 {
    u64::from(low) | u64::from(high) << 30
}

/// The nine cells of a band's first box.
const BOX_OF_STACK_0: u32 = 0b111 * ROW_STARTS;

/// No cell matched to this digit yet.
const UNMATCHED: u8 = u8::MAX;

/// The digits forced into a line of each box by the givens, in the fields of
/// [`GivenBoxes`]: those given in both other boxes of its stack and not in it (one column of
/// the stack left to each), and those given in both other boxes of its band and not in it
/// (one row left).
#[inline(always)]
fn lined_digits(boxes: &GivenBoxes) -> [[u32; 3]; 2] {
    let [w0, w1, w2] = boxes.0;
    let by_stack = [w1 & w2 & !w0, w0 & w2 & !w1, w0 & w1 & !w2];
    // The band's other two boxes: its fields turned by one box and by two.
    let by_band = boxes
        .0
        .map(|w| (w >> 10 | w << 20) & (w >> 20 | w << 10) & !w & FIELD_DIGITS);
    [by_stack, by_band]
}

/// Per band, the boxes into a line of which three digits or more are forced by the givens of
/// their stack (the fields of the low 30 bits that are not zero) or of their band (those of
/// the high 30 bits), from [`lined_digits`].
#[inline(always)]
fn crowded_boxes(lined: &[[u32; 3]; 2]) -> [u64; 3] {
    std::array::from_fn(|band| three_or_more(side_by_side(lined[0][band], lined[1][band])))
}

/// The slow part of [`Board::givens_overfill_a_triad`], for the board with three digits
/// given in two boxes: each box into whose lines three digits or more are forced
/// (`crowded`, of the `lined` digits), looked at on its own, in the direction of those
/// lines alone (fewer digits can overfill no triad); `cands` are the masks of the board of the
/// givens.
#[cold]
#[inline(never)]
fn crowded_box_overfills_a_triad(
    cands: &[u32; 27],
    lined: &[[u32; 3]; 2],
    crowded: &[u64; 3],
) -> bool {
    (0..3).any(|band| {
        let by_stack = crowded[band] as u32;
        let by_band = (crowded[band] >> 30) as u32;
        (0..3).any(|stack| {
            let field = |digits: u32| (digits >> (10 * stack)) & 0x1FF;
            // The digits lined by the stack if three or more are, and likewise by the band.
            let in_columns = if field(by_stack) != 0 {
                field(lined[0][band])
            } else {
                0
            };
            let in_rows = if field(by_band) != 0 {
                field(lined[1][band])
            } else {
                0
            };
            (in_columns | in_rows) != 0
                && box_overfills_a_triad(cands, band, stack, in_columns, in_rows)
        })
    })
}

/// Whether the digits with one column (`by_column`) or one row (`by_row`) of box `stack`
/// of `band` left to them by the givens overfill a triad of it, as
/// [`Board::has_overfilled_triad`] counts: more than three forced into it, or three and a
/// cell that takes none of them; or whether one of them has no cell left in the box.
fn box_overfills_a_triad(
    cands: &[u32; 27],
    band: usize,
    stack: usize,
    by_column: u32,
    by_row: u32,
) -> bool {
    let box_cells = BOX_OF_STACK_0 << (3 * stack);
    let row_starts = ROW_STARTS << (3 * stack);
    [(by_column, true), (by_row, false)]
        .into_iter()
        .any(|(digits, columns_of)| {
            let mut counts = [0u32; 3];
            let mut covered = 0;
            let mut each = digits;
            while each != 0 {
                let digit = each.trailing_zeros() as usize;
                each &= each - 1;
                // Not given in this box (see `lined_digits`), so these are open cells.
                let open = cands[3 * digit + band] & box_cells;
                if open == 0 {
                    return true;
                }
                let lines = if columns_of {
                    columns(open)
                } else {
                    (open | open >> 1 | open >> 2) & row_starts
                };
                // Forced into a triad only if all its cells are in one.
                if lines.is_power_of_two() {
                    let triad = if columns_of {
                        lines * ROWS_OF_COLUMN
                    } else {
                        lines * 0b111
                    };
                    add_to_count(&mut counts, triad);
                    covered |= open;
                }
            }
            counts[2] != 0 || counts[0] & counts[1] & !covered != 0
        })
}

impl Board {
    /// True when some triad (the three cells a column shares with a box, or a row with a
    /// box) must take more digits than it has cells, or exactly three and has a cell that can
    /// take none of them. A digit must go into a triad when its column's (row's) candidates
    /// all lie in that box: the band rules leave each such digit some place, so a squeeze of
    /// several of them goes unseen until one of the cells is placed, which on a sparse board
    /// can be deep below. About 1,700 instructions, bit-parallel over the bands, a quarter
    /// of the matching check: the search runs it first (see [`super::search`]). The idea of
    /// reasoning on triads is tdoku's (Dillon's write-up); this count of forced digits is ours.
    #[cold]
    #[inline(never)]
    pub(super) fn has_overfilled_triad(&self) -> bool {
        // Bit-sliced counts (1, 2, 4 or more) of the digits forced into each triad: for
        // columns, bit 9b + c is column c's triad in band b; for rows, bit 3t + b is the
        // triad starting at cell 3t of band b. Per band, the cells that can take a digit
        // forced into their column's triad, and into their row's.
        let mut column_counts = [0u32; 3];
        let mut row_counts = [0u32; 3];
        let mut covered_in_columns = [0u32; 3];
        let mut covered_in_rows = [0u32; 3];
        for digit in 0..9 {
            let masks = [0, 1, 2].map(|band| self.cands[3 * digit + band]);
            let [c0, c1, c2] = masks.map(columns);
            let forced_columns = [c0 & !(c1 | c2), c1 & !(c0 | c2), c2 & !(c0 | c1)];
            let forced_rows = masks.map(rows_in_one_box);
            add_to_count(
                &mut column_counts,
                forced_columns[0] | forced_columns[1] << 9 | forced_columns[2] << 18,
            );
            add_to_count(
                &mut row_counts,
                forced_rows[0] | forced_rows[1] << 1 | forced_rows[2] << 2,
            );
            for band in 0..3 {
                covered_in_columns[band] |= masks[band] & (forced_columns[band] * ROWS_OF_COLUMN);
                covered_in_rows[band] |= masks[band] & (forced_rows[band] * 0b111);
            }
        }
        if column_counts[2] | row_counts[2] != 0 {
            return true;
        }
        let full_columns = column_counts[0] & column_counts[1];
        let full_rows = row_counts[0] & row_counts[1];
        (0..3).any(|band| {
            let columns = ((full_columns >> (9 * band)) & 0x1FF) * ROWS_OF_COLUMN;
            let rows = ((full_rows >> band) & ROW_TRIAD_STARTS) * 0b111;
            (columns & !covered_in_columns[band]) | (rows & !covered_in_rows[band]) != 0
        })
    }

    /// True when the givens alone force more digits into some triad than its cells can take;
    /// `self` is the board of the givens, `boxes` the digits given in each box. A digit given
    /// in two boxes of a stack has one column of the stack left, and in the third box only
    /// that column's triad: the squeeze [`Board::has_overfilled_triad`] sees, seen here on the
    /// givens before any propagation, where a board without a solution is cheapest to decide.
    /// Likewise a digit given in two boxes of a band. Three such digits in one box are rare
    /// on a proper puzzle of fewer than 30 givens (none of 17-clue's 49,158 puzzles, 102 of
    /// magictour's 1,465, a quarter of diabolical's), so most calls end after some 60
    /// instructions on the boxes' digit masks, all nine boxes at once; only a box with three
    /// looks at the candidates.
    #[inline(always)]
    pub(super) fn givens_overfill_a_triad(&self, boxes: &GivenBoxes) -> bool {
        let lined = lined_digits(boxes);
        let crowded = crowded_boxes(&lined);
        (crowded[0] | crowded[1] | crowded[2]) != 0
            && crowded_box_overfills_a_triad(&self.cands, &lined, &crowded)
    }

    /// True when some row, column or box cannot hold its nine digits in distinct cells: then
    /// neither this board nor any board below it has a solution. Only the unsolved cells are
    /// matched: a placed digit is already out of its units' other cells.
    #[cold]
    #[inline(never)]
    pub(super) fn has_unmatchable_unit(&self) -> bool {
        let digits_of = self.unsolved_digits();
        UNITS
            .iter()
            .any(|unit| perfect_matching(&unit.map(|cell| digits_of[usize::from(cell)])).is_none())
    }

    /// The stronger check, for searches that have run long: the all-different rule
    /// enforced on every unit (a candidate that no matching of its unit uses is removed,
    /// which is every naked and hidden subset at once; Régin's filtering, ours on bit
    /// masks), and the band rules run again after each round, until a contradiction or
    /// nothing left to remove. True on a contradiction. It sees squeezes that only appear
    /// once subsets in other units have removed candidates.
    #[cold]
    #[inline(never)]
    pub(super) fn is_refuted_by_all_different(&self) -> bool {
        let mut board = *self;
        loop {
            let digits_of = board.unsolved_digits();
            let mut removed = false;
            for unit in &UNITS {
                let candidates = unit.map(|cell| digits_of[usize::from(cell)]);
                let Some(kept) = matchable_candidates(&candidates) else {
                    return true;
                };
                for (&cell, (&had, &keeps)) in unit.iter().zip(candidates.iter().zip(&kept)) {
                    let mut gone = had & !keeps;
                    let (band, pos) = (usize::from(cell) / 27, usize::from(cell) % 27);
                    while gone != 0 {
                        let digit = gone.trailing_zeros() as usize;
                        gone &= gone - 1;
                        board.cands[3 * digit + band] &= !(1 << pos);
                        removed = true;
                    }
                }
            }
            if !removed {
                return false;
            }
            if board.propagate::<Portable>(Rules::Full).is_err() {
                return true;
            }
        }
    }

    /// An unsolved cell (band, position) every candidate of which the band rules refute once
    /// placed there, if there is one: then the board has no solution, though neither the
    /// band rules nor the all-different rule see it on the board itself (failed-literal
    /// probing, as SAT solvers do it). The search may have branched on other cells all the
    /// way down, each subtree refuted the long way: the cell it never picked refutes them all.
    #[cold]
    #[inline(never)]
    pub(super) fn refuting_cell(&self) -> Option<(usize, usize)> {
        (0..3).find_map(|band| {
            let mut cells = self.unsolved[band];
            while cells != 0 {
                let pos = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                if self.is_refuted_at(band, pos) {
                    return Some((band, pos));
                }
            }
            None
        })
    }

    /// Whether every candidate of cell `pos` of `band`, placed there, is refuted by the band
    /// rules; false for a solved cell.
    #[cold]
    #[inline(never)]
    pub(super) fn is_refuted_at(&self, band: usize, pos: usize) -> bool {
        if self.unsolved[band] & (1 << pos) == 0 {
            return false;
        }
        (0..9)
            .filter(|&digit| self.cands[3 * digit + band] & (1 << pos) != 0)
            .all(|digit| {
                let mut probe = *self;
                probe.place(digit, band, pos);
                probe.propagate::<Portable>(Rules::Full).is_err()
            })
    }

    /// The candidates (bit `d` for digit `d`) of each unsolved cell; 0 for a solved one.
    fn unsolved_digits(&self) -> [u16; CELLS] {
        let mut digits_of = [0u16; CELLS];
        for (i, &mask) in self.cands.iter().enumerate() {
            let (digit, band) = (i / 3, i % 3);
            let mut cells = mask & self.unsolved[band];
            while cells != 0 {
                digits_of[27 * band + cells.trailing_zeros() as usize] |= 1 << digit;
                cells &= cells - 1;
            }
        }
        digits_of
    }
}

/// Of each cell's `candidates`, those that some perfect matching of the unit gives it;
/// `None` when there is no perfect matching. With every unplaced digit matched, a cell `i`
/// may take digit `d`, matched to cell `j`, exactly when `i` and `j` lie on one cycle of
/// the graph where each cell points to the cells matched to its other candidates.
fn matchable_candidates(candidates: &[u16; 9]) -> Option<[u16; 9]> {
    let cell_of_digit = perfect_matching(candidates)?;
    let mut reach = [0u16; 9];
    for (cell, &digits) in candidates.iter().enumerate() {
        let mut others = digits;
        while others != 0 {
            let digit = others.trailing_zeros() as usize;
            others &= others - 1;
            if cell_of_digit[digit] != UNMATCHED {
                reach[cell] |= 1 << cell_of_digit[digit];
            }
        }
    }
    // Warshall's transitive closure on bit masks.
    for via in 0..9 {
        for cell in 0..9 {
            if reach[cell] & (1 << via) != 0 {
                reach[cell] |= reach[via];
            }
        }
    }
    let mut kept = [0u16; 9];
    for (cell, &digits) in candidates.iter().enumerate() {
        let mut each = digits;
        while each != 0 {
            let digit = each.trailing_zeros() as usize;
            each &= each - 1;
            let holder = usize::from(cell_of_digit[digit]);
            if holder == cell || (holder < 9 && reach[holder] & (1 << cell) != 0) {
                kept[cell] |= 1 << digit;
            }
        }
    }
    Some(kept)
}

/// A matching of each cell with candidates (an unsolved one) to a different digit among
/// its `candidates` (bit `d` for digit `d`), as the cell of each digit (unmatched digits
/// [`UNMATCHED`]); `None` when there is none. Each cell takes its lowest free digit, and
/// only a cell left with none looks for an augmenting path (Kuhn's), which on a board the
/// band rules have propagated is rare.
fn perfect_matching(candidates: &[u16; 9]) -> Option<[u8; 9]> {
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
            return None;
        }
    }
    Some(cell_of_digit)
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

    /// The board of `line`, propagated.
    fn propagated(line: &str) -> Board {
        let mut board = Board::from_grid(&Grid::from_line(line).unwrap()).unwrap();
        assert!(board.propagate::<Portable>(Rules::Full).is_ok());
        board
    }

    /// The board of `line`, as set up from its givens.
    fn given(line: &str) -> Board {
        Board::from_grid(&Grid::from_line(line).unwrap()).unwrap()
    }

    /// `line` turned about the main diagonal: rows become columns.
    fn transposed(line: &str) -> String {
        let cells: Vec<char> = line.chars().collect();
        (0..81).map(|i| cells[9 * (i % 9) + i / 9]).collect()
    }

    #[test]
    fn digits_forced_into_a_triad_beyond_what_its_cells_take_are_seen() {
        // 1, 5 and 6 must go to column 4's cells of rows 6 to 8 (boxes 1 and 4 hold them),
        // and row 6 holds all three, so its cell there can take none: a full triad with a
        // cell left out. Seen in columns, and in rows once the board is turned.
        let squeezed =
            ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........";
        assert!(given(squeezed).has_overfilled_triad());
        assert!(given(&transposed(squeezed)).has_overfilled_triad());
        assert!(propagated(squeezed).has_overfilled_triad());
        // With a fourth digit given in that triad, four digits are forced into three cells.
        let mut four = squeezed.to_string();
        four.replace_range(58..59, "9");
        assert!(given(&four).has_overfilled_triad());
        // Without the givens of 5 in boxes 1 and 4, 5 may go elsewhere in the column.
        let relieved =
            "............6.1.43..........1..........1.6...3.......553.....61........4.........";
        assert!(!given(relieved).has_overfilled_triad());
        assert!(!given(&transposed(relieved)).has_overfilled_triad());
    }

    /// Whether the givens of `line` overfill a triad, as the search asks before propagating.
    fn givens_overfill(line: &str) -> bool {
        let (board, boxes) = Board::from_givens(&Grid::from_line(line).unwrap()).unwrap();
        board.givens_overfill_a_triad(&boxes)
    }

    #[test]
    fn digits_given_in_two_boxes_that_overfill_a_triad_are_seen_on_the_givens() {
        // Boxes 1 and 4 hold 1, 5 and 6, in columns 3 and 5: all three are left column 4
        // in box 7, whose cell in row 6 takes none of them. In rows once the board is turned.
        let squeezed =
            ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........";
        assert!(givens_overfill(squeezed));
        assert!(givens_overfill(&transposed(squeezed)));
        // Without the 5 of box 4, two digits are left to column 4 there: no squeeze seen.
        let mut relieved = squeezed.to_string();
        relieved.replace_range(30..31, ".");
        assert!(!givens_overfill(&relieved));
        assert!(!givens_overfill(&transposed(&relieved)));
        // With a 9 given in boxes 1 and 4 as well, four digits are left to that triad (two
        // without the 5 of box 4 and the 1s).
        let mut four = relieved.clone();
        four.replace_range(21..22, "9");
        four.replace_range(32..33, "9");
        assert!(!givens_overfill(&four.replace('1', ".")));
        four.replace_range(30..31, "5");
        assert!(givens_overfill(&four));
    }

    #[test]
    fn no_proper_puzzle_has_its_givens_overfill_a_triad() {
        // The check only sees what must hold in every solution, so no puzzle with one may
        // fail it: every puzzle of the committed sets, most of them with three digits given
        // in two boxes of a stack or band somewhere (every one of Serg's).
        for set in crate::puzzle_sets::ALL {
            for puzzle in crate::puzzle_sets::spread(set, 2_000) {
                assert!(!givens_overfill(&puzzle.to_line()), "{set}: {puzzle}");
            }
        }
    }

    #[test]
    fn no_board_with_a_solution_has_an_overfilled_triad() {
        // Every triad of a solution holds the digits forced into it, so no board between the
        // givens and a solution may fail the check: the puzzles of the committed sets, and
        // those boards with part of their solution filled in.
        for set in [
            "puzzles3_magictour_top1465",
            "puzzles2_17_clue",
            "msolve_hardest_to_solve",
        ] {
            for puzzle in crate::puzzle_sets::spread(set, 100) {
                let solution = crate::Solver::default().solve(&puzzle).unwrap();
                assert!(!propagated(&puzzle.to_line()).has_overfilled_triad());
                let mut half = *puzzle.cells();
                for (i, cell) in half.iter_mut().enumerate().filter(|(i, _)| i % 3 == 0) {
                    *cell = solution.cells()[i];
                }
                let half = Grid::from_cells(half).unwrap().to_line();
                assert!(!propagated(&half).has_overfilled_triad(), "{half}");
            }
        }
    }

    #[test]
    fn subsets_that_squeeze_another_unit_are_seen_by_the_all_different_rule() {
        // Found by examples/hard_to_decide: every unit has a matching here, but 7 and 9 are
        // pairs in row 3, row 8 and column 6, whose subsets leave column 8's cells in rows
        // 1 to 3 with only 7 and 9. It took 198,287 guesses with the matching check alone.
        let mut board = Board::from_grid(
            &Grid::from_line(
                ".............4.2........3........8...9.732...7....9....7..9...49...7...8.......2.",
            )
            .unwrap(),
        )
        .unwrap();
        assert!(board.propagate::<Portable>(Rules::Full).is_ok());
        assert!(!board.has_unmatchable_unit());
        assert!(board.is_refuted_by_all_different());
    }

    #[test]
    fn a_cell_whose_every_candidate_fails_refutes_the_board() {
        // Found by examples/hard_to_decide --unsolvable: no rule refutes the board itself,
        // but each of row 2, column 1's five candidates is refuted by the band rules. It took
        // 116,248 guesses before the probing.
        let mut board = Board::from_grid(
            &Grid::from_line(
                "..................4...583..3......48......1.....6.2...5..........62......4.3...62",
            )
            .unwrap(),
        )
        .unwrap();
        assert!(board.propagate::<Portable>(Rules::Full).is_ok());
        assert!(!board.is_refuted_by_all_different());
        let (band, pos) = board.refuting_cell().expect("a refuting cell");
        assert!(board.is_refuted_at(band, pos));
        assert!(board.is_refuted_at(0, 18 + 1), "row 2, column 1");
        let solved = Board::from_grid(&Grid::from_line(crate::CLASSIC_PUZZLE).unwrap()).unwrap();
        assert_eq!(solved.refuting_cell(), None);
    }

    #[test]
    fn the_all_different_rule_keeps_what_some_matching_uses() {
        // Cells 0 and 1 hold {0, 1} between them, so cell 2 loses 0 and 1; cell 3 keeps all.
        let candidates = [0b011, 0b011, 0b111, 0b1000, 0, 0, 0, 0, 0];
        assert_eq!(
            matchable_candidates(&candidates),
            Some([0b011, 0b011, 0b100, 0b1000, 0, 0, 0, 0, 0])
        );
        assert_eq!(matchable_candidates(&[0b1, 0b1, 0, 0, 0, 0, 0, 0, 0]), None);
    }

    #[test]
    fn the_all_different_rule_agrees_with_every_matching() {
        // Six open cells and the six digits 0..6, on pseudo-random masks: a candidate is kept
        // exactly when one of the 720 assignments that give every cell a distinct digit of
        // its own uses it.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut permutations = Vec::new();
        let mut items = [0usize, 1, 2, 3, 4, 5];
        permute(&mut items, 0, &mut permutations);
        for _ in 0..2_000 {
            let mut candidates = [0u16; 9];
            for mask in &mut candidates[..6] {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *mask = ((state as u16) | (state >> 20) as u16) & 0x3F;
                *mask |= 1 << ((state >> 40) % 6);
            }
            let mut used = [0u16; 9];
            let mut any = false;
            for perm in &permutations {
                if (0..6).all(|cell| candidates[cell] & (1 << perm[cell]) != 0) {
                    any = true;
                    for cell in 0..6 {
                        used[cell] |= 1 << perm[cell];
                    }
                }
            }
            let expected = any.then_some(used);
            assert_eq!(
                matchable_candidates(&candidates),
                expected,
                "{candidates:?}"
            );
        }
    }

    fn permute(items: &mut [usize; 6], at: usize, all: &mut Vec<[usize; 6]>) {
        if at == items.len() {
            all.push(*items);
            return;
        }
        for i in at..items.len() {
            items.swap(at, i);
            permute(items, at + 1, all);
            items.swap(at, i);
        }
    }

    #[test]
    fn boards_on_the_way_to_a_solution_are_never_refuted() {
        // Each puzzle with some of its solution's cells added at random: still solvable, so
        // neither check may refute it.
        let hardest = crate::puzzle_sets::read(crate::puzzle_sets::path("msolve_hardest_to_solve"))
            .unwrap_or_else(|err| panic!("{err}"));
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        for (number, puzzle) in hardest.into_iter().take(60) {
            let solution = crate::Solver::default().solve(&puzzle).unwrap();
            for extra in [0, 5, 10, 20] {
                let mut cells = *puzzle.cells();
                for _ in 0..extra {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let cell = (state % 81) as usize;
                    cells[cell] = solution.cells()[cell];
                }
                let mut board = Board::from_grid(&Grid::from_cells(cells).unwrap()).unwrap();
                assert!(
                    board.propagate::<Portable>(Rules::Full).is_ok(),
                    "line {number}"
                );
                assert!(
                    !board.has_unmatchable_unit(),
                    "line {number}, {extra} extra"
                );
                assert!(
                    !board.is_refuted_by_all_different(),
                    "line {number}, {extra} extra"
                );
            }
        }
    }

    #[test]
    fn a_solvable_board_passes() {
        let board = Board::from_grid(&Grid::from_line(crate::CLASSIC_PUZZLE).unwrap()).unwrap();
        assert!(!board.has_unmatchable_unit());
        assert!(!board.is_refuted_by_all_different());
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
            assert_eq!(
                perfect_matching(&candidates).is_some(),
                hall,
                "{candidates:?}"
            );
        }
    }
}
