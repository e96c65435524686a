//! The `scan` command as a real process: a committed photo read into its givens, lines in
//! the order of the images, the JSON answer with its solution, and files that are no image.

use std::process::Output;

use serde_json::Value;
use sudoku::{Grid, Solver, Verdict};

use crate::helpers::*;

/// A photo of the dataset's training split, and its givens (as `tests/api/scan.rs` reads it).
const PHOTO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/photos/images/image1.jpg");
const PHOTO_GIVENS: &str =
    "...7...8..9...31....68.5.7..2.6...49...2...5...8.4...7...9...3.37......61.5..4...";

fn run(args: &[&str]) -> Output {
    binary().args(args).output().unwrap()
}

#[test]
fn scan_prints_a_line_of_givens_per_image_in_the_order_given() {
    let output = run(&["scan", "--threads", "2", PHOTO, PHOTO, PHOTO]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), [PHOTO_GIVENS; 3]);
}

#[test]
fn scan_json_gives_the_whole_answer_and_the_unique_solution_when_asked() {
    let output = run(&["scan", "--json", "--solve", PHOTO]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    let answer: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(answer["image"], PHOTO);
    assert_eq!(answer["board"], PHOTO_GIVENS);
    assert_eq!(answer["entries"], ".".repeat(81));
    assert_eq!(answer["cells"].as_array().unwrap().len(), 81);
    assert_eq!(answer["corners"].as_array().unwrap().len(), 4);
    let Ok(Verdict::Unique(expected)) =
        Solver::default().analyze(&Grid::from_line(PHOTO_GIVENS).unwrap())
    else {
        panic!("the photo's givens have one solution");
    };
    assert_eq!(answer["solution"]["solution"], expected.to_line());
    assert_eq!(answer["solution"]["unique"], true);
}

#[test]
fn a_file_that_is_no_image_is_named_and_the_others_still_read() {
    let not_an_image = TempFile::with_contents("not a photo\n");
    let not_an_image = not_an_image.path().to_str().unwrap().to_owned();
    let missing = "/nonexistent/photo.jpg";

    let output = run(&["scan", PHOTO, &not_an_image, missing]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&output.stdout), format!("{PHOTO_GIVENS}\n"));
    let stderr = text(&output.stderr);
    assert!(stderr.contains(&format!("{not_an_image}: ")), "{stderr}");
    assert!(stderr.contains(&format!("{missing}: ")), "{stderr}");
    assert!(
        stderr.contains("2 of 3 images could not be read"),
        "{stderr}"
    );

    let output = run(&["scan", "--json", &not_an_image, PHOTO]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    let answers: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), 2, "{stdout}");
    assert_eq!(answers[0]["image"], not_an_image.as_str());
    assert_eq!(answers[0]["error"]["code"], "invalid_image");
    assert!(answers[0].get("board").is_none());
    assert_eq!(answers[1]["board"], PHOTO_GIVENS);
}

#[test]
fn an_image_over_the_pixel_limit_is_refused_before_it_is_decoded() {
    let output = run(&["scan", "--max-pixels", "1000", "--json", PHOTO]);
    assert_eq!(output.status.code(), Some(1));
    let answer: Value = serde_json::from_str(text(&output.stdout).trim()).unwrap();
    assert_eq!(answer["error"]["code"], "image_too_large");
}

#[test]
fn scan_without_an_image_is_a_usage_error() {
    let output = run(&["scan"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("IMAGE"));
}
