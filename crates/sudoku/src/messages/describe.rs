//! From a hint or a step to its [`Message`]: which sentence, and what it names.
//!
//! Each finder of [`crate::logic`] fills a step's `cells`, `units` and `chain` in
//! its own way (its file says how); the sentences read them back, with the position the
//! step was found in for what a step does not carry (the candidates of a wing's cells, the
//! digits of a subset). A step of a shape no sentence fits gets [`MessageKey::Generic`],
//! which names the technique and its conclusions: never a panic.

use super::{Message, MessageKey, Param};
use crate::Grid;
use crate::hint::{Hint, PencilMarks, position};
use crate::logic::{
    ALL_DIGITS, Candidates, CellSet, Step, Technique, UNIT_MASK, UNITS, bit, digits_of, units_of,
};

/// The message of `hint`, asked for `board` with the player's `marks` (as given to
/// [`mod@crate::hint`]).
pub fn describe(hint: &Hint, board: &Grid, marks: Option<&PencilMarks>) -> Message {
    let cell_only = |key, cell: usize| Message::new(key, vec![("cell", Param::Cell(cell))]);
    match hint {
        Hint::Solved => Message::new(MessageKey::Solved, Vec::new()),
        Hint::WrongDigit { cell } => cell_only(MessageKey::WrongDigit, *cell),
        Hint::WrongPencilMarks { cell } => {
            // Not one candidate left once the player's marks are applied: every mark was
            // crossed out, or the marks left are digits its peers already hold.
            let emptied = position(board, marks)
                .is_some_and(|state| state.digit(*cell) == 0 && state.mask(*cell) == 0);
            let stale = marks.map_or(0, |marks| marks[*cell] & ALL_DIGITS);
            match (emptied, stale) {
                (false, _) => cell_only(MessageKey::WrongPencilMarks, *cell),
                (true, 0) => cell_only(MessageKey::NoPencilMarks, *cell),
                (true, stale) => Message::new(
                    MessageKey::StalePencilMarks,
                    vec![("cell", Param::Cell(*cell)), ("digits", digits(stale))],
                ),
            }
        }
        Hint::Step(step) => match position(board, marks) {
            Some(state) => describe_step(step, &state),
            None => generic(step),
        },
        Hint::Deduction { because, placement } => {
            let mut path = because.clone();
            path.push(placement.clone());
            describe_path(board, &path)
                .pop()
                .unwrap_or_else(|| generic(placement))
        }
        Hint::Stuck {
            reveal: (cell, digit),
        } => Message::new(
            MessageKey::Stuck,
            vec![
                ("cell", Param::Cell(*cell)),
                ("digit", Param::Digit(*digit)),
            ],
        ),
    }
}

/// The messages of the reasons of `hint`, asked for `board`: each elimination a
/// [`Hint::Deduction`] needs, in order; none for any other hint.
pub fn describe_reasons(hint: &Hint, board: &Grid) -> Vec<Message> {
    match hint {
        Hint::Deduction { because, .. } => describe_path(board, because),
        _ => Vec::new(),
    }
}

/// The message of `step`, found in `position` (before it is applied).
pub fn describe_step(step: &Step, position: &Candidates) -> Message {
    sentence(step, position).unwrap_or_else(|| generic(step))
}

/// The message of every step of a path from `board`, each found in the position the
/// steps before it leave; empty when the board's filled cells clash (no path starts there).
pub fn describe_path(board: &Grid, steps: &[Step]) -> Vec<Message> {
    let Ok(mut state) = Candidates::from_grid(board) else {
        return Vec::new();
    };
    steps
        .iter()
        .map(|step| {
            let message = describe_step(step, &state);
            step.apply(&mut state);
            message
        })
        .collect()
}

