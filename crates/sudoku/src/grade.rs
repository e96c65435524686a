//! Grading: how hard a puzzle is for a person, as a Sudoku Explainer (SE) rating and one of
//! five named difficulties.
//!
//! A puzzle's rating is that of the hardest step the logical solver needs when it takes,
//! each time, the step its rater's rule picks ([`next_step`]: the rater's order of
//! techniques, as SE and SukakuExplainer do). The five
//! [`Difficulty`] bands cut SE's scale where one family of techniques ends and the next
//! begins, so that a band says what a person must know to finish the puzzle without
//! guessing:
//!
//! | difficulty | SE rating | the hardest step needed |
//! |---|---|---|
//! | easy | up to 2.3 | singles: last value, hidden singles, naked singles, and the "direct" intersections and hidden pair that yield a single at once |
//! | medium | 2.4 to 3.9 | the direct hidden triple, pointing and claiming, naked and hidden pairs, the naked triple, X-wing, swordfish |
//! | hard | 4.0 to 6.4 | the hidden triple, chains of two to four strong links on one digit (skyscraper, two-string kite, turbot fish), XY-, XYZ-, WXYZ- and VWXYZ-wings, unique rectangles, quads, jellyfish, bivalue universal graves (SE 5.6-6.0) |
//! | expert | 6.5 to 8.1 | one chain at a time: X- and Y-cycles, X-chains, finned fish and W-wings (rated as the chains they are), XY-chains, bidirectional cycles, AICs, SE's forcing chains (7.1-7.5) and Nishio (7.6-8.1) |
//! | extreme | 8.2 and up | several chains at once: cell and region forcing chains (8.2-8.7), dynamic and nested forcing chains; and every proper puzzle the logic cannot finish |
//!
//! Why these edges: 2.3 is the naked single, the last of the singles. SE rates the hidden
//! triple 4.0, and SukakuExplainer the shortest strong-link chains (a skyscraper) 4.0 too:
//! from there on a step asks for a pattern across several units or a short chain, so hard
//! starts at 4.0 and medium is the subsets and fish below it. The last patterns that are
//! not chains (VWXYZ-wings at 6.2-6.4, SE's aligned pair exclusion at 6.2) end at 6.4,
//! and SE's cycles and chains start at 6.5. SE's families that follow one chain end with
//! Nishio at 8.1, and 8.2 is where it starts to follow a chain from every candidate of a
//! cell or every place of a digit in a unit at once.

use super::logic::{Candidates, DEFAULT_WORK_BUDGET, Rating, Step, Technique, next_step};
use super::{BudgetExhausted, Grid, Solver, Verdict};

/// Steps [`grade`] applies at most unless told otherwise. Every step places a digit or
/// removes a candidate, and a grid has 81 cells and 729 candidates, so the logic finishes
/// (solved or stuck) well within it; a smaller budget bounds the time on a slow machine.
pub const DEFAULT_STEP_BUDGET: usize = 1_000;

/// How hard a puzzle is, named; see the [module documentation](self) for the bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// Singles only: rating up to 2.3.
    Easy,
    /// Intersections, pairs, the naked triple, X-wing, swordfish: 2.4 to 3.9.
    Medium,
    /// The hidden triple, strong-link chains, wings, uniqueness, quads, jellyfish, BUG:
    /// 4.0 to 6.4.
    Hard,
    /// Chains, one at a time: 6.5 to 8.1.
    Expert,
    /// Forcing chains from a cell or a unit, and beyond: 8.2 and up.
    Extreme,
}

