//! A logical solver of human techniques, and the Sudoku Explainer (SE) rating it implies.
//!
//! # Design
//! - [`Candidates`] is the pencil-mark state: a 9-bit mask per cell, the placed digits, and
//!   one 81-bit cell set per digit, so a unit's places for a digit are one AND.
//! - Each technique is a function from a state to the first [`Step`] it finds, or none;
//!   one file per family (singles, intersections, subsets, fish, strong-link chains
//!   (`links`), wings, ALS wings (`als`), uniqueness, chains and cycles, forcing chains).
//!   A step is a plain value: technique, highlights, placements, eliminations and
//!   rating; applying it is the caller's choice ([`Step::apply`]).
//! - [`next_step`] follows the rater's rule: the techniques are grouped by producer in
//!   SukakuExplainer's order, and the first producer with a step wins, with the easiest of
//!   its steps.
//! - [`solve_logically`] applies steps until the grid is solved, no technique applies, or
//!   the step budget is spent; a puzzle's rating is its hardest step.
//!
//! Every technique is sound for any position, except the uniqueness ones (unique
//! rectangles, BUG+1), which assume the puzzle has exactly one solution.
//!
//! Ratings follow SE v1.2.1's base ratings, and, where our reference ratings were made
//! with SukakuExplainer's defaults, that fork's extra techniques and ratings: chains of
//! two to four strong links on one digit (4.0, 5.4, 5.8 plus a mix modifier) and wings of
//! a bivalue cell with a three- or four-cell almost locked set (5.5-5.6, 6.2-6.4).
//! Techniques neither has (finned fish, W-wing) are rated as the chains SE would find
//! instead. The idea of SE's length modifier is in [`length_bonus`]; code of SE and its
//! forks is LGPL and none of it is used here.

// Cells, units and digits are numbers that index the tables, so loops over their ranges
// read better than iterators over the tables.
#![allow(clippy::needless_range_loop)]

mod als;
mod candidates;
mod chains;
mod dynamic;
mod fish;
mod forcing;
mod intersections;
mod links;
mod singles;
mod step;
mod subsets;
mod uniqueness;
mod wings;

pub use candidates::{
    ALL_CELLS, ALL_DIGITS, Candidates, CellSet, Contradiction, PEERS, UNIT_CELLS, UNIT_MASK, UNITS,
    bit, box_of, cells_of, col_of, digits_of, row_of, units_of,
};
pub use step::{Rating, Step, Technique, length_bonus};

use crate::Grid;

type Finder = fn(&Candidates) -> Option<Step>;

/// The techniques in the order tried, each tagged with its producer: the producers are
/// tried in turn and the first one with a step wins, with the easiest of its steps. This
/// is SukakuExplainer's rule (its rater asks its producers in a fixed order and stops at
/// the first that finds anything), so a producer listed early may give a step rated above
/// one a later producer would have found. Chains form one producer, as in SE.
const FINDERS: &[(u8, Finder)] = &[
    (0, singles::last_value),
    (1, |s| singles::hidden_single(s, true)),
    (2, |s| singles::hidden_single(s, false)),
    (3, |s| intersections::pointing(s, true)),
    (4, |s| intersections::claiming(s, true)),
    (5, |s| subsets::hidden(s, 2, true)),
    (6, singles::naked_single),
    (7, |s| subsets::hidden(s, 3, true)),
    (8, |s| intersections::pointing(s, false)),
    (9, |s| intersections::claiming(s, false)),
    (10, |s| subsets::naked(s, 2)),
    (11, |s| fish::fish(s, 2)),
    (12, |s| subsets::hidden(s, 2, false)),
    (13, |s| subsets::naked(s, 3)),
    (14, |s| fish::fish(s, 3)),
    (15, |s| subsets::hidden(s, 3, false)),
    (16, |s| links::strong_links(s, 2)),
    (17, wings::xy_wing),
    (18, wings::xyz_wing),
    (19, uniqueness::unique_rectangle),
    (20, |s| subsets::naked(s, 4)),
    (21, |s| fish::fish(s, 4)),
    (22, |s| subsets::hidden(s, 4, false)),
    (23, |s| links::strong_links(s, 3)),
    (24, |s| als::als_wing(s, 3)),
    (25, uniqueness::bug_plus_one),
    (26, |s| links::strong_links(s, 4)),
    (27, |s| als::als_wing(s, 4)),
    (30, chains::cycle),
    (30, |s| fish::finned_fish(s, 2)),
    (30, chains::x_chain),
    (30, |s| fish::finned_fish(s, 3)),
    (30, |s| fish::finned_fish(s, 4)),
    (30, wings::w_wing),
    (30, chains::aic),
];

