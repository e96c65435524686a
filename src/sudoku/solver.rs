//! The search: solving, counting solutions, proving uniqueness, within a budget.
//!
//! # Representation
//! The board is read as three *bands* of three rows. For each digit `d` (0-based, 0..9) and
//! band `b` (0..3), the `u32` at `cands[3 * d + b]` holds where `d` may still go in that band:
//! bit `9 * r + c` is row `3 * b + r`, column `c`, so a band is 27 bits and the band's cells
//! are, in order, row-major cells `27 * b ..27 * b + 27` of the grid. A placed digit keeps its
//! own bit; `unsolved[b]` holds the band's cells not yet placed. The idea of per-digit
//! bitboards cut into 27-bit bands comes from JCZSolve (Zhou and Champagne) and its
//! descendants, tdoku's write-up (Dillon) among them; the code here is our own.
//!
//! # Updating the masks
//! - **Band shrink** (locked candidates, pointing and claiming at once): within one band a
//!   digit occupies exactly one row of each box and one box of each row, so the 3x3 pattern
//!   "row `r` still has candidates in box `k`" must contain a permutation matrix. A table
//!   gives, for each of the 512 patterns, the union of the permutation matrices inside it;
//!   the band is masked with it, and an empty union is a contradiction.
//! - **Row singles**: a row of the band left with one candidate places the digit there. Its
//!   column is cleared from the band's other rows and from the digit's other two bands, and
//!   a newly placed cell is cleared from the other eight digits. Box singles fall out of the
//!   shrink (a box with one cell pins its row to that box).
//! - Each band remembers the value it was last shrunk at (`seen`); passes over the 27 bands
//!   repeat until none changed.
//! - **Naked singles**: per band, one/two/three counters are summed bit-parallel over the 9
//!   digits. An unsolved cell with no candidate is a contradiction; one with a single
//!   candidate is placed, clearing its row, column and box for that digit.
//! - **Stack shrink**, last: the band shrink turned sideways (a digit takes one column of
//!   each box of a stack, one box of each column), skipping digits unchanged since their
//!   last stack shrink (`stack_seen`). It also finds hidden singles in columns: a column
//!   with one candidate left pins the digit's box to that column, and the band's row
//!   single places it.
//!
//! # Branching
//! When the rules stall, the search branches, most often on a cell with two candidates
//! (from the counters above): the one with the most unsolved peers, as placing it reaches
//! furthest. When even that cell sees fewer than [`CONFIGURATION_BRANCHING_BELOW`] unsolved
//! cells (or there is no bivalue cell and fewer than [`CONFIGURATION_BRANCHING_OPEN_BELOW`]
//! cells are open), it branches as tdoku does instead (Dillon's
//! write-up; the code is ours): a digit takes one row in each box of a band, one of six
//! *configurations* (one column in each box of a stack, likewise); in the band or stack
//! whose digits have the fewest configurations left in all, the first digit with exactly
//! two is confined to one, then the other. Guesses a puzzle, cells only against both:
//! msolve_hardest 435.70 to 304.45, forum_hardest 163.91 to 152.39, 17-clue 1.38 to 1.33,
//! diabolical 4.72 to 4.50, magictour 20.72 to 20.55. Configurations alone do worse on the
//! easier sets (msolve 359, but magictour 26.6 and 17-clue 1.66), and so do cells alone on
//! the hardest. With neither, it branches on the first cell with the fewest candidates.
//!
//! Configurations can lose their way on sparse boards, where a few early confinements
//! leave a large subtree with no solution that only an exhaustive search refutes: a random
//! board of 4 givens ran out of a million guesses, and boards of 13-14 givens took hundreds
//! of thousands, against a few hundred with cells only. So configurations are used only on
//! boards of at least [`CONFIGURATIONS_FROM_GIVENS`] givens, only while a board is fairly
//! full (see [`CONFIGURATION_BRANCHING_OPEN_BELOW`]), and a search that has spent
//! [`CONFIGURATION_GUESSES`] with them starts again without them.
//!
//! The first candidate (or configuration) is tried on a copy of the `Copy` board (about 360
//! bytes), the last one in place. Every one tried costs one *guess* from the budget, so a
//! search always ends: with the solutions it found, or with [`BudgetExhausted`].
//!
//! # Light rules for puzzles with many givens
//! From [`LIGHT_RULES_FROM_GIVENS`] givens on, the search skips the stack shrink and
//! branches on the first cell with two candidates, as JCZSolve does. With that many givens
//! there is little left for the stack shrink to find or for a well-chosen branching cell to
//! save, and both cost time at every node. Measured, whole files against the full rules:
//! serg's improper puzzles (34-35 givens) 1.34x faster, the 5,153 diabolical puzzles with
//! 30 or more givens 1.07x; but with the light rules on every puzzle 17-clue is 2.6x slower,
//! forum_hardest about 23% slower, and diabolical gains nothing from them below 30 givens.

use super::grid::{CELLS, Grid};

/// Guesses allowed per search unless configured otherwise. The hardest known 9x9 puzzles
/// need a few thousand at most; the budget only stops pathological work.
pub const DEFAULT_GUESS_BUDGET: u64 = 1_000_000;

/// Puzzles with at least this many givens are searched with the light rules (see the module
/// comment).
pub(crate) const LIGHT_RULES_FROM_GIVENS: u32 = 30;

