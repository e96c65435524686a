//! Generating puzzles of every size and of the 9x9 variants, seeded and reproducible.
//!
//! # How a puzzle is made
//! 1. The rules: the boxes of the size, or for a variant its diagonals, its four windows,
//!    its jigsaw regions (the boxes reshaped by random swaps of cells between neighbouring
//!    regions that keep both connected), or for killer the classic rules (cages come later).
//! 2. A complete grid: the engine fills the empty board, each branching cell's candidates
//!    tried in an order the seed chooses.
//! 3. Killer only: cages of one to five cells grown at random over the whole grid, each
//!    holding different digits, with their sums.
//! 4. Clues: every cell starts as a clue (killer: none, then clues are added where a second
//!    solution differs until the puzzle is unique), and clues are removed by orbits of the
//!    symmetry in a random order, each for good if the puzzle stays unique.
//!
//! A uniqueness check that runs out of guesses counts as "not unique", so the engine's
//! guess counts, not the clock, decide every step: a seed gives the same puzzle on every
//! machine. The caller's `keep_going` is asked between steps, so a deadline can stop it.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use super::default_box;
use super::engine::{Counter, Lookahead, random_solution};
use super::rules::{Cage, Diagonal, Puzzle, Rules, VariantCell};
use crate::Symmetry;

/// The guesses one uniqueness check may take, scaled down by the board's cells.
const CHECK_BUDGET_9X9: u64 = 200;
/// The guesses filling an empty board may take before the generator tries another seed.
const FILL_BUDGET: u64 = 2_000;

/// The rules a generated puzzle follows beside its size's rows and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum VariantKind {
    /// Boxes only.
    #[default]
    Classic,
    /// Irregular regions of nine connected cells instead of boxes.
    Jigsaw,
    /// Cages with their sums cover the grid; few or no clues.
    Killer,
    /// Both diagonals hold every digit once (X-sudoku).
    Diagonal,
    /// Four extra windows of nine cells hold every digit once.
    Windoku,
}

impl VariantKind {
    /// Every kind, in the order the spec lists them.
    pub const ALL: [VariantKind; 5] = [
        VariantKind::Classic,
        VariantKind::Jigsaw,
        VariantKind::Killer,
        VariantKind::Diagonal,
        VariantKind::Windoku,
    ];

    /// The lowercase name used on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            VariantKind::Classic => "classic",
            VariantKind::Jigsaw => "jigsaw",
            VariantKind::Killer => "killer",
            VariantKind::Diagonal => "diagonal",
            VariantKind::Windoku => "windoku",
        }
    }

    /// The kind of a name, if it is one.
    pub fn from_name(name: &str) -> Option<VariantKind> {
        VariantKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
    }
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VariantOptions {
    /// The side, one with boxes (4, 6, 8, 9, 10, 12, 15, 16, 20, 25); the variants are 9x9.
    pub size: usize,
    /// The rules beside rows, columns and boxes.
    pub kind: VariantKind,
    /// Clues come in orbits of this symmetry, turned to the board's side.
    pub symmetry: Symmetry,
    /// The seed: the same options and seed give the same puzzle.
    pub seed: u64,
}

/// A puzzle made by [`generate_variant`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedVariant {
    /// The side of the board.
    pub size: usize,
    /// The clues, row-major, 0 for an empty cell.
    pub puzzle: Vec<u8>,
    /// The one solution.
    pub solution: Vec<u8>,
    /// The rules beside the size's rows, columns and boxes (empty for classic).
    pub rules: Rules,
    /// How many clues the puzzle has.
    pub clues: usize,
    /// The seed it was made from.
    pub seed: u64,
}

/// Why no puzzle was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantGenerateError {
    /// The options ask for something no puzzle can be: a size without boxes, a variant on
    /// another size than 9x9.
    #[error("{0}")]
    Unsupported(String),
    /// `keep_going` said to stop before the puzzle was finished.
    #[error("generation was stopped before a puzzle was finished")]
    Stopped,
}

