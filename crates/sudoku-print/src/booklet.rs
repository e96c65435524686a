//! Booklets: pages of numbered puzzles, their solutions at the back, page numbers at the
//! foot, as one PDF.

use std::fmt::Write;

use crate::board::{BoardPicture, CELL, Weight, draw_board};
use crate::escape;
use crate::output::{PrintError, svgs_to_pdf};
use crate::sheet::{document, fitting_size};
use sudoku::logic::Rating;
use sudoku::variant::Rules;
use sudoku::{Difficulty, Generated};

/// The paper a booklet is printed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Paper {
    /// ISO A4, 210 by 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 by 11 inches.
    Letter,
}

impl Paper {
    /// Width and height in points.
    fn size(self) -> (f64, f64) {
        match self {
            Paper::A4 => (595.28, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// Where a booklet's solutions go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Solutions {
    /// On the last pages, after every puzzle.
    #[default]
    Back,
    /// Nowhere.
    None,
}

/// How a booklet is laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Booklet {
    /// Puzzles on a page: 1, 2, 4 or 6 (any other count is taken as the next of these
    /// up, at most 6).
    pub per_page: usize,
    /// The paper.
    pub paper: Paper,
    /// Bigger digits, captions and page numbers, heavier lines.
    pub large_print: bool,
    /// Where the solutions go.
    pub solutions: Solutions,
    /// The heading of the puzzle pages.
    pub title: String,
}

impl Default for Booklet {
    fn default() -> Self {
        Booklet {
            per_page: 4,
            paper: Paper::A4,
            large_print: false,
            solutions: Solutions::Back,
            title: "Sudoku".to_owned(),
        }
    }
}

/// One puzzle of a booklet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookletPuzzle {
    /// The puzzle: givens, rules (its entries and candidates are drawn too).
    pub puzzle: BoardPicture,
    /// Its solution, row-major.
    pub solution: Vec<u8>,
    /// What follows its number in its caption, such as "Medium, rating 3.4"; may be empty.
    pub caption: String,
}

impl BookletPuzzle {
    /// A generated classic puzzle, captioned with its difficulty and rating.
    pub fn of_generated(made: &Generated) -> BookletPuzzle {
        BookletPuzzle {
            puzzle: BoardPicture {
                size: 9,
                givens: made.puzzle.cells().to_vec(),
                entries: Vec::new(),
                candidates: Vec::new(),
                rules: Rules::default(),
            },
            solution: made.solution.cells().to_vec(),
            caption: grade_caption(made.grade.difficulty, made.grade.rating),
        }
    }
}

/// Columns and rows of boards on a page holding `per_page`.
fn grid_of(per_page: usize) -> (usize, usize) {
    match per_page {
        0 | 1 => (1, 1),
        2 => (1, 2),
        3 | 4 => (2, 2),
        _ => (2, 3),
    }
}

fn slots(per_page: usize) -> usize {
    let (columns, rows) = grid_of(per_page);
    columns * rows
}

/// Solutions are printed smaller than the puzzles: six to a page, four in large print.
fn solutions_per_page(options: &Booklet) -> usize {
    if options.large_print { 4 } else { 6 }
}

/// The pages a booklet of `count` puzzles has: the puzzle pages, then (with solutions at
/// the back) the solution pages.
pub fn booklet_page_count(count: usize, options: &Booklet) -> usize {
    let puzzles = count.div_ceil(slots(options.per_page));
    match options.solutions {
        Solutions::Back => puzzles + count.div_ceil(solutions_per_page(options)),
        Solutions::None => puzzles,
    }
}

/// The booklet of `puzzles`, numbered from 1 in order, as PDF bytes: the same puzzles and
/// options give the same bytes.
///
/// # Errors
/// [`PrintError`] when the PDF cannot be written.
pub fn booklet(puzzles: &[BookletPuzzle], options: &Booklet) -> Result<Vec<u8>, PrintError> {
    let total = booklet_page_count(puzzles.len(), options);
    let mut pages = Vec::with_capacity(total);
    let per_page = slots(options.per_page);
    for (index, chunk) in puzzles.chunks(per_page).enumerate() {
        let boards: Vec<(usize, &BoardPicture, String)> = chunk
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let number = index * per_page + i + 1;
                let caption = if p.caption.is_empty() {
                    format!("Puzzle {number}")
                } else {
                    format!("Puzzle {number} · {}", p.caption)
                };
                (number, &p.puzzle, caption)
            })
            .collect();
        pages.push(page(
            &options.title,
            &boards,
            options.per_page,
            pages.len() + 1,
            total,
            options,
        ));
    }
    if options.solutions == Solutions::Back {
        let solved: Vec<BoardPicture> = puzzles
            .iter()
            .map(|p| BoardPicture {
                entries: p.solution.clone(),
                candidates: Vec::new(),
                ..p.puzzle.clone()
            })
            .collect();
        let per_page = solutions_per_page(options);
        for (index, chunk) in solved.chunks(per_page).enumerate() {
            let boards: Vec<(usize, &BoardPicture, String)> = chunk
                .iter()
                .enumerate()
                .map(|(i, board)| {
                    let number = index * per_page + i + 1;
                    (number, board, format!("Solution {number}"))
                })
                .collect();
            pages.push(page(
                "Solutions",
                &boards,
                per_page,
                pages.len() + 1,
                total,
                options,
            ));
        }
    }
    svgs_to_pdf(&pages)
}

