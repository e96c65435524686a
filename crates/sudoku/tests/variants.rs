//! The general engine (`sudoku::variant`) against what is known independently: the classic
//! solver on the classic rules, a brute-force count on small boards under random rules,
//! and the rules themselves on every solution it hands back.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use sudoku::puzzle_sets::{PROPER, spread};
use sudoku::variant::{
    BoxShape, Cage, Diagonal, Puzzle, Rules, VariantCell, VariantUnit, VariantVerdict, char_digit,
    count_variant_solutions, find_variant_conflicts, solve_variant,
};
use sudoku::{Solver, Verdict};

const BUDGET: u64 = 1_000_000;

fn at(row: usize, col: usize) -> VariantCell {
    VariantCell { row, col }
}

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

#[test]
fn on_classic_boards_it_agrees_with_the_classic_solver() {
    let solver = Solver::default();
    for set in PROPER {
        for grid in spread(set, 8) {
            let puzzle = Puzzle::new(grid.cells().to_vec(), &Rules::default()).unwrap();
            let ours = solve_variant(&puzzle, BUDGET).unwrap();
            let classic = solver.analyze(&grid).unwrap();
            match (ours, classic) {
                (VariantVerdict::Unique(cells), Verdict::Unique(solution)) => {
                    assert_eq!(cells, solution.cells().to_vec(), "{set}: {grid}");
                }
                (ours, classic) => {
                    panic!("{set}: {grid}: {ours:?} but the classic solver says {classic:?}")
                }
            }
        }
    }
}

/// Solutions of a board counted the slow way: every digit in every cell in order, a
/// branch dropped as soon as the board breaks a rule (every rule's conflicts only grow as
/// cells fill, so nothing is lost).
fn brute_force_count(puzzle: &Puzzle, limit: usize) -> usize {
    fn go(puzzle: &Puzzle, cells: &mut Vec<u8>, from: usize, limit: usize, count: &mut usize) {
        if *count >= limit {
            return;
        }
        let Some(open) = (from..cells.len()).find(|&c| cells[c] == 0) else {
            *count += 1;
            return;
        };
        for digit in 1..=puzzle.size() as u8 {
            cells[open] = digit;
            if find_variant_conflicts(puzzle, cells).is_empty() {
                go(puzzle, cells, open + 1, limit, count);
            }
        }
        cells[open] = 0;
    }
    let mut cells = puzzle.givens().to_vec();
    let mut count = 0;
    if find_variant_conflicts(puzzle, &cells).is_empty() {
        go(puzzle, &mut cells, 0, limit, &mut count);
    }
    count
}

/// Random rules for a 4x4 board: any mix of regions, diagonals, chess moves, cages,
/// parity and thermometers, and a few givens.
fn random_small_puzzle(rng: &mut ChaCha8Rng) -> Option<Puzzle> {
    let size = 4;
    let mut rules = Rules::default();
    let mut free: Vec<usize> = (0..16).collect();
    let take =
        |rng: &mut ChaCha8Rng, free: &mut Vec<usize>| free.swap_remove(below(rng, free.len()));
    if below(rng, 4) == 0 {
        let mut order: Vec<usize> = (0..16).collect();
        for i in (1..16).rev() {
            order.swap(i, below(rng, i + 1));
        }
        let mut regions = vec![vec![0; size]; size];
        for (k, &cell) in order.iter().enumerate() {
            regions[cell / size][cell % size] = k / size;
        }
        rules.regions = Some(regions);
    }
    if below(rng, 3) == 0 {
        rules.diagonals.push(Diagonal::Main);
    }
    if below(rng, 3) == 0 {
        rules.diagonals.push(Diagonal::Anti);
    }
    rules.anti_knight = below(rng, 8) == 0;
    rules.anti_king = below(rng, 12) == 0;
    for _ in 0..below(rng, 3) {
        let cells: Vec<VariantCell> = (0..2 + below(rng, 2))
            .map(|_| take(rng, &mut free))
            .map(|c| at(c / size, c % size))
            .collect();
        let sum = (below(rng, 3) > 0).then(|| 3 + below(rng, 4 * cells.len() - 3) as u32);
        rules.cages.push(Cage { sum, cells });
    }
    for _ in 0..below(rng, 2) {
        let cells = (0..2 + below(rng, 2))
            .map(|_| take(rng, &mut free))
            .map(|c| at(c / size, c % size));
        rules.thermometers.push(cells.collect());
    }
    for _ in 0..below(rng, 3) {
        let c = take(rng, &mut free);
        if below(rng, 2) == 0 {
            rules.odd.push(at(c / size, c % size));
        } else {
            rules.even.push(at(c / size, c % size));
        }
    }
    let mut cells = vec![0u8; 16];
    for _ in 0..below(rng, 3) {
        cells[below(rng, 16)] = 1 + below(rng, 4) as u8;
    }
    // Random cage sums may be out of reach: those rules are refused, which is tested apart.
    Puzzle::new(cells, &rules).ok()
}

