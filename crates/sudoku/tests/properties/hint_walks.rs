//! Hints are sound over the repository's puzzle sets: a player
//! who asks for a hint, does what it says and asks again reaches the one solution, and no
//! hint on the way places a wrong digit, removes a digit of the solution, or reveals one
//! that is not the solution's.
//!
//! The player of this test keeps full pencil marks (every candidate of the puzzle to start
//! with), crosses out what each step eliminates, writes what it places, and, when the
//! logic is stuck, writes the revealed digit and goes on. At every position on the way it
//! also asks as a player who writes digits only (no marks), whose hint must be as sound.
//! The logic's own soundness is `logic::tests::no_step_contradicts_the_solution_over_the_
//! corpus`; this is about what the hint API adds: the marks, the givens, the reveal.
//!
//! `HINT_CORPUS_STRIDE=N` walks every N-th puzzle of every proper set (1: all of them, in
//! release: the figure in BENCHMARKS.md); by default a few puzzles spread over each set,
//! so that a debug `cargo test` stays within seconds. `HINT_CORPUS_WORK` sets the work
//! the forcing chains of one hint may spend (default: the service's, `DEFAULT_WORK_BUDGET`;
//! with less, the positions only forcing chains crack become stuck).

use std::time::Instant;

use sudoku::hint::{Hint, HintOptions, PencilMarks, hint, position};
use sudoku::logic::{Candidates, DEFAULT_WORK_BUDGET, Step, UNIT_MASK, bit};
use sudoku::messages::{Param, StageKind, describe_stages};
use sudoku::puzzle_sets::{PROPER, every, spread};
use sudoku::{CELLS, Grid, Solver, Verdict};

/// Puzzles of each set in the default sample: the hardest sets need the forcing chains on
/// most steps, which a debug build runs slowly.
const DEFAULT_SAMPLE: usize = 3;

/// What one set's walks came to.
#[derive(Debug, Default)]
struct Tally {
    puzzles: usize,
    /// Hints that were a step, with marks.
    steps: usize,
    /// Hints asked without marks, at the same positions.
    digit_only_hints: usize,
    /// Stuck answers (digits revealed), with marks and without.
    reveals: usize,
    digit_only_reveals: usize,
    /// Puzzles whose walk needed at least one reveal.
    puzzles_with_a_reveal: usize,
}

fn sample(name: &str) -> Vec<Grid> {
    match std::env::var("HINT_CORPUS_STRIDE") {
        Ok(stride) => every(name, stride.parse().expect("HINT_CORPUS_STRIDE: a number")),
        Err(_) => spread(name, DEFAULT_SAMPLE),
    }
}

fn work_budget() -> u64 {
    std::env::var("HINT_CORPUS_WORK").map_or(DEFAULT_WORK_BUDGET, |w| {
        w.parse().expect("HINT_CORPUS_WORK: a number")
    })
}

/// What the player of the walk tells a hint: the puzzle, and their marks if they keep any.
fn asking<'a>(
    puzzle: &'a Grid,
    marks: Option<&'a PencilMarks>,
    work_budget: u64,
) -> HintOptions<'a> {
    HintOptions {
        givens: Some(puzzle),
        marks,
        solver: Solver::default(),
        work_budget,
    }
}

/// `(cell, digit)` pairs: what a step places, or what it eliminates.
type CellDigits = Vec<(usize, u8)>;

fn name(cell: usize) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

/// Checks a step-or-stuck hint at `board` (with `marks`, if any, and `state` the position
/// it reasons from) against the solution, and returns what it changes: the placements and
/// the eliminations. Panics, naming the puzzle, at anything a player would be misled by.
fn check(
    hint: &Hint,
    board: &Grid,
    state: &Candidates,
    answer: &[u8; CELLS],
    context: &str,
) -> (CellDigits, CellDigits) {
    match hint {
        Hint::Step(step) => {
            check_step(step, board, state, answer, context);
            (step.placements.clone(), step.eliminations.clone())
        }
        Hint::Deduction { because, placement } => {
            // Each reason from the position the ones before it leave, then the placement.
            let mut state = state.clone();
            let mut eliminations = Vec::new();
            for step in because {
                assert!(
                    step.placements.is_empty() && !step.eliminations.is_empty(),
                    "{context}: the reason {step} is no elimination"
                );
                check_step(step, board, &state, answer, context);
                step.apply(&mut state);
                eliminations.extend_from_slice(&step.eliminations);
            }
            assert!(
                !placement.placements.is_empty(),
                "{context}: {placement} places nothing"
            );
            check_step(placement, board, &state, answer, context);
            (placement.placements.clone(), eliminations)
        }
        Hint::Stuck {
            reveal: (cell, digit),
        } => {
            assert_eq!(board.cells()[*cell], 0, "{context}: reveals a filled cell");
            assert_eq!(answer[*cell], *digit, "{context}: reveals a wrong digit");
            (vec![(*cell, *digit)], Vec::new())
        }
        other => panic!("{context}: {other:?} where a step was due"),
    }
}

