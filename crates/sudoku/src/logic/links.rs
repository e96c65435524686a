//! Short chains of strong links on one digit: skyscraper, two-string kite and turbot fish
//! (two links), and their three- and four-link extensions.
//!
//! A strong link is a unit where the digit has exactly two places: one of them holds it.
//! Links `a1 = b1`, `a2 = b2`, ... joined by weak links (`b1` sees `a2`, and so on) prove
//! that `a1` or the last `b` holds the digit: if `a1` does not, `b1` does, so `a2` does
//! not, so `b2` does, and so on. Every other place of the digit seeing both ends goes.
//!
//! SukakuExplainer, whose ratings our reference file was made with, rates these as their
//! own family ("strong links", after the forum names above) rather than as forcing
//! X-chains: 4.0 for two links, 5.4 for three and 5.8 for four (five and six are off by
//! default there), plus a tenth when the links mix boxes with lines or rows with columns,
//! and two when they do both (its write-up: links all in parallel lines are the easiest
//! to see). Grouped links (empty rectangles) are not looked for here.

use super::candidates::{Candidates, PEERS, UNIT_MASK, UNITS, cells_of};
use super::step::{Step, Technique};

/// One strong link: the unit and its two places.
#[derive(Clone, Copy)]
struct Link {
    unit: usize,
    a: usize,
    b: usize,
}

/// The base rating of a chain of `links` strong links.
fn base(links: usize) -> u16 {
    match links {
        2 => 40,
        3 => 54,
        _ => 58,
    }
}

/// The rating of a chain over these units: the base plus the mix modifier.
fn rating(units: &[usize]) -> u16 {
    let boxes = units.iter().any(|&u| u >= 18);
    let rows = units.iter().any(|&u| u < 9);
    let cols = units.iter().any(|&u| (9..18).contains(&u));
    base(units.len()) + u16::from(boxes) + u16::from(rows && cols)
}

struct Search<'a> {
    links: &'a [Link],
    links_per_cell: &'a [Vec<usize>],
    digit: u8,
    plane: u128,
    n: usize,
    chain: Vec<(usize, usize, usize)>, // (unit, from, to)
    used_cells: u128,
    used_units: u32,
    best: Option<Step>,
}

impl Search<'_> {
    fn extend(&mut self) {
        let &(_, _, end) = self.chain.last().expect("a link");
        if self.chain.len() == self.n {
            self.conclude(end);
            return;
        }
        // The next link starts at a place seeing the end (a weak link), outside the chain.
        for next in cells_of(PEERS[end] & self.plane & !self.used_cells) {
            for &i in &self.links_per_cell[next] {
                let link = self.links[i];
                if self.used_units >> link.unit & 1 == 1 {
                    continue;
                }
                let to = if link.a == next { link.b } else { link.a };
                if self.used_cells >> to & 1 == 1 {
                    continue;
                }
                self.chain.push((link.unit, next, to));
                self.used_cells |= 1 << next | 1 << to;
                self.used_units |= 1 << link.unit;
                self.extend();
                self.chain.pop();
                self.used_cells &= !(1 << next | 1 << to);
                self.used_units &= !(1 << link.unit);
            }
        }
    }

    fn conclude(&mut self, end: usize) {
        let start = self.chain[0].1;
        let gone = PEERS[start] & PEERS[end] & self.plane & !self.used_cells;
        if gone == 0 {
            return;
        }
        let units: Vec<usize> = self.chain.iter().map(|&(u, _, _)| u).collect();
        let rating = rating(&units);
        let count = gone.count_ones() as usize;
        if self.best.as_ref().is_some_and(|b| {
            (b.rating.0, std::cmp::Reverse(b.eliminations.len()))
                <= (rating, std::cmp::Reverse(count))
        }) {
            return;
        }
        let technique = match self.n {
            2 => Technique::TwoStrongLinks,
            3 => Technique::ThreeStrongLinks,
            _ => Technique::FourStrongLinks,
        };
        let mut step = Step::new(technique, rating);
        step.chain = self
            .chain
            .iter()
            .flat_map(|&(_, from, to)| [(from, self.digit), (to, self.digit)])
            .collect();
        step.cells = step.chain.iter().map(|&(c, _)| c).collect();
        step.units = units;
        step.eliminations = cells_of(gone).map(|c| (c, self.digit)).collect();
        self.best = Some(step);
    }
}

