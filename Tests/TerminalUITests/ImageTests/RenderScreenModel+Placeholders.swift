@testable import TerminalUI

/// Kitty's Unicode placeholders as the terminal resolves them: each
/// placeholder cell names an image (its foreground colour), a row and a
/// column; marks left out are taken from the placeholder to the left, by
/// the protocol's three rules.
extension RenderScreenModel {
    struct ImagePart: Equatable, CustomStringConvertible {
        var image: UInt32
        var row: Int
        var column: Int

        var description: String { "image \(image) row \(row) column \(column)" }
    }

    /// Every placeholder cell resolved, by screen row and column; nil for
    /// other cells. A placeholder the rules cannot resolve (no row mark and
    /// nothing to inherit from) is recorded in `unresolved`.
    func placeholderParts() -> (parts: [[ImagePart?]], unresolved: [(row: Int, column: Int)]) {
        var unresolved: [(row: Int, column: Int)] = []
        let index = Dictionary(
            KittyPlaceholder.diacritics.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let parts = rows.enumerated().map { screenRow, cells -> [ImagePart?] in
            var resolved: [ImagePart?] = []
            var left: (part: ImagePart, colour: Colour?, highByte: Int)?
            for (screenColumn, cell) in cells.enumerated() {
                guard let cell, cell.character.unicodeScalars.first == KittyPlaceholder.character,
                      case .rgb(let red, let green, let blue)? = cell.foreground
                else {
                    resolved.append(nil)
                    left = nil
                    continue
                }
                let marks = cell.character.unicodeScalars.dropFirst().map { index[$0] ?? -1 }
                let sameColour = left?.colour == cell.foreground
                let low = UInt32(red << 16 | green << 8 | blue)
                var part: ImagePart
                var highByte = 0
                switch marks.count {
                case 0:
                    guard let left, sameColour else {
                        unresolved.append((screenRow, screenColumn))
                        resolved.append(nil)
                        continue
                    }
                    part = ImagePart(image: low, row: left.part.row, column: left.part.column + 1)
                    highByte = left.highByte
                case 1:
                    let follows = left.map { sameColour && $0.part.row == marks[0] } ?? false
                    part = ImagePart(image: low, row: marks[0], column: follows ? (left?.part.column ?? -1) + 1 : 0)
                    highByte = follows ? left?.highByte ?? 0 : 0
                default:
                    part = ImagePart(image: low, row: marks[0], column: marks[1])
                    if marks.count > 2 {
                        highByte = marks[2]
                    } else if let left, sameColour, left.part.row == marks[0], left.part.column + 1 == marks[1] {
                        highByte = left.highByte
                    }
                }
                part.image |= UInt32(highByte) << 24
                resolved.append(part)
                left = (part, cell.foreground, highByte)
            }
            return resolved
        }
        return (parts, unresolved)
    }
}
