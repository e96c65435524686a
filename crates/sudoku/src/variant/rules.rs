//! The rules of a board as a player states them, checked and compiled into the groups,
//! peers and propagators the engine works with.

use super::{CellLabel, MAX_SIZE, MIN_SIZE, default_box, side_of};

/// A cell, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VariantCell {
    /// From the top, 0-based.
    pub row: usize,
    /// From the left, 0-based.
    pub col: usize,
}

/// The boxes: `rows` by `cols` cells, `rows * cols` the board's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxShape {
    /// Rows of a box.
    pub rows: usize,
    /// Columns of a box.
    pub cols: usize,
}

/// A diagonal of an X-sudoku: each holds every digit once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Diagonal {
    /// Top-left to bottom-right.
    Main,
    /// Top-right to bottom-left.
    Anti,
}

/// A killer cage: its digits differ, and add up to `sum` when there is one.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Cage {
    /// What the digits add up to, when the cage says.
    pub sum: Option<u32>,
    /// Its cells.
    pub cells: Vec<VariantCell>,
}

/// Everything beside the classic rules of a size; the default is the classic rules.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Rules {
    /// The box shape, when the size allows several (6x6: 2 by 3 or 3 by 2).
    pub box_shape: Option<BoxShape>,
    /// Jigsaw: N rows of N region numbers 0..N, replacing the boxes.
    pub regions: Option<Vec<Vec<usize>>>,
    /// X-sudoku: the diagonals that hold every digit once.
    pub diagonals: Vec<Diagonal>,
    /// Groups of N cells holding every digit once (windoku, hyper).
    pub extra_regions: Vec<Vec<VariantCell>>,
    /// Killer cages; no two share a cell.
    pub cages: Vec<Cage>,
    /// Equal digits are never a chess knight's move apart.
    pub anti_knight: bool,
    /// Equal digits are never a chess king's move apart.
    pub anti_king: bool,
    /// Cells that hold odd digits.
    pub odd: Vec<VariantCell>,
    /// Cells that hold even digits.
    pub even: Vec<VariantCell>,
    /// Bulb first; digits strictly increase along each.
    pub thermometers: Vec<Vec<VariantCell>>,
}

/// What is wrong with a board or its rules: `pointer` (RFC 6901) names the member of a
/// request holding it, `message` says what is wrong in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RulesError {
    /// Where in the request, as a JSON pointer: `/rules/cages/2/sum`.
    pub pointer: String,
    /// What is wrong, cells named from 1.
    pub message: String,
}

fn wrong(pointer: impl Into<String>, message: impl Into<String>) -> RulesError {
    RulesError {
        pointer: pointer.into(),
        message: message.into(),
    }
}

/// The rule a conflict breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariantUnit {
    /// A row, indexed from the top.
    Row,
    /// A column, indexed from the left.
    Column,
    /// A box, indexed row-major from the top-left.
    Box,
    /// A jigsaw region, by its number.
    Region,
    /// A diagonal: 0 for the first listed.
    Diagonal,
    /// An extra region, in the order listed.
    ExtraRegion,
    /// A killer cage: a repeated digit, or digits that cannot make its sum.
    Cage,
    /// Equal digits a knight's move apart.
    Knight,
    /// Equal digits a king's move apart.
    King,
    /// A digit of the wrong parity in an odd or even cell.
    Parity,
    /// A thermometer whose digits do not strictly rise from the bulb.
    Thermometer,
}

impl VariantUnit {
    /// The name on the wire and in sentences.
    pub fn as_str(self) -> &'static str {
        match self {
            VariantUnit::Row => "row",
            VariantUnit::Column => "column",
            VariantUnit::Box => "box",
            VariantUnit::Region => "region",
            VariantUnit::Diagonal => "diagonal",
            VariantUnit::ExtraRegion => "extra_region",
            VariantUnit::Cage => "cage",
            VariantUnit::Knight => "knight",
            VariantUnit::King => "king",
            VariantUnit::Parity => "parity",
            VariantUnit::Thermometer => "thermometer",
        }
    }
}

/// Cells that must all differ; `index` counts groups of the same kind from 0.
#[derive(Clone, Debug)]
pub(super) struct Group {
    pub kind: VariantUnit,
    pub index: usize,
    pub cells: Vec<usize>,
}

/// A cage as the engine reads it: cell indexes, and the sum when there is one.
#[derive(Clone, Debug)]
pub(super) struct CompiledCage {
    pub sum: Option<u32>,
    pub cells: Vec<usize>,
}

