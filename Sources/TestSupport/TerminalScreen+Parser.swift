/// The byte-level parser: UTF-8, C0 controls, ESC, CSI and the strings
/// (OSC, DCS, APC, PM, SOS) that are skipped whole.
extension TerminalScreen {
    // MARK: - Parser

    mutating func consume(_ byte: UInt8) {
        switch state {
        case .ground:
            consumeGround(byte)
        case .escape:
            consumeEscape(byte)
        case .escapeIntermediate:
            if byte == 0x1B {
                state = .escape
            } else if byte >= 0x30 && byte <= 0x7E {
                state = .ground
            } else if byte < 0x20 {
                executeControl(byte)
            }
        case .csi:
            consumeCSI(byte)
        case .string(let isOSC):
            if byte == 0x1B {
                state = .stringEscape
            } else if isOSC && byte == 0x07 {
                state = .ground
            } else if byte == 0x18 || byte == 0x1A {
                deviceControl = nil
                state = .ground
            } else if deviceControl != nil {
                deviceControl?.append(byte)
            }
        case .stringEscape:
            if byte == UInt8(ascii: "\\") {
                state = .ground
                if let body = deviceControl {
                    deviceControl = nil
                    finishDeviceControl(body)
                }
            } else {
                // ESC inside a string aborts it and starts a new sequence.
                deviceControl = nil
                state = .escape
                consumeEscape(byte)
            }
        }
    }

    mutating func consumeGround(_ byte: UInt8) {
        if utf8Expected > 0 {
            if byte & 0xC0 == 0x80 {
                utf8Pending.append(byte)
                if utf8Pending.count == utf8Expected { flushUTF8() }
                return
            }
            // A broken sequence shows as a replacement character, as terminals do.
            utf8Pending.removeAll()
            utf8Expected = 0
            printScalar("\u{FFFD}")
        }
        switch byte {
        case 0x1B:
            state = .escape
        case 0x00..<0x20, 0x7F:
            executeControl(byte)
        case 0x20..<0x7F:
            printScalar(Unicode.Scalar(byte))
        case 0xC2...0xDF:
            utf8Pending = [byte]
            utf8Expected = 2
        case 0xE0...0xEF:
            utf8Pending = [byte]
            utf8Expected = 3
        case 0xF0...0xF4:
            utf8Pending = [byte]
            utf8Expected = 4
        default:
            printScalar("\u{FFFD}")
        }
    }

    mutating func flushUTF8() {
        let bytes = utf8Pending
        utf8Pending.removeAll()
        utf8Expected = 0
        let decoded = String(decoding: bytes, as: UTF8.self)
        for scalar in decoded.unicodeScalars { printScalar(scalar) }
    }

    mutating func consumeEscape(_ byte: UInt8) {
        state = .ground
        switch byte {
        case UInt8(ascii: "["):
            sequence.removeAll()
            state = .csi
        case UInt8(ascii: "]"):
            state = .string(isOSC: true)
        case UInt8(ascii: "P"):
            deviceControl = []
            state = .string(isOSC: false)
        case UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
            state = .string(isOSC: false)
        case UInt8(ascii: "7"):
            saveCursor()
        case UInt8(ascii: "8"):
            restoreCursor()
        case UInt8(ascii: "D"):
            lineFeed()
        case UInt8(ascii: "E"):
            column = 0
            lineFeed()
        case UInt8(ascii: "M"):
            reverseIndex()
        case UInt8(ascii: "c"):
            reset()
        case 0x1B:
            state = .escape
        case 0x20...0x2F:
            state = .escapeIntermediate
        case 0x00..<0x20:
            executeControl(byte)
        default:
            // ESC = / ESC > (keypad modes) and other single-byte escapes change nothing visible.
            break
        }
    }

    mutating func consumeCSI(_ byte: UInt8) {
        switch byte {
        case 0x40...0x7E:
            state = .ground
            executeCSI(final: byte, body: sequence)
            sequence.removeAll()
        case 0x20...0x3F:
            sequence.append(byte)
        case 0x1B:
            sequence.removeAll()
            state = .escape
        case 0x18, 0x1A:
            sequence.removeAll()
            state = .ground
        case 0x00..<0x20:
            executeControl(byte)
        default:
            break
        }
    }