/// With the full rules, the search branches on a digit's configuration in a band or stack
/// rather than on a bivalue cell when the best bivalue cell sees fewer unsolved cells than
/// this (see the module comment). Chosen by the guesses it saves: 11 does about as well,
/// 13 and 14 clearly worse on msolve_hardest (333 and 360 a puzzle against 304).
const CONFIGURATION_BRANCHING_BELOW: u32 = 12;

/// Boards with fewer givens are searched without configurations: no proper puzzle has fewer
/// than 17, and on sparser boards configurations lose their way (the module comment).
const CONFIGURATIONS_FROM_GIVENS: u32 = 17;

/// A search with the full rules may branch on configurations for this many guesses; one that
/// needs more starts again with cells only. The most any puzzle of the shared sets needs is
/// 1,428 (msolve_hardest); sparse boards can need hundreds of thousands with configurations
/// and a few hundred without (the module comment).
const CONFIGURATION_GUESSES: u64 = 10_000;

/// With no bivalue cell, the search branches on a configuration rather than on a cell with
/// the fewest candidates only with fewer unsolved cells than this. On sparse boards
/// configurations lose their way: one random 14-given board with two solutions took 768,139
/// guesses (224 ms) to find the second that way, against a few hundred by cells. Below 60
/// open cells they keep msolve_hardest at 304 guesses a puzzle (390 with cells there).
const CONFIGURATION_BRANCHING_OPEN_BELOW: u32 = 60;

/// Which rules a search applies; see the module comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rules {
    /// Every rule, and the branching cell with the most unsolved peers.
    Full,
    /// No stack shrink, and the first branching cell found.
    Light,
}

/// The search ran out of guesses before it could answer; this proves nothing about the
/// puzzle, and is distinct from "no solution".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the search gave up after {guesses} guesses without an answer")]
pub struct BudgetExhausted {
    /// Guesses made before giving up.
    pub guesses: u64,
}

/// Why [`Solver::solve`] found no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The puzzle has no solution (conflicting givens, or an exhaustive search).
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The search budget ran out first; see [`BudgetExhausted`].
    #[error(transparent)]
    BudgetExhausted(#[from] BudgetExhausted),
}

/// The outcome of counting solutions up to a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// Solutions found, never more than the limit asked for.
    pub solutions: usize,
    /// The first solution found, if any.
    pub first: Option<Grid>,
    /// Guesses the search made (candidates tried at branching cells, configurations tried
    /// at branching digits): a measure of how hard the puzzle was for this solver, zero when
    /// the rules alone solved it.
    pub guesses: u64,
}

/// How many solutions a puzzle has, as far as anyone solving it cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No solution.
    None,
    /// Exactly one solution, given.
    Unique(Grid),
    /// At least two; the first one found is given.
    Multiple(Grid),
}

impl Verdict {
    /// The solution found, if any.
    pub fn solution(&self) -> Option<Grid> {
        match *self {
            Verdict::None => None,
            Verdict::Unique(grid) | Verdict::Multiple(grid) => Some(grid),
        }
    }
}

/// Solves grids within a guess budget. Cheap to copy; holds no state between calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solver {
    guess_budget: u64,
    /// See [`CONFIGURATION_GUESSES`]; smaller in tests of the fresh start.
    configuration_guesses: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::with_budget(DEFAULT_GUESS_BUDGET)
    }
}

impl Solver {
    /// A solver that gives up after `guess_budget` guesses in one search.
    pub fn with_budget(guess_budget: u64) -> Solver {
        Solver {
            guess_budget,
            configuration_guesses: CONFIGURATION_GUESSES,
        }
    }

    /// This solver, starting a search afresh with cells only after `guesses` guesses with
    /// configurations instead of [`CONFIGURATION_GUESSES`].
    #[cfg(test)]
    fn with_configuration_guesses(self, guesses: u64) -> Solver {
        Solver {
            configuration_guesses: guesses,
            ..self
        }
    }

    /// The number of guesses one search may make.
    pub fn guess_budget(&self) -> u64 {
        self.guess_budget
    }

    /// The first solution found.
    ///
    /// # Errors
    /// [`SolveError::NoSolution`] when there is none, [`SolveError::BudgetExhausted`] when
    /// the search gave up first.
    pub fn solve(&self, grid: &Grid) -> Result<Grid, SolveError> {
        self.count_solutions(grid, 1)?
            .first
            .ok_or(SolveError::NoSolution)
    }

    /// Counts solutions, stopping at `limit`; uniqueness is `count_solutions(g, 2)` finding 1.
    /// Givens that conflict give 0 without searching.
    ///
    /// # Errors
    /// [`BudgetExhausted`] when the search gave up before reaching the limit or the end.
    pub fn count_solutions(&self, grid: &Grid, limit: usize) -> Result<Count, BudgetExhausted> {
        self.count_solutions_with(grid, limit, None)
    }