/// A board and its rules, checked: what the engine solves and the checker reads.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub(super) size: usize,
    pub(super) givens: Vec<u8>,
    pub(super) groups: Vec<Group>,
    /// For each cell, every cell that may not hold its digit (groups, knight, king).
    pub(super) peers: Vec<Vec<usize>>,
    /// For each cell, the digits the parity rules allow (bit d for digit d).
    pub(super) allowed: Vec<u32>,
    pub(super) cages: Vec<CompiledCage>,
    pub(super) thermometers: Vec<Vec<usize>>,
    pub(super) rules: Rules,
}

/// The knight's and king's moves, as (row, col) steps.
pub(super) const KNIGHT: [(isize, isize); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];
pub(super) const KING: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Puzzle {
    /// Checks a board (row-major, 0 empty) and its rules, and compiles them. The side
    /// follows from the number of cells.
    ///
    /// # Errors
    /// A [`RulesError`] naming the member at fault: a board that is no square of a side 4
    /// to 25, a digit past the side, boxes that do not tile it, regions, cages, extra
    /// regions or thermometers of the wrong size, off the board or overlapping, a cage sum
    /// no digits make, a cell both odd and even.
    pub fn new(cells: Vec<u8>, rules: &Rules) -> Result<Puzzle, RulesError> {
        let size = side_of(cells.len()).ok_or_else(|| {
            wrong(
                "/board",
                format!(
                    "a board must have N×N cells for a side N from {MIN_SIZE} to {MAX_SIZE} \
                     (16, 36, 64, 81, ... 625), found {}",
                    cells.len()
                ),
            )
        })?;
        for (index, &digit) in cells.iter().enumerate() {
            if usize::from(digit) > size {
                return Err(wrong(
                    "/board",
                    format!(
                        "{} holds {digit}, but a {size}x{size} board has digits 1 to {size}",
                        CellLabel(index / size, index % size)
                    ),
                ));
            }
        }
        let mut groups = Vec::new();
        for row in 0..size {
            groups.push(group(
                VariantUnit::Row,
                row,
                (0..size).map(|c| row * size + c),
            ));
        }
        for col in 0..size {
            groups.push(group(
                VariantUnit::Column,
                col,
                (0..size).map(|r| r * size + col),
            ));
        }
        groups.extend(regions(size, rules)?);
        for (index, diagonal) in unique(&rules.diagonals).into_iter().enumerate() {
            let cells = (0..size).map(|i| match diagonal {
                Diagonal::Main => i * size + i,
                Diagonal::Anti => i * size + (size - 1 - i),
            });
            groups.push(group(VariantUnit::Diagonal, index, cells));
        }
        for (index, region) in rules.extra_regions.iter().enumerate() {
            let at = format!("/rules/extra_regions/{index}");
            let cells = indexes(size, region, &at)?;
            if cells.len() != size {
                return Err(wrong(
                    at,
                    format!(
                        "extra region {} has {} cells; on a {size}x{size} board it must have {size}, \
                         one for each digit",
                        index + 1,
                        cells.len()
                    ),
                ));
            }
            distinct(&cells, size, &at, &format!("extra region {}", index + 1))?;
            groups.push(group(VariantUnit::ExtraRegion, index, cells));
        }
        let cages = cages(size, &rules.cages)?;
        for (index, cage) in cages.iter().enumerate() {
            groups.push(group(VariantUnit::Cage, index, cage.cells.iter().copied()));
        }
        let thermometers = thermometers(size, &rules.thermometers)?;
        let allowed = parity(size, rules)?;

        let peers = peers(size, &groups, rules);
        Ok(Puzzle {
            size,
            givens: cells,
            groups,
            peers,
            allowed,
            cages,
            thermometers,
            rules: rules.clone(),
        })
    }

    /// The side of the board.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The board as given, row-major, 0 for an empty cell.
    pub fn givens(&self) -> &[u8] {
        &self.givens
    }

    /// The rules it was made with.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

fn group(kind: VariantUnit, index: usize, cells: impl IntoIterator<Item = usize>) -> Group {
    Group {
        kind,
        index,
        cells: cells.into_iter().collect(),
    }
}

fn unique<T: PartialEq + Copy>(items: &[T]) -> Vec<T> {
    let mut seen = Vec::new();
    for &item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

/// The cells a knight's or king's move away from `cell`, on the board.
pub(super) fn moves_from(
    size: usize,
    cell: usize,
    moves: &[(isize, isize)],
) -> impl Iterator<Item = usize> + '_ {
    let (row, col) = (cell / size, cell % size);
    moves.iter().filter_map(move |&(dr, dc)| {
        let r = row.checked_add_signed(dr).filter(|&r| r < size)?;
        let c = col.checked_add_signed(dc).filter(|&c| c < size)?;
        Some(r * size + c)
    })
}

/// Each cell's peers, in order: the other cells of its groups, and the cells a knight's or
/// king's move away when those rules hold. Gathered as bit sets, which need neither the
/// reallocations nor the sort and dedup of lists (they took a 16x16's setup twice as long).
fn peers(size: usize, groups: &[Group], rules: &Rules) -> Vec<Vec<usize>> {
    let cells = size * size;
    let words = cells.div_ceil(64);
    let mut bits = vec![0u64; cells * words];
    let mut group_bits = vec![0u64; words];
    for g in groups {
        group_bits.fill(0);
        for &cell in &g.cells {
            group_bits[cell / 64] |= 1 << (cell % 64);
        }
        for &cell in &g.cells {
            for (word, &more) in bits[cell * words..][..words].iter_mut().zip(&group_bits) {
                *word |= more;
            }
        }
    }
    for (on, moves) in [(rules.anti_knight, &KNIGHT), (rules.anti_king, &KING)] {
        if on {
            for cell in 0..cells {
                for other in moves_from(size, cell, moves) {
                    bits[cell * words + other / 64] |= 1 << (other % 64);
                }
            }
        }
    }
    bits.chunks_exact_mut(words)
        .enumerate()
        .map(|(cell, set)| {
            set[cell / 64] &= !(1 << (cell % 64));
            let mut list = Vec::with_capacity(set.iter().map(|w| w.count_ones() as usize).sum());
            list.extend(members(set));
            list
        })
        .collect()
}

/// The bits set in a bit set, lowest first.
pub(super) fn members(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(word, &bits)| {
        std::iter::successors(Some(bits), |&left| Some(left & left.wrapping_sub(1)))
            .take_while(|&left| left != 0)
            .map(move |left| 64 * word + left.trailing_zeros() as usize)
    })
}

