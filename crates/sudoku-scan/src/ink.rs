//! The colour of each cell's ink, to tell a player's pen from the printed digits: newspapers
//! print their givens in black, and players often fill in with a blue or red pen, which the
//! grey levels the network sees cannot show.

use image::RgbImage;
use imageproc::geometric_transformations::Projection;

use crate::grid::Corners;

/// The points sampled across each cell, each way.
const SAMPLES: usize = 14;

/// The part of a cell sampled, from each side: the grid's lines stay out.
const MARGIN: f32 = 0.15;

/// The least drop in brightness from a cell's paper to its darkest ink for the cell to have
/// ink worth a colour, in levels of 255.
const LEAST_CONTRAST: f32 = 24.0;

/// The fewest ink samples a cell needs for a colour.
const LEAST_INK: usize = 4;

/// The colour of the ink in each of the 81 cells of the grid at `corners` (in the photo's
/// pixels), row by row, as its two chroma components (blue and red difference from grey,
/// in levels of 255) after balancing each cell's white to its paper, so that neither the
/// light's tint nor a shadow colours black ink. `None` for a cell with too little ink.
pub fn ink_colours(photo: &RgbImage, corners: &Corners) -> Vec<Option<[f32; 2]>> {
    let unit = [(0.0, 0.0), (9.0, 0.0), (9.0, 9.0), (0.0, 9.0)];
    let Some(projection) = Projection::from_control_points(unit, *corners) else {
        return vec![None; 81];
    };
    let (width, height) = photo.dimensions();
    let mut samples = Vec::with_capacity(SAMPLES * SAMPLES);
    let along = |k: usize| MARGIN + (1.0 - 2.0 * MARGIN) * (k as f32 + 0.5) / SAMPLES as f32;
    (0..81)
        .map(|index| {
            let (row, col) = ((index / 9) as f32, (index % 9) as f32);
            samples.clear();
            for i in 0..SAMPLES {
                for j in 0..SAMPLES {
                    let (x, y) = projection * (col + along(j), row + along(i));
                    if x < 0.0 || y < 0.0 || x >= width as f32 || y >= height as f32 {
                        continue;
                    }
                    let pixel = photo.get_pixel(x as u32, y as u32).0;
                    samples.push(pixel.map(f32::from));
                }
            }
            cell_ink_colour(&samples)
        })
        .collect()
}

/// The balanced chroma of the ink among one cell's samples (see [`ink_colours`]).
fn cell_ink_colour(samples: &[[f32; 3]]) -> Option<[f32; 2]> {
    if samples.len() < SAMPLES * SAMPLES / 2 {
        return None;
    }
    let luma = |[r, g, b]: [f32; 3]| 0.299 * r + 0.587 * g + 0.114 * b;
    let mut levels: Vec<f32> = samples.iter().map(|&s| luma(s)).collect();
    levels.sort_by(f32::total_cmp);
    let paper_level = levels[levels.len() * 3 / 4];
    let darkest = levels[0];
    if paper_level - darkest < LEAST_CONTRAST {
        return None;
    }
    let paper_samples: Vec<[f32; 3]> = samples
        .iter()
        .copied()
        .filter(|&s| luma(s) >= paper_level)
        .collect();
    let mut paper = [0.0_f32; 3];
    for sample in &paper_samples {
        for (sum, value) in paper.iter_mut().zip(sample) {
            *sum += value / paper_samples.len() as f32;
        }
    }
    if paper.iter().any(|&channel| channel < 1.0) {
        return None;
    }
    let ink_level = f32::midpoint(paper_level, darkest);
    let (mut sum, mut count) = ([0.0_f32; 2], 0);
    for &sample in samples.iter().filter(|&&s| luma(s) <= ink_level) {
        // Each channel as a share of the paper's: white paper at 255 whatever the light.
        let balanced: [f32; 3] = std::array::from_fn(|c| sample[c] / paper[c] * 255.0);
        let grey = luma(balanced);
        sum[0] += balanced[2] - grey;
        sum[1] += balanced[0] - grey;
        count += 1;
    }
    (count >= LEAST_INK).then(|| sum.map(|s| s / count as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 9x9 grid of 20-pixel cells on paper tinted yellow, with a black digit-sized blot in
    /// cell 0 and a red one in cell 1.
    fn photo() -> (RgbImage, Corners) {
        let paper = image::Rgb([230, 215, 160]);
        let mut photo = RgbImage::from_pixel(180, 180, paper);
        for y in 6..14 {
            for x in 6..14 {
                photo.put_pixel(x, y, image::Rgb([50, 46, 35]));
                photo.put_pixel(20 + x, y, image::Rgb([190, 40, 30]));
            }
        }
        (
            photo,
            [(0.0, 0.0), (180.0, 0.0), (180.0, 180.0), (0.0, 180.0)],
        )
    }

    #[test]
    fn black_ink_on_tinted_paper_is_grey_and_a_red_pen_is_red() {
        let (photo, corners) = photo();
        let colours = ink_colours(&photo, &corners);
        let [blue, red] = colours[0].expect("the black blot is ink");
        assert!(blue.abs() < 5.0 && red.abs() < 5.0, "{blue} {red}");
        let [blue, red] = colours[1].expect("the red blot is ink");
        assert!(red > 40.0 && blue < 0.0, "{blue} {red}");
        assert_eq!(colours[2], None, "a blank cell has no ink");
    }
}
