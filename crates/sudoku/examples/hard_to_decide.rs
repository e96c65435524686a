//! An adversarial search for boards that are hard to decide: local search over clue sets
//! that maximises the guesses the solver takes to count a board's solutions up to two.
//!
//! ```text
//! cargo run --release -p sudoku --example hard_to_decide -- [--seed N] [--starts S] [--rounds R] [--budget G] [--unsolvable]
//! ```
//!
//! Each of `S` starts (default 40) begins from a random board (half the starts: 14 to 30
//! random givens that do not clash) or from a near-valid one (the other half: 17 to 28 givens
//! of a random solution grid, one of them changed to another digit that clashes with no
//! given), then makes `R` random moves (default 300): add a given, remove one, change one's
//! digit, move one to another cell, never making two givens clash. A move is kept when the
//! board takes at least as many guesses as before. Every board is searched with a budget of
//! `G` guesses (default 200,000), which bounds the run: at most `S * R * G` guesses. The
//! same seed (default 1) gives the same boards. With `--unsolvable` only boards without a
//! solution count: each start is drawn again until it has none, and a move that gives the
//! board a solution is not kept. Prints each start's hardest board with its
//! guesses on stdout (`BOARD GUESSES`, the hardest first), and a summary on stderr.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use sudoku::{Grid, Solver};

struct Options {
    seed: u64,
    starts: usize,
    rounds: usize,
    budget: u64,
    unsolvable: bool,
}

fn options() -> Options {
    let mut options = Options {
        seed: 1,
        starts: 40,
        rounds: 300,
        budget: 200_000,
        unsolvable: false,
    };
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|arg| arg == "--unsolvable") {
        options.unsolvable = true;
        args.remove(at);
    }
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse::<u64>().ok());
        match (pair[0].as_str(), value) {
            ("--seed", Some(v)) => options.seed = v,
            ("--starts", Some(v)) => options.starts = v as usize,
            ("--rounds", Some(v)) => options.rounds = v as usize,
            ("--budget", Some(v)) => options.budget = v,
            _ => {
                eprintln!(
                    "usage: hard_to_decide [--seed N] [--starts S] [--rounds R] [--budget G] [--unsolvable]"
                );
                std::process::exit(2);
            }
        }
    }
    options
}

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Whether `digit` (1-9) may go in `cell` of `cells` without clashing with another given.
fn fits(cells: &[u8; 81], cell: usize, digit: u8) -> bool {
    let (row, column) = (cell / 9, cell % 9);
    let corner = 27 * (row / 3) + 3 * (column / 3);
    (0..9).all(|i| {
        let peers = [9 * row + i, 9 * i + column, corner + 9 * (i / 3) + i % 3];
        peers
            .iter()
            .all(|&peer| peer == cell || cells[peer] != digit)
    })
}

/// A digit that fits in `cell`, if any, drawn at random.
fn fitting_digit(rng: &mut ChaCha8Rng, cells: &[u8; 81], cell: usize) -> Option<u8> {
    let fitting: Vec<u8> = (1..=9).filter(|&d| fits(cells, cell, d)).collect();
    (!fitting.is_empty()).then(|| fitting[below(rng, fitting.len())])
}

fn random_board(rng: &mut ChaCha8Rng) -> [u8; 81] {
    let mut cells = [0u8; 81];
    let givens = 14 + below(rng, 17);
    while cells.iter().filter(|&&v| v != 0).count() < givens {
        let cell = below(rng, 81);
        if cells[cell] == 0 {
            cells[cell] = fitting_digit(rng, &cells, cell).unwrap_or(0);
        }
    }
    cells
}

