//! The search compiled three times on x86-64, and the choice between the copies made at
//! run time.
//!
//! The release binary targets baseline x86-64 (SSE2), so that one binary runs on every
//! CPU of the target. There a population count is a dozen instructions and there is no
//! `tzcnt`, `blsr` or `andn`, all of which the search uses at every node. So on x86-64 the
//! whole search (the recursive [`Search::step`] with everything below it inlined) is also
//! compiled for the x86-64-v3 set (popcnt, BMI1/2, LZCNT, AVX2), and that copy is run when
//! the CPU has those features, detected once. On arm64 everything the search uses is
//! baseline, so there is one copy. The copies are the same source: they must give the
//! same counts, solutions and guesses, which the differential tests check for each copy
//! the CPU can run (BENCHMARKS.md).
//!
//! The third copy is the x86-64-v3 one with a band mask's row-by-box pattern (the index
//! of every band shrink, on the engine's chain of dependent loads) gathered by one BMI2
//! `pext` instead of three table lookups, and the stack shrink's patterns and columns by
//! `pext` and `pdep` ([`Kernel`]): fewer instructions on every set, and faster on the hardest
//! (BENCHMARKS.md).
//! `pext` and `pdep` are fast on Intel since Haswell and on AMD since Zen 3, but
//! microcoded and many times slower on earlier AMD cores, which have BMI2 all the same:
//! there the plain v3 copy runs.
//!
//! This is the one module of the crate with `unsafe`: calling a function compiled for
//! features the CPU may lack is undefined behaviour, so the call is guarded by the
//! detection (`#[target_feature]` on a safe function needs Rust 1.86; the crate promises
//! 1.85).
#![allow(unsafe_code)]

use super::board::Board;
use super::search::{Halt, Search};
use super::tables;

/// Which compiled copy of the search runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Isa {
    /// Compiled for the target's baseline, on every CPU.
    Baseline,
    /// Compiled for x86-64-v3's integer and vector extensions.
    #[cfg(target_arch = "x86_64")]
    X86_64V3,
    /// The same, with the band patterns gathered by `pext` ([`Pext`]).
    #[cfg(target_arch = "x86_64")]
    X86_64V3Pext,
}

impl Isa {
    /// The best copy this CPU can run, detected on the first call.
    #[inline]
    pub(super) fn detected() -> Isa {
        #[cfg(target_arch = "x86_64")]
        {
            static DETECTED: std::sync::LazyLock<Isa> = std::sync::LazyLock::new(|| {
                if Isa::X86_64V3.is_supported() {
                    if pext_is_fast() {
                        Isa::X86_64V3Pext
                    } else {
                        Isa::X86_64V3
                    }
                } else {
                    Isa::Baseline
                }
            });
            *DETECTED
        }
        #[cfg(not(target_arch = "x86_64"))]
        Isa::Baseline
    }

    /// Every copy compiled in, whether or not this CPU can run it.
    #[cfg(test)]
    pub(super) const ALL: &[Isa] = &[
        Isa::Baseline,
        #[cfg(target_arch = "x86_64")]
        Isa::X86_64V3,
        #[cfg(target_arch = "x86_64")]
        Isa::X86_64V3Pext,
    ];

    /// Whether this CPU can run the copy. Elsewhere than on x86-64 only the tests ask: there
    /// is one copy, run on every CPU.
    #[cfg(any(target_arch = "x86_64", test))]
    pub(super) fn is_supported(self) -> bool {
        match self {
            Isa::Baseline => true,
            #[cfg(target_arch = "x86_64")]
            Isa::X86_64V3 | Isa::X86_64V3Pext => {
                std::arch::is_x86_feature_detected!("popcnt")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                    && std::arch::is_x86_feature_detected!("avx2")
            }
        }
    }

