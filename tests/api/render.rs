//! `POST /render` and `/booklet` through the router: each format's content type and
//! bytes (a PNG decoded, a PDF's header and pages), the puzzle read as `/solve` reads it,
//! and every bad input as the same problem+json.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::helpers::*;

/// An answer and its raw bytes.
async fn send(method: Method, path: &str, body: Option<&Value>) -> (Answer, Vec<u8>) {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "localhost");
    let body = match body {
        Some(value) => {
            request = request.header("content-type", "application/json");
            Body::from(json_bytes(value))
        }
        None => Body::empty(),
    };
    let response = app().oneshot(request.body(body).unwrap()).await.unwrap();
    let (answer, bytes) = read_answer(response).await;
    (answer, bytes.to_vec())
}

async fn render(body: &Value) -> (Answer, Vec<u8>) {
    send(Method::POST, "/render", Some(body)).await
}

/// The pages of a PDF, from its page objects.
fn page_count(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(pdf);
    [
        "/Type /Page\n",
        "/Type /Page ",
        "/Type /Page/",
        "/Type /Page>",
    ]
    .iter()
    .map(|needle| text.matches(needle).count())
    .sum()
}

/// A PNG decoded: width, height and its pixels as RGBA.
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    let mut decoder = png::Decoder::new(bytes);
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(info.buffer_size());
    assert_eq!(info.color_type, png::ColorType::Rgba, "RGBA");
    (info.width, info.height, pixels)
}

#[tokio::test]
async fn render_answers_each_format_with_its_content_type() {
    for (format, content_type) in [
        ("svg", "image/svg+xml"),
        ("png", "image/png"),
        ("pdf", "application/pdf"),
    ] {
        let (answer, bytes) = render(&json!({"board": PUZZLE, "format": format})).await;
        assert_eq!(answer.status, StatusCode::OK, "{format}: {:?}", answer.body);
        assert_eq!(answer.content_type(), content_type, "{format}");
        match format {
            "svg" => {
                let svg = String::from_utf8(bytes).unwrap();
                assert!(svg.starts_with("<svg "), "{format}");
                assert_eq!(svg.matches("class=\"given\"").count(), 30, "{format}");
            }
            "png" => {
                let (width, height, _) = decode_png(&bytes);
                assert_eq!((width, height), (600, 600), "{format}");
            }
            _ => {
                assert!(bytes.starts_with(b"%PDF-1."), "{format}");
                assert_eq!(page_count(&bytes), 1, "{format}");
            }
        }
    }
}

