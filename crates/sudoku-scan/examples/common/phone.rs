//! A phone-like photo made from a committed one, for the timing example and the test that
//! a 12 megapixel photo on a dark table reads as the small one does.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::{Rgb, RgbImage};
use imageproc::geometric_transformations::{Interpolation, Projection, warp_into};

use crate::dataset;

/// A 4:3 phone photo of 12.2 megapixels (4032 x 3024, the common main camera).
pub(crate) const PHONE_SIZE: (u32, u32) = (4032, 3024);

/// The committed training photo the phone photo is made from.
pub(crate) fn source_photo(root: &std::path::Path) -> dataset::Photo {
    dataset::split(root, "v2_train")
        .into_iter()
        .next()
        .expect("the training split has photos")
}

/// A committed training photo enlarged to 12 MP as a phone would take it (see
/// [`as_phone_photo`]), and its givens as a line, to check the reading.
pub(crate) fn phone_photo(root: &std::path::Path) -> (Vec<u8>, String) {
    let photo = source_photo(root);
    let source = image::open(&photo.path).unwrap().to_rgb8();
    (as_phone_photo(&source), givens_line(&photo))
}

/// A photo's givens as an 81-character line, `.` for none.
pub(crate) fn givens_line(photo: &dataset::Photo) -> String {
    photo
        .givens
        .unwrap()
        .iter()
        .map(|&digit| {
            if digit == 0 {
                '.'
            } else {
                char::from(b'0' + digit)
            }
        })
        .collect()
}

/// A photo enlarged to 12 MP as a phone would take it: seen at an angle (a perspective
/// tilt), a shadow falling across it, sensor grain, JPEG at quality 90.
pub(crate) fn as_phone_photo(source: &RgbImage) -> Vec<u8> {
    let (width, height) = PHONE_SIZE;
    let (sw, sh) = (source.width() as f32, source.height() as f32);
    let (w, h) = (width as f32, height as f32);
    // The photo's corners land on a trapezoid: the top edge narrower, as when the phone
    // leans back.
    let to = [
        (0.08 * w, 0.04 * h),
        (0.93 * w, 0.02 * h),
        (0.99 * w, 0.98 * h),
        (0.01 * w, 0.95 * h),
    ];
    let from = [(0.0, 0.0), (sw, 0.0), (sw, sh), (0.0, sh)];
    let projection = Projection::from_control_points(from, to).expect("a proper quadrilateral");
    let mut tilted = RgbImage::new(width, height);
    warp_into(
        source,
        &projection,
        Interpolation::Bilinear,
        Rgb([90, 85, 80]),
        &mut tilted,
    );
    // A soft shadow darkening the left third, and grain from a fixed-seed generator.
    let mut seed = 0x2026_1205_u64;
    let mut shaded = tilted;
    for (x, _, pixel) in shaded.enumerate_pixels_mut() {
        let shadow = 0.6 + 0.4 * ((x as f32 / w - 0.1) / 0.3).clamp(0.0, 1.0);
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let grain = ((seed >> 59) as f32) - 16.0;
        for channel in &mut pixel.0 {
            *channel = (f32::from(*channel) * shadow + grain * 0.5).clamp(0.0, 255.0) as u8;
        }
    }
    let mut bytes = Vec::new();
    JpegEncoder::new_with_quality(&mut Cursor::new(&mut bytes), 90)
        .encode_image(&shaded)
        .unwrap();
    bytes
}
