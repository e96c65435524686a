use thiserror::Error;

/// Why a photo could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScanError {
    /// The bytes are not an image of a supported format, or it is truncated or corrupt.
    #[error("the body is not a readable image: {0}")]
    InvalidImage(String),
    /// An image format other than JPEG, PNG or WebP.
    #[error("the image format {0} is not supported: send JPEG, PNG or WebP")]
    UnsupportedFormat(String),
    /// The header declares more pixels than the limit; nothing was decoded.
    #[error("the image is {width}x{height} pixels, more than the limit of {limit} pixels")]
    TooManyPixels {
        /// Declared width.
        width: u32,
        /// Declared height.
        height: u32,
        /// The pixel limit in force.
        limit: u64,
    },
    /// No Sudoku grid was found in the image.
    #[error("no Sudoku grid was found in the image")]
    NoGridFound,
}
