#![allow(dead_code)] // The training draws into warped grids, the test into photos.
//! Pencil marks drawn into a grid's cells as a player writes them: a few small candidate
//! digits, in the places of a phone's keypad or in a row along the cell's edges, in one hand
//! for the whole grid. The training draws them into the warped grids of its photos; the test
//! of photos with marks draws them into the photos themselves, in a face the training never
//! saw.

use ab_glyph::{Font, FontVec, PxScale};
use image::{GrayImage, RgbImage};
use imageproc::geometric_transformations::Projection;

use sudoku_scan::{Cell, Kind, Limits, Scanner};

use crate::dataset::Photo;
use crate::random::Random;

/// The side, in pixels, of the square one cell's marks are drawn on before they are laid
/// into an image: finer than any cell of a photo.
pub(crate) const RASTER: usize = 96;

/// Where the digits of one cell's marks come from.
pub(crate) enum Glyphs<'a> {
    /// A typeface.
    Face(&'a FontVec),
    /// Handwritten digits, each its cell's ink on the network's 32-pixel square (index 0 is
    /// digit 1).
    Hand(&'a [Vec<[f32; 1024]>; 9]),
}

/// How one player writes the marks of a grid.
pub(crate) struct Hand<'a> {
    pub(crate) glyphs: Glyphs<'a>,
    /// A mark's height, as a share of the cell's side.
    pub(crate) height: f64,
    /// The keypad's places (else a row along the top edge, then along the bottom).
    pub(crate) keypad: bool,
    /// How dark the strokes are, 0 to 1 of the way from the paper to the darkest ink.
    pub(crate) strength: f64,
}

/// The coverage (0 to 1) of the marks of `digits` (bits 1 to 9) over one cell, [`RASTER`]
/// pixels a side, row by row.
pub(crate) fn draw_marks(digits: u16, hand: &Hand, random: &mut Random) -> Vec<f32> {
    let mut raster = vec![0.0_f32; RASTER * RASTER];
    let side = RASTER as f64;
    let height = hand.height * side;
    let list: Vec<u8> = (1..=9).filter(|d| digits & (1 << d) != 0).collect();
    // Snyder's notation: along the top edge, the rest along the bottom one.
    let per_edge = list.len().div_ceil(2).max(1);
    for (place, &digit) in list.iter().enumerate() {
        let (x, y) = if hand.keypad {
            let slot = f64::from(digit - 1);
            (
                (slot % 3.0 + 0.5) * side / 3.0,
                ((slot / 3.0).floor() + 0.5) * side / 3.0,
            )
        } else {
            let (row, column) = (place / per_edge, place % per_edge);
            let step = (side - height) / per_edge as f64;
            (
                height * 0.6 + step * (column as f64 + 0.5),
                if row == 0 {
                    height * 0.75
                } else {
                    side - height * 0.75
                },
            )
        };
        let jitter = side * 0.03;
        let centre = (x + random.normal() * jitter, y + random.normal() * jitter);
        let this_height = height * random.range(0.9, 1.1);
        match &hand.glyphs {
            Glyphs::Face(face) => draw_face_digit(&mut raster, face, digit, centre, this_height),
            Glyphs::Hand(samples) => {
                let written = &samples[usize::from(digit - 1)];
                if !written.is_empty() {
                    let sample = &written[random.below(written.len())];
                    draw_written_digit(&mut raster, sample, centre, this_height);
                }
            }
        }
    }
    raster
}

fn draw_face_digit(raster: &mut [f32], face: &FontVec, digit: u8, centre: (f64, f64), height: f64) {
    let glyph = face
        .glyph_id(char::from(b'0' + digit))
        .with_scale(PxScale::from((height / 0.73) as f32));
    let Some(outline) = face.outline_glyph(glyph) else {
        return;
    };
    let bounds = outline.px_bounds();
    let left = centre.0 - f64::from(bounds.width()) / 2.0;
    let top = centre.1 - f64::from(bounds.height()) / 2.0;
    outline.draw(|x, y, coverage| {
        let (px, py) = (left as i64 + i64::from(x), top as i64 + i64::from(y));
        if (0..RASTER as i64).contains(&px) && (0..RASTER as i64).contains(&py) {
            let at = &mut raster[py as usize * RASTER + px as usize];
            *at = at.max(coverage);
        }
    });
}

