//! The `solve` command as a real process: files, stdin, malformed lines, JSON Lines, exit codes.

use std::io::{BufRead, BufReader, Read, Write};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::helpers::*;

fn puzzle_file() -> TempFile {
    let empty = empty_board();
    let zeros = PUZZLE.replace('.', "0");
    TempFile::with_contents(&format!(
        "# a comment\n{PUZZLE}\n\n{zeros}\r\nnot a puzzle\n{DEAD_END}\n{empty}\n"
    ))
}

#[test]
fn solve_prints_one_line_per_puzzle_and_flags_the_malformed_one() {
    let file = puzzle_file();
    let output = binary()
        .args(["solve", "--threads", "2"])
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "a malformed line means exit 1"
    );
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    assert_eq!(lines[0], SOLUTION);
    assert_eq!(lines[1], SOLUTION);
    assert_eq!(lines[2], "invalid");
    assert_eq!(lines[3], "none");
    assert_eq!(lines[4].len(), 81, "the empty grid gets some solution");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(":5: a board string must have 81 cells, found 12 characters"),
        "{stderr}"
    );
    assert!(
        stderr.contains("5 puzzles") && stderr.contains("unique 2, multiple 1, none 1, invalid 1"),
        "{stderr}"
    );
    assert!(stderr.contains("puzzles/s"), "{stderr}");
}

#[test]
fn json_lines_carry_line_numbers_statuses_and_errors() {
    let file = puzzle_file();
    let output = binary()
        .args(["solve", "--json"])
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
        vec![
            (2, "unique"),
            (4, "unique"),
            (5, "invalid"),
            (6, "none"),
            (7, "multiple")
        ]
    );
    assert_eq!(records[0]["solution"], SOLUTION);
    assert!(records[2]["solution"].is_null());
    assert_eq!(
        records[2]["error"],
        "a board string must have 81 cells, found 12 characters"
    );
    assert!(records[3]["solution"].is_null());
    assert!(records[0].get("error").is_none());
}

#[test]
fn solve_reads_stdin_when_no_file_is_given_and_exits_0_when_all_parse() {
    let output = run_with_stdin(&["solve"], &format!("{PUZZLE}\n{DEAD_END}\n"));
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), format!("{SOLUTION}\nnone\n"));
}