/// Checks one step at `board`, found in `state`, against the solution.
fn check_step(step: &Step, board: &Grid, state: &Candidates, answer: &[u8; CELLS], context: &str) {
    assert!(
        !step.placements.is_empty() || !step.eliminations.is_empty(),
        "{context}: {step} changes nothing"
    );
    for &(cell, digit) in &step.placements {
        assert_eq!(
            board.cells()[cell],
            0,
            "{context}: {step} fills a filled cell"
        );
        assert_eq!(
            answer[cell], digit,
            "{context}: {step} places a wrong digit"
        );
        assert!(
            state.has(cell, digit),
            "{context}: {step} places {digit} in {}, which the position rules out",
            name(cell)
        );
    }
    for &(cell, digit) in &step.eliminations {
        assert_ne!(
            answer[cell], digit,
            "{context}: {step} removes the solution's digit"
        );
        assert!(
            state.has(cell, digit),
            "{context}: {step} removes {digit} from {}, which the player's position \
             does not hold",
            name(cell)
        );
    }
}

/// Walks one puzzle from its givens to its solution by hints, as described at the top.
fn walk(puzzle: &Grid, solver: &Solver, tally: &mut Tally, context: &str) {
    let Ok(Verdict::Unique(solution)) = solver.analyze(puzzle) else {
        panic!("{context}: not a proper puzzle");
    };
    let answer = solution.cells();
    let mut board = *puzzle;
    let start = Candidates::from_grid(puzzle).expect("a proper puzzle has no clash");
    let mut marks: PencilMarks = std::array::from_fn(|c| start.mask(c));
    // The position the logic itself would be in: the hint's must be the same.
    let mut logic = start;
    let work_budget = work_budget();
    let mut revealed = false;
    tally.puzzles += 1;
    for _ in 0..=2 * CELLS * 9 {
        let here = format!("{context} at {}", board.to_line());
        let with_marks = hint(&board, &asking(puzzle, Some(&marks), work_budget))
            .unwrap_or_else(|err| panic!("{here}: {err}"));
        if with_marks == Hint::Solved {
            assert_eq!(board, solution, "{here}: solved, but not the solution");
            assert_eq!(
                hint(&board, &asking(puzzle, None, 0)),
                Ok(Hint::Solved),
                "{here}: solved with marks but not without"
            );
            tally.puzzles_with_a_reveal += usize::from(revealed);
            return;
        }
        let from_marks = position(&board, Some(&marks)).expect("no clash on the way");
        assert!(
            from_marks == logic,
            "{here}: the position from the player's marks is not the logic's"
        );
        let (placements, eliminations) = check(&with_marks, &board, &from_marks, answer, &here);
        if matches!(with_marks, Hint::Stuck { .. }) {
            tally.reveals += 1;
            revealed = true;
        } else {
            tally.steps += 1;
        }

        let digits_only = hint(&board, &asking(puzzle, None, work_budget))
            .unwrap_or_else(|err| panic!("{here} without marks: {err}"));
        let from_digits = position(&board, None).expect("no clash on the way");
        check(
            &digits_only,
            &board,
            &from_digits,
            answer,
            &format!("{here} without marks"),
        );
        assert!(
            matches!(digits_only, Hint::Stuck { .. } | Hint::Deduction { .. })
                || matches!(&digits_only, Hint::Step(step) if !step.placements.is_empty()),
            "{here} without marks: {digits_only:?} places no digit"
        );
        tally.digit_only_hints += 1;
        tally.digit_only_reveals += usize::from(matches!(digits_only, Hint::Stuck { .. }));

        for (cell, digit) in eliminations {
            marks[cell] &= !bit(digit);
            logic.eliminate(cell, digit);
        }
        let mut cells = *board.cells();
        for (cell, digit) in placements {
            cells[cell] = digit;
            if logic.digit(cell) == 0 {
                logic.place(cell, digit);
            }
        }
        board = Grid::from_cells(cells).expect("digits 1-9");
    }
    panic!("{context}: no end after {} hints", 2 * CELLS * 9);
}

