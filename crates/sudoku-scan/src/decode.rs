use std::io::Cursor;

use image::{DynamicImage, GrayImage, ImageDecoder, ImageFormat, ImageReader, RgbImage};

use crate::ScanError;

/// The bounds on what an image may cost before it is decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most pixels (width times height) an image may declare.
    pub max_pixels: u64,
}

impl Limits {
    /// 40 megapixels: above any phone camera's photo.
    pub const DEFAULT_MAX_PIXELS: u64 = 40_000_000;
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_pixels: Self::DEFAULT_MAX_PIXELS,
        }
    }
}

/// Decodes a JPEG, PNG or WebP image into grey levels, refusing from its header alone an
/// image that declares more pixels than the limit (so a decompression bomb gets no memory).
///
/// # Errors
/// [`ScanError::InvalidImage`] for bytes that are no image or a truncated one,
/// [`ScanError::UnsupportedFormat`] for another format, [`ScanError::TooManyPixels`] over the
/// limit.
pub fn decode(bytes: &[u8], limits: &Limits) -> Result<GrayImage, ScanError> {
    Ok(decode_image(bytes, *limits)?.into_luma8())
}

/// A decoded photo: its grey levels, where the grid is found and read, and its colours,
/// where a player's pen is told from print.
#[derive(Debug, Clone)]
pub struct Photo {
    /// The grey levels, as [`decode`] gives them.
    pub grey: GrayImage,
    /// The colours (a grey image's in three equal channels), every `colour_step`th pixel
    /// each way of a large photo.
    pub colour: RgbImage,
    /// The photo's pixels per pixel of `colour`, each way.
    pub colour_step: u32,
}

/// The most pixels kept in colour: a pen's stroke is still several pixels wide, and a 12 MP
/// photo's colours would take three times its grey levels' memory.
const MOST_COLOUR_PIXELS: u64 = 4_000_000;

/// [`decode`], keeping the colours too.
///
/// # Errors
/// As [`decode`].
pub fn decode_photo(bytes: &[u8], limits: &Limits) -> Result<Photo, ScanError> {
    let image = decode_image(bytes, *limits)?;
    let grey = image.to_luma8();
    let pixels = u64::from(image.width()) * u64::from(image.height());
    // Within the pixel limit's 40 MP (and far beyond) a step of 16 is never reached.
    let colour_step = (1..16_u64)
        .find(|step| pixels / (step * step) <= MOST_COLOUR_PIXELS)
        .unwrap_or(16);
    let colour = if colour_step == 1 {
        image.into_rgb8()
    } else {
        let step = colour_step as u32;
        let rgb = image.into_rgb8();
        RgbImage::from_fn(rgb.width() / step, rgb.height() / step, |x, y| {
            *rgb.get_pixel(x * step, y * step)
        })
    };
    Ok(Photo {
        grey,
        colour,
        colour_step: colour_step as u32,
    })
}

fn decode_image(bytes: &[u8], limits: Limits) -> Result<DynamicImage, ScanError> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|error| ScanError::InvalidImage(error.to_string()))?;
    let format = reader
        .format()
        .ok_or_else(|| ScanError::InvalidImage("the bytes are not a known image format".into()))?;
    if !matches!(
        format,
        ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP
    ) {
        return Err(ScanError::UnsupportedFormat(format!("{format:?}")));
    }
    let mut reader = reader;
    // The pixel limit is checked below from the header; the reader's own default would
    // refuse some large images with a less precise error first.
    reader.no_limits();
    let mut decoder = reader
        .into_decoder()
        .map_err(|error| ScanError::InvalidImage(error.to_string()))?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > limits.max_pixels {
        return Err(ScanError::TooManyPixels {
            width,
            height,
            limit: limits.max_pixels,
        });
    }
    let mut decoder_limits = image::Limits::default();
    decoder_limits.max_image_width = Some(width);
    decoder_limits.max_image_height = Some(height);
    // The RGBA output plus the decoder's own buffers, with room to spare.
    decoder_limits.max_alloc = Some(u64::from(width) * u64::from(height) * 8 + (16 << 20));
    decoder
        .set_limits(decoder_limits)
        .map_err(|error| ScanError::InvalidImage(error.to_string()))?;
    DynamicImage::from_decoder(decoder).map_err(|error| ScanError::InvalidImage(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        GrayImage::new(width, height)
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .unwrap();
        bytes
    }

    #[test]
    fn a_png_decodes_to_its_size() {
        let image = decode(&png(30, 20), &Limits::default()).unwrap();
        assert_eq!(image.dimensions(), (30, 20));
    }

    #[test]
    fn a_large_photo_keeps_its_grey_levels_whole_and_its_colours_sampled() {
        let photo = decode_photo(&png(2100, 2000), &Limits::default()).unwrap();
        assert_eq!(photo.grey.dimensions(), (2100, 2000));
        assert_eq!(photo.colour_step, 2);
        assert_eq!(photo.colour.dimensions(), (1050, 1000));
        let small = decode_photo(&png(30, 20), &Limits::default()).unwrap();
        assert_eq!(
            (small.colour_step, small.colour.dimensions()),
            (1, (30, 20))
        );
    }

    #[test]
    fn an_image_over_the_pixel_limit_is_refused() {
        let error = decode(&png(30, 20), &Limits { max_pixels: 599 }).unwrap_err();
        assert_eq!(
            error,
            ScanError::TooManyPixels {
                width: 30,
                height: 20,
                limit: 599
            }
        );
    }

    #[test]
    fn text_is_not_an_image() {
        assert!(matches!(
            decode(b"hello", &Limits::default()),
            Err(ScanError::InvalidImage(_))
        ));
    }

    #[test]
    fn a_truncated_png_is_invalid() {
        let bytes = png(30, 20);
        let cut = &bytes[..bytes.len() / 2];
        assert!(matches!(
            decode(cut, &Limits::default()),
            Err(ScanError::InvalidImage(_))
        ));
    }

    #[test]
    fn a_gif_is_unsupported() {
        let gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;";
        assert!(matches!(
            decode(gif, &Limits::default()),
            Err(ScanError::UnsupportedFormat(_))
        ));
    }
}