/// The work a solve may spend on Nishio, dynamic and nested forcing chains, in
/// propagation steps of a branch (a rule asked inside a branch counts as many steps as it
/// roughly costs). Counted, never timed, so that a rating does not depend on the machine:
/// a solve that spends it ends unsolved, with the hardest rating reached so far.
pub const DEFAULT_WORK_BUDGET: u64 = 2_000_000;

/// The step SE's rule takes in `state`: the easiest step of the first producer that has
/// one; `None` when no technique applies, the position is visibly broken, or the dynamic
/// and nested forcing chains run out of `work` (see [`DEFAULT_WORK_BUDGET`]) before a step
/// is found. What they spend is taken from `work`, so one budget can bound a whole solve.
pub fn next_step(state: &Candidates, work: &mut u64) -> Option<Step> {
    if state.is_broken() {
        return None;
    }
    let mut best: Option<Step> = None;
    let mut group = None;
    for &(producer, finder) in FINDERS {
        if group != Some(producer) {
            if best.is_some() {
                return best;
            }
            group = Some(producer);
        }
        if let Some(step) = finder(state) {
            if best.as_ref().is_none_or(|b| step.rating < b.rating) {
                best = Some(step);
            }
        }
    }
    if best.is_some() {
        return best;
    }
    // SE's later producers, in its order: Nishio, static multiple forcing chains, then
    // dynamic forcing chains nested ever deeper. Work runs out only in the budgeted ones.
    if let Some(step) = dynamic::nishio(state, work).ok()? {
        return Some(step);
    }
    if let Some(step) = forcing::forcing_chains(state) {
        return Some(step);
    }
    for level in 0..=dynamic::MAX_LEVEL {
        if let Some(step) = dynamic::dynamic(state, level, work).ok()? {
            return Some(step);
        }
    }
    None
}

/// The easiest single in `state`: a last value, a hidden single in a box, then in a line,
/// then a naked single; `None` when there is none. A player sees a single at a glance,
/// whatever SE's order says: SE asks its "direct" intersections and subsets (1.7-2.5)
/// before naked singles (2.3), so [`next_step`] may answer a direct pointing where a naked
/// single is there to take, which is a worse hint (HoDoKu, too, hints the single).
pub fn next_single(state: &Candidates) -> Option<Step> {
    if state.is_broken() {
        return None;
    }
    singles::last_value(state)
        .or_else(|| singles::hidden_single(state, true))
        .or_else(|| singles::hidden_single(state, false))
        .or_else(|| singles::naked_single(state))
}

/// What [`solve_logically`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogicalSolution {
    /// The steps applied, in order.
    pub steps: Vec<Step>,
    /// True when the steps filled the grid.
    pub solved: bool,
    /// The rating of the hardest step (0.0 when no step was needed); the puzzle's SE-style
    /// rating when `solved`.
    pub hardest: Rating,
    /// The position reached.
    pub end: Candidates,
}