impl Difficulty {
    /// Every difficulty, easiest first.
    pub const ALL: [Difficulty; 5] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
        Difficulty::Extreme,
    ];

    /// The lowercase name: `easy`, `medium`, `hard`, `expert` or `extreme`.
    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
            Difficulty::Extreme => "extreme",
        }
    }

    /// The highest rating of the band; `None` for [`Difficulty::Extreme`], which has no top.
    pub fn highest_rating(self) -> Option<Rating> {
        match self {
            Difficulty::Easy => Some(Rating(23)),
            Difficulty::Medium => Some(Rating(39)),
            Difficulty::Hard => Some(Rating(64)),
            Difficulty::Expert => Some(Rating(81)),
            Difficulty::Extreme => None,
        }
    }

    /// The lowest rating of the band (0.0 for easy: a complete grid needs no step).
    pub fn lowest_rating(self) -> Rating {
        match self {
            Difficulty::Easy => Rating(0),
            Difficulty::Medium => Rating(24),
            Difficulty::Hard => Rating(40),
            Difficulty::Expert => Rating(65),
            Difficulty::Extreme => Rating(82),
        }
    }

    /// The band a rating falls in.
    pub fn of_rating(rating: Rating) -> Difficulty {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.highest_rating().is_none_or(|top| rating <= top))
            .unwrap_or(Difficulty::Extreme)
    }
}

/// A name that is not a [`Difficulty`]; its message lists the valid ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown difficulty {name:?}: expected one of easy, medium, hard, expert, extreme")]
pub struct UnknownDifficulty {
    /// The name given.
    pub name: String,
}

named_by_as_str!(Difficulty, UnknownDifficulty);

/// How often one technique was used on the way, and its hardest rating there (chains rate
/// by their length, so one technique can rate differently from step to step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TechniqueUse {
    /// The technique.
    pub technique: Technique,
    /// The hardest rating of its steps.
    pub rating: Rating,
    /// How many steps used it.
    pub count: usize,
}

impl TechniqueUse {
    /// The technique's stable `snake_case` name ([`Technique::name`]).
    pub fn name(&self) -> &'static str {
        self.technique.name()
    }
}

/// How hard a puzzle is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grade {
    /// The band of [`Grade::rating`] when the logic solved the puzzle. When it did not:
    /// [`Difficulty::Extreme`] if it was stuck (the puzzle needs more than every technique
    /// it knows, cell and region forcing chains included), and the band of the rating
    /// reached (a lower bound) if the step budget ran out first.
    pub difficulty: Difficulty,
    /// The hardest step applied, in tenths of SE's scale (`Rating(23)` is 2.3; 0.0 when
    /// no step was needed). The puzzle's rating when `solved_by_logic`, else a lower bound.
    pub rating: Rating,
    /// Whether the logic filled the grid within the step budget.
    pub solved_by_logic: bool,
    /// Whether the logic stopped because no technique applied (rather than solved, or out
    /// of steps).
    pub stuck: bool,
    /// The number of steps applied.
    pub steps: usize,
    /// The techniques used, one entry each, in order of rating (then of
    /// [`Technique::ALL`]).
    pub techniques: Vec<TechniqueUse>,
}

/// Why a grid cannot be graded: grading needs exactly one solution, since a person's path
/// to it and the uniqueness techniques both assume one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GradeError {
    /// No solution (clashing givens included).
    #[error("the puzzle has no solution")]
    NoSolution,
    /// More than one solution.
    #[error("the puzzle has more than one solution")]
    MultipleSolutions,
    /// The search gave up before it could tell how many solutions there are.
    #[error(transparent)]
    SearchLimit(#[from] BudgetExhausted),
}

/// How a grade is made: what proves the puzzle has one solution, and how many logical
/// steps it may apply. [`explain`](crate::explain) takes the same, as its path is the
/// grade's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GradeOptions {
    /// Counts the solutions first (and its guess budget bounds that search).
    pub solver: Solver,
    /// Logical steps applied at most; a puzzle beyond it comes back with the rating
    /// reached and `solved_by_logic: false`.
    pub step_budget: usize,
}

impl Default for GradeOptions {
    fn default() -> Self {
        GradeOptions {
            solver: Solver::default(),
            step_budget: DEFAULT_STEP_BUDGET,
        }
    }
}