#[test]
fn small_boards_under_random_rules_count_as_a_brute_force_does() {
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_204);
    let mut kinds = [0usize; 3];
    let mut tried = 0;
    while tried < 600 {
        let Some(puzzle) = random_small_puzzle(&mut rng) else {
            continue;
        };
        tried += 1;
        let counted = count_variant_solutions(&puzzle, 300, BUDGET).unwrap();
        let (count, first) = (counted.solutions, counted.first);
        assert_eq!(
            count,
            brute_force_count(&puzzle, 300),
            "{:?} {:?}",
            puzzle.rules(),
            puzzle.givens()
        );
        if let Some(solution) = first {
            assert!(find_variant_conflicts(&puzzle, &solution).is_empty());
            assert!(
                puzzle
                    .givens()
                    .iter()
                    .zip(&solution)
                    .all(|(&g, &s)| g == 0 || g == s)
            );
        }
        kinds[count.min(2)] += 1;
    }
    // The cases cover boards without a solution, with one, and with several.
    assert!(
        kinds.iter().all(|&k| k >= 20),
        "none, one, several: {kinds:?}"
    );
}

#[test]
fn every_size_from_4_to_25_has_a_solution_that_keeps_its_rules() {
    for size in [4, 6, 8, 9, 10, 12, 15, 16, 20, 25] {
        let puzzle = Puzzle::new(vec![0; size * size], &Rules::default()).unwrap();
        let verdict = solve_variant(&puzzle, BUDGET).unwrap();
        let VariantVerdict::Multiple(solution) = verdict else {
            panic!("an empty {size}x{size} board has many solutions: {verdict:?}");
        };
        assert!(solution.iter().all(|&d| d >= 1 && usize::from(d) <= size));
        assert_eq!(find_variant_conflicts(&puzzle, &solution), []);
    }
    // The boxes turned: 3 rows by 2 columns on a 6x6.
    let tall = Rules {
        box_shape: Some(BoxShape { rows: 3, cols: 2 }),
        ..Rules::default()
    };
    let puzzle = Puzzle::new(vec![0; 36], &tall).unwrap();
    let solution = solve_variant(&puzzle, BUDGET)
        .unwrap()
        .solution()
        .unwrap()
        .to_vec();
    let first_box: Vec<u8> = [0, 1, 6, 7, 12, 13].iter().map(|&c| solution[c]).collect();
    let mut sorted = first_box.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        [1, 2, 3, 4, 5, 6],
        "box 1 is three rows by two columns: {first_box:?}"
    );
}

