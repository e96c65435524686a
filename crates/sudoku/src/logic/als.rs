//! Wings of a bivalue cell and an almost locked set: WXYZ- and VWXYZ-wings.
//!
//! An almost locked set (ALS) is `k` cells of one unit holding `k + 1` digits between
//! them: take any one digit out and the rest are locked in those cells. With a bivalue
//! cell `{x, z}` outside it whose `x` sees every `x` of the ALS: if the cell is `x`, the
//! ALS loses `x` and locks its other digits, `z` among them; if not, the cell is `z`.
//! Either way `z` is in the cell or in the ALS, so `z` leaves every cell seeing the
//! bivalue cell and all the ALS's places for `z` (the ALS-XZ rule of the forums and
//! HoDoKu's write-ups, here with the smaller set one cell). When `z` is restricted too
//! (doubly linked), both sets are locked: `x` and `z` are each in one of them, and every
//! other digit of the ALS is in it, so each leaves the cells seeing all its places there.
//!
//! SukakuExplainer names these by the size of the ALS and rates them 5.5 (three cells;
//! 5.6 when its largest cell has three candidates) and 6.2 (four cells, plus a tenth or
//! two the nearer its largest cell is to three candidates). Its five-cell wing (6.6) is
//! left out: with it our agreement with the reference ratings drops (puzzles it would
//! rate 6.6 are rated 7.1 there), so the version that made them did not use it.

use super::candidates::{Candidates, PEERS, UNIT_CELLS, UNITS, cells_of, digits_of};
use super::step::{Step, Technique};
use super::subsets::subsets_of_size;

fn rated(k: u32, largest: u32) -> (Technique, u16) {
    // The nearer the largest cell is to three candidates, the harder SE deems the wing.
    let off = largest.abs_diff(3) as u16;
    match k {
        3 => (Technique::WxyzWing, 55 + 1u16.saturating_sub(off)),
        _ => (Technique::VwxyzWing, 62 + 2u16.saturating_sub(off)),
    }
}

/// The cells of `set` holding `digit`.
fn places(state: &Candidates, set: u128, digit: u8) -> u128 {
    set & state.cells_with(digit)
}

/// The cells seeing every cell of `set` (none of `set` itself).
fn seeing_all(set: u128) -> u128 {
    cells_of(set).fold(!0u128, |all, c| all & PEERS[c])
}

