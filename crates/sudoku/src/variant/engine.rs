//! The search of the general engine: a candidate bitset per cell (bit d for digit d, so up
//! to 25 digits fit a `u32`), propagated to a fixed point at every node by naked and
//! hidden singles, the cage-sum bounds and the thermometer bounds, then branching on a
//! cell with the fewest candidates (the smallest-domain rule of constraint solvers).

use super::check::satisfies;
use super::rules::{CompiledCage, Puzzle, members};
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
    let counted = count_variant_solutions(puzzle, 2, budget)?;
    Ok(match (counted.solutions, counted.first) {
        (1, Some(only)) => VariantVerdict::Unique(only),
        (_, Some(first)) => VariantVerdict::Multiple(first),
        _ => VariantVerdict::None,
    })
}

/// The solutions of a board counted up to a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantCount {
    /// How many solutions were found, at most the limit asked.
    pub solutions: usize,
    /// The first solution found, row-major.
    pub first: Option<Vec<u8>>,
    /// The guesses the search took (each candidate tried at a branching cell is one).
    pub guesses: u64,
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
) -> Result<VariantCount, BudgetExhausted> {
    let counter = Counter::new(puzzle);
    if limit <= EMPTY_BOARD_SOLUTIONS && is_empty_and_digit_blind(puzzle) {
        // Any solution of an empty board under rules blind to the digits' values is one
        // relabelling away from a solution whose first row reads 1, 2, ... N, and has at
        // least 4! = 24 relabellings: so the board has a solution only if that one has, and
        // then many. Fixing the first row spares the search N! symmetric subtrees.
        let first_row: Vec<u8> = (0..puzzle.size * puzzle.size)
            .map(|cell| {
                if cell < puzzle.size {
                    cell as u8 + 1
                } else {
                    0
                }
            })
            .collect();
        let counted = counter.count(&first_row, 1, budget, Lookahead::Off)?;
        return Ok(VariantCount {
            solutions: if counted.solutions > 0 { limit } else { 0 },
            ..counted
        });
    }
    // Probing every node pays on 25x25s (Gecode's: 8 of 18 decided within 5,184 guesses,
    // not 2) and, with probes that keep the digits' places and try cells of two alone, from
    // 15x15 up: the generated 15x15s 1,866 guesses to 74 and 25% fewer instructions. On the
    // 12x12s it saves as many instructions as it costs, and their median is slower.
    counter.count(
        puzzle.givens(),
        limit,
        budget,
        Lookahead::for_side(puzzle.size),
    )
}

/// Which pairs of placements the search probes at every node (see [`Search::probe_pairs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lookahead {
    /// None: the plain search.
    Off,
    /// The two candidates of each cell of two.
    Cells,
    /// Those, and the two places of each digit with two in a group.
    CellsAndPlaces,
}

impl Lookahead {
    /// What pays on a board of `side` (see [`LOOKAHEAD_ABOVE`] and [`DIGIT_PAIRS_ABOVE`]).
    fn for_side(side: usize) -> Self {
        if side > DIGIT_PAIRS_ABOVE {
            Lookahead::CellsAndPlaces
        } else if side > LOOKAHEAD_ABOVE {
            Lookahead::Cells
        } else {
            Lookahead::Off
        }
    }
}

/// The lookahead's placements charged to the budget as one guess. With probes that keep the
/// digits' places, 800 let a hopeless 25x25 give up within the service's budget in 1.0-1.5 s
/// on one core and decide 8 of Gecode's 18 (400: 7 of 18, 0.8-1.1 s; 2,000: still 8).
const PROBES_PER_GUESS: u64 = 800;

/// The largest side whose lookahead probes cells of two candidates alone, not a digit's two
/// places in a group as well: those pairs decide one more of Gecode's 25x25s (8 of 18 within
/// 5,184 guesses, not 7) but cost the generated 16x16s and 20x20s a fifth more instructions.
const DIGIT_PAIRS_ABOVE: usize = 20;

/// The largest side searched without probing every node (see [`Search::probe_pairs`]).
const LOOKAHEAD_ABOVE: usize = 12;

/// The fewest solutions a solvable empty board has: the relabellings of one, 4! on a 4x4.
const EMPTY_BOARD_SOLUTIONS: usize = 24;

/// Whether the board has no clue and its rules treat every digit alike (no cage sums,
/// parity or thermometers), so that relabelling the digits of a solution gives another.
fn is_empty_and_digit_blind(puzzle: &Puzzle) -> bool {
    puzzle.givens.iter().all(|&digit| digit == 0)
        && puzzle.cages.iter().all(|cage| cage.sum.is_none())
        && puzzle.thermometers.is_empty()
        && puzzle.allowed.iter().all(|&mask| mask == puzzle.allowed[0])
}

/// Counts solutions of one board's rules under different clues, its layout of groups and
/// intersections worked out once (the generator checks hundreds of clue sets).
pub(super) struct Counter<'a>(Propagator<'a>);

impl<'a> Counter<'a> {
    pub(super) fn new(puzzle: &'a Puzzle) -> Self {
        Counter(Propagator::new(puzzle))
    }

    /// [`count_variant_solutions`] of the puzzle's rules with `givens` as its clues;
    /// `lookahead` says which pairs every node probes.
    pub(super) fn count(
        &self,
        givens: &[u8],
        limit: usize,
        budget: u64,
        lookahead: Lookahead,
    ) -> Result<VariantCount, BudgetExhausted> {
        let mut search = Search::new(&self.0, limit, budget);
        search.lookahead = lookahead;
        if search.start(givens, None) {
            search.solve()?;
        }
        Ok(VariantCount {
            solutions: search.count,
            first: search.first,
            guesses: search.guesses,
        })
    }

    /// Whether the puzzle's rules with `givens` have a solution in which `cell` does not
    /// hold `digit`. With `digit` the cell's digit of a known solution, "no" means that
    /// solution is the only one: a quicker question than counting to two, since it needs
    /// no solution found, and propagation alone often answers it.
    pub(super) fn solvable_without(
        &self,
        givens: &[u8],
        cell: usize,
        digit: u8,
        budget: u64,
    ) -> Result<bool, BudgetExhausted> {
        let mut search = Search::new(&self.0, 1, budget);
        if search.start(givens, Some((cell, 1 << digit))) {
            search.solve()?;
        }
        Ok(search.count > 0)
    }
}

/// A solution of the board under its rules, its candidates tried in an order `seed`
/// chooses (a different grid for each seed, the same one for a seed on every machine);
/// `None` when there is none or the guesses run out first.
pub(super) fn random_solution(puzzle: &Puzzle, seed: u64, budget: u64) -> Option<Vec<u8>> {
    let rules = Propagator::new(puzzle);
    let mut search = Search::new(&rules, 1, budget);
    search.shuffle = seed | 1;
    if search.start(puzzle.givens(), None) {
        search.solve().ok()?;
    }
    search.first
}

/// The digits with exactly two places among a group's open cells, as bits.
fn digits_in_two_places(cells: &[usize], domains: &[u32]) -> u32 {
    let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
    for &cell in cells {
        let open = if domains[cell].is_power_of_two() {
            0
        } else {
            domains[cell]
        };
        thrice |= twice & open;
        twice |= once & open;
        once |= open;
    }
    twice & !thrice
}

/// A pair of placements probed (see [`pair_key`]), its score and the placement to try first.
type Probed = (u32, u32, (usize, u32));

/// A number for a pair of placements, the same for the same pair.
fn pair_key([(a, bit_a), (b, bit_b)]: [(usize, u32); 2]) -> u32 {
    let placement = |cell: usize, bit: u32| cell as u32 * 32 + bit.trailing_zeros();
    placement(a, bit_a) << 15 | placement(b, bit_b)
}

/// No candidate left somewhere: the node has no solution.
struct Contradiction;

