//! Locked candidates: a digit of a box confined to one line (pointing) or a digit of a line
//! confined to one box (claiming) cannot lie elsewhere in the other unit. SE rates the
//! "direct" forms, whose eliminations leave a hidden single, below the general ones.

use super::candidates::{Candidates, UNIT_MASK, cells_of};
use super::singles::created_hidden_single;
use super::step::{Step, Technique};

/// Pointing (SE 2.6; direct 1.7). With `direct`, only a pointing that leaves a hidden
/// single, which it then places.
pub(crate) fn pointing(state: &Candidates, direct: bool) -> Option<Step> {
    for b in 0..9 {
        let boxed = 18 + b;
        // The three rows and three columns through box b.
        let lines = [
            b / 3 * 3,
            b / 3 * 3 + 1,
            b / 3 * 3 + 2,
            9 + b % 3 * 3,
            9 + b % 3 * 3 + 1,
            9 + b % 3 * 3 + 2,
        ];
        for digit in 1..=9 {
            let here = state.cells_with(digit) & UNIT_MASK[boxed];
            if here.count_ones() < 2 {
                continue;
            }
            for &line in &lines {
                if here & !UNIT_MASK[line] != 0 {
                    continue;
                }
                let gone = state.cells_with(digit) & UNIT_MASK[line] & !UNIT_MASK[boxed];
                if let Some(step) = locked(state, digit, here, gone, boxed, line, direct, true) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// Claiming (SE 2.8; direct 1.9). With `direct`, only a claiming that leaves a hidden
/// single, which it then places.
pub(crate) fn claiming(state: &Candidates, direct: bool) -> Option<Step> {
    for line in 0..18 {
        for digit in 1..=9 {
            let here = state.cells_with(digit) & UNIT_MASK[line];
            if here.count_ones() < 2 {
                continue;
            }
            let first = here.trailing_zeros() as usize;
            let boxed = 18 + super::candidates::box_of(first);
            if here & !UNIT_MASK[boxed] != 0 {
                continue;
            }
            let gone = state.cells_with(digit) & UNIT_MASK[boxed] & !UNIT_MASK[line];
            if let Some(step) = locked(state, digit, here, gone, line, boxed, direct, false) {
                return Some(step);
            }
        }
    }
    None
}

/// The step of a locked digit `here` in unit `from`, removing `gone` from unit `to`.
#[allow(clippy::too_many_arguments)]
fn locked(
    state: &Candidates,
    digit: u8,
    here: u128,
    gone: u128,
    from: usize,
    to: usize,
    direct: bool,
    pointing: bool,
) -> Option<Step> {
    if gone == 0 {
        return None;
    }
    let eliminations: Vec<(usize, u8)> = cells_of(gone).map(|c| (c, digit)).collect();
    let single = if direct {
        Some(created_hidden_single(state, &eliminations)?)
    } else {
        None
    };
    let (technique, rating) = match (pointing, direct) {
        (true, true) => (Technique::DirectPointing, 17),
        (false, true) => (Technique::DirectClaiming, 19),
        (true, false) => (Technique::Pointing, 26),
        (false, false) => (Technique::Claiming, 28),
    };
    let mut step = Step::new(technique, rating);
    step.cells = cells_of(here).collect();
    step.units = vec![from, to];
    step.eliminations = eliminations;
    step.placements.extend(single);
    Some(step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::candidates::{ALL_DIGITS, bit};

    /// A blank position with digit 5 removed from the cells given.
    fn without_five(cells: impl IntoIterator<Item = usize>) -> Candidates {
        let mut masks = [ALL_DIGITS; 81];
        for cell in cells {
            masks[cell] &= !bit(5);
        }
        Candidates::from_masks(masks)
    }

    #[test]
    fn a_digit_pointing_along_a_row_leaves_the_rest_of_the_row() {
        // In box 1, 5 is only in row 1 (rows 2 and 3 of the box have no 5).
        let state = without_five([9, 10, 11, 18, 19, 20]);
        let step = pointing(&state, false).unwrap();
        assert_eq!(step.technique, Technique::Pointing);
        let expected: Vec<(usize, u8)> = (3..9).map(|c| (c, 5)).collect();
        assert_eq!(step.eliminations, expected);
        assert!(pointing(&state, true).is_none(), "no single results");
    }

    #[test]
    fn a_pointing_that_leaves_a_hidden_single_is_direct() {
        // Box 1's 5 is in row 1; in box 2 the 5 is only in row 1 or at r2c4; removing row 1's
        // 5s from box 2 leaves r2c4 as the only 5 of box 2.
        let mut cells = vec![9, 10, 11, 18, 19, 20];
        cells.extend([13, 14, 21, 22, 23]);
        let state = without_five(cells);
        let step = pointing(&state, true).unwrap();
        assert_eq!(step.technique, Technique::DirectPointing);
        assert_eq!(step.placements, [(12, 5)]);
    }

    #[test]
    fn a_digit_claimed_by_a_row_leaves_the_rest_of_the_box() {
        // In row 1, 5 is only in c1..c3 (box 1): it leaves rows 2 and 3 of box 1.
        let state = without_five(3..9);
        let step = claiming(&state, false).unwrap();
        assert_eq!(step.technique, Technique::Claiming);
        assert_eq!(
            step.eliminations,
            [(9, 5), (10, 5), (11, 5), (18, 5), (19, 5), (20, 5)]
        );
    }
}