fn generic(step: &Step) -> Message {
    let conclusions = step
        .placements
        .iter()
        .map(|&(c, d)| (c, d, true))
        .chain(step.eliminations.iter().map(|&(c, d)| (c, d, false)))
        .collect();
    Message::new(
        MessageKey::Generic,
        vec![
            ("technique", Param::Technique(step.technique)),
            ("conclusions", Param::Facts(conclusions)),
        ],
    )
}

/// The sentence that fits the step, or `None` when its shape is not the one expected.
fn sentence(step: &Step, state: &Candidates) -> Option<Message> {
    use Technique as T;
    let removed_cells = || Param::Cells(step.eliminations.iter().map(|&(c, _)| c).collect());
    let removals = || Param::Removals(step.eliminations.clone());
    let eliminated_digit = || step.eliminations.first().map(|&(_, d)| d);
    let message = match step.technique {
        T::LastValue => {
            let &(cell, digit) = step.placements.first()?;
            Message::new(
                MessageKey::LastValue,
                vec![
                    ("cell", Param::Cell(cell)),
                    ("unit", Param::Unit(*step.units.first()?)),
                    ("digit", Param::Digit(digit)),
                ],
            )
        }
        T::HiddenSingleBox | T::HiddenSingleLine => {
            let &(cell, digit) = step.placements.first()?;
            Message::new(
                MessageKey::HiddenSingle,
                vec![
                    ("unit", Param::Unit(*step.units.first()?)),
                    ("digit", Param::Digit(digit)),
                    ("cell", Param::Cell(cell)),
                ],
            )
        }
        T::NakedSingle => {
            let &(cell, digit) = step.placements.first()?;
            Message::new(
                MessageKey::NakedSingle,
                vec![("cell", Param::Cell(cell)), ("digit", Param::Digit(digit))],
            )
        }
        T::Pointing | T::DirectPointing | T::Claiming | T::DirectClaiming => {
            // The units are [the one the digit is confined in, the one it leaves].
            let [from, to] = step.units[..] else {
                return None;
            };
            let pointing = matches!(step.technique, T::Pointing | T::DirectPointing);
            let (boxed, line) = if pointing { (from, to) } else { (to, from) };
            let mut params = vec![
                ("box", Param::Unit(boxed)),
                ("line", Param::Unit(line)),
                ("digit", Param::Digit(eliminated_digit()?)),
                ("cells", Param::Cells(step.cells.clone())),
                ("removed", removed_cells()),
            ];
            let key = match (pointing, step.placements.first()) {
                (true, None) => MessageKey::Pointing,
                (false, None) => MessageKey::Claiming,
                (direct_pointing, Some(&(cell, digit))) => {
                    params.push(("single", Param::Cell(cell)));
                    params.push((
                        "single_unit",
                        Param::Unit(single_unit(state, step, cell, digit)?),
                    ));
                    if direct_pointing {
                        MessageKey::DirectPointing
                    } else {
                        MessageKey::DirectClaiming
                    }
                }
            };
            Message::new(key, params)
        }
        T::NakedPair | T::NakedTriple | T::NakedQuad => Message::new(
            MessageKey::NakedSubset,
            vec![
                ("cells", Param::Cells(step.cells.clone())),
                ("digits", digits(union(state, &step.cells))),
                ("units", Param::Units(step.units.clone())),
                ("removals", removals()),
            ],
        ),
        T::HiddenPair
        | T::HiddenTriple
        | T::HiddenQuad
        | T::DirectHiddenPair
        | T::DirectHiddenTriple => {
            // The subset's digits are those of its cells that none of them loses.
            let lost = step
                .eliminations
                .iter()
                .fold(0u16, |mask, &(_, d)| mask | bit(d));
            let mut params = vec![
                ("unit", Param::Unit(*step.units.first()?)),
                ("digits", digits(union(state, &step.cells) & !lost)),
                ("cells", Param::Cells(step.cells.clone())),
                ("removals", removals()),
            ];
            let key = match step.placements.first() {
                None => MessageKey::HiddenSubset,
                Some(&(cell, digit)) => {
                    params.push(("single", Param::Cell(cell)));
                    params.push(("single_digit", Param::Digit(digit)));
                    params.push((
                        "single_unit",
                        Param::Unit(single_unit(state, step, cell, digit)?),
                    ));
                    MessageKey::DirectHiddenSubset
                }
            };
            Message::new(key, params)
        }
        T::XWing | T::Swordfish | T::Jellyfish => {
            // The units are the base lines, then as many cover lines.
            let k = step.units.len() / 2;
            Message::new(
                MessageKey::Fish,
                vec![
                    ("base", Param::Units(step.units[..k].to_vec())),
                    ("cover", Param::Units(step.units[k..].to_vec())),
                    ("digit", Param::Digit(eliminated_digit()?)),
                    ("removed", removed_cells()),
                ],
            )
        }
        T::FinnedXWing | T::FinnedSwordfish | T::FinnedJellyfish => {
            // The base lines, the cover lines, then the fins' box.
            let (&fin_box, lines) = step.units.split_last()?;
            let k = lines.len() / 2;
            let covered: CellSet = lines[k..].iter().fold(0, |set, &u| set | UNIT_MASK[u]);
            let fins: Vec<usize> = step
                .cells
                .iter()
                .copied()
                .filter(|&c| covered >> c & 1 == 0)
                .collect();
            Message::new(
                MessageKey::FinnedFish,
                vec![
                    ("base", Param::Units(lines[..k].to_vec())),
                    ("cover", Param::Units(lines[k..].to_vec())),
                    ("digit", Param::Digit(eliminated_digit()?)),
                    ("fins", Param::Cells(fins)),
                    ("box", Param::Unit(fin_box)),
                    ("removed", removed_cells()),
                ],
            )
        }
        T::TwoStrongLinks | T::ThreeStrongLinks | T::FourStrongLinks => {
            let (&first, &last) = (step.chain.first()?, step.chain.last()?);
            Message::new(
                MessageKey::StrongLinks,
                vec![
                    ("digit", Param::Digit(first.1)),
                    ("units", Param::Units(step.units.clone())),
                    ("chain", Param::Chain(step.chain.clone())),
                    ("first", holds(first)),
                    ("last", holds(last)),
                    ("removed", removed_cells()),
                ],
            )
        }
        T::XyWing | T::XyzWing => {
            let [pivot, a, b] = step.cells[..] else {
                return None;
            };
            let key = if step.technique == T::XyWing {
                MessageKey::XyWing
            } else {
                MessageKey::XyzWing
            };
            Message::new(
                key,
                vec![
                    ("pivot", Param::Cell(pivot)),
                    ("pivot_digits", digits(state.mask(pivot))),
                    ("a", Param::Cell(a)),
                    ("a_digits", digits(state.mask(a))),
                    ("b", Param::Cell(b)),
                    ("b_digits", digits(state.mask(b))),
                    ("digit", Param::Digit(eliminated_digit()?)),
                    ("removed", removed_cells()),
                ],
            )
        }
        T::WWing => {
            // Cells [first, its link end, the other link end, second]; the chain's second
            // node is on the linking digit.
            let [first, near, far, second] = step.cells[..] else {
                return None;
            };
            Message::new(
                MessageKey::WWing,
                vec![
                    ("first", Param::Cell(first)),
                    ("second", Param::Cell(second)),
                    ("digits", digits(state.mask(first))),
                    ("link", Param::Digit(step.chain.get(1)?.1)),
                    ("unit", Param::Unit(*step.units.first()?)),
                    ("ends", Param::Cells(vec![near, far])),
                    ("digit", Param::Digit(eliminated_digit()?)),
                    ("removed", removed_cells()),
                ],
            )
        }
        T::UniqueRectangle1 | T::UniqueRectangle2 | T::UniqueRectangle4 => {
            unique_rectangle(step, state)?
        }
        T::WxyzWing | T::VwxyzWing => {
            // The almost locked set's cells, then the bivalue cell.
            let (&pivot, cells) = step.cells.split_last()?;
            Message::new(
                MessageKey::AlsWing,
                vec![
                    ("pivot", Param::Cell(pivot)),
                    ("pivot_digits", digits(state.mask(pivot))),
                    ("cells", Param::Cells(cells.to_vec())),
                    ("unit", Param::Unit(*step.units.first()?)),
                    ("digits", digits(union(state, cells))),
                    ("removals", removals()),
                ],
            )
        }
        T::Bug1 => {
            let &(cell, digit) = step.placements.first()?;
            Message::new(
                MessageKey::Bug,
                vec![("cell", Param::Cell(cell)), ("digit", Param::Digit(digit))],
            )
        }
        T::XCycle | T::YCycle | T::XyCycle => Message::new(
            MessageKey::Cycle,
            vec![
                ("nodes", Param::Nodes(step.chain.clone())),
                ("removals", removals()),
            ],
        ),
        T::XChain | T::XyChain | T::Aic => match step.placements.first() {
            Some(&(cell, digit)) => Message::new(
                MessageKey::ChainPlacement,
                vec![
                    ("cell", Param::Cell(cell)),
                    ("digit", Param::Digit(digit)),
                    ("chain", Param::Chain(step.chain.clone())),
                ],
            ),
            None => Message::new(
                MessageKey::ChainElimination,
                vec![
                    ("first", holds(*step.chain.first()?)),
                    ("last", holds(*step.chain.last()?)),
                    ("chain", Param::Chain(step.chain.clone())),
                    ("removals", removals()),
                ],
            ),
        },
        T::CellForcingChains | T::DynamicCellForcingChains => {
            let &cell = step.cells.first()?;
            Message::new(
                MessageKey::CellForcing,
                vec![
                    ("cell", Param::Cell(cell)),
                    ("digits", digits(state.mask(cell))),
                    ("conclusion", conclusion(step)?),
                ],
            )
        }
        T::RegionForcingChains | T::DynamicRegionForcingChains => {
            let (unit, digit) = region(state, &step.cells)?;
            Message::new(
                MessageKey::RegionForcing,
                vec![
                    ("unit", Param::Unit(unit)),
                    ("digit", Param::Digit(digit)),
                    ("cells", Param::Cells(step.cells.clone())),
                    ("conclusion", conclusion(step)?),
                ],
            )
        }
        T::NishioForcingChains => {
            let &(cell, digit) = step.eliminations.first()?;
            Message::new(
                MessageKey::Nishio,
                vec![("cell", Param::Cell(cell)), ("digit", Param::Digit(digit))],
            )
        }
        T::DynamicContradictionForcingChains => {
            let Param::Fact { cell, digit, holds } = conclusion(step)? else {
                return None;
            };
            Message::new(
                MessageKey::Contradiction,
                vec![
                    (
                        "assumption",
                        Param::Fact {
                            cell,
                            digit,
                            holds: !holds,
                        },
                    ),
                    ("conclusion", Param::Fact { cell, digit, holds }),
                ],
            )
        }
        T::DynamicDoubleForcingChains => Message::new(
            MessageKey::DoubleForcing,
            vec![
                ("cell", Param::Cell(*step.cells.first()?)),
                ("conclusion", conclusion(step)?),
            ],
        ),
        T::DynamicForcingChainsPlus | T::NestedForcingChains => Message::new(
            MessageKey::NestedForcing,
            vec![
                ("cells", Param::Cells(step.cells.clone())),
                ("conclusion", conclusion(step)?),
            ],
        ),
    };
    Some(message)
}