/// What the propagation of a node has yet to look at.
struct Pending {
    /// Cells just decided whose digit has yet to be cleared from their peers.
    fixed: Vec<usize>,
    /// Cells whose candidates changed since the groups' rules last looked (a bit each).
    touched: Vec<u64>,
    /// Full groups with a changed cell since hidden singles last looked at them.
    for_singles: Vec<u64>,
    /// Full groups with a changed cell since locked candidates last looked at them.
    for_locked: Vec<u64>,
    /// Full groups with a changed cell since the all-different rule last looked at them.
    for_matching: Vec<u64>,
}

impl Pending {
    fn new(cells: usize, group_words: usize) -> Self {
        Pending {
            fixed: Vec::new(),
            touched: vec![0; cells.div_ceil(64)],
            for_singles: vec![0; group_words],
            for_locked: vec![0; group_words],
            for_matching: vec![0; group_words],
        }
    }

    /// Nothing pending: a new node starts from its parent's fixed point.
    fn clear(&mut self) {
        self.fixed.clear();
        for words in [
            &mut self.touched,
            &mut self.for_singles,
            &mut self.for_locked,
            &mut self.for_matching,
        ] {
            words.fill(0);
        }
    }

    /// Every group to be looked at: a board just set up.
    fn everything(&mut self) {
        self.touched.fill(u64::MAX);
    }

    /// Records that `cell` now has the candidates `left`.
    #[inline]
    fn changed(&mut self, cell: usize, left: u32) {
        self.touched[cell / 64] |= 1 << (cell % 64);
        if left.is_power_of_two() {
            self.fixed.push(cell);
        }
    }

    /// Moves the changed cells to the groups they belong to (`groups_of`, a bit set of
    /// `self.for_singles.len()` words a cell), for every rule on groups.
    // Out of line, as are the other steps of a node (`branching`, `locked_candidates_in`,
    // `all_different`): all inlined into `propagate` and `run`, they cost the generated 16x16
    // set 2.6% more instructions (BENCHMARKS.md).
    #[inline(never)]
    fn collect(&mut self, groups_of: &[u64]) {
        let words = self.for_singles.len();
        for (word, bits) in self.touched.iter_mut().enumerate() {
            let mut cells = std::mem::take(bits);
            while cells != 0 {
                let cell = 64 * word + cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let Some(groups) = groups_of.get(cell * words..(cell + 1) * words) else {
                    break;
                };
                for (i, &member) in groups.iter().enumerate() {
                    self.for_singles[i] |= member;
                    self.for_locked[i] |= member;
                    self.for_matching[i] |= member;
                }
            }
        }
    }
}

/// Runs `rule` on the groups `slot` marks for it, then marks none: the marks are taken out
/// of `pending` first, so that the rule can record new changes in it meanwhile.
fn on_dirty_groups<T>(
    pending: &mut Pending,
    slot: fn(&mut Pending) -> &mut Vec<u64>,
    rule: impl FnOnce(&[u64], &mut Pending) -> T,
) -> T {
    let dirty = std::mem::take(slot(pending));
    let result = rule(&dirty, pending);
    let marks = slot(pending);
    *marks = dirty;
    marks.fill(0);
    result
}

/// Whether bit `i` of a bit set is set.
fn has(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1 << (i % 64)) != 0
}

/// Two groups holding every digit once that share two or more cells. A digit that one of
/// them can hold only in the shared cells is in one of those cells, so the rest of the other
/// group cannot hold it (locked candidates: pointing and claiming, for boxes, jigsaw
/// regions, diagonals and extra regions alike).
struct Intersection {
    /// The two groups, as indices into the full groups.
    groups: [usize; 2],
    shared: Vec<usize>,
    only_first: Vec<usize>,
    only_second: Vec<usize>,
}

/// The rules as the search applies them at every node.
struct Propagator<'a> {
    puzzle: &'a Puzzle,
    /// The cells of the groups holding every digit once (the ones hidden singles work on),
    /// end to end, `size` a group: the probes look a place up with one index.
    full_group_cells: Vec<usize>,
    intersections: Vec<Intersection>,
    /// For each cell, the full groups it belongs to: a bit set of `group_words` words.
    groups_of: Vec<u64>,
    group_words: usize,
    /// For each cell, the full groups it is in and its place in each (its index among the
    /// group's cells): `memberships[membership_start[c]..membership_start[c + 1]]`.
    memberships: Vec<(u16, u16)>,
    membership_start: Vec<u32>,
    /// For each cell, whether its peers are the cells of its full groups and no others (no
    /// cage, no knight's or king's move): then a probe finds them by the digits' places.
    peers_in_groups: Vec<bool>,
    all: u32,
}

/// The board a probe works on: the candidates, each digit's places in each full group
/// (see [`Propagator::update_places`]), and a bit for each cell it changed.
struct Probe<'p> {
    domains: &'p mut [u32],
    places: &'p mut [u32],
    marks: &'p mut [u64],
    work: &'p mut ProbeWork,
}

/// What a probe has yet to do: cells just decided, whose digit leaves their peers, and
/// placements hidden singles force.
#[derive(Default)]
struct ProbeWork {
    decided: Vec<usize>,
    forced: Vec<(usize, u32)>,
}

struct Search<'a> {
    rules: &'a Propagator<'a>,
    /// The candidates at each depth of the search, reused from node to node.
    frames: Vec<Vec<u32>>,
    /// What the propagation of the node at hand has yet to look at.
    pending: Pending,
    /// For each cell, how often a candidate tried there failed at once: branching prefers
    /// the cells that fail, whose subtrees are the smallest.
    failures: Vec<u32>,
    /// For each cage, a signature of its candidates when its combinations last found
    /// nothing to remove there: unchanged, they are not worked out again.
    settled: Vec<u64>,
    /// For each full group, the digit each of its cells had in the group's last perfect
    /// matching (its cells in order, `size` a group): the next matching starts from it.
    mates: Vec<u8>,
    guesses: u64,
    /// The placements tried by the lookahead (see [`Search::probe_pairs`]).
    probes: u64,
    budget: u64,
    /// The pairs each node probes, and whether it branches where they say (see
    /// [`Search::probe_pairs`]).
    lookahead: Lookahead,
    /// The pairs of placements the probes of a node try (see [`Propagator::either_or`]).
    pairs: Vec<[(usize, u32); 2]>,
    /// The pairs probed since the node's board last narrowed, and those of the pass before
    /// (see [`Search::probe_pairs`]).
    unchanged: Vec<Probed>,
    carried: Vec<Probed>,
    /// Two boards for the probes of a pair's two placements, and the cells each changed.
    scratch: [Vec<u32>; 2],
    marks: [Vec<u64>; 2],
    /// Every digit's places in every full group (see [`Propagator::update_places`]) of the
    /// candidates `places_board`, last the node being probed, and a copy for each of a
    /// pair's two probes.
    node_places: Vec<u32>,
    places_board: Vec<u32>,
    places: [Vec<u32>; 2],
    /// The probes' work lists: cells just decided, and placements a hidden single forces.
    probe_work: ProbeWork,
    limit: usize,
    count: usize,
    first: Option<Vec<u8>>,
    /// When not 0, a cell's candidates are tried from a place this seed and the guess
    /// count choose, so that filling an empty board gives a different grid for each seed.
    shuffle: u64,
}

