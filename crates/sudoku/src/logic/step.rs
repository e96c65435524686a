//! One deduction as a value: what it is called, what it looks at, what it concludes and how
//! hard it is on the Sudoku Explainer scale.

use std::fmt;

use super::candidates::Candidates;
use crate::CellName;

/// A difficulty on the Sudoku Explainer (SE) scale, in tenths: `Rating(23)` is 2.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Rating(pub u16);

impl Rating {
    /// The rating as the number people quote (2.3).
    pub fn value(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// The extra tenths SE adds to a chain of `complexity` links. The idea, as the SE write-ups
/// describe it: the first tenth is added past 4, and each further tenth when the length
/// passes a threshold that grows alternately by a half and by a third (4, 6, 8, 12, 16,
/// 24, 32, ...), so that the bonus grows with the logarithm of the length.
pub fn length_bonus(complexity: usize) -> u16 {
    let mut bonus = 0;
    let mut ceiling = 4;
    let mut by_half = true;
    while complexity > ceiling {
        bonus += 1;
        ceiling = if by_half {
            ceiling * 3 / 2
        } else {
            ceiling * 4 / 3
        };
        by_half = !by_half;
    }
    bonus
}

macro_rules! techniques {
    ($($(#[$doc:meta])* $variant:ident => $name:literal, $display:literal;)*) => {
        /// A solving technique, in the order the driver tries them (easiest first).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Technique {
            $($(#[$doc])* $variant,)*
        }

        impl Technique {
            /// Every technique, easiest first.
            pub const ALL: &'static [Technique] = &[$(Technique::$variant,)*];

            /// A stable `snake_case` name, for wire formats and logs.
            pub fn name(self) -> &'static str {
                match self {
                    $(Technique::$variant => $name,)*
                }
            }

            /// The name people use.
            pub fn display_name(self) -> &'static str {
                match self {
                    $(Technique::$variant => $display,)*
                }
            }
        }
    };
}

techniques! {
    /// The one open cell of a row, column or box (SE 1.0).
    LastValue => "last_value", "Last value in unit";
    /// The one place for a digit in a box (SE 1.2).
    HiddenSingleBox => "hidden_single_box", "Hidden single in box";
    /// The one place for a digit in a row or column (SE 1.5).
    HiddenSingleLine => "hidden_single_line", "Hidden single in line";
    /// Pointing whose eliminations leave a hidden single (SE 1.7).
    DirectPointing => "direct_pointing", "Direct pointing";
    /// Claiming whose eliminations leave a hidden single (SE 1.9).
    DirectClaiming => "direct_claiming", "Direct claiming";
    /// A hidden pair whose eliminations leave a hidden single (SE 2.0).
    DirectHiddenPair => "direct_hidden_pair", "Direct hidden pair";
    /// A cell with one candidate left (SE 2.3).
    NakedSingle => "naked_single", "Naked single";
    /// A hidden triple whose eliminations leave a hidden single (SE 2.5).
    DirectHiddenTriple => "direct_hidden_triple", "Direct hidden triple";
    /// A digit of a box confined to one line: out of the rest of the line (SE 2.6).
    Pointing => "pointing", "Pointing";
    /// A digit of a line confined to one box: out of the rest of the box (SE 2.8).
    Claiming => "claiming", "Claiming";
    /// Two cells of a unit with the same two candidates (SE 3.0).
    NakedPair => "naked_pair", "Naked pair";
    /// A digit in two rows confined to two columns, or the transpose (SE 3.2).
    XWing => "x_wing", "X-wing";
    /// Two digits of a unit confined to the same two cells (SE 3.4).
    HiddenPair => "hidden_pair", "Hidden pair";
    /// Three cells of a unit with three candidates between them (SE 3.6).
    NakedTriple => "naked_triple", "Naked triple";
    /// A digit in three lines confined to three crossing lines (SE 3.8).
    Swordfish => "swordfish", "Swordfish";
    /// Three digits of a unit confined to the same three cells (SE 4.0).
    HiddenTriple => "hidden_triple", "Hidden triple";
    /// Two strong links on one digit joined by a weak link: skyscraper, two-string kite,
    /// turbot fish (SukakuExplainer 4.0, plus a tenth for a box and one for mixed lines).
    TwoStrongLinks => "two_strong_links", "Two strong links";
    /// A bivalue pivot with two bivalue pincers (SE 4.2).
    XyWing => "xy_wing", "XY-wing";
    /// A trivalue pivot with two bivalue pincers (SE 4.4).
    XyzWing => "xyz_wing", "XYZ-wing";
    /// A unique rectangle with one cell holding extra candidates (SE 4.5).
    UniqueRectangle1 => "unique_rectangle_1", "Unique rectangle type 1";
    /// A unique rectangle whose two roof cells share one extra candidate (SE 4.5).
    UniqueRectangle2 => "unique_rectangle_2", "Unique rectangle type 2";
    /// A unique rectangle whose roof holds one of its digits as a conjugate pair (SE 4.5).
    UniqueRectangle4 => "unique_rectangle_4", "Unique rectangle type 4";
    /// Four cells of a unit with four candidates between them (SE 5.0).
    NakedQuad => "naked_quad", "Naked quad";
    /// A digit in four lines confined to four crossing lines (SE 5.2).
    Jellyfish => "jellyfish", "Jellyfish";
    /// Four digits of a unit confined to the same four cells (SE 5.4).
    HiddenQuad => "hidden_quad", "Hidden quad";
    /// Three strong links on one digit (SukakuExplainer 5.4 plus the mix modifier).
    ThreeStrongLinks => "three_strong_links", "Three strong links";
    /// A bivalue cell and a three-cell almost locked set (SukakuExplainer 5.5-5.6).
    WxyzWing => "wxyz_wing", "WXYZ-wing";
    /// A bivalue universal grave but for one trivalue cell (SE 5.6).
    Bug1 => "bug_1", "Bivalue universal grave + 1";
    /// Four strong links on one digit (SukakuExplainer 5.8 plus the mix modifier).
    FourStrongLinks => "four_strong_links", "Four strong links";
    /// A bivalue cell and a four-cell almost locked set (SukakuExplainer 6.2-6.4).
    VwxyzWing => "vwxyz_wing", "VWXYZ-wing";
    /// An X-wing with fins in one box (no SE rule: rated as the X-chain it is, 6.6).
    FinnedXWing => "finned_x_wing", "Finned X-wing";
    /// A swordfish with fins in one box (rated on SE's X-chain band, 6.7).
    FinnedSwordfish => "finned_swordfish", "Finned swordfish";
    /// A jellyfish with fins in one box (rated on SE's X-chain band, 6.8).
    FinnedJellyfish => "finned_jellyfish", "Finned jellyfish";
    /// A continuous loop on one digit: each weak link's unit loses the digit elsewhere
    /// (SE 6.5 plus length).
    XCycle => "x_cycle", "X-cycle";
    /// A continuous loop through bivalue cells (SE 6.5 plus length).
    YCycle => "y_cycle", "Y-cycle";
    /// An alternating chain on one digit (SE's forcing X-chain, 6.6 plus length).
    XChain => "x_chain", "X-chain";
    /// Two bivalue cells joined by a conjugate pair of their other digit (an AIC of six
    /// nodes; SE finds it as a forcing chain, 7.0 plus length).
    WWing => "w_wing", "W-wing";
    /// An alternating chain whose strong links are all bivalue cells (7.0 plus length).
    XyChain => "xy_chain", "XY-chain";
    /// A continuous loop mixing cell and unit links (SE's bidirectional cycle, 7.0 plus
    /// length).
    XyCycle => "xy_cycle", "Bidirectional cycle";
    /// An alternating inference chain mixing cell and unit links (7.0 plus length).
    Aic => "aic", "Alternating inference chain";
    /// What follows from every place of a digit in a unit (SE 8.2 plus length).
    RegionForcingChains => "region_forcing_chains", "Region forcing chains";
    /// What follows from every candidate of a cell (SE 8.3 plus length).
    CellForcingChains => "cell_forcing_chains", "Cell forcing chains";
    /// A candidate whose truth, followed along its digit, leaves the digit no place in a
    /// unit (SE's Nishio, 7.5 plus length).
    NishioForcingChains => "nishio_forcing_chains", "Nishio forcing chains";
    /// A candidate true (or false) leads, updating the grid as it goes, to a
    /// contradiction (SE 8.5 plus length).
    DynamicContradictionForcingChains => "dynamic_contradiction_forcing_chains",
        "Dynamic contradiction forcing chains";
    /// What a candidate true and the same candidate false both imply, updating the grid
    /// as they go (SE 8.5 plus length).
    DynamicDoubleForcingChains => "dynamic_double_forcing_chains", "Dynamic double forcing chains";
    /// What every candidate of a cell implies, updating the grid as it goes (SE 8.5 plus
    /// length).
    DynamicCellForcingChains => "dynamic_cell_forcing_chains", "Dynamic cell forcing chains";
    /// What every place of a digit in a unit implies, updating the grid as it goes (SE
    /// 8.5 plus length).
    DynamicRegionForcingChains => "dynamic_region_forcing_chains", "Dynamic region forcing chains";
    /// Dynamic forcing chains whose branches also use intersections, subsets and fish
    /// (SE's "Dynamic Forcing Chains (+)", 9.0 plus length).
    DynamicForcingChainsPlus => "dynamic_forcing_chains_plus", "Dynamic forcing chains (+)";
    /// Dynamic forcing chains whose branches also use chains or forcing chains (SE's
    /// nested forcing chains, 9.5 plus half a point a level, plus length).
    NestedForcingChains => "nested_forcing_chains", "Nested forcing chains";
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.display_name())
    }
}

/// One deduction: the technique, what it highlights, and what it concludes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique that found it.
    pub technique: Technique,
    /// Its difficulty on the SE scale (base rating plus any length modifier).
    pub rating: Rating,
    /// The cells the deduction looks at (the pattern, not the cells it changes).
    pub cells: Vec<usize>,
    /// The units it reasons about: 0..9 rows, 9..18 columns, 18..27 boxes.
    pub units: Vec<usize>,
    /// For chains, the nodes `(cell, digit)` in order, alternately strong- and
    /// weak-linked, starting and ending with a strong link; empty otherwise.
    pub chain: Vec<(usize, u8)>,
    /// Digits it places, `(cell, digit)`.
    pub placements: Vec<(usize, u8)>,
    /// Candidates it removes, `(cell, digit)`.
    pub eliminations: Vec<(usize, u8)>,
}