#[test]
fn a_missing_file_or_a_bad_flag_is_a_usage_error() {
    let output = binary().args(["solve", "/no/such/file"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("/no/such/file"));
    let output = binary().args(["solve", "--no-such-flag"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn output_keeps_input_order_across_threads() {
    // Alternate two different puzzles so any reordering shows; more lines than one chunk.
    let mut input = String::new();
    for i in 0..9_000 {
        input.push_str(if i % 2 == 0 { PUZZLE } else { DEAD_END });
        input.push('\n');
    }
    let output = run_with_stdin(&["solve", "--threads", "4"], &input);
    assert_eq!(output.status.code(), Some(0));
    let stdout = text(&output.stdout);
    for (i, line) in stdout.lines().enumerate() {
        let expected = if i % 2 == 0 { SOLUTION } else { "none" };
        assert_eq!(line, expected, "line {i}");
    }
    assert_eq!(stdout.lines().count(), 9_000);
}

#[test]
fn closing_the_output_stops_the_run() {
    // Endless input: easy puzzles, then slow ones for ever. The run can only end because the
    // reader went away (`| head -1`) while the easy answers were still being written.
    let mut child = spawn(&["solve", "--threads", "2"]);
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let easy = format!("{PUZZLE}\n").repeat(8192);
        let slow = format!("{SLOW}\n").repeat(64);
        std::iter::once(&easy)
            .chain(std::iter::repeat(&slow))
            .find_map(|text| stdin.write_all(text.as_bytes()).err())
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first.trim_end(), SOLUTION);
    drop(stdout);
    let closed = Instant::now();
    // Only a hang reaches the bound: stopping takes about one slow puzzle, well under a
    // second in a debug build, and how long it took is printed (`--nocapture`).
    let bound = Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if closed.elapsed() > bound {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("still solving {bound:?} after its output was closed");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    eprintln!(
        "stopped {:?} after its output was closed (hang bound {bound:?})",
        closed.elapsed()
    );
    // A closed pipe is how `| head` ends a run: quietly, and not as a failure.
    assert!(status.success(), "{status}");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(stderr, "", "no summary, no error");
    let unread = feeder.join().unwrap().expect("the input never ends");
    assert_eq!(
        unread.kind(),
        std::io::ErrorKind::BrokenPipe,
        "the child closed its input by exiting"
    );
}

#[test]
fn sighup_still_ends_solve_as_a_closed_terminal_should() {
    use std::os::unix::process::ExitStatusExt;
    // Stdin held open: the command waits on it for lines.
    let mut child = spawn(&["solve"]);
    wait_until_sighup_is_caught(child.id(), "solve");
    send_signal(child.id(), "HUP");
    let ended = child.wait().unwrap();
    assert_eq!(ended.signal(), Some(1), "{ended:?}");
}

#[test]
fn lines_of_other_sides_are_solved_under_their_classic_rules() {
    // A 4x4 with one solution (one cell open in each row), a 16x16 with many (digits past
    // 9 as letters, in either case), a 6x6 that clashes, and a 4x4 with a digit past 4.
    let file = TempFile::with_contents(&format!(
        "1234341.2.4343.1\na{}\n11{}\n5{}\n",
        ".".repeat(255),
        ".".repeat(34),
        ".".repeat(15)
    ));
    let output = binary()
        .args(["solve", "--json"])
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "the last line is invalid");
    let records: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(records[0]["status"], "unique");
    assert_eq!(records[0]["solution"], "1234341221434321");
    assert_eq!(records[1]["status"], "multiple");
    let solution = records[1]["solution"].as_str().unwrap();
    assert!(
        solution.starts_with('A') && solution.len() == 256,
        "{solution}"
    );
    assert!(
        solution.chars().all(|c| "123456789ABCDEFG".contains(c)),
        "{solution}"
    );
    assert_eq!(records[2]["status"], "none");
    assert_eq!(records[3]["status"], "invalid");
    assert_eq!(
        records[3]["error"],
        "invalid cell '5' at r1c1 (character 1 of 16): a 4x4 board takes digits 1 to 4 (past 9 as letters from A), \".\" or \"0\""
    );
}

#[test]
fn a_json_line_is_solved_by_the_general_engine_with_its_rules() {
    // A 4x4 killer whose first cage forces 1 and 2, as /solve takes it; the same puzzle as
    // f-puzzles JSON; an unsupported f-puzzles constraint; a malformed rules line.
    let rules = r#"{"board": "................", "rules": {"cages": [{"sum": 3, "cells": [{"row": 0, "col": 0}, {"row": 0, "col": 1}]}], "diagonals": ["main", "anti"]}}"#;
    let grid = vec![vec![serde_json::json!({}); 4]; 4];
    let fpuzzles = serde_json::json!({"size": 4, "grid": grid, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}], "diagonal+": true, "diagonal-": true}).to_string();
    let fpuzzles_line = serde_json::json!({ "fpuzzles": fpuzzles }).to_string();
    let arrow = serde_json::json!({"fpuzzles": serde_json::json!({"size": 4, "grid": vec![vec![serde_json::json!({}); 4]; 4], "arrow": [{"lines": [["R1C1", "R1C2"]]}]}).to_string()}).to_string();
    let input = format!("{rules}\n{fpuzzles_line}\n{arrow}\n{{\"board\": 5}}\n{PUZZLE}\n");
    let output = run_with_stdin(&["solve", "--json"], &input);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let records: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let statuses: Vec<&str> = records
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["multiple", "multiple", "invalid", "invalid", "unique"]
    );
    for record in &records[..2] {
        let solution: Vec<char> = record["solution"].as_str().unwrap().chars().collect();
        assert_eq!(solution.len(), 16);
        let digit = |i: usize| solution[i].to_digit(10).unwrap();
        assert_eq!(digit(0) + digit(1), 3, "{record}");
        let main: std::collections::BTreeSet<u32> = (0..4).map(|i| digit(i * 5)).collect();
        let anti: std::collections::BTreeSet<u32> = (0..4).map(|i| digit(i * 3 + 3)).collect();
        assert_eq!((main.len(), anti.len()), (4, 4), "{record}");
    }
    assert!(
        records[2]["error"]
            .as_str()
            .unwrap()
            .contains("constraints arrow are not supported"),
        "{}",
        records[2]
    );
    assert_eq!(records[4]["solution"], SOLUTION);
}
