//! The pictures' structure, read back from the SVG text, and the PNG and PDF bytes.

use sudoku::variant::{Cage, Diagonal, Rules, VariantCell};

use crate::{
    BoardPicture, Booklet, BookletPuzzle, Paper, Show, Solutions, booklet, booklet_page_count,
    sheet_svg, svg_to_png, svgs_to_pdf,
};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn digits(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect()
}

fn classic() -> BoardPicture {
    BoardPicture {
        size: 9,
        givens: digits(PUZZLE),
        entries: Vec::new(),
        candidates: Vec::new(),
        rules: Rules::default(),
    }
}

fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

fn cell(row: usize, col: usize) -> VariantCell {
    VariantCell { row, col }
}

#[test]
fn a_puzzle_sheet_draws_each_given_as_text_and_no_entry() {
    let svg = sheet_svg(&classic(), None, Show::Puzzle, None, 600);
    assert_eq!(count(&svg, "class=\"given\""), 30);
    assert_eq!(count(&svg, "class=\"entry\""), 0);
    assert!(svg.contains(">5</text>") && svg.contains(">9</text>"));
}

#[test]
fn a_solution_sheet_tells_the_givens_from_the_digits_found() {
    let svg = sheet_svg(
        &classic(),
        Some(&digits(SOLUTION)),
        Show::Solution,
        None,
        600,
    );
    assert_eq!(count(&svg, "class=\"given\""), 30);
    assert_eq!(count(&svg, "class=\"entry\""), 51);
}

#[test]
fn both_draws_two_boards_side_by_side_twice_as_wide() {
    let svg = sheet_svg(&classic(), Some(&digits(SOLUTION)), Show::Both, None, 1000);
    assert_eq!(count(&svg, "class=\"board\""), 2);
    assert!(svg.contains(">Puzzle</text>") && svg.contains(">Solution</text>"));
    let png = svg_to_png(&svg).unwrap();
    let (width, height) = png_size(&png);
    assert_eq!(width, 1000);
    assert!(height < 600, "{height}");
}

