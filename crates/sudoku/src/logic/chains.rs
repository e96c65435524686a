//! Alternating inference chains on a graph of `(cell, digit)` nodes.
//!
//! A strong link joins two candidates of which at least one is true: the two places of a
//! digit in a unit (a conjugate pair), or the two digits of a bivalue cell. A weak link
//! joins two candidates of which at most one is true: any two that see each other. A chain
//! `n1 = n2 - n3 = n4 ... = nk` (strong, weak, strong, ..., strong) proves that `n1` or
//! `nk` is true: if `n1` is false, `n2` is true, so `n3` is false, and so on to `nk`. Any
//! candidate that sees both ends is then false (the AIC idea of the Eureka notation and of
//! HoDoKu's write-ups); a chain whose two ends are one candidate proves it true.
//!
//! The search is a breadth-first walk over `(node, true/false)` states from each start
//! node assumed false, so the first chain found to each end is a shortest one; the lengths
//! tried grow step by step, so short chains cost little. X-chains use one digit and
//! conjugate pairs only; the general search mixes every link. SE rates chains by kind
//! plus a length bonus ([`length_bonus`]); we count the nodes of the chain.

use super::candidates::{Candidates, PEERS, UNIT_MASK, bit, cells_of, digits_of, units_of};
use super::step::{Step, Technique, length_bonus};

/// The rating of a chain of `nodes` nodes on top of `base` (in tenths).
pub(crate) fn chain_rating(base: u16, nodes: usize) -> u16 {
    base + length_bonus(nodes)
}

/// SE's base rating of a forcing X-chain (one digit).
const X_CHAIN_BASE: u16 = 66;
/// SE's base rating of a forcing chain mixing cell and unit links.
const AIC_BASE: u16 = 70;
/// The longest chain looked for, in nodes; the search stops there.
const MAX_NODES: usize = 24;
/// The chain lengths tried in turn, in nodes.
const CAPS: [usize; 7] = [4, 6, 8, 10, 14, 18, MAX_NODES];

/// Number of `(cell, digit)` nodes.
pub(super) const NODES: usize = 729;
/// Number of walk states: each node false (even) or true (odd).
pub(super) const STATES: usize = 2 * NODES;

/// The node of a candidate.
pub(super) fn node(cell: usize, digit: u8) -> usize {
    cell * 9 + usize::from(digit - 1)
}

/// The candidate of a node.
pub(super) fn cell_digit(node: usize) -> (usize, u8) {
    (node / 9, (node % 9) as u8 + 1)
}

/// The strong links of a position, at most four per node (its cell and its three units).
pub(super) struct Graph {
    strong: [[u16; 4]; NODES],
    strong_len: [u8; NODES],
    /// Only links on this digit (an X-chain search), or every link.
    digit: Option<u8>,
}

impl Graph {
    pub(super) fn new(state: &Candidates, digit: Option<u8>) -> Box<Graph> {
        Graph::with_links(state, digit, true)
    }

    /// The graph with bivalue cells as strong links (unless `digit` is given) and,
    /// when `conjugates`, the conjugate pairs of units too.
    fn with_links(state: &Candidates, digit: Option<u8>, conjugates: bool) -> Box<Graph> {
        let mut graph = Box::new(Graph {
            strong: [[0; 4]; NODES],
            strong_len: [0; NODES],
            digit,
        });
        for cell in 0..81 {
            let mask = state.mask(cell);
            for d in digits_of(mask) {
                if digit.is_some_and(|only| only != d) {
                    continue;
                }
                let n = node(cell, d);
                if digit.is_none() && mask.count_ones() == 2 {
                    let other = digits_of(mask & !bit(d)).next().unwrap_or(d);
                    graph.push(n, node(cell, other));
                }
                for unit in units_of(cell).into_iter().filter(|_| conjugates) {
                    let places = state.cells_with(d) & UNIT_MASK[unit];
                    if places.count_ones() == 2 {
                        let mate = (places & !(1u128 << cell)).trailing_zeros() as usize;
                        let m = node(mate, d);
                        if !graph.strong[n][..usize::from(graph.strong_len[n])]
                            .contains(&(m as u16))
                        {
                            graph.push(n, m);
                        }
                    }
                }
            }
        }
        graph
    }

