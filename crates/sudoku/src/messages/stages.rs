//! A hint told in stages, each giving away a little more, the way the hint buttons of the
//! apps players like do it: where to look, then the technique, then the cells and the
//! digits that rule the others out. The answer itself, the last stage, is the hint's own
//! message ([`super::describe`]).

use super::{Message, MessageKey, Param};
use crate::Grid;
use crate::hint::{Hint, PencilMarks, position};
use crate::logic::{
    Candidates, PEERS, Step, Technique, UNIT_MASK, bit, box_of, cells_of, digits_of, units_of,
};

/// How much a stage gives away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageKind {
    /// Where to look: units only, no cell and no digit.
    Nudge,
    /// The technique that finds the step.
    Technique,
    /// The cells the step rests on, with the digits that rule the others out.
    Cells,
}

impl StageKind {
    /// The stable name: `nudge`, `technique`, `cells`.
    pub fn name(self) -> &'static str {
        match self {
            StageKind::Nudge => "nudge",
            StageKind::Technique => "technique",
            StageKind::Cells => "cells",
        }
    }
}

/// One stage before the answer: what it says and what to highlight with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stage {
    /// How much it gives away.
    pub kind: StageKind,
    /// What it says.
    pub message: Message,
    /// Cells to highlight, 0..81, without repeats.
    pub cells: Vec<usize>,
    /// Units to highlight: 0..9 rows, 9..18 columns, 18..27 boxes.
    pub units: Vec<usize>,
}

/// The stages of `hint` before its answer, asked for `board` with the player's `marks`:
/// nudge, technique and cells for a step; a nudge for a wrong digit or pencil mark; none
/// for a solved board or a revealed digit, whose answer is all there is to say.
pub fn describe_stages(hint: &Hint, board: &Grid, marks: Option<&PencilMarks>) -> Vec<Stage> {
    let nudge_at = |key, cell: usize| {
        let unit = 18 + box_of(cell);
        vec![Stage {
            kind: StageKind::Nudge,
            message: Message::new(key, vec![("unit", Param::Unit(unit))]),
            cells: Vec::new(),
            units: vec![unit],
        }]
    };
    match hint {
        Hint::Solved | Hint::Stuck { .. } => Vec::new(),
        Hint::WrongDigit { cell } => nudge_at(MessageKey::NudgeMistake, *cell),
        Hint::WrongPencilMarks { cell } => nudge_at(MessageKey::NudgePencilMarks, *cell),
        Hint::Step(step) => match position(board, marks) {
            Some(state) => step_stages(step, &state),
            None => Vec::new(),
        },
        Hint::Deduction { because, placement } => match position(board, marks) {
            Some(state) => deduction_stages(because, placement, state),
            None => Vec::new(),
        },
    }
}

fn step_stages(step: &Step, state: &Candidates) -> Vec<Stage> {
    let area = area(step);
    let (cells, message) = cells_stage(step, state);
    vec![
        nudge(&area),
        Stage {
            kind: StageKind::Technique,
            message: Message::new(
                MessageKey::TechniqueStage,
                vec![("technique", Param::Technique(step.technique))],
            ),
            cells: Vec::new(),
            units: area.clone(),
        },
        Stage {
            kind: StageKind::Cells,
            message,
            cells,
            units: area,
        },
    ]
}

/// The stages of a placement that needs eliminations first: the placement's area, both
/// techniques, and the cells of the eliminations that open the placement up.
fn deduction_stages(because: &[Step], placement: &Step, mut state: Candidates) -> Vec<Stage> {
    let area = area(placement);
    let opening = opening_eliminations(placement);
    let opens = |step: &Step| step.eliminations.iter().any(|fact| opening(*fact));
    let any_opens = because.iter().any(opens);
    let mut cells = Vec::new();
    let mut digits = 0u16;
    for step in because {
        if opens(step) || !any_opens {
            for cell in pattern_cells(step) {
                push_new(&mut cells, cell);
            }
            digits |= pattern_digits(step, &state);
        }
        step.apply(&mut state);
    }
    vec![
        nudge(&area),
        Stage {
            kind: StageKind::Technique,
            message: Message::new(
                MessageKey::TechniqueDeduction,
                vec![
                    (
                        "reasons",
                        Param::Techniques(because.iter().map(|s| s.technique).collect()),
                    ),
                    ("technique", Param::Technique(placement.technique)),
                ],
            ),
            cells: Vec::new(),
            units: area.clone(),
        },
        Stage {
            kind: StageKind::Cells,
            message: Message::new(
                MessageKey::CellsDeduction,
                vec![
                    ("cells", Param::Cells(cells.clone())),
                    ("digits", Param::Digits(digits_of(digits).collect())),
                    ("units", Param::Units(area.clone())),
                ],
            ),
            cells,
            units: area,
        },
    ]
}

