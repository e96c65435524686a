//! One board drawn as SVG elements: the rules under the grid, the grid, the digits over
//! it. Lengths are in user units with a cell [`CELL`] units wide, the board's top-left
//! corner at the origin; the caller places and scales it with a `transform`.
//!
//! The look follows the playground's rule overlay (`src/http/page/overlay.js`): shaded
//! extra regions, odd circles and even squares, thermometers with bulbs, grey diagonals,
//! thick region edges, dashed cage outlines drawn inside their cells; in black on white
//! and with lines heavy enough for print and for reading a picture back.

use std::fmt::Write;

use sudoku::variant::{Diagonal, Rules, VariantCell, default_box, digit_char};

/// The side of a cell, in user units.
pub const CELL: f64 = 40.0;

/// How far a cage's dashed outline sits inside its cells, as a share of a cell.
const CAGE_INSET: f64 = 0.09;

/// A board to draw: its side, what is in its cells, and its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardPicture {
    /// The side, 4 to 25.
    pub size: usize,
    /// The puzzle's givens, row-major, 0 for an empty cell: drawn in black.
    pub givens: Vec<u8>,
    /// Digits written into empty cells (a player's entries or the solution), row-major, 0
    /// for none: drawn in blue and lighter; empty for none at all.
    pub entries: Vec<u8>,
    /// Pencil marks of empty cells, row-major, bit `d` for digit `d`: drawn small, each
    /// digit in its place of the cell's corner grid; empty for none at all.
    pub candidates: Vec<u32>,
    /// The rules beside rows and columns: boxes or regions, and the variants drawn.
    pub rules: Rules,
}

/// How heavy the drawing is: large print has bigger digits and heavier lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Weight {
    /// Digits at 62 % of a cell.
    #[default]
    Regular,
    /// Digits at 74 % of a cell, lines half as heavy again.
    Large,
}

impl Weight {
    fn digit_size(self) -> f64 {
        match self {
            Weight::Regular => 0.62 * CELL,
            Weight::Large => 0.74 * CELL,
        }
    }

    fn line_scale(self) -> f64 {
        match self {
            Weight::Regular => 1.0,
            Weight::Large => 1.5,
        }
    }
}

/// Colours: black on white for the grid and the givens; one blue for what was written in.
const INK: &str = "#000000";
const ENTRY: &str = "#1d4fc4";
const PENCIL: &str = "#3a3a3a";
const SHADE: &str = "#dcdcdc";
const RULE_FILL: &str = "#d9dde4";
const THERMOMETER: &str = "#bcc4d2";
const DIAGONAL: &str = "#7d879a";
const CAGE: &str = "#222222";

/// The region of every cell, row-major: the jigsaw regions, else the boxes of the rules'
/// shape or the size's default one; `None` when the size has neither (a prime side with
/// no regions, which the core refuses to solve but which can still be drawn).
pub fn regions_of(size: usize, rules: &Rules) -> Option<Vec<usize>> {
    if let Some(rows) = &rules.regions {
        return Some(
            (0..size * size)
                .map(|cell| {
                    rows.get(cell / size)
                        .and_then(|row| row.get(cell % size))
                        .copied()
                        .unwrap_or(usize::MAX)
                })
                .collect(),
        );
    }
    let shape = rules
        .box_shape
        .filter(|shape| shape.rows * shape.cols == size && shape.rows > 0)
        .or_else(|| default_box(size))?;
    let per_band = size / shape.cols;
    Some(
        (0..size * size)
            .map(|cell| {
                let (row, col) = (cell / size, cell % size);
                (row / shape.rows) * per_band + col / shape.cols
            })
            .collect(),
    )
}

