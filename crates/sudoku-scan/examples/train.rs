//! Trains the cell classifier and writes `model/cells.safetensors`.
//!
//! Data: the cells of the dataset's two training splits only (`v2_train`, `v2_mixed_train`),
//! cut along the grid the scanner finds and, for v2, along the ground-truth outline too,
//! each also with jittered corners; plus grids of printed digits rendered from Debian's `DejaVu`
//! and Liberation fonts, blurred and noised; plus sheets drawn by the service's own renderer
//! (`sudoku-print`) at widths from a thumbnail to a print, so that what `/render` draws
//! scans back. Deterministic: a fixed seed drives the
//! weights' start, the jitter, the rendering and the batches' order, and the run is meant for
//! one thread (`scripts/train/train.sh` sets it).
//!
//! Usage: `cargo run --release -p sudoku-scan --example train -- OUT.safetensors [EPOCHS]`

#[path = "common/dataset.rs"]
mod dataset;
#[path = "common/pencil.rs"]
mod pencil;
#[path = "common/random.rs"]
mod random;

use std::path::Path;

use ab_glyph::FontVec;
use candle_core::{DType, Device, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarBuilder, VarMap, loss};
use image::{GrayImage, Luma};
use imageproc::drawing::draw_text_mut;
use imageproc::filter::gaussian_blur_f32;
use sudoku::variant::Rules;
use sudoku_print::{BoardPicture, Show, sheet_svg, svg_to_png};

use pencil::{Glyphs, Hand, draw_marks, lay_into_warped};
use random::Random;
use sudoku_scan::{
    CELL_SIDE, CellNet, Class, Limits, cell_inputs, decode, find_grid, warp_grid, working_image,
};

const SEED: u64 = 20_261_205;
const FONTS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
];
const RENDERED_GRIDS: usize = 200;
const DRAWN_SHEETS: usize = 240;
/// Sheets drawn with pencil marks, after the others.
const MARKED_SHEETS: usize = 80;
/// The share of empty cells kept: they outnumber the digits three to one.
const EMPTY_KEPT: f64 = 0.3;

/// `SCAN_RECIPE=old`: the recipe of the model before (a whole-pixel shift of up to two
/// pixels, no balancing), to measure it against the current one on the same held-out photos.
fn old_recipe() -> bool {
    std::env::var("SCAN_RECIPE").is_ok_and(|recipe| recipe == "old")
}

/// A training copy of a cell: turned by up to 8 degrees, scaled by 0.88 to 1.12, shifted by
/// up to three pixels, and one time in seven its strokes thickened by a pixel (pens and print
/// differ in weight, and the found grid is never exact).
fn augment(input: &[f32; CELL_SIDE * CELL_SIDE], random: &mut Random) -> Vec<f32> {
    let side = CELL_SIDE as i32;
    let angle = random.range(-8.0, 8.0).to_radians() as f32;
    let scale = random.range(0.88, 1.12) as f32;
    let (dx, dy) = (
        random.range(-3.0, 3.0) as f32,
        random.range(-3.0, 3.0) as f32,
    );
    let (sin, cos) = angle.sin_cos();
    let centre = (CELL_SIDE as f32 - 1.0) / 2.0;
    let at = |x: i32, y: i32| input[(y.clamp(0, side - 1) * side + x.clamp(0, side - 1)) as usize];
    let mut out = Vec::with_capacity(CELL_SIDE * CELL_SIDE);
    for y in 0..side {
        for x in 0..side {
            let (u, v) = (x as f32 - centre - dx, y as f32 - centre - dy);
            let sx = (cos * u + sin * v) / scale + centre;
            let sy = (-sin * u + cos * v) / scale + centre;
            let (x0, y0) = (sx.floor(), sy.floor());
            let (fx, fy) = (sx - x0, sy - y0);
            let (x0, y0) = (x0 as i32, y0 as i32);
            out.push(
                at(x0, y0) * (1.0 - fx) * (1.0 - fy)
                    + at(x0 + 1, y0) * fx * (1.0 - fy)
                    + at(x0, y0 + 1) * (1.0 - fx) * fy
                    + at(x0 + 1, y0 + 1) * fx * fy,
            );
        }
    }
    if random.unit() < 0.15 {
        let before = out.clone();
        let get =
            |x: i32, y: i32| before[(y.clamp(0, side - 1) * side + x.clamp(0, side - 1)) as usize];
        for y in 0..side {
            for x in 0..side {
                let around = [
                    get(x, y),
                    get(x - 1, y),
                    get(x + 1, y),
                    get(x, y - 1),
                    get(x, y + 1),
                ];
                out[(y * side + x) as usize] = around.into_iter().fold(0.0, f32::max);
            }
        }
    }
    out
}