/// A handwritten digit's ink, cut to its strokes and scaled to `height`, centred on `centre`.
fn draw_written_digit(raster: &mut [f32], sample: &[f32; 1024], centre: (f64, f64), height: f64) {
    let ink = |x: usize, y: usize| sample[y * 32 + x];
    let inked: Vec<(usize, usize)> = (2..30)
        .flat_map(|y| (2..30).map(move |x| (x, y)))
        .filter(|&(x, y)| ink(x, y) > 0.2)
        .collect();
    let Some(&(first_x, first_y)) = inked.first() else {
        return;
    };
    let (mut left, mut right, mut top, mut bottom) = (first_x, first_x, first_y, first_y);
    for &(x, y) in &inked {
        left = left.min(x);
        right = right.max(x);
        top = top.min(y);
        bottom = bottom.max(y);
    }
    let scale = height / (bottom - top + 1) as f64;
    let width = (right - left + 1) as f64 * scale;
    let (x0, y0) = (centre.0 - width / 2.0, centre.1 - height / 2.0);
    for py in y0.max(0.0) as usize..((y0 + height).ceil() as usize).min(RASTER) {
        for px in x0.max(0.0) as usize..((x0 + width).ceil() as usize).min(RASTER) {
            let sx = left as f64 + (px as f64 + 0.5 - x0) / scale - 0.5;
            let sy = top as f64 + (py as f64 + 0.5 - y0) / scale - 0.5;
            let value = bilinear(|x, y| ink(x.min(31), y.min(31)), sx, sy);
            let at = &mut raster[py * RASTER + px];
            *at = at.max(value);
        }
    }
}

/// The value at a point between whole pixels, from the four around it.
fn bilinear(get: impl Fn(usize, usize) -> f32, x: f64, y: f64) -> f32 {
    let (x, y) = (x.max(0.0), y.max(0.0));
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = ((x - x0) as f32, (y - y0) as f32);
    let (x0, y0) = (x0 as usize, y0 as usize);
    get(x0, y0) * (1.0 - fx) * (1.0 - fy)
        + get(x0 + 1, y0) * fx * (1.0 - fy)
        + get(x0, y0 + 1) * (1.0 - fx) * fy
        + get(x0 + 1, y0 + 1) * fx * fy
}

/// The coverage of a cell's marks at a point of the cell (0 to 1 each way).
fn coverage_at(raster: &[f32], u: f64, v: f64) -> f32 {
    let last = RASTER - 1;
    bilinear(
        |x, y| raster[y.min(last) * RASTER + x.min(last)],
        u * RASTER as f64 - 0.5,
        v * RASTER as f64 - 0.5,
    )
}

/// Lays marks into a grid warped square (cells of `cell` pixels), darkening each pixel towards
/// `ink` by the marks' coverage times `strength`; each pixel takes the mean of the coverage
/// over it, as a camera would.
pub(crate) fn lay_into_warped(
    warped: &mut GrayImage,
    cell_index: usize,
    raster: &[f32],
    cell: u32,
    ink: f32,
    strength: f64,
) {
    let (row, col) = ((cell_index / 9) as u32, (cell_index % 9) as u32);
    let block = RASTER / cell as usize;
    for y in 0..cell {
        for x in 0..cell {
            let mut sum = 0.0;
            for dy in 0..block {
                for dx in 0..block {
                    let (rx, ry) = (x as usize * block + dx, y as usize * block + dy);
                    sum += raster[ry.min(RASTER - 1) * RASTER + rx.min(RASTER - 1)];
                }
            }
            let coverage = f64::from(sum) / (block * block) as f64;
            let pixel = warped.get_pixel_mut(col * cell + x, row * cell + y);
            let level = f64::from(pixel[0]);
            pixel[0] = (level - strength * coverage * (level - f64::from(ink)).max(0.0)) as u8;
        }
    }
}

/// A pencil's graphite, in RGB.
const GRAPHITE: [f64; 3] = [70.0, 70.0, 78.0];

