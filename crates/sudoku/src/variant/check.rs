//! What breaks the rules on a board: every repeated digit in a group, every cage whose
//! digits cannot make its sum, every pair of equal digits a knight's or king's move apart,
//! every digit of the wrong parity, every thermometer that does not rise.

use super::CellLabel;
use super::rules::{KING, KNIGHT, Puzzle, VariantCell, VariantUnit, moves_from, sum_range};

/// One broken rule, with the cells that break it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantConflict {
    /// The kind of rule.
    pub unit: VariantUnit,
    /// Which rule of its kind, 0-based: the row, the cage, the thermometer (0 for the
    /// knight, king and parity rules, which are one each).
    pub index: usize,
    /// The digit repeated, or of the wrong parity; `None` for a sum or a thermometer.
    pub digit: Option<u8>,
    /// The cells that break it.
    pub cells: Vec<VariantCell>,
    /// What is wrong, in words, cells named from 1.
    pub message: String,
}

/// Every conflict of `cells` (row-major, 0 empty) under the puzzle's rules, in the order:
/// groups (rows, columns, boxes or regions, diagonals, extra regions, cages), cage sums,
/// knight, king, parity, thermometers. Empty cells never conflict.
pub fn find_variant_conflicts(puzzle: &Puzzle, cells: &[u8]) -> Vec<VariantConflict> {
    let size = puzzle.size;
    let at = |cell: usize| VariantCell {
        row: cell / size,
        col: cell % size,
    };
    let label = |cell: usize| CellLabel(cell / size, cell % size).to_string();
    let mut conflicts = Vec::new();

    for group in &puzzle.groups {
        let unit = group.kind;
        // The digits held twice or more, found in one pass: most boards checked are
        // solutions, which have none, and listing each digit's holders took most of the check.
        let (mut seen, mut repeated) = (0u32, 0u32);
        for &cell in &group.cells {
            let digit = cells[cell];
            if digit != 0 && usize::from(digit) <= size {
                repeated |= seen & 1 << digit;
                seen |= 1 << digit;
            }
        }
        while repeated != 0 {
            let digit = repeated.trailing_zeros() as u8;
            repeated &= repeated - 1;
            let holders: Vec<usize> = group
                .cells
                .iter()
                .copied()
                .filter(|&c| cells[c] == digit)
                .collect();
            let names: Vec<String> = holders.iter().map(|&c| label(c)).collect();
            conflicts.push(VariantConflict {
                unit,
                index: group.index,
                digit: Some(digit),
                cells: holders.iter().map(|&c| at(c)).collect(),
                message: format!(
                    "{digit} appears {} times in {} {}: {}",
                    holders.len(),
                    unit.as_str().replace('_', " "),
                    group.index + 1,
                    names.join(", ")
                ),
            });
        }
    }

    for (index, cage) in puzzle.cages.iter().enumerate() {
        let Some(sum) = cage.sum else { continue };
        let filled: u32 = cage.cells.iter().map(|&c| u32::from(cells[c])).sum();
        let open = cage.cells.iter().filter(|&&c| cells[c] == 0).count();
        let least_rest = sum_range(size, open).0;
        let message = if open == 0 && filled != sum {
            format!(
                "the digits of cage {} add up to {filled}, not {sum}",
                index + 1
            )
        } else if open > 0 && filled + least_rest > sum {
            format!(
                "cage {} already holds {filled}, too much to reach {sum} with {open} more digit(s)",
                index + 1
            )
        } else {
            continue;
        };
        conflicts.push(VariantConflict {
            unit: VariantUnit::Cage,
            index,
            digit: None,
            cells: cage.cells.iter().map(|&c| at(c)).collect(),
            message,
        });
    }

    for (on, unit, moves, name) in [
        (
            puzzle.rules.anti_knight,
            VariantUnit::Knight,
            &KNIGHT,
            "a knight's",
        ),
        (puzzle.rules.anti_king, VariantUnit::King, &KING, "a king's"),
    ] {
        if !on {
            continue;
        }
        for a in 0..size * size {
            for b in moves_from(size, a, moves).filter(|&b| b > a) {
                if cells[a] != 0 && cells[a] == cells[b] {
                    conflicts.push(VariantConflict {
                        unit,
                        index: 0,
                        digit: Some(cells[a]),
                        cells: vec![at(a), at(b)],
                        message: format!(
                            "{} in {} and {}, {name} move apart",
                            cells[a],
                            label(a),
                            label(b)
                        ),
                    });
                }
            }
        }
    }

    for (cell, &digit) in cells.iter().enumerate() {
        if digit != 0 && puzzle.allowed[cell] & (1 << digit) == 0 {
            let kind = if digit % 2 == 0 { "odd" } else { "even" };
            conflicts.push(VariantConflict {
                unit: VariantUnit::Parity,
                index: 0,
                digit: Some(digit),
                cells: vec![at(cell)],
                message: format!("{} must hold an {kind} digit, not {digit}", label(cell)),
            });
        }
    }

    for (index, thermometer) in puzzle.thermometers.iter().enumerate() {
        let length = thermometer.len();
        let mut broken = Vec::new();
        for (i, &a) in thermometer.iter().enumerate() {
            let digit = usize::from(cells[a]);
            if digit == 0 {
                continue;
            }
            // A cell i steps from the bulb needs i smaller digits below it and the rest above.
            if digit < i + 1 || digit > size - (length - 1 - i) {
                broken.push((a, None));
            }
            for (j, &b) in thermometer.iter().enumerate().skip(i + 1) {
                let later = usize::from(cells[b]);
                if later != 0 && later < digit + (j - i) {
                    broken.push((a, Some(b)));
                }
            }
        }
        if let Some(&(a, b)) = broken.first() {
            let message = match b {
                Some(b) => format!(
                    "thermometer {} does not rise from {} in {} to {} in {}",
                    index + 1,
                    cells[a],
                    label(a),
                    cells[b],
                    label(b)
                ),
                None => format!(
                    "on thermometer {}, {} cannot hold {}: the cells before and after it need room",
                    index + 1,
                    label(a),
                    cells[a]
                ),
            };
            let mut involved: Vec<usize> = broken
                .iter()
                .flat_map(|&(a, b)| [Some(a), b])
                .flatten()
                .collect();
            involved.sort_unstable_by_key(|c| thermometer.iter().position(|t| t == c));
            involved.dedup();
            conflicts.push(VariantConflict {
                unit: VariantUnit::Thermometer,
                index,
                digit: None,
                cells: involved.into_iter().map(at).collect(),
                message,
            });
        }
    }
    conflicts
}

/// Whether a full board keeps every rule: what a solution must do.
pub(super) fn satisfies(puzzle: &Puzzle, cells: &[u8]) -> bool {
    cells.iter().all(|&d| d != 0) && find_variant_conflicts(puzzle, cells).is_empty()
}
