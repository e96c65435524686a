//! Generating puzzles: seeded, symmetric, minimal, graded.
//!
//! # How a puzzle is made
//! One *attempt* from a seed:
//! 1. A complete grid: cells filled one at a time, always the first open cell with the
//!    fewest candidates, its candidates tried in a random order, backtracking when a cell
//!    has none. The grids are random but not uniformly distributed over all grids.
//! 2. The clues are removed by *orbits* of the [`Symmetry`] (a cell and its image), the
//!    orbits in a random order, each for good if the puzzle still has exactly one solution
//!    ([`Solver`] counts up to two), otherwise put back. Every orbit is tried once: an
//!    orbit that could not go then cannot go later either, since fewer clues never mean
//!    fewer solutions, so the result is minimal (see [`GenerateOptions::minimal`]).
//! 3. The puzzle is graded ([`grade`](mod@crate::grade)).
//!
//! When a difficulty is asked for and the attempt's grade is another, the next attempt
//! starts from the next seed, [`next_seed`] of this one, until one matches, the attempts
//! run out, or the caller's callback says to stop.
//!
//! # Reproducibility
//! The random numbers are `ChaCha8` ([`rand_chacha::ChaCha8Rng`], seeded with
//! `seed_from_u64`), whose stream its crate promises is the same on every platform and in
//! every release of a minor version. Every number drawn is a `u32`, mapped to a range by
//! rejection (no modulo bias, nothing that depends on the word size); nothing iterates a
//! hash map. The solver is asked only whether a puzzle is unique, an answer that does not
//! depend on how it searches (within a guess budget no 9x9 puzzle comes near). So one attempt's puzzle depends on its seed, the symmetry and
//! the options alone, on every machine and release. Which attempt is accepted for a
//! difficulty depends on the grades, so a change to a technique's rating can change the
//! puzzle a seed gives for a difficulty; the golden test in this file says when it does.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use super::grade::{DEFAULT_STEP_BUDGET, Difficulty, Grade, grade_unique, solves_within};
use super::{CELLS, Grid, Solver};

/// Attempts [`GenerateOptions::default`] allows per puzzle.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 10_000;

/// Which cells must hold a clue together: every clue's image under the symmetry is a clue
/// too. Cells are `(row, column)`, 0-based, `(0, 0)` top left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// No constraint: each cell is its own image.
    #[default]
    None,
    /// Half-turn about the centre: `(r, c)` and `(8 - r, 8 - c)`; only the centre cell
    /// `(4, 4)` is its own image.
    Rotational,
    /// Reflection in the main diagonal, top left to bottom right: `(r, c)` and `(c, r)`;
    /// the nine cells `(i, i)` are their own images.
    Diagonal,
    /// Reflection in the middle column, left to right: `(r, c)` and `(r, 8 - c)`; the nine
    /// cells `(r, 4)` are their own images.
    Mirror,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 4] = [
        Symmetry::None,
        Symmetry::Rotational,
        Symmetry::Diagonal,
        Symmetry::Mirror,
    ];

    /// The lowercase name: `none`, `rotational`, `diagonal` or `mirror`.
    pub fn as_str(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Mirror => "mirror",
        }
    }

    /// The image of a row-major cell index `0..81` (see the variants). Each symmetry is its
    /// own inverse: the image of the image is the cell.
    ///
    /// # Panics
    /// When `cell` is 81 or more.
    pub fn image(self, cell: usize) -> usize {
        assert!(cell < CELLS, "cell {cell} is off the grid");
        let (row, col) = (cell / 9, cell % 9);
        match self {
            Symmetry::None => cell,
            Symmetry::Rotational => CELLS - 1 - cell,
            Symmetry::Diagonal => col * 9 + row,
            Symmetry::Mirror => row * 9 + (8 - col),
        }
    }

    /// The orbits: each cell with its image, the lower one first, in order of the lower
    /// one; a cell that is its own image is an orbit of one.
    pub fn orbits(self) -> Vec<Vec<usize>> {
        (0..CELLS)
            .filter_map(|cell| {
                let image = self.image(cell);
                match image.cmp(&cell) {
                    std::cmp::Ordering::Less => None,
                    std::cmp::Ordering::Equal => Some(vec![cell]),
                    std::cmp::Ordering::Greater => Some(vec![cell, image]),
                }
            })
            .collect()
    }

    /// Whether the clues of `grid` follow this symmetry: the image of every clue is a clue.
    pub fn holds_for(self, grid: &Grid) -> bool {
        let cells = grid.cells();
        (0..CELLS).all(|cell| (cells[cell] == 0) == (cells[self.image(cell)] == 0))
    }
}

