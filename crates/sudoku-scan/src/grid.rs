use image::GrayImage;
use imageproc::contours::{BorderType, find_contours};
use imageproc::geometric_transformations::Projection;
use imageproc::geometry::{approximate_polygon_dp, arc_length, convex_hull};
use imageproc::integral_image::{integral_image, sum_image_pixels};
use imageproc::point::Point;

use crate::ScanError;

/// A grid's corners in pixels: top-left, top-right, bottom-right, bottom-left.
pub type Corners = [(f32, f32); 4];

/// How much darker than its neighbourhood's mean a pixel must be to count as ink.
const INK_CONTRAST: u32 = 8;

/// Points sampled along each line of a 9x9 grid to see whether an outline is ruled like one.
const SAMPLES: usize = 90;

/// Below this share of its length near ink, a side of the outline is taken for one that
/// missed the grid's border.
const WEAK_BORDER: f32 = 0.6;

/// The smallest share of the image a grid may cover.
const MIN_GRID_SHARE: f64 = 0.03;

/// Finds the Sudoku grid: the ink is separated from the paper by a threshold that follows
/// the local brightness (shadows), the outer contours of the ink are traced, and the grid
/// is among those whose convex hull is a plausible quadrilateral and that enclose cells
/// (holes): the one ruled most like a grid among the large ones ruled like one, else the
/// largest. When the hull is no clean quadrilateral (a broken or missing border), its
/// extreme points along the diagonals stand for the corners. When no contour qualifies, the
/// ink is thickened by a pixel and looked at again: in a blurred photo the thin lines break
/// up, and the cells run into each other until they are joined. An outline with a side off the
/// border (a corner the contour missed) has its corners moved until the grid's lines are on ink.
///
/// # Errors
/// [`ScanError::NoGridFound`] when no contour is large and square enough.
pub fn find_grid(image: &GrayImage) -> Result<Corners, ScanError> {
    let (width, height) = image.dimensions();
    if width < 32 || height < 32 {
        return Err(ScanError::NoGridFound);
    }
    let ink = ink_mask(image);
    let near = near_ink(&ink);
    let corners = grid_in(&ink, &near)
        .or_else(|| grid_in(&near, &near_ink(&near)))
        .ok_or(ScanError::NoGridFound)?;
    Ok(refine(&near, &corners))
}

/// The corners of the largest contour of `ink` that looks like a grid, if any; `near` marks
/// the pixels within a pixel of ink.
fn grid_in(ink: &GrayImage, near: &GrayImage) -> Option<Corners> {
    let (width, height) = ink.dimensions();
    let contours = find_contours::<i32>(ink);
    let mut holes = vec![0_usize; contours.len()];
    for contour in &contours {
        if contour.border_type == BorderType::Hole {
            if let Some(parent) = contour.parent {
                holes[parent] += 1;
            }
        }
    }
    let image_area = f64::from(width) * f64::from(height);
    let mut candidates: Vec<(f64, Corners)> = Vec::new();
    for (index, contour) in contours.iter().enumerate() {
        if contour.border_type != BorderType::Outer || contour.points.len() < 40 {
            continue;
        }
        // A grid's outline encloses the cells: blobs without holes are print or shadow.
        if holes[index] < 4 {
            continue;
        }
        let hull = convex_hull(contour.points.clone());
        let area = polygon_area(&hull);
        if area < MIN_GRID_SHARE * image_area || area > 0.98 * image_area {
            continue;
        }
        // The hull of a grid is nearly its quadrilateral; a blob's is not. A polygon fit
        // that cut off a corner (a corner of the border faded) gets a second chance from
        // the hull's extreme points.
        let fits = |corners: &Corners| {
            let quad_area = polygon_area(&corners.map(|(x, y)| Point::new(x as i32, y as i32)));
            quad_area >= 0.8 * area && plausible(corners)
        };
        let Some(corners) = [quadrilateral(&hull), extreme_points(&hull)]
            .into_iter()
            .find(fits)
        else {
            continue;
        };
        candidates.push((area, corners));
    }
    // A page's edge seen against a dark table can outdo the grid in size, but its inside is
    // not ruled in ninths: of the outlines ruled like a grid and near the largest of those
    // in size (a small ruled box elsewhere on the page is no rival), the one whose lines
    // carry the most ink. Without any ruled one, the largest.
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
    let ruled: Vec<(f64, f32, Corners)> = candidates
        .iter()
        .filter_map(|&(area, corners)| ruling(near, &corners).map(|on| (area, on, corners)))
        .collect();
    let rival_area = ruled.first().map_or(0.0, |(area, _, _)| 0.5 * area);
    ruled
        .iter()
        .filter(|(area, _, _)| *area >= rival_area)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(_, _, corners)| *corners)
        .or(candidates.first().map(|(_, corners)| *corners))
}