impl Step {
    /// A step with the technique's base rating and nothing else filled in.
    pub(crate) fn new(technique: Technique, rating: u16) -> Step {
        Step {
            technique,
            rating: Rating(rating),
            cells: Vec::new(),
            units: Vec::new(),
            chain: Vec::new(),
            placements: Vec::new(),
            eliminations: Vec::new(),
        }
    }

    /// Applies the step: its eliminations first, then its placements.
    pub fn apply(&self, state: &mut Candidates) {
        for &(cell, digit) in &self.eliminations {
            state.eliminate(cell, digit);
        }
        for &(cell, digit) in &self.placements {
            if state.digit(cell) == 0 {
                state.place(cell, digit);
            }
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}):", self.technique, self.rating)?;
        for &(cell, digit) in &self.placements {
            write!(f, " {}={digit}", CellName(cell))?;
        }
        for &(cell, digit) in &self.eliminations {
            write!(f, " {}<>{digit}", CellName(cell))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_bonus_grows_at_4_6_8_12_16_and_24() {
        let bonus: Vec<u16> = [4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25]
            .into_iter()
            .map(length_bonus)
            .collect();
        assert_eq!(bonus, [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]);
    }

    #[test]
    fn names_are_unique_snake_case() {
        let mut names: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
        assert!(names.iter().all(|n| {
            n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        }));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Technique::ALL.len());
    }

    #[test]
    fn ratings_print_with_one_decimal() {
        assert_eq!(Rating(23).to_string(), "2.3");
        assert_eq!(Rating(100).to_string(), "10.0");
    }
}