/// A name that is not a [`Symmetry`]; its message lists the valid ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown symmetry {name:?}: expected one of none, rotational, diagonal, mirror")]
pub struct UnknownSymmetry {
    /// The name given.
    pub name: String,
}

named_by_as_str!(Symmetry, UnknownSymmetry);

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GenerateOptions {
    /// The difficulty wanted; any when `None` (then the first attempt is taken).
    pub difficulty: Option<Difficulty>,
    /// The symmetry of the clues.
    pub symmetry: Symmetry,
    /// `true` (the default): the puzzle is minimal *per orbit*: removing any orbit of
    /// clues (a clue and its image together) leaves more than one solution. Without
    /// symmetry every orbit is one clue, so no single clue can go. With one, a lone clue of
    /// a pair might go, but not without breaking the symmetry.
    ///
    /// `false`: the puzzle may keep clues that could go. The generator keeps those whose
    /// removal would make the puzzle harder than the difficulty asked for: an easy puzzle
    /// then keeps the clues that spare its solver any step beyond a single, and comes on
    /// the first attempt. Without a difficulty, or for [`Difficulty::Extreme`], which has
    /// no top, nothing holds a clue back and the puzzle is minimal all the same.
    pub minimal: bool,
    /// The seed of the first attempt.
    pub seed: u64,
    /// Attempts allowed before giving up (at least one is made).
    pub max_attempts: u32,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            difficulty: None,
            symmetry: Symmetry::None,
            minimal: true,
            seed: 0,
            max_attempts: DEFAULT_MAX_ATTEMPTS,
        }
    }
}

/// A generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: its clues, `0` elsewhere.
    pub puzzle: Grid,
    /// Its one solution.
    pub solution: Grid,
    /// Its grade.
    pub grade: Grade,
    /// The seed of the attempt that made it: the same options with this seed give this
    /// puzzle on their first attempt.
    pub seed: u64,
    /// The number of clues.
    pub clues: usize,
    /// The symmetry of its clues.
    pub symmetry: Symmetry,
    /// Attempts made, this one included.
    pub attempts: u32,
}

/// Why no puzzle came: the budget ran out before an attempt had the difficulty asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// Every attempt allowed was made.
    #[error("no {difficulty} puzzle within the budget of {attempts} {}", attempts_word(*attempts))]
    OutOfAttempts {
        /// The difficulty asked for.
        difficulty: Difficulty,
        /// Attempts made.
        attempts: u32,
    },
    /// The caller's callback said to stop.
    #[error(
        "no {difficulty} puzzle within the budget: stopped after {attempts} {}",
        attempts_word(*attempts)
    )]
    Stopped {
        /// The difficulty asked for.
        difficulty: Difficulty,
        /// Attempts made.
        attempts: u32,
    },
}

fn attempts_word(attempts: u32) -> &'static str {
    if attempts == 1 { "attempt" } else { "attempts" }
}