/// Whether the ink inside `corners` lies along the ten lines each way of a 9x9 grid, seen
/// through the perspective of the corners: enough of the points sampled on those lines are
/// near ink, and clearly more than points halfway between them, where only digits are. The
/// share on the lines when it does.
fn ruling(near: &GrayImage, corners: &Corners) -> Option<f32> {
    let on_lines = share_on_lines(near, corners, 0.0, SAMPLES)?;
    let between = share_on_lines(near, corners, 0.5, SAMPLES)?;
    (on_lines >= 0.4 && on_lines >= 1.8 * between).then_some(on_lines)
}

/// The share of points, `samples` a line, on the ten lines each way of a 9x9 grid through
/// `corners` (moved across by `offset` of a cell) that are near ink; none for degenerate
/// corners.
fn share_on_lines(near: &GrayImage, corners: &Corners, offset: f32, samples: usize) -> Option<f32> {
    let unit = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
    let projection = Projection::from_control_points(unit, *corners)?;
    let (width, height) = near.dimensions();
    let inked = |(x, y): (f32, f32)| {
        let (x, y) = (x.round(), y.round());
        x >= 0.0
            && y >= 0.0
            && x < width as f32
            && y < height as f32
            && near.get_pixel(x as u32, y as u32)[0] > 0
    };
    let mut hits = 0;
    let mut lines = 0;
    for line in 0..10 {
        let across = (line as f32 + offset) / 9.0;
        if across > 1.0 {
            continue;
        }
        lines += 1;
        for step in 0..samples {
            let along = (step as f32 + 0.5) / samples as f32;
            hits += usize::from(inked(projection * (along, across)));
            hits += usize::from(inked(projection * (across, along)));
        }
    }
    Some(hits as f32 / (2 * lines * samples) as f32)
}

/// The pixels within a pixel of ink (lines are thin, and corners a pixel or two off): the
/// ink's maximum over each 3x3 square, taken along rows and then along columns.
fn near_ink(ink: &GrayImage) -> GrayImage {
    let (width, height) = ink.dimensions();
    let (w, h) = (width as usize, height as usize);
    let source = ink.as_raw();
    let mut across = vec![0_u8; w * h];
    for (row, out) in source.chunks_exact(w).zip(across.chunks_exact_mut(w)) {
        for x in 0..w {
            out[x] = row[x.saturating_sub(1)]
                .max(row[x])
                .max(row[(x + 1).min(w - 1)]);
        }
    }
    let mut both = vec![0_u8; w * h];
    for y in 0..h {
        let (above, below) = (y.saturating_sub(1) * w, (y + 1).min(h - 1) * w);
        let here = y * w;
        for x in 0..w {
            both[here + x] = across[above + x]
                .max(across[here + x])
                .max(across[below + x]);
        }
    }
    GrayImage::from_raw(width, height, both).unwrap_or_else(|| ink.clone())
}