/// Lays each cell's marks into a photo whose grid has `corners` (top-left, top-right,
/// bottom-right, bottom-left), in graphite grey: each pixel is darkened by the mean coverage
/// of four points of it.
pub(crate) fn lay_into_photo(
    photo: &mut RgbImage,
    corners: &[(f32, f32); 4],
    rasters: &[Option<Vec<f32>>],
    strength: f64,
) {
    let grid = [(0.0, 0.0), (9.0, 0.0), (9.0, 9.0), (0.0, 9.0)];
    let Some(to_photo) = Projection::from_control_points(grid, *corners) else {
        return;
    };
    let to_grid = to_photo.invert();
    for (cell_index, raster) in rasters.iter().enumerate() {
        let Some(raster) = raster else { continue };
        let (row, col) = ((cell_index / 9) as f32, (cell_index % 9) as f32);
        let quad = [
            (col, row),
            (col + 1.0, row),
            (col + 1.0, row + 1.0),
            (col, row + 1.0),
        ]
        .map(|point| to_photo * point);
        let xs = quad.map(|(x, _)| x);
        let ys = quad.map(|(_, y)| y);
        let low = |values: [f32; 4]| values.into_iter().fold(f32::MAX, f32::min).max(0.0) as u32;
        let high = |values: [f32; 4], limit: u32| {
            (values.into_iter().fold(0.0, f32::max).ceil() as u32).min(limit)
        };
        for y in low(ys)..high(ys, photo.height()) {
            for x in low(xs)..high(xs, photo.width()) {
                let mut coverage = 0.0;
                for (ox, oy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                    let (gx, gy) = to_grid * (x as f32 + ox, y as f32 + oy);
                    let (u, v) = (f64::from(gx - col), f64::from(gy - row));
                    if (0.0..1.0).contains(&u) && (0.0..1.0).contains(&v) {
                        coverage += f64::from(coverage_at(raster, u, v)) / 4.0;
                    }
                }
                if coverage > 0.0 {
                    let pixel = photo.get_pixel_mut(x, y);
                    for (channel, graphite) in pixel.0.iter_mut().zip(GRAPHITE) {
                        let level = f64::from(*channel);
                        *channel =
                            (level - strength * coverage * (level - graphite).max(0.0)) as u8;
                    }
                }
            }
        }
    }
}

/// The digits no given of a cell's row, column or box holds, as bits 1 to 9.
pub(crate) fn open_digits(givens: &[u8], cell: usize) -> u16 {
    let (row, col) = (cell / 9, cell % 9);
    let mut left = 0b11_1111_1110;
    for (other, &given) in givens.iter().enumerate() {
        let (r, c) = (other / 9, other % 9);
        if r == row || c == col || (r / 3, c / 3) == (row / 3, col / 3) {
            left &= !(1 << given);
        }
    }
    left
}

/// The faces of the marks drawn into photos to test the scanner (`data/fonts/comic-neue`):
/// a casual hand the training never saw.
pub(crate) fn test_faces() -> Vec<FontVec> {
    let folder =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/fonts/comic-neue");
    [
        "ComicNeue-Regular.otf",
        "ComicNeue-Light.otf",
        "ComicNeue-Italic.otf",
    ]
    .iter()
    .map(|name| {
        let path = folder.join(name);
        let bytes =
            std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        FontVec::try_from_vec(bytes).expect("a committed face parses")
    })
    .collect()
}

/// A photo with a player's pencil marks drawn in: every open cell (no digit in `digits`)
/// with two or more digits left by them gets all those digits as marks, in one of `faces`, of
/// one height, darkness and layout for the photo, along the grid at `corners`; JPEG at
/// quality 92. Also the marks of each cell (bits 1 to 9, 0 for none).
pub(crate) fn photo_with_marks(
    photo: &image::DynamicImage,
    digits: &[u8; 81],
    corners: &[(f32, f32); 4],
    faces: &[FontVec],
    random: &mut Random,
) -> (Vec<u8>, [u16; 81]) {
    let hand = Hand {
        glyphs: Glyphs::Face(&faces[random.below(faces.len())]),
        height: random.range(0.2, 0.3),
        keypad: random.unit() < 0.7,
        strength: random.range(0.5, 0.9),
    };
    let marks: [u16; 81] = std::array::from_fn(|cell| match open_digits(digits, cell) {
        open if digits[cell] == 0 && open.count_ones() >= 2 => open,
        _ => 0,
    });
    let rasters: Vec<Option<Vec<f32>>> = marks
        .iter()
        .map(|&open| (open != 0).then(|| draw_marks(open, &hand, random)))
        .collect();
    let mut rgb = photo.to_rgb8();
    lay_into_photo(&mut rgb, corners, &rasters, hand.strength);
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut std::io::Cursor::new(&mut bytes), 92)
        .encode_image(&rgb)
        .expect("an RGB image encodes");
    (bytes, marks)
}