    /// [`Solver::count_solutions`] with the rules given, or chosen by the givens when `None`.
    pub(crate) fn count_solutions_with(
        &self,
        grid: &Grid,
        limit: usize,
        rules: Option<Rules>,
    ) -> Result<Count, BudgetExhausted> {
        let nothing = Count {
            solutions: 0,
            first: None,
            guesses: 0,
        };
        // No separate `is_valid` pass (about 1,300 instructions, a sixth of an easy
        // puzzle): `Board::from_grid` finds every clash between givens as it places them.
        let Some(board) = Board::from_grid(grid).filter(|_| limit > 0) else {
            return Ok(nothing);
        };
        let open: u32 = board.unsolved.iter().map(|cells| cells.count_ones()).sum();
        let givens = CELLS as u32 - open;
        let rules = rules.unwrap_or(if givens >= LIGHT_RULES_FROM_GIVENS {
            Rules::Light
        } else {
            Rules::Full
        });
        let configurations = rules == Rules::Full
            && givens >= CONFIGURATIONS_FROM_GIVENS
            && self.guess_budget > self.configuration_guesses;
        let mut search = Search {
            rules,
            configurations,
            limit,
            guesses_left: if configurations {
                self.configuration_guesses
            } else {
                self.guess_budget
            },
            found: nothing,
        };
        match search.run(board) {
            Ok(()) => Ok(search.found),
            Err(_) if configurations => {
                // Lost among configurations: start again with cells only (see the module
                // comment), the guesses spent so far counted against the budget.
                let spent = search.found.guesses;
                let mut again = Search {
                    configurations: false,
                    guesses_left: self.guess_budget - spent,
                    found: nothing,
                    ..search
                };
                let result = again.run(board);
                again.found.guesses += spent;
                result.map(|()| again.found).map_err(|_| BudgetExhausted {
                    guesses: again.found.guesses,
                })
            }
            Err(exhausted) => Err(exhausted),
        }
    }

    /// Solves and proves uniqueness (counts up to two solutions).
    ///
    /// # Errors
    /// [`BudgetExhausted`] when the search gave up before it could tell.
    pub fn analyze(&self, grid: &Grid) -> Result<Verdict, BudgetExhausted> {
        let count = self.count_solutions(grid, 2)?;
        Ok(match (count.solutions, count.first) {
            (1, Some(solution)) => Verdict::Unique(solution),
            (n, Some(solution)) if n > 1 => Verdict::Multiple(solution),
            _ => Verdict::None,
        })
    }
}

/// All 27 cells of a band.
const BAND: u32 = 0x7FF_FFFF;
/// Bit `c` of each of a band's three rows: multiplying a 9-bit column set by it copies the
/// set to all three rows.
const ROWS_OF_COLUMN: u32 = 0x40201;

/// `ROW_BOXES[x]`: for the 9 bits `x` of one band row, bit `k` says box `k` has any of them.
static ROW_BOXES: [u8; 512] = build_row_boxes();
/// `KEEP[p]`: for a 9-bit row-by-box pattern `p` (bit `3 * r + k`), the 27-bit band mask of
/// the union of the permutation matrices inside `p`; zero when there is none.
static KEEP: [u32; 512] = build_keep();
/// `UNION[p]`: the union of the permutation matrices inside a 3x3 pattern `p` (bit
/// `3 * r + k` is row `r`, column `k`); zero when there is none.
static UNION: [u16; 512] = build_union();
/// `CONFIGURATIONS[p]`: how many permutation matrices fit inside a 3x3 pattern `p`, that is
/// how many ways a digit has left to take one row of each box of a band (or one column of
/// each box of a stack).
static CONFIGURATIONS: [u8; 512] = build_configurations();
/// `SINGLE[x]`: `x` when the 9 bits hold exactly one, else 0.
static SINGLE: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut x = 1;
    while x < 512 {
        if x & (x - 1) == 0 {
            table[x] = x as u16;
        }
        x += 1;
    }
    table
};
/// `PEERS[pos]`: the cells of the band sharing a row, column or box with cell `pos` (not
/// the cell itself).
static PEERS: [u32; 27] = build_peers();

const fn build_row_boxes() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if x & (7 << (3 * k)) != 0 {
                table[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    table
}

/// The six ways to give each of three rows its own column (or box): `PERMUTATIONS[i][r]`
/// is row `r`'s.
const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The 3x3 pattern (bit `3 * r + k`) of a permutation: row `r` takes column `perm[r]`.
const fn permutation_matrix(perm: [usize; 3]) -> usize {
    (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]))
}

/// The union of the permutation matrices inside the 3x3 pattern `p`, and how many there are.
const fn matrices_inside(p: usize) -> (usize, u8) {
    let (mut union, mut count) = (0, 0);
    let mut i = 0;
    while i < 6 {
        let matrix = permutation_matrix(PERMUTATIONS[i]);
        if p & matrix == matrix {
            union |= matrix;
            count += 1;
        }
        i += 1;
    }
    (union, count)
}

const fn build_union() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut p = 0;
    while p < 512 {
        table[p] = matrices_inside(p).0 as u16;
        p += 1;
    }
    table
}

const fn build_configurations() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut p = 0;
    while p < 512 {
        table[p] = matrices_inside(p).1;
        p += 1;
    }
    table
}

const fn build_keep() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        let union = matrices_inside(p).0;
        let mut mask = 0u32;
        let mut bit = 0;
        while bit < 9 {
            if union & (1 << bit) != 0 {
                // Pattern bit 3r + k is row r, box k: three cells from bit 9r + 3k.
                mask |= 7 << (9 * (bit / 3) + 3 * (bit % 3));
            }
            bit += 1;
        }
        table[p] = mask;
        p += 1;
    }
    table
}

