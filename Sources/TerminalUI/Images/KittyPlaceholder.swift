/// Kitty's Unicode placeholders: text that a terminal speaking the graphics
/// protocol replaces with part of an image.
///
/// Each cell is U+10EEEE followed by two combining marks that number its row
/// and column; the image id is the text's 24-bit foreground colour. Because
/// it is plain text, a multiplexer such as tmux stores, scrolls and redraws
/// it like any other text, and the outer terminal draws the image wherever
/// it lands (after a virtual placement, `U=1`, was created for the id).
enum KittyPlaceholder {
    static let character: Unicode.Scalar = "\u{10EEEE}"

    /// The largest row or column a placeholder can number.
    static var maximumIndex: Int { diacritics.count - 1 }

    /// Ids must fit the foreground colour (24 bits) and not be zero.
    static let idRange: ClosedRange<UInt32> = 1...0xFF_FFFF

    /// `rows` lines of `columns` placeholder cells for image `id`, each line
    /// self-contained: it sets the id colour and resets the foreground at
    /// its end, so lines can be placed side by side with other text.
    /// Rows and columns beyond `maximumIndex + 1` are not representable and
    /// are cut.
    ///
    /// Only a line's first cell carries its row and column marks: a
    /// placeholder without marks takes the row of the placeholder to its
    /// left in the same colour and the next column (the protocol's rule for
    /// omitted marks), and the id's high byte is zero, so it has no mark.
    /// Two marks a cell were 4 of every 8 bytes an image row cost.
    static func rows(id: UInt32, columns: Int, rows: Int) -> [String] {
        let columns = min(max(0, columns), maximumIndex + 1)
        let rows = min(max(0, rows), maximumIndex + 1)
        let colour = "\u{1B}[38;2;\((id >> 16) & 0xFF);\((id >> 8) & 0xFF);\(id & 0xFF)m"
        return (0..<rows).map { row in
            var line = colour
            guard columns > 0 else { return line + "\u{1B}[39m" }
            line.unicodeScalars.reserveCapacity(colour.unicodeScalars.count + columns + 7)
            line.unicodeScalars.append(character)
            line.unicodeScalars.append(diacritics[row])
            line.unicodeScalars.append(diacritics[0])
            for _ in 1..<columns { line.unicodeScalars.append(character) }
            return line + "\u{1B}[39m"
        }
    }

    /// The combining marks that stand for 0, 1, 2, … in a placeholder, in
    /// order. Kitty's protocol defines the list: the combining class 230
    /// marks of Unicode 6.0 that have no decomposition, minus a few that
    /// normalisation fuses with letters. Kept here as runs of code points.
    static let diacritics: [Unicode.Scalar] = {
        let runs: [ClosedRange<UInt32>] = [
            0x305...0x305, 0x30D...0x30E, 0x310...0x310, 0x312...0x312, 0x33D...0x33F,
            0x346...0x346, 0x34A...0x34C, 0x350...0x352, 0x357...0x357, 0x35B...0x35B,
            0x363...0x36F, 0x483...0x487, 0x592...0x595, 0x597...0x599, 0x59C...0x5A1,
            0x5A8...0x5A9, 0x5AB...0x5AC, 0x5AF...0x5AF, 0x5C4...0x5C4, 0x610...0x617,
            0x657...0x65B, 0x65D...0x65E, 0x6D6...0x6DC, 0x6DF...0x6E2, 0x6E4...0x6E4,
            0x6E7...0x6E8, 0x6EB...0x6EC, 0x730...0x730, 0x732...0x733, 0x735...0x736,
            0x73A...0x73A, 0x73D...0x73D, 0x73F...0x741, 0x743...0x743, 0x745...0x745,
            0x747...0x747, 0x749...0x74A, 0x7EB...0x7F1, 0x7F3...0x7F3, 0x816...0x819,
            0x81B...0x823, 0x825...0x827, 0x829...0x82D, 0x951...0x951, 0x953...0x954,
            0xF82...0xF83, 0xF86...0xF87, 0x135D...0x135F, 0x17DD...0x17DD, 0x193A...0x193A,
            0x1A17...0x1A17, 0x1A75...0x1A7C, 0x1B6B...0x1B6B, 0x1B6D...0x1B73, 0x1CD0...0x1CD2,
            0x1CDA...0x1CDB, 0x1CE0...0x1CE0, 0x1DC0...0x1DC1, 0x1DC3...0x1DC9, 0x1DCB...0x1DCC,
            0x1DD1...0x1DE6, 0x1DFE...0x1DFE, 0x20D0...0x20D1, 0x20D4...0x20D7, 0x20DB...0x20DC,
            0x20E1...0x20E1, 0x20E7...0x20E7, 0x20E9...0x20E9, 0x20F0...0x20F0, 0x2CEF...0x2CF1,
            0x2DE0...0x2DFF, 0xA66F...0xA66F, 0xA67C...0xA67D, 0xA6F0...0xA6F1, 0xA8E0...0xA8F1,
            0xAAB0...0xAAB0, 0xAAB2...0xAAB3, 0xAAB7...0xAAB8, 0xAABE...0xAABF, 0xAAC1...0xAAC1,
            0xFE20...0xFE26, 0x10A0F...0x10A0F, 0x10A38...0x10A38, 0x1D185...0x1D189,
            0x1D1AA...0x1D1AD, 0x1D242...0x1D244,
        ]
        return runs.flatMap { $0 }.compactMap(Unicode.Scalar.init)
    }()
}
