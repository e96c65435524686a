//! The German table. Facts and chains are written as `r3c5 = 7`, `r3c5 ≠ 7` and `⇒`, the
//! way German Sudoku forums write them, which spares the verb-final word order of a clause
//! built from parts.

use super::{MessageKey, Table};
use crate::logic::Technique;

/// German.
pub(super) static TABLE: Table = Table {
    template,
    and: "und",
    // The plural carries its article: a list of lines follows a preposition ("in den
    // Zeilen 2 und 6"), a single one does not ("in Zeile 3").
    units: [
        ("Zeile", "den Zeilen"),
        ("Spalte", "den Spalten"),
        ("Block", "den Blöcken"),
    ],
    technique,
};

fn template(key: MessageKey) -> &'static str {
    match key {
        MessageKey::Solved => {
            "Das Rätsel ist gelöst: Jede Zeile, jede Spalte und jeder Block enthält jede \
             Ziffer genau einmal."
        }
        MessageKey::WrongDigit => {
            "Die Ziffer in {cell} passt nicht zur Lösung. Lösche sie zuerst: Jeder weitere \
             Schritt würde auf ihr aufbauen."
        }
        MessageKey::WrongPencilMarks => {
            "Deine Notizen in {cell} enthalten die Ziffer nicht, die dorthin gehört. Trage sie \
             zuerst ein: Jeder weitere Schritt würde auf ihnen aufbauen."
        }
        MessageKey::NoPencilMarks => {
            "Du hast alle Notizen in {cell} entfernt, aber das Feld braucht noch eine Ziffer: \
             Trage seine Kandidaten wieder ein."
        }
        MessageKey::StalePencilMarks => {
            "Deine Notizen in {cell} ({digits}) stehen alle schon in seiner Zeile, seiner \
             Spalte oder seinem Block, und das Feld braucht noch eine Ziffer: Notiere die \
             Ziffern, die es aufnehmen kann."
        }
        MessageKey::Stuck => {
            "Keine der Techniken, die ich kenne, findet von hier aus einen Schritt. Hier ist \
             eine Ziffer zum Weitermachen: In {cell} steht die {digit}."
        }
        MessageKey::LastValue => {
            "{cell} ist das letzte leere Feld in {unit} und bekommt die einzige Ziffer, die \
             dort noch fehlt: die {digit}."
        }
        MessageKey::HiddenSingle => {
            "In {unit} kann die {digit} nur in {cell} stehen: Jedes andere Feld in {unit} ist \
             belegt oder kann keine {digit} aufnehmen."
        }
        MessageKey::NakedSingle => {
            "In {cell} kann nur die {digit} stehen: Jede andere Ziffer steht schon in seiner \
             Zeile, seiner Spalte oder seinem Block oder ist ausgeschlossen."
        }
        MessageKey::Pointing => {
            "In {box} kann die {digit} nur in {cells} stehen, alle in {line}. Die {digit} von \
             {line} steht also in {box}: Entferne die {digit} aus {removed}."
        }
        MessageKey::DirectPointing => {
            "In {box} kann die {digit} nur in {cells} stehen, alle in {line}. Die {digit} von \
             {line} steht also in {box}: Entferne die {digit} aus {removed}. Damit bleibt für \
             die {digit} in {single_unit} nur noch {single}."
        }
        MessageKey::Claiming => {
            "In {line} kann die {digit} nur in {cells} stehen, alle in {box}. Die {digit} von \
             {box} steht also in {line}: Entferne die {digit} aus {removed}."
        }
        MessageKey::DirectClaiming => {
            "In {line} kann die {digit} nur in {cells} stehen, alle in {box}. Die {digit} von \
             {box} steht also in {line}: Entferne die {digit} aus {removed}. Damit bleibt für \
             die {digit} in {single_unit} nur noch {single}."
        }
        MessageKey::NakedSubset => {
            "{cells} enthalten zusammen nur {digits}. Diese Ziffern stehen also in diesen \
             Feldern und nirgends sonst in {units}: Entferne {removals}."
        }
        MessageKey::HiddenSubset => {
            "In {unit} können die Ziffern {digits} nur in {cells} stehen, also enthalten diese \
             Felder nichts anderes: Entferne {removals}."
        }
        MessageKey::DirectHiddenSubset => {
            "In {unit} können die Ziffern {digits} nur in {cells} stehen, also enthalten diese \
             Felder nichts anderes: Entferne {removals}. Damit bleibt für die {single_digit} \
             in {single_unit} nur noch {single}."
        }
        MessageKey::Fish => {
            "In {base} kann die {digit} nur in {cover} stehen. Jede {digit} in {cover} liegt \
             also in {base}, und kein anderes Feld in {cover} kann eine enthalten: Entferne \
             die {digit} aus {removed}."
        }
        MessageKey::FinnedFish => {
            "In {base} kann die {digit} nur in {cover} stehen, außer in {box} bei {fins} (der \
             Flosse). Entweder liegt jede {digit} in {cover} in {base}, oder die Flosse \
             enthält eine: In beiden Fällen können die Felder von {box} in {cover}, die nicht \
             in {base} liegen, keine enthalten. Entferne die {digit} aus {removed}."
        }
        MessageKey::StrongLinks => {
            "Die {digit} hat in {units} jeweils nur zwei Plätze, und diese Verbindungen \
             schließen aneinander an: {chain}. Also gilt {first} oder {last}, und ein Feld, \
             das beide sieht, kann keine {digit} enthalten: Entferne die {digit} aus \
             {removed}."
        }
        MessageKey::XyWing => {
            "{pivot} enthält {pivot_digits} und sieht {a} ({a_digits}) und {b} ({b_digits}). \
             Welche Ziffer {pivot} auch bekommt, in {a} oder {b} steht die {digit}, also kann \
             ein Feld, das beide sieht, keine enthalten: Entferne die {digit} aus {removed}."
        }
        MessageKey::XyzWing => {
            "{pivot} enthält {pivot_digits} und sieht {a} ({a_digits}) und {b} ({b_digits}). \
             Welche Ziffer {pivot} auch bekommt, in einem der drei Felder steht die {digit}, \
             also kann ein Feld, das alle drei sieht, keine enthalten: Entferne die {digit} \
             aus {removed}."
        }
        MessageKey::WWing => {
            "{first} und {second} enthalten beide nur {digits}, und in {unit} kann die {link} \
             nur in {ends} stehen, die je eines der beiden sehen. Also können nicht beide die \
             {link} enthalten: In einem steht die {digit}, und ein Feld, das beide sieht, kann \
             keine enthalten. Entferne die {digit} aus {removed}."
        }
        MessageKey::UniqueRectangle1 => {
            "{floor} enthalten nur {digits}. Enthielte auch {roof} nur {digits}, könnten die \
             vier Felder ihre Ziffern tauschen, und das Rätsel hätte zwei Lösungen. Also \
             enthält {roof} keine davon: Entferne {digits} aus {roof}."
        }
        MessageKey::UniqueRectangle2 => {
            "{floor} enthalten nur {digits}, {roof} nur {digits} und {extra}. Enthielte keines \
             von {roof} die {extra}, könnten die vier Felder {digits} tauschen, und das Rätsel \
             hätte zwei Lösungen. Also enthält eines davon die {extra}, und ein Feld, das \
             beide sieht, kann keine enthalten: Entferne die {extra} aus {removed}."
        }
        MessageKey::UniqueRectangle4 => {
            "{floor} enthalten nur {digits}, und in {unit} kann die {locked} nur in {roof} \
             stehen, also enthält eines davon die {locked}. Enthielte das andere die {other}, \
             könnten die vier Felder {digits} tauschen, und das Rätsel hätte zwei Lösungen: \
             Entferne die {other} aus {roof}."
        }
        MessageKey::AlsWing => {
            "{cells} in {unit} enthalten zusammen {digits}, eine Ziffer mehr als Felder, und \
             {pivot} enthält {pivot_digits}. Welche Ziffer {pivot} auch bekommt, die hier \
             entfernten Ziffern landen in {pivot} oder in diesen Feldern, also kann ein Feld, \
             das alle ihre Plätze sieht, sie nicht enthalten: Entferne {removals}."
        }
        MessageKey::Bug => {
            "Jedes leere Feld außer {cell} hat genau zwei Kandidaten. Stünde in {cell} nicht \
             die {digit}, hätte jede Ziffer in jeder Zeile, Spalte und jedem Block genau zwei \
             Plätze, und das Rätsel hätte zwei Lösungen oder keine. Also steht in {cell} die \
             {digit}."
        }
        MessageKey::Cycle => {
            "Die Kandidaten {nodes} bilden eine geschlossene Schleife, in der jede Verbindung \
             genau ein wahres Ende hat, in welche Richtung die Wahrheit auch läuft. Ein \
             Kandidat, der beide Enden einer Verbindung sieht, ist also falsch: Entferne \
             {removals}."
        }
        MessageKey::ChainElimination => {
            "Es gilt {first} oder {last}: {chain}. Ein Kandidat, der beide Enden sieht, ist \
             falsch: Entferne {removals}."
        }
        MessageKey::ChainPlacement => {
            "Stünde in {cell} nicht die {digit}, müsste sie doch dort stehen: {chain}. Also \
             steht in {cell} die {digit}."
        }
        MessageKey::CellForcing => {
            "{cell} enthält eine der Ziffern {digits}, und welche es auch ist, alle \
             Folgerungsketten daraus führen zum selben Ergebnis: {conclusion}."
        }
        MessageKey::RegionForcing => {
            "In {unit} steht die {digit} in einem der Felder {cells}, und wo sie auch steht, \
             alle Folgerungsketten daraus führen zum selben Ergebnis: {conclusion}."
        }
        MessageKey::Nishio => {
            "Stünde in {cell} die {digit}, ließe das Verfolgen der {digit} allein einer Zeile, \
             einer Spalte oder einem Block keinen Platz für die {digit}. Also steht in {cell} \
             keine {digit}."
        }
        MessageKey::Contradiction => {
            "Die Annahme {assumption} führt Schritt für Schritt zu einem Widerspruch. Also \
             gilt {conclusion}."
        }
        MessageKey::DoubleForcing => {
            "Ob ein Kandidat von {cell} wahr ist oder falsch, die Folgerungen stimmen überein: \
             {conclusion}."
        }
        MessageKey::NestedForcing => {
            "Verfolgt man die Folgerungen aus {cells}, mit weiteren Techniken unterwegs, führt \
             jeder Fall zum selben Ergebnis: {conclusion}."
        }
        MessageKey::Generic => "{technique}: {conclusions}.",
        MessageKey::NudgeArea => "Der nächste Schritt liegt in {units}.",
        MessageKey::NudgeMistake => "Eine deiner Ziffern in {unit} passt nicht zur Lösung.",
        MessageKey::NudgePencilMarks => {
            "Einem Feld in {unit} fehlt die Notiz der Ziffer, die dorthin gehört."
        }
        MessageKey::TechniqueStage => "Die Technik, die ihn findet: {technique}.",
        MessageKey::TechniqueDeduction => {
            "Zuerst Kandidaten ausschließen ({reasons}), dann eine Ziffer setzen ({technique})."
        }
        MessageKey::CellsNakedSingle => {
            "Sieh dir {cell} an: Seine Zeile, seine Spalte und sein Block enthalten schon \
             {digits}."
        }
        MessageKey::CellsHiddenSingle => {
            "Wegen der {digit} in {cells} kann die {digit} in {unit} nur noch in einem freien \
             Feld stehen."
        }
        MessageKey::CellsLastValue => "{cell} ist das einzige leere Feld in {unit}.",
        MessageKey::CellsPattern => "Sieh dir {cells} mit den Kandidaten {digits} an.",
        MessageKey::CellsDeduction => {
            "Sieh dir {cells} mit den Kandidaten {digits} an: Was sie ausschließen, lässt in \
             {units} nur eine Möglichkeit."
        }
        MessageKey::FactTrue => "{cell} = {digit}",
        MessageKey::FactFalse => "{cell} ≠ {digit}",
        MessageKey::ChainOpen => "{fact}",
        MessageKey::ChainLink => " ⇒ {fact}",
        MessageKey::RemovalGroup => "{digit} aus {cells}",
        MessageKey::Node => "{digit} in {cell}",
    }
}

