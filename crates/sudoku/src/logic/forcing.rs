//! Cell and region (unit) forcing chains: one of a cell's candidates is true, as is one of
//! the places of a digit in a unit; whatever follows from every one of them holds.
//!
//! Each branch assumes one candidate true and follows the same strong and weak links as
//! the chains of [`super::chains`] (static implications: the grid is not updated along the
//! way, as in SE's non-dynamic forcing chains). A candidate false in every branch is
//! eliminated; one true in every branch is placed. SE rates both 8.0 plus the length bonus
//! of the nodes of all branches together, less two (the idea of SE's multiple forcing
//! chains; in practice region chains start at 8.2 and cell chains at 8.3).

use super::candidates::{Candidates, UNIT_MASK, UNITS, bit, cells_of, digits_of};
use super::chains::{Graph, NODES, STATES, cell_digit, chain_rating, node};
use super::step::{Step, Technique};

/// The longest branch followed, in nodes.
const CAP: usize = 20;
/// SE's base rating of static multiple forcing chains, cell or region alike; the
/// difference people quote (8.2 region, 8.3 cell) comes from their usual lengths.
const CELL_BASE: u16 = 80;
const REGION_BASE: u16 = 80;

/// The easiest cell or region forcing chain.
pub(crate) fn forcing_chains(state: &Candidates) -> Option<Step> {
    let graph = Graph::new(state, None);
    // Each candidate's consequences, computed once and shared by its cell and units.
    let mut memo: Vec<Option<Vec<u8>>> = vec![None; NODES];
    let mut best: Option<Step> = None;
    let mut consider = |branches: &[usize],
                        technique,
                        base,
                        unit: Option<usize>,
                        memo: &mut Vec<Option<Vec<u8>>>| {
        for &n in branches {
            if memo[n].is_none() {
                memo[n] = Some(graph.consequences(state, 2 * n + 1, CAP));
            }
        }
        let maps: Vec<&Vec<u8>> = branches
            .iter()
            .map(|&n| memo[n].as_ref().expect("filled"))
            .collect();
        let mut found: Option<(usize, usize)> = None; // (complexity, state)
        for s in 0..STATES {
            if maps.iter().all(|m| m[s] != 0) {
                let (cell, digit) = cell_digit(s / 2);
                let useful = if s % 2 == 0 {
                    state.has(cell, digit)
                } else {
                    state.digit(cell) == 0
                };
                if !useful {
                    continue;
                }
                let complexity: usize = maps.iter().map(|m| usize::from(m[s])).sum();
                if found.is_none_or(|(c, _)| complexity < c) {
                    found = Some((complexity, s));
                }
            }
        }
        if let Some((complexity, s)) = found {
            // SE's complexity is the nodes of all branches, each counting its assumption;
            // its length modifier starts two nodes in.
            let rating = chain_rating(base, complexity - 2);
            if best.as_ref().is_none_or(|b: &Step| rating < b.rating.0) {
                let mut step = Step::new(technique, rating);
                let (cell, digit) = cell_digit(s / 2);
                if s % 2 == 0 {
                    step.eliminations.push((cell, digit));
                } else {
                    step.placements.push((cell, digit));
                }
                step.cells = branches.iter().map(|&n| cell_digit(n).0).collect();
                step.cells.dedup();
                step.units.extend(unit);
                best = Some(step);
            }
        }
    };
    for unit in 0..UNITS {
        for digit in 1..=9 {
            let places = state.cells_with(digit) & UNIT_MASK[unit];
            if places.count_ones() >= 2 && state.placed_in(unit) & bit(digit) == 0 {
                let branches: Vec<usize> = cells_of(places).map(|c| node(c, digit)).collect();
                consider(
                    &branches,
                    Technique::RegionForcingChains,
                    REGION_BASE,
                    Some(unit),
                    &mut memo,
                );
            }
        }
    }
    for cell in 0..81 {
        let mask = state.mask(cell);
        if mask.count_ones() >= 2 {
            let branches: Vec<usize> = digits_of(mask).map(|d| node(cell, d)).collect();
            consider(
                &branches,
                Technique::CellForcingChains,
                CELL_BASE,
                None,
                &mut memo,
            );
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::candidates::ALL_DIGITS;

    #[test]
    fn what_every_candidate_of_a_cell_removes_goes() {
        // r1c1 {1,2}; r1c9 {1,3}; r9c1 {2,3}. If r1c1 = 1, r1c9 = 3; if r1c1 = 2, r9c1 = 3:
        // either way 3 leaves r9c9, which sees both r1c9 and r9c1 (an XY-wing says the
        // same; the forcing chains must find it too).
        let mut masks = [ALL_DIGITS; 81];
        masks[0] = bit(1) | bit(2);
        masks[8] = bit(1) | bit(3);
        masks[72] = bit(2) | bit(3);
        let step = forcing_chains(&Candidates::from_masks(masks)).unwrap();
        assert!(step.rating.0 >= REGION_BASE);
        assert!(step.placements.is_empty());
        assert_eq!(step.eliminations.len(), 1);
        let (cell, digit) = step.eliminations[0];
        assert_eq!((cell, digit), (80, 3));
    }
}
