//! The constant tables of the band engine, built at compile time, and the lookups that read
//! them: a band's row-by-box pattern, its single rows, a stack's pattern.

/// All 27 cells of a band.
pub(super) const BAND: u32 = 0x7FF_FFFF;
/// Bit `c` of each of a band's three rows: multiplying a 9-bit column set by it copies the
/// set to all three rows.
pub(super) const ROWS_OF_COLUMN: u32 = 0x40201;

/// `ROW_BOXES[x]`: for the 9 bits `x` of one band row, bit `k` says box `k` has any of them.
static ROW_BOXES: [u8; 512] = build_row_boxes();
/// `KEEP[p]`: for a 9-bit row-by-box pattern `p` (bit `3 * r + k`), the 27-bit band mask of
/// the union of the permutation matrices inside `p`; zero when there is none.
pub(super) static KEEP: [u32; 512] = build_keep();
/// `UNION[p]`: the union of the permutation matrices inside a 3x3 pattern `p` (bit
/// `3 * r + k` is row `r`, column `k`); zero when there is none.
pub(super) static UNION: [u16; 512] = build_union();
/// `CONFIGURATIONS[p]`: how many permutation matrices fit inside a 3x3 pattern `p`, that is
/// how many ways a digit has left to take one row of each box of a band (or one column of
/// each box of a stack).
pub(super) static CONFIGURATIONS: [u8; 512] = build_configurations();
/// `SINGLE[x]`: `x` when the 9 bits hold exactly one, else 0.
static SINGLE: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut x: usize = 1;
    while x < 512 {
        if x.is_power_of_two() {
            table[x] = x as u16;
        }
        x += 1;
    }
    table
};
/// `PEERS[pos]`: the cells of the band sharing a row, column or box with cell `pos` (not
/// the cell itself).
pub(super) static PEERS: [u32; 27] = build_peers();

/// `COLUMN_OF[pos]`: the three cells of the band in cell `pos`'s column, a lookup where the
/// hot loops otherwise divide by nine.
pub(super) static COLUMN_OF: [u32; 27] = {
    let mut table = [0u32; 27];
    let mut pos = 0;
    while pos < 27 {
        table[pos] = ROWS_OF_COLUMN << (pos % 9);
        pos += 1;
    }
    table
};

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
pub(super) const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The 3x3 pattern (bit `3 * r + k`) of a permutation: row `r` takes column `perm[r]`.
pub(super) const fn permutation_matrix(perm: [usize; 3]) -> usize {
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
pub(super) fn pattern(band: u32) -> usize {
    usize::from(ROW_BOXES[(band & 0x1FF) as usize])
        | usize::from(ROW_BOXES[((band >> 9) & 0x1FF) as usize]) << 3
        | usize::from(ROW_BOXES[(band >> 18) as usize]) << 6
}

/// The rows of a band mask that hold exactly one bit, and their columns (9 bits): three
/// lookups in [`SINGLE`] instead of testing each row.
#[inline(always)]
pub(super) fn single_rows(band: u32) -> (u32, u32) {
    let r0 = u32::from(SINGLE[(band & 0x1FF) as usize]);
    let r1 = u32::from(SINGLE[((band >> 9) & 0x1FF) as usize]);
    let r2 = u32::from(SINGLE[(band >> 18) as usize]);
    (r0 | r1 << 9 | r2 << 18, r0 | r1 | r2)
}

/// The columns of stack 0 in each band of [`digit_columns`]; shifted by `3 * s`, stack `s`'s.
/// The masks of `pext` and `pdep`, x86-64 only.
#[cfg(any(target_arch = "x86_64", test))]
pub(super) const STACK_COLUMNS: u32 = 0x1C_0E07;

/// The columns (9 bits) of a digit's three band masks, band `b`'s at bit `9 * b`.
#[inline(always)]
pub(super) fn digit_columns(bands: &[u32]) -> u32 {
    columns(bands[0]) | columns(bands[1]) << 9 | columns(bands[2]) << 18
}

/// The 3x3 pattern of one stack for one digit, from its [`digit_columns`]: bit `3 * b + c`
/// says band `b` has candidates in column `c` of the stack.
#[inline(always)]
pub(super) fn stack_pattern(columns: u32, stack: usize) -> usize {
    let shift = 3 * stack;
    (((columns >> shift) & 7)
        | ((columns >> (shift + 6)) & 0x38)
        | ((columns >> (shift + 12)) & 0x1C0)) as usize
}

/// [`stack_pattern`] undone: the 3x3 pattern `p` of stack `stack` as columns laid out as
/// in [`digit_columns`].
#[inline(always)]
pub(super) fn stack_columns(p: u32, stack: usize) -> u32 {
    ((p & 7) | (p & 0x38) << 6 | (p & 0x1C0) << 12) << (3 * stack)
}

/// The columns (9 bits) holding any bit of a band mask.
#[inline(always)]
pub(super) fn columns(band: u32) -> u32 {
    (band | band >> 9 | band >> 18) & 0x1FF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_hold_what_their_comments_say() {
        // A full pattern holds all six permutation matrices, which cover it.
        assert_eq!(CONFIGURATIONS[0x1FF], 6);
        assert_eq!(UNION[0x1FF], 0x1FF);
        assert_eq!(KEEP[0x1FF], BAND);
        // Each permutation matrix holds only itself; a pattern missing a row holds none.
        for perm in PERMUTATIONS {
            let matrix = permutation_matrix(perm);
            assert_eq!(CONFIGURATIONS[matrix], 1, "{matrix:#b}");
            assert_eq!(usize::from(UNION[matrix]), matrix, "{matrix:#b}");
            assert_eq!(pattern(KEEP[matrix]), matrix, "{matrix:#b}");
        }
        assert_eq!(
            (CONFIGURATIONS[0x1F8], UNION[0x1F8], KEEP[0x1F8]),
            (0, 0, 0)
        );
        // A cell sees the 8 others of its row, 2 of its column and 4 more of its box.
        for (pos, peers) in PEERS.iter().enumerate() {
            assert_eq!(peers.count_ones(), 14, "cell {pos}");
            assert_eq!(peers & (1 << pos), 0, "cell {pos}");
        }
        assert_eq!(single_rows(0b1_0000_0011 | 0b100 << 9), (0b100 << 9, 0b100));
        assert_eq!(columns(1 | 1 << 13 | 1 << 26), 0b1_0001_0001);
        assert_eq!(COLUMN_OF[13], 1 << 4 | 1 << 13 | 1 << 22);
        let columns = digit_columns(&[0b111, 0b010 << 9, 0b100 << 18 | 0b100_000]);
        assert_eq!(columns, 0b111 | 0b010 << 9 | 0b100_100 << 18);
        assert_eq!(stack_pattern(columns, 0), 0b100_010_111);
        assert_eq!(stack_pattern(columns, 1), 0b100_000_000);
        for stack in 0..3 {
            for p in 0..512 {
                assert_eq!(stack_pattern(stack_columns(p, stack), stack), p as usize);
                assert_eq!(stack_columns(p, stack) & !(STACK_COLUMNS << (3 * stack)), 0);
            }
        }
    }
}
