//! The English table: the first one, and the one every other language falls back to.

use super::{MessageKey, Table};
use crate::logic::Technique;

/// English.
pub(super) static TABLE: Table = Table {
    template,
    and: "and",
    units: [("row", "rows"), ("column", "columns"), ("box", "boxes")],
    technique: Technique::display_name,
};

fn template(key: MessageKey) -> &'static str {
    match key {
        MessageKey::Solved => {
            "The puzzle is solved: every row, column and box holds each digit once."
        }
        MessageKey::WrongDigit => {
            "The digit in {cell} does not fit the solution. Erase it first: every step from \
             here would build on it."
        }
        MessageKey::WrongPencilMarks => {
            "Your pencil marks in {cell} do not include the digit that goes there. Pencil it \
             in first: every step from here would build on them."
        }
        MessageKey::NoPencilMarks => {
            "You removed every pencil mark of {cell}, but it still needs a digit: pencil its \
             candidates back in."
        }
        MessageKey::StalePencilMarks => {
            "Your pencil marks in {cell} ({digits}) are all digits already placed in its row, \
             column or box, and it still needs a digit: pencil in the ones it can take."
        }
        MessageKey::Stuck => {
            "None of the techniques I know finds a step from here, so here is one digit to go \
             on with: {cell} is {digit}."
        }
        MessageKey::LastValue => {
            "{cell} is the last empty cell of {unit}, so it takes the one digit missing \
             there: {digit}."
        }
        MessageKey::HiddenSingle => {
            "In {unit}, the {digit} can only go in {cell}: every other cell of {unit} is \
             filled or cannot hold it."
        }
        MessageKey::NakedSingle => {
            "{cell} can only hold {digit}: every other digit is already in its row, column or \
             box, or has been ruled out."
        }
        MessageKey::Pointing => {
            "In {box}, the {digit} can only go in {cells}, all in {line}. So the {digit} of \
             {line} is in {box}: remove {digit} from {removed}."
        }
        MessageKey::DirectPointing => {
            "In {box}, the {digit} can only go in {cells}, all in {line}. So the {digit} of \
             {line} is in {box}: remove {digit} from {removed}. That leaves {single} as the \
             only place for {digit} in {single_unit}."
        }
        MessageKey::Claiming => {
            "In {line}, the {digit} can only go in {cells}, all in {box}. So the {digit} of \
             {box} is in {line}: remove {digit} from {removed}."
        }
        MessageKey::DirectClaiming => {
            "In {line}, the {digit} can only go in {cells}, all in {box}. So the {digit} of \
             {box} is in {line}: remove {digit} from {removed}. That leaves {single} as the \
             only place for {digit} in {single_unit}."
        }
        MessageKey::NakedSubset => {
            "{cells} hold only {digits} between them, so these digits go in these cells and \
             nowhere else in {units}: remove {removals}."
        }
        MessageKey::HiddenSubset => {
            "In {unit}, the digits {digits} can only go in {cells}, so these cells hold \
             nothing else: remove {removals}."
        }
        MessageKey::DirectHiddenSubset => {
            "In {unit}, the digits {digits} can only go in {cells}, so these cells hold \
             nothing else: remove {removals}. That leaves {single} as the only place for \
             {single_digit} in {single_unit}."
        }
        MessageKey::Fish => {
            "In {base}, the {digit} can only go in {cover}. So every {digit} of {cover} lies \
             in {base}, and no other cell of {cover} can hold one: remove {digit} from \
             {removed}."
        }
        MessageKey::FinnedFish => {
            "In {base}, the {digit} can only go in {cover}, except in {box}, at {fins} (the \
             fin). Either every {digit} of {cover} lies in {base}, or the fin holds one: \
             either way, the cells of {box} in {cover} outside {base} cannot. Remove {digit} \
             from {removed}."
        }
        MessageKey::StrongLinks => {
            "In {units}, the {digit} has just two places each, and these links join up: \
             {chain}. So {first} or {last}, and a cell that sees both cannot hold {digit}: \
             remove {digit} from {removed}."
        }
        MessageKey::XyWing => {
            "{pivot} holds {pivot_digits} and sees {a} ({a_digits}) and {b} ({b_digits}). \
             Whichever digit {pivot} takes, {a} or {b} is {digit}, so a cell that sees both \
             cannot be: remove {digit} from {removed}."
        }
        MessageKey::XyzWing => {
            "{pivot} holds {pivot_digits} and sees {a} ({a_digits}) and {b} ({b_digits}). \
             Whichever digit {pivot} takes, one of the three is {digit}, so a cell that sees \
             all three cannot be: remove {digit} from {removed}."
        }
        MessageKey::WWing => {
            "{first} and {second} both hold only {digits}, and in {unit} the {link} can only \
             go in {ends}, each seeing one of them. So they cannot both be {link}: one of them \
             is {digit}, and a cell that sees both cannot be. Remove {digit} from {removed}."
        }
        MessageKey::UniqueRectangle1 => {
            "{floor} hold only {digits}. If {roof} held only {digits} too, the four cells \
             could swap their digits and the puzzle would have two solutions. So {roof} holds \
             neither: remove {digits} from {roof}."
        }
        MessageKey::UniqueRectangle2 => {
            "{floor} hold only {digits}, and {roof} only {digits} and {extra}. If neither of \
             {roof} were {extra}, the four cells could swap {digits} and the puzzle would \
             have two solutions. So one of them is {extra}, and a cell that sees both cannot \
             be: remove {extra} from {removed}."
        }
        MessageKey::UniqueRectangle4 => {
            "{floor} hold only {digits}, and in {unit} the {locked} can only go in {roof}, so \
             one of them is {locked}. If the other were {other}, the four cells could swap \
             {digits} and the puzzle would have two solutions: remove {other} from {roof}."
        }
        MessageKey::AlsWing => {
            "{cells} in {unit} hold {digits} between them, one digit more than cells, and \
             {pivot} holds {pivot_digits}. Whichever digit {pivot} takes, the digits removed \
             here end up in {pivot} or in those cells, so a cell that sees all their places \
             cannot hold them: remove {removals}."
        }
        MessageKey::Bug => {
            "Every empty cell but {cell} has exactly two candidates. Were {cell} not {digit}, \
             every digit would have exactly two places in each row, column and box, and the \
             puzzle would have two solutions or none. So {cell} is {digit}."
        }
        MessageKey::Cycle => {
            "The candidates {nodes} form a closed loop in which, whichever way the truth \
             runs, every link has exactly one true end. So a candidate that sees both ends of \
             a link is false: remove {removals}."
        }
        MessageKey::ChainElimination => {
            "Either {first} or {last}: {chain}. A candidate that sees both ends is false: \
             remove {removals}."
        }
        MessageKey::ChainPlacement => {
            "If {cell} were not {digit}, it would have to be {digit} after all: {chain}. So \
             {cell} is {digit}."
        }
        MessageKey::CellForcing => {
            "{cell} holds one of {digits}, and whichever it holds, the chains of consequences \
             from it all lead to one result: {conclusion}."
        }
        MessageKey::RegionForcing => {
            "In {unit}, the {digit} goes in one of {cells}, and wherever it goes, the chains \
             of consequences from it all lead to one result: {conclusion}."
        }
        MessageKey::Nishio => {
            "If {cell} were {digit}, following the {digit}s alone would leave a row, column or \
             box with no place for {digit}. So {cell} is not {digit}."
        }
        MessageKey::Contradiction => {
            "Assuming {assumption} leads, step by step, to a contradiction. So {conclusion}."
        }
        MessageKey::DoubleForcing => {
            "Whether a candidate of {cell} is true or false, the consequences agree: \
             {conclusion}."
        }
        MessageKey::NestedForcing => {
            "Following the consequences from {cells}, with further techniques applied along \
             the way, every case leads to one result: {conclusion}."
        }
        MessageKey::Generic => "{technique}: {conclusions}.",
        MessageKey::NudgeArea => "The next step is in {units}.",
        MessageKey::NudgeMistake => "One of your digits in {unit} does not fit the solution.",
        MessageKey::NudgePencilMarks => {
            "A cell in {unit} is missing the pencil mark of the digit that goes there."
        }
        MessageKey::TechniqueStage => "The technique that finds it: {technique}.",
        MessageKey::TechniqueDeduction => {
            "First rule candidates out ({reasons}), then place a digit ({technique})."
        }
        MessageKey::CellsNakedSingle => {
            "Look at {cell}: its row, column and box already hold {digits}."
        }
        MessageKey::CellsHiddenSingle => {
            "Because of the {digit} in {cells}, only one open cell of {unit} can hold the {digit}."
        }
        MessageKey::CellsLastValue => "{cell} is the only empty cell left in {unit}.",
        MessageKey::CellsPattern => "Look at {cells} and their candidates {digits}.",
        MessageKey::CellsDeduction => {
            "Look at {cells} and their candidates {digits}: what they rule out leaves one \
             answer in {units}."
        }
        MessageKey::FactTrue => "{cell} is {digit}",
        MessageKey::FactFalse => "{cell} is not {digit}",
        MessageKey::ChainOpen => "if {fact}",
        MessageKey::ChainLink => ", then {fact}",
        MessageKey::RemovalGroup => "{digit} from {cells}",
        MessageKey::Node => "{digit} in {cell}",
    }
}