impl<'a> Search<'a> {
    fn new(rules: &'a Propagator<'a>, limit: usize, budget: u64) -> Self {
        Search {
            rules,
            frames: Vec::new(),
            pending: Pending::new(rules.puzzle.allowed.len(), rules.group_words),
            failures: vec![0; rules.puzzle.allowed.len()],
            settled: vec![0; rules.puzzle.cages.len()],
            mates: vec![0; rules.full_group_cells.len()],
            shuffle: 0,
            guesses: 0,
            probes: 0,
            budget,
            lookahead: Lookahead::Off,
            pairs: Vec::new(),
            unchanged: Vec::new(),
            carried: Vec::new(),
            scratch: [Vec::new(), Vec::new()],
            marks: [Vec::new(), Vec::new()],
            node_places: Vec::new(),
            places_board: Vec::new(),
            places: [Vec::new(), Vec::new()],
            probe_work: ProbeWork::default(),
            limit,
            count: 0,
            first: None,
        }
    }

    /// Puts the candidates of the board as given, propagated, at depth 0; `false` when that
    /// already fails.
    fn start(&mut self, givens: &[u8], excluded: Option<(usize, u32)>) -> bool {
        let mut domains: Vec<u32> = self.rules.puzzle.allowed.clone();
        self.pending.clear();
        self.pending.everything();
        if let Some((cell, bit)) = excluded {
            domains[cell] &= !bit;
            match domains[cell].count_ones() {
                0 => return false,
                1 => self.pending.fixed.push(cell),
                _ => {}
            }
        }
        for (cell, &digit) in givens.iter().enumerate() {
            if digit != 0 {
                let bit = 1u32 << digit;
                if domains[cell] & bit == 0 {
                    return false;
                }
                domains[cell] = bit;
                self.pending.fixed.push(cell);
            }
        }
        let ok = self
            .rules
            .propagate(
                &mut domains,
                &mut self.pending,
                &mut self.settled,
                &mut self.mates,
            )
            .is_ok();
        self.frames.push(domains);
        ok
    }

    /// The candidate of `remaining` to try next: the lowest, or one the shuffle picks.
    fn pick(&self, remaining: u32) -> u32 {
        if self.shuffle == 0 {
            return remaining & remaining.wrapping_neg();
        }
        // SplitMix64's finaliser: a well-spread number from the seed and the guess count.
        let mut z = self.shuffle ^ self.guesses.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let mut skip = (z % u64::from(remaining.count_ones())) as u32;
        let mut left = remaining;
        while skip > 0 {
            left &= left - 1;
            skip -= 1;
        }
        left & left.wrapping_neg()
    }

    /// Searches the tree below the root.
    fn solve(&mut self) -> Result<(), BudgetExhausted> {
        self.run(0)
    }

    /// The lookahead of the node at `depth`, for boards above 12x12: each pair of
    /// placements one of which holds (a cell's two candidates; on 25x25s a digit's two places
    /// in a group too) has both tried and propagated by the singles alone (the full rules
    /// cost ten times as much); one that fails leaves the other, and every cell keeps only
    /// what one of the two left it, until nothing changes. Then the branch, as the lookahead
    /// SAT solvers choose it: the pair whose two tries removed the most candidates (the
    /// product, so both), its try that removed fewer first (more room for a solution). `Err`
    /// when the node fails.
    fn probe_pairs(&mut self, depth: usize) -> Result<Option<(usize, u32)>, Contradiction> {
        let cells = self.frames[depth].len();
        for board in &mut self.scratch {
            board.resize(cells, 0);
        }
        for marks in &mut self.marks {
            marks.resize(cells.div_ceil(64), 0);
        }
        let mut pairs = std::mem::take(&mut self.pairs);
        let mut places_stale = true;
        // The pairs probed since the board last narrowed, with their scores: on the same
        // board their probes would find the same, so the next pass takes them as they are
        // until something narrows.
        let mut unchanged = std::mem::take(&mut self.unchanged);
        let mut carried = std::mem::take(&mut self.carried);
        unchanged.clear();
        loop {
            let mut narrowed = false;
            let mut best: Option<(u32, usize, u32)> = None;
            self.pending.clear();
            pairs.clear();
            std::mem::swap(&mut unchanged, &mut carried);
            unchanged.clear();
            carried.sort_unstable_by_key(|&(key, _, _)| key);
            let places_too = self.lookahead == Lookahead::CellsAndPlaces;
            self.rules
                .either_or(&self.frames[depth], places_too, &mut pairs);
            for &literals in &pairs {
                let frame = &self.frames[depth];
                // A pair that an earlier probe of this pass narrowed: one of its placements
                // now holds or is gone, which propagation has dealt with.
                if literals
                    .iter()
                    .any(|&(c, bit)| frame[c] & bit == 0 || frame[c].is_power_of_two())
                {
                    continue;
                }
                let key = pair_key(literals);
                if let Ok(at) = carried.binary_search_by_key(&key, |&(key, _, _)| key) {
                    let (_, score, first) = carried[at];
                    if best.is_none_or(|(s, _, _)| score > s) {
                        best = Some((score, first.0, first.1));
                    }
                    continue;
                }
                if places_stale {
                    self.rules.update_places(
                        &mut self.places_board,
                        &self.frames[depth],
                        &mut self.node_places,
                    );
                    for places in &mut self.places {
                        places.resize(self.node_places.len(), 0);
                    }
                    places_stale = false;
                }
                let mut alive = [false; 2];
                let mut removed = [0u32; 2];
                for (k, (cell, bit)) in literals.into_iter().enumerate() {
                    self.probes += 1;
                    let board = &mut self.scratch[k];
                    let marks = &mut self.marks[k];
                    let places = &mut self.places[k];
                    board.copy_from_slice(&self.frames[depth]);
                    places.copy_from_slice(&self.node_places);
                    marks.fill(0);
                    let probe = Probe {
                        domains: board,
                        places,
                        marks,
                        work: &mut self.probe_work,
                    };
                    if let Ok(count) = self.rules.singles(probe, cell, bit) {
                        alive[k] = true;
                        removed[k] = count;
                    }
                }
                let frame = &mut self.frames[depth];
                let [(cell_a, bit_a), (cell_b, bit_b)] = literals;
                let changed = match alive {
                    [false, false] => {
                        self.give_back(pairs, unchanged, carried);
                        return Err(Contradiction);
                    }
                    [true, false] => narrow(frame, cell_a, bit_a, &mut self.pending)?,
                    [false, true] => narrow(frame, cell_b, bit_b, &mut self.pending)?,
                    [true, true] => {
                        let [ra, rb] = removed;
                        let score = ra * rb + ra + rb;
                        let first = if ra <= rb {
                            (cell_a, bit_a)
                        } else {
                            (cell_b, bit_b)
                        };
                        if best.is_none_or(|(s, _, _)| score > s) {
                            best = Some((score, first.0, first.1));
                        }
                        unchanged.push((key, score, first));
                        let mut changed = false;
                        let [a, b] = &self.scratch;
                        let [marks_a, marks_b] = &mut self.marks;
                        for (x, &y) in marks_a.iter_mut().zip(marks_b.iter()) {
                            *x &= y;
                        }
                        for other in members(marks_a) {
                            changed |=
                                narrow(frame, other, a[other] | b[other], &mut self.pending)?;
                        }
                        changed
                    }
                };
                if changed {
                    narrowed = true;
                    places_stale = true;
                    unchanged.clear();
                    carried.clear();
                    let result = self.rules.propagate(
                        frame,
                        &mut self.pending,
                        &mut self.settled,
                        &mut self.mates,
                    );
                    if result.is_err() {
                        self.give_back(pairs, unchanged, carried);
                        return Err(Contradiction);
                    }
                    self.pending.clear();
                }
            }
            if !narrowed {
                self.give_back(pairs, unchanged, carried);
                return Ok(best.map(|(_, cell, first)| (cell, first)));
            }
        }
    }

    /// Keeps the lookahead's lists for the next node, so that it allocates none.
    fn give_back(
        &mut self,
        pairs: Vec<[(usize, u32); 2]>,
        unchanged: Vec<Probed>,
        carried: Vec<Probed>,
    ) {
        self.pairs = pairs;
        self.unchanged = unchanged;
        self.carried = carried;
    }

