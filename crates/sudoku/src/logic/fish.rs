//! Fish on one digit: X-wing, swordfish and jellyfish, plain and finned.
//!
//! `k` base lines (rows, or columns) whose candidates for the digit all lie in `k` cover
//! lines of the other direction: the `k` copies of the digit in the base lines fill the
//! cover lines, so it leaves the rest of each cover line. A finned fish has extra base
//! candidates (fins) all in one box: either a fin is true, or the fish is; a cover
//! candidate in the fins' box (outside the base lines) sees every fin, so it goes either
//! way (the idea as HoDoKu's write-up explains it). SE has no finned fish: it finds the
//! same eliminations as forcing X-chains, so we rate them on that band.

use super::candidates::{Candidates, UNIT_MASK, box_of, cells_of};
use super::step::{Step, Technique};
use super::subsets::subsets_of_size;

/// The positions (0..9) of `digit` along each line of one direction: for rows, the
/// columns; for columns, the rows.
fn line_positions(state: &Candidates, digit: u8, rows: bool) -> [u16; 9] {
    let plane = state.cells_with(digit);
    let mut positions = [0u16; 9];
    for cell in cells_of(plane) {
        let (line, across) = if rows {
            (cell / 9, cell % 9)
        } else {
            (cell % 9, cell / 9)
        };
        positions[line] |= 1 << across;
    }
    positions
}

/// The cells of the lines of a 9-bit mask, of one direction (0 rows, 9 columns).
fn lines_mask(lines: u16, base: usize) -> u128 {
    LINE_CELLS[base / 9][usize::from(lines)]
}

const fn build_line_cells() -> [[u128; 512]; 2] {
    let mut table = [[0u128; 512]; 2];
    let mut dir = 0;
    while dir < 2 {
        let mut lines = 0;
        while lines < 512 {
            let mut l = 0;
            while l < 9 {
                if lines >> l & 1 == 1 {
                    table[dir][lines] |= UNIT_MASK[dir * 9 + l];
                }
                l += 1;
            }
            lines += 1;
        }
        dir += 1;
    }
    table
}

/// [`lines_mask`] for every set of lines, rows then columns: the fish searches ask it in
/// their innermost loops.
static LINE_CELLS: [[u128; 512]; 2] = build_line_cells();

fn rated(k: u32, finned: bool) -> (Technique, u16) {
    match (k, finned) {
        (2, false) => (Technique::XWing, 32),
        (3, false) => (Technique::Swordfish, 38),
        (4, false) => (Technique::Jellyfish, 52),
        (2, true) => (Technique::FinnedXWing, 66),
        (3, true) => (Technique::FinnedSwordfish, 67),
        _ => (Technique::FinnedJellyfish, 68),
    }
}

/// A plain fish of size `k` (X-wing 3.2, swordfish 3.8, jellyfish 5.2).
pub(crate) fn fish(state: &Candidates, k: u32) -> Option<Step> {
    for digit in 1..=9 {
        for rows in [true, false] {
            let positions = line_positions(state, digit, rows);
            let eligible = (0..9)
                .filter(|&l| (2..=k).contains(&positions[l].count_ones()))
                .fold(0u16, |m, l| m | 1 << l);
            for base in subsets_of_size(eligible, k) {
                let cover = (0..9)
                    .filter(|l| base >> l & 1 == 1)
                    .fold(0u16, |m, l| m | positions[l]);
                if cover.count_ones() != k {
                    continue;
                }
                let (base_units, cover_units) = if rows { (0, 9) } else { (9, 0) };
                let base_cells = lines_mask(base, base_units);
                let gone = lines_mask(cover, cover_units) & state.cells_with(digit) & !base_cells;
                if gone == 0 {
                    continue;
                }
                let (technique, rating) = rated(k, false);
                return Some(fish_step(
                    technique,
                    rating,
                    digit,
                    base_cells & state.cells_with(digit),
                    base,
                    cover,
                    base_units,
                    cover_units,
                    gone,
                ));
            }
        }
    }
    None
}