type Sample = ([f32; CELL_SIDE * CELL_SIDE], u32);

fn push_grid(
    samples: &mut Vec<Sample>,
    warped: &GrayImage,
    classes: &[Class; 81],
    random: &mut Random,
) {
    for (input, class) in cell_inputs(warped).into_iter().zip(classes) {
        if *class == Class::Empty && random.unit() > EMPTY_KEPT {
            continue;
        }
        samples.push((input, class.index() as u32));
    }
}

fn jitter(corners: &[(f32, f32); 4], random: &mut Random) -> [(f32, f32); 4] {
    let side = (corners[0].0 - corners[1].0).hypot(corners[0].1 - corners[1].1);
    corners.map(|(x, y)| {
        let amount = f64::from(side) * 0.012;
        (
            x + (random.normal() * amount) as f32,
            y + (random.normal() * amount) as f32,
        )
    })
}

/// The cells of the training photos, and each photo's grid warped along its first outline
/// with what its cells hold, for the pencil marks drawn into them.
fn photo_samples(samples: &mut Vec<Sample>, random: &mut Random) -> Vec<(GrayImage, [Class; 81])> {
    let mut warps = Vec::new();
    let root = dataset::root();
    let outlines = dataset::outlines(&root);
    // While training options are compared, one photo in five is left for measuring them.
    let part = if std::env::var_os("SCAN_HOLDOUT").is_some() {
        "/kept"
    } else {
        ""
    };
    for split in ["v2_train", "v2_mixed_train"] {
        let photos = dataset::split(&root, &format!("{split}{part}"));
        let mut found = 0;
        for photo in &photos {
            // The one mixed photo without a v2 twin has no known givens: its kinds are unknown.
            let Some(classes) = photo.classes() else {
                continue;
            };
            let bytes = std::fs::read(&photo.path).unwrap();
            let image = decode(&bytes, &Limits::default()).unwrap();
            let (working, scale) = working_image(&image);
            let mut outlines_of_photo = Vec::new();
            if let Ok(corners) = find_grid(&working) {
                found += 1;
                outlines_of_photo.push(corners);
            }
            let name = photo.path.file_name().unwrap().to_str().unwrap();
            if !photo.is_mixed() {
                if let Some((_, truth)) = outlines.iter().find(|(file, _)| file == name) {
                    outlines_of_photo.push(truth.map(|(x, y)| (x / scale, y / scale)));
                }
            }
            for (index, corners) in outlines_of_photo.iter().enumerate() {
                let warped = warp_grid(&working, corners);
                push_grid(samples, &warped, &classes, random);
                if index == 0 {
                    warps.push((warped, classes));
                }
                push_grid(
                    samples,
                    &warp_grid(&working, &jitter(corners, random)),
                    &classes,
                    random,
                );
            }
        }
        eprintln!(
            "{split}: {} photos, the grid found in {found}",
            photos.len()
        );
    }
    warps
}

/// The faces of [`FONTS`] that are installed.
fn faces() -> Vec<FontVec> {
    let fonts: Vec<FontVec> = FONTS
        .iter()
        .filter_map(|path| std::fs::read(path).ok())
        .filter_map(|bytes| FontVec::try_from_vec(bytes).ok())
        .collect();
    assert!(
        !fonts.is_empty(),
        "no font of the list is installed (apt-get install fonts-dejavu-core fonts-liberation)"
    );
    fonts
}