/// The seed of the attempt after the one from `seed`: `SplitMix64`'s step (Steele, Lea and
/// Flood), a bijection of `u64` that scatters neighbouring seeds, so that the attempts of
/// seeds `s` and `s + 1` do not run into each other.
pub fn next_seed(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Generates a puzzle as `options` ask (see the [module documentation](self)).
///
/// `keep_going` is asked before every attempt after the first; when it answers `false`
/// the search stops (a deadline, say: the core reads no clock). The first attempt always
/// runs, so a puzzle of any difficulty always comes.
///
/// ```
/// use sudoku::{Difficulty, GenerateOptions, Solver, Symmetry, Verdict, generate};
///
/// let options = GenerateOptions {
///     difficulty: Some(Difficulty::Easy),
///     symmetry: Symmetry::Rotational,
///     seed: 7,
///     ..GenerateOptions::default()
/// };
/// let generated = generate(&options, &mut || true)?;
/// assert_eq!(generated.grade.difficulty, Difficulty::Easy);
/// assert!(Symmetry::Rotational.holds_for(&generated.puzzle));
/// assert_eq!(
///     Solver::default().analyze(&generated.puzzle)?,
///     Verdict::Unique(generated.solution)
/// );
/// // The same options give the same puzzle.
/// assert_eq!(generate(&options, &mut || true)?.puzzle, generated.puzzle);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`GenerateError`] when no attempt allowed had the difficulty asked for.
pub fn generate(
    options: &GenerateOptions,
    keep_going: &mut dyn FnMut() -> bool,
) -> Result<Generated, GenerateError> {
    let mut seed = options.seed;
    let max_attempts = options.max_attempts.max(1);
    // Only an attempt with a difficulty can be turned down, so only then is there a second
    // attempt, and an error: the `Extreme` below is never reported.
    for attempt in 1..=max_attempts {
        if attempt > 1 && !keep_going() {
            return Err(GenerateError::Stopped {
                difficulty: options.difficulty.unwrap_or(Difficulty::Extreme),
                attempts: attempt - 1,
            });
        }
        if let Some(generated) = attempt_from(options, seed, attempt) {
            return Ok(generated);
        }
        seed = next_seed(seed);
    }
    Err(GenerateError::OutOfAttempts {
        difficulty: options.difficulty.unwrap_or(Difficulty::Extreme),
        attempts: max_attempts,
    })
}

/// One attempt: its puzzle, unless a difficulty was asked for and it has another.
fn attempt_from(options: &GenerateOptions, seed: u64, attempt: u32) -> Option<Generated> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let solution = random_solution(&mut rng);
    // A clue stays if removing it would take the puzzle above this rating.
    let ceiling = (!options.minimal)
        .then_some(options.difficulty)
        .flatten()
        .and_then(Difficulty::highest_rating);
    let puzzle = remove_clues(&solution, options.symmetry, &mut rng, |puzzle| {
        ceiling.is_none_or(|top| solves_within(puzzle, top, DEFAULT_STEP_BUDGET))
    });
    if let Some(wanted) = options.difficulty {
        // The ceiling check stops at the first step above the band, where a whole grade
        // would carry on to the end.
        if let Some(top) = wanted.highest_rating() {
            if ceiling.is_none() && !solves_within(&puzzle, top, DEFAULT_STEP_BUDGET) {
                return None;
            }
        }
    }
    let grade = grade_unique(&puzzle, DEFAULT_STEP_BUDGET);
    if let Some(wanted) = options.difficulty {
        // A grade cut short by the step budget is a lower bound, not a difficulty.
        let finished = grade.solved_by_logic || grade.stuck;
        if grade.difficulty != wanted || !finished {
            return None;
        }
    }
    Some(Generated {
        puzzle,
        solution,
        clues: puzzle.given_count(),
        grade,
        seed,
        symmetry: options.symmetry,
        attempts: attempt,
    })
}

/// A number in `0..n` (`n > 0`) from one or more `u32`s of `rng`: draws below
/// `2^32 mod n` are drawn again, so that the ones kept cover every value equally often
/// (the method of OpenBSD's `arc4random_uniform`).
fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    debug_assert!(n > 0);
    let threshold = n.wrapping_neg() % n;
    loop {
        let draw = rng.next_u32();
        if draw >= threshold {
            return draw % n;
        }
    }
}

/// Shuffles `items` uniformly (Fisher and Yates, from the end).
fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// A random complete grid (step 1 of the module documentation).
fn random_solution(rng: &mut ChaCha8Rng) -> Grid {
    let mut fill = Fill {
        cells: [0; CELLS],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
    };
    let filled = fill.complete(rng);
    debug_assert!(filled, "the empty grid has solutions");
    // Digits 1..=9 only: `from_cells` cannot fail.
    Grid::from_cells(fill.cells).unwrap_or(Grid::EMPTY)
}