/// The three kinds of unique rectangle: which corners are the floor (exactly the pair),
/// which the roof, and what they say.
fn unique_rectangle(step: &Step, state: &Candidates) -> Option<Message> {
    let corners = &step.cells;
    if corners.len() != 4 {
        return None;
    }
    let message = match step.technique {
        Technique::UniqueRectangle1 => {
            let &(roof, _) = step.eliminations.first()?;
            let pair = step
                .eliminations
                .iter()
                .fold(0u16, |mask, &(_, d)| mask | bit(d));
            Message::new(
                MessageKey::UniqueRectangle1,
                vec![
                    (
                        "floor",
                        Param::Cells(corners.iter().copied().filter(|&c| c != roof).collect()),
                    ),
                    ("roof", Param::Cell(roof)),
                    ("digits", digits(pair)),
                ],
            )
        }
        Technique::UniqueRectangle2 => {
            let (floor, roof): (Vec<usize>, Vec<usize>) = corners
                .iter()
                .partition(|&&c| state.mask(c).count_ones() == 2);
            let pair = state.mask(*floor.first()?);
            Message::new(
                MessageKey::UniqueRectangle2,
                vec![
                    ("floor", Param::Cells(floor)),
                    ("roof", Param::Cells(roof)),
                    ("digits", digits(pair)),
                    ("extra", Param::Digit(step.eliminations.first()?.1)),
                    (
                        "removed",
                        Param::Cells(step.eliminations.iter().map(|&(c, _)| c).collect()),
                    ),
                ],
            )
        }
        _ => {
            let &(_, other) = step.eliminations.first()?;
            let roof: Vec<usize> = step.eliminations.iter().map(|&(c, _)| c).collect();
            let floor: Vec<usize> = corners
                .iter()
                .copied()
                .filter(|c| !roof.contains(c))
                .collect();
            let pair = state.mask(*floor.first()?);
            let locked = digits_of(pair & !bit(other)).next()?;
            Message::new(
                MessageKey::UniqueRectangle4,
                vec![
                    ("floor", Param::Cells(floor)),
                    ("roof", Param::Cells(roof)),
                    ("digits", digits(pair)),
                    ("unit", Param::Unit(*step.units.first()?)),
                    ("locked", Param::Digit(locked)),
                    ("other", Param::Digit(other)),
                ],
            )
        }
    };
    Some(message)
}