/// Makes a puzzle with exactly one solution; see the module's documentation.
///
/// # Errors
/// [`VariantGenerateError::Unsupported`] for options no puzzle fits,
/// [`VariantGenerateError::Stopped`] when `keep_going` answered `false`.
pub fn generate_variant(
    options: &VariantOptions,
    keep_going: &mut dyn FnMut() -> bool,
) -> Result<GeneratedVariant, VariantGenerateError> {
    let size = options.size;
    if default_box(size).is_none() || size > super::MAX_SIZE {
        return Err(VariantGenerateError::Unsupported(format!(
            "no {size}x{size} puzzles: sizes are 4, 6, 8, 9, 10, 12, 15, 16, 20 and 25"
        )));
    }
    if options.kind != VariantKind::Classic && size != 9 {
        return Err(VariantGenerateError::Unsupported(format!(
            "{} puzzles are 9x9 only, not {size}x{size}",
            options.kind.as_str()
        )));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let budget = (CHECK_BUDGET_9X9 * 81 / (size * size) as u64).max(100);
    let (rules, solution) = loop {
        if !keep_going() {
            return Err(VariantGenerateError::Stopped);
        }
        let rules = match options.kind {
            VariantKind::Classic | VariantKind::Killer => Rules::default(),
            VariantKind::Jigsaw => Rules {
                regions: Some(jigsaw_regions(&mut rng)),
                ..Rules::default()
            },
            VariantKind::Diagonal => Rules {
                diagonals: vec![Diagonal::Main, Diagonal::Anti],
                ..Rules::default()
            },
            VariantKind::Windoku => Rules {
                extra_regions: windows(),
                ..Rules::default()
            },
        };
        let empty = Puzzle::new(vec![0; size * size], &rules)
            .map_err(|err| VariantGenerateError::Unsupported(err.message))?;
        if let Some(solution) = random_solution(&empty, rng.next_u64(), FILL_BUDGET) {
            break (rules, solution);
        }
    };
    let rules = if options.kind == VariantKind::Killer {
        Rules {
            cages: killer_cages(&solution, &mut rng),
            ..rules
        }
    } else {
        rules
    };
    let layout = Puzzle::new(vec![0; size * size], &rules)
        .map_err(|err| VariantGenerateError::Unsupported(err.message))?;
    let counter = Counter::new(&layout);
    // The clues of an orbit may go when no solution has another digit in any of its cells.
    let only_solution_without = |clues: &[u8], orbit: &[usize]| {
        orbit.iter().all(|&cell| {
            counter
                .solvable_without(clues, cell, solution[cell], budget)
                .is_ok_and(|solvable| !solvable)
        })
    };
    let mut clues = if options.kind == VariantKind::Killer {
        clues_until_unique(&solution, &counter, budget, &mut rng, keep_going)?
    } else {
        solution.clone()
    };
    let mut orbits = orbits(size, options.symmetry);
    shuffle(&mut orbits, &mut rng);
    for orbit in orbits {
        if !keep_going() {
            return Err(VariantGenerateError::Stopped);
        }
        if orbit.iter().all(|&cell| clues[cell] == 0) {
            continue;
        }
        let kept: Vec<u8> = orbit.iter().map(|&cell| clues[cell]).collect();
        for &cell in &orbit {
            clues[cell] = 0;
        }
        if !only_solution_without(&clues, &orbit) {
            for (&cell, &digit) in orbit.iter().zip(&kept) {
                clues[cell] = digit;
            }
        }
    }
    Ok(GeneratedVariant {
        size,
        clues: clues.iter().filter(|&&digit| digit != 0).count(),
        puzzle: clues,
        solution,
        rules,
        seed: options.seed,
    })
}

/// Killer clues: none at first, then the solution's digit at a cell where another solution
/// differs (or, when the one found is the solution, at the first open cell the rng picks),
/// until the cages and clues allow one solution only.
fn clues_until_unique(
    solution: &[u8],
    counter: &Counter<'_>,
    budget: u64,
    rng: &mut ChaCha8Rng,
    keep_going: &mut dyn FnMut() -> bool,
) -> Result<Vec<u8>, VariantGenerateError> {
    let mut clues = vec![0u8; solution.len()];
    loop {
        if !keep_going() {
            return Err(VariantGenerateError::Stopped);
        }
        let counted = counter.count(&clues, 2, budget, Lookahead::Off);
        let other = match counted {
            Ok(count) if count.solutions == 1 => return Ok(clues),
            Ok(count) => count.first,
            Err(_) => None,
        };
        let differs = other.and_then(|other| {
            (0..solution.len()).find(|&cell| clues[cell] == 0 && other[cell] != solution[cell])
        });
        let cell = differs.unwrap_or_else(|| {
            let open: Vec<usize> = (0..solution.len()).filter(|&c| clues[c] == 0).collect();
            open[below(rng, open.len())]
        });
        clues[cell] = solution[cell];
    }
}

/// The clue orbits of `symmetry` on a board of `size`: each cell with its image.
fn orbits(size: usize, symmetry: Symmetry) -> Vec<Vec<usize>> {
    let image = |cell: usize| {
        let (row, col) = (cell / size, cell % size);
        let (r, c) = match symmetry {
            Symmetry::None => (row, col),
            Symmetry::Rotational => (size - 1 - row, size - 1 - col),
            Symmetry::Diagonal => (col, row),
            Symmetry::Mirror => (row, size - 1 - col),
        };
        r * size + c
    };
    (0..size * size)
        .filter(|&cell| image(cell) >= cell)
        .map(|cell| {
            if image(cell) == cell {
                vec![cell]
            } else {
                vec![cell, image(cell)]
            }
        })
        .collect()
}

/// The windoku windows: rows and columns 2-4 and 6-8 (1-based), four boxes' worth.
fn windows() -> Vec<Vec<VariantCell>> {
    let mut found = Vec::new();
    for top in [1, 5] {
        for left in [1, 5] {
            found.push(
                (0..9)
                    .map(|i| VariantCell {
                        row: top + i / 3,
                        col: left + i % 3,
                    })
                    .collect(),
            );
        }
    }
    found
}

/// Jigsaw regions of a 9x9 board: the boxes, then random swaps of two neighbouring cells
/// of different regions, each kept when both regions stay connected.
fn jigsaw_regions(rng: &mut ChaCha8Rng) -> Vec<Vec<usize>> {
    const SWAPS: usize = 120;
    const TRIES: usize = 5_000;
    let mut region: Vec<usize> = (0..81)
        .map(|cell| (cell / 27) * 3 + (cell % 9) / 3)
        .collect();
    let mut done = 0;
    for _ in 0..TRIES {
        if done == SWAPS {
            break;
        }
        let a = below(rng, 81);
        let neighbours: Vec<usize> = neighbours(a).filter(|&b| region[b] != region[a]).collect();
        if neighbours.is_empty() {
            continue;
        }
        // Two cells swap regions through a third pair so that sizes stay nine: a moves to
        // b's region and some other cell c of b's region, next to a's region, moves back.
        let b = neighbours[below(rng, neighbours.len())];
        let (from, to) = (region[a], region[b]);
        let returning: Vec<usize> = (0..81)
            .filter(|&c| region[c] == to && neighbours_of_region(c, from, &region))
            .collect();
        if returning.is_empty() {
            continue;
        }
        let c = returning[below(rng, returning.len())];
        region[a] = to;
        region[c] = from;
        if connected(&region, from) && connected(&region, to) {
            done += 1;
        } else {
            region[a] = from;
            region[c] = to;
        }
    }
    (0..9)
        .map(|row| region[row * 9..row * 9 + 9].to_vec())
        .collect()
}

fn neighbours(cell: usize) -> impl Iterator<Item = usize> {
    let (row, col) = (cell / 9, cell % 9);
    [(0isize, -1isize), (0, 1), (-1, 0), (1, 0)]
        .into_iter()
        .filter_map(move |(dr, dc)| {
            let r = row.checked_add_signed(dr).filter(|&r| r < 9)?;
            let c = col.checked_add_signed(dc).filter(|&c| c < 9)?;
            Some(r * 9 + c)
        })
}

fn neighbours_of_region(cell: usize, wanted: usize, region: &[usize]) -> bool {
    neighbours(cell).any(|n| region[n] == wanted)
}

/// Whether the cells of region `which` form one piece, edge to edge.
fn connected(region: &[usize], which: usize) -> bool {
    let Some(start) = (0..region.len()).find(|&c| region[c] == which) else {
        return false;
    };
    let mut seen = vec![false; region.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 0;
    while let Some(cell) = stack.pop() {
        reached += 1;
        for next in neighbours(cell) {
            if region[next] == which && !seen[next] {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    reached == region.iter().filter(|&&r| r == which).count()
}

/// Cages over the whole 9x9 grid: from each uncaged cell in a random order, a cage grows to
/// a random size of two to five by uncaged neighbours whose digit it lacks.
fn killer_cages(solution: &[u8], rng: &mut ChaCha8Rng) -> Vec<Cage> {
    let mut caged = [false; 81];
    let mut order: Vec<usize> = (0..81).collect();
    shuffle(&mut order, rng);
    let mut cages = Vec::new();
    for start in order {
        if caged[start] {
            continue;
        }
        let target = 2 + below(rng, 4);
        let mut cells = vec![start];
        caged[start] = true;
        while cells.len() < target {
            let options: Vec<usize> = cells
                .iter()
                .flat_map(|&cell| neighbours(cell))
                .filter(|&n| !caged[n] && cells.iter().all(|&c| solution[c] != solution[n]))
                .collect();
            if options.is_empty() {
                break;
            }
            let next = options[below(rng, options.len())];
            caged[next] = true;
            cells.push(next);
        }
        cells.sort_unstable();
        cages.push(Cage {
            sum: Some(cells.iter().map(|&c| u32::from(solution[c])).sum()),
            cells: cells
                .iter()
                .map(|&c| VariantCell {
                    row: c / 9,
                    col: c % 9,
                })
                .collect(),
        });
    }
    cages
}

/// A number below `n` (> 0), by rejection: no modulo bias, the same on every platform.
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u32;
    let zone = u32::MAX - u32::MAX % n;
    loop {
        let x = rng.next_u32();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, below(rng, i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::super::{find_variant_conflicts, solve_variant};
    use super::*;

    fn made(size: usize, kind: VariantKind, seed: u64) -> GeneratedVariant {
        let options = VariantOptions {
            size,
            kind,
            symmetry: Symmetry::None,
            seed,
        };
        generate_variant(&options, &mut || true).expect("a puzzle")
    }

    #[test]
    fn every_kind_gives_a_unique_puzzle_whose_solution_keeps_its_rules() {
        for (size, kind) in [
            (4, VariantKind::Classic),
            (6, VariantKind::Classic),
            (8, VariantKind::Classic),
            (12, VariantKind::Classic),
            (9, VariantKind::Jigsaw),
            (9, VariantKind::Killer),
            (9, VariantKind::Diagonal),
            (9, VariantKind::Windoku),
        ] {
            let puzzle = made(size, kind, 7);
            let compiled = Puzzle::new(puzzle.puzzle.clone(), &puzzle.rules).unwrap();
            let verdict = solve_variant(&compiled, 1_000_000).unwrap();
            assert_eq!(
                verdict,
                super::super::VariantVerdict::Unique(puzzle.solution.clone()),
                "{size} {kind:?}"
            );
            assert!(find_variant_conflicts(&compiled, &puzzle.solution).is_empty());
            for (given, solved) in puzzle.puzzle.iter().zip(&puzzle.solution) {
                assert!(*given == 0 || given == solved);
            }
            assert_eq!(
                puzzle.clues,
                puzzle.puzzle.iter().filter(|&&d| d != 0).count()
            );
            assert!(
                puzzle.clues < size * size / 2,
                "{size} {kind:?}: {}",
                puzzle.clues
            );
        }
    }

    #[test]
    fn a_seed_gives_the_same_puzzle_and_another_seed_another() {
        for kind in [VariantKind::Jigsaw, VariantKind::Killer] {
            assert_eq!(made(9, kind, 11), made(9, kind, 11));
            assert_ne!(made(9, kind, 11).puzzle, made(9, kind, 12).puzzle);
        }
        assert_ne!(
            made(6, VariantKind::Classic, 1).solution,
            made(6, VariantKind::Classic, 2).solution
        );
    }

    #[test]
    fn killer_cages_cover_the_grid_once_with_the_solutions_sums() {
        let puzzle = made(9, VariantKind::Killer, 3);
        let mut covered = [0; 81];
        for cage in &puzzle.rules.cages {
            assert!((1..=5).contains(&cage.cells.len()));
            let sum: u32 = cage
                .cells
                .iter()
                .map(|c| u32::from(puzzle.solution[c.row * 9 + c.col]))
                .sum();
            assert_eq!(cage.sum, Some(sum));
            for cell in &cage.cells {
                covered[cell.row * 9 + cell.col] += 1;
            }
        }
        assert!(covered.iter().all(|&n| n == 1));
        assert!(puzzle.clues <= 12, "{} clues", puzzle.clues);
    }

    #[test]
    fn jigsaw_regions_are_nine_connected_pieces_of_nine_unlike_the_boxes() {
        let regions = made(9, VariantKind::Jigsaw, 5).rules.regions.unwrap();
        let flat: Vec<usize> = regions.concat();
        for which in 0..9 {
            assert_eq!(flat.iter().filter(|&&r| r == which).count(), 9);
            assert!(connected(&flat, which));
        }
        let boxes: Vec<usize> = (0..81).map(|c| (c / 27) * 3 + (c % 9) / 3).collect();
        assert_ne!(flat, boxes);
    }

    #[test]
    fn symmetric_clues_come_in_orbits_and_wrong_options_are_refused() {
        let options = VariantOptions {
            size: 16,
            kind: VariantKind::Classic,
            symmetry: Symmetry::Rotational,
            seed: 9,
        };
        let puzzle = generate_variant(&options, &mut || true).unwrap();
        for cell in 0..256 {
            assert_eq!(puzzle.puzzle[cell] != 0, puzzle.puzzle[255 - cell] != 0);
        }
        for (size, kind) in [(7, VariantKind::Classic), (16, VariantKind::Killer)] {
            let options = VariantOptions {
                size,
                kind,
                ..options
            };
            assert!(matches!(
                generate_variant(&options, &mut || true),
                Err(VariantGenerateError::Unsupported(_))
            ));
        }
        assert_eq!(
            generate_variant(&options, &mut || false),
            Err(VariantGenerateError::Stopped)
        );
    }
}
