//! Hints: the one next thing a player stuck on a puzzle should know, from where they are.
//!
//! A player's board mixes the puzzle's givens with their own entries, and may carry their
//! pencil marks. [`hint`] answers, in this order of priority:
//! 1. a filled cell that contradicts the puzzle's one solution ([`Hint::WrongDigit`]): a
//!    player with a wrong digit cannot be helped by logic, which would build on it;
//! 2. the solved board ([`Hint::Solved`]);
//! 3. an empty cell whose pencil marks lack its digit in the solution
//!    ([`Hint::WrongPencilMarks`]), for the same reason;
//! 4. a single when there is one ([`logic::next_single`](super::logic::next_single): SE's
//!    order would sometimes answer a "direct" pointing beside a naked single), else the
//!    step the logical solver takes, from the player's pencil marks ([`Hint::Step`]):
//!    the computed candidates with what the player crossed out removed, so a player who
//!    has already made a deduction gets the one after it. A player without pencil marks
//!    cannot act on an elimination: for them the hint is always a placement, with the
//!    eliminations it needs as its reasons ([`Hint::Deduction`]);
//! 5. when no technique applies within the work budget, one digit of the solution
//!    ([`Hint::Stuck`]).
//!
//! Which cells are givens cannot be told from the board alone, so a request may carry
//! them: with `givens` the puzzle is the givens, which must have exactly one solution and
//! all of which must be on the board unchanged, and a mistake is a filled cell that
//! differs from the solution. Without them the board itself is the puzzle (a player's
//! wrong digit then shows only when it leaves no solution, or several).
//!
//! [`explain`] gives the whole path the grader takes ([`mod@crate::grade`]), with its
//! rating and difficulty.

use super::grade::{Difficulty, GradeOptions, grade_unique_with_path};
use super::logic::{
    ALL_DIGITS, Candidates, DEFAULT_WORK_BUDGET, Rating, Step, bit, digits_of, next_single,
    next_step,
};
use super::{BudgetExhausted, CELLS, CellName, Conflict, Grid, Solver, Verdict, find_conflicts};

/// A player's pencil marks, row-major: bit `d - 1` set when digit `d` is pencilled in that
/// cell. The marks of filled cells are ignored.
pub type PencilMarks = [u16; CELLS];

/// What a player should hear next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// Every cell is filled, and right.
    Solved,
    /// The first filled cell (row-major) whose digit is not the solution's. The digit is
    /// not told: the player is to think again, not to copy it.
    WrongDigit {
        /// The cell, 0..81 row-major.
        cell: usize,
    },
    /// The first empty cell (row-major) whose pencil marks lack its digit in the solution
    /// (an empty cell with no marks at all included: every candidate was crossed out).
    /// Marks for a digit already placed in a peer are stale, not wrong, and are ignored.
    WrongPencilMarks {
        /// The cell, 0..81 row-major.
        cell: usize,
    },
    /// The next logical step from the player's position.
    Step(Step),
    /// For a player without pencil marks, when no digit can be placed at once: the
    /// eliminations the first placement needs, in the order found, and that placement.
    Deduction {
        /// Steps that only eliminate candidates, each found after the ones before it.
        because: Vec<Step>,
        /// The step that places a digit once they are made.
        placement: Step,
    },
    /// No technique applies within the work budget: the digit of one cell, the empty cell
    /// with the fewest candidates (the lowest index among equals), to go on with.
    Stuck {
        /// The cell and its digit in the solution.
        reveal: (usize, u8),
    },
}

/// Why there is no hint: the puzzle does not have exactly one solution, or the request
/// does not fit it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HintError {
    /// The puzzle's filled cells clash (the clashes, as [`find_conflicts`] gives them).
    #[error("the puzzle has no solution: its givens clash")]
    Conflict(Vec<Conflict>),
    /// The puzzle has no solution, though no two of its givens clash.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The puzzle has more than one solution: no step could be told apart from a guess.
    #[error("the puzzle has more than one solution")]
    MultipleSolutions,
    /// A given is not on the board as it is in the givens (changed or erased).
    #[error("the board does not keep the given at {}", CellName(*.cell))]
    GivenChanged {
        /// The first such cell, 0..81 row-major.
        cell: usize,
    },
    /// The search gave up before it could count the puzzle's solutions.
    #[error(transparent)]
    SearchLimit(#[from] BudgetExhausted),
}

