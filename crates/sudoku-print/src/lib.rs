//! Pictures of sudoku boards and printable booklets.
//!
//! A board is drawn as SVG ([`sheet_svg`]), with its rules (boxes or jigsaw regions,
//! killer cages and their sums, diagonals, extra regions, thermometers, odd and even
//! cells), its givens in black, entries and solutions in blue, and pencil marks in each
//! cell's corner grid. The SVG is turned into a PNG by resvg ([`svg_to_png`]) and into a
//! PDF by krilla ([`svgs_to_pdf`]), both with the DejaVu Sans font compiled in, so that
//! every machine draws the same picture and every PDF carries its font. A [`booklet`] is
//! pages of numbered puzzles with their solutions at the back, as one PDF.
//!
//! Pure and synchronous: no I/O beyond the bytes returned, no clock, no randomness, so the
//! same input gives the same bytes.

mod board;
mod booklet;
mod output;
mod sheet;

pub use board::{BoardPicture, CELL, Weight, regions_of};
pub use booklet::{
    Booklet, BookletPuzzle, Paper, Solutions, booklet, booklet_page_count, grade_caption,
};
pub use output::{PrintError, svg_to_png, svgs_to_pdf};
pub use sheet::{Show, sheet_svg};

/// DejaVu Sans 2.37, from Debian's fonts-dejavu-core: the Bitstream Vera licence, its
/// changes in the public domain (`fonts/LICENSE`).
pub const FONT: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// The family every text of a picture asks for: the font compiled in.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// Escapes `text` for an XML text node or attribute.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0.
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