/// Appends the SVG elements of `board` to `out`, in a group with the class `board`.
pub(crate) fn draw_board(out: &mut String, board: &BoardPicture, weight: Weight) {
    let size = board.size;
    let side = CELL * size as f64;
    let lines = weight.line_scale();
    let rules = &board.rules;
    out.push_str("<g class=\"board\">");
    let _ = write!(
        out,
        "<rect class=\"paper\" x=\"0\" y=\"0\" width=\"{side}\" height=\"{side}\" fill=\"#ffffff\"/>"
    );
    for (index, region) in rules.extra_regions.iter().enumerate() {
        let _ = write!(
            out,
            "<g class=\"extra-region\" data-region=\"{index}\" fill=\"{SHADE}\">"
        );
        for cell in region {
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\"/>",
                x_of(cell.col),
                x_of(cell.row)
            );
        }
        out.push_str("</g>");
    }
    for cell in &rules.odd {
        let (cx, cy) = centre(*cell);
        let _ = write!(
            out,
            "<circle class=\"odd\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"{RULE_FILL}\"/>",
            0.36 * CELL
        );
    }
    for cell in &rules.even {
        let _ = write!(
            out,
            "<rect class=\"even\" x=\"{}\" y=\"{}\" width=\"{w}\" height=\"{w}\" rx=\"{}\" fill=\"{RULE_FILL}\"/>",
            x_of(cell.col) + 0.16 * CELL,
            x_of(cell.row) + 0.16 * CELL,
            0.05 * CELL,
            w = 0.68 * CELL
        );
    }
    for (index, thermometer) in rules.thermometers.iter().enumerate() {
        let Some(&bulb) = thermometer.first() else {
            continue;
        };
        let (bx, by) = centre(bulb);
        let _ = write!(
            out,
            "<g class=\"thermometer\" data-thermometer=\"{index}\"><circle class=\"bulb\" cx=\"{bx}\" cy=\"{by}\" r=\"{}\" fill=\"{THERMOMETER}\"/>",
            0.36 * CELL
        );
        if thermometer.len() > 1 {
            let points: Vec<String> = thermometer
                .iter()
                .map(|&cell| {
                    let (x, y) = centre(cell);
                    format!("{x} {y}")
                })
                .collect();
            let _ = write!(
                out,
                "<path class=\"tube\" d=\"M{}\" fill=\"none\" stroke=\"{THERMOMETER}\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
                points.join(" L"),
                0.3 * CELL
            );
        }
        out.push_str("</g>");
    }
    // The thin lines between every two cells, under the region edges.
    let mut thin = String::new();
    for i in 1..size {
        let at = x_of(i);
        let _ = write!(thin, "M{at} 0V{side}M0 {at}H{side}");
    }
    let _ = write!(
        out,
        "<path class=\"cell-lines\" d=\"{thin}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"{lines}\"/>"
    );
    for diagonal in &rules.diagonals {
        let (x1, x2, name) = match diagonal {
            Diagonal::Main => (0.0, side, "main"),
            Diagonal::Anti => (side, 0.0, "anti"),
        };
        let _ = write!(
            out,
            "<line class=\"diagonal\" data-diagonal=\"{name}\" x1=\"{x1}\" y1=\"0\" x2=\"{x2}\" y2=\"{side}\" stroke=\"{DIAGONAL}\" stroke-width=\"{}\"/>",
            1.5 * lines
        );
    }
    if let Some(regions) = regions_of(size, rules) {
        let _ = write!(
            out,
            "<path class=\"region-edges\" d=\"{}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\" stroke-linecap=\"square\"/>",
            region_edges(size, &regions),
            3.0 * lines
        );
    }
    let _ = write!(
        out,
        "<rect class=\"border\" x=\"0\" y=\"0\" width=\"{side}\" height=\"{side}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\"/>",
        4.0 * lines
    );
    for (index, cage) in rules.cages.iter().enumerate() {
        let _ = write!(
            out,
            "<path class=\"cage\" data-cage=\"{index}\" d=\"{}\" fill=\"none\" stroke=\"{CAGE}\" stroke-width=\"{}\" stroke-dasharray=\"4 3\"/>",
            cage_outline(&cage.cells),
            1.25 * lines
        );
    }
    for cage in &rules.cages {
        let (Some(sum), Some(first)) = (cage.sum, cage.cells.iter().min()) else {
            continue;
        };
        let text_size = 0.26 * CELL;
        let (x, y) = (x_of(first.col) + 0.06 * CELL, x_of(first.row) + 0.05 * CELL);
        // A white patch under the sum, so that the dashed outline does not run through it.
        let width = text_size * 0.64 * sum.to_string().len() as f64 + 0.04 * CELL;
        let _ = write!(
            out,
            "<rect class=\"cage-sum-patch\" x=\"{x}\" y=\"{y}\" width=\"{width:.2}\" height=\"{:.2}\" fill=\"#ffffff\"/><text class=\"cage-sum\" x=\"{:.2}\" y=\"{:.2}\" font-size=\"{text_size:.2}\" fill=\"{INK}\">{sum}</text>",
            text_size * 1.05,
            x + 0.02 * CELL,
            y + text_size * 0.86
        );
    }
    draw_digits(out, board, weight);
    out.push_str("</g>");
}