/// A puzzle's whole logical path, as the grader takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// True when the steps fill the grid.
    pub solved: bool,
    /// The hardest step's rating (a lower bound of the puzzle's when not solved).
    pub rating: Rating,
    /// The grader's difficulty for the puzzle ([`mod@crate::grade`]).
    pub difficulty: Difficulty,
}

/// What a hint knows besides the board, and what it may spend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HintOptions<'a> {
    /// The puzzle's givens, when known: they must all be on the board unchanged, and any
    /// filled cell that differs from the solution is then a mistake.
    pub givens: Option<&'a Grid>,
    /// The player's pencil marks, when they keep any.
    pub marks: Option<&'a PencilMarks>,
    /// Counts the puzzle's solutions (its guess budget bounds that search).
    pub solver: Solver,
    /// The work the forcing chains may spend (see [`DEFAULT_WORK_BUDGET`]); a position
    /// only they crack is answered with a reveal once it runs out.
    pub work_budget: u64,
}

impl Default for HintOptions<'_> {
    fn default() -> Self {
        HintOptions {
            givens: None,
            marks: None,
            solver: Solver::default(),
            work_budget: DEFAULT_WORK_BUDGET,
        }
    }
}

/// The hint for `board`; see the [module documentation](self) for the order of the
/// answers.
///
/// ```
/// use sudoku::{CLASSIC_PUZZLE, Grid, Hint, HintOptions, hint};
///
/// let puzzle: Grid = CLASSIC_PUZZLE.parse()?;
/// let options = HintOptions { givens: Some(&puzzle), ..HintOptions::default() };
/// let Hint::Step(step) = hint(&puzzle, &options)? else {
///     panic!("an easy puzzle starts with a step");
/// };
/// assert_eq!(step.placements.len(), 1, "{step}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`HintError`] when the puzzle does not have exactly one solution, or the board does not
/// keep its givens.
pub fn hint(board: &Grid, options: &HintOptions<'_>) -> Result<Hint, HintError> {
    let HintOptions {
        givens,
        marks,
        solver,
        mut work_budget,
    } = *options;
    let puzzle = givens.unwrap_or(board);
    let solution = unique_solution(&solver, puzzle)?;
    if let Some(givens) = givens {
        let changed =
            (0..CELLS).find(|&c| givens.cells()[c] != 0 && board.cells()[c] != givens.cells()[c]);
        if let Some(cell) = changed {
            return Err(HintError::GivenChanged { cell });
        }
        if let Some(cell) = first_mistake(board, &solution) {
            return Ok(Hint::WrongDigit { cell });
        }
    }
    if board.is_complete() {
        return Ok(Hint::Solved);
    }
    if let Some(cell) = marks.and_then(|marks| first_wrong_marks(board, &solution, marks)) {
        return Ok(Hint::WrongPencilMarks { cell });
    }
    // A board within its puzzle's one solution has no clash; were it to, the clash is
    // what the player must hear about.
    let Some(state) = position(board, marks) else {
        return Err(HintError::Conflict(find_conflicts(board)));
    };
    let next = match marks {
        Some(_) => next_single(&state)
            .or_else(|| next_step(&state, &mut work_budget))
            .map(Hint::Step),
        None => first_placement(&state, &mut work_budget),
    };
    if let Some(next) = next {
        return Ok(next);
    }
    let fewest = (0..CELLS)
        .filter(|&c| state.digit(c) == 0)
        .min_by_key(|&c| (state.mask(c).count_ones(), c));
    Ok(match fewest {
        Some(cell) => Hint::Stuck {
            reveal: (cell, solution.cells()[cell]),
        },
        None => Hint::Solved,
    })
}