#[tokio::test]
async fn render_draws_a_png_as_wide_as_asked_black_lines_on_white() {
    let (answer, bytes) = render(&json!({"board": PUZZLE, "format": "png", "size_px": 300})).await;
    assert_eq!(answer.status, StatusCode::OK);
    let (width, height, pixels) = decode_png(&bytes);
    assert_eq!((width, height), (300, 300));
    let at = |x: u32, y: u32| {
        let i = ((y * width + x) * 4) as usize;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    assert_eq!(at(2, 2), [255, 255, 255], "the margin is white");
    // The board's outer border runs down the left side, a margin (a 20th of the width) in.
    let column: Vec<[u8; 3]> = (0..width).map(|x| at(x, height / 2)).collect();
    let first_dark = column.iter().position(|p| p.iter().all(|&c| c < 60));
    assert!(
        first_dark.is_some_and(|x| (10..20).contains(&x)),
        "{first_dark:?}"
    );
}

#[tokio::test]
async fn render_shows_the_solution_told_apart_from_the_givens() {
    let (answer, bytes) =
        render(&json!({"board": char_rows(PUZZLE), "format": "svg", "show": "solution"})).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    let svg = String::from_utf8(bytes).unwrap();
    assert_eq!(svg.matches("class=\"given\"").count(), 30);
    assert_eq!(svg.matches("class=\"entry\"").count(), 51);
    let (_, both) =
        render(&json!({"board": int_rows(PUZZLE), "format": "svg", "show": "both"})).await;
    let both = String::from_utf8(both).unwrap();
    assert_eq!(both.matches("class=\"board\"").count(), 2);
}

#[tokio::test]
async fn render_draws_the_rules_of_a_variant_and_other_sizes() {
    let rules = json!({
        "cages": [{"sum": 10, "cells": [{"row": 0, "col": 0}, {"row": 0, "col": 1}]}],
        "diagonals": ["main"],
    });
    let (answer, bytes) = render(&json!({
        "board": ".".repeat(81), "rules": rules, "format": "svg", "title": "Killer X",
    }))
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    let svg = String::from_utf8(bytes).unwrap();
    assert_eq!(svg.matches("class=\"cage\"").count(), 1);
    assert!(svg.contains(">10</text>") && svg.contains(">Killer X</text>"));
    assert_eq!(svg.matches("class=\"diagonal\"").count(), 1);

    let mut line = ".".repeat(256);
    line.replace_range(0..1, "G");
    let (answer, bytes) = render(&json!({"board": line, "format": "svg"})).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    assert!(String::from_utf8(bytes).unwrap().contains(">G</text>"));
}

#[tokio::test]
async fn render_draws_pencil_marks_in_empty_cells() {
    let mut marks = vec![Value::Null; 81];
    marks[2] = json!([1, 2, 4]);
    let (answer, bytes) =
        render(&json!({"board": PUZZLE, "format": "svg", "candidates": marks})).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    let svg = String::from_utf8(bytes).unwrap();
    let group = svg.split("class=\"candidates\"").nth(1).unwrap();
    assert_eq!(
        group.split("</g>").next().unwrap().matches("<text").count(),
        3
    );
}

#[tokio::test]
async fn render_answers_422_for_the_solution_of_a_board_with_none() {
    let clash = format!("55{}", &PUZZLE[2..]);
    let (answer, _) = render(&json!({"board": clash, "format": "png", "show": "solution"})).await;
    answer.assert_problem(422, "no_solution", "solution of a clash");
    // The puzzle alone is drawn as it is.
    let (answer, _) = render(&json!({"board": clash, "format": "png"})).await;
    assert_eq!(answer.status, StatusCode::OK);
}

#[tokio::test]
async fn render_refuses_bad_input_as_solve_does() {
    let cases = [
        ("no format", json!({"board": PUZZLE}), "invalid_request"),
        (
            "unknown format",
            json!({"board": PUZZLE, "format": "gif"}),
            "invalid_request",
        ),
        (
            "tiny",
            json!({"board": PUZZLE, "format": "png", "size_px": 99}),
            "invalid_request",
        ),
        (
            "huge",
            json!({"board": PUZZLE, "format": "png", "size_px": 2401}),
            "invalid_request",
        ),
        (
            "negative",
            json!({"board": PUZZLE, "format": "png", "size_px": -5}),
            "invalid_request",
        ),
        (
            "show",
            json!({"board": PUZZLE, "format": "svg", "show": "all"}),
            "invalid_request",
        ),
        (
            "long title",
            json!({"board": PUZZLE, "format": "svg", "title": "x".repeat(201)}),
            "invalid_request",
        ),
        (
            "unknown member",
            json!({"board": PUZZLE, "format": "svg", "colour": "red"}),
            "invalid_request",
        ),
        ("no board", json!({"format": "svg"}), "invalid_request"),
        (
            "short board",
            json!({"board": "123", "format": "svg"}),
            "invalid_board",
        ),
        (
            "bad rules",
            json!({"board": PUZZLE, "format": "svg", "rules": {"diagonals": ["up"]}}),
            "invalid_request",
        ),
        (
            "bad candidates",
            json!({"board": PUZZLE, "format": "svg", "candidates": [[10]]}),
            "invalid_board",
        ),
        (
            "bad f-puzzles",
            json!({"fpuzzles": "nope", "format": "svg"}),
            "invalid_fpuzzles",
        ),
    ];
    for (case, body, code) in cases {
        let (answer, _) = render(&body).await;
        answer.assert_problem(400, code, case);
    }
}

#[tokio::test]
async fn booklet_answers_a_pdf_with_puzzle_and_solution_pages() {
    let (answer, bytes) = send(
        Method::GET,
        "/booklet?count=3&seed=11&difficulty=easy&per_page=2&paper=letter",
        None,
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    assert_eq!(answer.content_type(), "application/pdf");
    assert!(bytes.starts_with(b"%PDF-1."));
    // Two pages of puzzles (2 + 1), one of solutions (up to 6 a page).
    assert_eq!(page_count(&bytes), 3);
    let (_, none) = send(Method::GET, "/booklet?count=3&seed=11&solutions=none", None).await;
    assert_eq!(page_count(&none), 1);
}

#[tokio::test]
async fn booklet_gives_the_same_bytes_for_the_same_seed() {
    let path = "/booklet?count=2&seed=99&per_page=1";
    let (_, first) = send(Method::GET, path, None).await;
    let (_, second) = send(Method::GET, path, None).await;
    assert!(first == second, "two booklets of one seed differ");
    let (_, other) = send(Method::GET, "/booklet?count=2&seed=100&per_page=1", None).await;
    assert!(first != other);
}

#[tokio::test]
async fn booklet_refuses_a_count_or_layout_out_of_bounds() {
    for (query, parameter) in [
        ("count=0", "count"),
        ("count=201", "count"),
        ("per_page=5", "per_page"),
        ("paper=a5", "paper"),
        ("large_print=yes", "large_print"),
        ("solutions=front", "solutions"),
        ("difficulty=tough", "difficulty"),
        ("seed=-1", "seed"),
        ("pages=3", "pages"),
    ] {
        let (answer, _) = send(Method::GET, &format!("/booklet?{query}"), None).await;
        answer.assert_problem(400, "invalid_parameter", query);
        assert_eq!(answer.body["parameter"], parameter, "{query}");
    }
}

#[tokio::test]
async fn booklet_by_post_prints_the_boards_sent() {
    let body = json!({
        "boards": [PUZZLE, char_rows(PUZZLE), ".".repeat(16)],
        "per_page": 6,
        "large_print": true,
    });
    let (answer, bytes) = send(Method::POST, "/booklet", Some(&body)).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    assert_eq!(answer.content_type(), "application/pdf");
    // One page of puzzles, one of solutions (four a page in large print).
    assert_eq!(page_count(&bytes), 2);
}

#[tokio::test]
async fn booklet_by_post_refuses_bad_boards_and_layouts() {
    let clash = format!("55{}", &PUZZLE[2..]);
    let too_many: Vec<&str> = vec![PUZZLE; 101];
    for (case, body, status, code) in [
        ("no boards", json!({"boards": []}), 400, "invalid_request"),
        (
            "too many",
            json!({"boards": too_many}),
            400,
            "invalid_request",
        ),
        ("bad board", json!({"boards": ["12"]}), 400, "invalid_board"),
        (
            "per_page",
            json!({"boards": [PUZZLE], "per_page": 3}),
            400,
            "invalid_request",
        ),
        (
            "paper",
            json!({"boards": [PUZZLE], "paper": "a5"}),
            400,
            "invalid_request",
        ),
        (
            "no solution",
            json!({"boards": [clash]}),
            422,
            "no_solution",
        ),
    ] {
        let (answer, _) = send(Method::POST, "/booklet", Some(&body)).await;
        answer.assert_problem(status, code, case);
    }
}
