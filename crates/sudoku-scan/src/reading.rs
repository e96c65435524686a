//! From the network's per-cell probabilities to a board: the most likely reading in which
//! no digit repeats in a row, column or box, found by a bounded branch-and-bound search.

use sudoku::{Grid, Solver, Verdict};

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

/// A grid with at least this many digits read is taken as filled in.
const FILLED_GRID: usize = 72;

/// The cost, in nats, of an empty cell in a grid filled in: a faint digit more likely.
const EMPTY_IN_FILLED_GRID_COST: f64 = 3.0;

/// The guesses allowed to each search for a solution of the digits read: a real puzzle needs
/// a handful, and a misread one is given up on quickly.
const CLUES_GUESS_BUDGET: u64 = 2_000;

/// The cost, in nats, of reading a digit that is not the puzzle's solution in its cell: a
/// player's digit disagrees with the solution about once in a hundred, as a prior.
const OFF_SOLUTION_COST: f64 = 4.6;

/// The board in the probabilities of its 81 cells (row by row, over the network's
/// classes): the reading with the highest joint probability among those that repeat no digit
/// in a unit, a given or an entry alike. When the printed givens of that reading make a
/// puzzle with one solution, the cells are read again with that solution as a prior: a
/// digit off it must be clearly written to stand. When no reading is found within the
/// search's bound, each cell keeps its own most likely digit.
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
    let first = cells_of(probabilities, &labels, &most_likely_valid(&labels, None));
    let Some(solution) = solution_of_reading(&first) else {
        return first;
    };
    let filled = first.iter().filter(|cell| cell.digit.is_some()).count();
    let prior = Prior {
        solution,
        empty_cost: if filled >= FILLED_GRID {
            EMPTY_IN_FILLED_GRID_COST
        } else {
            0.0
        },
    };
    cells_of(
        probabilities,
        &labels,
        &most_likely_valid(&labels, Some(&prior)),
    )
}

/// What the puzzle's solution says a cell should read, as costs added to the network's.
struct Prior {
    solution: [u8; 81],
    /// The cost of an empty cell: nought, unless the grid is all but filled in.
    empty_cost: f64,
}

/// The labels (0 for empty, else the digit) of the most likely reading that repeats no digit
/// in a unit, each digit off `solution` (when known) costing [`OFF_SOLUTION_COST`] more.
fn most_likely_valid(labels: &[[f32; 10]], prior: Option<&Prior>) -> Vec<u8> {
    let cost = |p: f32| -f64::from(p.max(1e-9)).ln();
    let options: Vec<Vec<(u8, f64)>> = labels
        .iter()
        .enumerate()
        .map(|(cell, label)| {
            let solution_digit = prior.map(|prior| prior.solution[cell]);
            let prior_cost = |l: u8| match prior {
                Some(prior) if l == 0 => prior.empty_cost,
                Some(prior) if l != prior.solution[cell] => OFF_SOLUTION_COST,
                _ => 0.0,
            };
            let mut ranked: Vec<(u8, f64)> = (0..10_u8)
                .filter(|&l| {
                    label[usize::from(l)] >= MIN_OPTION_PROBABILITY || solution_digit == Some(l)
                })
                .map(|l| (l, cost(label[usize::from(l)]) + prior_cost(l)))
                .collect();
            if ranked.is_empty() {
                let best = (0..10_u8)
                    .max_by(|&a, &b| label[usize::from(a)].total_cmp(&label[usize::from(b)]))
                    .unwrap_or(0);
                ranked.push((best, cost(label[usize::from(best)])));
            }
            ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
            ranked.truncate(MAX_OPTIONS);
            ranked
        })
        .collect();
    Search::new(&options)
        .run()
        .unwrap_or_else(|| options.iter().map(|o| o[0].0).collect())
}