/// The first placement logic reaches from `state`, as a step, or as a deduction with the
/// eliminations on the way; `None` when logic stops first (within `work_budget`).
fn first_placement(start: &Candidates, work_budget: &mut u64) -> Option<Hint> {
    let mut state = start.clone();
    let mut because = Vec::new();
    // Each step removes a candidate at least, so the loop ends within 729 steps.
    loop {
        let step = next_single(&state).or_else(|| next_step(&state, work_budget))?;
        if !step.placements.is_empty() {
            return Some(if because.is_empty() {
                Hint::Step(step)
            } else {
                Hint::Deduction {
                    because: needed_reasons(start, because, &step),
                    placement: step,
                }
            });
        }
        step.apply(&mut state);
        because.push(step);
    }
}

/// Of the eliminations found on the way to `placement` from `start`, those it needs: the
/// ones among the candidates a single rests on, and, step by step backwards, those among
/// the candidates the kept ones rest on. A player is not told of the eliminations
/// elsewhere that the search met first. A step whose footing is not modelled (a forcing
/// chain, BUG+1) keeps every step before it; anything unexpected keeps them all.
fn needed_reasons(start: &Candidates, because: Vec<Step>, placement: &Step) -> Vec<Step> {
    use super::logic::{Technique as T, UNIT_MASK};
    let Some(&(cell, digit)) = placement.placements.first() else {
        return because;
    };
    let mut needs = Footing::default();
    match (placement.technique, placement.units.first()) {
        (T::NakedSingle, _) => needs.add(1 << cell, ALL_DIGITS),
        (T::HiddenSingleBox | T::HiddenSingleLine, Some(&unit)) => {
            needs.add(UNIT_MASK[unit], bit(digit));
        }
        _ => return because,
    }
    // The position each step was found in, for the digits of a subset.
    let mut positions = Vec::with_capacity(because.len());
    let mut state = start.clone();
    for step in &because {
        positions.push(state.clone());
        step.apply(&mut state);
    }
    let mut kept = vec![false; because.len()];
    for (i, step) in because.iter().enumerate().rev() {
        if !step.eliminations.iter().any(|&fact| needs.holds(fact)) {
            continue;
        }
        kept[i] = true;
        if !needs.extend_by(step, &positions[i]) {
            kept[..i].fill(true);
            break;
        }
    }
    // The placement must still follow from what is kept; if not, the model of footings
    // missed one, and every step stays.
    let mut state = start.clone();
    for (step, _) in because.iter().zip(&kept).filter(|(_, kept)| **kept) {
        step.apply(&mut state);
    }
    let follows = match placement.technique {
        T::NakedSingle => state.mask(cell) == bit(digit),
        _ => placement
            .units
            .first()
            .is_some_and(|&unit| state.cells_with(digit) & UNIT_MASK[unit] == 1 << cell),
    };
    if !follows {
        return because;
    }
    because
        .into_iter()
        .zip(kept)
        .filter_map(|(step, kept)| kept.then_some(step))
        .collect()
}

/// Candidates a deduction rests on: for each digit, the cells whose candidate of it
/// matters (present or absent).
#[derive(Debug, Default)]
struct Footing([super::logic::CellSet; 9]);

impl Footing {
    fn add(&mut self, cells: super::logic::CellSet, digits: u16) {
        for d in digits_of(digits) {
            self.0[usize::from(d - 1)] |= cells;
        }
    }

    fn holds(&self, (cell, digit): (usize, u8)) -> bool {
        self.0[usize::from(digit - 1)] >> cell & 1 == 1
    }