const fn build_peers() -> [u32; 27] {
    let mut table = [0u32; 27];
    let mut pos = 0;
    while pos < 27 {
        let (r, c) = (pos / 9, pos % 9);
        let mut other = 0;
        while other < 27 {
            let (r2, c2) = (other / 9, other % 9);
            if other != pos && (r == r2 || c == c2 || c / 3 == c2 / 3) {
                table[pos] |= 1 << other;
            }
            other += 1;
        }
        pos += 1;
    }
    table
}

/// The 9-bit row-by-box pattern of a band mask.
#[inline(always)]
fn pattern(band: u32) -> usize {
    usize::from(ROW_BOXES[(band & 0x1FF) as usize])
        | usize::from(ROW_BOXES[((band >> 9) & 0x1FF) as usize]) << 3
        | usize::from(ROW_BOXES[(band >> 18) as usize]) << 6
}

/// The rows of a band mask that hold exactly one bit, and their columns (9 bits): three
/// lookups in [`SINGLE`] instead of testing each row.
#[inline(always)]
fn single_rows(band: u32) -> (u32, u32) {
    let r0 = u32::from(SINGLE[(band & 0x1FF) as usize]);
    let r1 = u32::from(SINGLE[((band >> 9) & 0x1FF) as usize]);
    let r2 = u32::from(SINGLE[(band >> 18) as usize]);
    (r0 | r1 << 9 | r2 << 18, r0 | r1 | r2)
}

/// The 3x3 pattern of one stack for one digit, from the columns (9 bits) of its three band
/// masks: bit `3 * b + c` says band `b` has candidates in column `c` of the stack.
#[inline(always)]
fn stack_pattern(columns: &[u32; 3], stack: usize) -> usize {
    let shift = 3 * stack;
    (((columns[0] >> shift) & 7)
        | ((columns[1] >> shift) & 7) << 3
        | ((columns[2] >> shift) & 7) << 6) as usize
}

/// The columns (9 bits) holding any bit of a band mask.
#[inline(always)]
fn columns(band: u32) -> u32 {
    (band | band >> 9 | band >> 18) & 0x1FF
}

/// The signal that a board has a contradiction; zero-sized so the hot path formats nothing.
struct Contradiction;

/// One node of the search; see the module comment for the layout.
#[derive(Clone, Copy)]
struct Board {
    cands: [u32; 27],
    seen: [u32; 27],
    /// The masks of each digit's three bands when its stacks were last shrunk.
    stack_seen: [u32; 27],
    /// The configurations left to each digit in each of its stacks (`3 * d + s`), as counted
    /// by the last stack shrink of the digit.
    stack_configurations: [u8; 27],
    unsolved: [u32; 3],
}

impl Board {
    /// The board of the givens, before any propagation; `None` when two givens clash.
    ///
    /// Built in bulk rather than by placing the givens one by one: each given only records
    /// its cell, its digit's column and the cells it sees in its band, and the 27 masks are
    /// then written once.
    fn from_grid(grid: &Grid) -> Option<Board> {
        let mut given = [0u32; 27];
        let mut seen_by = [0u32; 27];
        let mut digit_columns = [0u32; 9];
        let mut filled = [0u32; 3];
        for (cell, &value) in grid.cells().iter().enumerate() {
            if value != 0 {
                let (band, pos) = (cell / 27, cell % 27);
                let digit = usize::from(value - 1);
                let column = 1 << (pos % 9);
                // The same digit already in this column (any band).
                if digit_columns[digit] & column != 0 {
                    return None;
                }
                digit_columns[digit] |= column;
                given[3 * digit + band] |= 1 << pos;
                seen_by[3 * digit + band] |= PEERS[pos];
                filled[band] |= 1 << pos;
            }
        }
        let mut cands = [0u32; 27];
        for (i, mask) in cands.iter_mut().enumerate() {
            let (digit, band) = (i / 3, i % 3);
            // The same digit already in this row or box.
            if given[i] & seen_by[i] != 0 {
                return None;
            }
            let blocked = filled[band] | seen_by[i] | (digit_columns[digit] * ROWS_OF_COLUMN);
            *mask = (BAND & !blocked) | given[i];
        }
        Some(Board {
            cands,
            // Never a real mask, so every band is shrunk at least once.
            seen: [u32::MAX; 27],
            stack_seen: [u32::MAX; 27],
            stack_configurations: [0; 27],
            unsolved: [BAND & !filled[0], BAND & !filled[1], BAND & !filled[2]],
        })
    }

    /// Puts `digit` in cell `pos` of `band`: the cell leaves the other digits, the digit
    /// leaves the cell's row, column and box. The caller checked the digit was allowed.
    #[inline(always)]
    fn place(&mut self, digit: usize, band: usize, pos: usize) {
        let bit = 1u32 << pos;
        for d in 0..9 {
            self.cands[3 * d + band] &= !bit;
        }
        let column = ROWS_OF_COLUMN << (pos % 9);
        for b in 0..3 {
            self.cands[3 * digit + b] &= !column;
        }
        let i = 3 * digit + band;
        self.cands[i] = (self.cands[i] & !PEERS[pos]) | bit;
        self.unsolved[band] &= !bit;
    }