/// A grid of printed digits in a random font, drawn straight, then blurred and noised.
fn rendered_samples(samples: &mut Vec<Sample>, fonts: &[FontVec], random: &mut Random) {
    let cell = CELL_SIDE as i32;
    for _ in 0..RENDERED_GRIDS {
        let paper = random.range(150.0, 250.0) as u8;
        let ink = random.range(0.0, f64::from(paper) * 0.45) as u8;
        let mut grid =
            GrayImage::from_pixel(9 * CELL_SIDE as u32, 9 * CELL_SIDE as u32, Luma([paper]));
        let font = &fonts[random.below(fonts.len())];
        for line in 0..=9 {
            let thick = if line % 3 == 0 {
                2 + random.below(2)
            } else {
                1
            };
            let at = (line * cell).clamp(0, 9 * cell - thick as i32);
            for t in 0..thick as i32 {
                for along in 0..9 * cell {
                    grid.put_pixel((at + t) as u32, along as u32, Luma([ink]));
                    grid.put_pixel(along as u32, (at + t) as u32, Luma([ink]));
                }
            }
        }
        let mut classes = [Class::Empty; 81];
        for (index, class) in classes.iter_mut().enumerate() {
            if random.unit() < 0.5 {
                continue;
            }
            let digit = 1 + random.below(9) as u8;
            *class = Class::Printed(digit);
            let size = random.range(0.6, 0.9) * f64::from(cell);
            let x = (index % 9) as i32 * cell + (f64::from(cell) * random.range(0.2, 0.35)) as i32;
            let y = (index / 9) as i32 * cell + (f64::from(cell) * random.range(0.02, 0.15)) as i32;
            draw_text_mut(
                &mut grid,
                Luma([ink]),
                x,
                y,
                size as f32,
                font,
                &digit.to_string(),
            );
        }
        let mut grid = gaussian_blur_f32(&grid, random.range(0.3, 1.2) as f32);
        let noise = random.range(0.0, 12.0);
        for pixel in grid.pixels_mut() {
            pixel[0] = (f64::from(pixel[0]) + random.normal() * noise).clamp(0.0, 255.0) as u8;
        }
        push_grid(samples, &grid, &classes, random);
    }
}

/// A sheet of random givens drawn by `sudoku-print` as `/render` draws it, at a random width,
/// cut along the grid the scanner finds there (and jittered), as a scan would see it; in the
/// last [`MARKED_SHEETS`], pencil marks in most open cells, as the renderer draws them.
fn sheet_samples(samples: &mut Vec<Sample>, random: &mut Random) {
    let mut found = 0;
    for sheet in 0..DRAWN_SHEETS + MARKED_SHEETS {
        let marked = sheet >= DRAWN_SHEETS;
        let density = random.range(0.2, 0.6);
        let givens: Vec<u8> = (0..81)
            .map(|_| {
                if random.unit() < density {
                    1 + random.below(9) as u8
                } else {
                    0
                }
            })
            .collect();
        let candidates: Vec<u32> = givens
            .iter()
            .map(|&given| {
                if marked && given == 0 && random.unit() < 0.7 {
                    u32::from(mark_digits(random))
                } else {
                    0
                }
            })
            .collect();
        let classes: [Class; 81] = std::array::from_fn(|index| match givens[index] {
            0 if candidates[index] != 0 => Class::Marks,
            0 => Class::Empty,
            digit => Class::Printed(digit),
        });
        let picture = BoardPicture {
            size: 9,
            givens,
            entries: Vec::new(),
            candidates,
            rules: Rules::default(),
        };
        let width = 240 + random.below(1200) as u32;
        let svg = sheet_svg(&picture, None, Show::Puzzle, None, width);
        let png = svg_to_png(&svg).expect("a classic sheet draws");
        let image = decode(&png, &Limits::default()).unwrap();
        let (working, _) = working_image(&image);
        let Ok(corners) = find_grid(&working) else {
            continue;
        };
        found += 1;
        push_grid(samples, &warp_grid(&working, &corners), &classes, random);
        push_grid(
            samples,
            &warp_grid(&working, &jitter(&corners, random)),
            &classes,
            random,
        );
    }
    eprintln!(
        "drawn sheets: {}, the grid found in {found}",
        DRAWN_SHEETS + MARKED_SHEETS
    );
}

