//! How well our logical grader agrees with Sudoku Explainer on `sudoku_exchange_diabolical`.
//!
//! `cargo run --release --example grade_agreement -- [STRIDE]` grades every STRIDE-th
//! puzzle (default 100) with `solve_logically`, and prints the Spearman rank correlation of
//! our hardest-step rating with the SE rating in `sudoku_exchange_diabolical.ratings`
//! (line i rates puzzle i), how many puzzles the logic solved, the median and 90th
//! percentile time per puzzle, the share of puzzles we rate within 0.2 of SE, and how our
//! ratings spread against SE's. A puzzle the
//! logic cannot finish is ranked above every solved one (it needs something harder).
//!
//! `cargo run --release --example grade_agreement -- --set NAME [STRIDE] [WORK]` grades
//! every STRIDE-th puzzle (default 1) of another committed set, which has no reference
//! ratings, with a forcing-chain work budget of WORK (default the library's): how many
//! were solved, how the hardest ratings spread (solved or not), and the time per puzzle.

use std::collections::BTreeMap;
use std::time::Instant;

use sudoku::logic::{DEFAULT_WORK_BUDGET, solve_logically};
use sudoku::puzzle_sets;

const SET: &str = "sudoku_exchange_diabolical";
/// The rating given to a puzzle the logic could not finish.
const STUCK: f64 = 20.0;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--set") {
        let name = args.get(1).expect("--set NAME");
        let stride = args
            .get(2)
            .map_or(1, |s| s.parse().expect("STRIDE: a number"));
        let work = args
            .get(3)
            .map_or(DEFAULT_WORK_BUDGET, |s| s.parse().expect("WORK: a number"));
        grade_set(name, stride, work);
        return;
    }
    let stride: usize = std::env::args()
        .nth(1)
        .map_or(100, |s| s.parse().expect("STRIDE: a positive number"));
    let puzzles = puzzle_sets::every(SET, stride);
    let ratings_path = puzzle_sets::path(&format!("{SET}.ratings"));
    let ratings: Vec<f64> = std::fs::read_to_string(&ratings_path)
        .unwrap_or_else(|err| panic!("{}: {err}", ratings_path.display()))
        .lines()
        .step_by(stride)
        .map(|line| line.trim().parse().expect("a rating per line"))
        .collect();
    assert_eq!(puzzles.len(), ratings.len(), "one rating per puzzle");

    let mut ours = Vec::with_capacity(puzzles.len());
    let mut times = Vec::with_capacity(puzzles.len());
    let mut solved = 0;
    let mut spread: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (puzzle, &se) in puzzles.iter().zip(&ratings) {
        let started = Instant::now();
        let solution = solve_logically(puzzle, 1_000, DEFAULT_WORK_BUDGET).expect("proper puzzles");
        times.push(started.elapsed().as_secs_f64() * 1e3);
        let rating = if solution.solved {
            solved += 1;
            solution.hardest.value()
        } else {
            STUCK
        };
        ours.push(rating);
        let label = if solution.solved {
            let hardest = solution.steps.iter().max_by_key(|step| step.rating);
            format!(
                "{rating:.1} {}",
                hardest.map_or("none", |step| step.technique.name())
            )
        } else {
            "stuck".to_owned()
        };
        *spread.entry((format!("{se:.1}"), label)).or_default() += 1;
    }
    let within = ours
        .iter()
        .zip(&ratings)
        .filter(|(us, se)| (*us - *se).abs() <= 0.2 + 1e-9)
        .count();
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize];
    println!(
        "{SET}: {} puzzles (stride {stride}), solved {solved}; Spearman {:.3}; within 0.2 of SE {:.1}%; time per puzzle median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        puzzles.len(),
        spearman(&ours, &ratings),
        100.0 * within as f64 / puzzles.len() as f64,
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0),
    );
    println!("SE rating -> our rating and hardest technique: count");
    for ((se, us), count) in spread {
        println!("  {se} -> {us}: {count}");
    }
}

/// Grades a set without reference ratings: solved count, rating spread and times.
fn grade_set(name: &str, stride: usize, work: u64) {
    let puzzles = puzzle_sets::every(name, stride);
    let mut times = Vec::with_capacity(puzzles.len());
    let mut solved = 0;
    let mut spread: BTreeMap<(bool, String), usize> = BTreeMap::new();
    for puzzle in &puzzles {
        let started = Instant::now();
        let solution = solve_logically(puzzle, 1_000, work).expect("proper puzzles");
        times.push(started.elapsed().as_secs_f64() * 1e3);
        solved += usize::from(solution.solved);
        let hardest = solution.steps.iter().max_by_key(|step| step.rating);
        let label = format!(
            "{} {}",
            solution.hardest,
            hardest.map_or("none", |step| step.technique.name())
        );
        *spread.entry((solution.solved, label)).or_default() += 1;
    }
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize];
    println!(
        "{name}: {} puzzles (stride {stride}, work {work}), solved {solved}; time per puzzle median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        puzzles.len(),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0),
    );
    println!("solved?, hardest rating and technique: count");
    for ((done, label), count) in spread {
        println!(
            "  {} {label}: {count}",
            if done { "solved" } else { "unsolved" }
        );
    }
}

/// Ranks with ties given their mean rank.
// Ties are exact: ratings are tenths, so equal ratings are equal floats.
#[allow(clippy::float_cmp)]
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0;
        for &k in &order[i..=j] {
            ranks[k] = mean;
        }
        i = j + 1;
    }
    ranks
}

/// Spearman's rank correlation: Pearson's correlation of the ranks.
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = ra.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = rb.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}