/// A finned (or sashimi) fish of size `k`.
pub(crate) fn finned_fish(state: &Candidates, k: u32) -> Option<Step> {
    for digit in 1..=9 {
        let plane = state.cells_with(digit);
        for rows in [true, false] {
            let positions = line_positions(state, digit, rows);
            let eligible = (0..9)
                .filter(|&l| positions[l] != 0)
                .fold(0u16, |m, l| m | 1 << l);
            let (base_units, cover_units) = if rows { (0, 9) } else { (9, 0) };
            for base in subsets_of_size(eligible, k) {
                let union = (0..9)
                    .filter(|l| base >> l & 1 == 1)
                    .fold(0u16, |m, l| m | positions[l]);
                // Fins lie in one box, so in at most three crossing lines.
                let n = union.count_ones();
                if n <= k || n > k + 3 {
                    continue;
                }
                let base_cells = lines_mask(base, base_units) & plane;
                for cover in subsets_of_size(union, k) {
                    // The fins' crossing lines must lie in one band or stack of boxes.
                    let rest = union & !cover;
                    if rest & !0o7 != 0 && rest & !0o70 != 0 && rest & !0o700 != 0 {
                        continue;
                    }
                    let fins = base_cells & !lines_mask(cover, cover_units);
                    let fin_box = box_of(fins.trailing_zeros() as usize);
                    if fins & !UNIT_MASK[18 + fin_box] != 0 {
                        continue;
                    }
                    let gone = lines_mask(cover, cover_units)
                        & UNIT_MASK[18 + fin_box]
                        & plane
                        & !lines_mask(base, base_units);
                    if gone == 0 {
                        continue;
                    }
                    let (technique, rating) = rated(k, true);
                    let mut step = fish_step(
                        technique,
                        rating,
                        digit,
                        base_cells,
                        base,
                        cover,
                        base_units,
                        cover_units,
                        gone,
                    );
                    step.units.push(18 + fin_box);
                    return Some(step);
                }
            }
        }
    }
    None
}

#[allow(clippy::too_many_arguments)]
fn fish_step(
    technique: Technique,
    rating: u16,
    digit: u8,
    cells: u128,
    base: u16,
    cover: u16,
    base_units: usize,
    cover_units: usize,
    gone: u128,
) -> Step {
    let mut step = Step::new(technique, rating);
    step.cells = cells_of(cells).collect();
    step.units = (0..9)
        .filter(|l| base >> l & 1 == 1)
        .map(|l| base_units + l)
        .chain(
            (0..9)
                .filter(|l| cover >> l & 1 == 1)
                .map(|l| cover_units + l),
        )
        .collect();
    step.eliminations = cells_of(gone).map(|c| (c, digit)).collect();
    step
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::candidates::{ALL_DIGITS, bit};

    /// A blank position where digit 7 is allowed only in the cells given and in rows
    /// other than those the cells lie in.
    fn seven_in_rows(cells: &[usize]) -> Candidates {
        let mut masks = [ALL_DIGITS; 81];
        for &cell in cells {
            for c in (cell / 9 * 9)..(cell / 9 * 9 + 9) {
                if !cells.contains(&c) {
                    masks[c] &= !bit(7);
                }
            }
        }
        Candidates::from_masks(masks)
    }

    #[test]
    fn an_x_wing_on_rows_clears_its_columns() {
        // 7 in row 2 only at c2, c8; in row 6 only at c2, c8.
        let state = seven_in_rows(&[10, 16, 46, 52]);
        let step = fish(&state, 2).unwrap();
        assert_eq!(step.technique, Technique::XWing);
        assert_eq!(step.units, [1, 5, 10, 16]);
        // Columns 2 and 8 lose 7 in the seven other rows.
        assert_eq!(step.eliminations.len(), 14);
        assert!(step.eliminations.contains(&(1, 7)));
        assert!(!step.eliminations.contains(&(10, 7)));
    }

    #[test]
    fn a_swordfish_needs_three_lines_and_no_x_wing() {
        // 7 in rows 1, 5, 9 at columns {1,4}, {4,7}, {1,7}.
        let state = seven_in_rows(&[0, 3, 39, 42, 72, 78]);
        assert!(fish(&state, 2).is_none());
        let step = fish(&state, 3).unwrap();
        assert_eq!(step.technique, Technique::Swordfish);
        assert_eq!(step.eliminations.len(), 3 * 6);
        assert!(step.eliminations.contains(&(9, 7)));
    }

    #[test]
    fn a_finned_x_wing_clears_only_what_sees_the_fin() {
        // Row 2: 7 at c2, c8; row 6: 7 at c2, c8 and a fin at c9 (box 6).
        let state = seven_in_rows(&[10, 16, 46, 52, 53]);
        assert!(fish(&state, 2).is_none());
        let step = finned_fish(&state, 2).unwrap();
        assert_eq!(step.technique, Technique::FinnedXWing);
        // Column 8 cells in box 6 outside rows 2 and 6: r5c8 and r4c8.
        let mut gone = step.eliminations.clone();
        gone.sort_unstable();
        assert_eq!(gone, [(34, 7), (43, 7)]);
    }
}
