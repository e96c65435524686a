//! Reads a Sudoku from a photo: the image is decoded within limits, the grid is found
//! (contours, the largest convex quadrilateral, a fallback from the extreme points of the
//! biggest blob when the border is broken), warped to a square, every cell is classified
//! by a small convolutional network, and the digits are chosen as the most likely reading
//! that breaks no rule of Sudoku, with the solution of the puzzle read as a prior; the
//! colour of each cell's ink helps tell a player's pen from the print, and cells of pencil
//! marks are told by the network (a class of their own) and by the shape of their ink.
//!
//! The crate is pure and synchronous: bytes in, a [`Scan`] out.

mod decode;
mod error;
mod grid;
mod ink;
mod marks;
mod model;
mod reading;
mod warp;

pub use decode::{Limits, Photo, decode, decode_photo};
pub use error::ScanError;
pub use grid::{Corners, find_grid};
pub use ink::ink_colours;
pub use model::{CELL_SIDE, CLASSES, CellNet, Class, MARKS, WIDTH};
pub use reading::{Cell, Kind, read_board, read_board_with_ink};
pub use warp::{cell_inputs, warp_grid, working_image};

/// What a photo reads as.
#[derive(Debug, Clone, PartialEq)]
pub struct Scan {
    /// The 81 cells, row by row.
    pub cells: Vec<Cell>,
    /// The grid's corners in the photo's pixels: top-left, top-right, bottom-right, bottom-left.
    pub corners: Corners,
}

impl Scan {
    /// The printed givens as an 81-character line, `.` elsewhere.
    pub fn givens_line(&self) -> String {
        self.line_of(Kind::Given)
    }

    /// The handwritten entries as an 81-character line, `.` elsewhere.
    pub fn entries_line(&self) -> String {
        self.line_of(Kind::Entry)
    }

    fn line_of(&self, kind: Kind) -> String {
        self.cells
            .iter()
            .map(|cell| match cell.digit {
                Some(digit) if cell.kind == kind => char::from(b'0' + digit),
                _ => '.',
            })
            .collect()
    }
}

/// The cells of a grid from the network's `probabilities` for them, their `inputs` (the ink
/// the network saw) and the colour of their ink ([`ink_colours`]): the digits by
/// [`read_board_with_ink`], where a cell the network reads as pencil marks, or whose ink
/// has their shape (several small strokes and none of a digit's height), holds no digit for
/// the rules and reads as [`Kind::Candidates`].
///
/// # Panics
/// If the three do not hold 81 cells each.
pub fn read_cells(
    probabilities: &[[f32; CLASSES]],
    inputs: &[[f32; CELL_SIDE * CELL_SIDE]],
    inks: &[Option<[f32; 2]>],
) -> Vec<Cell> {
    assert_eq!(inputs.len(), 81, "a board has 81 cells");
    let mut probabilities = probabilities.to_vec();
    for (p, input) in probabilities.iter_mut().zip(inputs) {
        if marks::is_pencil_marks(input) {
            *p = [0.0; CLASSES];
            p[MARKS] = 1.0;
        }
    }
    read_board_with_ink(&probabilities, inks)
}

/// A scanner: the cell classifier, loaded once and shared by every scan.
#[derive(Debug)]
pub struct Scanner {
    net: CellNet,
}

impl Scanner {
    /// The scanner with the committed model.
    ///
    /// # Panics
    /// Never in a build that passed its tests: the committed weights are checked by them.
    pub fn new() -> Self {
        Self::with_net(CellNet::committed())
    }

    /// A scanner with another classifier (a freshly trained one, to measure it).
    pub fn with_net(net: CellNet) -> Self {
        Self { net }
    }

    /// Reads the Sudoku in an encoded image (JPEG, PNG or WebP).
    ///
    /// # Errors
    /// [`ScanError`] when the bytes are no supported image, the image is too large, or no grid
    /// is found in it.
    pub fn scan(&self, bytes: &[u8], limits: &Limits) -> Result<Scan, ScanError> {
        let photo = decode_photo(bytes, limits)?;
        let (working, scale) = working_image(&photo.grey);
        let found = find_grid(&working)?;
        let warped = warp_grid(&working, &found);
        let inputs = cell_inputs(&warped);
        let probabilities = self.net.classify(&inputs);
        let corners = found.map(|(x, y)| (x * scale, y * scale));
        let step = photo.colour_step as f32;
        let inks = ink_colours(&photo.colour, &corners.map(|(x, y)| (x / step, y / step)));
        let cells = read_cells(&probabilities, &inputs, &inks);
        Ok(Scan { cells, corners })
    }
}

impl Default for Scanner {
    fn default() -> Self {
        Self::new()
    }
}
