//! Properties of hints on players' boards: random progress, random wrong digits and random
//! pencil marks on real puzzles.
//!
//! - Wrong digits come first: whatever else is on the board or in the marks, the hint
//!   names the first wrong cell, and tells no digit.
//! - Pencil marks that keep every solution digit get a step that is true of the solution
//!   and taken from those marks: it removes only digits the player still has pencilled
//!   (and no peer rules out), and places only digits pencilled in their cells.
//! - Marks that lose a solution digit are reported, at the first such cell, before any
//!   step.

use std::sync::OnceLock;

use proptest::prelude::*;
use sudoku::hint::{Hint, HintOptions, PencilMarks, hint, position};
use sudoku::logic::{ALL_DIGITS, Candidates, DEFAULT_WORK_BUDGET, bit, next_step};
use sudoku::puzzle_sets::spread;
use sudoku::{CELLS, CLASSIC_PUZZLE, Grid, Solver, Verdict};

/// A proper puzzle and its solution.
struct Case {
    puzzle: Grid,
    answer: [u8; CELLS],
}

/// A position on a puzzle's logical path where the logic's next step eliminates without
/// placing: a player there with full marks has no single left, so a hint from marks near
/// these must often be an elimination, which the properties then check.
struct Crossroads {
    case: usize,
    board: Grid,
    marks: PencilMarks,
}

/// Real puzzles of three kinds: the classic (singles), 17-clue (mostly easy for people)
/// and diabolical (SE 5.0 and up), solved once.
fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut puzzles = vec![Grid::from_line(CLASSIC_PUZZLE).unwrap()];
        puzzles.extend(spread("puzzles2_17_clue", 6));
        puzzles.extend(spread("sudoku_exchange_diabolical", 8));
        puzzles
            .into_iter()
            .map(|puzzle| {
                let Ok(Verdict::Unique(solution)) = Solver::default().analyze(&puzzle) else {
                    panic!("{puzzle}: not proper");
                };
                Case {
                    puzzle,
                    answer: *solution.cells(),
                }
            })
            .collect()
    })
}

/// Every [`Crossroads`] of the logical paths of [`cases`].
fn crossroads() -> &'static [Crossroads] {
    static CROSSROADS: OnceLock<Vec<Crossroads>> = OnceLock::new();
    CROSSROADS.get_or_init(|| {
        let mut found = Vec::new();
        for (index, case) in cases().iter().enumerate() {
            let mut state = Candidates::from_grid(&case.puzzle).unwrap();
            while let Some(step) = next_step(&state, &mut DEFAULT_WORK_BUDGET.clone()) {
                if step.placements.is_empty() {
                    found.push(Crossroads {
                        case: index,
                        board: state.to_grid(),
                        marks: std::array::from_fn(|c| state.mask(c)),
                    });
                }
                step.apply(&mut state);
            }
        }
        assert!(found.len() >= 20, "only {} crossroads", found.len());
        found
    })
}

/// A player's board: a case's puzzle with the solution's digit written into each empty
/// cell that `progress` picks (some progress, all of it right).
fn board_with_progress(case: &Case, progress: &[bool]) -> [u8; CELLS] {
    let mut cells = *case.puzzle.cells();
    for (cell, &filled) in progress.iter().enumerate() {
        if filled && cells[cell] == 0 {
            cells[cell] = case.answer[cell];
        }
    }
    cells
}

/// The empty cells of `cells`, in order.
fn empty(cells: &[u8; CELLS]) -> Vec<usize> {
    (0..CELLS).filter(|&c| cells[c] == 0).collect()
}

/// Pencil marks: `random` in every cell, and in each empty cell of `cells` its solution
/// digit. Marks may hold digits a peer rules out (stale marks), as a player's do.
fn marks_keeping_the_solution(case: &Case, cells: &[u8; CELLS], random: &[u16]) -> PencilMarks {
    std::array::from_fn(|c| {
        let mark = random[c] & ALL_DIGITS;
        if cells[c] == 0 {
            mark | bit(case.answer[c])
        } else {
            mark
        }
    })
}

/// Picks cells among `candidates` by the raw numbers of a strategy (duplicates merge).
fn pick(candidates: &[usize], raw: &[usize]) -> Vec<usize> {
    let mut cells: Vec<usize> = raw
        .iter()
        .map(|&r| candidates[r % candidates.len()])
        .collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

fn grid(cells: [u8; CELLS]) -> Grid {
    Grid::from_cells(cells).expect("digits 0-9")
}

fn case_index() -> impl Strategy<Value = usize> {
    0..cases().len()
}

/// Which empty cells the player has filled: about a third of them.
fn progress() -> impl Strategy<Value = Vec<bool>> {
    prop::collection::vec(prop::bool::weighted(0.35), CELLS)
}

/// 81 masks, each digit set with probability 1/2.
fn random_masks() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), CELLS)
}

/// 81 masks, each digit set with probability 1/8.
fn sparse_masks() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(
        (any::<u16>(), any::<u16>(), any::<u16>()).prop_map(|(a, b, c)| a & b & c),
        CELLS,
    )
}