    /// Runs the search from `board` with this copy; one the CPU cannot run falls back to the
    /// baseline.
    pub(super) fn run(self, search: &mut Search, mut board: Board) -> Result<(), Halt> {
        match self {
            #[cfg(target_arch = "x86_64")]
            Isa::X86_64V3 if self.is_supported() => {
                // SAFETY: the CPU has every feature the copy was compiled for (just checked).
                unsafe { run_x86_64_v3(search, &mut board) }
            }
            #[cfg(target_arch = "x86_64")]
            Isa::X86_64V3Pext if self.is_supported() => {
                // SAFETY: as above, the same features.
                unsafe { run_x86_64_v3_pext(search, &mut board) }
            }
            _ => run_baseline(search, &mut board),
        }
    }
}

/// What the compiled copies do differently beyond the compiler's own choices.
pub(super) trait Kernel {
    /// The 9-bit row-by-box pattern of a band mask (bit `3 * r + k`: row `r` has candidates
    /// in box `k`), as [`tables::pattern`] defines it.
    fn pattern(band: u32) -> usize;
    /// The 3x3 pattern of one stack, as [`tables::stack_pattern`] defines it.
    fn stack_pattern(columns: u32, stack: usize) -> usize;
    /// The pattern's columns, as [`tables::stack_columns`] defines them.
    fn stack_columns(p: u32, stack: usize) -> u32;
}

/// Plain code for every CPU: the pattern by table lookups.
pub(super) struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    fn pattern(band: u32) -> usize {
        tables::pattern(band)
    }

    #[inline(always)]
    fn stack_pattern(columns: u32, stack: usize) -> usize {
        tables::stack_pattern(columns, stack)
    }

    #[inline(always)]
    fn stack_columns(p: u32, stack: usize) -> u32 {
        tables::stack_columns(p, stack)
    }
}

/// The pattern by BMI2's `pext`. Named only in [`run_x86_64_v3_pext`] (and in tests, on a
/// CPU that has BMI2), which is what makes its safe `pattern` sound.
#[cfg(target_arch = "x86_64")]
struct Pext;

#[cfg(target_arch = "x86_64")]
impl Kernel for Pext {
    #[inline(always)]
    fn pattern(band: u32) -> usize {
        // SAFETY: only reached from the copy entered on a CPU with BMI2 (see `Pext`).
        unsafe { pext_pattern(band) }
    }

    #[inline(always)]
    fn stack_pattern(columns: u32, stack: usize) -> usize {
        // SAFETY: as above.
        unsafe { pext_stack_pattern(columns, stack) }
    }

    #[inline(always)]
    fn stack_columns(p: u32, stack: usize) -> u32 {
        // SAFETY: as above.
        unsafe { pdep_stack_columns(p, stack) }
    }
}

/// Each mini-row (three cells of a row within a box) folded onto its first bit, then those
/// nine bits gathered: bit `9 * r + 3 * k` lands at `3 * r + k`.
///
/// # Safety
/// Only on a CPU with BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
unsafe fn pext_pattern(band: u32) -> usize {
    // An `unsafe` call before Rust 1.87, a safe one inside this function after.
    #[allow(unused_unsafe)]
    let gathered =
        unsafe { std::arch::x86_64::_pext_u32(band | band >> 1 | band >> 2, 0x124_9249) };
    gathered as usize
}

/// The stack's nine columns gathered by `pext`.
///
/// # Safety
/// Only on a CPU with BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
unsafe fn pext_stack_pattern(columns: u32, stack: usize) -> usize {
    #[allow(unused_unsafe)]
    let gathered =
        unsafe { std::arch::x86_64::_pext_u32(columns, tables::STACK_COLUMNS << (3 * stack)) };
    gathered as usize
}

/// The pattern's nine bits scattered back by `pdep`.
///
/// # Safety
/// Only on a CPU with BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
unsafe fn pdep_stack_columns(p: u32, stack: usize) -> u32 {
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_pdep_u32(p, tables::STACK_COLUMNS << (3 * stack))
    }
}

/// Whether `pext` is fast here (see [`pext_is_fast_on`]).
#[cfg(target_arch = "x86_64")]
fn pext_is_fast() -> bool {
    #[allow(unused_unsafe)]
    // SAFETY: `cpuid` exists on every x86-64 CPU.
    let (vendor, signature) = unsafe {
        (
            std::arch::x86_64::__cpuid(0),
            std::arch::x86_64::__cpuid(1).eax,
        )
    };
    pext_is_fast_on([vendor.ebx, vendor.edx, vendor.ecx], signature)
}