    fn run(&mut self, depth: usize) -> Result<(), BudgetExhausted> {
        let mut chosen = None;
        if self.lookahead != Lookahead::Off {
            let Ok(choice) = self.probe_pairs(depth) else {
                return Ok(());
            };
            chosen = choice;
        }
        let Some((cell, tries)) =
            chosen.or_else(|| self.rules.branching(&self.frames[depth], &self.failures))
        else {
            let cells: Vec<u8> = self.frames[depth]
                .iter()
                .map(|d| d.trailing_zeros() as u8)
                .collect();
            // Propagation keeps every rule at a full board; this check makes sure of it.
            if satisfies(self.rules.puzzle, &cells) {
                self.count += 1;
                self.first.get_or_insert(cells);
            }
            return Ok(());
        };
        if self.frames.len() == depth + 1 {
            self.frames.push(vec![0; self.frames[depth].len()]);
        }
        let open = self.frames[depth][cell];
        let mut remaining = open;
        while remaining != 0 && self.count < self.limit {
            let domain = if tries == open {
                self.pick(remaining)
            } else if remaining == open {
                tries
            } else {
                // The other way of a digit's branch: the cell keeps its other candidates.
                remaining
            };
            remaining &= !domain;
            self.guesses += 1;
            if self.guesses + self.probes / PROBES_PER_GUESS > self.budget {
                return Err(BudgetExhausted {
                    guesses: self.guesses - 1,
                });
            }
            let (parents, children) = self.frames.split_at_mut(depth + 1);
            let next = &mut children[0];
            next.copy_from_slice(&parents[depth]);
            next[cell] = domain;
            self.pending.clear();
            self.pending.changed(cell, domain);
            if self
                .rules
                .propagate(next, &mut self.pending, &mut self.settled, &mut self.mates)
                .is_ok()
            {
                self.run(depth + 1)?;
            } else {
                self.failures[cell] = self.failures[cell].saturating_add(1);
            }
        }
        Ok(())
    }
}

impl<'a> Propagator<'a> {
    fn new(puzzle: &'a Puzzle) -> Self {
        let size = puzzle.size;
        let full_groups: Vec<&[usize]> = puzzle
            .groups
            .iter()
            .filter(|g| g.cells.len() == size)
            .map(|g| g.cells.as_slice())
            .collect();
        let cells = size * size;
        // Each cell's full groups and its place in each, by a counting sort on the cells.
        let mut membership_start = vec![0u32; cells + 1];
        for group in &full_groups {
            for &cell in *group {
                membership_start[cell + 1] += 1;
            }
        }
        for cell in 0..cells {
            membership_start[cell + 1] += membership_start[cell];
        }
        let mut memberships = vec![(0u16, 0u16); membership_start[cells] as usize];
        let mut next: Vec<u32> = membership_start[..cells].to_vec();
        for (group, members) in full_groups.iter().enumerate() {
            for (place, &cell) in members.iter().enumerate() {
                memberships[next[cell] as usize] = (group as u16, place as u16);
                next[cell] += 1;
            }
        }
        let groups_of_cell = |cell: usize| {
            memberships[membership_start[cell] as usize..membership_start[cell + 1] as usize]
                .iter()
                .map(|&(group, _)| usize::from(group))
        };
        // The cells two groups share, counted from the cells' memberships rather than by
        // testing every pair of groups cell by cell: set up once a request, that had cost
        // a 16x16 more than its propagation from the givens.
        let groups = full_groups.len();
        let mut shared_count = vec![0u16; groups * groups];
        for cell in 0..cells {
            for first in groups_of_cell(cell) {
                for second in groups_of_cell(cell).filter(|&second| second > first) {
                    shared_count[first * groups + second] += 1;
                }
            }
        }
        let mut intersections = Vec::new();
        let mut in_first = vec![false; cells];
        let mut in_second = vec![false; cells];
        for (i, first) in full_groups.iter().enumerate() {
            for &cell in *first {
                in_first[cell] = true;
            }
            for j in i + 1..groups {
                let count = usize::from(shared_count[i * groups + j]);
                if count < 2 || count == size {
                    continue;
                }
                let second = full_groups[j];
                for &cell in second {
                    in_second[cell] = true;
                }
                let cells_where = |cells: &[usize], keep: &dyn Fn(usize) -> bool, count| {
                    let mut kept = Vec::with_capacity(count);
                    kept.extend(cells.iter().copied().filter(|&c| keep(c)));
                    kept
                };
                intersections.push(Intersection {
                    groups: [i, j],
                    shared: cells_where(second, &|c| in_first[c], count),
                    only_first: cells_where(first, &|c| !in_second[c], size - count),
                    only_second: cells_where(second, &|c| !in_first[c], size - count),
                });
                for &cell in second {
                    in_second[cell] = false;
                }
            }
            for &cell in *first {
                in_first[cell] = false;
            }
        }
        let group_words = groups.div_ceil(64);
        let mut groups_of = vec![0u64; cells * group_words];
        for cell in 0..cells {
            for g in groups_of_cell(cell) {
                groups_of[cell * group_words + g / 64] |= 1 << (g % 64);
            }
        }
        let mut seen = vec![usize::MAX; cells];
        let peers_in_groups = (0..cells)
            .map(|cell| {
                seen[cell] = cell;
                let mut in_groups = 0;
                for group in groups_of_cell(cell) {
                    for &other in full_groups[group] {
                        if seen[other] != cell {
                            seen[other] = cell;
                            in_groups += 1;
                        }
                    }
                }
                in_groups == puzzle.peers[cell].len()
            })
            .collect();
        Propagator {
            puzzle,
            full_group_cells: full_groups.concat(),
            intersections,
            groups_of,
            group_words,
            memberships,
            membership_start,
            peers_in_groups,
            all: ((1u32 << size) - 1) << 1,
        }
    }

    /// Where to branch, or `None` when every cell is decided: a cell with the fewest
    /// candidates and the digits to try there, one at a time. When no cell has two but a
    /// digit has only two places in a group, the branch is that digit in its first place,
    /// then not there (so in the other): two ways, as a pair of candidates would give.
    // Out of line: see `Pending::collect` for why.
    #[inline(never)]
    fn branching(&self, domains: &[u32], failures: &[u32]) -> Option<(usize, u32)> {
        // Fewest candidates first; among equals, the cell whose candidates have failed most
        // often in this search (the idea of "weighted degree" branching, Boussemart et al.,
        // kept per cell), then the one that sees the most open cells, since placing it
        // narrows the most. The failures took the generated 16x16 set from 5,552 guesses to
        // 3,120 (BENCHMARKS.md).
        let open_peers = |cell: usize| {
            self.puzzle.peers[cell]
                .iter()
                .filter(|&&peer| !domains[peer].is_power_of_two())
                .count()
        };
        // The open peers are counted only to break a tie, and kept once counted.
        let mut best: Option<(u32, u32, Option<usize>, usize)> = None;
        for (cell, &mask) in domains.iter().enumerate() {
            let count = mask.count_ones();
            if count < 2 {
                continue;
            }
            let failed = failures[cell];
            match &mut best {
                Some((least, most, theirs, chosen)) if count == *least && failed == *most => {
                    let theirs = *theirs.get_or_insert_with(|| open_peers(*chosen));
                    let ours = open_peers(cell);
                    if ours > theirs {
                        best = Some((count, failed, Some(ours), cell));
                    }
                }
                Some((least, most, _, _))
                    if count > *least || (count == *least && failed < *most) => {}
                _ => best = Some((count, failed, None, cell)),
            }
        }
        let (least, _, _, cell) = best?;
        if least > 2 {
            for cells in self.full_groups() {
                let pairs = digits_in_two_places(cells, domains);
                if pairs != 0 {
                    let digit = pairs & pairs.wrapping_neg();
                    let first = cells.iter().copied().find(|&c| domains[c] & digit != 0)?;
                    return Some((first, digit));
                }
            }
        }
        Some((cell, domains[cell]))
    }