fn digits(mask: u16) -> Param {
    Param::Digits(digits_of(mask).collect())
}

/// The candidates of `cells` together.
fn union(state: &Candidates, cells: &[usize]) -> u16 {
    cells.iter().fold(0, |mask, &c| mask | state.mask(c))
}

/// That a candidate is true.
fn holds((cell, digit): (usize, u8)) -> Param {
    Param::Fact {
        cell,
        digit,
        holds: true,
    }
}

/// A forcing chain's one conclusion: a placement, or an elimination.
fn conclusion(step: &Step) -> Option<Param> {
    let (&(cell, digit), holds) = match step.placements.first() {
        Some(placed) => (placed, true),
        None => (step.eliminations.first()?, false),
    };
    Some(Param::Fact { cell, digit, holds })
}

/// The unit in which `digit` has `cell` as its one place once the step's eliminations are
/// made: where a direct step's hidden single lies.
fn single_unit(state: &Candidates, step: &Step, cell: usize, digit: u8) -> Option<usize> {
    let removed: CellSet = step
        .eliminations
        .iter()
        .filter(|&&(_, d)| d == digit)
        .fold(0, |set, &(c, _)| set | 1 << c);
    let left = state.cells_with(digit) & !removed;
    units_of(cell)
        .into_iter()
        .find(|&u| left & UNIT_MASK[u] == 1 << cell)
}