/// The easiest chain of exactly `n` strong links (2, 3 or 4) on one digit, most
/// eliminations first among equals.
pub(crate) fn strong_links(state: &Candidates, n: usize) -> Option<Step> {
    let mut best: Option<Step> = None;
    for digit in 1..=9 {
        let plane = state.cells_with(digit);
        let mut links = Vec::new();
        let mut links_per_cell = vec![Vec::new(); 81];
        for unit in 0..UNITS {
            let places = plane & UNIT_MASK[unit];
            if places.count_ones() == 2 {
                let a = places.trailing_zeros() as usize;
                let b = 127 - places.leading_zeros() as usize;
                // A pair in a box and a line is one link; keep it once, as the line.
                if unit >= 18 && (a / 9 == b / 9 || a % 9 == b % 9) {
                    continue;
                }
                links_per_cell[a].push(links.len());
                links_per_cell[b].push(links.len());
                links.push(Link { unit, a, b });
            }
        }
        if links.len() < n {
            continue;
        }
        let mut search = Search {
            links: &links,
            links_per_cell: &links_per_cell,
            digit,
            plane,
            n,
            chain: Vec::with_capacity(n),
            used_cells: 0,
            used_units: 0,
            best: best.take(),
        };
        for link in &links {
            for (from, to) in [(link.a, link.b), (link.b, link.a)] {
                search.chain.push((link.unit, from, to));
                search.used_cells = 1 << from | 1 << to;
                search.used_units = 1 << link.unit;
                search.extend();
                search.chain.pop();
            }
        }
        best = search.best;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::candidates::{ALL_DIGITS, bit};

    /// A position where digit `d` is allowed only in `cells` among the cells of `units`.
    fn only(d: u8, units: &[usize], cells: &[usize]) -> Candidates {
        let mut masks = [ALL_DIGITS; 81];
        for &u in units {
            for c in cells_of(UNIT_MASK[u]) {
                if !cells.contains(&c) {
                    masks[c] &= !bit(d);
                }
            }
        }
        Candidates::from_masks(masks)
    }

    #[test]
    fn a_skyscraper_is_two_parallel_links_at_4_0() {
        // 3 in column 1 only at r1c1, r7c1; in column 5 only at r2c5, r7c5. Row 7 joins
        // r7c1 and r7c5, so r1c1 or r2c5 is 3: r1c4, r1c6 (row 1, box 2) and r2c2, r2c3
        // (row 2, box 1) lose 3.
        let state = only(3, &[9, 13], &[0, 54, 13, 58]);
        let step = strong_links(&state, 2).unwrap();
        assert_eq!(step.rating.0, 40);
        let mut gone = step.eliminations.clone();
        gone.sort_unstable();
        assert_eq!(gone, [(3, 3), (5, 3), (10, 3), (11, 3)]);
    }

    #[test]
    fn a_two_string_kite_mixes_a_row_and_a_column() {
        // 5 in row 1 only at r1c2, r1c7; in column 1 only at r2c1, r8c1. r1c2 and r2c1
        // share box 1, so r1c7 or r8c1 is 5: r8c7, seeing both, loses it (rating 4.1).
        let state = only(5, &[0, 9], &[1, 6, 9, 63]);
        let step = strong_links(&state, 2).unwrap();
        assert_eq!(step.rating.0, 41);
        assert_eq!(step.eliminations, [(69, 5)]);
    }

    #[test]
    fn three_links_rate_5_4_when_parallel() {
        // 7 only at r1c1, r1c4 (row 1), r5c4, r5c8 (row 5), r9c8, r9c2 (row 9): the
        // chain r1c1 = r1c4 - r5c4 = r5c8 - r9c8 = r9c2 proves r1c1 or r9c2 is 7, so
        // the cells seeing both (r2c2, r3c2 in box 1 and column 2; r7c1, r8c1 in
        // column 1 and box 7) lose 7. No two-link chain concludes anything here.
        let state = only(7, &[0, 4, 8], &[0, 3, 39, 43, 79, 73]);
        assert!(strong_links(&state, 2).is_none());
        let step = strong_links(&state, 3).unwrap();
        assert_eq!(step.rating.0, 54);
        let mut gone = step.eliminations.clone();
        gone.sort_unstable();
        assert_eq!(gone, [(10, 7), (19, 7), (54, 7), (63, 7)]);
    }
}
