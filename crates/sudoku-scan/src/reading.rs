//! From the network's per-cell probabilities to a board: the most likely reading in which
//! no digit repeats in a row, column or box, found by a bounded branch-and-bound search.

use crate::CLASSES;

/// What a cell was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A printed digit.
    Given,
    /// A handwritten digit.
    Entry,
    /// Small pencil marks and no digit.
    Candidates,
    /// Nothing.
    Empty,
}

/// One cell of a scan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// 0-based row.
    pub row: u8,
    /// 0-based column.
    pub col: u8,
    /// What it holds.
    pub kind: Kind,
    /// The digit, for a given or an entry.
    pub digit: Option<u8>,
    /// The probability of the reading, 0 to 1.
    pub confidence: f32,
}

/// A reading less likely than this, after the rules, is not worth searching.
const MIN_OPTION_PROBABILITY: f32 = 1e-3;

/// The readings tried per cell.
const MAX_OPTIONS: usize = 4;

/// The search's bound in nodes: past it, the best reading found so far stands.
const NODE_BUDGET: usize = 200_000;

/// The board in the probabilities of its 81 cells (row by row, over the network's
/// classes): the reading with the highest joint probability among those that repeat no digit
/// in a unit, a given or an entry alike. When no such reading is found within the search's
/// bound, each cell keeps its own most likely digit.
///
/// # Panics
/// If `probabilities` does not hold 81 cells.
pub fn read_board(probabilities: &[[f32; CLASSES]]) -> Vec<Cell> {
    assert_eq!(probabilities.len(), 81, "a board has 81 cells");
    // The probability of "empty" and of each digit, printed or handwritten.
    let labels: Vec<[f32; 10]> = probabilities
        .iter()
        .map(|p| {
            let mut label = [0.0; 10];
            label[0] = p[0];
            for digit in 1..=9 {
                label[digit] = p[digit] + p[9 + digit];
            }
            label
        })
        .collect();
    let options: Vec<Vec<(u8, f64)>> = labels
        .iter()
        .map(|label| {
            let mut ranked: Vec<(u8, f32)> = (0..10).map(|l| (l as u8, label[l])).collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
            let mut kept: Vec<(u8, f64)> = ranked
                .iter()
                .take(MAX_OPTIONS)
                .filter(|(_, p)| *p >= MIN_OPTION_PROBABILITY)
                .map(|&(l, p)| (l, -f64::from(p.max(1e-9)).ln()))
                .collect();
            if kept.is_empty() {
                kept.push((ranked[0].0, -f64::from(ranked[0].1.max(1e-9)).ln()));
            }
            kept
        })
        .collect();
    let chosen = Search::new(&options)
        .run()
        .unwrap_or_else(|| options.iter().map(|o| o[0].0).collect());
    chosen
        .iter()
        .enumerate()
        .map(|(index, &label)| {
            let p = &probabilities[index];
            let (kind, digit) = match label {
                0 => (Kind::Empty, None),
                digit => {
                    let d = usize::from(digit);
                    (
                        if p[d] >= p[9 + d] {
                            Kind::Given
                        } else {
                            Kind::Entry
                        },
                        Some(digit),
                    )
                }
            };
            Cell {
                row: (index / 9) as u8,
                col: (index % 9) as u8,
                kind,
                digit,
                confidence: labels[index][usize::from(label)].clamp(0.0, 1.0),
            }
        })
        .collect()
}

/// Depth-first branch and bound over the cells' options, most certain cells first.
struct Search<'a> {
    options: &'a [Vec<(u8, f64)>],
    order: Vec<usize>,
    /// The sum of the best costs of the cells from each depth on: a lower bound.
    remaining: Vec<f64>,
    used: [u16; 27],
    current: Vec<u8>,
    best: Option<(f64, Vec<u8>)>,
    nodes: usize,
}

impl<'a> Search<'a> {
    fn new(options: &'a [Vec<(u8, f64)>]) -> Self {
        let gap = |o: &Vec<(u8, f64)>| {
            if o.len() > 1 {
                o[1].1 - o[0].1
            } else {
                f64::INFINITY
            }
        };
        let mut order: Vec<usize> = (0..81).collect();
        order.sort_by(|&a, &b| gap(&options[b]).total_cmp(&gap(&options[a])));
        let mut remaining = vec![0.0; 82];
        for depth in (0..81).rev() {
            remaining[depth] = remaining[depth + 1] + options[order[depth]][0].1;
        }
        Self {
            options,
            order,
            remaining,
            used: [0; 27],
            current: vec![0; 81],
            best: None,
            nodes: 0,
        }
    }

    fn run(mut self) -> Option<Vec<u8>> {
        self.descend(0, 0.0);
        self.best.map(|(_, labels)| labels)
    }

    fn descend(&mut self, depth: usize, cost: f64) {
        self.nodes += 1;
        if self.nodes > NODE_BUDGET {
            return;
        }
        if let Some((best, _)) = &self.best {
            if cost + self.remaining[depth] >= *best {
                return;
            }
        }
        if depth == 81 {
            self.best = Some((cost, self.current.clone()));
            return;
        }
        let cell = self.order[depth];
        let units = [
            cell / 9,
            9 + cell % 9,
            18 + (cell / 27) * 3 + (cell % 9) / 3,
        ];
        for option in 0..self.options[cell].len() {
            let (label, option_cost) = self.options[cell][option];
            let bit = if label == 0 { 0 } else { 1_u16 << label };
            if units.iter().any(|&unit| self.used[unit] & bit != 0) {
                continue;
            }
            for &unit in &units {
                self.used[unit] |= bit;
            }
            self.current[cell] = label;
            self.descend(depth + 1, cost + option_cost);
            for &unit in &units {
                self.used[unit] &= !bit;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn certain(class: usize) -> [f32; CLASSES] {
        let mut p = [0.0; CLASSES];
        p[class] = 1.0;
        p
    }

    #[test]
    fn a_rule_breaking_best_guess_gives_way_to_the_valid_reading() {
        let mut cells = vec![certain(0); 81];
        cells[0] = certain(5);
        // The second cell of the row looks a little more like a 5 than a 6.
        let mut doubtful = [0.0; CLASSES];
        doubtful[5] = 0.55;
        doubtful[6] = 0.45;
        cells[1] = doubtful;
        let board = read_board(&cells);
        assert_eq!(board[0].digit, Some(5));
        assert_eq!(board[1].digit, Some(6));
        assert!((board[1].confidence - 0.45).abs() < 1e-6);
    }

    #[test]
    fn printed_and_handwritten_digits_are_told_apart() {
        let mut cells = vec![certain(0); 81];
        cells[0] = certain(3);
        cells[80] = certain(9 + 4);
        let board = read_board(&cells);
        assert_eq!((board[0].kind, board[0].digit), (Kind::Given, Some(3)));
        assert_eq!((board[80].kind, board[80].digit), (Kind::Entry, Some(4)));
        assert_eq!((board[40].kind, board[40].digit), (Kind::Empty, None));
    }
}