/// The boxes, or the jigsaw regions that replace them.
fn regions(size: usize, rules: &Rules) -> Result<Vec<Group>, RulesError> {
    if let Some(rows) = &rules.regions {
        if rules.box_shape.is_some() {
            return Err(wrong(
                "/rules/box",
                "give either a box shape or regions: regions replace the boxes",
            ));
        }
        return jigsaw(size, rows);
    }
    let shape = match rules.box_shape {
        Some(shape) => {
            if shape.rows == 0 || shape.cols == 0 || shape.rows * shape.cols != size {
                return Err(wrong(
                    "/rules/box",
                    format!(
                        "boxes of {} by {} cells do not tile a {size}x{size} board: rows times \
                         columns must be {size}",
                        shape.rows, shape.cols
                    ),
                ));
            }
            shape
        }
        None => default_box(size).ok_or_else(|| {
            wrong(
                "/rules/regions",
                format!(
                    "a {size}x{size} board has no boxes ({size} is prime): give its jigsaw regions"
                ),
            )
        })?,
    };
    let per_band = size / shape.cols;
    Ok((0..size)
        .map(|b| {
            let (top, left) = ((b / per_band) * shape.rows, (b % per_band) * shape.cols);
            let cells = (0..size).map(|i| (top + i / shape.cols) * size + left + i % shape.cols);
            group(VariantUnit::Box, b, cells)
        })
        .collect())
}

fn jigsaw(size: usize, rows: &[Vec<usize>]) -> Result<Vec<Group>, RulesError> {
    if rows.len() != size {
        return Err(wrong(
            "/rules/regions",
            format!(
                "regions must be {size} rows of {size} region numbers, found {} rows",
                rows.len()
            ),
        ));
    }
    let mut members = vec![Vec::new(); size];
    for (r, row) in rows.iter().enumerate() {
        if row.len() != size {
            return Err(wrong(
                format!("/rules/regions/{r}"),
                format!(
                    "row {} of the regions has {} numbers; it must have {size}",
                    r + 1,
                    row.len()
                ),
            ));
        }
        for (c, &region) in row.iter().enumerate() {
            if region >= size {
                return Err(wrong(
                    format!("/rules/regions/{r}/{c}"),
                    format!(
                        "{} is in region {region}, but regions are numbered 0 to {}",
                        CellLabel(r, c),
                        size - 1
                    ),
                ));
            }
            members[region].push(r * size + c);
        }
    }
    if let Some((region, cells)) = members
        .iter()
        .enumerate()
        .find(|(_, cells)| cells.len() != size)
    {
        return Err(wrong(
            "/rules/regions",
            format!(
                "region {region} has {} cells; every region must have {size}",
                cells.len()
            ),
        ));
    }
    Ok(members
        .into_iter()
        .enumerate()
        .map(|(index, cells)| group(VariantUnit::Region, index, cells))
        .collect())
}

