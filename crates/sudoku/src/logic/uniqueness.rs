//! Techniques that rely on the puzzle having one solution: a pattern that would allow two
//! solutions (a "deadly pattern") cannot be what the solution holds.
//!
//! - Unique rectangle: four cells in two rows, two columns and two boxes that could all
//!   be {a,b} would let a and b swap, so at least one holds something else. Type 1: three
//!   are exactly {a,b}, so the fourth is not a or b. Type 2: two are exactly {a,b} and the
//!   other two exactly {a,b,c}, so one of those is c and c leaves the cells seeing both.
//!   Type 4: two are exactly {a,b} and in a unit holding the other two, a is only there;
//!   so one of them is a, and the other cannot be b (that would complete the pattern),
//!   so b leaves both (HoDoKu's write-ups).
//! - BUG+1: if every open cell but one were bivalue with each digit twice in each unit,
//!   the position would have zero or two solutions; so the one trivalue cell holds the
//!   digit that appears three times in its units (SE 5.6).
//!
//! Sound only for puzzles with exactly one solution, which is what a grader is given.

use super::candidates::{
    Candidates, PEERS, UNIT_MASK, UNITS, bit, box_of, cells_of, digits_of, units_of,
};
use super::step::{Step, Technique};

/// The easiest unique rectangle of types 1, 2 or 4 (SE rates all three 4.5; type 1
/// first among equals, as SE sorts them by type).
pub(crate) fn unique_rectangle(state: &Candidates) -> Option<Step> {
    let mut best: Option<Step> = None;
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    if (r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3) {
                        continue; // not exactly two boxes
                    }
                    let corners = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                    let common = corners.iter().fold(0x1FF, |m, &c| m & state.mask(c));
                    if common.count_ones() < 2 {
                        continue;
                    }
                    for a in digits_of(common) {
                        for b in digits_of(common & !((bit(a) << 1) - 1)) {
                            if let Some(step) = rectangle(state, corners, a, b) {
                                if best.as_ref().is_none_or(|s| {
                                    (step.rating, step.technique) < (s.rating, s.technique)
                                }) {
                                    if step.technique == Technique::UniqueRectangle1 {
                                        return Some(step);
                                    }
                                    best = Some(step);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    best
}

fn rectangle(state: &Candidates, corners: [usize; 4], a: u8, b: u8) -> Option<Step> {
    let pair = bit(a) | bit(b);
    let floor: Vec<usize> = corners
        .iter()
        .copied()
        .filter(|&c| state.mask(c) == pair)
        .collect();
    let roof: Vec<usize> = corners
        .iter()
        .copied()
        .filter(|&c| state.mask(c) != pair)
        .collect();
    let mut step = match floor.len() {
        3 => {
            let cell = roof[0];
            let mut step = Step::new(Technique::UniqueRectangle1, 45);
            step.eliminations = vec![(cell, a), (cell, b)];
            step
        }
        2 => {
            let (r1, r2) = (roof[0], roof[1]);
            let extra1 = state.mask(r1) & !pair;
            let extra2 = state.mask(r2) & !pair;
            let mut found = None;
            if extra1 == extra2 && extra1.is_power_of_two() {
                let c = extra1.trailing_zeros() as u8 + 1;
                let gone = PEERS[r1] & PEERS[r2] & state.cells_with(c);
                if gone != 0 {
                    let mut step = Step::new(Technique::UniqueRectangle2, 45);
                    step.eliminations = cells_of(gone).map(|cell| (cell, c)).collect();
                    found = Some(step);
                }
            }
            if found.is_none() {
                found = type_4(state, r1, r2, a, b).or_else(|| type_4(state, r1, r2, b, a));
            }
            found?
        }
        _ => return None,
    };
    step.cells = corners.to_vec();
    step.cells.sort_unstable();
    Some(step)
}

/// Type 4: in a unit holding both roof cells, `locked` appears only there; `other` goes.
fn type_4(state: &Candidates, r1: usize, r2: usize, locked: u8, other: u8) -> Option<Step> {
    let both = 1u128 << r1 | 1u128 << r2;
    let unit = units_of(r1).into_iter().find(|&u| {
        UNIT_MASK[u] & both == both && state.cells_with(locked) & UNIT_MASK[u] == both
    })?;
    let mut step = Step::new(Technique::UniqueRectangle4, 45);
    step.units = vec![unit];
    step.eliminations = vec![(r1.min(r2), other), (r1.max(r2), other)];
    Some(step)
}

/// BUG+1 (SE 5.6): places the digit of the one trivalue cell.
pub(crate) fn bug_plus_one(state: &Candidates) -> Option<Step> {
    let mut extra = None;
    for cell in cells_of(state.open_cells()) {
        match state.mask(cell).count_ones() {
            2 => {}
            3 if extra.is_none() => extra = Some(cell),
            _ => return None,
        }
    }
    let cell = extra?;
    let row = cell / 9;
    let digit = digits_of(state.mask(cell))
        .find(|&d| (state.cells_with(d) & UNIT_MASK[row]).count_ones() == 3)?;
    // Without the digit in that cell, every unit must hold each digit 0 or 2 times.
    for unit in 0..UNITS {
        for d in 1..=9 {
            let mut places = state.cells_with(d) & UNIT_MASK[unit];
            if d == digit {
                places &= !(1u128 << cell);
            }
            if !matches!(places.count_ones(), 0 | 2) {
                return None;
            }
        }
    }
    let mut step = Step::new(Technique::Bug1, 56);
    step.cells = vec![cell];
    step.units = vec![row, 9 + cell % 9, 18 + box_of(cell)];
    step.placements = vec![(cell, digit)];
    Some(step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::candidates::ALL_DIGITS;

    fn with(cells: &[(usize, &[u8])]) -> Candidates {
        let mut masks = [ALL_DIGITS; 81];
        for &(cell, digits) in cells {
            masks[cell] = digits.iter().fold(0, |m, &d| m | bit(d));
        }
        Candidates::from_masks(masks)
    }

    #[test]
    fn type_1_clears_the_pair_from_the_fourth_corner() {
        // r1c1, r1c4, r2c1 are {1,2}; r2c4 {1,2,7}: r2c4 cannot be 1 or 2.
        let state = with(&[(0, &[1, 2]), (3, &[1, 2]), (9, &[1, 2]), (12, &[1, 2, 7])]);
        let step = unique_rectangle(&state).unwrap();
        assert_eq!(step.technique, Technique::UniqueRectangle1);
        assert_eq!(step.eliminations, [(12, 1), (12, 2)]);
    }

    #[test]
    fn a_rectangle_over_four_boxes_is_no_deadly_pattern() {
        // r1c1, r1c4, r4c1 {1,2} and r4c4 {1,2,7} lie in four boxes: swapping 1 and 2
        // there can break a box elsewhere, so the pattern is not deadly.
        let state = with(&[(0, &[1, 2]), (3, &[1, 2]), (27, &[1, 2]), (30, &[1, 2, 7])]);
        assert!(unique_rectangle(&state).is_none());
    }

    #[test]
    fn type_2_clears_the_shared_extra_from_cells_seeing_both_roofs() {
        // Floor r1c1, r2c1 {1,2}; roof r1c4, r2c4 {1,2,7}: one roof is 7, so column 4 (7
        // cells) and box 2 (6 more) lose 7 outside the roof.
        let state = with(&[
            (0, &[1, 2]),
            (9, &[1, 2]),
            (3, &[1, 2, 7]),
            (12, &[1, 2, 7]),
        ]);
        let step = unique_rectangle(&state).unwrap();
        assert_eq!(step.technique, Technique::UniqueRectangle2);
        assert_eq!(step.eliminations.len(), 7 + 6);
        assert!(step.eliminations.contains(&(21, 7)));
        assert!(step.eliminations.contains(&(4, 7)));
    }

    #[test]
    fn type_4_uses_a_conjugate_pair_in_the_roof() {
        // Floor r1c1, r2c1 {1,2}; roof r1c4 {1,2,5}, r2c4 {1,2,6}; in column 4, 1 is only
        // in the roof: one roof cell is 1, so neither may be 2 (that would be deadly).
        let mut cells: Vec<(usize, &[u8])> = vec![
            (0, &[1, 2]),
            (9, &[1, 2]),
            (3, &[1, 2, 5]),
            (12, &[1, 2, 6]),
        ];
        let no_one: &[u8] = &[2, 3, 4, 5, 6, 7, 8, 9];
        for row in 2..9 {
            cells.push((row * 9 + 3, no_one));
        }
        let step = unique_rectangle(&with(&cells)).unwrap();
        assert_eq!(step.technique, Technique::UniqueRectangle4);
        assert_eq!(step.eliminations, [(3, 2), (12, 2)]);
    }
}
