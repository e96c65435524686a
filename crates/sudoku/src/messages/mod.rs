//! Explanations in words a player understands, ready for translation.
//!
//! Every sentence is a [`Message`]: a [`MessageKey`] and named [`Param`]s, built from a
//! hint, a step or a path by [`describe`], [`describe_step`] and [`describe_path`]. [`render`] writes it in one
//! [`Language`] from that language's table of templates (`"In {unit}, the {digit} can only
//! go in {cell}."`), so a translation is one more table and no code. Parameters are typed,
//! not pre-written text: a unit, a list of cells or a chain is written by the language's
//! own words (`row 3`, `Zeile 3`; `r1c1 and r1c2`, `r1c1 und r1c2`).
//!
//! Players' conventions: rows, columns and boxes count from 1 (`row 3`, `column 5`,
//! `box 7`, boxes row by row from the top left), and a cell is `r3c5` (row 3, column 5),
//! in every language.

mod de;
mod describe;
mod en;
mod stages;

pub use describe::{describe, describe_path, describe_reasons, describe_step};
pub use stages::{Stage, StageKind, describe_stages};

use super::CellName;
use super::logic::Technique;

/// A language with a complete table of templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// English, the first table, and the one to fall back to.
    English,
    /// German.
    German,
}

impl Language {
    /// Every language, English first.
    pub const ALL: [Language; 2] = [Language::English, Language::German];

    /// The primary language subtag (BCP 47): `en`, `de`.
    pub fn tag(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::German => "de",
        }
    }

    /// The language of a primary subtag, any case (`de`, `DE`); `None` for one without a
    /// table.
    pub fn from_tag(tag: &str) -> Option<Language> {
        Language::ALL
            .into_iter()
            .find(|language| language.tag().eq_ignore_ascii_case(tag))
    }

    fn table(self) -> &'static Table {
        match self {
            Language::English => &en::TABLE,
            Language::German => &de::TABLE,
        }
    }
}

/// A language's words: its templates, and what lists and units are written with.
struct Table {
    /// The template of every key.
    template: fn(MessageKey) -> &'static str,
    /// The word before the last item of a list (`and`).
    and: &'static str,
    /// Rows, columns and boxes: singular (`row`) and plural (`rows`), as a list of units
    /// of one kind is written.
    units: [(&'static str, &'static str); 3],
    /// The name players of the language give each technique.
    technique: fn(Technique) -> &'static str,
}

