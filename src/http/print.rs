//! `/render` and `/booklet`: pictures of boards and printable booklets, drawn by the
//! `sudoku-print` crate on the solver pool. The puzzle is read as `/solve` reads it; the
//! answer is the picture itself.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use sudoku::variant::{Puzzle, VariantVerdict, find_variant_conflicts, solve_variant};
use sudoku::{GenerateOptions, GradeOptions, Grid, generate};
use sudoku_print::{
    BoardPicture, BookletPuzzle, PrintError, Show, booklet, grade_caption, sheet_svg, svg_to_png,
    svgs_to_pdf,
};

use super::error::ApiError;
use super::extract::{JsonBody, QueryPairs};
use super::generator::draw_seed;
use super::handler::variant_budget;
use super::pool::SolverPool;
use super::puzzle::{batch_input, checked_rules, request_input};
use super::state::Limits;
use super::wire::print::{
    BookletQuery, BookletRequest, RenderFormat, RenderOptions, RenderRequest,
    read_render_candidates,
};
use super::wire::variant_conflict_bodies;

/// `POST /render`: the puzzle drawn in the format asked for.
pub(super) async fn render(
    State(pool): State<Arc<SolverPool>>,
    JsonBody(request): JsonBody<RenderRequest>,
) -> Result<Response, ApiError> {
    let (request, options, candidates) = request.split().map_err(ApiError::InvalidRequest)?;
    let (board, puzzle) = request_input(&request)?;
    let candidates = candidates
        .map(|marks| read_render_candidates(&marks, board.size))
        .transpose()
        .map_err(|error| ApiError::InvalidBoard(vec![error]))?
        .unwrap_or_default();
    let format = options.format;
    let picture = pool
        .run(move |solver| draw(solver, &puzzle, candidates, &options))
        .await??;
    let extension = match format {
        RenderFormat::Svg => "svg",
        RenderFormat::Png => "png",
        RenderFormat::Pdf => "pdf",
    };
    Ok(file(
        format.content_type(),
        &format!("sudoku.{extension}"),
        picture,
    ))
}

/// The picture of `puzzle` as `options` ask, solving it first when the solution is shown.
fn draw(
    solver: &sudoku::Solver,
    puzzle: &Puzzle,
    candidates: Vec<u32>,
    options: &RenderOptions,
) -> Result<Vec<u8>, ApiError> {
    let solution = match options.show {
        Show::Puzzle => None,
        Show::Solution | Show::Both => Some(solution_of(solver, puzzle)?),
    };
    let picture = BoardPicture {
        size: puzzle.size(),
        givens: puzzle.givens().to_vec(),
        entries: Vec::new(),
        candidates,
        rules: puzzle.rules().clone(),
    };
    let svg = sheet_svg(
        &picture,
        solution.as_deref(),
        options.show,
        options.title.as_deref(),
        options.size_px,
    );
    match options.format {
        RenderFormat::Svg => Ok(svg.into_bytes()),
        RenderFormat::Png => svg_to_png(&svg).map_err(|error| print_failed(&error)),
        RenderFormat::Pdf => svgs_to_pdf(&[svg]).map_err(|error| print_failed(&error)),
    }
}

/// The first solution of `puzzle`, or 422 with the conflicts that prove there is none.
fn solution_of(solver: &sudoku::Solver, puzzle: &Puzzle) -> Result<Vec<u8>, ApiError> {
    match solve_variant(puzzle, variant_budget(solver, puzzle))? {
        VariantVerdict::Unique(cells) | VariantVerdict::Multiple(cells) => Ok(cells),
        VariantVerdict::None => Err(ApiError::NoSolution(variant_conflict_bodies(
            &find_variant_conflicts(puzzle, puzzle.givens()),
        ))),
    }
}

fn print_failed(error: &PrintError) -> ApiError {
    ApiError::Internal(error.to_string())
}

