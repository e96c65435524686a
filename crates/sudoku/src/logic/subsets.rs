//! Naked and hidden subsets (pairs, triples, quads): `k` cells of a unit holding only `k`
//! digits between them own those digits in the unit (naked); `k` digits of a unit confined
//! to `k` cells leave no room there for other digits (hidden).

use super::candidates::{
    Candidates, UNIT_CELLS, UNIT_MASK, UNITS, bit, cells_of, digits_of, units_of,
};
use super::singles::created_hidden_single;
use super::step::{Step, Technique};

/// The subsets of `set` (a 9-bit mask) with exactly `k` members.
pub(crate) fn subsets_of_size(set: u16, k: u32) -> impl Iterator<Item = u16> {
    // Walk every submask of `set`, largest first, by the (s - 1) & set recurrence.
    let mut next = Some(set);
    std::iter::from_fn(move || {
        loop {
            let s = next?;
            next = (s != 0).then(|| s.wrapping_sub(1) & set);
            if s.count_ones() == k {
                return Some(s);
            }
        }
    })
}

/// A naked pair, triple or quad (SE 3.0, 3.6, 5.0).
pub(crate) fn naked(state: &Candidates, k: u32) -> Option<Step> {
    let (technique, rating) = match k {
        2 => (Technique::NakedPair, 30),
        3 => (Technique::NakedTriple, 36),
        _ => (Technique::NakedQuad, 50),
    };
    for unit in 0..UNITS {
        let cells = &UNIT_CELLS[unit];
        let mut eligible = 0u16;
        for (pos, &cell) in cells.iter().enumerate() {
            let n = state.mask(cell.into()).count_ones();
            if (2..=k).contains(&n) {
                eligible |= 1 << pos;
            }
        }
        for chosen in subsets_of_size(eligible, k) {
            let members: u128 = (0..9)
                .filter(|p| chosen >> p & 1 == 1)
                .fold(0, |set, p| set | 1u128 << cells[p]);
            let digits = cells_of(members).fold(0u16, |all, c| all | state.mask(c));
            if digits.count_ones() != k {
                continue;
            }
            // Every unit holding all the members loses the digits elsewhere (a pair in a
            // box and a row clears both).
            let shared: Vec<usize> = units_of(members.trailing_zeros() as usize)
                .into_iter()
                .filter(|&u| members & !UNIT_MASK[u] == 0)
                .collect();
            let mut eliminations = Vec::new();
            for digit in digits_of(digits) {
                let gone = shared.iter().fold(0u128, |set, &u| set | UNIT_MASK[u])
                    & state.cells_with(digit)
                    & !members;
                eliminations.extend(cells_of(gone).map(|c| (c, digit)));
            }
            if eliminations.is_empty() {
                continue;
            }
            eliminations.sort_unstable();
            let mut step = Step::new(technique, rating);
            step.cells = cells_of(members).collect();
            step.units = shared;
            step.eliminations = eliminations;
            return Some(step);
        }
    }
    None
}