/// Applies the easiest step again and again until the grid is solved, no technique
/// applies, `step_budget` steps have been applied, or the forcing chains have spent
/// `work_budget` over the whole solve ([`DEFAULT_WORK_BUDGET`] is the grader's per step).
///
/// # Errors
/// [`Contradiction`] when the givens clash.
pub fn solve_logically(
    grid: &Grid,
    step_budget: usize,
    work_budget: u64,
) -> Result<LogicalSolution, Contradiction> {
    let mut state = Candidates::from_grid(grid)?;
    let mut steps = Vec::new();
    let mut hardest = Rating(0);
    let mut work = work_budget;
    while !state.is_solved() && steps.len() < step_budget {
        let Some(step) = next_step(&state, &mut work) else {
            break;
        };
        step.apply(&mut state);
        hardest = hardest.max(step.rating);
        steps.push(step);
    }
    Ok(LogicalSolution {
        steps,
        solved: state.is_solved(),
        hardest,
        end: state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle_sets::{PROPER, every, spread};
    use crate::{CLASSIC_PUZZLE, CLASSIC_SOLUTION, Solver, Verdict};
    use std::collections::BTreeMap;

    #[test]
    fn the_classic_puzzle_falls_to_singles() {
        let grid = Grid::from_line(CLASSIC_PUZZLE).unwrap();
        let solution = solve_logically(&grid, 200, DEFAULT_WORK_BUDGET).unwrap();
        assert!(solution.solved);
        assert_eq!(solution.end.to_grid().to_line(), CLASSIC_SOLUTION);
        assert!(solution.hardest <= Rating(23), "{}", solution.hardest);
        assert_eq!(
            solution.steps.len(),
            grid.cells().iter().filter(|&&d| d == 0).count()
        );
    }

    #[test]
    fn the_step_budget_stops_the_solver() {
        let grid = Grid::from_line(CLASSIC_PUZZLE).unwrap();
        let solution = solve_logically(&grid, 3, DEFAULT_WORK_BUDGET).unwrap();
        assert_eq!(solution.steps.len(), 3);
        assert!(!solution.solved);
    }

    #[test]
    fn the_easiest_step_is_taken_first() {
        // A row missing only its last digit is a last value (1.0), though hidden singles
        // and naked singles are available too.
        let grid = Grid::from_line(&format!("12345678.{}", ".".repeat(72))).unwrap();
        let step = next_step(
            &Candidates::from_grid(&grid).unwrap(),
            &mut DEFAULT_WORK_BUDGET.clone(),
        )
        .unwrap();
        assert_eq!(step.technique, Technique::LastValue);
        assert_eq!(step.placements, [(8, 9)]);
    }

    #[test]
    fn bug_plus_one_places_the_digit_of_the_one_trivalue_cell() {
        // A 17-clue puzzle whose logical path reaches a BUG+1 position (other techniques
        // may come first there, so the BUG is asked for directly at each position).
        let line =
            "................12..3.45.................63.417.2.................81..7.3.4...6..";
        let grid = Grid::from_line(line).unwrap();
        let Ok(Verdict::Unique(answer)) = Solver::default().analyze(&grid) else {
            panic!("proper puzzle");
        };
        let mut state = Candidates::from_grid(&grid).unwrap();
        let step = loop {
            if let Some(step) = uniqueness::bug_plus_one(&state) {
                break step;
            }
            next_step(&state, &mut DEFAULT_WORK_BUDGET.clone())
                .expect("the logic reaches the BUG")
                .apply(&mut state);
        };
        // The position is a BUG but for r6c8: every other open cell is bivalue.
        let trivalue: Vec<usize> = cells_of(state.open_cells())
            .filter(|&c| state.mask(c).count_ones() != 2)
            .collect();
        assert_eq!(trivalue, [5 * 9 + 7]);
        assert_eq!(state.mask(52).count_ones(), 3);
        assert_eq!(step.placements, [(52, answer.cells()[52])]);
    }

    /// The puzzles of one proper set the corpus test reads: `LOGIC_CORPUS_STRIDE` sets the
    /// stride; by default a few dozen spread over the set, so a debug run stays short.
    fn sample(name: &str) -> Vec<Grid> {
        match std::env::var("LOGIC_CORPUS_STRIDE") {
            Ok(stride) => every(name, stride.parse().expect("LOGIC_CORPUS_STRIDE: a number")),
            Err(_) => spread(name, 40),
        }
    }

    #[test]
    fn no_step_contradicts_the_solution_over_the_corpus() {
        for name in PROPER {
            let mut solved = 0;
            let mut total = 0;
            let mut hardest: BTreeMap<(Rating, &str), usize> = BTreeMap::new();
            // The hardest technique applied, solved or not: which ones the test exercised.
            let mut techniques: BTreeMap<&str, usize> = BTreeMap::new();
            for grid in sample(name) {
                let Ok(Verdict::Unique(answer)) = Solver::default().analyze(&grid) else {
                    panic!("{name}: {grid:?} is not proper");
                };
                let answer = answer.cells();
                let mut state = Candidates::from_grid(&grid).unwrap();
                let mut worst: Option<Step> = None;
                // A smaller work budget than a solve's by default, so that a debug run
                // stays short; it still reaches the dynamic and nested chains on the
                // hardest sets. `LOGIC_CORPUS_WORK` sets it, to go deeper in release.
                let mut work = std::env::var("LOGIC_CORPUS_WORK").map_or(1_500_000, |w| {
                    w.parse().expect("LOGIC_CORPUS_WORK: a number")
                });
                for _ in 0..400 {
                    let Some(step) = next_step(&state, &mut work) else {
                        break;
                    };
                    for &(cell, digit) in &step.placements {
                        assert_eq!(answer[cell], digit, "{name}: {step}\n{state:?}");
                    }
                    for &(cell, digit) in &step.eliminations {
                        assert_ne!(answer[cell], digit, "{name}: {step}\n{state:?}");
                    }
                    assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
                    step.apply(&mut state);
                    if worst.as_ref().is_none_or(|w| step.rating > w.rating) {
                        worst = Some(step);
                    }
                }
                total += 1;
                if let Some(w) = &worst {
                    *techniques.entry(w.technique.name()).or_default() += 1;
                }
                if state.is_solved() {
                    solved += 1;
                    let worst =
                        worst.map_or((Rating(0), "none"), |w| (w.rating, w.technique.name()));
                    *hardest.entry(worst).or_default() += 1;
                } else {
                    *hardest.entry((Rating(999), "stuck")).or_default() += 1;
                }
            }
            println!("{name}: solved {solved} of {total}; hardest applied {techniques:?}");
            for ((rating, technique), count) in hardest {
                println!("  {rating} {technique}: {count}");
            }
        }
    }
}