/// The names German players use: HoDoKu's German table and the German Sudoku forums
/// translate the simple techniques and keep the English names of the exotic ones.
fn technique(technique: Technique) -> &'static str {
    use Technique as T;
    match technique {
        T::LastValue => "Letzte freie Zelle",
        T::HiddenSingleBox => "Versteckter Einer im Block",
        T::HiddenSingleLine => "Versteckter Einer in der Linie",
        T::DirectPointing => "Direktes Pointing",
        T::DirectClaiming => "Direktes Claiming",
        T::DirectHiddenPair => "Direktes verstecktes Paar",
        T::NakedSingle => "Nackter Einer",
        T::DirectHiddenTriple => "Direkter versteckter Dreier",
        T::Pointing => "Pointing (Reihe im Block)",
        T::Claiming => "Claiming (Block in der Reihe)",
        T::NakedPair => "Nacktes Paar",
        T::XWing => "X-Wing",
        T::HiddenPair => "Verstecktes Paar",
        T::NakedTriple => "Nackter Dreier",
        T::Swordfish => "Schwertfisch",
        T::HiddenTriple => "Versteckter Dreier",
        T::TwoStrongLinks => "Zwei starke Verbindungen",
        T::XyWing => "XY-Wing",
        T::XyzWing => "XYZ-Wing",
        T::UniqueRectangle1 => "Eindeutiges Rechteck Typ 1",
        T::UniqueRectangle2 => "Eindeutiges Rechteck Typ 2",
        T::UniqueRectangle4 => "Eindeutiges Rechteck Typ 4",
        T::NakedQuad => "Nackter Vierer",
        T::Jellyfish => "Qualle",
        T::HiddenQuad => "Versteckter Vierer",
        T::ThreeStrongLinks => "Drei starke Verbindungen",
        T::WxyzWing => "WXYZ-Wing",
        T::Bug1 => "BUG + 1 (bivalentes Grab)",
        T::FourStrongLinks => "Vier starke Verbindungen",
        T::VwxyzWing => "VWXYZ-Wing",
        T::FinnedXWing => "X-Wing mit Flosse",
        T::FinnedSwordfish => "Schwertfisch mit Flosse",
        T::FinnedJellyfish => "Qualle mit Flosse",
        T::XCycle => "X-Zyklus",
        T::YCycle => "Y-Zyklus",
        T::XChain => "X-Kette",
        T::WWing => "W-Wing",
        T::XyChain => "XY-Kette",
        T::XyCycle => "Bidirektionaler Zyklus",
        T::Aic => "Alternierende Inferenzkette",
        T::RegionForcingChains => "Erzwingungsketten über eine Einheit",
        T::CellForcingChains => "Erzwingungsketten über ein Feld",
        T::NishioForcingChains => "Nishio-Erzwingungsketten",
        T::DynamicContradictionForcingChains => "Dynamische Widerspruchsketten",
        T::DynamicDoubleForcingChains => "Dynamische doppelte Erzwingungsketten",
        T::DynamicCellForcingChains => "Dynamische Erzwingungsketten über ein Feld",
        T::DynamicRegionForcingChains => "Dynamische Erzwingungsketten über eine Einheit",
        T::DynamicForcingChainsPlus => "Dynamische Erzwingungsketten (+)",
        T::NestedForcingChains => "Verschachtelte Erzwingungsketten",
    }
}