/// `GET /booklet`: puzzles generated from the seed, as a PDF booklet; the same query with
/// a seed gives the same bytes.
pub(super) async fn booklet_generated(
    State(pool): State<Arc<SolverPool>>,
    State(limits): State<Limits>,
    QueryPairs(pairs): QueryPairs,
) -> Result<Response, ApiError> {
    // From the request's arrival, so that time spent waiting for a slot counts too.
    let arrived = Instant::now();
    let query = BookletQuery::from_pairs(&pairs)?;
    let deadline = arrived + limits.request_timeout.mul_f64(0.9);
    let seed = query.seed.unwrap_or_else(draw_seed);
    let difficulty = query.difficulty;
    let seeds: Vec<u64> = (0..query.count as u64)
        .map(|index| seed.wrapping_add(index))
        .collect();
    let parts = pool
        .map_parts(seeds, move |_, _, seeds| {
            seeds
                .iter()
                .map(|&seed| {
                    let options = GenerateOptions {
                        difficulty,
                        seed,
                        ..GenerateOptions::default()
                    };
                    generate(&options, &mut || Instant::now() < deadline)
                        .map(|made| BookletPuzzle::of_generated(&made))
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .await?;
    let mut puzzles = Vec::with_capacity(query.count);
    for part in parts {
        puzzles.extend(part?);
    }
    let layout = query.booklet;
    let pdf = pool
        .run(move |_| booklet(&puzzles, &layout))
        .await?
        .map_err(|error| print_failed(&error))?;
    Ok(file(
        "application/pdf",
        &format!("sudoku-booklet-{seed}.pdf"),
        pdf,
    ))
}

/// `POST /booklet`: the boards sent, solved (and the classic ones graded), as a PDF
/// booklet.
pub(super) async fn booklet_sent(
    State(pool): State<Arc<SolverPool>>,
    State(limits): State<Limits>,
    JsonBody(request): JsonBody<BookletRequest>,
) -> Result<Response, ApiError> {
    let layout = request.booklet().map_err(ApiError::InvalidRequest)?;
    let rules = checked_rules(request.rules.as_ref())?;
    let puzzles = request
        .boards
        .iter()
        .enumerate()
        .map(|(index, board)| batch_input(board, rules.as_ref(), index).map(|(_, puzzle)| puzzle))
        .collect::<Result<Vec<_>, _>>()?;
    let step_budget = limits.grade_steps;
    let parts = pool
        .map_parts(puzzles, move |solver, _, puzzles| {
            puzzles
                .iter()
                .map(|puzzle| booklet_entry(solver, puzzle, step_budget))
                .collect::<Result<Vec<_>, _>>()
        })
        .await?;
    let mut entries = Vec::new();
    for part in parts {
        entries.extend(part?);
    }
    let pdf = pool
        .run(move |_| booklet(&entries, &layout))
        .await?
        .map_err(|error| print_failed(&error))?;
    Ok(file("application/pdf", "sudoku-booklet.pdf", pdf))
}

/// One board of a `POST /booklet`: its solution, and for a classic 9x9 with one solution
/// its difficulty and rating.
fn booklet_entry(
    solver: &sudoku::Solver,
    puzzle: &Puzzle,
    step_budget: usize,
) -> Result<BookletPuzzle, ApiError> {
    let (solution, unique) = match solve_variant(puzzle, variant_budget(solver, puzzle))? {
        VariantVerdict::Unique(cells) => (cells, true),
        VariantVerdict::Multiple(cells) => (cells, false),
        VariantVerdict::None => {
            return Err(ApiError::NoSolution(variant_conflict_bodies(
                &find_variant_conflicts(puzzle, puzzle.givens()),
            )));
        }
    };
    let classic = puzzle.size() == 9 && *puzzle.rules() == sudoku::variant::Rules::default();
    let grade = if classic && unique {
        let cells: [u8; 81] = puzzle.givens().try_into().unwrap_or([0; 81]);
        Grid::from_cells(cells).ok().and_then(|grid| {
            sudoku::grade(
                &grid,
                &GradeOptions {
                    solver: *solver,
                    step_budget,
                },
            )
            .ok()
        })
    } else {
        None
    };
    Ok(BookletPuzzle {
        puzzle: BoardPicture {
            size: puzzle.size(),
            givens: puzzle.givens().to_vec(),
            entries: Vec::new(),
            candidates: Vec::new(),
            rules: puzzle.rules().clone(),
        },
        solution,
        caption: grade
            .map(|grade| grade_caption(grade.difficulty, grade.rating))
            .unwrap_or_default(),
    })
}

/// A file answered inline, with its content type and a name to save it under.
fn file(content_type: &'static str, name: &str, bytes: Vec<u8>) -> Response {
    let disposition = HeaderValue::from_str(&format!("inline; filename=\"{name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("inline"));
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response()
}