/// A random set of a cell's pencil marks (bits 1 to 9): most often two to five digits.
fn mark_digits(random: &mut Random) -> u16 {
    const WEIGHTS: [f64; 9] = [0.05, 0.2, 0.2, 0.16, 0.12, 0.1, 0.08, 0.05, 0.04];
    let mut pick = random.unit();
    let mut count = 9;
    for (index, weight) in WEIGHTS.iter().enumerate() {
        if pick < *weight {
            count = index + 1;
            break;
        }
        pick -= weight;
    }
    let mut digits: Vec<u16> = (1..=9).collect();
    for i in (1..digits.len()).rev() {
        digits.swap(i, random.below(i + 1));
    }
    digits[..count]
        .iter()
        .fold(0, |bits, digit| bits | 1 << digit)
}

/// Pencil marks drawn into the open cells of the training photos' warped grids, in one hand
/// a photo: a face of [`FONTS`] or the photos' own handwritten digits made small, of a random
/// height, darkness and layout; each marked cell a sample of [`Class::Marks`].
fn marked_photo_samples(
    samples: &mut Vec<Sample>,
    warps: &[(GrayImage, [Class; 81])],
    fonts: &[FontVec],
    random: &mut Random,
) {
    let mut handwritten: [Vec<[f32; CELL_SIDE * CELL_SIDE]>; 9] = Default::default();
    for (input, class) in samples.iter() {
        if let Class::Handwritten(digit) = Class::from_index(*class as usize) {
            handwritten[usize::from(digit - 1)].push(*input);
        }
    }
    let mut marked = 0;
    for (warped, classes) in warps {
        let glyphs = if random.unit() < 0.5 {
            Glyphs::Hand(&handwritten)
        } else {
            Glyphs::Face(&fonts[random.below(fonts.len())])
        };
        let hand = Hand {
            glyphs,
            height: random.range(0.18, 0.32),
            keypad: random.unit() < 0.7,
            strength: random.range(0.35, 1.0),
        };
        let mut levels: Vec<u8> = warped.pixels().map(|pixel| pixel[0]).collect();
        levels.sort_unstable();
        let ink = f32::from(levels[levels.len() / 50]);
        let mut drawn = warped.clone();
        let mut marks = [Class::Empty; 81];
        for (cell, class) in classes.iter().enumerate() {
            if *class != Class::Empty || random.unit() > 0.5 {
                continue;
            }
            let raster = draw_marks(mark_digits(random), &hand, random);
            lay_into_warped(
                &mut drawn,
                cell,
                &raster,
                CELL_SIDE as u32,
                ink,
                hand.strength,
            );
            marks[cell] = Class::Marks;
            marked += 1;
        }
        for (input, class) in cell_inputs(&drawn).into_iter().zip(marks) {
            if class == Class::Marks {
                samples.push((input, class.index() as u32));
            }
        }
    }
    eprintln!(
        "pencil marks drawn into {marked} cells of {} photos",
        warps.len()
    );
}

/// Starts every weight from the seed (candle's own CPU start cannot be seeded): uniform in
/// ±1/sqrt(fan-in), as `PyTorch`'s default.
fn seed_weights(varmap: &VarMap, random: &mut Random) -> candle_core::Result<()> {
    let data = varmap.data().lock().unwrap();
    let mut names: Vec<&String> = data.keys().collect();
    names.sort();
    for name in names {
        let var = &data[name];
        let dims = var.dims().to_vec();
        let fan_in: usize = if dims.len() > 1 {
            dims[1..].iter().product()
        } else {
            128
        };
        let bound = 1.0 / (fan_in as f64).sqrt();
        let values: Vec<f32> = (0..var.elem_count())
            .map(|_| random.range(-bound, bound) as f32)
            .collect();
        var.set(&Tensor::from_vec(values, dims, &Device::Cpu)?)?;
    }
    Ok(())
}