/// The unit and digit whose places are exactly `cells`: the region of a region forcing
/// chain, which the step names by its cells only.
fn region(state: &Candidates, cells: &[usize]) -> Option<(usize, u8)> {
    let set: CellSet = cells.iter().fold(0, |set, &c| set | 1 << c);
    (0..UNITS)
        .filter(|&u| set & !UNIT_MASK[u] == 0)
        .find_map(|u| {
            (1..=9)
                .find(|&d| state.cells_with(d) & UNIT_MASK[u] == set)
                .map(|d| (u, d))
        })
}

#[cfg(test)]
mod tests {
    use super::super::{Language, render};
    use super::*;
    use crate::logic::{ALL_DIGITS, DEFAULT_WORK_BUDGET, next_step};
    use crate::puzzle_sets::{PROPER, spread};
    use crate::{CLASSIC_PUZZLE, CellName};
    use std::collections::BTreeMap;

    fn state(line: &str) -> Candidates {
        Candidates::from_grid(&Grid::from_line(line).unwrap()).unwrap()
    }

    fn english(step: &Step, state: &Candidates) -> String {
        render(&describe_step(step, state), Language::English)
    }

    #[test]
    fn the_classic_puzzles_first_step_is_said_in_full() {
        let s = state(CLASSIC_PUZZLE);
        let step = next_step(&s, &mut DEFAULT_WORK_BUDGET.clone()).unwrap();
        let (cell, digit) = step.placements[0];
        let unit = step.units[0];
        let unit_text = match unit {
            0..9 => format!("row {}", unit + 1),
            9..18 => format!("column {}", unit - 8),
            _ => format!("box {}", unit - 17),
        };
        let cell_text = CellName(cell).to_string();
        let expected = match step.technique {
            Technique::LastValue => format!(
                "{cell_text} is the last empty cell of {unit_text}, so it takes the one digit \
                 missing there: {digit}."
            ),
            _ => format!(
                "In {unit_text}, the {digit} can only go in {cell_text}: every other cell of \
                 {unit_text} is filled or cannot hold it."
            ),
        };
        assert_eq!(english(&step, &s), expected);
    }