    /// Everything that follows from walk state `start` (node `start / 2`, true when odd)
    /// by chains of at most `cap` nodes: for each state, the nodes of its shortest chain
    /// from the start, 0 when it does not follow.
    pub(super) fn consequences(&self, state: &Candidates, start: usize, cap: usize) -> Vec<u8> {
        let mut depth = vec![0u8; STATES];
        let mut queue = Vec::with_capacity(STATES);
        depth[start] = 1;
        queue.push(start as u16);
        let mut head = 0;
        while head < queue.len() {
            let s = usize::from(queue[head]);
            head += 1;
            let nodes = depth[s];
            if usize::from(nodes) >= cap {
                continue;
            }
            let n = s / 2;
            let mut reach = |t: usize| {
                if depth[t] == 0 {
                    depth[t] = nodes + 1;
                    queue.push(t as u16);
                }
            };
            if s % 2 == 0 {
                for &m in &self.strong[n][..usize::from(self.strong_len[n])] {
                    reach(2 * usize::from(m) + 1);
                }
            } else {
                let (cell, digit) = cell_digit(n);
                for d in digits_of(state.mask(cell) & !bit(digit)) {
                    reach(2 * node(cell, d));
                }
                for peer in cells_of(PEERS[cell] & state.cells_with(digit)) {
                    reach(2 * node(peer, digit));
                }
            }
        }
        depth
    }

    fn push(&mut self, from: usize, to: usize) {
        let len = usize::from(self.strong_len[from]);
        if len < 4 {
            self.strong[from][len] = to as u16;
            self.strong_len[from] += 1;
        }
    }
}

/// The candidates that see both `a` and `b` (two distinct nodes), other than themselves.
fn seen_by_both(state: &Candidates, a: usize, b: usize) -> Vec<(usize, u8)> {
    let ((ca, da), (cb, db)) = (cell_digit(a), cell_digit(b));
    let mut out = Vec::new();
    if da == db {
        out.extend(cells_of(PEERS[ca] & PEERS[cb] & state.cells_with(da)).map(|c| (c, da)));
    } else if ca == cb {
        out.extend(digits_of(state.mask(ca) & !bit(da) & !bit(db)).map(|d| (ca, d)));
    } else if PEERS[ca] >> cb & 1 == 1 {
        if state.has(cb, da) {
            out.push((cb, da));
        }
        if state.has(ca, db) {
            out.push((ca, db));
        }
    }
    out
}

/// The best chain found so far: fewest nodes first.
struct Found {
    nodes: Vec<usize>,
    placements: Vec<(usize, u8)>,
    eliminations: Vec<(usize, u8)>,
}

/// Reusable buffers of the breadth-first walk.
struct Walk {
    parent: [u16; STATES],
    depth: [u8; STATES],
    mark: [u32; STATES],
    generation: u32,
    queue: [u16; STATES],
}

impl Walk {
    fn new() -> Box<Walk> {
        Box::new(Walk {
            parent: [0; STATES],
            depth: [0; STATES],
            mark: [0; STATES],
            generation: 0,
            queue: [0; STATES],
        })
    }

