//! Cells of pencil marks: a player's small candidate digits, several to a cell and no digit
//! among them, told by the shape of the ink: several small strokes apart and none of a
//! digit's height. A second test beside the network's own class of marks: on the training
//! photos with marks drawn in, it reads 21 cells of marks as digits where the network alone
//! reads 30.

use crate::CELL_SIDE;

/// An input level (0 to 1, see [`crate::cell_inputs`]) from which a pixel is ink: low, as a
/// pencil's strokes are thin and faint.
const INK: f32 = 0.2;

/// How far apart, in pixels each way, two pixels of ink may be and still be one stroke: a
/// small digit's faint strokes break up.
const REACH: usize = 2;

/// The tallest and widest a pencil mark stands, in pixels of the cell's side: a third of the
/// cell, as marks sit in a 3x3 layout.
const MOST_MARK_SIDE: usize = CELL_SIDE * 3 / 8;

/// The least height of a stroke counted as a mark: smaller is a speck.
const LEAST_MARK_HEIGHT: usize = 3;

/// The least height of a digit written in the cell.
const LEAST_DIGIT_HEIGHT: usize = CELL_SIDE * 7 / 16;

/// The fewest pixels of ink of a mark: fewer are paper grain the contrast stretch darkened.
const LEAST_MARK_PIXELS: usize = 5;

/// The darkest ink a mark must reach somewhere.
const LEAST_MARK_PEAK: f32 = 0.4;

/// The pixels along each edge of a cell left out: the grid's lines.
const EDGE: usize = 2;

/// The widest a piece of the grid's lines stands inside a cell.
const MOST_LINE_WIDTH: usize = 3;

/// The fewest marks that make a cell of pencil marks.
const LEAST_MARKS: usize = 3;

/// The bounding box and size of one connected stroke of ink.
struct Stroke {
    top: usize,
    bottom: usize,
    left: usize,
    right: usize,
    pixels: usize,
    peak: f32,
}

impl Stroke {
    fn height(&self) -> usize {
        self.bottom - self.top + 1
    }

    fn width(&self) -> usize {
        self.right - self.left + 1
    }

    /// A piece of the grid's ruling the warp left in the cell: long and thin.
    fn is_line(&self) -> bool {
        let (long, thin) = (
            self.height().max(self.width()),
            self.height().min(self.width()),
        );
        long >= LEAST_DIGIT_HEIGHT && thin <= MOST_LINE_WIDTH
    }
}

/// Whether a cell's ink (the network's input for it) is pencil marks: at least three small
/// strokes of dark enough ink, and none of a digit's height. The cell's edges and long thin
/// strokes are the grid's lines and left out.
pub(crate) fn is_pencil_marks(input: &[f32; CELL_SIDE * CELL_SIDE]) -> bool {
    let strokes = strokes(input);
    let inside = || strokes.iter().filter(|stroke| !stroke.is_line());
    let marks = inside()
        .filter(|stroke| {
            (LEAST_MARK_HEIGHT..=MOST_MARK_SIDE).contains(&stroke.height())
                && stroke.width() <= MOST_MARK_SIDE
                && stroke.pixels >= LEAST_MARK_PIXELS
                && stroke.peak >= LEAST_MARK_PEAK
        })
        .count();
    let digits = inside()
        .filter(|stroke| stroke.height() >= LEAST_DIGIT_HEIGHT)
        .count();
    marks >= LEAST_MARKS && digits == 0
}

/// The strokes of ink in a cell: pixels of ink within [`REACH`] of each other.
fn strokes(input: &[f32; CELL_SIDE * CELL_SIDE]) -> Vec<Stroke> {
    let mut seen = [false; CELL_SIDE * CELL_SIDE];
    let mut strokes = Vec::new();
    let mut stack = Vec::new();
    let is_ink = |pixel: usize| {
        let (row, col) = (pixel / CELL_SIDE, pixel % CELL_SIDE);
        let inside = EDGE..CELL_SIDE - EDGE;
        inside.contains(&row) && inside.contains(&col) && input[pixel] >= INK
    };
    for start in 0..input.len() {
        if seen[start] || !is_ink(start) {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let (row, col) = (start / CELL_SIDE, start % CELL_SIDE);
        let mut stroke = Stroke {
            top: row,
            bottom: row,
            left: col,
            right: col,
            pixels: 0,
            peak: 0.0,
        };
        while let Some(pixel) = stack.pop() {
            let (row, col) = (pixel / CELL_SIDE, pixel % CELL_SIDE);
            stroke.top = stroke.top.min(row);
            stroke.bottom = stroke.bottom.max(row);
            stroke.left = stroke.left.min(col);
            stroke.right = stroke.right.max(col);
            stroke.pixels += 1;
            stroke.peak = stroke.peak.max(input[pixel]);
            for next_row in row.saturating_sub(REACH)..=(row + REACH).min(CELL_SIDE - 1) {
                for next_col in col.saturating_sub(REACH)..=(col + REACH).min(CELL_SIDE - 1) {
                    let next = next_row * CELL_SIDE + next_col;
                    if !seen[next] && is_ink(next) {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
        }
        strokes.push(stroke);
    }
    strokes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell with a filled rectangle of ink for each `(top, left, height, width)`.
    fn cell(blots: &[(usize, usize, usize, usize)]) -> [f32; CELL_SIDE * CELL_SIDE] {
        let mut input = [0.0; CELL_SIDE * CELL_SIDE];
        for &(top, left, height, width) in blots {
            for row in top..top + height {
                for col in left..left + width {
                    input[row * CELL_SIDE + col] = 1.0;
                }
            }
        }
        input
    }

    #[test]
    fn three_small_marks_are_pencil_marks() {
        assert!(is_pencil_marks(&cell(&[
            (3, 4, 6, 4),
            (3, 14, 6, 4),
            (23, 24, 6, 4)
        ])));
    }

    #[test]
    fn a_digit_is_not_even_beside_a_mark() {
        assert!(!is_pencil_marks(&cell(&[(6, 13, 20, 6)])));
        assert!(!is_pencil_marks(&cell(&[
            (6, 13, 20, 6),
            (3, 3, 6, 4),
            (3, 24, 6, 4)
        ])));
    }

    #[test]
    fn two_marks_specks_or_the_grid_lines_are_not() {
        assert!(!is_pencil_marks(&cell(&[(3, 4, 6, 4), (3, 14, 6, 4)])));
        assert!(!is_pencil_marks(&cell(&[
            (3, 4, 6, 4),
            (3, 14, 6, 4),
            (20, 20, 2, 2)
        ])));
        assert!(!is_pencil_marks(&cell(&[
            (3, 4, 6, 4),
            (3, 14, 6, 4),
            (20, 20, 3, 1)
        ])));
        assert!(!is_pencil_marks(&cell(&[
            (0, 0, 2, 32),
            (0, 0, 32, 2),
            (3, 4, 6, 4),
            (3, 14, 6, 4)
        ])));
    }
}