/// Whether `pext` is fast on a CPU of this `cpuid` vendor (leaf 0's `ebx`, `edx`, `ecx`)
/// and signature (leaf 1's `eax`): everywhere but AMD's (and Hygon's) cores before Zen 3
/// (family 0x19), where it is microcoded, with a latency that grows with the mask's bits.
#[cfg(target_arch = "x86_64")]
fn pext_is_fast_on(vendor: [u32; 3], signature: u32) -> bool {
    const AMD: [u32; 3] = [0x6874_7541, 0x6974_6e65, 0x444d_4163]; // "AuthenticAMD"
    const HYGON: [u32; 3] = [0x6f67_7948, 0x6e65_476e, 0x656e_6975]; // "HygonGenuine"
    let base_family = (signature >> 8) & 0xF;
    let family = if base_family == 0xF {
        base_family + ((signature >> 20) & 0xFF)
    } else {
        base_family
    };
    !(vendor == AMD || vendor == HYGON) || family >= 0x19
}

fn run_baseline(search: &mut Search, board: &mut Board) -> Result<(), Halt> {
    search.step::<Portable>(board, run_baseline)
}

/// # Safety
/// Only on a CPU with every feature enabled here.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
unsafe fn run_x86_64_v3(search: &mut Search, board: &mut Board) -> Result<(), Halt> {
    search.step::<Portable>(board, |search, board| {
        // SAFETY: only reached from this copy, entered on a CPU with its features.
        unsafe { run_x86_64_v3(search, board) }
    })
}

/// # Safety
/// Only on a CPU with every feature enabled here.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
unsafe fn run_x86_64_v3_pext(search: &mut Search, board: &mut Board) -> Result<(), Halt> {
    search.step::<Pext>(board, |search, board| {
        // SAFETY: only reached from this copy, entered on a CPU with its features.
        unsafe { run_x86_64_v3_pext(search, board) }
    })
}

#[cfg(test)]
mod tests {
    use super::super::board::Rules;
    use super::*;
    use crate::Solver;
    use crate::grid::{CELLS, Grid};
    use crate::puzzle_sets;
    use proptest::prelude::*;

    /// The copies this CPU can run, saying which it cannot (so that a run on such a CPU
    /// shows what went unchecked).
    fn runnable() -> Vec<Isa> {
        Isa::ALL
            .iter()
            .copied()
            .filter(|isa| {
                let supported = isa.is_supported();
                if !supported {
                    eprintln!("{isa:?} not checked: this CPU lacks its features");
                }
                supported
            })
            .collect()
    }

    /// Asserts that every copy this CPU can run counts the same, finds the same first
    /// solution and makes the same guesses on `grid`, with each rule set.
    fn copies_agree(grid: &Grid, limit: usize) {
        let solver = Solver::default();
        for rules in [None, Some(Rules::Full), Some(Rules::Light)] {
            let counts: Vec<_> = runnable()
                .into_iter()
                .map(|isa| (isa, solver.count_solutions_on(isa, grid, limit, rules)))
                .collect();
            for (isa, count) in &counts[1..] {
                assert_eq!(
                    count, &counts[0].1,
                    "{grid}, {rules:?} rules, limit {limit}: {isa:?} against {:?}",
                    counts[0].0
                );
            }
        }
    }