/// Empties cells of a solution one at a time, in a seeded order, while the board keeps
/// one solution: a puzzle whose only answer is known.
fn puzzle_from(solution: &[u8], rules: &Rules, seed: u64, keep: usize) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cells = solution.to_vec();
    let mut order: Vec<usize> = (0..cells.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, below(&mut rng, i + 1));
    }
    for cell in order {
        if cells.iter().filter(|&&d| d != 0).count() <= keep {
            break;
        }
        let digit = cells[cell];
        cells[cell] = 0;
        let puzzle = Puzzle::new(cells.clone(), rules).unwrap();
        if !matches!(
            solve_variant(&puzzle, BUDGET),
            Ok(VariantVerdict::Unique(_))
        ) {
            cells[cell] = digit;
        }
    }
    cells
}

#[test]
fn variant_puzzles_with_one_solution_are_solved_to_it() {
    let windoku: Vec<Vec<VariantCell>> = [(1, 1), (1, 5), (5, 1), (5, 5)]
        .iter()
        .map(|&(top, left)| (0..9).map(|i| at(top + i / 3, left + i % 3)).collect())
        .collect();
    let cases: Vec<(&str, usize, Rules)> = vec![
        (
            "X-sudoku",
            81,
            Rules {
                diagonals: vec![Diagonal::Main, Diagonal::Anti],
                ..Rules::default()
            },
        ),
        (
            "windoku",
            81,
            Rules {
                extra_regions: windoku,
                ..Rules::default()
            },
        ),
        (
            "anti-knight",
            81,
            Rules {
                anti_knight: true,
                ..Rules::default()
            },
        ),
        ("6x6", 36, Rules::default()),
        ("12x12", 144, Rules::default()),
        ("16x16", 256, Rules::default()),
    ];
    for (name, cells, rules) in cases {
        let empty = Puzzle::new(vec![0; cells], &rules).unwrap();
        let solution = solve_variant(&empty, BUDGET)
            .unwrap()
            .solution()
            .unwrap()
            .to_vec();
        let puzzle = puzzle_from(&solution, &rules, 7, cells / 3);
        let givens = puzzle.iter().filter(|&&d| d != 0).count();
        assert!(givens < cells, "{name}: some cells emptied");
        let verdict = solve_variant(&Puzzle::new(puzzle, &rules).unwrap(), BUDGET).unwrap();
        assert_eq!(
            verdict,
            VariantVerdict::Unique(solution),
            "{name} with {givens} givens"
        );
    }
}

#[test]
fn a_killer_cage_and_a_thermometer_decide_what_the_grid_alone_does_not() {
    // 4x4, empty but for the rules: a thermometer r2c1 -> r2c2 -> r2c3 -> r2c4 (so 1 2 3
    // 4), and a cage of r1c3 and r1c4 summing to 3 (so 1 and 2, which box 2 allows).
    let rules = Rules {
        cages: vec![Cage {
            sum: Some(3),
            cells: vec![at(0, 2), at(0, 3)],
        }],
        thermometers: vec![(0..4).map(|c| at(1, c)).collect()],
        ..Rules::default()
    };
    let puzzle = Puzzle::new(vec![0; 16], &rules).unwrap();
    let counted = count_variant_solutions(&puzzle, 100, BUDGET).unwrap();
    let (count, first) = (counted.solutions, counted.first);
    assert_eq!(count, brute_force_count(&puzzle, 100));
    let first = first.unwrap();
    assert_eq!(&first[4..8], [1, 2, 3, 4]);
    assert_eq!(first[2] + first[3], 3);
}