/// One page's SVG, in points: `heading` at the top, the `boards` with their captions in a
/// grid for `per_page`, "Page n of total" at the foot.
fn page(
    heading: &str,
    boards: &[(usize, &BoardPicture, String)],
    per_page: usize,
    number: usize,
    total: usize,
    options: &Booklet,
) -> String {
    let (width, height) = options.paper.size();
    let scale = if options.large_print { 1.3 } else { 1.0 };
    let margin = 42.0;
    let heading_size = 16.0 * scale;
    let caption_size = 10.5 * scale;
    let footer_size = 10.0 * scale;
    let gap = 22.0;
    let top = margin + heading_size * 1.8;
    let bottom = height - margin - footer_size * 1.8;
    let (columns, rows) = grid_of(per_page);
    let slot_width = (width - 2.0 * margin - gap * (columns as f64 - 1.0)) / columns as f64;
    let slot_height = (bottom - top - gap * (rows as f64 - 1.0)) / rows as f64;
    let caption_room = caption_size * 1.7;
    let side = slot_width.min(slot_height - caption_room);
    let weight = if options.large_print {
        Weight::Large
    } else {
        Weight::Regular
    };
    let mut body = String::new();
    let fitted = fitting_size(heading, heading_size, width - 2.0 * margin);
    let _ = write!(
        body,
        "<text class=\"heading\" x=\"{margin}\" y=\"{:.2}\" font-size=\"{fitted:.2}\" fill=\"#000000\">{}</text>",
        margin + heading_size,
        escape(heading)
    );
    for (slot, (_, board, caption)) in boards.iter().enumerate() {
        let (column, row) = (slot % columns, slot / columns);
        let x = margin + column as f64 * (slot_width + gap) + (slot_width - side) / 2.0;
        let y = top + row as f64 * (slot_height + gap) + (slot_height - caption_room - side) / 2.0;
        let _ = write!(
            body,
            "<text class=\"caption\" x=\"{x:.2}\" y=\"{:.2}\" font-size=\"{caption_size:.2}\" fill=\"#000000\">{}</text>",
            y + caption_size,
            escape(caption)
        );
        let k = side / (CELL * board.size as f64);
        let _ = write!(
            body,
            "<g transform=\"translate({x:.2} {:.2}) scale({k:.5})\">",
            y + caption_room
        );
        draw_board(&mut body, board, weight);
        body.push_str("</g>");
    }
    let _ = write!(
        body,
        "<text class=\"page-number\" x=\"{:.2}\" y=\"{:.2}\" font-size=\"{footer_size:.2}\" text-anchor=\"middle\" fill=\"#000000\">Page {number} of {total}</text>",
        width / 2.0,
        height - margin
    );
    document(&body, width, height, width)
}

/// The caption of a graded puzzle after its number: "Medium, rating 3.4".
pub fn grade_caption(difficulty: Difficulty, rating: Rating) -> String {
    let name = difficulty.as_str();
    let mut chars = name.chars();
    let capitalised: String = chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    format!("{capitalised}, rating {rating}")
}