fn main() -> candle_core::Result<()> {
    let mut args = std::env::args().skip(1);
    let out = args.next().expect("usage: train OUT.safetensors [EPOCHS]");
    let epochs: usize = args
        .next()
        .map_or(4, |text| text.parse().expect("EPOCHS is a number"));
    let mut random = Random(SEED);
    let mut samples = Vec::new();
    let fonts = faces();
    let warps = photo_samples(&mut samples, &mut random);
    rendered_samples(&mut samples, &fonts, &mut random);
    sheet_samples(&mut samples, &mut random);
    marked_photo_samples(&mut samples, &warps, &fonts, &mut random);
    let mut counts = [0_usize; sudoku_scan::CLASSES];
    for (_, class) in &samples {
        counts[*class as usize] += 1;
    }
    eprintln!("{} cells; per class {counts:?}", samples.len());

    let device = Device::Cpu;
    let varmap = VarMap::new();
    let net = CellNet::new(&VarBuilder::from_varmap(&varmap, DType::F32, &device))?;
    seed_weights(&varmap, &mut random)?;
    let mut optimizer = AdamW::new(
        varmap.all_vars(),
        ParamsAdamW {
            lr: 2e-3,
            weight_decay: 1e-4,
            ..ParamsAdamW::default()
        },
    )?;
    let batch = 64;
    let mut order: Vec<usize> = (0..samples.len()).collect();
    for epoch in 0..epochs {
        if !old_recipe() {
            // Handwritten digits are a fifth of the cells and the hardest: each is seen twice
            // an epoch, differently distorted.
            order.clear();
            for (index, (_, class)) in samples.iter().enumerate() {
                let handwritten =
                    matches!(Class::from_index(*class as usize), Class::Handwritten(_));
                let copies = if handwritten { 2 } else { 1 };
                order.extend(std::iter::repeat_n(index, copies));
            }
        }
        for i in (1..order.len()).rev() {
            order.swap(i, random.below(i + 1));
        }
        if epoch == epochs * 3 / 4 {
            optimizer.set_learning_rate(4e-4);
        }
        let (mut total, mut right) = (0.0, 0);
        let started = std::time::Instant::now();
        for (step, chunk) in order.chunks(batch).enumerate() {
            if step % 100 == 99 {
                eprintln!(
                    "  step {}: {:.0} s",
                    step + 1,
                    started.elapsed().as_secs_f64()
                );
            }
            let mut flat = Vec::with_capacity(chunk.len() * CELL_SIDE * CELL_SIDE);
            let mut targets = Vec::with_capacity(chunk.len());
            for &index in chunk {
                let (input, class) = &samples[index];
                if old_recipe() {
                    // A shift of up to two pixels: the found grid is never exact.
                    let (dx, dy) = (random.below(5) as i32 - 2, random.below(5) as i32 - 2);
                    for y in 0..CELL_SIDE as i32 {
                        for x in 0..CELL_SIDE as i32 {
                            let (sx, sy) = ((x + dx).clamp(0, 31), (y + dy).clamp(0, 31));
                            flat.push(input[(sy * CELL_SIDE as i32 + sx) as usize]);
                        }
                    }
                } else {
                    flat.extend(augment(input, &mut random));
                }
                targets.push(*class);
            }
            let x = Tensor::from_vec(flat, (chunk.len(), 1, CELL_SIDE, CELL_SIDE), &device)?;
            let y = Tensor::new(targets.as_slice(), &device)?;
            let logits = net.logits(&x)?;
            let loss = loss::cross_entropy(&logits, &y)?;
            optimizer.backward_step(&loss)?;
            total += f64::from(loss.to_scalar::<f32>()?) * chunk.len() as f64;
            let predicted = logits.argmax(1)?.to_vec1::<u32>()?;
            right += predicted
                .iter()
                .zip(&targets)
                .filter(|(a, b)| a == b)
                .count();
        }
        eprintln!(
            "epoch {}: loss {:.4}, training accuracy {:.4}",
            epoch + 1,
            total / order.len() as f64,
            right as f64 / order.len() as f64
        );
    }
    varmap.save(Path::new(&out))?;
    eprintln!("wrote {out}");
    Ok(())
}