/// The easiest wing of a bivalue cell and an ALS of `k` cells (3 or 4), most
/// eliminations first among equals.
pub(crate) fn als_wing(state: &Candidates, k: u32) -> Option<Step> {
    let bivalue: Vec<usize> = (0..81)
        .filter(|&c| state.mask(c).count_ones() == 2)
        .collect();
    let mut best: Option<Step> = None;
    let mut seen = std::collections::HashSet::new();
    for unit in 0..UNITS {
        let cells = &UNIT_CELLS[unit];
        let eligible = (0..9)
            .filter(|&p| state.mask(usize::from(cells[p])).count_ones() >= 2)
            .fold(0u16, |m, p| m | 1 << p);
        for chosen in subsets_of_size(eligible, k) {
            let set = (0..9)
                .filter(|p| chosen >> p & 1 == 1)
                .fold(0u128, |s, p| s | 1u128 << cells[p]);
            let digits = cells_of(set).fold(0u16, |m, c| m | state.mask(c));
            if digits.count_ones() != k + 1 || !seen.insert(set) {
                continue;
            }
            let largest = cells_of(set)
                .map(|c| state.mask(c).count_ones())
                .max()
                .unwrap_or(0);
            let (technique, rating) = rated(k, largest);
            if best.as_ref().is_some_and(|b| b.rating.0 < rating) {
                continue;
            }
            for &pivot in &bivalue {
                let pm = state.mask(pivot);
                if set >> pivot & 1 == 1 || pm & digits != pm {
                    continue;
                }
                let restricted = |d: u8| places(state, set, d) & !PEERS[pivot] == 0;
                let [a, b] = {
                    let mut it = digits_of(pm);
                    [it.next().unwrap_or(0), it.next().unwrap_or(0)]
                };
                let mut gone = Vec::new();
                let double = restricted(a) && restricted(b);
                for (x, z) in [(a, b), (b, a)] {
                    if !restricted(x) {
                        continue;
                    }
                    let zs = places(state, set, z) | 1u128 << pivot;
                    let victims = seeing_all(zs) & state.cells_with(z) & !set;
                    gone.extend(cells_of(victims).map(|c| (c, z)));
                }
                if double {
                    // Both sets locked: each other digit of the ALS is in it.
                    for d in digits_of(digits & !pm) {
                        let victims =
                            seeing_all(places(state, set, d)) & state.cells_with(d) & !set;
                        gone.extend(cells_of(victims).map(|c| (c, d)));
                    }
                }
                gone.sort_unstable();
                gone.dedup();
                gone.retain(|&(c, _)| c != pivot);
                if gone.is_empty() {
                    continue;
                }
                if best.as_ref().is_some_and(|b| {
                    (b.rating.0, std::cmp::Reverse(b.eliminations.len()))
                        <= (rating, std::cmp::Reverse(gone.len()))
                }) {
                    continue;
                }
                let mut step = Step::new(technique, rating);
                step.cells = cells_of(set).chain([pivot]).collect();
                step.units = vec![unit];
                step.eliminations = gone;
                best = Some(step);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::candidates::{ALL_DIGITS, bit};

    fn with(cells: &[(usize, &[u8])]) -> Candidates {
        let mut masks = [ALL_DIGITS; 81];
        for &(cell, digits) in cells {
            masks[cell] = digits.iter().fold(0, |m, &d| m | bit(d));
        }
        Candidates::from_masks(masks)
    }

    #[test]
    fn a_wxyz_wing_clears_z_from_what_sees_all_its_places() {
        // ALS in row 1: r1c1 {1,2}, r1c2 {1,3}, r1c5 {2,3,4} (four digits in three cells);
        // the bivalue r2c1 {1,4} sees r1c1 and r1c2 (box 1), the ALS's places for 1, so
        // 1 is restricted: if r2c1 is 1, the ALS locks {2,3,4}, and only r1c5 has 4;
        // else r2c1 is 4. The cells seeing r2c1 and r1c5 lose 4: r1c3 (row 1, box 1) and
        // r2c4, r2c5, r2c6 (row 2, box 2). r1c5 does not see r2c1: 4 is not restricted.
        let state = with(&[(0, &[1, 2]), (1, &[1, 3]), (4, &[2, 3, 4]), (9, &[1, 4])]);
        let step = als_wing(&state, 3).unwrap();
        assert_eq!(step.technique, Technique::WxyzWing);
        assert_eq!(step.rating.0, 56);
        let mut gone = step.eliminations.clone();
        gone.sort_unstable();
        assert_eq!(gone, [(2, 4), (12, 4), (13, 4), (14, 4)]);
    }

    #[test]
    fn a_doubly_linked_wing_locks_both_sets() {
        // As above but r1c3 {2,3,4}, in box 1 with r2c1: now 4 is restricted too. Both
        // r2c1 and the ALS are locked (r2c1 holds 1 or 4, the ALS the other with 2 and
        // 3), so 2 leaves the cells seeing r1c1 and r1c3 (r1c4-r1c9 and the rest of box
        // 1), 1 the cells seeing r2c1, r1c1 and r1c2 (r2c2, r2c3, r3c1-r3c3, r1c3 being
        // in the ALS).
        let state = with(&[(0, &[1, 2]), (1, &[1, 3]), (2, &[2, 3, 4]), (9, &[1, 4])]);
        let step = als_wing(&state, 3).unwrap();
        for cell in [10, 11, 18, 19, 20] {
            assert!(step.eliminations.contains(&(cell, 1)), "{step}");
            assert!(step.eliminations.contains(&(cell, 4)), "{step}");
        }
        for cell in 3..9 {
            assert!(step.eliminations.contains(&(cell, 2)), "{step}");
            assert!(step.eliminations.contains(&(cell, 3)), "{step}");
        }
        assert!(
            step.eliminations
                .iter()
                .all(|&(c, _)| ![0, 1, 2, 9].contains(&c))
        );
    }

    #[test]
    fn ratings_follow_the_largest_cell() {
        assert_eq!(rated(3, 2).1, 55);
        assert_eq!(rated(3, 3).1, 56);
        assert_eq!(rated(3, 4).1, 55);
        assert_eq!(rated(4, 2).1, 63);
        assert_eq!(rated(4, 3).1, 64);
        assert_eq!(rated(4, 5).1, 62);
    }
}
