//! The search of the general engine: a candidate bitset per cell (bit d for digit d, so up
//! to 25 digits fit a `u32`), propagated to a fixed point at every node by naked and
//! hidden singles, the cage-sum bounds and the thermometer bounds, then branching on a
//! cell with the fewest candidates (the smallest-domain rule of constraint solvers).

use super::check::satisfies;
use super::rules::{CompiledCage, Puzzle};
use crate::BudgetExhausted;

/// How many solutions a board has under its rules, as far as anyone solving it cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantVerdict {
    /// No solution.
    None,
    /// Exactly one, given row-major.
    Unique(Vec<u8>),
    /// At least two; the first one found is given.
    Multiple(Vec<u8>),
}

impl VariantVerdict {
    /// The solution found, if any.
    pub fn solution(&self) -> Option<&[u8]> {
        match self {
            VariantVerdict::None => None,
            VariantVerdict::Unique(cells) | VariantVerdict::Multiple(cells) => Some(cells),
        }
    }
}

/// Solves a board under its rules, counting solutions up to two, within `budget` guesses
/// (each candidate tried at a branching cell is one).
///
/// # Errors
/// [`BudgetExhausted`] when the guesses run out before the count is known.
pub fn solve_variant(puzzle: &Puzzle, budget: u64) -> Result<VariantVerdict, BudgetExhausted> {
    let (count, first) = count_variant_solutions(puzzle, 2, budget)?;
    Ok(match (count, first) {
        (1, Some(only)) => VariantVerdict::Unique(only),
        (_, Some(first)) => VariantVerdict::Multiple(first),
        _ => VariantVerdict::None,
    })
}

/// Counts the solutions of a board under its rules up to `limit`, within `budget` guesses;
/// with the count, the first solution found.
///
/// # Errors
/// [`BudgetExhausted`] when the guesses run out before the count is known.
pub fn count_variant_solutions(
    puzzle: &Puzzle,
    limit: usize,
    budget: u64,
) -> Result<(usize, Option<Vec<u8>>), BudgetExhausted> {
    let mut search = Search::new(puzzle, limit, budget);
    if let Some(start) = search.start() {
        search.run(&start)?;
    }
    Ok((search.count, search.first))
}

/// No candidate left somewhere: the node has no solution.
struct Contradiction;

struct Search<'a> {
    puzzle: &'a Puzzle,
    /// The groups holding every digit once: the ones hidden singles work on.
    full_groups: Vec<&'a [usize]>,
    all: u32,
    guesses: u64,
    budget: u64,
    limit: usize,
    count: usize,
    first: Option<Vec<u8>>,
}

impl<'a> Search<'a> {
    fn new(puzzle: &'a Puzzle, limit: usize, budget: u64) -> Self {
        let size = puzzle.size;
        Search {
            puzzle,
            full_groups: puzzle
                .groups
                .iter()
                .filter(|g| g.cells.len() == size)
                .map(|g| g.cells.as_slice())
                .collect(),
            all: ((1u32 << size) - 1) << 1,
            guesses: 0,
            budget,
            limit,
            count: 0,
            first: None,
        }
    }

    /// The candidates of the board as given, propagated; `None` when that already fails.
    fn start(&self) -> Option<Vec<u32>> {
        let mut domains: Vec<u32> = self.puzzle.allowed.clone();
        let mut fixed = Vec::new();
        for (cell, &digit) in self.puzzle.givens.iter().enumerate() {
            if digit != 0 {
                let bit = 1u32 << digit;
                if domains[cell] & bit == 0 {
                    return None;
                }
                domains[cell] = bit;
                fixed.push(cell);
            }
        }
        self.propagate(&mut domains, fixed).ok()?;
        Some(domains)
    }

    fn run(&mut self, domains: &[u32]) -> Result<(), BudgetExhausted> {
        let Some(cell) = Self::branching_cell(domains) else {
            let cells: Vec<u8> = domains.iter().map(|d| d.trailing_zeros() as u8).collect();
            // Propagation keeps every rule at a full board; this check makes sure of it.
            if satisfies(self.puzzle, &cells) {
                self.count += 1;
                self.first.get_or_insert(cells);
            }
            return Ok(());
        };
        let mut candidates = domains[cell];
        while candidates != 0 && self.count < self.limit {
            let bit = candidates & candidates.wrapping_neg();
            candidates &= !bit;
            self.guesses += 1;
            if self.guesses > self.budget {
                return Err(BudgetExhausted {
                    guesses: self.guesses - 1,
                });
            }
            let mut next = domains.to_vec();
            next[cell] = bit;
            if self.propagate(&mut next, vec![cell]).is_ok() {
                self.run(&next)?;
            }
        }
        Ok(())
    }

    /// An open cell with the fewest candidates, or `None` when every cell is decided.
    fn branching_cell(domains: &[u32]) -> Option<usize> {
        let mut best: Option<(u32, usize)> = None;
        for (cell, &mask) in domains.iter().enumerate() {
            let count = mask.count_ones();
            if count > 1 && best.is_none_or(|(least, _)| count < least) {
                best = Some((count, cell));
                if count == 2 {
                    break;
                }
            }
        }
        best.map(|(_, cell)| cell)
    }