/// The cells of a reading: each digit's kind is the network's more likely of printed and
/// handwritten, its confidence the network's probability of the label.
fn cells_of(probabilities: &[[f32; CLASSES]], labels: &[[f32; 10]], chosen: &[u8]) -> Vec<Cell> {
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

/// The solution of the puzzle a reading shows, when its digits settle one: the digits are
/// taken as clues printed first, each kind surest first, and one that leaves the clues so far
/// without a solution is passed over (a misread digit, or a player's mistake), so that a few
/// wrong digits do not hide the puzzle. `None` when the clues kept allow more than one.
fn solution_of_reading(cells: &[Cell]) -> Option<[u8; 81]> {
    let solver = Solver::with_budget(CLUES_GUESS_BUDGET);
    let mut order: Vec<usize> = (0..81).filter(|&i| cells[i].digit.is_some()).collect();
    order.sort_by(|&a, &b| {
        let printed = |i: usize| cells[i].kind == Kind::Given;
        printed(b)
            .cmp(&printed(a))
            .then(cells[b].confidence.total_cmp(&cells[a].confidence))
    });
    let mut clues = [0_u8; 81];
    // A solution of the clues kept so far: a digit that agrees with it needs no search.
    let mut solution: Option<[u8; 81]> = None;
    for index in order {
        let digit = cells[index].digit?;
        clues[index] = digit;
        if solution.is_some_and(|solution| solution[index] == digit) {
            continue;
        }
        match Grid::from_cells(clues).map(|grid| solver.solve(&grid)) {
            Ok(Ok(found)) => solution = Some(*found.cells()),
            _ => clues[index] = 0,
        }
    }
    let grid = Grid::from_cells(clues).ok()?;
    match solver.analyze(&grid) {
        Ok(Verdict::Unique(solution)) => Some(*solution.cells()),
        _ => None,
    }
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

    /// The classic puzzle's givens printed, and the digits of its solution.
    fn classic() -> (Vec<[f32; CLASSES]>, [u8; 81]) {
        let digits = |line: &str| -> [u8; 81] { *Grid::from_line(line).unwrap().cells() };
        let (givens, solution) = (
            digits(sudoku::CLASSIC_PUZZLE),
            digits(sudoku::CLASSIC_SOLUTION),
        );
        let cells = givens
            .iter()
            .map(|&digit| certain(usize::from(digit)))
            .collect();
        (cells, solution)
    }

    /// The first open cell of the classic puzzle, and a digit off its solution that no given
    /// of its row, column or box holds (so the rules alone cannot rule it out).
    fn open_cell_and_wrong_digit(cells: &[[f32; CLASSES]], solution: &[u8; 81]) -> (usize, u8) {
        let cell = (0..81).find(|&c| cells[c][0] > 0.5).unwrap();
        let seen = |digit: u8| {
            (0..81).any(|other| {
                let same_unit = other / 9 == cell / 9
                    || other % 9 == cell % 9
                    || (other / 27, other % 9 / 3) == (cell / 27, cell % 9 / 3);
                same_unit && cells[other][usize::from(digit)] > 0.5
            })
        };
        let digit = (1..=9).find(|&d| d != solution[cell] && !seen(d)).unwrap();
        (cell, digit)
    }

    fn handwritten(readings: &[(u8, f32)]) -> [f32; CLASSES] {
        let mut p = [0.0; CLASSES];
        for &(digit, probability) in readings {
            p[9 + usize::from(digit)] = probability;
        }
        p
    }

    #[test]
    fn a_doubtful_entry_reads_as_the_puzzles_solution() {
        let (mut cells, solution) = classic();
        let (cell, wrong) = open_cell_and_wrong_digit(&cells, &solution);
        cells[cell] = handwritten(&[(wrong, 0.6), (solution[cell], 0.4)]);
        let board = read_board(&cells);
        assert_eq!(board[cell].digit, Some(solution[cell]));
        assert_eq!(board[cell].kind, Kind::Entry);
        assert!((board[cell].confidence - 0.4).abs() < 1e-6);
    }

    #[test]
    fn a_clearly_written_mistake_stands() {
        let (mut cells, solution) = classic();
        let (cell, wrong) = open_cell_and_wrong_digit(&cells, &solution);
        cells[cell] = handwritten(&[(wrong, 0.999), (solution[cell], 0.001)]);
        assert_eq!(read_board(&cells)[cell].digit, Some(wrong));
    }

    #[test]
    fn a_faint_digit_of_a_filled_grid_is_read_but_not_of_a_sparse_one() {
        let (mut cells, solution) = classic();
        let (cell, _) = open_cell_and_wrong_digit(&cells, &solution);
        let mut faint = handwritten(&[(solution[cell], 0.1)]);
        faint[0] = 0.9;
        cells[cell] = faint;
        assert_eq!(read_board(&cells)[cell].digit, None);
        for other in 0..81 {
            if other != cell && cells[other][0] > 0.5 {
                cells[other] = handwritten(&[(solution[other], 1.0)]);
            }
        }
        assert_eq!(read_board(&cells)[cell].digit, Some(solution[cell]));
    }
}