/// Which eliminations a single's placement rests on: the cell's other digits for a naked
/// single, the digit's other places in the unit for a hidden single; any for another
/// technique.
fn opening_eliminations(placement: &Step) -> impl Fn((usize, u8)) -> bool {
    use Technique as T;
    let single = placement.placements.first().copied();
    let unit = placement.units.first().copied();
    let technique = placement.technique;
    move |(cell, digit)| match (technique, single, unit) {
        (T::NakedSingle, Some((at, placed)), _) => cell == at && digit != placed,
        (T::HiddenSingleBox | T::HiddenSingleLine, Some((at, placed)), Some(unit)) => {
            digit == placed && cell != at && UNIT_MASK[unit] >> cell & 1 == 1
        }
        _ => true,
    }
}

fn nudge(area: &[usize]) -> Stage {
    Stage {
        kind: StageKind::Nudge,
        message: Message::new(
            MessageKey::NudgeArea,
            vec![("units", Param::Units(area.to_vec()))],
        ),
        cells: Vec::new(),
        units: area.to_vec(),
    }
}

/// The units to look at for `step`: the one a single is found in, the box a pointing digit
/// is confined to, a fish's base lines; for a step that names no unit, the boxes of its
/// cells. The box of a digit it places is added when they miss it (a direct pointing's
/// single is found outside its box).
fn area(step: &Step) -> Vec<usize> {
    let mut area = pattern_area(step);
    for &(cell, _) in &step.placements {
        if !area.iter().any(|&unit| UNIT_MASK[unit] >> cell & 1 == 1) {
            area.push(18 + box_of(cell));
        }
    }
    area
}

fn pattern_area(step: &Step) -> Vec<usize> {
    use Technique as T;
    match step.technique {
        T::NakedSingle => match step.placements.first() {
            Some(&(cell, _)) => vec![18 + box_of(cell)],
            None => boxes_of(&pattern_cells(step)),
        },
        T::Pointing | T::DirectPointing | T::Claiming | T::DirectClaiming => {
            step.units.iter().copied().take(1).collect()
        }
        // Base lines, then as many cover lines (and a finned fish's box last).
        T::XWing | T::Swordfish | T::Jellyfish => step.units[..step.units.len() / 2].to_vec(),
        T::FinnedXWing | T::FinnedSwordfish | T::FinnedJellyfish => {
            step.units[..step.units.len().saturating_sub(1) / 2].to_vec()
        }
        _ if !step.units.is_empty() => step.units.clone(),
        _ => boxes_of(&pattern_cells(step)),
    }
}

/// The cells a step rests on: its pattern, else its chain's cells, else the cells it
/// changes.
fn pattern_cells(step: &Step) -> Vec<usize> {
    let mut cells = Vec::new();
    let sources: [&mut dyn Iterator<Item = usize>; 3] = [
        &mut step.cells.iter().copied(),
        &mut step.chain.iter().map(|&(cell, _)| cell),
        &mut step
            .placements
            .iter()
            .chain(&step.eliminations)
            .map(|&(cell, _)| cell),
    ];
    for source in sources {
        for cell in source {
            push_new(&mut cells, cell);
        }
        if !cells.is_empty() {
            break;
        }
    }
    cells
}

/// The digits of a step's pattern that matter: a subset's digits, a wing's candidates, the
/// digit a fish or a chain is on.
fn pattern_digits(step: &Step, state: &Candidates) -> u16 {
    use Technique as T;
    let union = step
        .cells
        .iter()
        .fold(0u16, |mask, &c| mask | state.mask(c));
    let of = |facts: &[(usize, u8)]| facts.iter().fold(0u16, |mask, &(_, d)| mask | bit(d));
    let changed = of(&step.eliminations) | of(&step.placements);
    match step.technique {
        T::HiddenPair
        | T::HiddenTriple
        | T::HiddenQuad
        | T::DirectHiddenPair
        | T::DirectHiddenTriple => union & !of(&step.eliminations),
        T::NakedPair
        | T::NakedTriple
        | T::NakedQuad
        | T::XyWing
        | T::XyzWing
        | T::WxyzWing
        | T::VwxyzWing
        | T::UniqueRectangle1
        | T::UniqueRectangle2
        | T::UniqueRectangle4 => union,
        _ if !step.chain.is_empty() => of(&step.chain),
        _ => changed,
    }
}

