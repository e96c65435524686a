//! The pencil-mark state: which digits each open cell may still hold, which digits are
//! placed, and the unit and peer tables every technique reads.
//!
//! Cells are numbered 0..81 row-major. Units are numbered 0..27: rows 0..9, columns 9..18,
//! boxes 18..27 (row-major). A set of cells is a `u128` with bit `cell` set (81 bits used),
//! so "the cells of a unit that still allow digit d" is one AND of two masks.

use crate::{CELLS, Grid};

/// A set of cells, bit `cell` for each member.
pub type CellSet = u128;

/// The nine digits as a 9-bit mask: bit `d - 1` for digit `d`.
pub const ALL_DIGITS: u16 = 0x1FF;

/// Number of units (9 rows, 9 columns, 9 boxes).
pub const UNITS: usize = 27;

/// The row of a cell.
pub const fn row_of(cell: usize) -> usize {
    cell / 9
}

/// The column of a cell.
pub const fn col_of(cell: usize) -> usize {
    cell % 9
}

/// The box of a cell, 0..9 row-major.
pub const fn box_of(cell: usize) -> usize {
    cell / 27 * 3 + cell % 9 / 3
}

/// The three units of a cell: its row, column and box, as unit numbers.
pub const fn units_of(cell: usize) -> [usize; 3] {
    [row_of(cell), 9 + col_of(cell), 18 + box_of(cell)]
}

/// The bit of one digit `1..=9`.
pub const fn bit(digit: u8) -> u16 {
    1 << (digit - 1)
}

const fn build_unit_cells() -> [[u8; 9]; UNITS] {
    let mut units = [[0u8; 9]; UNITS];
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

/// The nine cells of each unit, in unit order (left to right, top to bottom).
pub const UNIT_CELLS: [[u8; 9]; UNITS] = build_unit_cells();

const fn build_unit_masks() -> [CellSet; UNITS] {
    let mut masks = [0u128; UNITS];
    let mut u = 0;
    while u < UNITS {
        let mut k = 0;
        while k < 9 {
            masks[u] |= 1u128 << UNIT_CELLS[u][k];
            k += 1;
        }
        u += 1;
    }
    masks
}

/// The cells of each unit as a set.
pub const UNIT_MASK: [CellSet; UNITS] = build_unit_masks();

const fn build_peer_masks() -> [CellSet; CELLS] {
    let mut peers = [0u128; CELLS];
    let mut c = 0;
    while c < CELLS {
        let units = units_of(c);
        peers[c] =
            (UNIT_MASK[units[0]] | UNIT_MASK[units[1]] | UNIT_MASK[units[2]]) & !(1u128 << c);
        c += 1;
    }
    peers
}

/// The 20 peers of each cell (the cells sharing a unit with it, itself excluded).
pub const PEERS: [CellSet; CELLS] = build_peer_masks();

/// Every cell of the grid.
pub const ALL_CELLS: CellSet = (1u128 << CELLS) - 1;

/// The cells of a set, lowest first.
pub fn cells_of(set: CellSet) -> impl Iterator<Item = usize> {
    let mut rest = set;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            cell
        })
    })
}

/// The digits of a 9-bit mask, lowest first.
pub fn digits_of(mask: u16) -> impl Iterator<Item = u8> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let digit = rest.trailing_zeros() as u8 + 1;
            rest &= rest - 1;
            digit
        })
    })
}

/// Why a position has no consistent pencil marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Contradiction {
    /// Two givens repeat a digit in a unit.
    #[error("the givens repeat digit {digit} in a unit (at {})", crate::CellName(*.cell))]
    ClashingGivens {
        /// The second cell holding the digit.
        cell: usize,
        /// The repeated digit.
        digit: u8,
    },
}

/// The pencil-mark state of a position: for each open cell the digits it may still hold,
/// for each filled cell its digit, kept in step with one cell set per digit.
///
/// Every method keeps the invariant that a placed digit is a candidate of none of its
/// peers; candidates are only ever removed, so a sound step can never be undone.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Candidates {
    /// Candidate digits of each open cell; 0 for a filled cell.
    masks: [u16; CELLS],
    /// The digit of each filled cell; 0 for an open cell.
    placed: [u8; CELLS],
    /// For digit d (index d - 1), the open cells that still allow it.
    planes: [CellSet; 9],
    /// For each unit, the digits already placed in it.
    unit_placed: [u16; UNITS],
}