/// Grades `grid` as `options` say.
///
/// Never takes longer than the step budget: a puzzle beyond it, or beyond the techniques,
/// comes back with the rating reached and `solved_by_logic: false`.
///
/// ```
/// use sudoku::{CLASSIC_PUZZLE, Difficulty, GradeOptions, Grid, grade};
///
/// let puzzle: Grid = CLASSIC_PUZZLE.parse()?;
/// let grade = grade(&puzzle, &GradeOptions::default())?;
/// assert_eq!(grade.difficulty, Difficulty::Easy);
/// assert!(grade.solved_by_logic);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`GradeError`] when the grid does not have exactly one solution.
pub fn grade(grid: &Grid, options: &GradeOptions) -> Result<Grade, GradeError> {
    match options.solver.analyze(grid)? {
        Verdict::Unique(_) => Ok(grade_unique(grid, options.step_budget)),
        Verdict::Multiple(_) => Err(GradeError::MultipleSolutions),
        Verdict::None => Err(GradeError::NoSolution),
    }
}

/// Grades a grid known to have exactly one solution (the generator's, which has just
/// proved it).
pub(crate) fn grade_unique(grid: &Grid, step_budget: usize) -> Grade {
    grade_unique_with_path(grid, step_budget, None)
}

/// [`grade_unique`], and the steps it applied pushed onto `path` in order when one is
/// given: the explanation of a grade is the grader's own path, never a second run.
pub(crate) fn grade_unique_with_path(
    grid: &Grid,
    step_budget: usize,
    path: Option<&mut Vec<Step>>,
) -> Grade {
    match run_logic(grid, step_budget, None, path) {
        Logic::Finished(grade) => grade,
        // No ceiling was given, so none was passed.
        Logic::AboveCeiling => unreachable!("no ceiling"),
    }
}

/// Whether the logic solves a grid known to have exactly one solution with no step rated
/// above `ceiling`, within `step_budget` steps; stops at the first step above it. Cheaper
/// than a whole [`grade`] for a puzzle that is too hard.
pub(crate) fn solves_within(grid: &Grid, ceiling: Rating, step_budget: usize) -> bool {
    matches!(
        run_logic(grid, step_budget, Some(ceiling), None),
        Logic::Finished(Grade {
            solved_by_logic: true,
            ..
        })
    )
}

enum Logic {
    Finished(Grade),
    /// The step the logic took next rated above the ceiling.
    AboveCeiling,
}