    /// Shrinks band `i` (digit `i / 3`, band `i % 3`) and places its row singles.
    #[inline(always)]
    fn update(&mut self, i: usize) -> Result<(), Contradiction> {
        let band = i % 3;
        let digit_bands = i - band;
        let mut mask = self.cands[i];
        mask &= KEEP[pattern(mask)];
        if mask == 0 {
            return Err(Contradiction);
        }
        self.seen[i] = mask;
        let (singles, single_columns) = single_rows(mask);
        let spread = single_columns * ROWS_OF_COLUMN;
        mask &= !spread | singles;
        self.cands[digit_bands + (band + 1) % 3] &= !spread;
        self.cands[digit_bands + (band + 2) % 3] &= !spread;
        // Cleared whether or not any cell was placed: a branch here was mispredicted so
        // often that nine needless and-nots are cheaper (forum_hardest 4-10% faster).
        let placed = singles & self.unsolved[band];
        self.unsolved[band] &= !placed;
        for d in 0..9 {
            self.cands[3 * d + band] &= !placed;
        }
        self.cands[i] = mask;
        Ok(())
    }

    /// Runs the band rules until no band changes.
    ///
    /// Each pass first gathers the changed bands into a bitmask, without a branch, then
    /// updates those. Testing each band in turn (`if cands != seen { update }`, with a copy
    /// of `update` per band) cost a mispredicted branch for nearly every band updated, two
    /// thirds of all mispredictions: the mask has 31% fewer on forum_hardest and is 5-7%
    /// faster there, though it runs 6% more instructions.
    #[inline(always)]
    fn update_bands(&mut self) -> Result<(), Contradiction> {
        loop {
            let mut dirty = 0u32;
            for i in 0..27 {
                dirty |= u32::from(self.cands[i] != self.seen[i]) << i;
            }
            if dirty == 0 {
                return Ok(());
            }
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                self.update(i)?;
            }
        }
    }

    /// Places every naked single; true when it placed any.
    fn place_naked_singles(&mut self) -> Result<bool, Contradiction> {
        let mut placed_any = false;
        for band in 0..3 {
            let unsolved = self.unsolved[band];
            if unsolved == 0 {
                continue;
            }
            let (mut ones, mut twos) = (0u32, 0u32);
            for d in 0..9 {
                let mask = self.cands[3 * d + band];
                twos |= ones & mask;
                ones |= mask;
            }
            if unsolved & !ones != 0 {
                return Err(Contradiction);
            }
            let singles = unsolved & !twos;
            if singles == 0 {
                continue;
            }
            placed_any = true;
            for d in 0..9 {
                let mut cells = self.cands[3 * d + band] & singles;
                while cells != 0 {
                    let pos = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    // A single placed just before in this pass may have taken the digit.
                    if self.cands[3 * d + band] & (1 << pos) == 0 {
                        return Err(Contradiction);
                    }
                    self.place(d, band, pos);
                }
            }
        }
        Ok(placed_any)
    }

    /// The band shrink turned sideways: within a stack, a digit takes one column of each
    /// box and one box of each column. True when it removed any candidate.
    fn shrink_stacks(&mut self) -> Result<bool, Contradiction> {
        let mut changed = false;
        for d in 0..9 {
            if self.cands[3 * d..3 * d + 3] == self.stack_seen[3 * d..3 * d + 3] {
                continue;
            }
            let cols = [
                columns(self.cands[3 * d]),
                columns(self.cands[3 * d + 1]),
                columns(self.cands[3 * d + 2]),
            ];
            let mut allowed = [0u32; 3];
            for stack in 0..3 {
                let shift = 3 * stack;
                let p = stack_pattern(&cols, stack);
                let u = u32::from(UNION[p]);
                self.stack_configurations[3 * d + stack] = CONFIGURATIONS[p];
                if u == 0 {
                    return Err(Contradiction);
                }
                allowed[0] |= (u & 7) << shift;
                allowed[1] |= ((u >> 3) & 7) << shift;
                allowed[2] |= (u >> 6) << shift;
            }
            for (b, columns) in allowed.into_iter().enumerate() {
                let i = 3 * d + b;
                let mask = self.cands[i] & (columns * ROWS_OF_COLUMN);
                if mask != self.cands[i] {
                    self.cands[i] = mask;
                    changed = true;
                }
                self.stack_seen[i] = mask;
            }
        }
        Ok(changed)
    }

    /// Applies the rules until none changes anything.
    fn propagate(&mut self, rules: Rules) -> Result<(), Contradiction> {
        loop {
            self.update_bands()?;
            if self.unsolved == [0; 3] {
                return Ok(());
            }
            // No separate column hidden singles: the stack shrink finds them (a column with
            // one candidate confines the digit to that column in its box, which the band's
            // row single then places), and measured, dropping the check saved ~10% time
            // with the very same guess counts.
            if !self.place_naked_singles()? && (rules == Rules::Light || !self.shrink_stacks()?) {
                return Ok(());
            }
        }
    }

    /// The cell to branch on: a bivalue cell if there is one (with the full rules the one
    /// with the most unsolved peers, with the light rules the first), else the first with the
    /// fewest candidates. Only called on a propagated, unsolved board, where every unsolved
    /// cell has at least two.
    fn branching_cell(&self, rules: Rules) -> BranchingCell {
        let mut pairs = [0u32; 3];
        for (band, pairs) in pairs.iter_mut().enumerate() {
            let (mut ones, mut twos, mut threes) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let mask = self.cands[3 * d + band];
                threes |= twos & mask;
                twos |= ones & mask;
                ones |= mask;
            }
            *pairs = self.unsolved[band] & twos & !threes;
            if rules == Rules::Light && *pairs != 0 {
                let pos = pairs.trailing_zeros() as usize;
                return BranchingCell {
                    band,
                    pos,
                    digits: self.digits_at(band, pos),
                    or_a_configuration: false,
                };
            }
        }
        // The best as one number: the count above, and below it the cell's index counted
        // down so that among equal counts the first cell wins; `max` compiles to a
        // conditional move where an `if` was mispredicted.
        let mut best_key = 0u32;
        for (band, &pairs) in pairs.iter().enumerate() {
            let mut cells = pairs;
            while cells != 0 {
                let pos = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let column = ROWS_OF_COLUMN << (pos % 9);
                // One 64-bit count instead of three (the baseline x86-64 target has no
                // popcnt instruction, so each count is a dozen instructions): the peers in
                // the band in the low half, the column's cells in the other two bands above.
                let n = (u64::from(PEERS[pos] & self.unsolved[band])
                    | u64::from(column & self.unsolved[(band + 1) % 3]) << 32
                    | u64::from(column & self.unsolved[(band + 2) % 3]) << 33)
                    .count_ones();
                best_key = best_key.max(n << 8 | (255 - (27 * band + pos) as u32));
            }
        }
        if best_key != 0 {
            let cell = (255 - (best_key & 0xFF)) as usize;
            let (band, pos) = (cell / 27, cell % 27);
            return BranchingCell {
                band,
                pos,
                digits: self.digits_at(band, pos),
                or_a_configuration: best_key >> 8 < CONFIGURATION_BRANCHING_BELOW,
            };
        }
        let mut best = BranchingCell {
            band: 0,
            pos: 0,
            digits: 0,
            or_a_configuration: false,
        };
        let mut best_count = u32::MAX;
        let mut open = 0;
        for band in 0..3 {
            let mut cells = self.unsolved[band];
            while cells != 0 {
                let pos = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                open += 1;
                let digits = self.digits_at(band, pos);
                let count = digits.count_ones();
                if count < best_count {
                    best = BranchingCell {
                        band,
                        pos,
                        digits,
                        or_a_configuration: false,
                    };
                    best_count = count;
                }
            }
        }
        best.or_a_configuration = rules == Rules::Full && open < CONFIGURATION_BRANCHING_OPEN_BELOW;
        best
    }

    /// tdoku's branching (Dillon's write-up; the code here is ours): in the band or stack
    /// whose digits have the fewest configurations left in all, the first digit with exactly
    /// two. Returns the digit and, for each of its two configurations, the masks that confine
    /// the digit's three bands to it; `None` when that band or stack has no such digit, or
    /// every digit everywhere is down to one configuration. Only called on a board propagated
    /// with the full rules, where every band and stack pattern is a union of configurations,
    /// so that either confinement removes candidates.
    fn branching_configuration(&self) -> Option<(usize, [[u32; 3]; 2])> {
        let mut totals = [0u32; 6];
        // Counted afresh in the bands (in a band update it would cost every puzzle), kept by
        // the stack shrink in the stacks.
        let count = |digit: usize, unit: usize| {
            if unit < 3 {
                CONFIGURATIONS[pattern(self.cands[3 * digit + unit])]
            } else {
                self.stack_configurations[3 * digit + unit - 3]
            }
        };
        for digit in 0..9 {
            for (unit, total) in totals.iter_mut().enumerate() {
                *total += u32::from(count(digit, unit));
            }
        }
        // A total of nine: every digit has one configuration left there.
        let unit = (0..6)
            .filter(|&unit| totals[unit] > 9)
            .min_by_key(|&unit| totals[unit])?;
        let digit = (0..9).find(|&digit| count(digit, unit) == 2)?;
        let bands = &self.cands[3 * digit..3 * digit + 3];
        let p = if unit < 3 {
            pattern(bands[unit])
        } else {
            stack_pattern(
                &[columns(bands[0]), columns(bands[1]), columns(bands[2])],
                unit - 3,
            )
        };
        // The count read above comes from the last update of these masks; the split is only
        // sound with exactly two configurations, so that is checked on the masks themselves.
        if CONFIGURATIONS[p] != 2 {
            return None;
        }
        let mut confinements = [[u32::MAX; 3]; 2];
        let matrices = PERMUTATIONS
            .iter()
            .map(|&perm| permutation_matrix(perm))
            .filter(|&matrix| p & matrix == matrix);
        for (masks, matrix) in confinements.iter_mut().zip(matrices) {
            if unit < 3 {
                // Row r of the band in box k, for each (r, k) of the matrix.
                masks[unit] = KEEP[matrix];
            } else {
                // Band b in column c of the stack, for each (b, c) of the matrix.
                let shift = 3 * (unit - 3);
                for (band, mask) in masks.iter_mut().enumerate() {
                    let column = ((matrix >> (3 * band)) & 7).trailing_zeros() as usize;
                    *mask = !((7 << shift) * ROWS_OF_COLUMN) | (ROWS_OF_COLUMN << (shift + column));
                }
            }
        }
        Some((digit, confinements))
    }

    /// Masks the three bands of `digit` (see [`Board::branching_configuration`]).
    fn confine(&mut self, digit: usize, masks: [u32; 3]) {
        for (band, mask) in masks.into_iter().enumerate() {
            self.cands[3 * digit + band] &= mask;
        }
    }

    /// The digits (bit `d` for digit `d`) still allowed in cell `pos` of `band`.
    fn digits_at(&self, band: usize, pos: usize) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.cands[3 * d + band] >> pos) & 1) << d;
        }
        digits
    }

    /// The grid of a solved board.
    fn to_grid(self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (i, &mask) in self.cands.iter().enumerate() {
            let (digit, band) = (i / 3, i % 3);
            let mut bits = mask;
            while bits != 0 {
                cells[27 * band + bits.trailing_zeros() as usize] = digit as u8 + 1;
                bits &= bits - 1;
            }
        }
        // Every value is a digit, so this cannot fail.
        Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
    }
}