/// Cell indexes of a list of cells, each on the board.
fn indexes(size: usize, cells: &[VariantCell], at: &str) -> Result<Vec<usize>, RulesError> {
    cells
        .iter()
        .enumerate()
        .map(|(i, cell)| {
            if cell.row < size && cell.col < size {
                Ok(cell.row * size + cell.col)
            } else {
                Err(wrong(
                    format!("{at}/{i}"),
                    format!(
                        "{} is off the board: a {size}x{size} board has rows and columns 1 to {size}",
                        CellLabel(cell.row, cell.col)
                    ),
                ))
            }
        })
        .collect()
}

fn distinct(cells: &[usize], size: usize, at: &str, what: &str) -> Result<(), RulesError> {
    for (i, cell) in cells.iter().enumerate() {
        if cells[..i].contains(cell) {
            return Err(wrong(
                format!("{at}/{i}"),
                format!("{what} lists {} twice", CellLabel(cell / size, cell % size)),
            ));
        }
    }
    Ok(())
}

fn cages(size: usize, cages: &[Cage]) -> Result<Vec<CompiledCage>, RulesError> {
    let mut owner: Vec<Option<usize>> = vec![None; size * size];
    let mut compiled = Vec::with_capacity(cages.len());
    for (index, cage) in cages.iter().enumerate() {
        let at = format!("/rules/cages/{index}");
        let name = format!("cage {}", index + 1);
        let cells = indexes(size, &cage.cells, &format!("{at}/cells"))?;
        if cells.is_empty() {
            return Err(wrong(format!("{at}/cells"), format!("{name} has no cells")));
        }
        distinct(&cells, size, &format!("{at}/cells"), &name)?;
        if cells.len() > size {
            return Err(wrong(
                format!("{at}/cells"),
                format!(
                    "{name} has {} cells, but its digits differ and a {size}x{size} board has only {size}",
                    cells.len()
                ),
            ));
        }
        for (i, &cell) in cells.iter().enumerate() {
            if let Some(other) = owner[cell] {
                return Err(wrong(
                    format!("{at}/cells/{i}"),
                    format!(
                        "cages {} and {} overlap at {}",
                        other + 1,
                        index + 1,
                        CellLabel(cell / size, cell % size)
                    ),
                ));
            }
            owner[cell] = Some(index);
        }
        if let Some(sum) = cage.sum {
            let (least, most) = sum_range(size, cells.len());
            if sum < least || sum > most {
                return Err(wrong(
                    format!("{at}/sum"),
                    format!(
                        "{name} cannot sum to {sum}: {} different digits of 1 to {size} make {least} to {most}",
                        cells.len()
                    ),
                ));
            }
        }
        compiled.push(CompiledCage {
            sum: cage.sum,
            cells,
        });
    }
    Ok(compiled)
}