    /// Walks from `start` assumed false, over chains of at most `cap` nodes; keeps in
    /// `best` the shortest chain with a conclusion, if shorter than the one there.
    fn run(
        &mut self,
        state: &Candidates,
        graph: &Graph,
        start: usize,
        cap: usize,
        best: &mut Option<Found>,
    ) {
        self.generation += 1;
        let generation = self.generation;
        // State 2n: node n false; 2n + 1: node n true.
        let first = 2 * start;
        self.mark[first] = generation;
        self.depth[first] = 1;
        self.queue[0] = first as u16;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let s = usize::from(self.queue[head]);
            head += 1;
            let nodes = usize::from(self.depth[s]);
            let limit = best.as_ref().map_or(cap, |b| cap.min(b.nodes.len() - 1));
            if nodes >= limit {
                continue;
            }
            let n = s / 2;
            if s % 2 == 0 {
                // n false: its strong mates are true.
                for &m in &graph.strong[n][..usize::from(graph.strong_len[n])] {
                    let t = 2 * usize::from(m) + 1;
                    if self.mark[t] == generation {
                        continue;
                    }
                    self.visit(t, s, nodes + 1, &mut tail);
                    self.conclude(state, start, t, best);
                }
            } else {
                // n true: everything it sees is false.
                let (cell, digit) = cell_digit(n);
                if graph.digit.is_none() {
                    for d in digits_of(state.mask(cell) & !bit(digit)) {
                        let t = 2 * node(cell, d);
                        if self.mark[t] != generation {
                            self.visit(t, s, nodes + 1, &mut tail);
                        }
                    }
                }
                for peer in cells_of(PEERS[cell] & state.cells_with(digit)) {
                    let t = 2 * node(peer, digit);
                    if self.mark[t] != generation {
                        self.visit(t, s, nodes + 1, &mut tail);
                    }
                }
            }
        }
    }

    fn visit(&mut self, t: usize, from: usize, nodes: usize, tail: &mut usize) {
        self.mark[t] = self.generation;
        self.parent[t] = from as u16;
        self.depth[t] = nodes as u8;
        self.queue[*tail] = t as u16;
        *tail += 1;
    }

    /// `start` false implies node `t / 2` true: record what that proves, if anything.
    fn conclude(&self, state: &Candidates, start: usize, t: usize, best: &mut Option<Found>) {
        let end = t / 2;
        let nodes = usize::from(self.depth[t]);
        if best.as_ref().is_some_and(|b| b.nodes.len() <= nodes) {
            return;
        }
        let (placements, eliminations) = if end == start {
            (vec![cell_digit(start)], Vec::new())
        } else {
            let gone = seen_by_both(state, start, end);
            if gone.is_empty() {
                return;
            }
            (Vec::new(), gone)
        };
        let mut path = Vec::with_capacity(nodes);
        let mut s = t;
        for _ in 0..nodes {
            path.push(s / 2);
            s = usize::from(self.parent[s]);
        }
        path.reverse();
        *best = Some(Found {
            nodes: path,
            placements,
            eliminations,
        });
    }
}

fn search(state: &Candidates, digit: Option<u8>) -> Option<Found> {
    let graph = Graph::new(state, digit);
    let mut walk = Walk::new();
    let mut best = None;
    for cap in CAPS {
        for start in 0..NODES {
            if graph.strong_len[start] > 0 {
                walk.run(state, &graph, start, cap, &mut best);
            }
        }
        if best.is_some() {
            break;
        }
    }
    best
}

fn chain_step(found: Found, technique: Technique, base: u16) -> Step {
    // SE counts a chain from its target: an elimination's chain runs from the target
    // (assumed true) to the target false, two nodes more than ours, and its length
    // modifier starts two nodes in, so ours counts as it is; a placement's chain already
    // holds the target at both ends, so it counts two less.
    let nodes = found.nodes.len();
    let length = if found.placements.is_empty() {
        nodes
    } else {
        nodes.saturating_sub(2)
    };
    let mut step = Step::new(technique, chain_rating(base, length));
    step.chain = found.nodes.iter().map(|&n| cell_digit(n)).collect();
    let mut cells: Vec<usize> = step.chain.iter().map(|&(c, _)| c).collect();
    cells.dedup();
    step.cells = cells;
    step.placements = found.placements;
    step.eliminations = found.eliminations;
    step
}

/// The shortest X-chain (one digit, conjugate pairs for strong links) with a conclusion.
pub(crate) fn x_chain(state: &Candidates) -> Option<Step> {
    let mut best: Option<Found> = None;
    for digit in 1..=9 {
        if let Some(found) = search(state, Some(digit)) {
            if best
                .as_ref()
                .is_none_or(|b| found.nodes.len() < b.nodes.len())
            {
                best = Some(found);
            }
        }
    }
    best.map(|found| chain_step(found, Technique::XChain, X_CHAIN_BASE))
}

/// The shortest alternating inference chain over every link, named an XY-chain when all
/// its strong links are bivalue cells.
pub(crate) fn aic(state: &Candidates) -> Option<Step> {
    let found = search(state, None)?;
    let digits_only_in_cells = found
        .nodes
        .chunks(2)
        .all(|pair| pair.len() == 2 && pair[0] / 9 == pair[1] / 9);
    let single_digit = found.nodes.iter().all(|&n| n % 9 == found.nodes[0] % 9);
    let (technique, base) = if single_digit {
        (Technique::XChain, X_CHAIN_BASE)
    } else if digits_only_in_cells {
        (Technique::XyChain, AIC_BASE)
    } else {
        (Technique::Aic, AIC_BASE)
    };
    Some(chain_step(found, technique, base))
}

