//! The loops over all 27 band masks that do the same thing to each, four masks at a time.
//!
//! Through the `wide` crate, which gives one safe API over SSE2 on x86-64 and NEON on
//! arm64 (both in every CPU of those targets, so the one binary runs everywhere with no
//! feature detection) and plain arrays elsewhere. Each function has a scalar twin in the
//! tests, which check that both agree on random masks.

use wide::{CmpEq, i32x4, u8x16};

use super::tables::BAND;
use crate::grid::CELLS;

/// Four masks from `masks[at..at + 4]`, reinterpreted as signed lanes (`wide` compares and
/// gathers sign bits on `i32x4`).
#[inline(always)]
fn four(masks: &[u32; 27], at: usize) -> i32x4 {
    i32x4::new([
        masks[at] as i32,
        masks[at + 1] as i32,
        masks[at + 2] as i32,
        masks[at + 3] as i32,
    ])
}

/// Bit `i` set when `now[i] != before[i]`: which bands changed since they were last shrunk.
/// In six compares of four masks and one of the last four (23..27, overlapping), where the
/// scalar loop spent about 80 instructions, the engine's most executed line (BENCHMARKS.md).
#[inline(always)]
pub(super) fn changed(now: &[u32; 27], before: &[u32; 27]) -> u32 {
    let mut same = 0u32;
    for k in 0..6 {
        same |= (four(now, 4 * k).cmp_eq(four(before, 4 * k)).move_mask() as u32) << (4 * k);
    }
    // Lanes 23..27: the first of them is band 23 again, dropped by the shift.
    let last = four(now, 23).cmp_eq(four(before, 23)).move_mask() as u32;
    same |= (last >> 1) << 24;
    !same & 0x7FF_FFFF
}

/// For each band, the cells with at least one, two and three candidates
/// (see [`candidate_counts`]).
pub(super) type CandidateCounts = [[u32; 3]; 3];

/// For each band (lane `b`), the cells where at least one, at least two and at least three
/// of the nine digits are still candidates: the counters of the naked singles and of the
/// choice of a branching cell, summed bit-parallel over the digits, all three bands at once.
#[inline(always)]
pub(super) fn candidate_counts(masks: &[u32; 27]) -> CandidateCounts {
    let zero = i32x4::new([0; 4]);
    let (mut ones, mut twos, mut threes) = (zero, zero, zero);
    for d in 0..9 {
        // Digit d's three bands in lanes 0..3; lane 3 (the next digit's first band, or 0
        // for the last digit) is never read.
        let digit = if d < 8 {
            four(masks, 3 * d)
        } else {
            i32x4::new([masks[24] as i32, masks[25] as i32, masks[26] as i32, 0])
        };
        threes |= twos & digit;
        twos |= ones & digit;
        ones |= digit;
    }
    let bands = |counts: i32x4| {
        let lanes = counts.to_array();
        [lanes[0] as u32, lanes[1] as u32, lanes[2] as u32]
    };
    [bands(ones), bands(twos), bands(threes)]
}

