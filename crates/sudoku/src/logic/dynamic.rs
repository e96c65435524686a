//! Dynamic forcing chains, Nishio, and forcing chains nested in them.
//!
//! A branch assumes one candidate true (or false) and follows what it implies on a
//! working copy of the pencil marks: a true candidate removes its peers of the same digit
//! and the other digits of its cell; a removed candidate may leave a cell with one digit
//! or a unit with one place for a digit, which is then true. Because the copy is updated
//! as the branch goes, a branch sees singles that the static chains of [`super::forcing`]
//! miss (the idea of SE's dynamic chains). A branch that makes a literal both true and
//! false, empties a cell or leaves a digit no place in a unit is a contradiction: its
//! assumption is wrong. What every branch of a cell, of a unit's places for a digit, or of
//! a candidate's true and false cases implies holds.
//!
//! Nishio (SE 7.5 plus length) is the same with links of one digit only and
//! contradictions only. Nesting (SE's "Dynamic Forcing Chains (+)" and the levels above):
//! when a branch stalls, further rules are asked on its working copy, their conclusions
//! become literals of the branch, and propagation resumes; level 1 asks intersections,
//! subsets and fish, level 2 adds X-chains and AICs, level 3 the static cell and region
//! forcing chains. SE's base ratings are 8.5 for dynamic chains plus half a point per
//! nesting level, plus the length bonus of the nodes of all branches less two, each
//! branch counted as the distinct ancestors of its conclusion (the idea of SE's chaining
//! hints; none of its code is used).
//!
//! The search is bounded by a work budget counted in propagation steps and rule calls,
//! never by a clock, so that a puzzle beyond the budget ends, unsolved, in bounded time.

use super::candidates::{Candidates, PEERS, UNIT_MASK, UNITS, bit, cells_of, digits_of, units_of};
use super::chains::{NODES, STATES, cell_digit, chain_rating, node};
use super::step::{Step, Technique};
use super::{chains, fish, forcing, intersections, subsets};

/// Literals: `2 * node` is the node false, `2 * node + 1` the node true.
const LITS: usize = STATES;
const WORDS: usize = LITS.div_ceil(64);

/// SE's base rating of Nishio forcing chains.
const NISHIO_BASE: u16 = 75;
/// SE's base rating of dynamic forcing chains; each nesting level adds five tenths.
const DYNAMIC_BASE: u16 = 85;
/// The deepest nesting level searched.
pub(crate) const MAX_LEVEL: u8 = 3;

/// The work a rule call costs on a branch's copy, in propagation steps (roughly its run
/// time relative to one propagation step, so the budget tracks time deterministically).
const BASIC_RULE_COST: u64 = 40;
const CHAIN_RULE_COST: u64 = 4_000;
const FORCING_RULE_COST: u64 = 20_000;

/// The search ran out of work before it finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OutOfWork;

/// How a branch propagates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mode {
    /// Links of the assumed digit only (Nishio).
    digit_only: bool,
    /// The nesting level: which further rules a stalled branch asks.
    level: u8,
}

enum Outcome {
    Consistent,
    Conflict,
}

/// What asking the nested rules did to a stalled branch.
enum Ruled {
    Stalled,
    Progress,
    Conflict,
}

type Rule = fn(&Candidates) -> Option<Step>;

/// The rules a stalled branch asks at each nesting level, with their costs (SE's order:
/// intersections, subsets and fish, then chains, then multiple forcing chains).
const RULES: &[(u8, u64, Rule)] = &[
    (1, BASIC_RULE_COST, |s| intersections::pointing(s, false)),
    (1, BASIC_RULE_COST, |s| intersections::claiming(s, false)),
    (1, BASIC_RULE_COST, |s| subsets::naked(s, 2)),
    (1, BASIC_RULE_COST, |s| fish::fish(s, 2)),
    (1, BASIC_RULE_COST, |s| subsets::hidden(s, 2, false)),
    (1, BASIC_RULE_COST, |s| subsets::naked(s, 3)),
    (1, BASIC_RULE_COST, |s| fish::fish(s, 3)),
    (1, BASIC_RULE_COST, |s| subsets::hidden(s, 3, false)),
    (1, BASIC_RULE_COST, |s| subsets::naked(s, 4)),
    (1, BASIC_RULE_COST, |s| fish::fish(s, 4)),
    (1, BASIC_RULE_COST, |s| subsets::hidden(s, 4, false)),
    (2, CHAIN_RULE_COST, chains::x_chain),
    (2, CHAIN_RULE_COST, chains::aic),
    (3, FORCING_RULE_COST, forcing::forcing_chains),
];