/// The givens, the entries and the pencil marks, in that order.
fn draw_digits(out: &mut String, board: &BoardPicture, weight: Weight) {
    let size = board.size;
    let font = weight.digit_size() * if size > 9 { 0.8 } else { 1.0 };
    // The baseline that centres a digit's figure (DejaVu Sans' figures are 0.73 em high).
    let drop = font * 0.365;
    for (cell, &digit) in board.givens.iter().enumerate() {
        if digit != 0 {
            write_digit(out, "given", INK, cell, size, digit, font, drop);
        }
    }
    for (cell, &digit) in board.entries.iter().enumerate() {
        if digit != 0 && board.givens.get(cell).copied().unwrap_or(0) == 0 {
            write_digit(out, "entry", ENTRY, cell, size, digit, font, drop);
        }
    }
    let columns = (1..=size).find(|c| c * c >= size).unwrap_or(size);
    let rows = size.div_ceil(columns);
    // The cells whose top-left corner holds a cage sum: their marks go below it.
    let summed: Vec<usize> = board
        .rules
        .cages
        .iter()
        .filter(|cage| cage.sum.is_some())
        .filter_map(|cage| cage.cells.iter().min())
        .map(|first| first.row * size + first.col)
        .collect();
    for (cell, &marks) in board.candidates.iter().enumerate() {
        let filled = board.givens.get(cell).copied().unwrap_or(0) != 0
            || board.entries.get(cell).copied().unwrap_or(0) != 0;
        if marks == 0 || filled {
            continue;
        }
        let below_sum = if summed.contains(&cell) { 0.3 } else { 0.0 };
        let pitch_x = CELL * 0.9 / columns as f64;
        let pitch_y = CELL * (0.9 - below_sum) / rows as f64;
        let small = pitch_y.min(pitch_x * 1.3) * 0.8;
        let (left, top) = (x_of(cell % size), x_of(cell / size) + below_sum * CELL);
        let _ = write!(
            out,
            "<g class=\"candidates\" font-size=\"{small:.2}\" fill=\"{PENCIL}\" text-anchor=\"middle\">"
        );
        for digit in 1..=size {
            if marks & (1 << digit) == 0 {
                continue;
            }
            let place = digit - 1;
            let x = left + CELL * 0.05 + pitch_x * (place % columns) as f64 + pitch_x / 2.0;
            let y = top + CELL * 0.05 + pitch_y * (place / columns) as f64 + pitch_y / 2.0;
            let _ = write!(
                out,
                "<text x=\"{x:.2}\" y=\"{:.2}\">{}</text>",
                y + small * 0.365,
                digit_char(digit as u8)
            );
        }
        out.push_str("</g>");
    }
}

#[allow(clippy::too_many_arguments)]
fn write_digit(
    out: &mut String,
    class: &str,
    colour: &str,
    cell: usize,
    size: usize,
    digit: u8,
    font: f64,
    drop: f64,
) {
    let (x, y) = (
        x_of(cell % size) + CELL / 2.0,
        x_of(cell / size) + CELL / 2.0 + drop,
    );
    let _ = write!(
        out,
        "<text class=\"{class}\" x=\"{x}\" y=\"{y:.2}\" font-size=\"{font:.2}\" fill=\"{colour}\" text-anchor=\"middle\">{}</text>",
        digit_char(digit)
    );
}

fn x_of(index: usize) -> f64 {
    CELL * index as f64
}

fn centre(cell: VariantCell) -> (f64, f64) {
    (x_of(cell.col) + CELL / 2.0, x_of(cell.row) + CELL / 2.0)
}

/// Every side two cells of different regions share, as one path: drawn with square ends,
/// the sides meet at corners without a gap.
fn region_edges(size: usize, regions: &[usize]) -> String {
    let mut path = String::new();
    for row in 0..size {
        for col in 0..size {
            let region = regions[row * size + col];
            if col + 1 < size && regions[row * size + col + 1] != region {
                let _ = write!(path, "M{} {}V{}", x_of(col + 1), x_of(row), x_of(row + 1));
            }
            if row + 1 < size && regions[(row + 1) * size + col] != region {
                let _ = write!(path, "M{} {}H{}", x_of(col), x_of(row + 1), x_of(col + 1));
            }
        }
    }
    path
}

/// The outline of a cage, [`CAGE_INSET`] inside its cells: one segment per cell side on
/// the cage's edge, stretched at each end to meet the next side, round a corner going in
/// or out (as the playground draws it).
fn cage_outline(cells: &[VariantCell]) -> String {
    let in_cage = |row: isize, col: isize| {
        cells
            .iter()
            .any(|cell| cell.row as isize == row && cell.col as isize == col)
    };
    let d = CAGE_INSET;
    let mut path = String::new();
    for cell in cells {
        let (row, col) = (cell.row as isize, cell.col as isize);
        for (dr, dc) in [(-1isize, 0isize), (0, 1), (1, 0), (0, -1)] {
            if in_cage(row + dr, col + dc) {
                continue;
            }
            // Along the side, one way; the other way is its negative.
            let (ar, ac) = (dc, -dr);
            let end = |sign: isize| {
                let (sr, sc) = (ar * sign, ac * sign);
                let reach = if !in_cage(row + sr, col + sc) {
                    0.5 - d
                } else if in_cage(row + sr + dr, col + sc + dc) {
                    0.5 + d
                } else {
                    0.5
                };
                (
                    (col as f64 + 0.5 + dc as f64 * (0.5 - d) + sc as f64 * reach) * CELL,
                    (row as f64 + 0.5 + dr as f64 * (0.5 - d) + sr as f64 * reach) * CELL,
                )
            };
            let (from, to) = (end(-1), end(1));
            let _ = write!(path, "M{:.2} {:.2}L{:.2} {:.2}", from.0, from.1, to.0, to.1);
        }
    }
    path
}