/// The least and most that `count` different digits of 1..=size add up to.
pub(super) fn sum_range(size: usize, count: usize) -> (u32, u32) {
    let (n, k) = (size as u32, count as u32);
    (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
}

fn thermometers(
    size: usize,
    thermometers: &[Vec<VariantCell>],
) -> Result<Vec<Vec<usize>>, RulesError> {
    thermometers
        .iter()
        .enumerate()
        .map(|(index, thermometer)| {
            let at = format!("/rules/thermometers/{index}");
            let name = format!("thermometer {}", index + 1);
            let cells = indexes(size, thermometer, &at)?;
            if cells.len() < 2 {
                return Err(wrong(
                    at,
                    format!("{name} needs a bulb and at least one more cell"),
                ));
            }
            if cells.len() > size {
                return Err(wrong(
                    at,
                    format!(
                        "{name} has {} cells; its digits strictly increase, so on a {size}x{size} \
                         board it can have at most {size}",
                        cells.len()
                    ),
                ));
            }
            distinct(&cells, size, &at, &name)?;
            Ok(cells)
        })
        .collect()
}

/// The digits each cell may hold under the odd and even rules (bit d for digit d).
fn parity(size: usize, rules: &Rules) -> Result<Vec<u32>, RulesError> {
    let all: u32 = ((1u32 << size) - 1) << 1;
    let odd_digits: u32 = (1..=size).filter(|d| d % 2 == 1).fold(0, |m, d| m | 1 << d);
    let mut allowed = vec![all; size * size];
    for (name, list, digits) in [
        ("odd", &rules.odd, odd_digits),
        ("even", &rules.even, all & !odd_digits),
    ] {
        for cell in indexes(size, list, &format!("/rules/{name}"))? {
            allowed[cell] &= digits;
        }
    }
    if let Some(cell) = allowed.iter().position(|&mask| mask == 0) {
        return Err(wrong(
            "/rules/even",
            format!(
                "{} is listed as both odd and even",
                CellLabel(cell / size, cell % size)
            ),
        ));
    }
    Ok(allowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(row: usize, col: usize) -> VariantCell {
        VariantCell { row, col }
    }

    fn refused(cells: usize, rules: &Rules) -> RulesError {
        Puzzle::new(vec![0; cells], rules).expect_err("the rules are malformed")
    }

    #[test]
    fn boxes_tile_the_board_in_the_shape_asked() {
        let rules = Rules {
            box_shape: Some(BoxShape { rows: 3, cols: 2 }),
            ..Rules::default()
        };
        let puzzle = Puzzle::new(vec![0; 36], &rules).unwrap();
        let boxes: Vec<&Group> = puzzle
            .groups
            .iter()
            .filter(|g| g.kind == VariantUnit::Box)
            .collect();
        assert_eq!(boxes.len(), 6);
        assert_eq!(boxes[0].cells, [0, 1, 6, 7, 12, 13]);
        assert_eq!(boxes[1].cells, [2, 3, 8, 9, 14, 15]);
        assert_eq!(boxes[3].cells, [18, 19, 24, 25, 30, 31]);
    }

    #[test]
    fn malformed_rules_are_refused_with_the_member_and_the_reason() {
        let cases: Vec<(usize, Rules, &str, &str)> = vec![
            (80, Rules::default(), "/board", "found 80"),
            (49, Rules::default(), "/rules/regions", "7 is prime"),
            (
                81,
                Rules {
                    box_shape: Some(BoxShape { rows: 2, cols: 4 }),
                    ..Rules::default()
                },
                "/rules/box",
                "do not tile a 9x9 board",
            ),
            (
                16,
                Rules {
                    regions: Some(vec![vec![0, 0, 1, 1]; 4]),
                    ..Rules::default()
                },
                "/rules/regions",
                "region 0 has 8 cells",
            ),
            (
                81,
                Rules {
                    cages: vec![Cage {
                        sum: Some(5),
                        cells: vec![at(0, 0), at(9, 0)],
                    }],
                    ..Rules::default()
                },
                "/rules/cages/0/cells/1",
                "r10c1 is off the board",
            ),
            (
                81,
                Rules {
                    cages: vec![
                        Cage {
                            sum: None,
                            cells: vec![at(0, 0), at(0, 1)],
                        },
                        Cage {
                            sum: None,
                            cells: vec![at(0, 1), at(0, 2)],
                        },
                    ],
                    ..Rules::default()
                },
                "/rules/cages/1/cells/0",
                "cages 1 and 2 overlap at r1c2",
            ),
            (
                81,
                Rules {
                    cages: vec![Cage {
                        sum: Some(18),
                        cells: vec![at(0, 0), at(0, 1)],
                    }],
                    ..Rules::default()
                },
                "/rules/cages/0/sum",
                "make 3 to 17",
            ),
            (
                16,
                Rules {
                    thermometers: vec![(0..4).map(|c| at(0, c)).chain([at(1, 0)]).collect()],
                    ..Rules::default()
                },
                "/rules/thermometers/0",
                "at most 4",
            ),
            (
                81,
                Rules {
                    odd: vec![at(2, 2)],
                    even: vec![at(2, 2)],
                    ..Rules::default()
                },
                "/rules/even",
                "r3c3 is listed as both odd and even",
            ),
            (
                81,
                Rules {
                    extra_regions: vec![vec![at(1, 1); 9]],
                    ..Rules::default()
                },
                "/rules/extra_regions/0/1",
                "lists r2c2 twice",
            ),
        ];
        for (cells, rules, pointer, words) in cases {
            let error = refused(cells, &rules);
            assert_eq!(error.pointer, pointer, "{error}");
            assert!(
                error.message.contains(words),
                "{error:?} should say {words:?}"
            );
        }
    }

    #[test]
    fn a_digit_past_the_size_is_refused() {
        let error = Puzzle::new([vec![5], vec![0; 15]].concat(), &Rules::default()).unwrap_err();
        assert_eq!(
            error.message,
            "r1c1 holds 5, but a 4x4 board has digits 1 to 4"
        );
    }
}
