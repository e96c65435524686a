//! The `generate` command as a real process: what it prints, that a seed gives the same run
//! on any number of threads, exit codes, bad arguments.

use std::io::Write;
use std::process::{Output, Stdio};

use serde_json::Value;
use sudoku::{Difficulty, GradeOptions, Grid, Solver, Symmetry, Verdict, grade};

use crate::helpers::*;

fn run(args: &[&str]) -> Output {
    binary().args(args).output().unwrap()
}

fn records(output: &Output) -> Vec<Value> {
    text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn generate_prints_count_unique_symmetric_puzzles_of_the_difficulty() {
    let output = run(&[
        "generate",
        "--count",
        "6",
        "--difficulty",
        "medium",
        "--seed",
        "3",
        "--symmetry",
        "mirror",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{stdout}");
    for line in lines {
        let puzzle = Grid::from_line(line).unwrap();
        assert!(matches!(
            Solver::default().analyze(&puzzle),
            Ok(Verdict::Unique(_))
        ));
        assert!(Symmetry::Mirror.holds_for(&puzzle), "{line}");
        let graded = grade(&puzzle, &GradeOptions::default()).unwrap();
        assert_eq!(graded.difficulty, Difficulty::Medium, "{line}");
    }
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("6 puzzles") && stderr.contains("seed 3") && stderr.contains("not found 0"),
        "{stderr}"
    );
}

#[test]
fn a_seed_gives_the_same_run_on_one_thread_or_two_and_a_later_seed_a_later_part() {
    let args = |seed: &str, count: &str, threads: &str| {
        run(&[
            "generate",
            "--json",
            "-n",
            count,
            "-d",
            "hard",
            "--seed",
            seed,
            "--symmetry",
            "rotational",
            "--threads",
            threads,
        ])
    };
    let one = args("100", "10", "1");
    let two = args("100", "10", "2");
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(text(&one.stdout), text(&two.stdout));
    let all = records(&one);
    let indexes: Vec<u64> = all.iter().map(|r| r["index"].as_u64().unwrap()).collect();
    assert_eq!(indexes, (0..10).collect::<Vec<_>>(), "in order");
    let puzzles: Vec<&Value> = all.iter().map(|r| &r["puzzle"]).collect();
    let later = records(&args("104", "3", "2"));
    let later: Vec<&Value> = later.iter().map(|r| &r["puzzle"]).collect();
    assert_eq!(later, puzzles[4..7], "puzzle i comes from seed S + i");
}

#[test]
fn json_records_describe_the_puzzle_and_its_seed_makes_it_again() {
    let output = run(&[
        "generate", "--json", "-n", "3", "-d", "expert", "--seed", "9",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    for record in records(&output) {
        let puzzle = Grid::from_line(record["puzzle"].as_str().unwrap()).unwrap();
        let solution = Grid::from_line(record["solution"].as_str().unwrap()).unwrap();
        assert_eq!(
            Solver::default().analyze(&puzzle),
            Ok(Verdict::Unique(solution))
        );
        assert_eq!(record["clues"], puzzle.given_count());
        assert_eq!(record["symmetry"], "none");
        assert_eq!(record["difficulty"], "expert");
        assert_eq!(record["solved_by_logic"], true);
        let rating = record["rating"].as_f64().unwrap();
        assert!((6.5..=8.1).contains(&rating), "{record}");
        assert!(record["techniques"].as_array().unwrap().len() > 1);
        // The seed of the attempt that made it gives it on its first attempt.
        let seed = record["seed"].as_u64().unwrap().to_string();
        let again = records(&run(&[
            "generate", "--json", "-d", "expert", "--seed", &seed,
        ]));
        assert_eq!(again[0]["puzzle"], record["puzzle"]);
        assert_eq!(again[0]["attempts"], 1);
    }
}

#[test]
fn puzzles_that_need_not_be_minimal_come_at_once_for_easy() {
    let output = run(&[
        "generate",
        "--json",
        "-n",
        "8",
        "-d",
        "easy",
        "--minimal",
        "false",
        "--seed",
        "0",
    ]);
    assert_eq!(output.status.code(), Some(0));
    for record in records(&output) {
        assert_eq!(record["attempts"], 1, "{record}");
        assert_eq!(record["difficulty"], "easy");
    }
}

#[test]
fn the_grade_command_agrees_with_the_grades_generate_reports() {
    let generated = records(&run(&["generate", "--json", "-n", "12", "--seed", "21"]));
    let puzzles: String = generated.iter().fold(String::new(), |mut text, r| {
        text.push_str(r["puzzle"].as_str().unwrap());
        text.push('\n');
        text
    });
    let mut child = binary()
        .args(["grade", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(puzzles.as_bytes())
        .unwrap();
    let graded = records(&child.wait_with_output().unwrap());
    assert_eq!(graded.len(), generated.len());
    for (made, graded) in generated.iter().zip(&graded) {
        for field in ["rating", "difficulty", "steps", "techniques"] {
            assert_eq!(made[field], graded[field], "{field}");
        }
    }
}

#[test]
fn a_difficulty_not_found_within_the_attempts_exits_1_and_says_which() {
    // One attempt each: extreme puzzles are rare, so most of these seeds find none.
    let output = run(&[
        "generate",
        "-n",
        "20",
        "-d",
        "extreme",
        "--attempts",
        "1",
        "--seed",
        "0",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    let missed: Vec<&str> = stderr
        .lines()
        .filter(|line| line.ends_with(": no extreme puzzle within the budget of 1 attempt"))
        .collect();
    assert!(!missed.is_empty(), "{stderr}");
    for line in &missed {
        // `puzzle I (seed S)`, and puzzle i's seed is S + i with S = 0.
        let words: Vec<&str> = line.split([' ', '(', ')', ':']).collect();
        assert_eq!(
            (words[0], words[1], words[3]),
            ("puzzle", words[4], "seed"),
            "{line}"
        );
    }
    let found = text(&output.stdout).lines().count();
    assert_eq!(found + missed.len(), 20, "{stderr}");
    assert!(stderr.contains(&format!("{found} puzzles")), "{stderr}");
    assert!(
        stderr.contains(&format!("not found {}", 20 - found)),
        "{stderr}"
    );
}

#[test]
fn unknown_names_are_usage_errors_that_list_the_valid_ones() {
    let cases = [
        (
            &["generate", "--difficulty", "brutal"][..],
            "unknown difficulty \"brutal\": expected one of easy, medium, hard, expert, extreme",
        ),
        (
            &["generate", "--symmetry", "spiral"][..],
            "unknown symmetry \"spiral\": expected one of none, rotational, diagonal, mirror",
        ),
        (
            &["generate", "--minimal", "yes"][..],
            "possible values: true, false",
        ),
        (
            &["generate", "--count", "ten"][..],
            "invalid value 'ten' for '--count <N>'",
        ),
    ];
    for (args, message) in cases {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn without_a_seed_a_random_one_is_used_and_reported() {
    let output = run(&["generate", "-n", "2"]);
    assert_eq!(output.status.code(), Some(0));
    let stderr = text(&output.stderr);
    let seed: u64 = stderr
        .split("seed ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("the summary names the seed: {stderr}"));
    let again = run(&["generate", "-n", "2", "--seed", &seed.to_string()]);
    assert_eq!(
        again.stdout, output.stdout,
        "the seed reported reproduces the run"
    );
}