/// The cells stage of a step: for a single, the digits that leave it one place; for
/// anything else, its pattern and the candidates there that matter.
fn cells_stage(step: &Step, state: &Candidates) -> (Vec<usize>, Message) {
    use Technique as T;
    let single = step.placements.first().copied();
    match (step.technique, single) {
        (T::NakedSingle, Some((cell, digit))) => {
            let holders = holders_around(state, cell, digit);
            let held = holders
                .iter()
                .fold(0u16, |mask, &c| mask | bit(state.digit(c)));
            let mut cells = vec![cell];
            cells.extend(holders);
            let message = Message::new(
                MessageKey::CellsNakedSingle,
                vec![
                    ("cell", Param::Cell(cell)),
                    ("digits", Param::Digits(digits_of(held).collect())),
                ],
            );
            (cells, message)
        }
        (T::LastValue, Some((cell, _))) => match step.units.first() {
            Some(&unit) => (
                vec![cell],
                Message::new(
                    MessageKey::CellsLastValue,
                    vec![("cell", Param::Cell(cell)), ("unit", Param::Unit(unit))],
                ),
            ),
            None => pattern_stage(step, state),
        },
        (T::HiddenSingleBox | T::HiddenSingleLine, Some((cell, digit))) => {
            let Some(&unit) = step.units.first() else {
                return pattern_stage(step, state);
            };
            let rulers = rulers_in(state, unit, cell, digit);
            if rulers.is_empty() {
                // Every other place was crossed out by the player's own marks.
                return pattern_stage(step, state);
            }
            let message = Message::new(
                MessageKey::CellsHiddenSingle,
                vec![
                    ("unit", Param::Unit(unit)),
                    ("digit", Param::Digit(digit)),
                    ("cells", Param::Cells(rulers.clone())),
                ],
            );
            (rulers, message)
        }
        _ => pattern_stage(step, state),
    }
}

fn pattern_stage(step: &Step, state: &Candidates) -> (Vec<usize>, Message) {
    let cells = pattern_cells(step);
    let message = Message::new(
        MessageKey::CellsPattern,
        vec![
            ("cells", Param::Cells(cells.clone())),
            (
                "digits",
                Param::Digits(digits_of(pattern_digits(step, state)).collect()),
            ),
        ],
    );
    (cells, message)
}

/// For a naked single: one filled peer for each digit the cell cannot hold, looked for in
/// its box, then its row, then its column.
fn holders_around(state: &Candidates, cell: usize, digit: u8) -> Vec<usize> {
    let mut holders = Vec::new();
    let mut found = bit(digit);
    let [row, col, boxed] = units_of(cell);
    for unit in [boxed, row, col] {
        for peer in cells_of(UNIT_MASK[unit] & PEERS[cell]) {
            let held = state.digit(peer);
            if held != 0 && found & bit(held) == 0 {
                found |= bit(held);
                holders.push(peer);
            }
        }
    }
    holders
}

/// For a hidden single: the placed copies of `digit` that see the unit's other open cells,
/// one for each such cell (the first found), without repeats.
fn rulers_in(state: &Candidates, unit: usize, cell: usize, digit: u8) -> Vec<usize> {
    let placed: Vec<usize> = (0..crate::CELLS)
        .filter(|&c| state.digit(c) == digit)
        .collect();
    let mut rulers = Vec::new();
    for other in cells_of(UNIT_MASK[unit]) {
        if other == cell || state.digit(other) != 0 {
            continue;
        }
        if let Some(&ruler) = placed.iter().find(|&&p| PEERS[other] >> p & 1 == 1) {
            push_new(&mut rulers, ruler);
        }
    }
    rulers.sort_unstable();
    rulers
}

fn boxes_of(cells: &[usize]) -> Vec<usize> {
    let mut boxes = Vec::new();
    for &cell in cells {
        push_new(&mut boxes, 18 + box_of(cell));
    }
    boxes.sort_unstable();
    boxes
}