/// A grid being filled, with the digits each row, column and box holds as 9-bit masks.
struct Fill {
    cells: [u8; CELLS],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Fill {
    fn free(&self, cell: usize) -> u16 {
        let (row, col) = (cell / 9, cell % 9);
        !(self.rows[row] | self.cols[col] | self.boxes[row / 3 * 3 + col / 3]) & 0x1FF
    }

    /// Puts `digit` in the open `cell` (`placed`), or takes it out again.
    fn set(&mut self, cell: usize, digit: u8, placed: bool) {
        let (row, col) = (cell / 9, cell % 9);
        let bit = 1 << (digit - 1);
        self.cells[cell] = if placed { digit } else { 0 };
        // The digit is absent from the three units before it is placed, and present before
        // it is taken out, so toggling does both.
        self.rows[row] ^= bit;
        self.cols[col] ^= bit;
        self.boxes[row / 3 * 3 + col / 3] ^= bit;
    }

    /// Fills every open cell; `false` (and the grid as it was) when that cannot be done.
    fn complete(&mut self, rng: &mut ChaCha8Rng) -> bool {
        let mut best: Option<(usize, u16)> = None;
        for cell in 0..CELLS {
            if self.cells[cell] != 0 {
                continue;
            }
            let free = self.free(cell);
            if best.is_none_or(|(_, fewest)| free.count_ones() < fewest.count_ones()) {
                best = Some((cell, free));
                if free.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, free)) = best else {
            return true;
        };
        let mut digits: Vec<u8> = (1..=9).filter(|d| free & (1 << (d - 1)) != 0).collect();
        shuffle(&mut digits, rng);
        for digit in digits {
            self.set(cell, digit, true);
            if self.complete(rng) {
                return true;
            }
            self.set(cell, digit, false);
        }
        false
    }
}

/// Removes the orbits of `symmetry` from `solution` in a random order, each for good when
/// the puzzle keeps exactly one solution and `keep` accepts it (step 2 of the module
/// documentation).
fn remove_clues(
    solution: &Grid,
    symmetry: Symmetry,
    rng: &mut ChaCha8Rng,
    mut keep: impl FnMut(&Grid) -> bool,
) -> Grid {
    let solver = Solver::default();
    let mut orbits = symmetry.orbits();
    shuffle(&mut orbits, rng);
    let mut cells = *solution.cells();
    for orbit in &orbits {
        for &cell in orbit {
            cells[cell] = 0;
        }
        // The values stay in range: `from_cells` cannot fail.
        let candidate = Grid::from_cells(cells).unwrap_or(*solution);
        // A search that gives up proves nothing: the orbit stays.
        let unique = solver
            .count_solutions(&candidate, 2)
            .is_ok_and(|count| count.solutions == 1);
        if !(unique && keep(&candidate)) {
            for &cell in orbit {
                cells[cell] = solution.cells()[cell];
            }
        }
    }
    Grid::from_cells(cells).unwrap_or(*solution)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::grade;
    use crate::{Verdict, is_solved};

    fn options(
        seed: u64,
        symmetry: Symmetry,
        difficulty: Option<Difficulty>,
        minimal: bool,
    ) -> GenerateOptions {
        GenerateOptions {
            difficulty,
            symmetry,
            minimal,
            seed,
            ..GenerateOptions::default()
        }
    }

    fn generated(options: &GenerateOptions) -> Generated {
        generate(options, &mut || true).unwrap_or_else(|err| panic!("{options:?}: {err}"))
    }

    fn is_unique(grid: &Grid) -> bool {
        matches!(Solver::default().analyze(grid), Ok(Verdict::Unique(_)))
    }

    /// `puzzle` without the clues of `orbit`.
    fn without(puzzle: &Grid, orbit: &[usize]) -> Grid {
        let mut cells = *puzzle.cells();
        for &cell in orbit {
            cells[cell] = 0;
        }
        Grid::from_cells(cells).unwrap()
    }

    /// Checks by hand everything `generate` promises of what it made for `options`.
    fn assert_keeps_its_promises(options: &GenerateOptions, made: &Generated) {
        let context = format!("{options:?}: {}", made.puzzle);
        let puzzle = &made.puzzle;
        assert_eq!(
            Solver::default().analyze(puzzle),
            Ok(Verdict::Unique(made.solution)),
            "{context}: one solution, the one given"
        );
        assert!(is_solved(&made.solution) && puzzle.is_kept_by(&made.solution));
        assert_eq!(made.clues, puzzle.given_count(), "{context}");
        assert_eq!(made.symmetry, options.symmetry, "{context}");
        assert!(options.symmetry.holds_for(puzzle), "{context}: symmetric");
        // Minimal per orbit; with `minimal: false` an orbit may stay only if removing it
        // would take the puzzle above the difficulty asked for.
        let ceiling = (!options.minimal)
            .then_some(options.difficulty)
            .flatten()
            .and_then(Difficulty::highest_rating);
        for orbit in options.symmetry.orbits() {
            if orbit.iter().any(|&cell| puzzle.cells()[cell] == 0) {
                continue;
            }
            let fewer = without(puzzle, &orbit);
            let may_go = is_unique(&fewer)
                && ceiling.is_none_or(|top| solves_within(&fewer, top, DEFAULT_STEP_BUDGET));
            assert!(!may_go, "{context}: the clues at {orbit:?} could go");
        }
        let graded = grade(puzzle, &crate::GradeOptions::default()).unwrap();
        assert_eq!(made.grade, graded, "{context}");
        if let Some(wanted) = options.difficulty {
            assert_eq!(graded.difficulty, wanted, "{context}: graded as asked");
        }
        assert!((1..=options.max_attempts).contains(&made.attempts));
        // The seed of the attempt that made it makes it again, at once.
        let again = generated(&GenerateOptions {
            seed: made.seed,
            ..*options
        });
        assert_eq!((again.puzzle, again.attempts), (*puzzle, 1), "{context}");
    }

    #[test]
    fn golden_seeds_give_the_same_puzzles_on_every_machine_and_release() {
        // Computed once by this generator, then checked by hand below. A puzzle of no
        // difficulty depends only on the random stream and this file's algorithm. One of a
        // difficulty also depends on its grade staying in the band (each of these is its
        // seed's first attempt): if a change to the techniques' ratings moves one, people
        // see it, so update the line and say so in the commit. The labelled ones were picked
        // with ratings at least two tenths inside their band, so that a small change to a
        // rating does not move them.
        let golden = [
            (
                options(1, Symmetry::None, None, true),
                "..76.....1.........9..5.42...6249..5.1.........4.6.7.........874.21.......9....3.",
            ),
            (
                options(0, Symmetry::Rotational, Some(Difficulty::Easy), true),
                "5.74.2.....3..1......76..824.......11..857..66.......575..18......9..1.....3.54.8",
            ),
            (
                options(97, Symmetry::Diagonal, Some(Difficulty::Medium), true),
                ".......49...3.62.1....7.....5.7..1....8.....2.2...57.4.3.9.4..82........56..824..",
            ),
            (
                options(14, Symmetry::Mirror, Some(Difficulty::Hard), true),
                "..........72.5.39..49...85..1..2..3.2.85.14.74.......5...967.....38.45...........",
            ),
            (
                options(11, Symmetry::Rotational, Some(Difficulty::Expert), true),
                "7.8.5.9....3........19...86....32..51..765..25..49....31...96........2....7.4.3.1",
            ),
            (
                options(0, Symmetry::None, Some(Difficulty::Easy), false),
                "56.4.2...8.3...6...4.7.........3.8.11......4..3...9..57..6..2.....9.....2....54..",
            ),
        ];
        for (options, line) in golden {
            let made = generated(&options);
            assert_eq!(made.puzzle.to_line(), line, "{options:?}");
            assert_eq!((made.seed, made.attempts), (options.seed, 1), "{options:?}");
            assert_keeps_its_promises(&options, &made);
        }
    }

    #[test]
    fn every_difficulty_and_symmetry_keeps_its_promises() {
        for symmetry in Symmetry::ALL {
            for difficulty in std::iter::once(None).chain(Difficulty::ALL.map(Some)) {
                for minimal in [true, false] {
                    let options = options(42, symmetry, difficulty, minimal);
                    assert_keeps_its_promises(&options, &generated(&options));
                }
            }
        }
    }

    #[test]
    fn without_symmetry_no_single_clue_can_go() {
        for seed in 0..8 {
            let made = generated(&options(seed, Symmetry::None, None, true));
            for cell in 0..CELLS {
                if made.puzzle.cells()[cell] != 0 {
                    assert!(!is_unique(&without(&made.puzzle, &[cell])), "seed {seed}");
                }
            }
        }
    }

    #[test]
    fn an_easy_puzzle_that_need_not_be_minimal_comes_at_once() {
        for seed in 0..8 {
            let options = options(seed, Symmetry::Rotational, Some(Difficulty::Easy), false);
            let made = generated(&options);
            assert_eq!(made.attempts, 1, "seed {seed}");
            assert_eq!(made.grade.difficulty, Difficulty::Easy);
        }
    }

    #[test]
    fn different_seeds_give_different_puzzles() {
        let puzzles: std::collections::BTreeSet<String> = (0..20)
            .map(|seed| {
                generated(&options(seed, Symmetry::None, None, true))
                    .puzzle
                    .to_line()
            })
            .collect();
        assert_eq!(puzzles.len(), 20);
    }

    #[test]
    fn the_attempt_budget_and_the_callback_bound_the_search() {
        // The first seed whose first four attempts are not extreme (extreme puzzles are
        // rare enough that one comes soon).
        let mut wanted = options(0, Symmetry::None, Some(Difficulty::Extreme), true);
        wanted.max_attempts = 4;
        while generate(&wanted, &mut || true).is_ok() {
            wanted.seed += 1;
        }
        assert_eq!(
            generate(&wanted, &mut || true),
            Err(GenerateError::OutOfAttempts {
                difficulty: Difficulty::Extreme,
                attempts: 4
            })
        );
        wanted.max_attempts = DEFAULT_MAX_ATTEMPTS;
        let mut asked = 0;
        let stopped = generate(&wanted, &mut || {
            asked += 1;
            asked < 3
        });
        assert_eq!(
            stopped,
            Err(GenerateError::Stopped {
                difficulty: Difficulty::Extreme,
                attempts: 3
            })
        );
        assert_eq!(asked, 3, "asked before attempts 2, 3 and 4");
        assert_eq!(
            stopped.unwrap_err().to_string(),
            "no extreme puzzle within the budget: stopped after 3 attempts"
        );
        // Found in the end.
        assert!(generated(&wanted).attempts > 4);
    }

    #[test]
    fn the_first_attempt_always_runs() {
        let made = generate(&options(3, Symmetry::Mirror, None, true), &mut || false).unwrap();
        assert_eq!(made.attempts, 1);
        let mut zero = options(3, Symmetry::Mirror, None, true);
        zero.max_attempts = 0;
        assert_eq!(generate(&zero, &mut || true).unwrap().puzzle, made.puzzle);
    }

    #[test]
    fn each_symmetry_pairs_cells_as_documented() {
        let cell = |row: usize, col: usize| row * 9 + col;
        assert_eq!(Symmetry::None.image(cell(1, 2)), cell(1, 2));
        assert_eq!(Symmetry::Rotational.image(cell(1, 2)), cell(7, 6));
        assert_eq!(Symmetry::Rotational.image(cell(4, 4)), cell(4, 4));
        assert_eq!(Symmetry::Diagonal.image(cell(1, 2)), cell(2, 1));
        assert_eq!(Symmetry::Mirror.image(cell(1, 2)), cell(1, 6));
        for (symmetry, orbits, alone) in [
            (Symmetry::None, 81, 81),
            (Symmetry::Rotational, 41, 1),
            (Symmetry::Diagonal, 45, 9),
            (Symmetry::Mirror, 45, 9),
        ] {
            let all = symmetry.orbits();
            assert_eq!(all.len(), orbits, "{symmetry}");
            assert_eq!(all.iter().filter(|o| o.len() == 1).count(), alone);
            let mut cells: Vec<usize> = all.concat();
            cells.sort_unstable();
            assert_eq!(
                cells,
                (0..CELLS).collect::<Vec<_>>(),
                "{symmetry}: a partition"
            );
            for cell in 0..CELLS {
                assert_eq!(symmetry.image(symmetry.image(cell)), cell, "{symmetry}");
            }
        }
    }

    #[test]
    fn symmetry_names_round_trip_and_an_unknown_one_lists_the_valid_ones() {
        for symmetry in Symmetry::ALL {
            assert_eq!(symmetry.as_str().parse(), Ok(symmetry));
        }
        assert_eq!(
            "spiral".parse::<Symmetry>().unwrap_err().to_string(),
            "unknown symmetry \"spiral\": expected one of none, rotational, diagonal, mirror"
        );
    }

    #[test]
    fn random_grids_are_complete_valid_and_differ() {
        let grids: Vec<Grid> = (0..50)
            .map(|seed| random_solution(&mut ChaCha8Rng::seed_from_u64(seed)))
            .collect();
        assert!(grids.iter().all(is_solved));
        let distinct: std::collections::BTreeSet<String> =
            grids.iter().map(Grid::to_line).collect();
        assert_eq!(distinct.len(), grids.len());
    }

    #[test]
    fn draws_below_n_cover_the_range_evenly() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[below(&mut rng, 6) as usize] += 1;
        }
        // Each count is binomial (60,000, 1/6): 10,000 with a standard deviation of 91.
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(below(&mut rng, 1), 0);
        let mut items: Vec<u32> = (0..81).collect();
        shuffle(&mut items, &mut rng);
        assert_ne!(items, (0..81).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..81).collect::<Vec<_>>());
    }

    #[test]
    fn next_seed_scatters_neighbours() {
        assert_ne!(next_seed(0), 0);
        let (a, b) = (next_seed(10), next_seed(11));
        assert!((a ^ b).count_ones() > 16, "{a:#x} {b:#x}");
        // SplitMix64's first output from state 0, as published with the algorithm.
        assert_eq!(next_seed(0), 0xE220_A839_7B1D_CDAF);
    }
}