    /// Propagates to a fixed point; `fixed` lists cells just decided.
    fn propagate(&self, domains: &mut [u32], mut fixed: Vec<usize>) -> Result<(), Contradiction> {
        loop {
            while let Some(cell) = fixed.pop() {
                let bit = domains[cell];
                for &peer in &self.puzzle.peers[cell] {
                    if domains[peer] & bit != 0 {
                        let left = domains[peer] & !bit;
                        if left == 0 {
                            return Err(Contradiction);
                        }
                        domains[peer] = left;
                        if left.is_power_of_two() {
                            fixed.push(peer);
                        }
                    }
                }
            }
            self.hidden_singles(domains, &mut fixed)?;
            if fixed.is_empty() {
                let mut narrowed = false;
                for cage in &self.puzzle.cages {
                    narrowed |= cage_bounds(cage, domains, &mut fixed)?;
                }
                for thermometer in &self.puzzle.thermometers {
                    narrowed |= thermometer_bounds(thermometer, domains, &mut fixed)?;
                }
                if !narrowed && fixed.is_empty() {
                    return Ok(());
                }
            }
        }
    }

    /// A digit with one place left in a group goes there; a digit with none fails.
    fn hidden_singles(
        &self,
        domains: &mut [u32],
        fixed: &mut Vec<usize>,
    ) -> Result<(), Contradiction> {
        for cells in &self.full_groups {
            let (mut once, mut twice) = (0u32, 0u32);
            for &cell in *cells {
                twice |= once & domains[cell];
                once |= domains[cell];
            }
            if once != self.all {
                return Err(Contradiction);
            }
            let mut single = once & !twice;
            if single == 0 {
                continue;
            }
            for &cell in *cells {
                let here = domains[cell] & single;
                if here == 0 {
                    continue;
                }
                if !here.is_power_of_two() {
                    return Err(Contradiction);
                }
                single &= !here;
                if domains[cell] != here {
                    domains[cell] = here;
                    fixed.push(cell);
                }
            }
        }
        Ok(())
    }
}

/// Narrows `domains[cell]` to `mask`; whether it changed.
fn narrow(
    domains: &mut [u32],
    cell: usize,
    mask: u32,
    fixed: &mut Vec<usize>,
) -> Result<bool, Contradiction> {
    let left = domains[cell] & mask;
    if left == 0 {
        return Err(Contradiction);
    }
    if left == domains[cell] {
        return Ok(false);
    }
    domains[cell] = left;
    if left.is_power_of_two() {
        fixed.push(cell);
    }
    Ok(true)
}

/// The sum of the `count` smallest (or largest) digits of `mask`, if it has that many.
fn extreme_sum(mut mask: u32, count: usize, largest: bool) -> Option<u32> {
    let mut sum = 0;
    for _ in 0..count {
        if mask == 0 {
            return None;
        }
        let digit = if largest {
            mask.ilog2()
        } else {
            mask.trailing_zeros()
        };
        sum += digit;
        mask &= !(1 << digit);
    }
    Some(sum)
}

/// Removes from each cell of a cage the digits its sum leaves no room for: the others
/// must make the rest, and different digits from their candidates make only so little or
/// so much.
fn cage_bounds(
    cage: &CompiledCage,
    domains: &mut [u32],
    fixed: &mut Vec<usize>,
) -> Result<bool, Contradiction> {
    let Some(sum) = cage.sum else {
        return Ok(false);
    };
    let mut narrowed = false;
    let others = cage.cells.len() - 1;
    for (i, &cell) in cage.cells.iter().enumerate() {
        let (mut low, mut high, mut union) = (0u32, 0u32, 0u32);
        for (j, &other) in cage.cells.iter().enumerate() {
            if j != i {
                low += domains[other].trailing_zeros();
                high += domains[other].ilog2();
                union |= domains[other];
            }
        }
        let mut keep = 0u32;
        let mut candidates = domains[cell];
        while candidates != 0 {
            let digit = candidates.trailing_zeros();
            candidates &= candidates - 1;
            let Some(rest) = sum.checked_sub(digit) else {
                continue;
            };
            let pool = union & !(1 << digit);
            let least = extreme_sum(pool, others, false).map_or(u32::MAX, |s| s.max(low));
            let most = extreme_sum(pool, others, true).map_or(0, |s| s.min(high));
            if (least..=most).contains(&rest) {
                keep |= 1 << digit;
            }
        }
        narrowed |= narrow(domains, cell, keep, fixed)?;
    }
    Ok(narrowed)
}

/// Digits strictly increase from the bulb: each cell is above the least its predecessor
/// can hold and below the most its successor can.
fn thermometer_bounds(
    cells: &[usize],
    domains: &mut [u32],
    fixed: &mut Vec<usize>,
) -> Result<bool, Contradiction> {
    let mut narrowed = false;
    for pair in cells.windows(2) {
        let least = domains[pair[0]].trailing_zeros();
        let above = !((2u32 << least) - 1);
        narrowed |= narrow(domains, pair[1], above, fixed)?;
    }
    for pair in cells.windows(2).rev() {
        let most = domains[pair[1]].ilog2();
        let below = (1u32 << most) - 1;
        narrowed |= narrow(domains, pair[0], below, fixed)?;
    }
    Ok(narrowed)
}
