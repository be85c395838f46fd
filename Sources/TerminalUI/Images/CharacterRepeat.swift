/// REP (`ESC [ n b`, ECMA-48): "print the character before this n more
/// times". Symbol thumbnails are mostly runs of one block character in one
/// colour (a sky, a wall): chafa already writes each colour once per run,
/// but every cell of the run still costs 3 bytes of UTF-8. Written as one
/// character and a REP, a page of 30 at 120 columns loses about a third of
/// its bytes, and the terminal draws exactly the same cells.
///
/// Only for terminals known to understand it (`TerminalGraphics.repeatsCharacters`):
/// one that does not would skip the REP and leave the row short.
enum CharacterRepeat {
    /// `line` with every run of one character, with no escape sequence
    /// inside it, written as the character and a REP wherever that is
    /// shorter. Escape sequences and everything else pass unchanged.
    static func compress(_ line: some StringProtocol) -> String {
        var output: [UInt8] = []
        compress(Array(line.utf8)[...], into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `bytes` (UTF-8 text with escape sequences) to `output`,
    /// runs compressed as `compress(_:)` says.
    static func compress(_ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0x1B {
                let end = escapeEnd(bytes, from: index)
                output += bytes[index..<end]
                index = end
                continue
            }
            let length = characterLength(bytes, at: index)
            let character = bytes[index..<index + length]
            var run = 1
            var next = index + length
            while next + length <= bytes.endIndex, bytes[next..<next + length].elementsEqual(character) {
                run += 1
                next += length
            }
            output += character
            let repeats = run - 1
            // A control character is not "graphic": REP after it means nothing.
            if repeats > 0, character.first.map({ $0 >= 0x20 && $0 != 0x7F }) == true,
               repeatCost(repeats) < repeats * length {
                output += [0x1B, UInt8(ascii: "[")] + Array(String(repeats).utf8) + [UInt8(ascii: "b")]
            } else if repeats > 0 {
                for _ in 0..<repeats { output += character }
            }
            index = next
        }
    }

    /// `line` with every REP written out as the characters it stands for:
    /// what a terminal prints, for measuring display width and for tests.
    static func expand(_ line: some StringProtocol) -> String {
        let bytes = Array(line.utf8)[...]
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var last: ArraySlice<UInt8>?
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0x1B {
                let end = escapeEnd(bytes, from: index)
                if let count = repeatCount(bytes[index..<end]), let character = last {
                    for _ in 0..<count { output += character }
                } else {
                    output += bytes[index..<end]
                }
                index = end
                continue
            }
            let length = characterLength(bytes, at: index)
            last = bytes[index..<index + length]
            output += bytes[index..<index + length]
            index += length
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Bytes of the REP for `count` repeats.
    static func repeatCost(_ count: Int) -> Int {
        3 + String(count).utf8.count
    }

    /// The count of a REP sequence (`ESC [ digits b`; no digits means 1), or nil.
    static func repeatCount(_ sequence: ArraySlice<UInt8>) -> Int? {
        guard sequence.count >= 3, sequence.last == UInt8(ascii: "b"),
              sequence[sequence.startIndex + 1] == UInt8(ascii: "[") else { return nil }
        let digits = sequence.dropFirst(2).dropLast()
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        guard !digits.isEmpty else { return 1 }
        return Int(String(decoding: digits, as: UTF8.self)).map { max(1, $0) }
    }

    /// Where the escape sequence starting at `start` ends: after a CSI's
    /// final byte, or after the byte that follows a lone ESC.
    private static func escapeEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        var index = start + 1
        guard index < bytes.endIndex else { return bytes.endIndex }
        guard bytes[index] == UInt8(ascii: "[") else { return index + 1 }
        index += 1
        while index < bytes.endIndex {
            if (0x40...0x7E).contains(bytes[index]) { return index + 1 }
            index += 1
        }
        return bytes.endIndex
    }

    /// Bytes of the UTF-8 character at `index` (1 for a stray byte), never
    /// past the end.
    private static func characterLength(_ bytes: ArraySlice<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0xC0...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF7: length = 4
        default: length = 1
        }
        return min(length, bytes.endIndex - index)
    }
}