/// The cells holding a given (any value but 0), as a band mask per band: sixteen cells
/// compared with zero at a time, so that the board setup visits only the givens, where a
/// test of each of the 81 cells was a branch mispredicted on about every other cell of a
/// puzzle (BENCHMARKS.md).
#[inline(always)]
pub(super) fn given_cells(cells: &[u8; CELLS]) -> [u32; 3] {
    let zero = u8x16::new([0; 16]);
    let mut empty = u128::from(cells[80] == 0) << 80;
    for k in 0..5 {
        let sixteen = u8x16::new(std::array::from_fn(|i| cells[16 * k + i]));
        // The mask's low 16 bits, one a lane.
        let lanes = (sixteen.cmp_eq(zero).move_mask() & 0xFFFF) as u128;
        empty |= lanes << (16 * k);
    }
    let given = !empty;
    [
        given as u32 & BAND,
        (given >> 27) as u32 & BAND,
        (given >> 54) as u32 & BAND,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn changed_one_by_one(now: &[u32; 27], before: &[u32; 27]) -> u32 {
        let mut dirty = 0u32;
        for i in 0..27 {
            dirty |= u32::from(now[i] != before[i]) << i;
        }
        dirty
    }

    proptest! {
        #[test]
        fn changed_agrees_with_the_scalar_loop(
            now in proptest::array::uniform27(0u32..0x800_0000),
            flips in proptest::array::uniform27(proptest::bool::weighted(0.3)),
            high_bits in proptest::array::uniform27(proptest::bool::weighted(0.1)),
        ) {
            // Mostly equal pairs, as in the engine, with some differing and some with the
            // top (sign) bit set, which a signed compare must not confuse.
            let mut before = now;
            for i in 0..27 {
                if flips[i] { before[i] ^= 1 << (i % 27); }
                if high_bits[i] { before[i] |= 1 << 31; }
            }
            prop_assert_eq!(changed(&now, &before), changed_one_by_one(&now, &before));
            prop_assert_eq!(changed(&now, &now), 0);
        }
    }

    fn candidate_counts_one_by_one(masks: &[u32; 27]) -> [[u32; 3]; 3] {
        let mut counts = [[0u32; 3]; 3];
        for band in 0..3 {
            for cell in 0..27 {
                let digits = (0..9)
                    .filter(|d| masks[3 * d + band] & (1 << cell) != 0)
                    .count();
                for (at_least, count) in counts.iter_mut().enumerate() {
                    if digits > at_least {
                        count[band] |= 1 << cell;
                    }
                }
            }
        }
        counts
    }

    proptest! {
        #[test]
        fn candidate_counts_agree_with_counting_each_cell(
            masks in proptest::array::uniform27(0u32..0x800_0000),
            sparse in proptest::array::uniform27(0u32..0x800_0000),
        ) {
            prop_assert_eq!(candidate_counts(&masks), candidate_counts_one_by_one(&masks));
            // Sparser masks, where cells with exactly one, two or three candidates abound.
            let mut thin = masks;
            for i in 0..27 { thin[i] &= sparse[i] & sparse[(i + 5) % 27]; }
            prop_assert_eq!(candidate_counts(&thin), candidate_counts_one_by_one(&thin));
        }
    }

    proptest! {
        #[test]
        fn given_cells_agree_with_testing_each_cell(
            cells in proptest::array::uniform32(0u8..=9),
            more in proptest::array::uniform32(0u8..=9),
            rest in proptest::array::uniform17(0u8..=9),
            sparse in proptest::array::uniform32(proptest::bool::weighted(0.7)),
        ) {
            let mut grid = [0u8; CELLS];
            let values = cells.iter().chain(&more).chain(&rest);
            for (cell, (&value, &blank)) in values.zip(sparse.iter().cycle()).enumerate() {
                grid[cell] = if blank { 0 } else { value };
            }
            let mut expected = [0u32; 3];
            for (cell, &value) in grid.iter().enumerate() {
                if value != 0 {
                    expected[cell / 27] |= 1 << (cell % 27);
                }
            }
            prop_assert_eq!(given_cells(&grid), expected);
        }
    }

    #[test]
    fn given_cells_sees_each_cell_alone() {
        for cell in 0..CELLS {
            let mut grid = [0u8; CELLS];
            grid[cell] = 9;
            let mut expected = [0u32; 3];
            expected[cell / 27] = 1 << (cell % 27);
            assert_eq!(given_cells(&grid), expected, "cell {cell}");
        }
        assert_eq!(given_cells(&[5; CELLS]), [BAND; 3]);
    }

    #[test]
    fn changed_sees_each_band_alone() {
        let before = [0u32; 27];
        for i in 0..27 {
            let mut now = before;
            now[i] = 1;
            assert_eq!(changed(&now, &before), 1 << i, "band {i}");
        }
    }
}
