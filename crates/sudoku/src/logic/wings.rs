//! Wings: short chains through bivalue cells that people learn as patterns.
//!
//! - XY-wing: a pivot {x,y} sees pincers {x,z} and {y,z}; whichever the pivot is, one
//!   pincer is z, so z leaves every cell seeing both pincers (SE 4.2).
//! - XYZ-wing: a pivot {x,y,z} sees pincers {x,z} and {y,z}; one of the three is z, so z
//!   leaves every cell seeing all three (SE 4.4).
//! - W-wing: two cells {a,b} that do not see each other, and a conjugate pair on b with one
//!   end seeing each cell; not both cells can be b, so one is a, and a leaves every cell
//!   seeing both (HoDoKu's write-up). SE has no W-wing and finds it as a six-node forcing
//!   chain, so it is rated as that chain.

use super::candidates::{
    Candidates, PEERS, UNIT_CELLS, UNIT_MASK, UNITS, bit, cells_of, digits_of,
};
use super::chains::chain_rating;
use super::step::{Step, Technique};

fn bivalue_cells(state: &Candidates) -> u128 {
    (0..81)
        .filter(|&c| state.mask(c).count_ones() == 2)
        .fold(0, |set, c| set | 1u128 << c)
}

/// An XY-wing (SE 4.2).
pub(crate) fn xy_wing(state: &Candidates) -> Option<Step> {
    let bivalue = bivalue_cells(state);
    for pivot in cells_of(bivalue) {
        let pm = state.mask(pivot);
        let pincers: Vec<usize> = cells_of(PEERS[pivot] & bivalue)
            .filter(|&p| (state.mask(p) & pm).is_power_of_two())
            .collect();
        for (i, &a) in pincers.iter().enumerate() {
            for &b in &pincers[i + 1..] {
                let (ma, mb) = (state.mask(a), state.mask(b));
                let z = ma & mb;
                if z.count_ones() != 1 || z & pm != 0 || (ma & pm) == (mb & pm) {
                    continue;
                }
                let digit = z.trailing_zeros() as u8 + 1;
                let gone = PEERS[a] & PEERS[b] & state.cells_with(digit);
                if gone == 0 {
                    continue;
                }
                let mut step = Step::new(Technique::XyWing, 42);
                step.cells = vec![pivot, a, b];
                step.eliminations = cells_of(gone).map(|c| (c, digit)).collect();
                return Some(step);
            }
        }
    }
    None
}

/// An XYZ-wing (SE 4.4).
pub(crate) fn xyz_wing(state: &Candidates) -> Option<Step> {
    let bivalue = bivalue_cells(state);
    for pivot in 0..81 {
        let pm = state.mask(pivot);
        if pm.count_ones() != 3 {
            continue;
        }
        let pincers: Vec<usize> = cells_of(PEERS[pivot] & bivalue)
            .filter(|&p| state.mask(p) & !pm == 0)
            .collect();
        for (i, &a) in pincers.iter().enumerate() {
            for &b in &pincers[i + 1..] {
                let (ma, mb) = (state.mask(a), state.mask(b));
                let z = ma & mb;
                if ma == mb || z.count_ones() != 1 {
                    continue;
                }
                let digit = z.trailing_zeros() as u8 + 1;
                let gone = PEERS[pivot] & PEERS[a] & PEERS[b] & state.cells_with(digit);
                if gone == 0 {
                    continue;
                }
                let mut step = Step::new(Technique::XyzWing, 44);
                step.cells = vec![pivot, a, b];
                step.eliminations = cells_of(gone).map(|c| (c, digit)).collect();
                return Some(step);
            }
        }
    }
    None
}

/// A W-wing, rated as the six-node chain it is.
pub(crate) fn w_wing(state: &Candidates) -> Option<Step> {
    let bivalue = bivalue_cells(state);
    for c1 in cells_of(bivalue) {
        let mask = state.mask(c1);
        for c2 in cells_of(bivalue & !PEERS[c1] & !((2u128 << c1) - 1)) {
            if state.mask(c2) != mask {
                continue;
            }
            for link in digits_of(mask) {
                let other = digits_of(mask & !bit(link)).next()?;
                let gone = PEERS[c1] & PEERS[c2] & state.cells_with(other);
                if gone == 0 {
                    continue;
                }
                for unit in 0..UNITS {
                    let ends = state.cells_with(link) & UNIT_MASK[unit];
                    if ends.count_ones() != 2 || ends & (1u128 << c1 | 1u128 << c2) != 0 {
                        continue;
                    }
                    let e1 = ends.trailing_zeros() as usize;
                    let e2 = 127 - ends.leading_zeros() as usize;
                    let (near1, near2) = if PEERS[c1] >> e1 & 1 == 1 && PEERS[c2] >> e2 & 1 == 1 {
                        (e1, e2)
                    } else if PEERS[c1] >> e2 & 1 == 1 && PEERS[c2] >> e1 & 1 == 1 {
                        (e2, e1)
                    } else {
                        continue;
                    };
                    let chain = vec![
                        (c1, other),
                        (c1, link),
                        (near1, link),
                        (near2, link),
                        (c2, link),
                        (c2, other),
                    ];
                    let mut step = Step::new(Technique::WWing, chain_rating(70, chain.len()));
                    step.cells = vec![c1, near1, near2, c2];
                    step.units = vec![unit];
                    step.chain = chain;
                    step.eliminations = cells_of(gone).map(|c| (c, other)).collect();
                    debug_assert!(UNIT_CELLS[unit].contains(&(near1 as u8)));
                    return Some(step);
                }
            }
        }
    }
    None
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
    fn an_xy_wing_clears_the_cells_both_pincers_see() {
        // Pivot r1c1 {1,2}; pincers r1c5 {1,3} and r5c1 {2,3}: r5c5 sees both and loses 3.
        let state = with(&[(0, &[1, 2]), (4, &[1, 3]), (36, &[2, 3])]);
        let step = xy_wing(&state).unwrap();
        assert_eq!(step.cells, [0, 4, 36]);
        assert_eq!(step.eliminations, [(40, 3)]);
    }

    #[test]
    fn an_xyz_wing_clears_only_cells_seeing_all_three() {
        // Pivot r1c2 {1,2,3}; pincers r1c8 {1,3} (row) and r2c1 {2,3} (box): the cells
        // seeing all three are r1c1 and r1c3 (box 1 and row 1).
        let state = with(&[(1, &[1, 2, 3]), (7, &[1, 3]), (9, &[2, 3])]);
        assert!(xy_wing(&state).is_none());
        let step = xyz_wing(&state).unwrap();
        let mut gone = step.eliminations.clone();
        gone.sort_unstable();
        assert_eq!(gone, [(0, 3), (2, 3)]);
    }

    #[test]
    fn a_w_wing_uses_a_conjugate_pair_of_the_shared_digit() {
        // r1c1 and r9c9 are {4,5}; in row 5, 5 is only at r5c1 and r5c9. If both cells were
        // 5, row 5 would have no 5; so one is 4: r1c9 and r9c1 lose 4.
        let mut cells: Vec<(usize, &[u8])> = vec![(0, &[4, 5]), (80, &[4, 5])];
        let no_five: &[u8] = &[1, 2, 3, 4, 6, 7, 8, 9];
        for cell in 37..44 {
            cells.push((cell, no_five));
        }
        let step = w_wing(&with(&cells)).unwrap();
        let mut gone = step.eliminations.clone();
        gone.sort_unstable();
        assert_eq!(gone, [(8, 4), (72, 4)]);
        assert_eq!(step.chain.len(), 6);
        assert_eq!(step.units, [4]);
    }
}