/// When a side of the outline is not inked along most of its length (a corner the outline
/// missed, its border broken off the rest of the ink), the corners moved one at a time, in
/// ever smaller steps from a cell down to a sixteenth, while that puts more of the grid's
/// lines on ink. Outlines inked all round are kept: the search costs a few milliseconds, and
/// on a page that bends it pulls a true border inwards onto the inner lines.
fn refine(near: &GrayImage, corners: &Corners) -> Corners {
    if border_shares(near, corners)
        .into_iter()
        .all(|share| share >= WEAK_BORDER)
    {
        return *corners;
    }
    let side = |a: (f32, f32), b: (f32, f32)| (a.0 - b.0).hypot(a.1 - b.1);
    let cell = (side(corners[0], corners[1])
        + side(corners[1], corners[2])
        + side(corners[2], corners[3])
        + side(corners[3], corners[0]))
        / 36.0;
    let score = |corners: &Corners| share_on_lines(near, corners, 0.0, SAMPLES).unwrap_or(0.0);
    let directions = [
        (-1.0, 0.0),
        (1.0, 0.0),
        (0.0, -1.0),
        (0.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
        (1.0, -1.0),
    ];
    let mut best = *corners;
    let mut best_score = score(&best);
    for fraction in [1.0, 0.5, 0.25, 0.125, 0.0625] {
        let step = cell * fraction;
        let mut improved = true;
        while improved {
            improved = false;
            for corner in 0..4 {
                for (dx, dy) in directions {
                    let mut moved = best;
                    moved[corner].0 += dx * step;
                    moved[corner].1 += dy * step;
                    let moved_score = score(&moved);
                    if moved_score > best_score {
                        best = moved;
                        best_score = moved_score;
                        improved = true;
                    }
                }
            }
        }
    }
    best
}

/// The share of points along each side of the outline (top, right, bottom, left) near ink.
fn border_shares(near: &GrayImage, corners: &Corners) -> [f32; 4] {
    let unit = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
    let Some(projection) = Projection::from_control_points(unit, *corners) else {
        return [0.0; 4];
    };
    let (width, height) = near.dimensions();
    let inked = |(x, y): (f32, f32)| {
        let (x, y) = (x.round(), y.round());
        x >= 0.0
            && y >= 0.0
            && x < width as f32
            && y < height as f32
            && near.get_pixel(x as u32, y as u32)[0] > 0
    };
    let share = |point: &dyn Fn(f32) -> (f32, f32)| {
        (0..SAMPLES)
            .filter(|step| inked(projection * point((*step as f32 + 0.5) / SAMPLES as f32)))
            .count() as f32
            / SAMPLES as f32
    };
    [
        share(&|t| (t, 0.0)),
        share(&|t| (1.0, t)),
        share(&|t| (t, 1.0)),
        share(&|t| (0.0, t)),
    ]
}

/// Ink is 255, paper 0: a pixel darker than the mean of its neighbourhood by a margin.
fn ink_mask(image: &GrayImage) -> GrayImage {
    let (width, height) = image.dimensions();
    let radius = (width.min(height) / 40).max(4);
    let integral = integral_image::<_, u32>(image);
    GrayImage::from_fn(width, height, |x, y| {
        let (x0, x1) = (x.saturating_sub(radius), (x + radius).min(width - 1));
        let (y0, y1) = (y.saturating_sub(radius), (y + radius).min(height - 1));
        let count = (x1 - x0 + 1) * (y1 - y0 + 1);
        let mean = sum_image_pixels(&integral, x0, y0, x1, y1)[0] / count;
        let pixel = u32::from(image.get_pixel(x, y)[0]);
        image::Luma([if pixel + INK_CONTRAST < mean { 255 } else { 0 }])
    })
}

/// The four corners of a convex hull: its polygon approximation when that has four
/// vertices, else the extreme points along the two diagonals.
fn quadrilateral(hull: &[Point<i32>]) -> Corners {
    let perimeter = arc_length(hull, true);
    let epsilon = 0.02 * perimeter;
    // The fit runs as two open chains between opposite extreme points: imageproc's closed
    // fit drops the hull's last point, which may be a corner.
    let diagonal = |point: &Point<i32>| point.x + point.y;
    let (Some(first), Some(opposite)) = (
        (0..hull.len()).min_by_key(|&index| diagonal(&hull[index])),
        (0..hull.len()).max_by_key(|&index| diagonal(&hull[index])),
    ) else {
        return extreme_points(hull);
    };
    let chain = |from: usize, to: usize| {
        let mut points = Vec::new();
        let mut index = from;
        loop {
            points.push(hull[index]);
            if index == to {
                break points;
            }
            index = (index + 1) % hull.len();
        }
    };
    let mut approximation = approximate_polygon_dp(&chain(first, opposite), epsilon, false);
    approximation.pop();
    approximation.extend(approximate_polygon_dp(
        &chain(opposite, first),
        epsilon,
        false,
    ));
    approximation.pop();
    if approximation.len() == 4 {
        extreme_points(&approximation)
    } else {
        extreme_points(hull)
    }
}

/// The points of `points` farthest along the two diagonals, in the order of [`Corners`].
fn extreme_points(points: &[Point<i32>]) -> Corners {
    let by = |key: fn(&Point<i32>) -> i32, largest: bool| {
        let pick = if largest {
            points.iter().max_by_key(|point| key(point))
        } else {
            points.iter().min_by_key(|point| key(point))
        };
        pick.map_or((0.0, 0.0), |point| (point.x as f32, point.y as f32))
    };
    [
        by(|point| point.x + point.y, false),
        by(|point| point.x - point.y, true),
        by(|point| point.x + point.y, true),
        by(|point| point.x - point.y, false),
    ]
}

/// Four distinct corners in order, with no side much shorter than the others.
fn plausible(corners: &Corners) -> bool {
    let side = |a: (f32, f32), b: (f32, f32)| (a.0 - b.0).hypot(a.1 - b.1);
    let sides = [
        side(corners[0], corners[1]),
        side(corners[1], corners[2]),
        side(corners[2], corners[3]),
        side(corners[3], corners[0]),
    ];
    let longest = sides.iter().copied().fold(0.0_f32, f32::max);
    let shortest = sides.iter().copied().fold(f32::INFINITY, f32::min);
    shortest > 0.4 * longest && shortest > 16.0
}

/// The shoelace formula.
fn polygon_area(points: &[Point<i32>]) -> f64 {
    let mut twice = 0.0;
    for (index, point) in points.iter().enumerate() {
        let next = points[(index + 1) % points.len()];
        twice += f64::from(point.x) * f64::from(next.y) - f64::from(next.x) * f64::from(point.y);
    }
    (twice / 2.0).abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A drawn 9x9 grid on white paper, its outer square from (40, 30) to (400, 390).
    fn drawn_grid() -> GrayImage {
        let mut image = GrayImage::from_pixel(460, 420, image::Luma([230]));
        for line in 0..=9 {
            let offset = 40 * line;
            let thickness = if line % 3 == 0 { 3 } else { 1 };
            for t in 0..thickness {
                for along in 0..=360 {
                    image.put_pixel(40 + offset + t, 30 + along, image::Luma([20]));
                    image.put_pixel(40 + along, 30 + offset + t, image::Luma([20]));
                }
            }
        }
        image
    }

    #[test]
    fn a_drawn_grid_is_found_at_its_corners() {
        let corners = find_grid(&drawn_grid()).unwrap();
        let expected = [(40.0, 30.0), (402.0, 30.0), (402.0, 392.0), (40.0, 392.0)];
        for (found, want) in corners.iter().zip(expected) {
            assert!(
                (found.0 - want.0).abs() <= 3.0 && (found.1 - want.1).abs() <= 3.0,
                "{corners:?}"
            );
        }
    }

    #[test]
    fn a_grid_whose_lines_are_broken_by_blur_is_found_once_its_ink_is_thickened() {
        // Every line dashed with one-pixel gaps: no cell is closed, so without the second
        // look the outline encloses no holes and is taken for a blob.
        let mut image = GrayImage::from_pixel(460, 420, image::Luma([230]));
        for line in 0..=9 {
            let offset = 40 * line;
            for t in 0..2 {
                for along in (0..=360).filter(|along| along % 5 != 2) {
                    image.put_pixel(40 + offset + t, 30 + along, image::Luma([20]));
                    image.put_pixel(40 + along, 30 + offset + t, image::Luma([20]));
                }
            }
        }
        let ink = ink_mask(&image);
        assert_eq!(grid_in(&ink, &near_ink(&ink)), None);
        let corners = find_grid(&image).unwrap();
        let expected = [(40.0, 30.0), (401.0, 30.0), (401.0, 391.0), (40.0, 391.0)];
        for (found, want) in corners.iter().zip(expected) {
            assert!(
                (found.0 - want.0).abs() <= 3.0 && (found.1 - want.1).abs() <= 3.0,
                "{corners:?}"
            );
        }
    }

    #[test]
    fn the_extreme_points_of_a_hull_with_a_shaved_corner_are_the_squares_corners() {
        // A square hull with its top-left corner shaved by a short diagonal edge: the
        // extreme points still reach the square's corners.
        let hull = [
            Point::new(10, 0),
            Point::new(100, 0),
            Point::new(100, 100),
            Point::new(0, 100),
            Point::new(0, 10),
        ];
        assert_eq!(
            extreme_points(&hull),
            [(10.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
        );
    }

    #[test]
    fn a_grid_is_ruled_in_ninths_and_an_outline_half_a_cell_off_is_not() {
        let near = near_ink(&ink_mask(&drawn_grid()));
        let grid = [(40.0, 30.0), (401.0, 30.0), (401.0, 391.0), (40.0, 391.0)];
        assert!(ruling(&near, &grid).is_some_and(|on| on > 0.9));
        let off = grid.map(|(x, y)| (x + 20.0, y + 20.0));
        assert_eq!(ruling(&near, &off), None);
    }

    #[test]
    fn a_corner_that_is_the_hulls_last_point_is_kept_by_the_quadrilateral_fit() {
        let hull = [
            Point::new(50, 0),
            Point::new(100, 0),
            Point::new(100, 100),
            Point::new(0, 100),
            Point::new(0, 0),
        ];
        assert_eq!(
            quadrilateral(&hull),
            [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
        );
    }

    #[test]
    fn a_corner_a_cell_inside_the_grid_is_moved_back_onto_the_border() {
        let near = near_ink(&ink_mask(&drawn_grid()));
        let missed = [(80.0, 70.0), (401.0, 30.0), (401.0, 391.0), (40.0, 391.0)];
        let refined = refine(&near, &missed);
        assert!(
            (refined[0].0 - 40.0).abs() <= 3.0 && (refined[0].1 - 30.0).abs() <= 3.0,
            "{refined:?}"
        );
    }

    #[test]
    fn a_blank_page_has_no_grid() {
        let blank = GrayImage::from_pixel(300, 300, image::Luma([200]));
        assert_eq!(find_grid(&blank), Err(ScanError::NoGridFound));
    }
}
