//! Singles: the last open cell of a unit, the one place left for a digit in a unit, and
//! the one digit left for a cell. SE rates them apart (1.0, 1.2 in a box, 1.5 in a line,
//! 2.3 for a naked single) because a person sees them with different effort.

use super::candidates::{Candidates, UNIT_CELLS, UNIT_MASK, UNITS, bit, digits_of, units_of};
use super::step::{Step, Technique};

/// Last value in a unit (SE 1.0): a unit with one open cell.
pub(crate) fn last_value(state: &Candidates) -> Option<Step> {
    (0..UNITS).find_map(|unit| {
        let mut open = UNIT_CELLS[unit]
            .iter()
            .filter(|&&c| state.digit(c.into()) == 0);
        let cell = usize::from(*open.next()?);
        if open.next().is_some() || state.mask(cell).count_ones() != 1 {
            return None;
        }
        let digit = digits_of(state.mask(cell)).next()?;
        let mut step = Step::new(Technique::LastValue, 10);
        step.cells.push(cell);
        step.units.push(unit);
        step.placements.push((cell, digit));
        Some(step)
    })
}

/// The one place left for a digit in a unit, boxes (SE 1.2) or lines (SE 1.5).
pub(crate) fn hidden_single(state: &Candidates, in_boxes: bool) -> Option<Step> {
    let (units, technique, rating) = if in_boxes {
        (18..27, Technique::HiddenSingleBox, 12)
    } else {
        (0..18, Technique::HiddenSingleLine, 15)
    };
    for unit in units {
        for digit in 1..=9 {
            let places = state.cells_with(digit) & UNIT_MASK[unit];
            if places.is_power_of_two() && state.placed_in(unit) & bit(digit) == 0 {
                let cell = places.trailing_zeros() as usize;
                let mut step = Step::new(technique, rating);
                step.cells.push(cell);
                step.units.push(unit);
                step.placements.push((cell, digit));
                return Some(step);
            }
        }
    }
    None
}

/// A cell with one candidate left (SE 2.3).
pub(crate) fn naked_single(state: &Candidates) -> Option<Step> {
    (0..81).find_map(|cell| {
        let mask = state.mask(cell);
        mask.is_power_of_two().then(|| {
            let mut step = Step::new(Technique::NakedSingle, 23);
            step.cells.push(cell);
            step.placements
                .push((cell, mask.trailing_zeros() as u8 + 1));
            step
        })
    })
}

/// The hidden single that removing `eliminations` would leave in a unit of a cell they
/// touch, if any, as `(cell, digit)`. SE calls a step "direct" when it does, and rates it
/// below its general form: a person spots the single without writing pencil marks.
/// Only meaningful when no hidden single was there before (the driver tries singles first).
pub(crate) fn created_hidden_single(
    state: &Candidates,
    eliminations: &[(usize, u8)],
) -> Option<(usize, u8)> {
    for &(cell, digit) in eliminations {
        let removed = eliminations
            .iter()
            .filter(|&&(_, d)| d == digit)
            .fold(0u128, |set, &(c, _)| set | 1 << c);
        let left = state.cells_with(digit) & !removed;
        for unit in units_of(cell) {
            let places = left & UNIT_MASK[unit];
            if places.is_power_of_two() && state.placed_in(unit) & bit(digit) == 0 {
                return Some((places.trailing_zeros() as usize, digit));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CLASSIC_PUZZLE, Grid};

    fn state(line: &str) -> Candidates {
        Candidates::from_grid(&Grid::from_line(line).unwrap()).unwrap()
    }

    #[test]
    fn the_last_open_cell_of_a_row_takes_the_missing_digit() {
        // Row 1 holds 1..8 but for its last cell: it must be 9.
        let line = format!("12345678.{}", ".".repeat(72));
        let step = last_value(&state(&line)).unwrap();
        assert_eq!(step.placements, [(8, 9)]);
        assert_eq!(step.units, [0]);
    }

    #[test]
    fn hidden_singles_in_a_box_come_apart_from_those_in_a_line() {
        // Whatever single is found first must be the only place of its digit in its unit,
        // of the kind asked for, and agree with the known solution.
        let s = state(CLASSIC_PUZZLE);
        for in_boxes in [true, false] {
            let step = hidden_single(&s, in_boxes).unwrap();
            let (cell, digit) = step.placements[0];
            let unit = step.units[0];
            assert_eq!(unit >= 18, in_boxes);
            let places: Vec<u8> = UNIT_CELLS[unit]
                .iter()
                .copied()
                .filter(|&c| s.has(c.into(), digit))
                .collect();
            assert_eq!(places, [cell as u8]);
            let solution = Grid::from_line(crate::CLASSIC_SOLUTION).unwrap();
            assert_eq!(solution.cells()[cell], digit);
        }
    }

    #[test]
    fn a_cell_seeing_eight_digits_is_a_naked_single() {
        // r1c1 sees 1..4 in its row, 5..8 in its column: only 9 is left.
        let mut line = vec![b'.'; 81];
        line[1..5].copy_from_slice(b"1234");
        for (k, d) in (b'5'..=b'8').enumerate() {
            line[(k + 1) * 9] = d;
        }
        let s = state(std::str::from_utf8(&line).unwrap());
        let step = naked_single(&s).unwrap();
        assert_eq!(step.placements, [(0, 9)]);
        assert_eq!(step.rating.0, 23);
    }
}