#[test]
fn hints_one_after_another_reach_the_solution_and_never_mislead() {
    let solver = Solver::default();
    let started = Instant::now();
    let mut total = Tally::default();
    for set in PROPER {
        let mut tally = Tally::default();
        let set_started = Instant::now();
        for (index, puzzle) in sample(set).iter().enumerate() {
            walk(puzzle, &solver, &mut tally, &format!("{set} #{index}"));
        }
        println!(
            "{set}: {} puzzles, {} steps, {} reveals ({} puzzles needed one); without marks \
             {} hints, {} reveals; {:.1} s",
            tally.puzzles,
            tally.steps,
            tally.reveals,
            tally.puzzles_with_a_reveal,
            tally.digit_only_hints,
            tally.digit_only_reveals,
            set_started.elapsed().as_secs_f64()
        );
        assert!(tally.puzzles > 0, "{set}: no puzzle walked");
        total.puzzles += tally.puzzles;
        total.steps += tally.steps;
        total.reveals += tally.reveals;
        total.puzzles_with_a_reveal += tally.puzzles_with_a_reveal;
        total.digit_only_hints += tally.digit_only_hints;
        total.digit_only_reveals += tally.digit_only_reveals;
    }
    println!(
        "all proper sets: {} puzzles, {} steps, {} reveals ({} puzzles needed one); without \
         marks {} hints, {} reveals; {:.1} s",
        total.puzzles,
        total.steps,
        total.reveals,
        total.puzzles_with_a_reveal,
        total.digit_only_hints,
        total.digit_only_reveals,
        started.elapsed().as_secs_f64()
    );
}

/// What a walk by a player who writes digits only came to.
#[derive(Debug, Default)]
struct DigitWalk {
    hints: usize,
    /// Hints that needed eliminations first, and those eliminations.
    deductions: usize,
    reasons: usize,
    reveals: usize,
}

/// Walks `puzzle` by hints alone, as a player who keeps no pencil marks: every hint must
/// place a digit, the right one, and the walk ends solved.
fn walk_digits_only(puzzle: &Grid, solver: &Solver, walk: &mut DigitWalk, context: &str) {
    let Ok(Verdict::Unique(solution)) = solver.analyze(puzzle) else {
        panic!("{context}: not a proper puzzle");
    };
    let mut board = *puzzle;
    let work_budget = work_budget();
    for _ in 0..CELLS {
        let here = format!("{context} at {}", board.to_line());
        let answer = hint(&board, &asking(puzzle, None, work_budget))
            .unwrap_or_else(|err| panic!("{here}: {err}"));
        if answer == Hint::Solved {
            assert_eq!(board, solution, "{here}: solved, but not the solution");
            return;
        }
        let state = position(&board, None).expect("no clash on the way");
        let (placements, _) = check(&answer, &board, &state, solution.cells(), &here);
        assert!(!placements.is_empty(), "{here}: {answer:?} places no digit");
        check_stages(&answer, &board, placements[0].0, &here);
        walk.hints += 1;
        match &answer {
            Hint::Deduction { because, .. } => {
                walk.deductions += 1;
                walk.reasons += because.len();
            }
            Hint::Stuck { .. } => walk.reveals += 1,
            _ => {}
        }
        let mut cells = *board.cells();
        for (cell, digit) in placements {
            cells[cell] = digit;
        }
        board = Grid::from_cells(cells).expect("digits 1-9");
    }
    panic!("{context}: not solved after {CELLS} hints, each of which placed a digit");
}

/// A step's stages give away a little more each: a nudge to an area holding the cell the
/// digit goes in, naming units only; the technique; cells to look at. A revealed digit has
/// no stage before its answer.
fn check_stages(answer: &Hint, board: &Grid, placed: usize, here: &str) {
    let stages = describe_stages(answer, board, None);
    if let Hint::Stuck { .. } = answer {
        assert!(stages.is_empty(), "{here}: {stages:?}");
        return;
    }
    let kinds: Vec<StageKind> = stages.iter().map(|stage| stage.kind).collect();
    assert_eq!(
        kinds,
        [StageKind::Nudge, StageKind::Technique, StageKind::Cells],
        "{here}"
    );
    let nudge = &stages[0];
    assert!(nudge.cells.is_empty(), "{here}: {nudge:?}");
    assert!(
        nudge
            .message
            .params
            .iter()
            .all(|(_, param)| matches!(param, Param::Unit(_) | Param::Units(_))),
        "{here}: the nudge names more than units: {nudge:?}"
    );
    assert!(
        nudge
            .units
            .iter()
            .any(|&unit| UNIT_MASK[unit] >> placed & 1 == 1),
        "{here}: the nudge's area {:?} misses the cell of the digit, {placed}",
        nudge.units
    );
    assert!(!stages[2].cells.is_empty(), "{here}: no cells to look at");
}

#[test]
fn a_player_without_pencil_marks_gets_a_digit_from_every_hint() {
    let solver = Solver::default();
    for set in PROPER {
        let mut walk = DigitWalk::default();
        let puzzles = sample(set);
        for (index, puzzle) in puzzles.iter().enumerate() {
            walk_digits_only(puzzle, &solver, &mut walk, &format!("{set} #{index}"));
        }
        println!(
            "{set}, digits only: {} puzzles, {} hints, each placing a digit: {} after \
             eliminations ({} of them), {} reveals",
            puzzles.len(),
            walk.hints,
            walk.deductions,
            walk.reasons,
            walk.reveals
        );
        assert!(walk.hints > 0, "{set}: no hint asked");
    }
}