impl Candidates {
    /// The pencil marks of a grid: every open cell allows every digit its peers do not hold.
    ///
    /// # Errors
    /// [`Contradiction::ClashingGivens`] when two givens repeat a digit in a unit.
    pub fn from_grid(grid: &Grid) -> Result<Candidates, Contradiction> {
        let mut state = Candidates::from_masks([ALL_DIGITS; CELLS]);
        for (cell, &digit) in grid.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            if state.masks[cell] & bit(digit) == 0 {
                return Err(Contradiction::ClashingGivens { cell, digit });
            }
            state.place(cell, digit);
        }
        Ok(state)
    }

    /// A position given by its pencil marks alone (as in Sukaku): every cell open, cell
    /// `c` allowing the digits of `masks[c]` (bits above the ninth are ignored).
    pub fn from_masks(masks: [u16; CELLS]) -> Candidates {
        let mut state = Candidates {
            masks: [0; CELLS],
            placed: [0; CELLS],
            planes: [0; 9],
            unit_placed: [0; UNITS],
        };
        for (cell, &mask) in masks.iter().enumerate() {
            let mask = mask & ALL_DIGITS;
            state.masks[cell] = mask;
            for digit in digits_of(mask) {
                state.planes[usize::from(digit - 1)] |= 1 << cell;
            }
        }
        state
    }

    /// The candidate digits of a cell as a 9-bit mask; 0 when the cell is filled.
    pub fn mask(&self, cell: usize) -> u16 {
        self.masks[cell]
    }

    /// True when `digit` is still a candidate of `cell`.
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.masks[cell] & bit(digit) != 0
    }

    /// The digit placed in a cell, 0 when it is open.
    pub fn digit(&self, cell: usize) -> u8 {
        self.placed[cell]
    }

    /// The open cells that still allow `digit`.
    pub fn cells_with(&self, digit: u8) -> CellSet {
        self.planes[usize::from(digit - 1)]
    }

    /// The digits already placed in a unit.
    pub fn placed_in(&self, unit: usize) -> u16 {
        self.unit_placed[unit]
    }

    /// The open cells.
    pub fn open_cells(&self) -> CellSet {
        (0..CELLS)
            .filter(|&cell| self.placed[cell] == 0)
            .fold(0, |all, cell| all | 1u128 << cell)
    }

    /// Number of open cells.
    pub fn open_count(&self) -> usize {
        self.placed.iter().filter(|&&d| d == 0).count()
    }

    /// True when every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.placed.iter().all(|&d| d != 0)
    }

    /// True when the position is visibly impossible: an open cell without candidates, or a
    /// unit where a digit is neither placed nor possible.
    pub fn is_broken(&self) -> bool {
        if (0..CELLS).any(|c| self.placed[c] == 0 && self.masks[c] == 0) {
            return true;
        }
        (0..UNITS).any(|u| {
            let possible = self
                .planes
                .iter()
                .enumerate()
                .filter(|(_, plane)| *plane & UNIT_MASK[u] != 0)
                .fold(0u16, |all, (d, _)| all | 1 << d);
            possible | self.unit_placed[u] != ALL_DIGITS
        })
    }

    /// Fills `cell` with `digit` and removes `digit` from the candidates of its peers.
    ///
    /// # Panics
    /// When `cell` is off the grid or `digit` is not `1..=9`.
    pub fn place(&mut self, cell: usize, digit: u8) {
        assert!(cell < CELLS && (1..=9).contains(&digit), "bad placement");
        for d in digits_of(self.masks[cell]) {
            self.planes[usize::from(d - 1)] &= !(1u128 << cell);
        }
        self.masks[cell] = 0;
        self.placed[cell] = digit;
        for unit in units_of(cell) {
            self.unit_placed[unit] |= bit(digit);
        }
        let plane = &mut self.planes[usize::from(digit - 1)];
        let hit = *plane & PEERS[cell];
        *plane &= !hit;
        for peer in cells_of(hit) {
            self.masks[peer] &= !bit(digit);
        }
    }

    /// Removes `digit` from the candidates of `cell`; true when it was one.
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let was = self.has(cell, digit);
        self.masks[cell] &= !bit(digit);
        self.planes[usize::from(digit - 1)] &= !(1u128 << cell);
        was
    }

    /// The filled cells as a grid (open cells empty).
    ///
    /// # Panics
    /// Never: placed digits are kept in 1..=9 by construction.
    pub fn to_grid(&self) -> Grid {
        Grid::from_cells(self.placed).expect("placed digits are 0..=9")
    }
}

impl std::fmt::Debug for Candidates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for row in 0..9 {
            for col in 0..9 {
                let cell = row * 9 + col;
                let text: String = if self.placed[cell] != 0 {
                    format!("={}", self.placed[cell])
                } else {
                    digits_of(self.masks[cell])
                        .map(|d| char::from(b'0' + d))
                        .collect()
                };
                write!(f, "{text:>10}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CLASSIC_PUZZLE;

    #[test]
    fn tables_agree_with_the_geometry() {
        assert_eq!(box_of(40), 4);
        assert_eq!(box_of(80), 8);
        assert_eq!(box_of(29), 3);
        assert_eq!(UNIT_CELLS[18 + 4], [30, 31, 32, 39, 40, 41, 48, 49, 50]);
        for cell in 0..CELLS {
            assert_eq!(PEERS[cell].count_ones(), 20);
            for unit in units_of(cell) {
                assert!(UNIT_MASK[unit] >> cell & 1 == 1);
            }
        }
    }

    #[test]
    fn the_classic_puzzle_has_the_pencil_marks_a_person_would_write() {
        let grid = Grid::from_line(CLASSIC_PUZZLE).unwrap();
        let state = Candidates::from_grid(&grid).unwrap();
        // r1c3: row 1 holds 5,3,7; column 3 holds 8; box 1 holds 6,9,8 -> 1,2,4.
        assert_eq!(state.mask(2), bit(1) | bit(2) | bit(4));
        assert_eq!(state.digit(0), 5);
        assert_eq!(state.mask(0), 0);
        assert_eq!(state.open_count(), 81 - 30);
        assert!(!state.is_broken());
        assert_eq!(state.to_grid(), grid);
    }

    #[test]
    fn clashing_givens_are_refused() {
        let mut cells = [0u8; CELLS];
        cells[0] = 4;
        cells[80 - 8] = 4;
        let grid = Grid::from_cells(cells).unwrap();
        assert_eq!(
            Candidates::from_grid(&grid),
            Err(Contradiction::ClashingGivens { cell: 72, digit: 4 })
        );
    }
}