    #[test]
    fn a_naked_single_names_its_cell_and_digit() {
        let step = Step {
            technique: Technique::NakedSingle,
            rating: crate::logic::Rating(23),
            cells: vec![40],
            units: Vec::new(),
            chain: Vec::new(),
            placements: vec![(40, 5)],
            eliminations: Vec::new(),
        };
        let s = state(CLASSIC_PUZZLE);
        assert_eq!(
            english(&step, &s),
            "r5c5 can only hold 5: every other digit is already in its row, column or box, or \
             has been ruled out."
        );
    }

    #[test]
    fn an_x_wing_names_its_rows_columns_and_removals() {
        // 7 in row 2 only at c2, c8; in row 6 only at c2, c8.
        let mut masks = [ALL_DIGITS; 81];
        for row in [1, 5] {
            for col in 0..9 {
                if col != 1 && col != 7 {
                    masks[row * 9 + col] &= !bit(7);
                }
            }
        }
        let s = Candidates::from_masks(masks);
        let step = next_step(&s, &mut DEFAULT_WORK_BUDGET.clone()).unwrap();
        assert_eq!(step.technique, Technique::XWing, "{step}");
        let text = english(&step, &s);
        assert!(
            text.starts_with(
                "In rows 2 and 6, the 7 can only go in columns 2 and 8. So every 7 of columns \
                 2 and 8 lies in rows 2 and 6"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("remove 7 from r1c2, r1c8, r3c2, r3c8, r4c2, r4c8, r5c2, r5c8, r7c2, r7c8, r8c2, r8c8, r9c2 and r9c8."),
            "{text}"
        );
    }

    /// Every technique the logic applies along the corpus sample, with the position it was
    /// found in: real positions, at most `per` of each.
    fn real_steps(per: usize) -> BTreeMap<Technique, Vec<(Step, Candidates)>> {
        let mut found: BTreeMap<Technique, Vec<(Step, Candidates)>> = BTreeMap::new();
        for name in PROPER {
            for puzzle in spread(name, 12) {
                let mut s = Candidates::from_grid(&puzzle).unwrap();
                let mut work = 400_000;
                for _ in 0..200 {
                    let Some(step) = crate::logic::next_step(&s, &mut work) else {
                        break;
                    };
                    let seen = found.entry(step.technique).or_default();
                    if seen.len() < per {
                        seen.push((step.clone(), s.clone()));
                    }
                    step.apply(&mut s);
                }
            }
        }
        found
    }

    #[test]
    fn every_technique_met_on_real_positions_gets_its_own_sentence() {
        let found = real_steps(3);
        println!("techniques met: {:?}", found.keys().collect::<Vec<_>>());
        // The families the sample must reach, so that the sentences are tried on them.
        for family in [
            Technique::HiddenSingleBox,
            Technique::NakedSingle,
            Technique::DirectPointing,
            Technique::Claiming,
            Technique::NakedPair,
            Technique::HiddenTriple,
            Technique::XWing,
            Technique::FinnedXWing,
            Technique::TwoStrongLinks,
            Technique::XyWing,
            Technique::WWing,
            Technique::UniqueRectangle1,
            Technique::WxyzWing,
            Technique::YCycle,
            Technique::XyChain,
            Technique::Aic,
            Technique::RegionForcingChains,
            Technique::CellForcingChains,
            Technique::NishioForcingChains,
            Technique::DynamicContradictionForcingChains,
            Technique::DynamicForcingChainsPlus,
        ] {
            assert!(found.contains_key(&family), "no {family:?} in the sample");
        }
        for (technique, steps) in &found {
            for (i, (step, s)) in steps.iter().enumerate() {
                let message = describe_step(step, s);
                if i == 0 {
                    for language in Language::ALL {
                        println!(
                            "{technique:?} ({language:?}): {}",
                            render(&message, language)
                        );
                    }
                }
                assert_ne!(
                    message.key,
                    MessageKey::Generic,
                    "{technique:?}: {step} fell back to the generic sentence"
                );
                for language in Language::ALL {
                    let text = render(&message, language);
                    assert!(!text.contains('{'), "{language:?} {technique:?}: {text}");
                    // The cells the step changes are all named.
                    for &(cell, _) in step.placements.iter().chain(&step.eliminations) {
                        let name = CellName(cell).to_string();
                        assert!(
                            text.contains(&name),
                            "{language:?} {technique:?}: {name} missing from {text}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_step_of_an_unexpected_shape_falls_back_to_naming_its_conclusions() {
        let step = Step {
            technique: Technique::XWing,
            rating: crate::logic::Rating(32),
            cells: Vec::new(),
            units: Vec::new(),
            chain: Vec::new(),
            placements: vec![(0, 1)],
            eliminations: Vec::new(),
        };
        let s = Candidates::from_masks([ALL_DIGITS; 81]);
        assert_eq!(english(&step, &s), "X-wing: r1c1 is 1.");
    }

    #[test]
    fn wrong_marks_tell_an_emptied_cell_apart() {
        let board = Grid::from_line(CLASSIC_PUZZLE).unwrap();
        let mut marks = [ALL_DIGITS; 81];
        // r1c3 may hold 1, 2 or 4 (4 in the solution): marks of 1 alone lack the 4.
        marks[2] = bit(1);
        let hint = Hint::WrongPencilMarks { cell: 2 };
        assert_eq!(
            describe(&hint, &board, Some(&marks)).key,
            MessageKey::WrongPencilMarks
        );
        marks[2] = 0;
        let message = describe(&hint, &board, Some(&marks));
        assert_eq!(message.key, MessageKey::NoPencilMarks);
        let text = render(&message, Language::English);
        assert!(text.contains("r1c3"), "{text}");
        // 5 and 3 are r1c1 and r1c2: marks the row already holds, which count for nothing.
        marks[2] = bit(5) | bit(3);
        let message = describe(&hint, &board, Some(&marks));
        assert_eq!(message.key, MessageKey::StalePencilMarks);
        let text = render(&message, Language::English);
        assert!(
            text.starts_with("Your pencil marks in r1c3 (3 and 5) are all digits already placed"),
            "{text}"
        );
    }
}