#[test]
fn conflicts_name_every_rule_broken() {
    let rules = Rules {
        diagonals: vec![Diagonal::Main],
        cages: vec![Cage {
            sum: Some(4),
            cells: vec![at(2, 0), at(2, 1)],
        }],
        anti_knight: true,
        odd: vec![at(3, 3)],
        thermometers: vec![vec![at(0, 3), at(1, 3)]],
        ..Rules::default()
    };
    #[rustfmt::skip]
    let cells = vec![
        1, 0, 0, 3,
        0, 1, 2, 3,
        4, 2, 0, 0,
        0, 0, 0, 2,
    ];
    let puzzle = Puzzle::new(cells.clone(), &rules).unwrap();
    let found: Vec<(VariantUnit, usize, Option<u8>, Vec<VariantCell>)> =
        find_variant_conflicts(&puzzle, &cells)
            .into_iter()
            .map(|c| (c.unit, c.index, c.digit, c.cells))
            .collect();
    assert_eq!(
        found,
        [
            (VariantUnit::Column, 3, Some(3), vec![at(0, 3), at(1, 3)]),
            (VariantUnit::Box, 0, Some(1), vec![at(0, 0), at(1, 1)]),
            (VariantUnit::Box, 1, Some(3), vec![at(0, 3), at(1, 3)]),
            (VariantUnit::Diagonal, 0, Some(1), vec![at(0, 0), at(1, 1)]),
            (VariantUnit::Cage, 0, None, vec![at(2, 0), at(2, 1)]),
            (VariantUnit::Knight, 0, Some(2), vec![at(1, 2), at(3, 3)]),
            (VariantUnit::Knight, 0, Some(2), vec![at(2, 1), at(3, 3)]),
            (VariantUnit::Parity, 0, Some(2), vec![at(3, 3)]),
            (VariantUnit::Thermometer, 0, None, vec![at(0, 3), at(1, 3)]),
        ]
    );
    let messages: Vec<String> = find_variant_conflicts(&puzzle, &cells)
        .into_iter()
        .map(|c| c.message)
        .collect();
    assert_eq!(messages[4], "the digits of cage 1 add up to 6, not 4");
    assert_eq!(messages[5], "2 in r2c3 and r4c4, a knight's move apart");
    assert_eq!(messages[7], "r4c4 must hold an odd digit, not 2");
    assert_eq!(
        messages[8],
        "thermometer 1 does not rise from 3 in r1c4 to 3 in r2c4"
    );
}

#[test]
fn empty_boards_under_rules_blind_to_digits_are_decided_within_a_small_guess_bound() {
    let windows: Vec<Vec<VariantCell>> = [(1, 1), (1, 5), (5, 1), (5, 5)]
        .into_iter()
        .map(|(top, left)| (0..9).map(|i| at(top + i / 3, left + i % 3)).collect())
        .collect();
    // OR-tools CP-SAT proves the first two have no solution.
    for (diagonals, anti_knight, solvable) in [
        (vec![Diagonal::Main, Diagonal::Anti], true, false),
        (vec![Diagonal::Main], true, false),
        (vec![Diagonal::Main, Diagonal::Anti], false, true),
    ] {
        let rules = Rules {
            diagonals,
            extra_regions: windows.clone(),
            anti_knight,
            ..Rules::default()
        };
        let puzzle = Puzzle::new(vec![0; 81], &rules).unwrap();
        let counted = count_variant_solutions(&puzzle, 2, 5_000).expect("decided");
        assert_eq!(counted.solutions, if solvable { 2 } else { 0 }, "{rules:?}");
        if let Some(first) = counted.first {
            assert!(find_variant_conflicts(&puzzle, &first).is_empty());
            assert!(first.iter().all(|&digit| digit != 0));
        }
    }
}

#[test]
fn gecode_25x25_boards_searched_with_lookahead_are_counted_exactly() {
    // Boards of 16x16 and above probe every node and narrow it by what the probes show; the count
    // must still be complete: one solution each, keeping the clues.
    let text = include_str!("../../../data/sizes/gecode_25x25");
    let boards: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    for line in &boards[boards.len() - 2..] {
        let cells: Vec<u8> = line.chars().map(|c| char_digit(c, 25).unwrap()).collect();
        let puzzle = Puzzle::new(cells.clone(), &Rules::default()).unwrap();
        let counted = count_variant_solutions(&puzzle, 2, 5_184).unwrap();
        assert_eq!(counted.solutions, 1);
        let solution = counted.first.unwrap();
        assert!(cells.iter().zip(&solution).all(|(&g, &s)| g == 0 || g == s));
        // Without the lookahead they took over 1,000 guesses each.
        assert!(counted.guesses < 100);
    }
}