/// Photos, grids whose givens all read right and no other digit (as `scan_eval` counts a v2
/// grid right), cells of marks, those read
/// as candidates, those read as a digit, other cells read as candidates.
pub(crate) type MarksTally = (usize, usize, usize, usize, usize, usize);

/// The photos (of v2 splits) with pencil marks drawn in along the grid the scanner finds in
/// each, read by the scanner.
pub(crate) fn scan_with_marks(scanner: &Scanner, photos: &[Photo]) -> MarksTally {
    let read = |bytes: &[u8]| scanner.scan(bytes, &Limits::default()).unwrap();
    tally_with_marks(
        photos,
        |bytes| read(bytes).corners,
        |bytes| vec![read(bytes).cells],
    )[0]
}

/// Adds one reading of a grid with `givens` to `tally`, the cells for which `marked` holds
/// being those drawn with marks.
pub(crate) fn count_reading(
    tally: &mut MarksTally,
    cells: &[Cell],
    givens: &[u8],
    marked: impl Fn(usize) -> bool,
) {
    tally.0 += 1;
    tally.1 += usize::from(
        cells
            .iter()
            .zip(givens)
            .all(|(read, &given)| read.digit == (given != 0).then_some(given)),
    );
    for (cell, read) in cells.iter().enumerate() {
        let as_marks = read.kind == Kind::Candidates;
        if marked(cell) {
            tally.2 += 1;
            tally.3 += usize::from(as_marks);
            tally.4 += usize::from(read.digit.is_some());
        } else {
            tally.5 += usize::from(as_marks);
        }
    }
}

/// A sheet of `givens` drawn by the service's renderer `width` pixels wide, with pencil marks
/// in each open cell of at least `least_marks` candidates, as a PNG; and those marks (bits 1
/// to 9 a cell, 0 for none).
pub(crate) fn sheet_with_marks(givens: &[u8], least_marks: u32, width: u32) -> (Vec<u8>, Vec<u32>) {
    let candidates: Vec<u32> = (0..81)
        .map(|cell| match u32::from(open_digits(givens, cell)) {
            open if givens[cell] == 0 && open.count_ones() >= least_marks => open,
            _ => 0,
        })
        .collect();
    let picture = sudoku_print::BoardPicture {
        size: 9,
        givens: givens.to_vec(),
        entries: Vec::new(),
        candidates: candidates.clone(),
        rules: sudoku::variant::Rules::default(),
    };
    let svg = sudoku_print::sheet_svg(&picture, None, sudoku_print::Show::Puzzle, None, width);
    (
        sudoku_print::svg_to_png(&svg).expect("a classic sheet draws"),
        candidates,
    )
}

/// [`scan_with_marks`] with the grid's corners found by `corners` and each photo with marks
/// read by `read` in one or more ways: a tally for each way.
pub(crate) fn tally_with_marks(
    photos: &[Photo],
    corners: impl Fn(&[u8]) -> [(f32, f32); 4],
    read: impl Fn(&[u8]) -> Vec<Vec<Cell>>,
) -> Vec<MarksTally> {
    let faces = test_faces();
    let mut random = Random(0x05EE_D0F3_A4C5);
    let mut tallies: Vec<MarksTally> = Vec::new();
    for photo in photos {
        let bytes = std::fs::read(&photo.path).unwrap();
        let image = image::load_from_memory(&bytes).unwrap();
        let (with_marks, marks) =
            photo_with_marks(&image, &photo.digits, &corners(&bytes), &faces, &mut random);
        let givens = photo.givens.expect("a v2 photo's digits are its givens");
        let readings = read(&with_marks);
        tallies.resize(readings.len(), (0, 0, 0, 0, 0, 0));
        for (tally, cells) in tallies.iter_mut().zip(readings) {
            count_reading(tally, &cells, &givens, |cell| marks[cell] != 0);
        }
    }
    tallies
}
