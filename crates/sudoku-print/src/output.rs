//! SVG documents turned into PNG (resvg, tiny-skia) and PDF (krilla), with the font
//! compiled in.

use std::sync::{Arc, OnceLock};

use krilla::Document;
use krilla::geom::Size;
use krilla::page::PageSettings;
use krilla_svg::{SurfaceExt, SvgSettings};
use resvg::tiny_skia::{Color, Pixmap, Transform};
use resvg::usvg::{self, fontdb};

use crate::{FONT, FONT_FAMILY};

/// Why a picture could not be made. Each is a fault of this crate's own SVG or of a
/// size past what a pixmap can hold, never of the board drawn.
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    /// The SVG could not be read back.
    #[error("the SVG could not be read: {0}")]
    Svg(String),
    /// The picture is empty or too large for a pixmap.
    #[error("a picture of {0}x{1} pixels cannot be drawn")]
    Size(u32, u32),
    /// The PNG could not be written.
    #[error("the PNG could not be written: {0}")]
    Png(String),
    /// The PDF could not be written.
    #[error("the PDF could not be written: {0}")]
    Pdf(String),
}

/// The font database every picture is drawn with: the compiled-in font alone, so that
/// what a picture looks like does not depend on the machine's fonts.
fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    Arc::clone(FONTS.get_or_init(|| {
        let mut database = fontdb::Database::new();
        database.load_font_data(FONT.to_vec());
        database.set_sans_serif_family(FONT_FAMILY);
        Arc::new(database)
    }))
}

fn tree(svg: &str) -> Result<usvg::Tree, PrintError> {
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: FONT_FAMILY.to_owned(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|error| PrintError::Svg(error.to_string()))
}

/// The SVG document `svg` drawn on white at its own size (its `width` and `height`), as
/// PNG bytes.
///
/// # Errors
/// [`PrintError`] when the SVG cannot be read or its size cannot be drawn.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, PrintError> {
    let tree = tree(svg)?;
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height())
        .ok_or(PrintError::Size(size.width(), size.height()))?;
    pixmap.fill(Color::WHITE);
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|error| PrintError::Png(error.to_string()))
}

/// The SVG documents `pages` as the pages of one PDF, each page the size of its SVG taken
/// in points, text kept as text in the embedded (subset) font. No date nor random
/// identifier is written, so the same pages give the same bytes.
///
/// # Errors
/// [`PrintError`] when an SVG cannot be read or the PDF cannot be written.
pub fn svgs_to_pdf(pages: &[String]) -> Result<Vec<u8>, PrintError> {
    let mut document = Document::new();
    for svg in pages {
        let tree = tree(svg)?;
        let (width, height) = (tree.size().width(), tree.size().height());
        let size = Size::from_wh(width, height).ok_or(PrintError::Size(
            width.round() as u32,
            height.round() as u32,
        ))?;
        let mut page = document.start_page_with(PageSettings::new(size));
        let mut surface = page.surface();
        surface.draw_svg(&tree, size, SvgSettings::default());
        surface.finish();
        page.finish();
    }
    document
        .finish()
        .map_err(|error| PrintError::Pdf(format!("{error:?}")))
}