    /// Adds what `step`, found in `position`, rests on; false for a step whose footing is
    /// not modelled.
    fn extend_by(&mut self, step: &Step, position: &Candidates) -> bool {
        use super::logic::{Technique as T, UNIT_MASK, units_of};
        let cells = step.cells.iter().fold(0u128, |set, &c| set | 1 << c);
        let units = step.units.iter().fold(0u128, |set, &u| set | UNIT_MASK[u]);
        let removed = step.eliminations.iter().fold(0u16, |m, &(_, d)| m | bit(d));
        let union = step.cells.iter().fold(0u16, |m, &c| m | position.mask(c));
        match step.technique {
            // One digit confined to some cells of some units: where else it may be.
            T::Pointing
            | T::Claiming
            | T::DirectPointing
            | T::DirectClaiming
            | T::XWing
            | T::Swordfish
            | T::Jellyfish
            | T::FinnedXWing
            | T::FinnedSwordfish
            | T::FinnedJellyfish => self.add(units, removed),
            // Digits confined to the cells of a unit.
            T::HiddenPair
            | T::HiddenTriple
            | T::HiddenQuad
            | T::DirectHiddenPair
            | T::DirectHiddenTriple => self.add(units, union & !removed),
            // Cells holding only some digits, in some units.
            T::NakedPair
            | T::NakedTriple
            | T::NakedQuad
            | T::XyWing
            | T::XyzWing
            | T::WxyzWing
            | T::VwxyzWing
            | T::UniqueRectangle1
            | T::UniqueRectangle2
            | T::UniqueRectangle4
            | T::WWing => {
                self.add(cells, ALL_DIGITS);
                self.add(units, ALL_DIGITS);
            }
            // Links between consecutive nodes: a cell's two candidates, or a digit's places
            // in the units both nodes share.
            T::TwoStrongLinks
            | T::ThreeStrongLinks
            | T::FourStrongLinks
            | T::XCycle
            | T::YCycle
            | T::XyCycle
            | T::XChain
            | T::XyChain
            | T::Aic => {
                self.add(units, ALL_DIGITS);
                for pair in step.chain.windows(2) {
                    let [(a, da), (b, db)] = [pair[0], pair[1]];
                    if a == b {
                        self.add(1 << a, ALL_DIGITS);
                    }
                    if da == db {
                        for unit in units_of(a) {
                            if UNIT_MASK[unit] >> b & 1 == 1 {
                                self.add(UNIT_MASK[unit], bit(da));
                            }
                        }
                    }
                }
            }
            _ => return false,
        }
        true
    }
}

/// The position a hint reasons from: the candidates `board` leaves, less the digits the
/// player's `marks` cross out in its empty cells; `None` when filled cells clash.
pub fn position(board: &Grid, marks: Option<&PencilMarks>) -> Option<Candidates> {
    let mut state = Candidates::from_grid(board).ok()?;
    if let Some(marks) = marks {
        for (cell, &marked) in marks.iter().enumerate() {
            for digit in digits_of(state.mask(cell) & !marked & ALL_DIGITS) {
                state.eliminate(cell, digit);
            }
        }
    }
    Some(state)
}

/// The puzzle's whole logical path from `board` (the puzzle: without givens): the path a
/// [`grade`](crate::grade()) with the same `options` takes, with its rating and difficulty.
///
/// ```
/// use sudoku::{CLASSIC_PUZZLE, GradeOptions, Grid, explain};
///
/// let puzzle: Grid = CLASSIC_PUZZLE.parse()?;
/// let explanation = explain(&puzzle, &GradeOptions::default())?;
/// assert!(explanation.solved);
/// assert_eq!(explanation.steps.len(), puzzle.cells().iter().filter(|&&d| d == 0).count());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`HintError`] when the board does not have exactly one solution.
pub fn explain(board: &Grid, options: &GradeOptions) -> Result<Explanation, HintError> {
    unique_solution(&options.solver, board)?;
    let mut steps = Vec::new();
    let grade = grade_unique_with_path(board, options.step_budget, Some(&mut steps));
    Ok(Explanation {
        steps,
        solved: grade.solved_by_logic,
        rating: grade.rating,
        difficulty: grade.difficulty,
    })
}

/// The one solution of `puzzle`, or why there is not exactly one.
fn unique_solution(solver: &Solver, puzzle: &Grid) -> Result<Grid, HintError> {
    match solver.analyze(puzzle)? {
        Verdict::Unique(solution) => Ok(solution),
        Verdict::Multiple(_) => Err(HintError::MultipleSolutions),
        Verdict::None => {
            let conflicts = find_conflicts(puzzle);
            if conflicts.is_empty() {
                Err(HintError::NoSolution)
            } else {
                Err(HintError::Conflict(conflicts))
            }
        }
    }
}