/// SE's base rating of a cycle on one digit (X-cycle) or through bivalue cells only
/// (Y-cycle); a cycle mixing both rates as a bidirectional cycle, [`AIC_BASE`].
const CYCLE_BASE: u16 = 65;
/// The longest cycle looked for, in nodes.
const MAX_CYCLE: usize = 20;

/// The shortest continuous loop (nice loop) of the graph with eliminations, with the
/// eliminations: the candidates seeing both ends of any of its weak links. In a loop each
/// link has exactly one true end, whichever way round the loop the truth runs, so its
/// weak links are strong too (the idea of SE's bidirectional cycles and of the forums'
/// continuous nice loops).
fn shortest_cycle(state: &Candidates, graph: &Graph) -> Option<Found> {
    // A breadth-first walk from each start assumed true. As in SE's cycle search, a true
    // state is entered once, but a false one again by another route unless it is on that
    // route already: the loop must come back through its own start's neighbours.
    struct Entry {
        state: u16,
        parent: u32,
        depth: u8,
    }
    let mut seen = vec![0u32; STATES];
    let mut entries: Vec<Entry> = Vec::new();
    let mut best: Option<Found> = None;
    let mut targets: Vec<usize> = Vec::new();
    for start in 0..NODES {
        if graph.strong_len[start] == 0 {
            continue;
        }
        let generation = start as u32 + 1;
        entries.clear();
        let first = 2 * start + 1;
        seen[first] = generation;
        entries.push(Entry {
            state: first as u16,
            parent: u32::MAX,
            depth: 1,
        });
        let limit = best.as_ref().map_or(MAX_CYCLE, |b| b.nodes.len() - 1);
        let mut head = 0;
        while head < entries.len() {
            let at = head;
            head += 1;
            let s = usize::from(entries[at].state);
            let nodes = usize::from(entries[at].depth);
            if nodes >= limit {
                continue;
            }
            let n = s / 2;
            if s % 2 == 0 {
                for &m in &graph.strong[n][..usize::from(graph.strong_len[n])] {
                    let t = 2 * usize::from(m) + 1;
                    if t == first && nodes >= 4 {
                        let path = path_of(&entries, at, |e| (usize::from(e.state), e.parent));
                        if let Some(found) = close_cycle(state, &path) {
                            if best.as_ref().is_none_or(|b| {
                                (
                                    found.nodes.len(),
                                    std::cmp::Reverse(found.eliminations.len()),
                                ) < (b.nodes.len(), std::cmp::Reverse(b.eliminations.len()))
                            }) {
                                best = Some(found);
                            }
                        }
                    } else if seen[t] != generation {
                        seen[t] = generation;
                        entries.push(Entry {
                            state: t as u16,
                            parent: at as u32,
                            depth: nodes as u8 + 1,
                        });
                    }
                }
            } else {
                let (cell, digit) = cell_digit(n);
                targets.clear();
                if graph.digit.is_none() {
                    targets.extend(
                        digits_of(state.mask(cell) & !bit(digit)).map(|d| 2 * node(cell, d)),
                    );
                }
                targets.extend(
                    cells_of(PEERS[cell] & state.cells_with(digit)).map(|p| 2 * node(p, digit)),
                );
                for &t in &targets {
                    // Not back onto its own route.
                    let mut up = entries[at].parent;
                    let mut on_route = false;
                    while up != u32::MAX {
                        let e = &entries[up as usize];
                        if usize::from(e.state) / 2 == t / 2 {
                            on_route = true;
                            break;
                        }
                        up = e.parent;
                    }
                    if !on_route {
                        entries.push(Entry {
                            state: t as u16,
                            parent: at as u32,
                            depth: nodes as u8 + 1,
                        });
                    }
                }
            }
        }
    }
    best
}

/// The states from the root of a walk to entry `at`, root first.
fn path_of<E>(entries: &[E], at: usize, link: impl Fn(&E) -> (usize, u32)) -> Vec<usize> {
    let mut path = Vec::new();
    let mut i = at as u32;
    while i != u32::MAX {
        let (state, parent) = link(&entries[i as usize]);
        path.push(state);
        i = parent;
    }
    path.reverse();
    path
}