/// See [`Board::branching_cell`].
struct BranchingCell {
    band: usize,
    pos: usize,
    digits: u32,
    /// Whether a digit's configuration, if there is one to branch on, should be preferred
    /// (see the module comment).
    or_a_configuration: bool,
}

struct Search {
    rules: Rules,
    /// Whether the search may branch on configurations (see the module comment).
    configurations: bool,
    limit: usize,
    guesses_left: u64,
    found: Count,
}

impl Search {
    fn run(&mut self, mut board: Board) -> Result<(), BudgetExhausted> {
        loop {
            if board.propagate(self.rules).is_err() {
                return Ok(());
            }
            if board.unsolved == [0; 3] {
                self.found.solutions += 1;
                self.found.first.get_or_insert_with(|| board.to_grid());
                return Ok(());
            }
            let cell = board.branching_cell(self.rules);
            if self.configurations && cell.or_a_configuration {
                if let Some((digit, [first, second])) = board.branching_configuration() {
                    self.spend_guess()?;
                    let mut next = board;
                    next.confine(digit, first);
                    self.run(next)?;
                    if self.found.solutions >= self.limit {
                        return Ok(());
                    }
                    self.spend_guess()?;
                    board.confine(digit, second);
                    continue;
                }
            }
            let (band, pos, mut digits) = (cell.band, cell.pos, cell.digits);
            // Every candidate but the last on a copy; the last one continues in place.
            while digits & (digits - 1) != 0 {
                let digit = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                self.spend_guess()?;
                let mut next = board;
                next.place(digit, band, pos);
                self.run(next)?;
                if self.found.solutions >= self.limit {
                    return Ok(());
                }
            }
            self.spend_guess()?;
            board.place(digits.trailing_zeros() as usize, band, pos);
        }
    }

