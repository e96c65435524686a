use image::GrayImage;
use imageproc::geometric_transformations::{Interpolation, Projection, warp_into};

use crate::CELL_SIDE;
use crate::grid::Corners;

/// The longest side of the image the grid is looked for in.
const WORKING_SIDE: u32 = 1024;

/// The photo at a size where the grid is found and warped: large photos are scaled down
/// (a 12 MP photo's detail is noise at this stage), small ones kept. Also the factor that
/// takes the working image's pixels back to the photo's.
pub fn working_image(image: &GrayImage) -> (GrayImage, f32) {
    let (width, height) = image.dimensions();
    let longest = width.max(height);
    if longest <= WORKING_SIDE {
        return (image.clone(), 1.0);
    }
    let scale = longest as f32 / WORKING_SIDE as f32;
    let size = |side: u32| ((side as f32 / scale).round() as u32).max(1);
    let small = image::imageops::resize(
        image,
        size(width),
        size(height),
        image::imageops::FilterType::Triangle,
    );
    (small, scale)
}

/// The side of the warped grid in pixels.
const GRID_SIDE: u32 = 9 * CELL_SIDE as u32;

/// The grid seen from straight above: the quadrilateral at `corners` mapped onto a square of
/// nine cells of [`CELL_SIDE`] pixels.
pub fn warp_grid(image: &GrayImage, corners: &Corners) -> GrayImage {
    let side = GRID_SIDE as f32;
    let square = [(0.0, 0.0), (side, 0.0), (side, side), (0.0, side)];
    let mut out = GrayImage::from_pixel(GRID_SIDE, GRID_SIDE, image::Luma([255]));
    // Degenerate corners (three in a line) have no projection: the grid stays blank.
    if let Some(projection) = Projection::from_control_points(*corners, square) {
        warp_into(
            image,
            &projection,
            Interpolation::Bilinear,
            image::Luma([255]),
            &mut out,
        );
    }
    out
}

/// The network's input for each of the 81 cells, row by row: ink as 0..1 on a
/// [`CELL_SIDE`]-pixel square, measured against the cell's own paper brightness (so that a
/// shadow across the grid does not read as ink) and scaled by the grid's contrast.
pub fn cell_inputs(warped: &GrayImage) -> Vec<[f32; CELL_SIDE * CELL_SIDE]> {
    let mut levels: Vec<u8> = warped.pixels().map(|pixel| pixel[0]).collect();
    levels.sort_unstable();
    let dark = f32::from(levels[levels.len() / 50]);
    let light = f32::from(levels[levels.len() * 9 / 10]);
    let contrast = (light - dark).max(24.0);
    let side = CELL_SIDE as u32;
    (0..81)
        .map(|index| {
            let (row, col) = (index / 9, index % 9);
            let mut cell = Vec::with_capacity(CELL_SIDE * CELL_SIDE);
            for y in 0..side {
                for x in 0..side {
                    cell.push(warped.get_pixel(col * side + x, row * side + y)[0]);
                }
            }
            let mut sorted = cell.clone();
            sorted.sort_unstable();
            let paper = f32::from(sorted[sorted.len() * 3 / 4]);
            let mut input = [0.0; CELL_SIDE * CELL_SIDE];
            for (value, level) in input.iter_mut().zip(&cell) {
                *value = ((paper - f32::from(*level)) / contrast).clamp(0.0, 1.0);
            }
            input
        })
        .collect()
}