/// One branch's propagation, with buffers reused from branch to branch.
struct Engine {
    work: Candidates,
    /// The generation in which each literal was derived.
    mark: Vec<u32>,
    generation: u32,
    /// Nodes of the shortest route from the assumption (a lower bound of its ancestors).
    depth: Vec<u8>,
    /// Each literal's parents: a range of `parents`.
    range: Vec<(u32, u16)>,
    parents: Vec<u16>,
    queue: Vec<u16>,
    /// The literals whose joint truth is impossible, after a conflict.
    conflict: Vec<u16>,
    scratch: Vec<u16>,
    seen: Vec<u32>,
    seen_generation: u32,
    stack: Vec<u16>,
}

impl Engine {
    fn new(state: &Candidates) -> Engine {
        Engine {
            work: state.clone(),
            mark: vec![0; LITS],
            generation: 0,
            depth: vec![0; LITS],
            range: vec![(0, 0); LITS],
            parents: Vec::with_capacity(4 * LITS),
            queue: Vec::with_capacity(LITS),
            conflict: Vec::new(),
            scratch: Vec::new(),
            seen: vec![0; LITS],
            seen_generation: 0,
            stack: Vec::new(),
        }
    }

    fn has(&self, lit: usize) -> bool {
        self.mark[lit] == self.generation
    }

    /// Derives `lit` from the literals in `scratch`; true when its opposite holds already
    /// (a conflict, recorded).
    fn derive(&mut self, lit: usize) -> bool {
        if self.has(lit) {
            return false;
        }
        let depth = self
            .scratch
            .iter()
            .map(|&p| self.depth[usize::from(p)])
            .max()
            .unwrap_or(0);
        self.mark[lit] = self.generation;
        self.depth[lit] = depth.saturating_add(1);
        self.range[lit] = (self.parents.len() as u32, self.scratch.len() as u16);
        self.parents.extend_from_slice(&self.scratch);
        self.queue.push(lit as u16);
        if self.has(lit ^ 1) {
            self.conflict.clear();
            self.conflict.extend([lit as u16, (lit ^ 1) as u16]);
            return true;
        }
        false
    }

    /// The removed literals (false in this branch) among `cells` for `digit`, or among
    /// the digits `mask` of one cell, into `scratch`.
    fn offs_of_cells(&mut self, cells: u128, digit: u8) {
        self.scratch.clear();
        for c in cells_of(cells) {
            self.scratch.push((2 * node(c, digit)) as u16);
        }
    }

    fn offs_of_digits(&mut self, cell: usize, mask: u16) {
        self.scratch.clear();
        for d in digits_of(mask) {
            self.scratch.push((2 * node(cell, d)) as u16);
        }
    }