/// A hidden pair, triple or quad (SE 3.4, 4.0, 5.4). With `direct` (pairs and triples
/// only), only one whose eliminations leave a hidden single, which it places (SE 2.0, 2.5).
pub(crate) fn hidden(state: &Candidates, k: u32, direct: bool) -> Option<Step> {
    let (technique, rating) = match (k, direct) {
        (2, true) => (Technique::DirectHiddenPair, 20),
        (3, true) => (Technique::DirectHiddenTriple, 25),
        (2, false) => (Technique::HiddenPair, 34),
        (3, false) => (Technique::HiddenTriple, 40),
        _ => (Technique::HiddenQuad, 54),
    };
    for unit in 0..UNITS {
        let mut places = [0u128; 9];
        let mut eligible = 0u16;
        for digit in 1..=9u8 {
            let here = state.cells_with(digit) & UNIT_MASK[unit];
            places[usize::from(digit - 1)] = here;
            if (2..=k).contains(&here.count_ones()) && state.placed_in(unit) & bit(digit) == 0 {
                eligible |= bit(digit);
            }
        }
        for chosen in subsets_of_size(eligible, k) {
            let members = digits_of(chosen).fold(0u128, |set, d| set | places[usize::from(d - 1)]);
            if members.count_ones() != k {
                continue;
            }
            let mut eliminations = Vec::new();
            for cell in cells_of(members) {
                for digit in digits_of(state.mask(cell) & !chosen) {
                    eliminations.push((cell, digit));
                }
            }
            if eliminations.is_empty() {
                continue;
            }
            let single = if direct {
                match created_hidden_single(state, &eliminations) {
                    Some(single) => Some(single),
                    None => continue,
                }
            } else {
                None
            };
            let mut step = Step::new(technique, rating);
            step.cells = cells_of(members).collect();
            step.units = vec![unit];
            step.eliminations = eliminations;
            step.placements.extend(single);
            return Some(step);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::candidates::ALL_DIGITS;

    #[test]
    fn subsets_of_a_mask_are_enumerated_by_size() {
        let all: Vec<u16> = subsets_of_size(0b1011, 2).collect();
        assert_eq!(all.len(), 3);
        assert!(all.iter().all(|s| s & !0b1011 == 0 && s.count_ones() == 2));
        assert_eq!(subsets_of_size(0x1FF, 4).count(), 126);
    }

    #[test]
    fn a_naked_pair_in_a_row_and_box_clears_both() {
        // r1c1 and r1c2 hold only {1, 2}: 1 and 2 leave the rest of row 1 and of box 1.
        let mut masks = [ALL_DIGITS; 81];
        masks[0] = bit(1) | bit(2);
        masks[1] = bit(1) | bit(2);
        let step = naked(&Candidates::from_masks(masks), 2).unwrap();
        assert_eq!(step.cells, [0, 1]);
        assert_eq!(step.units, [0, 18]);
        let cleared: Vec<usize> = (2..9).chain([9, 10, 11, 18, 19, 20]).collect();
        for cell in cleared {
            assert!(step.eliminations.contains(&(cell, 1)));
            assert!(step.eliminations.contains(&(cell, 2)));
        }
        assert_eq!(step.eliminations.len(), 2 * 13);
    }

    #[test]
    fn a_naked_triple_need_not_have_three_digits_in_each_cell() {
        // Column 1: r1c1 {1,2}, r4c1 {2,3}, r7c1 {1,3} are a triple on {1,2,3}.
        let mut masks = [ALL_DIGITS; 81];
        masks[0] = bit(1) | bit(2);
        masks[27] = bit(2) | bit(3);
        masks[54] = bit(1) | bit(3);
        let state = Candidates::from_masks(masks);
        assert!(naked(&state, 2).is_none());
        let step = naked(&state, 3).unwrap();
        assert_eq!(step.cells, [0, 27, 54]);
        assert_eq!(step.units, [9]);
        assert!(step.eliminations.contains(&(9, 3)));
        assert_eq!(step.eliminations.len(), 6 * 3);
    }

    #[test]
    fn a_hidden_pair_strips_its_cells_of_other_digits() {
        // In row 9, digits 8 and 9 are only in r9c8 and r9c9.
        let mut masks = [ALL_DIGITS; 81];
        for cell in 72..79 {
            masks[cell] &= !(bit(8) | bit(9));
        }
        let step = hidden(&Candidates::from_masks(masks), 2, false).unwrap();
        assert_eq!(step.technique, Technique::HiddenPair);
        assert_eq!(step.cells, [79, 80]);
        assert_eq!(step.eliminations.len(), 2 * 7);
        assert!(step.eliminations.contains(&(80, 1)));
        assert!(!step.eliminations.iter().any(|&(_, d)| d >= 8));
    }
}