/// Checks a hint for a board without mistakes whose player holds `marks`.
fn check_step_from_marks(
    hint: &Hint,
    case: &Case,
    board: &Grid,
    marks: &PencilMarks,
) -> Result<(), TestCaseError> {
    let state = position(board, Some(marks)).expect("a board within its solution");
    let cells = board.cells();
    match hint {
        Hint::Step(step) => {
            prop_assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
            for &(cell, digit) in &step.placements {
                prop_assert_eq!(cells[cell], 0, "{} fills a filled cell", step);
                prop_assert_eq!(case.answer[cell], digit, "{} places a wrong digit", step);
                prop_assert!(
                    marks[cell] & bit(digit) != 0,
                    "{} places an unpencilled digit",
                    step
                );
            }
            for &(cell, digit) in &step.eliminations {
                prop_assert_ne!(
                    case.answer[cell],
                    digit,
                    "{} removes the solution's digit",
                    step
                );
                prop_assert!(
                    marks[cell] & bit(digit) != 0 && state.has(cell, digit),
                    "{} removes a digit the player has not pencilled, or a peer rules out",
                    step
                );
            }
        }
        Hint::Stuck {
            reveal: (cell, digit),
        } => {
            prop_assert_eq!(cells[*cell], 0);
            prop_assert_eq!(case.answer[*cell], *digit);
        }
        other => prop_assert!(false, "{:?} for a board without mistakes", other),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_wrong_digit_is_found_first_whatever_the_marks(
        index in case_index(),
        progress in progress(),
        mistakes in prop::collection::vec((any::<usize>(), 1..=8u8), 1..4),
        marks in prop::option::of(random_masks()),
    ) {
        let case = &cases()[index];
        let mut cells = board_with_progress(case, &progress);
        // Wrong digits in cells the puzzle leaves empty, filled by the player or not; a
        // wrong digit may clash with a given, or not.
        let open = empty(case.puzzle.cells());
        let raw: Vec<usize> = mistakes.iter().map(|&(raw, _)| raw).collect();
        let wrong = pick(&open, &raw);
        for (&cell, &(_, offset)) in wrong.iter().zip(&mistakes) {
            cells[cell] = (case.answer[cell] + offset - 1) % 9 + 1;
        }
        let marks: Option<PencilMarks> =
            marks.map(|random| std::array::from_fn(|c| random[c] & ALL_DIGITS));
        let answer = hint(&grid(cells), &HintOptions { givens: Some(&case.puzzle), marks: marks.as_ref(), ..HintOptions::default() });
        // The first wrong cell, row-major: the cell alone, its digit untold (the variant
        // carries none).
        prop_assert_eq!(answer, Ok(Hint::WrongDigit { cell: wrong[0] }));
    }

    #[test]
    fn random_marks_keeping_the_solution_get_a_true_step_taken_from_them(
        index in case_index(),
        progress in progress(),
        random in random_masks(),
    ) {
        let case = &cases()[index];
        let cells = board_with_progress(case, &progress);
        let board = grid(cells);
        let marks = marks_keeping_the_solution(case, &cells, &random);
        let answer = hint(&board, &HintOptions { givens: Some(&case.puzzle), marks: Some(&marks), ..HintOptions::default() })
            .unwrap_or_else(|err| panic!("{board}: {err}"));
        check_step_from_marks(&answer, case, &board, &marks)?;
    }

    #[test]
    fn marks_near_a_crossroads_get_a_true_step_taken_from_them(
        index in 0..crossroads().len(),
        crossed_out in prop::collection::vec((any::<usize>(), 1..=9u8), 0..3),
        stale in sparse_masks(),
    ) {
        // The full marks of a position where only eliminations are left, with up to two
        // more candidates crossed out (never the solution's digit) and a few stale or
        // re-pencilled digits added: often still a position for an elimination.
        let at = &crossroads()[index];
        let case = &cases()[at.case];
        let mut marks: PencilMarks = std::array::from_fn(|c| {
            let kept = at.marks[c] | (stale[c] & ALL_DIGITS);
            if at.board.cells()[c] == 0 { kept | bit(case.answer[c]) } else { kept }
        });
        let open = empty(at.board.cells());
        for (raw, digit) in crossed_out {
            let cell = open[raw % open.len()];
            if digit != case.answer[cell] {
                marks[cell] &= !bit(digit);
            }
        }
        let answer = hint(&at.board, &HintOptions { givens: Some(&case.puzzle), marks: Some(&marks), ..HintOptions::default() })
            .unwrap_or_else(|err| panic!("{}: {err}", at.board));
        check_step_from_marks(&answer, case, &at.board, &marks)?;
    }

    #[test]
    fn marks_losing_a_solution_digit_are_reported_at_the_first_such_cell(
        index in case_index(),
        progress in progress(),
        random in random_masks(),
        lost in prop::collection::vec(any::<usize>(), 1..4),
    ) {
        let case = &cases()[index];
        let cells = board_with_progress(case, &progress);
        let open = empty(&cells);
        prop_assume!(!open.is_empty());
        let mut marks = marks_keeping_the_solution(case, &cells, &random);
        let lost = pick(&open, &lost);
        for &cell in &lost {
            marks[cell] &= !bit(case.answer[cell]);
        }
        prop_assert_eq!(
            hint(&grid(cells), &HintOptions { givens: Some(&case.puzzle), marks: Some(&marks), ..HintOptions::default() }),
            Ok(Hint::WrongPencilMarks { cell: lost[0] })
        );
    }
}
