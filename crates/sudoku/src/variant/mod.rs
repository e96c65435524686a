//! The general engine: boards of any size from 4x4 to 25x25 and the rules players share
//! (jigsaw regions, diagonals, extra regions, killer cages, anti-knight and anti-king,
//! parity, thermometers). The classic 9x9 keeps its own fast solver in `solver`; this one
//! trades its band bitboards for candidate bitsets that fit every size.
//!
//! Cells are `(row, col)`, 0-based, as in the rest of the crate; digits run 1..=N, 0 is an
//! empty cell. Sentences name cells as players do, from 1 (`r10c3`).

mod check;
mod engine;
mod generate;
mod rules;

pub use check::{VariantConflict, find_variant_conflicts};
pub use engine::{VariantCount, VariantVerdict, count_variant_solutions, solve_variant};
pub use generate::{
    GeneratedVariant, VariantGenerateError, VariantKind, VariantOptions, generate_variant,
};
pub use rules::{BoxShape, Cage, Diagonal, Puzzle, Rules, RulesError, VariantCell, VariantUnit};

use std::fmt;

/// The smallest side a board may have.
pub const MIN_SIZE: usize = 4;
/// The largest side a board may have: 25 digits, `1`-`9` and `A`-`P`.
pub const MAX_SIZE: usize = 25;

/// A cell as players name it, counting from 1: "r10c3".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellLabel(pub usize, pub usize);

impl fmt::Display for CellLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.0 + 1, self.1 + 1)
    }
}

/// The boxes a size has when the rules name none: as square as the size allows, wider
/// than tall (6x6: 2 rows by 3 columns). `None` for a size without boxes (a prime such as
/// 5 or 7 needs jigsaw regions).
pub fn default_box(size: usize) -> Option<BoxShape> {
    let rows = (2..=size)
        .take_while(|rows| rows * rows <= size)
        .filter(|rows| size % rows == 0)
        .last()?;
    Some(BoxShape {
        rows,
        cols: size / rows,
    })
}

/// The character of a digit in the string form: `1`-`9`, then `A` for 10 up to `P` for 25.
pub fn digit_char(digit: u8) -> char {
    match digit {
        0 => '.',
        1..=9 => char::from(b'0' + digit),
        _ => char::from(b'A' + digit - 10),
    }
}

/// The digit of a character of the string form on a board of `size`: `Some(0)` for an empty
/// cell (`.` or `0`), `None` for a character that is no digit of that size.
pub fn char_digit(c: char, size: usize) -> Option<u8> {
    let digit = match c {
        '.' | '0' => return Some(0),
        '1'..='9' => c as u8 - b'0',
        'a'..='p' => c as u8 - b'a' + 10,
        'A'..='P' => c as u8 - b'A' + 10,
        _ => return None,
    };
    (usize::from(digit) <= size).then_some(digit)
}

/// The guesses a board of `side` may take when a classic 9x9 search may take
/// `classic_budget`, so that every side gives up in about the time the classic search
/// does (a second or so): a node of the general engine costs about 25 times a classic one
/// on a 9x9 (its all-different filtering runs in every group), and grows with the cells.
pub fn scaled_budget(classic_budget: u64, side: usize) -> u64 {
    (classic_budget.saturating_mul(81) / (25 * side * side).max(1) as u64).max(1)
}

/// The side of a board of `cells` cells, when it is a square of a supported size.
pub fn side_of(cells: usize) -> Option<usize> {
    let side = (MIN_SIZE..=MAX_SIZE).find(|side| side * side >= cells)?;
    (side * side == cells).then_some(side)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_listed_size_has_the_boxes_players_expect() {
        let shapes: Vec<(usize, Option<(usize, usize)>)> =
            [4, 5, 6, 7, 8, 9, 10, 12, 15, 16, 20, 25]
                .into_iter()
                .map(|n| (n, default_box(n).map(|b| (b.rows, b.cols))))
                .collect();
        assert_eq!(
            shapes,
            [
                (4, Some((2, 2))),
                (5, None),
                (6, Some((2, 3))),
                (7, None),
                (8, Some((2, 4))),
                (9, Some((3, 3))),
                (10, Some((2, 5))),
                (12, Some((3, 4))),
                (15, Some((3, 5))),
                (16, Some((4, 4))),
                (20, Some((4, 5))),
                (25, Some((5, 5))),
            ]
        );
    }

    #[test]
    fn digits_past_nine_are_letters_in_either_case_up_to_the_size() {
        assert_eq!(char_digit('A', 16), Some(10));
        assert_eq!(char_digit('g', 16), Some(16));
        assert_eq!(char_digit('G', 15), None);
        assert_eq!(char_digit('9', 6), None);
        assert_eq!(char_digit('0', 4), Some(0));
        assert_eq!(digit_char(25), 'P');
        assert_eq!(side_of(256), Some(16));
        assert_eq!(side_of(80), None);
        assert_eq!(side_of(9), None);
        assert_eq!(CellLabel(9, 2).to_string(), "r10c3");
    }
}