    /// Propagates to a fixed point; `pending` holds the cells just decided and those whose
    /// candidates changed since the parent's fixed point, `settled` the cages' signatures
    /// where their combinations last had nothing to remove. Hidden singles and locked
    /// candidates look only at groups with a changed cell: on a 16x16 they had taken most of
    /// the time, rescanning every group and intersection each round.
    fn propagate(
        &self,
        domains: &mut [u32],
        pending: &mut Pending,
        settled: &mut [u64],
        mates: &mut [u8],
    ) -> Result<(), Contradiction> {
        loop {
            while let Some(cell) = pending.fixed.pop() {
                let bit = domains[cell];
                for &peer in &self.puzzle.peers[cell] {
                    if domains[peer] & bit != 0 {
                        let left = domains[peer] & !bit;
                        if left == 0 {
                            return Err(Contradiction);
                        }
                        domains[peer] = left;
                        pending.changed(peer, left);
                    }
                }
            }
            pending.collect(&self.groups_of);
            self.hidden_singles(domains, pending)?;
            if !pending.fixed.is_empty() {
                continue;
            }
            pending.collect(&self.groups_of);
            let mut narrowed = self.locked_candidates(domains, pending)?;
            let cages = &self.puzzle.cages;
            narrowed |= where_changed(
                settled,
                |k| &cages[k].cells,
                domains,
                pending,
                |k, d, f| cage_combinations(&cages[k], d, f),
            )?;
            for thermometer in &self.puzzle.thermometers {
                narrowed |= thermometer_bounds(thermometer, domains, pending)?;
            }
            if narrowed || !pending.fixed.is_empty() {
                continue;
            }
            pending.collect(&self.groups_of);
            let pruned = self.all_different(domains, pending, mates)?;
            if !pruned {
                return Ok(());
            }
        }
    }

    /// The pairs of placements one of which holds: the two candidates of a cell of two and,
    /// with `places_too`, the two places of a digit with two in a group (unless both cells
    /// have two: their pairs already try those placements).
    fn either_or(&self, domains: &[u32], places_too: bool, pairs: &mut Vec<[(usize, u32); 2]>) {
        for (cell, &mask) in domains.iter().enumerate() {
            if mask.count_ones() == 2 {
                let low = mask & mask.wrapping_neg();
                pairs.push([(cell, low), (cell, mask & !low)]);
            }
        }
        if !places_too {
            return;
        }
        for cells in self.full_groups() {
            let mut two = digits_in_two_places(cells, domains);
            while two != 0 {
                let digit = two & two.wrapping_neg();
                two &= !digit;
                let mut at = cells.iter().copied().filter(|&c| domains[c] & digit != 0);
                if let (Some(a), Some(b)) = (at.next(), at.next()) {
                    if domains[a].count_ones() > 2 || domains[b].count_ones() > 2 {
                        pairs.push([(a, digit), (b, digit)]);
                    }
                }
            }
        }
    }

    /// Naked and hidden singles alone to a fixed point after `cell` takes `bit`: the
    /// probes' cheap propagation. Each digit's places in each full group are kept as the
    /// candidates shrink, so a hidden single shows where a place is lost instead of by
    /// scanning every group a changed cell is in again (on a 25x25 that scan took most of a
    /// probe). Every cell it changes gets its bit in the probe's marks; the candidates it
    /// removed, counted.
    fn singles(&self, mut probe: Probe<'_>, cell: usize, bit: u32) -> Result<u32, Contradiction> {
        let mut removed = 0;
        probe.work.decided.clear();
        probe.work.forced.clear();
        probe.work.forced.push((cell, bit));
        loop {
            if let Some(cell) = probe.work.decided.pop() {
                let bit = probe.domains[cell];
                if self.peers_in_groups[cell] {
                    // The peers still holding the digit are its other places in the groups.
                    let stride = self.puzzle.size + 1;
                    let digit = bit.trailing_zeros() as usize;
                    for &(group, place) in self.memberships_of(cell) {
                        let cells = self.full_group(usize::from(group));
                        let mut others =
                            probe.places[usize::from(group) * stride + digit] & !(1 << place);
                        while others != 0 {
                            let peer = cells[others.trailing_zeros() as usize];
                            others &= others - 1;
                            if probe.domains[peer] & bit != 0 {
                                self.remove(&mut probe, peer, bit)?;
                                removed += 1;
                            }
                        }
                    }
                } else {
                    for &peer in &self.puzzle.peers[cell] {
                        if probe.domains[peer] & bit != 0 {
                            self.remove(&mut probe, peer, bit)?;
                            removed += 1;
                        }
                    }
                }
            } else if let Some((cell, bit)) = probe.work.forced.pop() {
                let mask = probe.domains[cell];
                if mask & bit == 0 {
                    return Err(Contradiction);
                }
                if mask != bit {
                    self.remove(&mut probe, cell, mask & !bit)?;
                    removed += (mask & !bit).count_ones();
                }
            } else {
                return Ok(removed);
            }
        }
    }

    /// Takes `gone` (candidates the cell has) from `cell`, and from the digits' places in its
    /// full groups: a digit left one place in a group is forced there, none fails. Inlined
    /// in the probes: called for each candidate they remove, the calls cost 5% of the
    /// instructions on a 16x16 and 6% on a 25x25.
    #[inline(always)]
    fn remove(&self, probe: &mut Probe<'_>, cell: usize, gone: u32) -> Result<(), Contradiction> {
        let left = probe.domains[cell] & !gone;
        if left == 0 {
            return Err(Contradiction);
        }
        probe.domains[cell] = left;
        probe.marks[cell / 64] |= 1 << (cell % 64);
        if left.is_power_of_two() {
            probe.work.decided.push(cell);
        }
        let stride = self.puzzle.size + 1;
        for &(group, place) in self.memberships_of(cell) {
            let (group, place) = (usize::from(group), usize::from(place));
            let mut digits = gone;
            while digits != 0 {
                let digit = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let places = &mut probe.places[group * stride + digit];
                *places &= !(1 << place);
                if *places & places.wrapping_sub(1) == 0 {
                    if *places == 0 {
                        return Err(Contradiction);
                    }
                    let only = self.full_group_cells
                        [group * self.puzzle.size + places.trailing_zeros() as usize];
                    if probe.domains[only] != 1 << digit {
                        probe.work.forced.push((only, 1 << digit));
                    }
                }
            }
        }
        Ok(())
    }