fn push_new(list: &mut Vec<usize>, item: usize) {
    if !list.contains(&item) {
        list.push(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::{Language, render};
    use crate::{CLASSIC_PUZZLE, CellName, HintOptions, hint};

    fn stages_of(line: &str) -> (Hint, Vec<Stage>) {
        let board: Grid = line.parse().unwrap();
        let hint = hint(&board, &HintOptions::default()).unwrap();
        let stages = describe_stages(&hint, &board, None);
        (hint, stages)
    }

    #[test]
    fn a_step_comes_as_nudge_technique_then_cells_and_the_nudge_names_no_cell() {
        let (hint, stages) = stages_of(CLASSIC_PUZZLE);
        let Hint::Step(step) = &hint else {
            panic!("a step: {hint:?}");
        };
        let kinds: Vec<StageKind> = stages.iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds,
            [StageKind::Nudge, StageKind::Technique, StageKind::Cells]
        );
        let &(cell, digit) = step.placements.first().expect("a placement");
        let nudge = render(&stages[0].message, Language::English);
        assert!(nudge.starts_with("The next step is in "), "{nudge}");
        assert!(!nudge.contains(&format!("r{}c", cell / 9 + 1)), "{nudge}");
        assert!(
            !nudge.contains(&format!(" {digit}")) || nudge.contains("box"),
            "{nudge}"
        );
        assert!(stages[0].cells.is_empty() && !stages[0].units.is_empty());
        assert!(
            stages[0]
                .units
                .iter()
                .all(|&u| UNIT_MASK[u] >> cell & 1 == 1),
            "the area holds the answer's cell"
        );
        let technique = render(&stages[1].message, Language::German);
        assert!(
            technique.starts_with("Die Technik, die ihn findet: "),
            "{technique}"
        );
    }

    #[test]
    fn a_hidden_single_shows_the_digits_that_rule_out_the_other_cells() {
        // The classic puzzle's first step is a hidden single; every cell its rulers name
        // holds the digit, and together they see every other open cell of the unit.
        let (hint, stages) = stages_of(CLASSIC_PUZZLE);
        let Hint::Step(step) = &hint else {
            panic!("a step: {hint:?}");
        };
        assert!(matches!(
            step.technique,
            Technique::HiddenSingleBox | Technique::HiddenSingleLine
        ));
        let board: Grid = CLASSIC_PUZZLE.parse().unwrap();
        let &(cell, digit) = step.placements.first().unwrap();
        let unit = step.units[0];
        let cells = &stages[2].cells;
        assert!(
            cells.iter().all(|&c| board.cells()[c] == digit),
            "{cells:?}"
        );
        for other in cells_of(UNIT_MASK[unit]) {
            if other != cell && board.cells()[other] == 0 {
                assert!(
                    cells.iter().any(|&r| PEERS[other] >> r & 1 == 1),
                    "{} is not ruled out",
                    CellName(other)
                );
            }
        }
        let text = render(&stages[2].message, Language::English);
        assert!(
            text.starts_with(&format!("Because of the {digit} in r")),
            "{text}"
        );
    }

    #[test]
    fn a_naked_single_shows_one_holder_of_each_other_digit() {
        // r1c1 sees 2..9 and nothing else is forced: its naked single is the only step.
        let mut board = [0u8; 81];
        for (i, digit) in (2..=5).enumerate() {
            board[i + 1] = digit; // r1c2..r1c5
        }
        board[9] = 6;
        board[18] = 7;
        board[36] = 8;
        board[72] = 9;
        let grid = Grid::from_cells(board).unwrap();
        let state = Candidates::from_grid(&grid).unwrap();
        let mut step = Step::new(Technique::NakedSingle, 23);
        step.placements = vec![(0, 1)];
        step.cells = vec![0];
        let (cells, message) = cells_stage(&step, &state);
        assert_eq!(cells[0], 0);
        let held: Vec<u8> = cells[1..].iter().map(|&c| state.digit(c)).collect();
        assert_eq!(held.len(), 8, "{cells:?}");
        let mut sorted = held.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(
            render(&message, Language::English),
            "Look at r1c1: its row, column and box already hold 2, 3, 4, 5, 6, 7, 8 and 9."
        );
    }

    #[test]
    fn a_mistake_gets_a_nudge_to_its_box_and_a_solved_board_none() {
        let solution: Grid = crate::CLASSIC_SOLUTION.parse().unwrap();
        let stages = describe_stages(&Hint::WrongDigit { cell: 40 }, &solution, None);
        assert_eq!(stages.len(), 1);
        assert_eq!(stages[0].units, [18 + 4]);
        assert_eq!(
            render(&stages[0].message, Language::English),
            "One of your digits in box 5 does not fit the solution."
        );
        assert!(describe_stages(&Hint::Solved, &solution, None).is_empty());
    }
}