#[test]
fn each_side_has_its_cell_lines_and_box_edges() {
    for (size, box_edges) in [(4, 2), (6, 1 + 2), (9, 2 + 2), (16, 3 + 3), (25, 4 + 4)] {
        let picture = BoardPicture {
            size,
            givens: vec![0; size * size],
            ..classic()
        };
        let svg = sheet_svg(&picture, None, Show::Puzzle, None, 400);
        let lines = svg
            .split("class=\"cell-lines\" d=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap();
        assert_eq!(count(lines, "M"), 2 * (size - 1), "size {size}");
        let edges = svg
            .split("class=\"region-edges\" d=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap();
        // One segment per cell side on a box edge: the inner box lines, each `size` long.
        assert_eq!(count(edges, "M"), box_edges * size, "size {size}");
    }
}

#[test]
fn digits_past_nine_are_letters_and_pencil_marks_sit_in_the_corner_grid() {
    let mut givens = vec![0; 256];
    givens[0] = 10;
    givens[255] = 16;
    let mut candidates = vec![0; 256];
    candidates[1] = (1 << 1) | (1 << 16);
    let picture = BoardPicture {
        size: 16,
        givens,
        candidates,
        ..classic()
    };
    let svg = sheet_svg(&picture, None, Show::Puzzle, None, 800);
    assert!(svg.contains(">A</text>") && svg.contains(">G</text>"));
    let marks = svg.split("class=\"candidates\"").nth(1).unwrap();
    let marks = marks.split("</g>").next().unwrap();
    assert_eq!(count(marks, "<text"), 2);
    assert!(marks.contains(">1</text>") && marks.contains(">G</text>"));
}

#[test]
fn the_variant_rules_are_drawn() {
    let rules = Rules {
        diagonals: vec![Diagonal::Main, Diagonal::Anti],
        extra_regions: vec![(0..9).map(|i| cell(1 + i / 3, 1 + i % 3)).collect()],
        cages: vec![
            Cage {
                sum: Some(17),
                cells: vec![cell(0, 0), cell(0, 1)],
            },
            Cage {
                sum: None,
                cells: vec![cell(8, 8)],
            },
        ],
        odd: vec![cell(4, 4)],
        even: vec![cell(5, 5), cell(6, 6)],
        thermometers: vec![vec![cell(2, 6), cell(3, 6), cell(4, 6)]],
        ..Rules::default()
    };
    let picture = BoardPicture { rules, ..classic() };
    let svg = sheet_svg(&picture, None, Show::Puzzle, None, 600);
    assert_eq!(count(&svg, "class=\"diagonal\""), 2);
    assert_eq!(count(&svg, "class=\"extra-region\""), 1);
    assert_eq!(count(&svg, "class=\"cage\""), 2);
    assert_eq!(count(&svg, "class=\"cage-sum\""), 1);
    assert!(svg.contains(">17</text>"));
    assert_eq!(count(&svg, "class=\"odd\""), 1);
    assert_eq!(count(&svg, "class=\"even\""), 2);
    assert_eq!(count(&svg, "class=\"bulb\""), 1);
    assert_eq!(count(&svg, "class=\"tube\""), 1);
    // A two-cell cage has six sides on its edge; a lone cell four.
    let outlines: Vec<usize> = svg
        .split("class=\"cage\"")
        .skip(1)
        .map(|rest| count(rest.split("/>").next().unwrap(), "M"))
        .collect();
    assert_eq!(outlines, [6, 4]);
}

#[test]
fn jigsaw_regions_replace_the_boxes_edges() {
    // Rows as regions: every edge between two rows is a region edge, no column edge is.
    let rules = Rules {
        regions: Some((0..9).map(|row| vec![row; 9]).collect()),
        ..Rules::default()
    };
    let picture = BoardPicture { rules, ..classic() };
    let svg = sheet_svg(&picture, None, Show::Puzzle, None, 600);
    let edges = svg.split("class=\"region-edges\" d=\"").nth(1).unwrap();
    let edges = edges.split('"').next().unwrap();
    assert_eq!(count(edges, "H"), 8 * 9);
    assert_eq!(count(edges, "V"), 0);
}

#[test]
fn a_title_is_escaped() {
    let svg = sheet_svg(&classic(), None, Show::Puzzle, Some("Tom & <Jerry>"), 600);
    assert!(svg.contains(">Tom &amp; &lt;Jerry&gt;</text>"));
    assert!(svg_to_png(&svg).is_ok());
}

#[test]
fn a_long_title_is_set_smaller_to_fit_the_sheet() {
    let font_size = |svg: &str| -> f64 {
        let title = svg.split("class=\"title\"").nth(1).unwrap();
        let size = title.split("font-size=\"").nth(1).unwrap();
        size.split('"').next().unwrap().parse().unwrap()
    };
    let short = sheet_svg(&classic(), None, Show::Puzzle, Some("Daily"), 600);
    let long = sheet_svg(
        &classic(),
        None,
        Show::Puzzle,
        Some(&"Long title ".repeat(8)),
        600,
    );
    // 87 characters (trimmed) at 0.6 em in the 360 units between the margins.
    assert!(font_size(&long) < font_size(&short));
    assert!(font_size(&long) * 0.6 * 87.0 <= 361.0);
}

fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn a_png_is_as_wide_as_asked_and_black_on_white() {
    let svg = sheet_svg(&classic(), None, Show::Puzzle, None, 450);
    let png = svg_to_png(&svg).unwrap();
    assert_eq!(png_size(&png), (450, 450));
}

fn page_count(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(pdf);
    text.matches("/Type /Page\n")
        .chain(text.matches("/Type /Page "))
        .chain(text.matches("/Type /Page/"))
        .chain(text.matches("/Type /Page>"))
        .count()
}

#[test]
fn a_sheet_as_pdf_is_one_page() {
    let svg = sheet_svg(&classic(), None, Show::Puzzle, None, 600);
    let pdf = svgs_to_pdf(&[svg]).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    assert_eq!(page_count(&pdf), 1);
}

fn puzzles(count: usize) -> Vec<BookletPuzzle> {
    (0..count)
        .map(|i| BookletPuzzle {
            puzzle: classic(),
            solution: digits(SOLUTION),
            caption: format!("Medium, rating 3.{i}"),
        })
        .collect()
}

#[test]
fn a_booklet_has_its_puzzle_pages_then_its_solution_pages() {
    for (count, per_page, solutions, large_print, pages) in [
        (1, 1, Solutions::Back, false, 2),
        (7, 2, Solutions::Back, false, 4 + 2),
        (7, 4, Solutions::None, false, 2),
        (13, 6, Solutions::Back, false, 3 + 3),
        (9, 6, Solutions::Back, true, 2 + 3),
    ] {
        let options = Booklet {
            per_page,
            solutions,
            large_print,
            paper: Paper::Letter,
            ..Booklet::default()
        };
        assert_eq!(booklet_page_count(count, &options), pages);
        let pdf = booklet(&puzzles(count), &options).unwrap();
        assert_eq!(
            page_count(&pdf),
            pages,
            "{count} puzzles, {per_page} a page"
        );
    }
}

#[test]
fn the_same_booklet_gives_the_same_bytes() {
    let options = Booklet::default();
    let first = booklet(&puzzles(5), &options).unwrap();
    let second = booklet(&puzzles(5), &options).unwrap();
    assert!(first == second);
    let other = booklet(&puzzles(6), &options).unwrap();
    assert!(first != other);
}