    /// The groups holding every digit once, in order.
    fn full_groups(&self) -> std::slice::ChunksExact<'_, usize> {
        self.full_group_cells.chunks_exact(self.puzzle.size)
    }

    /// The cells of full group `g`.
    fn full_group(&self, g: usize) -> &[usize] {
        let size = self.puzzle.size;
        &self.full_group_cells[g * size..(g + 1) * size]
    }

    /// The full groups `cell` is in, each with the cell's place among the group's cells.
    fn memberships_of(&self, cell: usize) -> &[(u16, u16)] {
        let start = self.membership_start[cell] as usize;
        &self.memberships[start..self.membership_start[cell + 1] as usize]
    }

    /// Every digit's places in every full group: bit `i` of `places[g * (size + 1) + d]`
    /// when the group's `i`-th cell can hold `d`. They are brought from the candidates
    /// `board` they were of to `domains` by flipping the places of the digits that differ,
    /// cell by cell: a node's board differs from the last one probed in few cells, and
    /// working them all out again took 6% of a 25x25's instructions.
    fn update_places(&self, board: &mut Vec<u32>, domains: &[u32], places: &mut Vec<u32>) {
        if board.len() != domains.len() {
            // No candidates, no places.
            board.clear();
            board.resize(domains.len(), 0);
            places.clear();
            places.resize(self.full_groups().len() * (self.puzzle.size + 1), 0);
        }
        let stride = self.puzzle.size + 1;
        for (cell, (was, &now)) in board.iter_mut().zip(domains).enumerate() {
            let flipped = *was ^ now;
            if flipped == 0 {
                continue;
            }
            *was = now;
            for &(group, place) in self.memberships_of(cell) {
                let mut digits = flipped;
                while digits != 0 {
                    let digit = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    places[usize::from(group) * stride + digit] ^= 1 << place;
                }
            }
        }
    }

    /// A digit with one place left in a group goes there; a digit with none fails. Only
    /// in the groups with a changed cell since it last looked.
    fn hidden_singles(
        &self,
        domains: &mut [u32],
        pending: &mut Pending,
    ) -> Result<(), Contradiction> {
        on_dirty_groups(
            pending,
            |p| &mut p.for_singles,
            |dirty, pending| self.hidden_singles_in(dirty, domains, pending),
        )
    }

    fn hidden_singles_in(
        &self,
        dirty: &[u64],
        domains: &mut [u32],
        pending: &mut Pending,
    ) -> Result<(), Contradiction> {
        for g in members(dirty) {
            let cells = self.full_group(g);
            let (mut once, mut twice, mut decided) = (0u32, 0u32, 0u32);
            for &cell in cells {
                let mask = domains[cell];
                twice |= once & mask;
                once |= mask;
                decided |= if mask & mask.wrapping_sub(1) == 0 {
                    mask
                } else {
                    0
                };
            }
            if once != self.all {
                return Err(Contradiction);
            }
            // The digits of decided cells are in place already.
            let mut single = once & !twice & !decided;
            if single == 0 {
                continue;
            }
            for &cell in cells {
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
                    pending.changed(cell, here);
                }
            }
        }
        Ok(())
    }

    /// The all-different rule in full on every group with a changed cell since it last
    /// looked; whether anything was removed.
    fn all_different(
        &self,
        domains: &mut [u32],
        pending: &mut Pending,
        mates: &mut [u8],
    ) -> Result<bool, Contradiction> {
        on_dirty_groups(
            pending,
            |p| &mut p.for_matching,
            |dirty, pending| {
                let mut pruned = false;
                let size = self.puzzle.size;
                for g in members(dirty) {
                    let mates = &mut mates[g * size..(g + 1) * size];
                    pruned |= all_different(self.full_group(g), domains, pending, mates)?;
                }
                Ok(pruned)
            },
        )
    }

    /// Locked candidates over every [`Intersection`] of a group with a changed cell since it
    /// last looked; whether anything was removed.
    fn locked_candidates(
        &self,
        domains: &mut [u32],
        pending: &mut Pending,
    ) -> Result<bool, Contradiction> {
        on_dirty_groups(
            pending,
            |p| &mut p.for_locked,
            |dirty, pending| self.locked_candidates_in(dirty, domains, pending),
        )
    }

    // Out of line: see `Pending::collect` for why.
    #[inline(never)]
    fn locked_candidates_in(
        &self,
        dirty: &[u64],
        domains: &mut [u32],
        pending: &mut Pending,
    ) -> Result<bool, Contradiction> {
        let union = |cells: &[usize], domains: &[u32]| {
            cells.iter().fold(0u32, |acc, &cell| acc | domains[cell])
        };
        let mut narrowed = false;
        for meet in &self.intersections {
            if !has(dirty, meet.groups[0]) && !has(dirty, meet.groups[1]) {
                continue;
            }
            let inside = union(&meet.shared, domains);
            let first_out = union(&meet.only_first, domains);
            let second_out = union(&meet.only_second, domains);
            let confined_to_first = inside & !first_out & second_out;
            let confined_to_second = inside & !second_out & first_out;
            for (confined, others) in [
                (confined_to_first, &meet.only_second),
                (confined_to_second, &meet.only_first),
            ] {
                if confined != 0 {
                    for &cell in others {
                        narrowed |= narrow(domains, cell, !confined, pending)?;
                    }
                }
            }
        }
        Ok(narrowed)
    }
}

/// The all-different rule of a group of N cells holding N digits, enforced in full
/// (Régin's filtering): a perfect matching of cells to digits is found by augmenting paths,
/// and a candidate survives only if some perfect matching uses it, which holds when its cell
/// and the cell its digit is matched to lie on one cycle of the "can take the digit of"
/// graph (one strongly connected component). It sees every naked and hidden subset of the
/// group at once. `mates` holds the digit of each cell in the group's last matching, which
/// this one starts from and replaces. Whether anything was removed.
// Out of line: see `Pending::collect` for why.
#[inline(never)]
fn all_different(
    cells: &[usize],
    domains: &mut [u32],
    pending: &mut Pending,
    mates: &mut [u8],
) -> Result<bool, Contradiction> {
    // Decided cells are matched to their own digits already: only the open cells and the
    // digits left to them make the graph, which mid-search is half the group or less.
    let (mut decided, mut decided_cells) = (0u32, 0u32);
    let mut open = [0u8; 32];
    let mut open_count = 0;
    for (place, &cell) in cells.iter().enumerate() {
        let mask = domains[cell];
        if mask.is_power_of_two() {
            decided |= mask;
            decided_cells += 1;
        } else {
            open[open_count] = place as u8;
            open_count += 1;
        }
    }
    if decided.count_ones() != decided_cells {
        return Err(Contradiction);
    }
    if open_count == 0 {
        return Ok(false);
    }
    let open = &open[..open_count];
    let mut graph = CellGraph::of(
        open.iter()
            .map(|&place| domains[cells[usize::from(place)]] & !decided),
    );
    // The last matching still holds wherever its digit is still a candidate (always at the
    // nodes above the one that made it, whose candidates are more): only the rest is searched.
    for (i, &place) in open.iter().enumerate() {
        graph.keep(i, mates[usize::from(place)]);
    }
    if !graph.matches_every_cell() {
        return Err(Contradiction);
    }
    for (i, &place) in open.iter().enumerate() {
        mates[usize::from(place)] = graph.digit_of[i].trailing_zeros() as u8;
    }
    let mut pruned = false;
    let places = graph.places();
    let mut left = graph.everyone();
    while left != 0 {
        let component = graph.component_of(left.trailing_zeros() as usize, left, &places);
        left &= !component;
        // A candidate is kept when the cell holding its digit in the matching lies in the
        // same component: the digits matched within it.
        let mut digits = 0u32;
        let mut members = component;
        while members != 0 {
            digits |= graph.digit_of[members.trailing_zeros() as usize];
            members &= members - 1;
        }
        if component == graph.everyone() {
            break;
        }
        let mut members = component;
        while members != 0 {
            let i = members.trailing_zeros() as usize;
            members &= members - 1;
            let keep = graph.candidates[i] & digits;
            pruned |= narrow(domains, cells[usize::from(open[i])], keep, pending)?;
        }
    }
    Ok(pruned)
}

/// Runs `rule` on each group (or cage) `i` whose cells' candidates differ from when it last
/// removed nothing there (`seen[i]` holds their signature then); whether it removed anything.
fn where_changed<'c>(
    seen: &mut [u64],
    cells_of: impl Fn(usize) -> &'c [usize],
    domains: &mut [u32],
    pending: &mut Pending,
    mut rule: impl FnMut(usize, &mut [u32], &mut Pending) -> Result<bool, Contradiction>,
) -> Result<bool, Contradiction> {
    let mut removed = false;
    for (i, last) in seen.iter_mut().enumerate() {
        let now = signature(cells_of(i), domains);
        if *last == now {
            continue;
        }
        if rule(i, domains, pending)? {
            removed = true;
        } else {
            *last = now;
        }
    }
    Ok(removed)
}