macro_rules! keys {
    ($($(#[$doc:meta])* $variant:ident [$($param:literal),*];)*) => {
        /// What a message says, whatever the language; each key has a fixed set of
        /// named parameters ([`MessageKey::params`]), which every table's template for it
        /// uses.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum MessageKey {
            $($(#[$doc])* $variant,)*
        }

        impl MessageKey {
            /// Every key.
            pub const ALL: &'static [MessageKey] = &[$(MessageKey::$variant,)*];

            /// The names of the key's parameters.
            pub fn params(self) -> &'static [&'static str] {
                match self {
                    $(MessageKey::$variant => &[$($param),*],)*
                }
            }
        }
    };
}

keys! {
    /// The board is solved.
    Solved [];
    /// A filled cell contradicts the solution (its digit is not told).
    WrongDigit ["cell"];
    /// An empty cell's pencil marks lack its digit.
    WrongPencilMarks ["cell"];
    /// An empty cell has no pencil marks at all.
    NoPencilMarks ["cell"];
    /// An empty cell's pencil marks are all digits its peers already hold.
    StalePencilMarks ["cell", "digits"];
    /// No technique applies: one digit revealed.
    Stuck ["cell", "digit"];
    /// The last empty cell of a unit.
    LastValue ["cell", "unit", "digit"];
    /// The one place of a digit in a unit.
    HiddenSingle ["unit", "digit", "cell"];
    /// A cell with one candidate.
    NakedSingle ["cell", "digit"];
    /// A box's digit confined to one line.
    Pointing ["box", "line", "digit", "cells", "removed"];
    /// Pointing that leaves a hidden single.
    DirectPointing ["box", "line", "digit", "cells", "removed", "single", "single_unit"];
    /// A line's digit confined to one box.
    Claiming ["line", "box", "digit", "cells", "removed"];
    /// Claiming that leaves a hidden single.
    DirectClaiming ["line", "box", "digit", "cells", "removed", "single", "single_unit"];
    /// A naked pair, triple or quad.
    NakedSubset ["cells", "digits", "units", "removals"];
    /// A hidden pair, triple or quad.
    HiddenSubset ["unit", "digits", "cells", "removals"];
    /// A hidden pair or triple that leaves a hidden single.
    DirectHiddenSubset ["unit", "digits", "cells", "removals", "single", "single_digit", "single_unit"];
    /// X-wing, swordfish, jellyfish.
    Fish ["base", "cover", "digit", "removed"];
    /// A fish with fins in one box.
    FinnedFish ["base", "cover", "digit", "fins", "box", "removed"];
    /// Two to four strong links on one digit.
    StrongLinks ["digit", "units", "chain", "first", "last", "removed"];
    /// XY-wing.
    XyWing ["pivot", "pivot_digits", "a", "a_digits", "b", "b_digits", "digit", "removed"];
    /// XYZ-wing.
    XyzWing ["pivot", "pivot_digits", "a", "a_digits", "b", "b_digits", "digit", "removed"];
    /// W-wing.
    WWing ["first", "second", "digits", "link", "unit", "ends", "digit", "removed"];
    /// Unique rectangle, type 1.
    UniqueRectangle1 ["floor", "roof", "digits"];
    /// Unique rectangle, type 2.
    UniqueRectangle2 ["floor", "roof", "digits", "extra", "removed"];
    /// Unique rectangle, type 4.
    UniqueRectangle4 ["floor", "roof", "digits", "unit", "locked", "other"];
    /// A bivalue cell and an almost locked set (WXYZ- and VWXYZ-wings).
    AlsWing ["pivot", "pivot_digits", "cells", "unit", "digits", "removals"];
    /// Bivalue universal grave + 1.
    Bug ["cell", "digit"];
    /// A continuous loop (X-, Y- and bidirectional cycles).
    Cycle ["nodes", "removals"];
    /// A chain whose two ends cannot both be false.
    ChainElimination ["first", "last", "chain", "removals"];
    /// A chain from a candidate false back to itself true.
    ChainPlacement ["cell", "digit", "chain"];
    /// Cell forcing chains, static or dynamic.
    CellForcing ["cell", "digits", "conclusion"];
    /// Region forcing chains, static or dynamic.
    RegionForcing ["unit", "digit", "cells", "conclusion"];
    /// Nishio.
    Nishio ["cell", "digit"];
    /// A dynamic chain from an assumption to a contradiction.
    Contradiction ["assumption", "conclusion"];
    /// A candidate's true and false cases agree.
    DoubleForcing ["cell", "conclusion"];
    /// Forcing chains with techniques nested in them.
    NestedForcing ["cells", "conclusion"];
    /// Any step whose shape the sentences above do not fit.
    Generic ["technique", "conclusions"];
    /// Stage: where the next step is, naming no cell and no digit.
    NudgeArea ["units"];
    /// Stage: a unit holds a wrong digit.
    NudgeMistake ["unit"];
    /// Stage: a unit holds a cell whose pencil marks lack its digit.
    NudgePencilMarks ["unit"];
    /// Stage: the technique of the next step.
    TechniqueStage ["technique"];
    /// Stage: the techniques of the eliminations a placement needs, then the placement's.
    TechniqueDeduction ["reasons", "technique"];
    /// Stage: a naked single's cell and the digits its peers hold.
    CellsNakedSingle ["cell", "digits"];
    /// Stage: the digits that rule a hidden single's digit out of its unit's other cells.
    CellsHiddenSingle ["unit", "digit", "cells"];
    /// Stage: the last empty cell of a unit.
    CellsLastValue ["cell", "unit"];
    /// Stage: the cells a step rests on, and their candidates that matter.
    CellsPattern ["cells", "digits"];
    /// Stage: the cells the eliminations before a placement rest on.
    CellsDeduction ["cells", "digits", "units"];
    /// Fragment: a cell holds a digit.
    FactTrue ["cell", "digit"];
    /// Fragment: a cell does not hold a digit.
    FactFalse ["cell", "digit"];
    /// Fragment: the first link of a chain.
    ChainOpen ["fact"];
    /// Fragment: every further link of a chain.
    ChainLink ["fact"];
    /// Fragment: one digit removed from some cells.
    RemovalGroup ["digit", "cells"];
    /// Fragment: one candidate of a loop.
    Node ["cell", "digit"];
}

/// One thing a message names, written by the language it is rendered in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    /// A digit, 1-9.
    Digit(u8),
    /// Digits, as a list (`1, 2 and 3`).
    Digits(Vec<u8>),
    /// A cell, 0..81 row-major (`r3c5`).
    Cell(usize),
    /// Cells, as a list.
    Cells(Vec<usize>),
    /// A unit: 0..9 rows, 9..18 columns, 18..27 boxes (`row 3`).
    Unit(usize),
    /// Units, as a list; units of one kind share their name (`rows 2 and 6`).
    Units(Vec<usize>),
    /// Candidates removed, `(cell, digit)`, written digit by digit.
    Removals(Vec<(usize, u8)>),
    /// That a cell holds a digit (`holds`) or does not.
    Fact {
        /// The cell.
        cell: usize,
        /// The digit.
        digit: u8,
        /// Whether the cell holds it.
        holds: bool,
    },
    /// Facts, as a list.
    Facts(Vec<(usize, u8, bool)>),
    /// An alternating chain: its first node false, then true, false, and so on, each
    /// following from the one before.
    Chain(Vec<(usize, u8)>),
    /// Candidates `(cell, digit)`, as a list.
    Nodes(Vec<(usize, u8)>),
    /// A technique, by the name people use.
    Technique(Technique),
    /// Techniques, as a list, repeats left out.
    Techniques(Vec<Technique>),
}

/// A sentence to show, in no language yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// What it says.
    pub key: MessageKey,
    /// Its parameters, by name: exactly the key's [`MessageKey::params`].
    pub params: Vec<(&'static str, Param)>,
}

impl Message {
    /// A message of `key` with `params`.
    pub fn new(key: MessageKey, params: Vec<(&'static str, Param)>) -> Message {
        debug_assert!(
            key.params().len() == params.len()
                && params.iter().all(|(name, _)| key.params().contains(name)),
            "{key:?}: parameters {:?}",
            params.iter().map(|(name, _)| *name).collect::<Vec<_>>()
        );
        Message { key, params }
    }
}

/// The name players of `language` give `technique` (`Hidden single in box`, `Versteckter
/// Einer im Block`).
pub fn technique_name(technique: Technique, language: Language) -> &'static str {
    (language.table().technique)(technique)
}

/// `message` written in `language`.
pub fn render(message: &Message, language: Language) -> String {
    let table = language.table();
    fill((table.template)(message.key), |name| {
        message
            .params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, param)| write_param(param, table))
    })
}

