//! The `grade` command as a real process: files, stdin, unusable lines, JSON Lines, order
//! across threads, exit codes.

use serde_json::Value;

use crate::helpers::*;

/// A puzzle whose hardest step is a BUG+1 (SE 5.6), in the middle of the hard band.
const HARD: &str =
    ".9...81...........874....6.6.93..814......97.4...5...6.....9...9.3724.....2.8...3";

/// A comment, the classic puzzle (easy), an empty grid (many solutions), a line that is no
/// puzzle, one with no solution, the hard puzzle, and a blank line.
fn puzzle_file() -> TempFile {
    let empty = empty_board();
    TempFile::with_contents(&format!(
        "# a comment\n{PUZZLE}\n{empty}\nnot a puzzle\n{DEAD_END}\n{HARD}\n\n"
    ))
}

#[test]
fn grade_prints_rating_and_difficulty_per_line_and_what_kept_a_line_from_one() {
    let file = puzzle_file();
    let output = binary()
        .args(["grade", "--threads", "2"])
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "an ungraded line means exit 1"
    );
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    let (rating, difficulty) = lines[0].split_once(' ').unwrap();
    assert!(rating.parse::<f64>().unwrap() <= 2.3, "{stdout}");
    assert_eq!(difficulty, "easy");
    assert_eq!(lines[1..4], ["multiple", "invalid", "none"]);
    let (rating, difficulty) = lines[4].split_once(' ').unwrap();
    assert!(rating.parse::<f64>().unwrap() >= 4.0, "{stdout}");
    assert_eq!(difficulty, "hard");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(":3: the puzzle has more than one solution"),
        "{stderr}"
    );
    assert!(
        stderr.contains(":4: a board string must have 81 cells, found 12 characters"),
        "{stderr}"
    );
    assert!(
        stderr.contains(":5: the puzzle has no solution"),
        "{stderr}"
    );
    assert!(
        stderr.contains("5 puzzles") && stderr.contains("easy 1, medium 0, hard 1,"),
        "{stderr}"
    );
    assert!(
        stderr.contains("none 1, multiple 1, invalid 1, unknown 0"),
        "{stderr}"
    );
}

#[test]
fn json_lines_carry_the_grade_and_its_techniques() {
    let file = puzzle_file();
    let output = binary()
        .args(["grade", "--json"])
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let records: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary: Vec<(u64, &str)> = records
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [
            (2, "graded"),
            (3, "multiple"),
            (4, "invalid"),
            (5, "none"),
            (6, "graded")
        ]
    );
    for graded in [&records[0], &records[4]] {
        assert_eq!(graded["solved_by_logic"], true);
        assert_eq!(graded["stuck"], false);
        let techniques = graded["techniques"].as_array().unwrap();
        let ratings: Vec<f64> = techniques
            .iter()
            .map(|t| t["rating"].as_f64().unwrap())
            .collect();
        assert!(ratings.is_sorted(), "{graded}");
        assert_eq!(graded["rating"].as_f64(), ratings.last().copied());
        let steps: u64 = techniques
            .iter()
            .map(|t| t["count"].as_u64().unwrap())
            .sum();
        assert_eq!(graded["steps"].as_u64(), Some(steps));
        assert!(graded.get("error").is_none());
    }
    assert_eq!(records[0]["difficulty"], "easy");
    assert_eq!(records[4]["difficulty"], "hard");
    let hardest = records[4]["techniques"].as_array().unwrap().last().unwrap();
    assert_eq!(hardest["rating"], records[4]["rating"]);
    assert!(hardest["name"].as_str().unwrap().len() > 1, "{hardest}");
    assert_eq!(
        records[2]["error"],
        "a board string must have 81 cells, found 12 characters"
    );
    assert!(records[1].get("rating").is_none());
}

#[test]
fn grade_reads_stdin_when_no_file_is_given_and_exits_0_when_all_are_graded() {
    let output = run_with_stdin(&["grade"], &format!("{PUZZLE}\n{SOLUTION}\n"));
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].ends_with(" easy"));
    assert_eq!(lines[1], "0.0 easy", "a solved grid needs no step");
}

#[test]
fn output_keeps_input_order_and_is_the_same_on_one_thread_or_two() {
    let mut input = String::new();
    for i in 0..300 {
        input.push_str(if i % 3 == 0 { HARD } else { PUZZLE });
        input.push('\n');
    }
    let one = run_with_stdin(&["grade", "--json", "--threads", "1"], &input);
    let two = run_with_stdin(&["grade", "--json", "--threads", "2"], &input);
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(two.status.code(), Some(0));
    assert_eq!(text(&one.stdout), text(&two.stdout));
    for (i, line) in text(&two.stdout).lines().enumerate() {
        let record: Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["line"], i + 1);
        let expected = if i % 3 == 0 { "hard" } else { "easy" };
        assert_eq!(record["difficulty"], expected, "line {}", i + 1);
    }
}

#[test]
fn a_pipe_gets_no_progress_bar() {
    let input = format!("{PUZZLE}\n").repeat(50);
    for command in ["grade", "solve"] {
        let output = run_with_stdin(&[command], &input);
        let stderr = text(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "the summary alone: {stderr:?}");
        assert!(!stderr.contains(['\r', '\u{1b}']), "{stderr:?}");
    }
}

#[test]
fn a_missing_file_or_a_bad_flag_is_a_usage_error() {
    let output = binary().args(["grade", "/no/such/file"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("sudoku-service grade: /no/such/file"));
    let output = binary().args(["grade", "--no-such-flag"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let output = binary()
        .args(["grade", "--steps", "many"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}
