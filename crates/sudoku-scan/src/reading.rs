//! From the network's per-cell probabilities to a board: the most likely reading in which
//! no digit repeats in a row, column or box, found by a bounded branch-and-bound search.

use sudoku::{Grid, Solver, Verdict};

use crate::CLASSES;
use crate::model::MARKS;

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
    read_board_with_ink(probabilities, &[None; 81])
}

/// [`read_board`], with the colour of each cell's ink (see [`crate::ink_colours`]) as
/// evidence of which digits are printed and which a player's: where the photo's surest
/// printed and handwritten digits differ clearly in colour, each digit's kind weighs its
/// colour with the network's own odds.
///
/// # Panics
/// If `probabilities` or `inks` does not hold 81 cells.
pub fn read_board_with_ink(
    probabilities: &[[f32; CLASSES]],
    inks: &[Option<[f32; 2]>],
) -> Vec<Cell> {
    assert_eq!(probabilities.len(), 81, "a board has 81 cells");
    assert_eq!(inks.len(), 81, "a board has 81 cells");
    let handwriting = handwriting_by_ink(probabilities, inks);
    // The probability of no digit (empty, or pencil marks) and of each digit, printed or
    // handwritten.
    let labels: Vec<[f32; 10]> = probabilities
        .iter()
        .map(|p| {
            let mut label = [0.0; 10];
            label[0] = p[0] + p[MARKS];
            for digit in 1..=9 {
                label[digit] = p[digit] + p[9 + digit];
            }
            label
        })
        .collect();
    let first = cells_of(
        probabilities,
        &labels,
        &handwriting,
        &most_likely_valid(&labels, None).map_or_else(|| best_each(&labels), |(_, chosen)| chosen),
    );
    let filled = first.iter().filter(|cell| cell.digit.is_some()).count();
    let empty_cost = if filled >= FILLED_GRID {
        EMPTY_IN_FILLED_GRID_COST
    } else {
        0.0
    };
    // The printed digits settle the puzzle unless one is misread; the surest digits of either
    // kind unless a player's mistake is among them: the solution whose reading costs less wins.
    let mut solutions = vec![];
    for printed_first in [true, false] {
        if let Some(solution) = solution_of_reading(&first, printed_first) {
            if !solutions.contains(&solution) {
                solutions.push(solution);
            }
        }
    }
    let Some((_, chosen)) = solutions
        .into_iter()
        .filter_map(|solution| {
            most_likely_valid(
                &labels,
                Some(&Prior {
                    solution,
                    empty_cost,
                }),
            )
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
    else {
        return first;
    };
    cells_of(probabilities, &labels, &handwriting, &chosen)
}

/// What the puzzle's solution says a cell should read, as costs added to the network's.
struct Prior {
    solution: [u8; 81],
    /// The cost of an empty cell: nought, unless the grid is all but filled in.
    empty_cost: f64,
}

/// Each cell's own most likely label, rules aside.
fn best_each(labels: &[[f32; 10]]) -> Vec<u8> {
    labels
        .iter()
        .map(|label| {
            (0..10_u8)
                .max_by(|&a, &b| label[usize::from(a)].total_cmp(&label[usize::from(b)]))
                .unwrap_or(0)
        })
        .collect()
}

/// The most likely reading that repeats no digit in a unit, each label costing as the prior
/// says too, with its cost in nats: its labels (0 for empty, else the digit). `None` when the
/// search's bound comes first.
fn most_likely_valid(labels: &[[f32; 10]], prior: Option<&Prior>) -> Option<(f64, Vec<u8>)> {
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
    Search::new(&options).run()
}

/// The cells of a reading: each digit's kind is the more likely of printed and handwritten
/// by the network's odds times the ink's (`handwriting`, in nats), its confidence the
/// network's probability of the label; a cell without a digit holds pencil marks when the
/// network finds them likelier than an empty cell, and its confidence is that it holds no
/// digit (empty or marks alike: what a player must check is whether a digit was missed).
fn cells_of(
    probabilities: &[[f32; CLASSES]],
    labels: &[[f32; 10]],
    handwriting: &[f64],
    chosen: &[u8],
) -> Vec<Cell> {
    chosen
        .iter()
        .enumerate()
        .map(|(index, &label)| {
            let p = &probabilities[index];
            let (kind, digit) = match label {
                0 if p[MARKS] > p[0] => (Kind::Candidates, None),
                0 => (Kind::Empty, None),
                digit => {
                    let d = usize::from(digit);
                    (
                        if log_odds(p[9 + d], p[d]) + handwriting[index] > 0.0 {
                            Kind::Entry
                        } else {
                            Kind::Given
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

/// The natural log of `a / b`, each floored so that a zero is only very unlikely.
fn log_odds(a: f32, b: f32) -> f64 {
    f64::from(a.max(1e-9)).ln() - f64::from(b.max(1e-9)).ln()
}

/// A network's kind this sure (odds of 19 to 1) makes a cell a sample of its kind's ink.
const SURE_KIND_LOG_ODDS: f64 = 2.944;

/// The fewest sure samples of each kind for the photo's inks to count.
const LEAST_INK_SAMPLES: usize = 3;

/// How far apart, in their spread, the two kinds' mean inks must be to tell them apart.
const LEAST_INK_SEPARATION: f64 = 3.0;

/// The least spread of a kind's ink, in chroma levels: JPEG noise on a thin stroke.
const LEAST_INK_SPREAD: f64 = 4.0;

/// The most the ink may weigh, in nats, either way.
const MOST_INK_EVIDENCE: f64 = 10.0;

/// For each cell, the evidence of its ink's colour that its digit is handwritten rather than
/// printed, in nats (0 where it tells nothing): the photo's sure printed and sure handwritten
/// digits give each kind's mean ink and their common spread; when the two means stand well
/// apart, a cell's ink counts by the log ratio of its likelihoods under the two, each a round
/// Gaussian about its mean.
fn handwriting_by_ink(probabilities: &[[f32; CLASSES]], inks: &[Option<[f32; 2]>]) -> Vec<f64> {
    let mut sure: [Vec<[f64; 2]>; 2] = [Vec::new(), Vec::new()];
    for (p, ink) in probabilities.iter().zip(inks) {
        let Some(ink) = ink else { continue };
        let digit = (1..=9)
            .max_by(|&a, &b| (p[a] + p[9 + a]).total_cmp(&(p[b] + p[9 + b])))
            .unwrap_or(1);
        if p[0] + p[MARKS] > p[digit] + p[9 + digit] {
            continue;
        }
        let odds = log_odds(p[9 + digit], p[digit]);
        if odds.abs() >= SURE_KIND_LOG_ODDS {
            sure[usize::from(odds > 0.0)].push(ink.map(f64::from));
        }
    }
    let nothing = vec![0.0; inks.len()];
    if sure.iter().any(|kind| kind.len() < LEAST_INK_SAMPLES) {
        return nothing;
    }
    let mean = |kind: &[[f64; 2]]| -> [f64; 2] {
        let n = kind.len() as f64;
        [0, 1].map(|c| kind.iter().map(|ink| ink[c]).sum::<f64>() / n)
    };
    let distance2 = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2);
    let means = [mean(&sure[0]), mean(&sure[1])];
    // The variance per chroma component, pooled over both kinds.
    let spread2 = (sure
        .iter()
        .zip(means)
        .map(|(kind, mean)| kind.iter().map(|&ink| distance2(ink, mean)).sum::<f64>())
        .sum::<f64>()
        / (2.0 * (sure[0].len() + sure[1].len()) as f64))
        .max(LEAST_INK_SPREAD * LEAST_INK_SPREAD);
    if distance2(means[0], means[1]) < LEAST_INK_SEPARATION.powi(2) * spread2 {
        return nothing;
    }
    inks.iter()
        .map(|ink| {
            ink.map_or(0.0, |ink| {
                let ink = ink.map(f64::from);
                ((distance2(ink, means[0]) - distance2(ink, means[1])) / (2.0 * spread2))
                    .clamp(-MOST_INK_EVIDENCE, MOST_INK_EVIDENCE)
            })
        })
        .collect()
}

/// The solution of the puzzle a reading shows, when its digits settle one: the digits are
/// taken as clues surest first (the printed ones before all others if `printed_first`), and
/// one that leaves the clues so far without a solution is passed over (a misread digit, or a
/// player's mistake), so that a few wrong digits do not hide the puzzle. `None` when the
/// clues kept allow more than one.
fn solution_of_reading(cells: &[Cell], printed_first: bool) -> Option<[u8; 81]> {
    let solver = Solver::with_budget(CLUES_GUESS_BUDGET);
    let mut order: Vec<usize> = (0..81).filter(|&i| cells[i].digit.is_some()).collect();
    order.sort_by(|&a, &b| {
        let printed = |i: usize| printed_first && cells[i].kind == Kind::Given;
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

    fn run(mut self) -> Option<(f64, Vec<u8>)> {
        self.descend(0, 0.0);
        self.best
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

    #[test]
    fn pencil_marks_hold_no_digit_and_a_digit_they_block_stands_elsewhere() {
        let mut cells = vec![certain(0); 81];
        cells[0] = certain(7);
        // Marks that look a little like a 7: the cell holds no digit, so the row's 7 stays.
        let mut marks = [0.0; CLASSES];
        marks[MARKS] = 0.6;
        marks[9 + 7] = 0.3;
        marks[0] = 0.1;
        cells[1] = marks;
        // A digit the network finds likelier than marks is read as the digit.
        let mut digit = [0.0; CLASSES];
        digit[9 + 2] = 0.55;
        digit[MARKS] = 0.45;
        cells[2] = digit;
        let board = read_board(&cells);
        assert_eq!((board[1].kind, board[1].digit), (Kind::Candidates, None));
        assert!((board[1].confidence - 0.7).abs() < 1e-6);
        assert_eq!((board[2].kind, board[2].digit), (Kind::Entry, Some(2)));
        assert_eq!((board[3].kind, board[3].digit), (Kind::Empty, None));
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
    fn red_ink_makes_a_digit_the_network_doubts_handwritten_and_grey_ink_printed() {
        let mut cells = vec![certain(0); 81];
        let mut inks = vec![None; 81];
        // Four sure printed digits in grey ink and four sure handwritten ones in red.
        for (k, cell) in [0, 13, 26, 30].into_iter().enumerate() {
            cells[cell] = certain(1 + k);
            inks[cell] = Some([1.0 - k as f32, -1.0 + k as f32]);
        }
        for (k, cell) in [40, 53, 66, 70].into_iter().enumerate() {
            cells[cell] = certain(9 + 5 + k);
            inks[cell] = Some([-40.0 + k as f32, 90.0 - k as f32]);
        }
        // Two digits the network leans the wrong way on, against their ink.
        let mut leaning_printed = [0.0; CLASSES];
        (leaning_printed[9], leaning_printed[18]) = (0.7, 0.3);
        cells[80] = leaning_printed;
        inks[80] = Some([-38.0, 95.0]);
        let mut leaning_handwritten = [0.0; CLASSES];
        (leaning_handwritten[8], leaning_handwritten[17]) = (0.3, 0.7);
        cells[8] = leaning_handwritten;
        inks[8] = Some([0.5, 2.0]);
        let by_network = read_board(&cells);
        assert_eq!(
            (by_network[80].kind, by_network[8].kind),
            (Kind::Given, Kind::Entry)
        );
        let by_ink = read_board_with_ink(&cells, &inks);
        assert_eq!(
            (by_ink[80].kind, by_ink[8].kind),
            (Kind::Entry, Kind::Given)
        );
        assert_eq!(by_ink[40].kind, Kind::Entry);
        assert_eq!(by_ink[0].kind, Kind::Given);
    }

    #[test]
    fn inks_of_one_colour_leave_the_kinds_to_the_network() {
        let mut cells = vec![certain(0); 81];
        let mut inks = vec![None; 81];
        for (k, cell) in [0, 13, 26, 30, 40, 53, 66, 70].into_iter().enumerate() {
            cells[cell] = certain(if k < 4 { 1 + k } else { 9 + 1 + k });
            inks[cell] = Some([k as f32 - 4.0, 4.0 - k as f32]);
        }
        let mut leaning_printed = [0.0; CLASSES];
        (leaning_printed[9], leaning_printed[18]) = (0.7, 0.3);
        cells[80] = leaning_printed;
        inks[80] = Some([6.0, -6.0]);
        assert_eq!(read_board_with_ink(&cells, &inks)[80].kind, Kind::Given);
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