/// The driver of [`crate::logic::solve_logically`] ([`next_step`] each time, until
/// solved, stuck or out of steps), with a ceiling and a tally of the techniques. Since
/// the rating is the hardest step taken, a step above the ceiling settles that the
/// puzzle rates above it. The steps applied go onto `path` when one is given.
fn run_logic(
    grid: &Grid,
    step_budget: usize,
    ceiling: Option<Rating>,
    mut path: Option<&mut Vec<Step>>,
) -> Logic {
    let Ok(mut state) = Candidates::from_grid(grid) else {
        // A grid with exactly one solution has no clashing givens.
        return Logic::Finished(Grade {
            difficulty: Difficulty::Extreme,
            rating: Rating(0),
            solved_by_logic: false,
            stuck: true,
            steps: 0,
            techniques: Vec::new(),
        });
    };
    let mut hardest = Rating(0);
    let mut steps = 0;
    // Indexed by the technique's place in `Technique::ALL` (its order as an enum).
    let mut uses: Vec<Option<TechniqueUse>> = vec![None; Technique::ALL.len()];
    let mut stuck = false;
    while !state.is_solved() && steps < step_budget {
        let Some(step) = next_step(&state, &mut DEFAULT_WORK_BUDGET.clone()) else {
            stuck = true;
            break;
        };
        if ceiling.is_some_and(|top| step.rating > top) {
            return Logic::AboveCeiling;
        }
        step.apply(&mut state);
        hardest = hardest.max(step.rating);
        steps += 1;
        let slot = &mut uses[step.technique as usize];
        match slot {
            Some(used) => {
                used.count += 1;
                used.rating = used.rating.max(step.rating);
            }
            None => {
                *slot = Some(TechniqueUse {
                    technique: step.technique,
                    rating: step.rating,
                    count: 1,
                });
            }
        }
        if let Some(path) = path.as_deref_mut() {
            path.push(step);
        }
    }
    let solved = state.is_solved();
    let mut techniques: Vec<TechniqueUse> = uses.into_iter().flatten().collect();
    // Stable: techniques of equal rating stay in the order of `Technique::ALL`.
    techniques.sort_by_key(|used| used.rating);
    Logic::Finished(Grade {
        difficulty: if stuck && !solved {
            Difficulty::Extreme
        } else {
            Difficulty::of_rating(hardest)
        },
        rating: hardest,
        solved_by_logic: solved,
        stuck: stuck && !solved,
        steps,
        techniques,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::solve_logically;
    use crate::puzzle_sets::{PROPER, spread};
    use crate::{CLASSIC_PUZZLE, CLASSIC_SOLUTION};

    fn grid(line: &str) -> Grid {
        Grid::from_line(line).unwrap()
    }

    fn within(step_budget: usize) -> GradeOptions {
        GradeOptions {
            step_budget,
            ..GradeOptions::default()
        }
    }

    /// A 17-clue puzzle that needs more than singles (the logic module's BUG+1 test).
    const BUG_PUZZLE: &str =
        "................12..3.45.................63.417.2.................81..7.3.4...6..";

    #[test]
    fn every_rating_falls_in_exactly_one_band_and_the_bands_meet() {
        for tenths in 0..=200 {
            let rating = Rating(tenths);
            let bands: Vec<Difficulty> = Difficulty::ALL
                .into_iter()
                .filter(|d| {
                    d.lowest_rating() <= rating && d.highest_rating().is_none_or(|t| rating <= t)
                })
                .collect();
            assert_eq!(bands, [Difficulty::of_rating(rating)], "{rating}");
        }
        assert_eq!(Difficulty::of_rating(Rating(23)), Difficulty::Easy);
        assert_eq!(Difficulty::of_rating(Rating(24)), Difficulty::Medium);
        assert_eq!(Difficulty::of_rating(Rating(39)), Difficulty::Medium);
        assert_eq!(Difficulty::of_rating(Rating(40)), Difficulty::Hard);
        assert_eq!(Difficulty::of_rating(Rating(64)), Difficulty::Hard);
        assert_eq!(Difficulty::of_rating(Rating(65)), Difficulty::Expert);
        assert_eq!(Difficulty::of_rating(Rating(81)), Difficulty::Expert);
        assert_eq!(Difficulty::of_rating(Rating(82)), Difficulty::Extreme);
    }

    #[test]
    fn names_round_trip_and_an_unknown_one_lists_the_valid_ones() {
        for difficulty in Difficulty::ALL {
            assert_eq!(difficulty.as_str().parse(), Ok(difficulty));
            assert_eq!(difficulty.to_string(), difficulty.as_str());
        }
        let err = "Hard".parse::<Difficulty>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown difficulty \"Hard\": expected one of easy, medium, hard, expert, extreme"
        );
    }

    #[test]
    fn the_classic_puzzle_is_easy_and_needs_only_singles() {
        let grade = grade(&grid(CLASSIC_PUZZLE), &within(DEFAULT_STEP_BUDGET)).unwrap();
        assert_eq!(grade.difficulty, Difficulty::Easy);
        assert!(grade.solved_by_logic && !grade.stuck);
        assert!(grade.rating <= Rating(23), "{}", grade.rating);
        assert_eq!(grade.steps, 81 - 30);
        let counted: usize = grade.techniques.iter().map(|t| t.count).sum();
        assert_eq!(counted, grade.steps);
        assert_eq!(grade.techniques.last().unwrap().rating, grade.rating);
    }

    #[test]
    fn techniques_come_in_order_of_rating_with_their_hardest_step() {
        let puzzle = grid(BUG_PUZZLE);
        let grade = grade(&puzzle, &within(DEFAULT_STEP_BUDGET)).unwrap();
        let logic = solve_logically(&puzzle, DEFAULT_STEP_BUDGET, DEFAULT_WORK_BUDGET).unwrap();
        assert!(grade.techniques.is_sorted_by_key(|t| t.rating));
        for used in &grade.techniques {
            let of_it: Vec<Rating> = logic
                .steps
                .iter()
                .filter(|s| s.technique == used.technique)
                .map(|s| s.rating)
                .collect();
            assert_eq!(used.count, of_it.len(), "{}", used.name());
            assert_eq!(Some(&used.rating), of_it.iter().max(), "{}", used.name());
        }
        assert_eq!(
            grade.techniques.last().map(|t| t.rating),
            Some(grade.rating)
        );
        assert!(grade.rating > Rating(23), "{}", grade.rating);
    }

    #[test]
    fn grades_agree_with_the_logical_solver_over_the_corpus() {
        // The grader drives the techniques itself (to stop early under a ceiling); its
        // path must be solve_logically's.
        for name in PROPER {
            for puzzle in spread(name, 6) {
                let grade = grade_unique(&puzzle, DEFAULT_STEP_BUDGET);
                let logic =
                    solve_logically(&puzzle, DEFAULT_STEP_BUDGET, DEFAULT_WORK_BUDGET).unwrap();
                assert_eq!(grade.rating, logic.hardest, "{name}: {puzzle}");
                assert_eq!(grade.steps, logic.steps.len(), "{name}: {puzzle}");
                assert_eq!(grade.solved_by_logic, logic.solved, "{name}: {puzzle}");
                if logic.solved {
                    assert_eq!(grade.difficulty, Difficulty::of_rating(logic.hardest));
                } else {
                    assert_eq!(grade.difficulty, Difficulty::Extreme, "{name}: {puzzle}");
                }
            }
        }
    }

    #[test]
    fn out_of_steps_gives_the_rating_so_far_and_not_solved() {
        let grade = grade(&grid(BUG_PUZZLE), &within(5)).unwrap();
        assert_eq!(grade.steps, 5);
        assert!(!grade.solved_by_logic && !grade.stuck);
        assert_eq!(grade.difficulty, Difficulty::of_rating(grade.rating));
        let full = super::grade(&grid(BUG_PUZZLE), &within(DEFAULT_STEP_BUDGET)).unwrap();
        assert!(grade.rating <= full.rating);
    }

    #[test]
    fn a_complete_grid_is_easy_with_no_step() {
        let grade = grade(&grid(CLASSIC_SOLUTION), &within(0)).unwrap();
        assert_eq!(grade.rating, Rating(0));
        assert!(grade.solved_by_logic);
        assert_eq!((grade.difficulty, grade.steps), (Difficulty::Easy, 0));
        assert!(grade.techniques.is_empty());
    }

    #[test]
    fn only_a_unique_solution_can_be_graded() {
        assert_eq!(
            grade(&Grid::EMPTY, &within(DEFAULT_STEP_BUDGET)),
            Err(GradeError::MultipleSolutions)
        );
        let clash = grid(&format!("55{}", &CLASSIC_PUZZLE[2..]));
        assert_eq!(
            grade(&clash, &within(DEFAULT_STEP_BUDGET)),
            Err(GradeError::NoSolution)
        );
        // Valid givens, no solution: row 0 must end in 9, but column 8 holds a 9.
        let dead_end = grid(&format!("12345678{}9", ".".repeat(72)));
        assert_eq!(
            grade(&dead_end, &within(DEFAULT_STEP_BUDGET)),
            Err(GradeError::NoSolution)
        );
    }

    #[test]
    fn a_ceiling_below_the_rating_stops_the_logic_and_one_at_it_does_not() {
        let puzzle = grid(BUG_PUZZLE);
        let rating = grade(&puzzle, &within(DEFAULT_STEP_BUDGET)).unwrap().rating;
        assert!(solves_within(&puzzle, rating, DEFAULT_STEP_BUDGET));
        assert!(!solves_within(
            &puzzle,
            Rating(rating.0 - 1),
            DEFAULT_STEP_BUDGET
        ));
    }
}