    /// Whether this CPU has BMI2, saying so when it has not (so that a run on such a CPU
    /// shows what went unchecked).
    #[cfg(target_arch = "x86_64")]
    fn has_bmi2() -> bool {
        let has = std::arch::is_x86_feature_detected!("bmi2");
        if !has {
            eprintln!("Pext not checked: this CPU lacks BMI2");
        }
        has
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_is_left_out_on_amd_cores_before_zen_3() {
        let vendor = |name: &[u8; 12]| {
            let word = |at: usize| u32::from_le_bytes(name[at..at + 4].try_into().unwrap());
            [word(0), word(4), word(8)]
        };
        let (amd, hygon, intel) = (
            vendor(b"AuthenticAMD"),
            vendor(b"HygonGenuine"),
            vendor(b"GenuineIntel"),
        );
        // Leaf 1 signatures: EPYC Rome (Zen 2, family 0x17), Hygon Dhyana (0x18), EPYC
        // Milan (Zen 3, 0x19), EPYC Turin (Zen 5, 0x1A), a Skylake Xeon (family 6).
        assert!(!pext_is_fast_on(amd, 0x0083_0F10));
        assert!(!pext_is_fast_on(hygon, 0x0090_0F01));
        assert!(pext_is_fast_on(amd, 0x00A0_0F11));
        assert!(pext_is_fast_on(amd, 0x00B0_0F21));
        assert!(pext_is_fast_on(intel, 0x0005_0654));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_gathers_every_pattern_as_the_tables_do() {
        if !has_bmi2() {
            return;
        }
        // Every pattern, each mini-row in it holding its first, middle or last cell, or all
        // three.
        for p in 0..512 {
            for cells in [0b001, 0b010, 0b100, 0b111] {
                let band = (0..9)
                    .filter(|bit| p & (1 << bit) != 0)
                    .fold(0u32, |band, bit| {
                        band | cells << (9 * (bit / 3) + 3 * (bit % 3))
                    });
                assert_eq!(Pext::pattern(band), p, "{band:#029b}");
                assert_eq!(Portable::pattern(band), p, "{band:#029b}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    proptest! {
        #[test]
        fn pext_agrees_with_the_tables_on_random_masks(band in 0u32..0x800_0000) {
            if has_bmi2() {
                prop_assert_eq!(Pext::pattern(band), Portable::pattern(band));
                // The same bits read as a digit's columns, and a pattern's columns back.
                for stack in 0..3 {
                    prop_assert_eq!(
                        Pext::stack_pattern(band, stack),
                        Portable::stack_pattern(band, stack)
                    );
                    let p = band & 0x1FF;
                    prop_assert_eq!(
                        Pext::stack_columns(p, stack),
                        Portable::stack_columns(p, stack)
                    );
                }
            }
        }
    }

    #[test]
    fn this_cpu_runs_the_detected_copy() {
        assert!(Isa::detected().is_supported());
        assert!(Isa::ALL.contains(&Isa::detected()));
    }

    #[test]
    fn every_copy_agrees_on_a_sample_of_every_set() {
        for name in puzzle_sets::ALL {
            for puzzle in puzzle_sets::every(name, 97) {
                copies_agree(&puzzle, 2);
            }
        }
    }

    /// Solved grids: the solutions of a sample of 17-clue puzzles, worked out once.
    fn solutions() -> &'static [Grid] {
        static SOLUTIONS: std::sync::OnceLock<Vec<Grid>> = std::sync::OnceLock::new();
        SOLUTIONS.get_or_init(|| {
            puzzle_sets::every("puzzles2_17_clue", 500)
                .iter()
                .map(|puzzle| Solver::default().solve(puzzle).expect("a proper puzzle"))
                .collect()
        })
    }

    proptest! {
        #[test]
        fn every_copy_agrees_on_random_boards(
            solution_seed in 0usize..100,
            kept in proptest::collection::vec(proptest::bool::weighted(0.3), CELLS),
            stray in proptest::option::of((0..CELLS, 1u8..=9)),
        ) {
            // A solved grid of the committed sets, most clues removed (often several
            // solutions), and sometimes one cell overwritten (often none).
            let solutions = solutions();
            let mut cells = *solutions[solution_seed % solutions.len()].cells();
            for (cell, keep) in cells.iter_mut().zip(&kept) {
                if !keep {
                    *cell = 0;
                }
            }
            if let Some((cell, digit)) = stray {
                cells[cell] = digit;
            }
            let board = Grid::from_cells(cells).expect("digits");
            for limit in [1, 2, 5] {
                copies_agree(&board, limit);
            }
        }
    }
}
