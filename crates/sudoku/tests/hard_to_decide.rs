//! Boards that are hard to decide rather than hard to solve (`data/hard-to-decide/`): most
//! have no solution or several, and each is decided within a guess bound, never left to the
//! budget. Their solution counts (up to 2) come from an independent solver, recorded beside
//! each file in its `.counts`.
//!
//! The issue family (a 17-given board without a solution that once took the whole budget,
//! and the 153 boards made from it by removing one or two givens) is also checked under
//! Sudoku's symmetries: the same boards with digits relabelled, rows swapped within bands,
//! columns within stacks, bands and stacks swapped and the grid transposed.

use sudoku::{Grid, Solver};

/// Guesses any board of the issue family may take to be decided, far below the budget. The
/// family itself takes 35 at most, an image of it 96 (before the triad check: 291).
const FAMILY_MAX_GUESSES: u64 = 128;

/// Guesses a board of the issue family without a solution takes: none, its givens alone
/// overfilling a triad (digits given in two boxes of a stack, all left one column of the
/// third box), which the solver checks before propagating. Before that check, the search's
/// own triad check refuted them at 16 guesses.
const FAMILY_WITHOUT_SOLUTION_GUESSES: u64 = 0;

/// Guesses any board of the adversarial corpus may take: the most any takes is 2,368;
/// before the all-different checks, four took over 100,000.
const ADVERSARIAL_MAX_GUESSES: u64 = 4_096;

/// Images of each family board under random symmetries: fewer in debug builds.
const IMAGES: usize = if cfg!(debug_assertions) { 3 } else { 20 };

/// Every board of the adversarial corpus in release builds, every fourth in debug ones;
/// `SUDOKU_CORPUS_STRIDE=N` takes every N-th instead, as in the corpus test.
fn stride() -> usize {
    std::env::var("SUDOKU_CORPUS_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(if cfg!(debug_assertions) { 4 } else { 1 })
}

fn corpus(name: &str) -> Vec<(Grid, usize)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/hard-to-decide/");
    let read =
        |file: String| std::fs::read_to_string(&file).unwrap_or_else(|err| panic!("{file}: {err}"));
    let boards = read(format!("{dir}{name}"));
    let counts = read(format!("{dir}{name}.counts"));
    let pairs: Vec<(Grid, usize)> = boards
        .lines()
        .zip(counts.lines())
        .map(|(board, count)| {
            (
                Grid::from_line(board).unwrap_or_else(|err| panic!("{name}: {board}: {err}")),
                count
                    .parse()
                    .unwrap_or_else(|err| panic!("{name}: {count}: {err}")),
            )
        })
        .collect();
    assert_eq!(
        pairs.len(),
        boards.lines().count(),
        "{name}: a count per board"
    );
    assert!(!pairs.is_empty(), "{name} is empty");
    pairs
}

/// The guess bound of a family board with `count` solutions.
fn family_bound(count: usize) -> u64 {
    if count == 0 {
        FAMILY_WITHOUT_SOLUTION_GUESSES
    } else {
        FAMILY_MAX_GUESSES
    }
}

fn assert_decided(solver: &Solver, board: &Grid, count: usize, bound: u64, what: &str) {
    let decided = solver
        .count_solutions(board, 2)
        .unwrap_or_else(|err| panic!("{what} {board}: {err}"));
    assert_eq!(decided.solutions, count, "{what} {board}: solutions");
    assert!(
        decided.guesses <= bound,
        "{what} {board}: {} guesses",
        decided.guesses
    );
}

/// A small deterministic generator for the symmetries (xorshift64).
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn permutation<const N: usize>(&mut self) -> [usize; N] {
        let mut items: [usize; N] = std::array::from_fn(|i| i);
        for i in (1..N).rev() {
            items.swap(i, self.below(i + 1));
        }
        items
    }

    /// Row (or column) order: the bands shuffled, and the rows within each.
    fn lines(&mut self) -> [usize; 9] {
        let bands = self.permutation::<3>();
        let within: [[usize; 3]; 3] = std::array::from_fn(|_| self.permutation::<3>());
        std::array::from_fn(|i| 3 * bands[i / 3] + within[i / 3][i % 3])
    }
}

/// The board under a random symmetry.
fn image(board: &Grid, random: &mut Random) -> Grid {
    let digits = random.permutation::<9>();
    let (rows, columns) = (random.lines(), random.lines());
    let transpose = random.below(2) == 1;
    let cells = board.cells();
    let moved = std::array::from_fn(|cell| {
        let (mut row, mut column) = (rows[cell / 9], columns[cell % 9]);
        if transpose {
            std::mem::swap(&mut row, &mut column);
        }
        match cells[9 * row + column] {
            0 => 0,
            value => digits[usize::from(value) - 1] as u8 + 1,
        }
    });
    Grid::from_cells(moved).unwrap()
}

#[test]
fn the_issue_family_is_decided_within_the_bound() {
    let family = corpus("issue_family");
    assert_eq!(family.len(), 154);
    assert_eq!(family[0].1, 0, "the issue's board has no solution");
    let solver = Solver::default();
    for (board, count) in &family {
        assert_decided(&solver, board, *count, family_bound(*count), "issue_family");
    }
}

#[test]
fn the_issue_family_under_symmetries_is_decided_within_the_bound() {
    let solver = Solver::default();
    let mut random = Random(0x5EED_0026);
    for (board, count) in corpus("issue_family") {
        for _ in 0..IMAGES {
            let image = image(&board, &mut random);
            assert_decided(&solver, &image, count, family_bound(count), "image of");
        }
    }
}

#[test]
fn every_adversarial_board_is_decided_within_the_bound() {
    let adversarial = corpus("adversarial");
    assert!(adversarial.len() >= 700, "{} boards", adversarial.len());
    assert!(adversarial.iter().any(|&(_, count)| count == 0));
    let solver = Solver::default();
    for (board, count) in adversarial.iter().step_by(stride()) {
        assert_decided(
            &solver,
            board,
            *count,
            ADVERSARIAL_MAX_GUESSES,
            "adversarial",
        );
    }
}