/// `template` with each `{name}` replaced by `value(name)`; a name without a value is
/// left as written (the tests make sure there is none).
fn fill(template: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match value(name) {
                    Some(text) => out.push_str(&text),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// A fragment: `key`'s template filled with `params`.
fn fragment(key: MessageKey, params: &[(&str, String)], table: &Table) -> String {
    fill((table.template)(key), |name| {
        params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| text.clone())
    })
}

fn write_param(param: &Param, table: &Table) -> String {
    match param {
        Param::Digit(digit) => digit.to_string(),
        Param::Digits(digits) => list(digits.iter().map(u8::to_string), table),
        Param::Cell(cell) => cell_name(*cell),
        Param::Cells(cells) => list(cells.iter().map(|&c| cell_name(c)), table),
        Param::Unit(unit) => unit_name(*unit, table),
        Param::Units(units) => units_name(units, table),
        Param::Removals(removals) => {
            let mut digits: Vec<u8> = removals.iter().map(|&(_, d)| d).collect();
            digits.sort_unstable();
            digits.dedup();
            digits
                .into_iter()
                .map(|digit| {
                    let cells: Vec<String> = removals
                        .iter()
                        .filter(|&&(_, d)| d == digit)
                        .map(|&(c, _)| cell_name(c))
                        .collect();
                    fragment(
                        MessageKey::RemovalGroup,
                        &[("digit", digit.to_string()), ("cells", list(cells, table))],
                        table,
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        }
        Param::Fact { cell, digit, holds } => fact(*cell, *digit, *holds, table),
        Param::Facts(facts) => list(
            facts.iter().map(|&(c, d, holds)| fact(c, d, holds, table)),
            table,
        ),
        Param::Chain(nodes) => nodes
            .iter()
            .enumerate()
            .map(|(i, &(cell, digit))| {
                let key = if i == 0 {
                    MessageKey::ChainOpen
                } else {
                    MessageKey::ChainLink
                };
                fragment(
                    key,
                    &[("fact", fact(cell, digit, i % 2 == 1, table))],
                    table,
                )
            })
            .collect(),
        Param::Nodes(nodes) => list(
            nodes.iter().map(|&(cell, digit)| {
                fragment(
                    MessageKey::Node,
                    &[("cell", cell_name(cell)), ("digit", digit.to_string())],
                    table,
                )
            }),
            table,
        ),
        Param::Technique(technique) => (table.technique)(*technique).to_owned(),
        Param::Techniques(techniques) => {
            let mut names: Vec<String> = Vec::new();
            for &technique in techniques {
                let name = (table.technique)(technique).to_owned();
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            list(names, table)
        }
    }
}

fn fact(cell: usize, digit: u8, holds: bool, table: &Table) -> String {
    let key = if holds {
        MessageKey::FactTrue
    } else {
        MessageKey::FactFalse
    };
    fragment(
        key,
        &[("cell", cell_name(cell)), ("digit", digit.to_string())],
        table,
    )
}

fn cell_name(cell: usize) -> String {
    CellName(cell).to_string()
}

fn unit_name(unit: usize, table: &Table) -> String {
    format!("{} {}", table.units[unit / 9].0, unit % 9 + 1)
}

/// Units in order, each run of one kind under one plural name (`rows 2 and 6`).
fn units_name(units: &[usize], table: &Table) -> String {
    let same_kind = units.windows(2).all(|w| w[0] / 9 == w[1] / 9);
    if same_kind && units.len() > 1 {
        let numbers = list(units.iter().map(|u| (u % 9 + 1).to_string()), table);
        format!("{} {numbers}", table.units[units[0] / 9].1)
    } else {
        list(units.iter().map(|&u| unit_name(u, table)), table)
    }
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: impl IntoIterator<Item = String>, table: &Table) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {} {last}", rest.join(", "), table.and),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `{name}` placeholders of a template, sorted, without repeats.
    fn placeholders(template: &str) -> Vec<&str> {
        let mut names: Vec<&str> = template
            .split('{')
            .skip(1)
            .filter_map(|part| part.split_once('}').map(|(name, _)| name))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    #[test]
    fn every_template_of_every_table_uses_exactly_its_keys_parameters() {
        for language in Language::ALL {
            let table = language.table();
            for &key in MessageKey::ALL {
                let template = (table.template)(key);
                assert!(!template.trim().is_empty(), "{language:?} {key:?}");
                let mut expected: Vec<&str> = key.params().to_vec();
                expected.sort_unstable();
                assert_eq!(
                    placeholders(template),
                    expected,
                    "{language:?} {key:?}: {template}"
                );
                assert_eq!(
                    template.matches('{').count(),
                    template.matches('}').count(),
                    "{language:?} {key:?}: unbalanced braces"
                );
            }
        }
    }

    #[test]
    fn every_parameter_name_is_known_to_the_renderer() {
        // Each key's parameters are distinct, so none can shadow another.
        for &key in MessageKey::ALL {
            let mut names = key.params().to_vec();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), key.params().len(), "{key:?}");
        }
    }

    #[test]
    fn a_hidden_single_reads_as_players_say_it() {
        let message = Message::new(
            MessageKey::HiddenSingle,
            vec![
                ("unit", Param::Unit(2)),
                ("digit", Param::Digit(7)),
                ("cell", Param::Cell(2 * 9 + 4)),
            ],
        );
        let english = render(&message, Language::English);
        assert!(
            english.starts_with("In row 3, the 7 can only go in r3c5"),
            "{english}"
        );
        let german = render(&message, Language::German);
        assert!(
            german.starts_with("In Zeile 3 kann die 7 nur in r3c5 stehen"),
            "{german}"
        );
    }

    #[test]
    fn lists_units_and_removals_are_written_in_the_language() {
        let en = Language::English.table();
        let de = Language::German.table();
        assert_eq!(list(["a".into()], en), "a");
        assert_eq!(list(["a".into(), "b".into(), "c".into()], en), "a, b and c");
        assert_eq!(list(["a".into(), "b".into()], de), "a und b");
        assert_eq!(units_name(&[1, 5], en), "rows 2 and 6");
        assert_eq!(units_name(&[10, 16], de), "den Spalten 2 und 8");
        assert_eq!(units_name(&[0, 18], en), "row 1 and box 1");
        assert_eq!(unit_name(26, en), "box 9");
        let removals = Param::Removals(vec![(3, 7), (80, 8), (30, 7)]);
        assert_eq!(
            write_param(&removals, en),
            "7 from r1c4 and r4c4; 8 from r9c9"
        );
        let chain = Param::Chain(vec![(1, 5), (64, 5), (67, 5), (13, 5)]);
        assert_eq!(
            write_param(&chain, en),
            "if r1c2 is not 5, then r8c2 is 5, then r8c5 is not 5, then r2c5 is 5"
        );
        assert_eq!(
            write_param(&chain, de),
            "r1c2 ≠ 5 ⇒ r8c2 = 5 ⇒ r8c5 ≠ 5 ⇒ r2c5 = 5"
        );
    }

    #[test]
    fn every_technique_has_a_name_of_its_own_in_every_language() {
        for language in Language::ALL {
            let mut names: Vec<&str> = Technique::ALL
                .iter()
                .map(|&technique| technique_name(technique, language))
                .collect();
            assert!(
                names.iter().all(|name| !name.trim().is_empty()),
                "{language:?}"
            );
            names.sort_unstable();
            names.dedup();
            assert_eq!(
                names.len(),
                Technique::ALL.len(),
                "{language:?}: a name is shared"
            );
        }
        assert_eq!(
            technique_name(Technique::NakedSingle, Language::German),
            "Nackter Einer"
        );
        let pair = Param::Techniques(vec![Technique::HiddenPair, Technique::HiddenPair]);
        assert_eq!(
            write_param(&pair, Language::German.table()),
            "Verstecktes Paar"
        );
    }

    #[test]
    fn tags_name_the_languages_in_any_case() {
        assert_eq!(Language::from_tag("de"), Some(Language::German));
        assert_eq!(Language::from_tag("EN"), Some(Language::English));
        assert_eq!(Language::from_tag("fr"), None);
        for language in Language::ALL {
            assert_eq!(Language::from_tag(language.tag()), Some(language));
        }
    }
}