/// The loop of walk states `path` (the start true, then alternately false and true,
/// ending on a false state strongly linked back to the start), if its nodes are
/// distinct and it eliminates something.
fn close_cycle(state: &Candidates, path: &[usize]) -> Option<Found> {
    let mut on_loop = [false; NODES];
    for &s in path {
        if std::mem::replace(&mut on_loop[s / 2], true) {
            return None;
        }
    }
    let mut gone = Vec::new();
    // Weak links: from each true state to the next (false) one.
    for pair in path.chunks(2) {
        let (p, q) = (pair[0] / 2, pair[1] / 2);
        gone.extend(
            seen_by_both(state, p, q)
                .into_iter()
                .filter(|&(c, d)| !on_loop[node(c, d)]),
        );
    }
    gone.sort_unstable();
    gone.dedup();
    if gone.is_empty() {
        return None;
    }
    Some(Found {
        nodes: path.iter().map(|&s| s / 2).collect(),
        placements: Vec::new(),
        eliminations: gone,
    })
}

/// The easiest X-cycle, Y-cycle or bidirectional cycle (SE 6.5, 6.5, 7.0 plus the
/// length bonus of its nodes less two).
pub(crate) fn cycle(state: &Candidates) -> Option<Step> {
    fn rated(found: Found, technique: Technique, base: u16) -> Step {
        // A cycle's chain in SE runs from its start round to the start again, counted
        // once: our nodes; the length modifier starts two nodes in.
        let length = found.nodes.len().saturating_sub(2);
        let mut step = chain_step(found, technique, base);
        step.rating.0 = chain_rating(base, length);
        step
    }
    let mut best: Option<Step> = None;
    let keep = |step: Step, best: &mut Option<Step>| {
        if best.as_ref().is_none_or(|b| step.rating < b.rating) {
            *best = Some(step);
        }
    };
    for digit in 1..=9 {
        let graph = Graph::new(state, Some(digit));
        if let Some(found) = shortest_cycle(state, &graph) {
            keep(rated(found, Technique::XCycle, CYCLE_BASE), &mut best);
        }
    }
    let bivalue = Graph::with_links(state, None, false);
    if let Some(found) = shortest_cycle(state, &bivalue) {
        keep(rated(found, Technique::YCycle, CYCLE_BASE), &mut best);
    }
    if best.as_ref().is_none_or(|b| b.rating.0 > AIC_BASE) {
        let all = Graph::new(state, None);
        if let Some(found) = shortest_cycle(state, &all) {
            keep(rated(found, Technique::XyCycle, AIC_BASE), &mut best);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::candidates::ALL_DIGITS;

    #[test]
    fn the_length_of_a_chain_raises_its_rating() {
        assert_eq!(chain_rating(70, 4), 70);
        assert_eq!(chain_rating(70, 6), 71);
        assert_eq!(chain_rating(66, 8), 68);
    }

    #[test]
    fn a_skyscraper_is_a_four_node_x_chain() {
        // 3 in column 1 only at r1c1, r7c1; in column 5 only at r2c5, r7c5. The chain
        // r1c1 = r7c1 - r7c5 = r2c5 proves r1c1 or r2c5 is 3: the cells seeing both
        // (r1c4 and r1c6 by row and box; r2c2 and r2c3 by box and row) lose 3.
        let mut masks = [ALL_DIGITS; 81];
        for row in 0..9 {
            if row != 0 && row != 6 {
                masks[row * 9] &= !bit(3);
            }
            if row != 1 && row != 6 {
                masks[row * 9 + 4] &= !bit(3);
            }
        }
        let state = Candidates::from_masks(masks);
        let step = x_chain(&state).unwrap();
        assert_eq!(step.chain.len(), 4);
        assert_eq!(step.rating.0, 66);
        let ends = [step.chain[0].0, step.chain[3].0];
        assert!(ends.contains(&0) && ends.contains(&13), "{:?}", step.chain);
        let mut gone = step.eliminations.clone();
        gone.sort_unstable();
        assert_eq!(gone, [(3, 3), (5, 3), (10, 3), (11, 3)]);
    }

    #[test]
    fn an_xy_chain_runs_through_bivalue_cells() {
        // r1c1 {1,2} - r1c9 {2,3} - r9c9 {3,4} - r9c2 {4,1}: r1c1 is 1 or r9c2 is 1, so
        // the cells seeing both lose 1: r1c2 (row 1, column 2), r2c2 and r3c2 (box 1,
        // column 2), r7c1, r8c1 and r9c1 (column 1, box 7).
        let mut masks = [ALL_DIGITS; 81];
        masks[0] = bit(1) | bit(2);
        masks[8] = bit(2) | bit(3);
        masks[80] = bit(3) | bit(4);
        masks[73] = bit(4) | bit(1);
        let state = Candidates::from_masks(masks);
        let step = aic(&state).unwrap();
        assert_eq!(step.technique, Technique::XyChain);
        assert_eq!(step.chain.len(), 8);
        assert_eq!(step.rating.0, 72);
        let mut gone = step.eliminations.clone();
        gone.sort_unstable();
        assert_eq!(gone, [(1, 1), (10, 1), (19, 1), (54, 1), (63, 1), (72, 1)]);
    }

    #[test]
    fn a_chain_around_a_box_clears_what_sees_both_ends() {
        // r1c1 {1,2}, r2c2 {2,3}, r3c3 {3,1}, and 3 of box 1 only at r2c2 and r3c3: the
        // chain 1r1c1 = 2r1c1 - 2r2c2 = 3r2c2 - 3r3c3 = 1r3c3 proves r1c1 or r3c3 is 1,
        // so the rest of box 1 loses 1 (as a naked triple would say).
        let mut masks = [ALL_DIGITS; 81];
        masks[0] = bit(1) | bit(2);
        masks[10] = bit(2) | bit(3);
        masks[20] = bit(3) | bit(1);
        for cell in [1, 2, 9, 11, 18, 19] {
            masks[cell] &= !bit(3);
        }
        let state = Candidates::from_masks(masks);
        let step = aic(&state).unwrap();
        assert_eq!(step.technique, Technique::XyChain);
        assert_eq!(step.chain.len(), 6);
        for &(cell, digit) in &step.eliminations {
            assert!([1, 2, 9, 11, 18, 19].contains(&cell), "{step}");
            assert!((1..=3).contains(&digit), "{step}");
        }
        assert!(!step.eliminations.is_empty());
    }

    #[test]
    fn a_y_cycle_turns_its_weak_links_strong() {
        // r1c1 {1,2}, r1c5 {2,3}, r5c5 {3,4}, r5c1 {4,1}: whichever digit r1c1 holds, the
        // loop fixes all four cells, and each weak link (2 in row 1, 3 in column 5, 4 in
        // row 5, 1 in column 1) has one true end. So 2 leaves the rest of row 1, 3 of
        // column 5, 4 of row 5 and 1 of column 1: 4 * 7 candidates.
        let mut masks = [ALL_DIGITS; 81];
        masks[0] = bit(1) | bit(2);
        masks[4] = bit(2) | bit(3);
        masks[40] = bit(3) | bit(4);
        masks[36] = bit(4) | bit(1);
        let state = Candidates::from_masks(masks);
        let step = cycle(&state).unwrap();
        assert_eq!(step.technique, Technique::YCycle);
        assert_eq!(step.chain.len(), 8);
        assert_eq!(step.rating.0, 66);
        assert_eq!(step.eliminations.len(), 28, "{step}");
        for c in [1, 2, 3, 5, 6, 7, 8] {
            assert!(step.eliminations.contains(&(c, 2)));
        }
        for r in [1, 2, 3, 5, 6, 7, 8] {
            assert!(step.eliminations.contains(&(r * 9 + 4, 3)));
            assert!(step.eliminations.contains(&(r * 9, 1)));
        }
    }

    #[test]
    fn a_loop_of_conjugate_pairs_proves_nothing_about_its_own_cells() {
        // Digit 6 only at r1c1, r1c2, r4c1, r4c2 in rows 1, 4 and columns 1, 2: each of
        // the four may be 6, so no chain may remove or place one of them.
        let mut masks = [ALL_DIGITS; 81];
        let corners = [0, 1, 27, 28];
        for unit in [0, 3, 9, 10] {
            for c in cells_of(UNIT_MASK[unit]) {
                if !corners.contains(&c) {
                    masks[c] &= !bit(6);
                }
            }
        }
        let state = Candidates::from_masks(masks);
        if let Some(step) = x_chain(&state) {
            for &(cell, digit) in &step.eliminations {
                assert!(!corners.contains(&cell) || digit != 6, "{step}");
            }
            assert!(step.placements.is_empty(), "{step}");
        }
    }
}
