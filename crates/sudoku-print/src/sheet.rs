//! One board, or a puzzle beside its solution, as a whole SVG document.

use std::fmt::Write;

use crate::board::{BoardPicture, CELL, Weight, draw_board};
use crate::{FONT_FAMILY, escape};

/// What a sheet shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Show {
    /// The puzzle: givens, entries and pencil marks.
    #[default]
    Puzzle,
    /// The solution: the givens in black, the rest in blue.
    Solution,
    /// The puzzle on the left, its solution on the right.
    Both,
}

/// The margin round a board, in user units.
const MARGIN: f64 = CELL / 2.0;

/// An SVG document `width_px` wide showing `puzzle` as `show` says (its `solution`,
/// row-major, for [`Show::Solution`] and [`Show::Both`]), under `title` when there is one.
/// The text asks for [`FONT_FAMILY`], then any sans-serif font.
pub fn sheet_svg(
    puzzle: &BoardPicture,
    solution: Option<&[u8]>,
    show: Show,
    title: Option<&str>,
    width_px: u32,
) -> String {
    let side = CELL * puzzle.size as f64;
    let solved = BoardPicture {
        entries: solution.map(<[u8]>::to_vec).unwrap_or_default(),
        candidates: Vec::new(),
        ..puzzle.clone()
    };
    let boards: Vec<(&BoardPicture, &str)> = match show {
        Show::Puzzle => vec![(puzzle, "Puzzle")],
        Show::Solution => vec![(&solved, "Solution")],
        Show::Both => vec![(puzzle, "Puzzle"), (&solved, "Solution")],
    };
    let title_size = (side * 0.05).max(CELL * 0.5);
    let label_size = title_size * 0.7;
    let mut top = MARGIN;
    let mut body = String::new();
    if let Some(title) = title.filter(|t| !t.trim().is_empty()) {
        let width = side * boards.len() as f64 + MARGIN * (boards.len() as f64 + 1.0);
        let title_size = fitting_size(title.trim(), title_size, width - 2.0 * MARGIN);
        let _ = write!(
            body,
            "<text class=\"title\" x=\"{:.2}\" y=\"{:.2}\" font-size=\"{title_size:.2}\" text-anchor=\"middle\" fill=\"#000000\">{}</text>",
            width / 2.0,
            top + title_size * 0.8,
            escape(title.trim())
        );
        top += title_size * 1.4;
    }
    if boards.len() > 1 {
        for (index, (_, label)) in boards.iter().enumerate() {
            let x = MARGIN + index as f64 * (side + MARGIN);
            let _ = write!(
                body,
                "<text class=\"label\" x=\"{:.2}\" y=\"{:.2}\" font-size=\"{label_size:.2}\" text-anchor=\"middle\" fill=\"#000000\">{label}</text>",
                x + side / 2.0,
                top + label_size * 0.8
            );
        }
        top += label_size * 1.5;
    }
    for (index, (board, _)) in boards.iter().enumerate() {
        let x = MARGIN + index as f64 * (side + MARGIN);
        let _ = write!(body, "<g transform=\"translate({x:.2} {top:.2})\">");
        draw_board(&mut body, board, Weight::Regular);
        body.push_str("</g>");
    }
    let view_width = side * boards.len() as f64 + MARGIN * (boards.len() as f64 + 1.0);
    let view_height = top + side + MARGIN;
    document(&body, view_width, view_height, f64::from(width_px))
}

/// The font size at most `size` at which `text` fits in `width`: DejaVu Sans' letters
/// average some 0.6 em wide.
pub(crate) fn fitting_size(text: &str, size: f64, width: f64) -> f64 {
    let ems = 0.6 * text.chars().count().max(1) as f64;
    size.min(width / ems)
}

/// A whole SVG document of `body`, whose user space is `view_width` by `view_height`,
/// drawn `width` wide.
pub(crate) fn document(body: &str, view_width: f64, view_height: f64, width: f64) -> String {
    let height = (width * view_height / view_width).round().max(1.0);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {view_width:.2} {view_height:.2}\" font-family=\"{FONT_FAMILY}, sans-serif\"><rect width=\"{view_width:.2}\" height=\"{view_height:.2}\" fill=\"#ffffff\"/>{body}</svg>"
    )
}