/// The first filled cell of `board` whose digit differs from `solution`'s.
fn first_mistake(board: &Grid, solution: &Grid) -> Option<usize> {
    (0..CELLS).find(|&c| board.cells()[c] != 0 && board.cells()[c] != solution.cells()[c])
}

/// The first empty cell of `board` whose marks lack its digit in `solution`.
fn first_wrong_marks(board: &Grid, solution: &Grid, marks: &PencilMarks) -> Option<usize> {
    (0..CELLS).find(|&c| board.cells()[c] == 0 && marks[c] & bit(solution.cells()[c]) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{Technique, next_step};
    use crate::{CLASSIC_PUZZLE, CLASSIC_SOLUTION};

    fn grid(line: &str) -> Grid {
        Grid::from_line(line).unwrap()
    }

    fn classic() -> Grid {
        grid(CLASSIC_PUZZLE)
    }

    fn solution() -> Grid {
        grid(CLASSIC_SOLUTION)
    }

    fn ask(
        board: &Grid,
        givens: Option<&Grid>,
        marks: Option<&PencilMarks>,
    ) -> Result<Hint, HintError> {
        let options = HintOptions {
            givens,
            marks,
            ..HintOptions::default()
        };
        hint(board, &options)
    }

    fn steps(step_budget: usize) -> GradeOptions {
        GradeOptions {
            step_budget,
            ..GradeOptions::default()
        }
    }

    /// `grid` with `cell` set to `digit`.
    fn with(grid: &Grid, cell: usize, digit: u8) -> Grid {
        let mut cells = *grid.cells();
        cells[cell] = digit;
        Grid::from_cells(cells).unwrap()
    }

    /// Marks holding every candidate the board leaves.
    fn full_marks(board: &Grid) -> PencilMarks {
        let state = Candidates::from_grid(board).unwrap();
        std::array::from_fn(|c| state.mask(c))
    }

    /// The empty cells of the classic puzzle, each with a wrong digit for it that clashes
    /// with no given.
    fn quiet_mistakes() -> Vec<(usize, u8)> {
        let state = Candidates::from_grid(&classic()).unwrap();
        (0..CELLS)
            .filter_map(|c| {
                digits_of(state.mask(c))
                    .find(|&d| d != solution().cells()[c])
                    .map(|d| (c, d))
            })
            .collect()
    }

    #[test]
    fn the_first_hint_of_a_puzzle_is_the_logical_solvers_first_step() {
        let expected = next_step(
            &Candidates::from_grid(&classic()).unwrap(),
            &mut DEFAULT_WORK_BUDGET.clone(),
        )
        .unwrap();
        assert_eq!(
            ask(&classic(), None, None),
            Ok(Hint::Step(expected.clone()))
        );
        assert_eq!(
            ask(&classic(), Some(&classic()), Some(&full_marks(&classic()))),
            Ok(Hint::Step(expected))
        );
    }

    #[test]
    fn a_wrong_digit_comes_first_and_names_the_first_one() {
        let mistakes = quiet_mistakes();
        let (first, digit) = mistakes[0];
        let (second, other) = mistakes[mistakes.len() - 1];
        let board = with(&with(&classic(), second, other), first, digit);
        // Marks that are all wrong too: the digit is reported first.
        let marks = [0u16; CELLS];
        assert_eq!(
            ask(&board, Some(&classic()), Some(&marks)),
            Ok(Hint::WrongDigit { cell: first })
        );
    }

    #[test]
    fn without_givens_a_wrong_digit_leaves_the_puzzle_without_a_solution() {
        // The board's solutions are among the puzzle's, whose one solution lacks the digit.
        let (cell, digit) = quiet_mistakes()[0];
        let board = with(&classic(), cell, digit);
        assert_eq!(ask(&board, None, None), Err(HintError::NoSolution));
    }

    #[test]
    fn a_board_that_drops_or_changes_a_given_is_refused() {
        let given = (0..CELLS).find(|&c| classic().cells()[c] != 0).unwrap();
        for digit in [0, classic().cells()[given] % 9 + 1] {
            let board = with(&classic(), given, digit);
            assert_eq!(
                ask(&board, Some(&classic()), None),
                Err(HintError::GivenChanged { cell: given }),
                "digit {digit}"
            );
        }
    }

    #[test]
    fn the_solved_board_is_solved_with_or_without_givens() {
        assert_eq!(ask(&solution(), None, None), Ok(Hint::Solved));
        assert_eq!(ask(&solution(), Some(&classic()), None), Ok(Hint::Solved));
    }

    #[test]
    fn pencil_marks_that_lose_the_solutions_digit_come_before_any_step() {
        let board = classic();
        let mut marks = full_marks(&board);
        let cell = 40;
        marks[cell] &= !bit(solution().cells()[cell]);
        assert_eq!(
            ask(&board, None, Some(&marks)),
            Ok(Hint::WrongPencilMarks { cell })
        );
        marks[cell] = 0;
        assert_eq!(
            ask(&board, None, Some(&marks)),
            Ok(Hint::WrongPencilMarks { cell }),
            "every mark removed"
        );
    }

    #[test]
    fn stale_marks_of_a_digit_placed_in_a_peer_are_ignored() {
        let board = classic();
        let marks: PencilMarks =
            std::array::from_fn(|c| if board.cells()[c] == 0 { ALL_DIGITS } else { 0 });
        let expected = ask(&board, None, None).unwrap();
        assert_eq!(ask(&board, None, Some(&marks)), Ok(expected));
    }

    #[test]
    fn a_player_who_made_the_deduction_gets_the_one_after_it() {
        // A position where the solver's first step is an elimination (not a placement):
        // after the player crosses those candidates out, the hint moves on.
        let puzzle = grid(
            "................12..3.45.................63.417.2.................81..7.3.4...6..",
        );
        let mut state = Candidates::from_grid(&puzzle).unwrap();
        let step = loop {
            let step = next_step(&state, &mut DEFAULT_WORK_BUDGET.clone()).unwrap();
            if step.placements.is_empty() {
                break step;
            }
            step.apply(&mut state);
        };
        let board = state.to_grid();
        let mut marks: PencilMarks = std::array::from_fn(|c| state.mask(c));
        assert_eq!(
            ask(&board, Some(&puzzle), Some(&marks)),
            Ok(Hint::Step(step.clone()))
        );
        for &(cell, digit) in &step.eliminations {
            marks[cell] &= !bit(digit);
        }
        let Ok(Hint::Step(next)) = ask(&board, Some(&puzzle), Some(&marks)) else {
            panic!("a step");
        };
        assert_ne!(next, step);
        let mut after = state.clone();
        step.apply(&mut after);
        assert_eq!(
            Some(next),
            next_step(&after, &mut DEFAULT_WORK_BUDGET.clone())
        );
    }

    #[test]
    fn a_stuck_position_reveals_the_cell_with_fewest_candidates() {
        // No work at all: the chains beyond the cheap techniques find nothing, and a
        // position only they could crack is stuck. The hardest set's first puzzle needs
        // them on its first step.
        let puzzle = crate::puzzle_sets::spread("puzzles5_forum_hardest_1905_11+", 1)[0];
        let mut state = Candidates::from_grid(&puzzle).unwrap();
        let mut work = 0;
        while let Some(step) = next_step(&state, &mut work) {
            step.apply(&mut state);
        }
        let board = state.to_grid();
        let marks: PencilMarks = std::array::from_fn(|c| state.mask(c));
        let answer = Solver::default().solve(&puzzle).unwrap();
        let hint = hint(
            &board,
            &HintOptions {
                givens: Some(&puzzle),
                marks: Some(&marks),
                work_budget: 0,
                ..HintOptions::default()
            },
        )
        .unwrap();
        let Hint::Stuck {
            reveal: (cell, digit),
        } = hint
        else {
            panic!("stuck: {hint:?}");
        };
        assert_eq!(digit, answer.cells()[cell]);
        let fewest = (0..CELLS)
            .filter(|&c| state.digit(c) == 0)
            .map(|c| state.mask(c).count_ones())
            .min()
            .unwrap();
        assert_eq!(state.mask(cell).count_ones(), fewest);
        assert!((0..cell).all(|c| state.digit(c) != 0 || state.mask(c).count_ones() > fewest));
    }

    #[test]
    fn a_puzzle_without_exactly_one_solution_gets_no_hint() {
        assert_eq!(
            ask(&Grid::EMPTY, None, None),
            Err(HintError::MultipleSolutions)
        );
        let clash = grid(&format!("55{}", &CLASSIC_PUZZLE[2..]));
        let Err(HintError::Conflict(conflicts)) = ask(&clash, None, None) else {
            panic!("a conflict");
        };
        assert_eq!(conflicts, find_conflicts(&clash));
        let dead_end = grid(&format!("12345678.{}9", ".".repeat(71)));
        assert_eq!(ask(&dead_end, None, None), Err(HintError::NoSolution));
        // With givens, the givens are the puzzle.
        assert_eq!(
            ask(&classic(), Some(&Grid::EMPTY), None),
            Err(HintError::MultipleSolutions)
        );
    }

    #[test]
    fn the_explanation_is_the_graders_path() {
        let puzzle = grid(
            "................12..3.45.................63.417.2.................81..7.3.4...6..",
        );
        let explanation = explain(&puzzle, &steps(1_000)).unwrap();
        let grade = crate::grade(&puzzle, &steps(1_000)).unwrap();
        assert_eq!(explanation.steps.len(), grade.steps);
        assert_eq!(explanation.rating, grade.rating);
        assert_eq!(explanation.difficulty, grade.difficulty);
        assert_eq!(explanation.solved, grade.solved_by_logic);
        assert!(explanation.solved);
        let mut state = Candidates::from_grid(&puzzle).unwrap();
        for step in &explanation.steps {
            assert_eq!(
                Some(step),
                next_step(&state, &mut DEFAULT_WORK_BUDGET.clone()).as_ref()
            );
            step.apply(&mut state);
        }
        assert!(state.is_solved());
        assert!(
            explanation
                .steps
                .iter()
                .any(|s| s.technique != Technique::NakedSingle)
        );
    }

    #[test]
    fn the_explanation_stops_at_max_steps() {
        let explanation = explain(&classic(), &steps(3)).unwrap();
        assert_eq!(explanation.steps.len(), 3);
        assert!(!explanation.solved);
        assert_eq!(
            explain(&Grid::EMPTY, &steps(3)),
            Err(HintError::MultipleSolutions)
        );
    }

    #[test]
    fn a_naked_single_comes_before_the_direct_steps_se_would_take_first() {
        // A position on a diabolical puzzle's logical path where SE's order takes a direct
        // step though a naked single is there (the HoDoKu check found it).
        let board: Grid =
            "..68.7.4.8..1..7.6.73.6.8.56..5.897...76..5..5389742612.5.896.778...6..93697..4.."
                .parse()
                .unwrap();
        let state = Candidates::from_grid(&board).unwrap();
        let se_step = next_step(&state, &mut DEFAULT_WORK_BUDGET.clone()).unwrap();
        assert!(
            matches!(
                se_step.technique,
                Technique::DirectPointing
                    | Technique::DirectClaiming
                    | Technique::DirectHiddenPair
                    | Technique::DirectHiddenTriple
            ),
            "SE's order: {se_step}"
        );
        let Ok(Hint::Step(step)) = ask(&board, None, None) else {
            panic!("a step");
        };
        assert_eq!(step.technique, Technique::NakedSingle, "{step}");
        let solution = Solver::default().solve(&board).unwrap();
        for &(cell, digit) in &step.placements {
            assert_eq!(solution.cells()[cell], digit);
        }
    }
}