fn near_valid_board(rng: &mut ChaCha8Rng, solver: &Solver) -> [u8; 81] {
    let solution = loop {
        let mut seeds = [0u8; 81];
        for _ in 0..11 {
            let cell = below(rng, 81);
            seeds[cell] = fitting_digit(rng, &seeds, cell).unwrap_or(0);
        }
        if let Ok(solution) = solver.solve(&Grid::from_cells(seeds).expect("digits")) {
            break *solution.cells();
        }
    };
    let mut order: Vec<usize> = (0..81).collect();
    for i in (1..81).rev() {
        order.swap(i, below(rng, i + 1));
    }
    let mut cells = [0u8; 81];
    let givens = 17 + below(rng, 12);
    for &cell in &order[..givens] {
        cells[cell] = solution[cell];
    }
    // One given changed to another digit that clashes with nothing.
    for &cell in &order[..givens] {
        let kept = cells[cell];
        cells[cell] = 0;
        let others: Vec<u8> = (1..=9)
            .filter(|&d| d != kept && fits(&cells, cell, d))
            .collect();
        if !others.is_empty() {
            cells[cell] = others[below(rng, others.len())];
            return cells;
        }
        cells[cell] = kept;
    }
    cells
}

/// A random move that keeps the givens free of clashes.
fn mutate(rng: &mut ChaCha8Rng, cells: &[u8; 81]) -> [u8; 81] {
    let mut next = *cells;
    let givens: Vec<usize> = (0..81).filter(|&c| cells[c] != 0).collect();
    let empty: Vec<usize> = (0..81).filter(|&c| cells[c] == 0).collect();
    match below(rng, 4) {
        0 if !empty.is_empty() => {
            let cell = empty[below(rng, empty.len())];
            next[cell] = fitting_digit(rng, &next, cell).unwrap_or(0);
        }
        1 if givens.len() > 8 => next[givens[below(rng, givens.len())]] = 0,
        2 if !givens.is_empty() => {
            let cell = givens[below(rng, givens.len())];
            next[cell] = 0;
            next[cell] = fitting_digit(rng, &next, cell).unwrap_or(0);
        }
        _ if !givens.is_empty() && !empty.is_empty() => {
            let (from, to) = (
                givens[below(rng, givens.len())],
                empty[below(rng, empty.len())],
            );
            let digit = next[from];
            next[from] = 0;
            if fits(&next, to, digit) {
                next[to] = digit;
            } else {
                next[from] = digit;
            }
        }
        _ => {}
    }
    next
}

fn main() {
    let options = options();
    let solver = Solver::with_budget(options.budget);
    // The guesses a board takes; `None` for one that does not count (it has a solution when
    // only boards without one are wanted).
    let guesses = |cells: &[u8; 81]| {
        let board = Grid::from_cells(*cells).expect("digits");
        match solver.count_solutions(&board, 2) {
            Ok(count) if options.unsolvable && count.solutions > 0 => None,
            Ok(count) => Some(count.guesses),
            Err(exhausted) => Some(exhausted.guesses),
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut hardest = Vec::new();
    for start in 0..options.starts {
        let (mut board, mut score) = loop {
            let board = if start % 2 == 0 {
                random_board(&mut rng)
            } else {
                near_valid_board(&mut rng, &Solver::default())
            };
            if let Some(score) = guesses(&board) {
                break (board, score);
            }
        };
        let mut best = (score, board);
        for _ in 0..options.rounds {
            let next = mutate(&mut rng, &board);
            let Some(next_score) = guesses(&next) else {
                continue;
            };
            if next_score >= score {
                (board, score) = (next, next_score);
                if score > best.0 {
                    best = (score, board);
                }
            }
        }
        hardest.push(best);
    }
    hardest.sort_by_key(|best| std::cmp::Reverse(best.0));
    for (score, cells) in &hardest {
        println!(
            "{} {score}",
            Grid::from_cells(*cells).expect("digits").to_line()
        );
    }
    let exhausted = hardest.iter().filter(|(s, _)| *s >= options.budget).count();
    eprintln!(
        "{} starts of {} moves, seed {}: hardest {} guesses, {exhausted} at the budget of {}",
        options.starts, options.rounds, options.seed, hardest[0].0, options.budget
    );
}