/// A hash of a group's candidates (FNV-1a over the masks): equal signatures stand for equal
/// candidates, and a rare collision only skips a filtering, which never makes a wrong answer.
fn signature(cells: &[usize], domains: &[u32]) -> u64 {
    cells.iter().fold(0xCBF2_9CE4_8422_2325, |hash, &cell| {
        (hash ^ u64::from(domains[cell])).wrapping_mul(0x0100_0000_01B3)
    })
}

/// A group's cells, their candidates and a matching of cells to digits.
struct CellGraph {
    candidates: [u32; 32],
    /// The cell (index in the group) each digit is matched to.
    holder: [u8; 32],
    /// The digit (bit) each cell is matched to.
    digit_of: [u32; 32],
    /// The digits matched so far (bits).
    taken: u32,
    n: usize,
}

impl CellGraph {
    /// The graph of cells with these candidates, nothing matched yet.
    fn of(candidates: impl IntoIterator<Item = u32>) -> CellGraph {
        let mut graph = CellGraph {
            candidates: [0; 32],
            holder: [u8::MAX; 32],
            digit_of: [0; 32],
            taken: 0,
            n: 0,
        };
        for (slot, mask) in graph.candidates.iter_mut().zip(candidates) {
            *slot = mask;
            graph.n += 1;
        }
        graph
    }

    /// Every cell, as a bit set.
    fn everyone(&self) -> u32 {
        ((1u64 << self.n) - 1) as u32
    }

    /// Matches cell `i` to `digit` if that is one of its candidates and still free.
    fn keep(&mut self, i: usize, digit: u8) {
        let bit = 1u32 << (digit & 31);
        if self.candidates[i] & bit != 0 && self.taken & bit == 0 {
            self.holder[usize::from(digit)] = i as u8;
            self.digit_of[i] = bit;
            self.taken |= bit;
        }
    }

    /// Whether every cell gets a digit of its own (a perfect matching, by augmenting paths
    /// from the cells not matched yet).
    fn matches_every_cell(&mut self) -> bool {
        (0..self.n).all(|i| self.digit_of[i] != 0 || self.augment(i, &mut 0))
    }

    /// Matches cell `i`, moving other cells along an augmenting path; `tried` holds the
    /// digits already visited on this search.
    fn augment(&mut self, i: usize, tried: &mut u32) -> bool {
        let options = self.candidates[i] & !*tried;
        // A free digit ends the path at once.
        let free = options & !self.taken;
        if free != 0 {
            let bit = free & free.wrapping_neg();
            self.holder[bit.trailing_zeros() as usize] = i as u8;
            self.digit_of[i] = bit;
            self.taken |= bit;
            return true;
        }
        *tried |= options;
        let mut options = options;
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options &= !bit;
            let digit = bit.trailing_zeros() as usize;
            if self.augment(usize::from(self.holder[digit]), tried) {
                self.holder[digit] = i as u8;
                self.digit_of[i] = bit;
                return true;
            }
        }
        false
    }

    /// The cells `i` can hand its place to: those matched to its other candidates.
    fn successors(&self, i: usize) -> u32 {
        let mut next = 0u32;
        let mut options = self.candidates[i] & !self.digit_of[i];
        while options != 0 {
            let digit = options.trailing_zeros() as usize;
            options &= options - 1;
            next |= 1 << self.holder[digit];
        }
        next
    }

    /// For each digit, the cells having it as a candidate (bits): the cells that can hand
    /// their place to the one matched to it.
    fn places(&self) -> [u32; 32] {
        let mut places = [0u32; 32];
        for (i, &candidates) in self.candidates[..self.n].iter().enumerate() {
            let mut options = candidates;
            while options != 0 {
                places[options.trailing_zeros() as usize] |= 1 << i;
                options &= options - 1;
            }
        }
        places
    }

    /// The strongly connected component of cell `i` among the cells `within` (whole
    /// components, `i`'s among them): the cells it reaches that reach it; `places` as
    /// [`CellGraph::places`] gives them.
    fn component_of(&self, i: usize, within: u32, places: &[u32; 32]) -> u32 {
        let reach = |step: &dyn Fn(usize) -> u32| {
            let mut seen = 1u32 << i;
            let mut frontier = seen;
            while frontier != 0 {
                let mut next = 0;
                while frontier != 0 {
                    next |= step(frontier.trailing_zeros() as usize);
                    frontier &= frontier - 1;
                }
                frontier = next & within & !seen;
                seen |= frontier;
            }
            seen
        };
        let forward = reach(&|j| self.successors(j));
        if forward == 1 << i {
            return forward;
        }
        let digit = |j: usize| self.digit_of[j].trailing_zeros() as usize;
        forward & reach(&|j| places[digit(j)])
    }
}

/// Narrows `domains[cell]` to `mask`; whether it changed.
fn narrow(
    domains: &mut [u32],
    cell: usize,
    mask: u32,
    pending: &mut Pending,
) -> Result<bool, Contradiction> {
    let left = domains[cell] & mask;
    if left == 0 {
        return Err(Contradiction);
    }
    if left == domains[cell] {
        return Ok(false);
    }
    domains[cell] = left;
    pending.changed(cell, left);
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

/// How many steps the search for a cage's sets of digits may take before the bounds alone
/// serve: a long cage of a large board has too many sets, and a pool of digits with gaps
/// (all even, say) can make many steps find none.
const CAGE_STEPS: usize = 4_096;

/// Keeps in each cell of a cage only the digits it holds in some way of filling the cage
/// with different digits of its candidates that make the sum: each set of digits making
/// the sum (what killer players call the cage's combinations) is matched to the cells.
/// Stronger than [`cage_bounds`], which it falls back to when the search for the sets
/// takes more than [`CAGE_STEPS`] steps.
fn cage_combinations(
    cage: &CompiledCage,
    domains: &mut [u32],
    pending: &mut Pending,
) -> Result<bool, Contradiction> {
    let Some(sum) = cage.sum else {
        return Ok(false);
    };
    if cage
        .cells
        .iter()
        .all(|&cell| domains[cell].is_power_of_two())
    {
        return Ok(false);
    }
    let union = cage
        .cells
        .iter()
        .fold(0u32, |all, &cell| all | domains[cell]);
    let size = cage.cells.len();
    let mut keep = [0u32; 32];
    let mut steps = CAGE_STEPS;
    let complete = digit_sets(union, cage.cells.len(), sum, 0, &mut steps, &mut |set| {
        let mut options = [0u32; 32];
        for (option, &cell) in options.iter_mut().zip(&cage.cells) {
            *option = domains[cell] & set;
        }
        let options = &options[..size];
        let mut first = CellGraph::of(options.iter().copied());
        if !first.matches_every_cell() {
            return true;
        }
        for (kept, &digit) in keep.iter_mut().zip(&first.digit_of[..size]) {
            *kept |= digit;
        }
        for (i, kept) in keep.iter_mut().enumerate().take(size) {
            let mut untried = options[i] & !*kept;
            while untried != 0 {
                let digit = untried & untried.wrapping_neg();
                untried &= !digit;
                // The digit stays if the other cells can take the set's other digits.
                let mut graph = CellGraph::of(options.iter().map(|&o| o & !digit));
                graph.candidates[i] = digit;
                if graph.matches_every_cell() {
                    *kept |= digit;
                }
            }
        }
        true
    });
    if !complete {
        return cage_bounds(cage, domains, pending);
    }
    let mut narrowed = false;
    for (kept, &cell) in keep.iter().zip(&cage.cells) {
        narrowed |= narrow(domains, cell, *kept, pending)?;
    }
    Ok(narrowed)
}

/// Calls `each` with every set of `count` different digits of `pool` adding up to `sum`
/// (bit d for digit d; `chosen` holds the digits taken so far), smallest digits first;
/// `false` when `each` asked to stop or the `steps` ran out first.
fn digit_sets(
    pool: u32,
    count: usize,
    sum: u32,
    chosen: u32,
    steps: &mut usize,
    each: &mut dyn FnMut(u32) -> bool,
) -> bool {
    let Some(left) = steps.checked_sub(1) else {
        return false;
    };
    *steps = left;
    if count == 0 {
        return sum != 0 || each(chosen);
    }
    let least = extreme_sum(pool, count, false);
    let most = extreme_sum(pool, count, true);
    if least.is_none_or(|least| least > sum) || most.is_none_or(|most| most < sum) {
        return true;
    }
    let digit = pool.trailing_zeros();
    let rest = pool & (pool - 1);
    (digit > sum
        || digit_sets(
            rest,
            count - 1,
            sum - digit,
            chosen | 1 << digit,
            steps,
            each,
        ))
        && digit_sets(rest, count, sum, chosen, steps, each)
}

/// Removes from each cell of a cage the digits its sum leaves no room for: the others
/// must make the rest, and different digits from their candidates make only so little or
/// so much.
fn cage_bounds(
    cage: &CompiledCage,
    domains: &mut [u32],
    pending: &mut Pending,
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
        narrowed |= narrow(domains, cell, keep, pending)?;
    }
    Ok(narrowed)
}