    mutating func executeControl(_ byte: UInt8) {
        switch byte {
        case 0x08:  // BS
            if pendingWrap {
                pendingWrap = false
            }
            column = max(0, column - 1)
        case 0x09:  // TAB
            pendingWrap = false
            column = min(columns - 1, (column / 8 + 1) * 8)
        case 0x0A, 0x0B, 0x0C:  // LF, VT, FF
            lineFeed()
        case 0x0D:  // CR
            pendingWrap = false
            column = 0
        default:
            // BEL, NUL, SO/SI and the rest draw nothing.
            break
        }
    }

    mutating func executeCSI(final: UInt8, body: [UInt8]) {
        let isPrivate = body.first.map { $0 >= 0x3C && $0 <= 0x3F } ?? false
        let hasIntermediate = body.contains { $0 >= 0x20 && $0 <= 0x2F }
        if isPrivate || hasIntermediate {
            // Private modes (?2004h, ?25l, ?1049h ...) and the like: nothing to draw.
            return
        }
        let params = Self.parameters(body)
        func count(_ index: Int = 0) -> Int { max(1, params.count > index ? params[index] : 0) }
        func value(_ index: Int = 0) -> Int { params.count > index ? params[index] : 0 }

        switch final {
        case UInt8(ascii: "A"):
            moveCursor(row: max(row >= scrollTop ? scrollTop : 0, row - count()), column: column)
        case UInt8(ascii: "B"), UInt8(ascii: "e"):
            moveCursor(row: min(row <= scrollBottom ? scrollBottom : rows - 1, row + count()), column: column)
        case UInt8(ascii: "C"), UInt8(ascii: "a"):
            moveCursor(row: row, column: column + count())
        case UInt8(ascii: "D"):
            moveCursor(row: row, column: column - count())
        case UInt8(ascii: "E"):
            moveCursor(row: min(rows - 1, row + count()), column: 0)
        case UInt8(ascii: "F"):
            moveCursor(row: max(0, row - count()), column: 0)
        case UInt8(ascii: "G"), UInt8(ascii: "`"):
            moveCursor(row: row, column: count() - 1)
        case UInt8(ascii: "d"):
            moveCursor(row: count() - 1, column: column)
        case UInt8(ascii: "H"), UInt8(ascii: "f"):
            moveCursor(row: count(0) - 1, column: count(1) - 1)
        case UInt8(ascii: "J"):
            eraseInDisplay(value())
        case UInt8(ascii: "K"):
            eraseInLine(value())
        case UInt8(ascii: "@"):
            insertCharacters(count())
        case UInt8(ascii: "P"):
            deleteCharacters(count())
        case UInt8(ascii: "X"):
            eraseCharacters(count())
        case UInt8(ascii: "L"):
            insertLines(count())
        case UInt8(ascii: "M"):
            deleteLines(count())
        case UInt8(ascii: "S"):
            scrollUp(count())
        case UInt8(ascii: "T"):
            scrollDown(count())
        case UInt8(ascii: "r"):
            let top = count(0) - 1
            let bottom = params.count > 1 && params[1] > 0 ? params[1] - 1 : rows - 1
            if top < bottom && bottom < rows {
                scrollTop = top
                scrollBottom = bottom
                moveCursor(row: 0, column: 0)
            }
        case UInt8(ascii: "s"):
            saveCursor()
        case UInt8(ascii: "u"):
            restoreCursor()
        default:
            // SGR (m), modes (h/l), reports (n, c) and the rest draw nothing.
            break
        }
    }

    /// Splits `1;2:3;;4` into numbers (sub-parameters after `:` are dropped;
    /// empty ones are 0).
    static func parameters(_ body: [UInt8]) -> [Int] {
        guard !body.isEmpty else { return [] }
        var result: [Int] = []
        var current = 0
        var inSubParameter = false
        for byte in body {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if !inSubParameter { current = min(current * 10 + Int(byte - UInt8(ascii: "0")), 99_999) }
            case UInt8(ascii: ";"):
                result.append(current)
                current = 0
                inSubParameter = false
            case UInt8(ascii: ":"):
                inSubParameter = true
            default:
                break
            }
        }
        result.append(current)
        return result
    }
}