    #[inline(always)]
    fn spend_guess(&mut self) -> Result<(), BudgetExhausted> {
        if self.guesses_left == 0 {
            return Err(BudgetExhausted {
                guesses: self.found.guesses,
            });
        }
        self.guesses_left -= 1;
        self.found.guesses += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::validate::{is_solved, is_valid};

    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const EASY_SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn grid(line: &str) -> Grid {
        Grid::from_line(line).unwrap()
    }

    #[test]
    fn solves_the_classic_puzzle_uniquely() {
        let verdict = Solver::default().analyze(&grid(EASY)).unwrap();
        assert_eq!(verdict, Verdict::Unique(grid(EASY_SOLUTION)));
    }

    #[test]
    fn the_empty_grid_has_many_solutions() {
        let count = Solver::default().count_solutions(&Grid::EMPTY, 5).unwrap();
        assert_eq!(count.solutions, 5);
        assert!(is_solved(&count.first.unwrap()));
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let mut line = EASY.to_string();
        line.replace_range(2..3, "5");
        assert_eq!(
            Solver::default().solve(&grid(&line)),
            Err(SolveError::NoSolution)
        );
    }

    #[test]
    fn every_kind_of_clash_between_givens_has_no_solution() {
        // The same digit twice in a row, a column, a box (and nowhere else in common).
        for (a, b) in [(0, 8), (0, 72), (0, 20), (40, 44), (80, 8)] {
            let mut cells = [0u8; CELLS];
            cells[a] = 7;
            cells[b] = 7;
            let puzzle = Grid::from_cells(cells).unwrap();
            assert!(!is_valid(&puzzle));
            assert_eq!(Solver::default().analyze(&puzzle), Ok(Verdict::None));
        }
    }

    #[test]
    fn a_valid_looking_puzzle_without_solution_is_found_out_by_search() {
        // Row 0 needs 9 in its last cell, but column 8 already has a 9 lower down.
        let line =
            "12345678.........................................................................";
        let mut cells = *grid(line).cells();
        cells[80] = 9;
        let puzzle = Grid::from_cells(cells).unwrap();
        assert!(is_valid(&puzzle));
        assert_eq!(Solver::default().analyze(&puzzle), Ok(Verdict::None));
    }

    #[test]
    fn a_tiny_budget_is_reported_as_exhausted_not_as_no_solution() {
        let result = Solver::with_budget(1).count_solutions(&Grid::EMPTY, 2);
        assert_eq!(result, Err(BudgetExhausted { guesses: 1 }));
        assert!(matches!(
            Solver::with_budget(0).solve(&Grid::EMPTY),
            Err(SolveError::BudgetExhausted(_))
        ));
    }

    #[test]
    fn a_configuration_split_keeps_the_solution_on_exactly_one_side() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/puzzles/msolve_hardest_to_solve"
        );
        let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
        let (mut in_bands, mut in_stacks) = (0, 0);
        for (number, puzzle) in crate::sudoku::puzzle_lines(&text).take(50) {
            let puzzle = puzzle.unwrap();
            let solution = Solver::default().solve(&puzzle).unwrap();
            let solved = Board::from_grid(&solution).unwrap();
            let contains_solution =
                |board: &Board| (0..27).all(|i| solved.cands[i] & !board.cands[i] == 0);
            // Down the side of every split the solution is on, as far as splits go.
            let mut board = Board::from_grid(&puzzle).unwrap();
            loop {
                assert!(board.propagate(Rules::Full).is_ok(), "line {number}");
                let Some((digit, sides)) = board.branching_configuration() else {
                    break;
                };
                let mut boards = [board; 2];
                for (side, masks) in boards.iter_mut().zip(sides) {
                    side.confine(digit, masks);
                    assert!(
                        side.cands != board.cands,
                        "line {number}: a side removes nothing"
                    );
                }
                let holds = boards.map(|side| contains_solution(&side));
                assert!(
                    holds[0] != holds[1],
                    "line {number}: the solution on {holds:?}"
                );
                if sides[0].iter().filter(|&&mask| mask == u32::MAX).count() == 2 {
                    in_bands += 1;
                } else {
                    in_stacks += 1;
                }
                board = boards[usize::from(holds[1])];
            }
            assert!(contains_solution(&board), "line {number}");
        }
        assert!(
            in_bands > 0 && in_stacks > 0,
            "{in_bands} in bands, {in_stacks} in stacks"
        );
    }

    #[test]
    fn a_search_lost_with_configurations_starts_again_with_cells() {
        // msolve_hardest's first puzzle needs more than 50 guesses with configurations.
        let puzzle = grid(
            "98.7..6..7..5..9....4.8....6..3..7...27.............615....3..6...6...9.....573..",
        );
        let normal = Solver::default().count_solutions(&puzzle, 2).unwrap();
        assert!(normal.guesses > 50, "{} guesses", normal.guesses);
        let cells_only = Solver::with_budget(CONFIGURATION_GUESSES)
            .count_solutions(&puzzle, 2)
            .unwrap();
        let restarted = Solver::default()
            .with_configuration_guesses(50)
            .count_solutions(&puzzle, 2)
            .unwrap();
        assert_eq!(restarted.solutions, normal.solutions);
        assert_eq!(restarted.first, normal.first);
        // The 50 spent count, and the rest is the search with cells only.
        assert_eq!(restarted.guesses, 50 + cells_only.guesses);
        // A budget that runs out in the second search reports every guess made.
        let exhausted = Solver::with_budget(60)
            .with_configuration_guesses(50)
            .count_solutions(&puzzle, 2);
        assert_eq!(exhausted, Err(BudgetExhausted { guesses: 60 }));
    }

    #[test]
    fn sparse_boards_are_searched_with_cells_only() {
        // Four givens (found by proptest): with configurations the search ran out of a
        // million guesses; with cells only it takes a few hundred.
        let sparse = grid(
            "...1.....2...3.....................6.............................................",
        );
        let count = Solver::default().count_solutions(&sparse, 2).unwrap();
        assert_eq!(count.solutions, 2);
        assert!(count.guesses < 1_000, "{} guesses", count.guesses);
    }

    #[test]
    fn the_givens_pick_the_rules() {
        // Serg's first puzzle (35 givens, several solutions) cut down to exactly 30 givens and
        // to 29, the two sides of the line: on both the rule sets guess differently, so the
        // guesses tell which rules ran.
        let serg =
            "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
        let with_givens = |givens: usize| {
            let mut cells = *grid(serg).cells();
            let mut extra = cells.iter().filter(|&&v| v != 0).count() - givens;
            for cell in cells.iter_mut().rev() {
                if extra > 0 && *cell != 0 {
                    *cell = 0;
                    extra -= 1;
                }
            }
            Grid::from_cells(cells).unwrap()
        };
        let guesses = |puzzle: &Grid, rules| {
            Solver::default()
                .count_solutions_with(puzzle, 2, rules)
                .unwrap()
                .guesses
        };
        let threshold = LIGHT_RULES_FROM_GIVENS as usize;
        for (givens, expected) in [(threshold, Rules::Light), (threshold - 1, Rules::Full)] {
            let puzzle = with_givens(givens);
            let (full, light) = (
                guesses(&puzzle, Some(Rules::Full)),
                guesses(&puzzle, Some(Rules::Light)),
            );
            assert_ne!(
                full, light,
                "{puzzle}: the rules must guess differently here"
            );
            let picked = if expected == Rules::Full { full } else { light };
            assert_eq!(guesses(&puzzle, None), picked, "{givens} givens");
        }
    }

    #[test]
    fn a_complete_valid_grid_is_its_own_unique_solution() {
        let solved = grid(EASY_SOLUTION);
        assert_eq!(
            Solver::with_budget(0).analyze(&solved),
            Ok(Verdict::Unique(solved))
        );
    }
}