/// Digits strictly increase from the bulb: each cell is above the least its predecessor
/// can hold and below the most its successor can.
fn thermometer_bounds(
    cells: &[usize],
    domains: &mut [u32],
    pending: &mut Pending,
) -> Result<bool, Contradiction> {
    let mut narrowed = false;
    for pair in cells.windows(2) {
        let least = domains[pair[0]].trailing_zeros();
        let above = !((2u32 << least) - 1);
        narrowed |= narrow(domains, pair[1], above, pending)?;
    }
    for pair in cells.windows(2).rev() {
        let most = domains[pair[1]].ilog2();
        let below = (1u32 << most) - 1;
        narrowed |= narrow(domains, pair[0], below, pending)?;
    }
    Ok(narrowed)
}

#[cfg(test)]
mod tests {
    use super::super::rules::{Cage, Diagonal, Rules, VariantCell};
    use super::*;

    /// The rules of the lookahead test: classic 9x9, with diagonals, with knight's moves
    /// barred (peers beyond the groups), with killer cages over the top rows (cages), and a
    /// 16x16.
    fn lookahead_cases() -> Vec<(usize, Rules)> {
        let at = |row, col| VariantCell { row, col };
        let cages = (0..9)
            .map(|k| Cage {
                sum: None,
                cells: vec![at(k / 3, 3 * (k % 3)), at(k / 3, 3 * (k % 3) + 1)],
            })
            .collect();
        vec![
            (9, Rules::default()),
            (
                9,
                Rules {
                    diagonals: vec![Diagonal::Main, Diagonal::Anti],
                    ..Rules::default()
                },
            ),
            (
                9,
                Rules {
                    anti_knight: true,
                    ..Rules::default()
                },
            ),
            (
                9,
                Rules {
                    cages,
                    ..Rules::default()
                },
            ),
            (16, Rules::default()),
        ]
    }

    #[test]
    fn the_lookahead_counts_what_the_plain_search_counts() {
        // Boards from sparse to nearly full, so that both sides meet boards with none, one
        // and many solutions, and probes that fail, force cells and narrow them.
        for (case, (size, rules)) in lookahead_cases().into_iter().enumerate() {
            let empty = Puzzle::new(vec![0; size * size], &rules).unwrap();
            for seed in 0..12u64 {
                let solution = random_solution(&empty, seed + 1, 2_000).expect("a filled grid");
                let mut givens = solution.clone();
                let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                let keep = size * size * (2 + seed as usize % 5) / 10;
                let mut open = size * size - keep;
                while open > 0 {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let cell = (state % (size * size) as u64) as usize;
                    if givens[cell] != 0 {
                        givens[cell] = 0;
                        open -= 1;
                    }
                }
                // A wrong digit in every third board, so some have no solution.
                if seed % 3 == 2 {
                    let cell = givens.iter().position(|&d| d != 0).unwrap();
                    givens[cell] = givens[cell] % size as u8 + 1;
                }
                let puzzle = Puzzle::new(givens.clone(), &rules).unwrap();
                let counter = Counter::new(&puzzle);
                let plain = counter
                    .count(&givens, 2, 1_000_000, Lookahead::Off)
                    .unwrap();
                for lookahead in [Lookahead::Cells, Lookahead::CellsAndPlaces] {
                    let probed = counter.count(&givens, 2, 1_000_000, lookahead).unwrap();
                    let label = format!("case {case}, seed {seed}, {lookahead:?}");
                    assert_eq!(plain.solutions, probed.solutions, "{label}");
                    if let Some(first) = &probed.first {
                        assert!(satisfies(&puzzle, first), "{label}");
                        assert!(givens.iter().zip(first).all(|(&g, &d)| g == 0 || g == d));
                    }
                }
            }
        }
    }

    fn digits(mask: u32) -> Vec<u32> {
        (1..32).filter(|d| mask & (1 << d) != 0).collect()
    }

    #[test]
    fn a_cage_keeps_only_the_digits_of_its_combinations() {
        let all = 0b11_1111_1110;
        let cage = CompiledCage {
            sum: Some(10),
            cells: vec![0, 1],
        };
        // The bounds keep 5 (5 and another from 1 to 9 can make 10); no two different
        // digits with a 5 do.
        let mut domains = vec![all, all];
        assert!(cage_bounds(&cage, &mut domains, &mut Pending::new(625, 1)).is_ok_and(|n| !n));
        assert!(cage_combinations(&cage, &mut domains, &mut Pending::new(625, 1)).is_ok_and(|n| n));
        assert_eq!(digits(domains[0]), [1, 2, 3, 4, 6, 7, 8, 9]);
        // With 9 gone from one cell, 1 goes from the other.
        domains[1] &= !(1 << 9);
        assert!(cage_combinations(&cage, &mut domains, &mut Pending::new(625, 1)).is_ok());
        assert_eq!(digits(domains[0]), [2, 3, 4, 6, 7, 8, 9]);
        let three = CompiledCage {
            sum: Some(24),
            cells: vec![0, 1, 2],
        };
        let mut domains = vec![all; 3];
        assert!(cage_combinations(&three, &mut domains, &mut Pending::new(625, 1)).is_ok());
        assert!(domains.iter().all(|&d| digits(d) == [7, 8, 9]));
        domains[0] = 1 << 9;
        domains[1] = 1 << 9;
        assert!(cage_combinations(&three, &mut domains, &mut Pending::new(625, 1)).is_err());
    }

    #[test]
    fn digit_sets_are_every_set_of_different_digits_making_the_sum() {
        let mut found = Vec::new();
        let complete = digit_sets(0b11_1111_1110, 3, 9, 0, &mut { CAGE_STEPS }, &mut |set| {
            found.push(digits(set));
            true
        });
        assert!(complete);
        assert_eq!(found, [vec![1, 2, 6], vec![1, 3, 5], vec![2, 3, 4]]);
        let mut calls = 0;
        assert!(!digit_sets(
            0b11_1111_1110,
            2,
            10,
            0,
            &mut { CAGE_STEPS },
            &mut |_| {
                calls += 1;
                calls < 2
            }
        ));
        assert_eq!(calls, 2);
        // Twelve even digits never make an odd sum: the search gives up within its steps.
        let evens = (1..=12).fold(0u32, |pool, half| pool | 1 << (2 * half));
        let mut steps = 64;
        assert!(!digit_sets(evens, 6, 77, 0, &mut steps, &mut |_| true));
        assert_eq!(steps, 0);
    }
}