    /// Propagates `start` over `state`.
    fn run(
        &mut self,
        state: &Candidates,
        start: usize,
        mode: Mode,
        work: &mut u64,
    ) -> Result<Outcome, OutOfWork> {
        self.generation += 1;
        self.work.clone_from(state);
        self.queue.clear();
        self.parents.clear();
        self.scratch.clear();
        self.derive(start);
        let mut head = 0;
        loop {
            while head < self.queue.len() {
                if *work == 0 {
                    return Err(OutOfWork);
                }
                *work -= 1;
                let lit = usize::from(self.queue[head]);
                head += 1;
                let (cell, digit) = cell_digit(lit / 2);
                if lit % 2 == 1 {
                    if !mode.digit_only {
                        for d in digits_of(self.work.mask(cell) & !bit(digit)) {
                            self.scratch.clear();
                            self.scratch.push(lit as u16);
                            if self.derive(2 * node(cell, d)) {
                                return Ok(Outcome::Conflict);
                            }
                        }
                    }
                    for peer in cells_of(PEERS[cell] & self.work.cells_with(digit)) {
                        self.scratch.clear();
                        self.scratch.push(lit as u16);
                        if self.derive(2 * node(peer, digit)) {
                            return Ok(Outcome::Conflict);
                        }
                    }
                    continue;
                }
                self.work.eliminate(cell, digit);
                if !mode.digit_only {
                    let mask = self.work.mask(cell);
                    if mask == 0 {
                        self.offs_of_digits(cell, state.mask(cell));
                        self.conflict.clone_from(&self.scratch);
                        return Ok(Outcome::Conflict);
                    }
                    if mask.is_power_of_two() {
                        let last = 2 * node(cell, mask.trailing_zeros() as u8 + 1) + 1;
                        if !self.has(last) {
                            self.offs_of_digits(cell, state.mask(cell) & !mask);
                            if self.derive(last) {
                                return Ok(Outcome::Conflict);
                            }
                        }
                    }
                }
                for unit in units_of(cell) {
                    if state.placed_in(unit) & bit(digit) != 0 {
                        continue;
                    }
                    let places = self.work.cells_with(digit) & UNIT_MASK[unit];
                    let before = state.cells_with(digit) & UNIT_MASK[unit];
                    match places.count_ones() {
                        0 => {
                            self.offs_of_cells(before, digit);
                            self.conflict.clone_from(&self.scratch);
                            return Ok(Outcome::Conflict);
                        }
                        1 => {
                            let place = places.trailing_zeros() as usize;
                            let last = 2 * node(place, digit) + 1;
                            if !self.has(last) {
                                self.offs_of_cells(before & !places, digit);
                                if self.derive(last) {
                                    return Ok(Outcome::Conflict);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            if mode.digit_only || mode.level == 0 {
                return Ok(Outcome::Consistent);
            }
            match self.apply_rule(state, start, mode, work)? {
                Ruled::Stalled => return Ok(Outcome::Consistent),
                Ruled::Conflict => return Ok(Outcome::Conflict),
                Ruled::Progress => {}
            }
        }
    }

    /// Asks the rules of the branch's level on its copy; derives the first rule's new
    /// conclusions, each from the branch's removals in the cells and units the rule looked
    /// at (the assumption itself when there are none).
    fn apply_rule(
        &mut self,
        state: &Candidates,
        start: usize,
        mode: Mode,
        work: &mut u64,
    ) -> Result<Ruled, OutOfWork> {
        for &(level, cost, rule) in RULES {
            if level > mode.level {
                break;
            }
            if *work < cost {
                *work = 0;
                return Err(OutOfWork);
            }
            *work -= cost;
            let Some(step) = rule(&self.work) else {
                continue;
            };
            let mut region: u128 = step.cells.iter().fold(0, |set, &c| set | 1 << c);
            for &unit in &step.units {
                region |= UNIT_MASK[unit];
            }
            for &(c, _) in &step.chain {
                region |= 1 << c;
            }
            let mut causes: Vec<u16> = Vec::new();
            for c in cells_of(region) {
                for d in digits_of(state.mask(c) & !self.work.mask(c)) {
                    let off = 2 * node(c, d);
                    if self.has(off) {
                        causes.push(off as u16);
                    }
                }
            }
            if causes.is_empty() {
                causes.push(start as u16);
            }
            let mut progress = false;
            let conclusions = step
                .eliminations
                .iter()
                .map(|&(c, d)| 2 * node(c, d))
                .chain(step.placements.iter().map(|&(c, d)| 2 * node(c, d) + 1));
            for lit in conclusions {
                if self.has(lit) {
                    continue;
                }
                self.scratch.clone_from(&causes);
                progress = true;
                if self.derive(lit) {
                    return Ok(Ruled::Conflict);
                }
            }
            if progress {
                return Ok(Ruled::Progress);
            }
        }
        Ok(Ruled::Stalled)
    }

    /// The distinct literals `lit` rests on in the last branch, itself included.
    fn ancestors(&mut self, lit: usize) -> usize {
        self.seen_generation += 1;
        let generation = self.seen_generation;
        self.stack.clear();
        self.stack.push(lit as u16);
        self.seen[lit] = generation;
        let mut count = 0;
        while let Some(l) = self.stack.pop() {
            count += 1;
            let (from, len) = self.range[usize::from(l)];
            for i in from as usize..from as usize + usize::from(len) {
                let p = self.parents[i];
                if self.seen[usize::from(p)] != generation {
                    self.seen[usize::from(p)] = generation;
                    self.stack.push(p);
                }
            }
        }
        count
    }

    /// SE-style complexity of the last conflict: the ancestors of each conflicting literal.
    fn conflict_complexity(&mut self) -> usize {
        let lits = std::mem::take(&mut self.conflict);
        let total = lits.iter().map(|&l| self.ancestors(usize::from(l))).sum();
        self.conflict = lits;
        total
    }
}

/// What one branch left behind: the literals it derived, with their depths.
struct Branch {
    set: [u64; WORDS],
    depth: Vec<u8>,
    contradiction: bool,
}

impl Branch {
    fn record(engine: &Engine, contradiction: bool) -> Branch {
        let mut set = [0u64; WORDS];
        let mut depth = vec![0u8; LITS];
        for &lit in &engine.queue {
            let lit = usize::from(lit);
            set[lit / 64] |= 1 << (lit % 64);
            depth[lit] = engine.depth[lit];
        }
        Branch {
            set,
            depth,
            contradiction,
        }
    }
}

/// The step a conclusion makes, if it is news: removing a candidate still there, or
/// placing a digit in an open cell.
fn useful(state: &Candidates, lit: usize) -> bool {
    let (cell, digit) = cell_digit(lit / 2);
    state.has(cell, digit) && (lit % 2 == 0 || state.digit(cell) == 0)
}

fn conclusion_step(technique: Technique, rating: u16, lit: usize, cells: Vec<usize>) -> Step {
    let mut step = Step::new(technique, rating);
    let (cell, digit) = cell_digit(lit / 2);
    if lit % 2 == 0 {
        step.eliminations.push((cell, digit));
    } else {
        step.placements.push((cell, digit));
    }
    step.cells = cells;
    step.cells.dedup();
    step
}

/// Nishio (SE 7.5 plus length): a candidate whose truth, followed along its digit alone,
/// leaves that digit no place in some unit is false.
pub(crate) fn nishio(state: &Candidates, work: &mut u64) -> Result<Option<Step>, OutOfWork> {
    let mode = Mode {
        digit_only: true,
        level: 0,
    };
    let mut engine = Engine::new(state);
    let mut best: Option<Step> = None;
    for n in 0..NODES {
        let (cell, digit) = cell_digit(n);
        if !state.has(cell, digit) {
            continue;
        }
        if let Outcome::Conflict = engine.run(state, 2 * n + 1, mode, work)? {
            let rating = chain_rating(NISHIO_BASE, engine.conflict_complexity() - 2);
            if best.as_ref().is_none_or(|b| rating < b.rating.0) {
                best = Some(conclusion_step(
                    Technique::NishioForcingChains,
                    rating,
                    2 * n,
                    vec![cell],
                ));
            }
        }
    }
    Ok(best)
}

/// The easiest dynamic forcing chain of nesting `level` (0 = plain dynamic): a
/// contradiction from a candidate true or false, a conclusion both of its cases share, or
/// one all candidates of a cell or all places of a digit in a unit share.
pub(crate) fn dynamic(
    state: &Candidates,
    level: u8,
    work: &mut u64,
) -> Result<Option<Step>, OutOfWork> {
    let mode = Mode {
        digit_only: false,
        level,
    };
    let base = DYNAMIC_BASE + 5 * u16::from(level);
    let named = |plain: Technique| match level {
        0 => plain,
        1 => Technique::DynamicForcingChainsPlus,
        _ => Technique::NestedForcingChains,
    };
    let mut engine = Engine::new(state);
    let mut best: Option<Step> = None;
    let keep = |step: Step, best: &mut Option<Step>| {
        if best.as_ref().is_none_or(|b| step.rating < b.rating) {
            *best = Some(step);
        }
    };
    // Every candidate's two branches; a contradiction is rated at once.
    let mut on: Vec<Option<Branch>> = (0..NODES).map(|_| None).collect();
    let mut off: Vec<Option<Branch>> = (0..NODES).map(|_| None).collect();
    for n in 0..NODES {
        let (cell, digit) = cell_digit(n);
        if !state.has(cell, digit) {
            continue;
        }
        for truth in [true, false] {
            let lit = 2 * n + usize::from(truth);
            let outcome = engine.run(state, lit, mode, work)?;
            let contradiction = matches!(outcome, Outcome::Conflict);
            if contradiction {
                let rating = chain_rating(base, engine.conflict_complexity() - 2);
                let technique = named(Technique::DynamicContradictionForcingChains);
                keep(
                    conclusion_step(technique, rating, lit ^ 1, vec![cell]),
                    &mut best,
                );
            }
            let branch = Some(Branch::record(&engine, contradiction));
            if truth {
                on[n] = branch;
            } else {
                off[n] = branch;
            }
        }
    }
    // Groups of branches one of which holds: a candidate's two cases, a cell's
    // candidates, a unit's places for a digit.
    let mut groups: Vec<(Technique, Vec<(usize, bool)>)> = Vec::new();
    for n in 0..NODES {
        if on[n].is_some() {
            groups.push((
                Technique::DynamicDoubleForcingChains,
                vec![(n, true), (n, false)],
            ));
        }
    }
    for cell in 0..81 {
        let mask = state.mask(cell);
        if mask.count_ones() >= 3 {
            let members = digits_of(mask).map(|d| (node(cell, d), true)).collect();
            groups.push((Technique::DynamicCellForcingChains, members));
        }
    }
    for unit in 0..UNITS {
        for digit in 1..=9 {
            let places = state.cells_with(digit) & UNIT_MASK[unit];
            if places.count_ones() >= 3 && state.placed_in(unit) & bit(digit) == 0 {
                let members = cells_of(places).map(|c| (node(c, digit), true)).collect();
                groups.push((Technique::DynamicRegionForcingChains, members));
            }
        }
    }
    for (technique, members) in groups {
        let branch = |&(n, truth): &(usize, bool)| {
            if truth {
                on[n].as_ref()
            } else {
                off[n].as_ref()
            }
            .expect("every candidate ran")
        };
        if members.iter().any(|m| branch(m).contradiction) {
            continue; // the contradiction is the easier step
        }
        let mut common = [u64::MAX; WORDS];
        for m in &members {
            for (w, b) in common.iter_mut().zip(&branch(m).set) {
                *w &= b;
            }
        }
        // The conclusion with the fewest nodes by depth, a lower bound of its ancestors.
        let mut found: Option<(usize, usize)> = None;
        for (w, &word) in common.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let lit = w * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if !useful(state, lit) {
                    continue;
                }
                let bound: usize = members
                    .iter()
                    .map(|m| usize::from(branch(m).depth[lit]))
                    .sum();
                if found.is_none_or(|(b, _)| bound < b) {
                    found = Some((bound, lit));
                }
            }
        }
        let Some((bound, lit)) = found else { continue };
        if best
            .as_ref()
            .is_some_and(|b| b.rating.0 <= chain_rating(base, bound.saturating_sub(2)))
        {
            continue;
        }
        // The exact count: run the branches again and count the conclusion's ancestors.
        let mut complexity = 0;
        for &(n, truth) in &members {
            engine.run(state, 2 * n + usize::from(truth), mode, work)?;
            complexity += engine.ancestors(lit);
        }
        let rating = chain_rating(base, complexity - 2);
        let cells = members.iter().map(|&(n, _)| cell_digit(n).0).collect();
        keep(
            conclusion_step(named(technique), rating, lit, cells),
            &mut best,
        );
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::candidates::ALL_DIGITS;

    #[test]
    fn nishio_removes_a_digit_that_would_leave_a_row_without_a_place() {
        // Digit 1 of rows 4 and 7 only in columns 1 and 2 (an X-wing). A 1 in r5c1 (box 4)
        // removes both places of row 4, so row 4 has no place for 1: r5c1 is not 1 (two
        // routes of three and two nodes, each counting the assumption: five, 7.5). A 1
        // at r1c1 needs longer routes (r4c2 and r7c2 both forced, seven nodes, 7.6), so
        // the shortest, from the other two rows of boxes 4 and 7, wins.
        let mut masks = [ALL_DIGITS; 81];
        for row in [3, 6] {
            for col in 2..9 {
                masks[row * 9 + col] &= !bit(1);
            }
        }
        let state = Candidates::from_masks(masks);
        let step = nishio(&state, &mut 1_000_000).unwrap().unwrap();
        assert_eq!(step.technique, Technique::NishioForcingChains);
        assert!(step.placements.is_empty());
        let [(cell, digit)] = step.eliminations[..] else {
            panic!("{step}");
        };
        assert_eq!(digit, 1);
        assert!(
            [36, 37, 38, 45, 46, 47, 63, 64, 65, 72, 73, 74].contains(&cell),
            "{step}"
        );
        assert_eq!(step.rating.0, 75);
    }

    #[test]
    fn a_dynamic_chain_sees_the_cell_it_empties() {
        // r1c1 {1,2}, r1c9 {1,3}, r9c1 {2,3}: 3 at r9c9 forces r1c9 = 1, so r1c1 = 2, and
        // r9c1, which loses 3 to r9c9 and 2 to r1c1, is left empty. This is the XY-wing's
        // one elimination, and the only sound one in the position.
        let mut masks = [ALL_DIGITS; 81];
        masks[0] = bit(1) | bit(2);
        masks[8] = bit(1) | bit(3);
        masks[72] = bit(2) | bit(3);
        let state = Candidates::from_masks(masks);
        let step = dynamic(&state, 0, &mut 10_000_000).unwrap().unwrap();
        assert!(step.placements.is_empty(), "{step}");
        assert_eq!(step.eliminations, [(80, 3)], "{step}");
        // Nine nodes in the two routes to r9c1's conflict: 8.5 plus the bonus of seven.
        assert!((85..=88).contains(&step.rating.0), "{step}");
    }

    #[test]
    fn the_work_budget_ends_a_search() {
        let mut masks = [ALL_DIGITS; 81];
        masks[0] = bit(1) | bit(2);
        let state = Candidates::from_masks(masks);
        let mut work = 100;
        assert_eq!(dynamic(&state, 1, &mut work), Err(OutOfWork));
        assert_eq!(work, 0);
    }
}
