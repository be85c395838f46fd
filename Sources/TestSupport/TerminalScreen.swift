/// A small model of an xterm-like terminal, fed with the bytes a program
/// writes to its pty, so tests can assert on what a person would see rather
/// than on raw bytes.
///
/// It understands what line-oriented programs and readline use: printable
/// text (wide characters take two columns, combining marks join the previous
/// cell), CR, LF, BS, TAB, cursor movement, erase in line/display, insert and
/// delete of characters and lines, save/restore cursor, scroll regions, and
/// scrolling into a scrollback when writing past the bottom. Colours and
/// modes are ignored. OSC, DCS, APC, PM and SOS strings are skipped whole, so
/// sixel or kitty image payloads never show up as text.
public struct TerminalScreen: Sendable {
    /// A cursor position, zero-based.
    public struct Position: Sendable, Equatable, CustomStringConvertible {
        public var row: Int
        public var column: Int

        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }

        public var description: String { "(\(row), \(column))" }
    }

    /// One screen cell: the text drawn there (a base scalar plus any
    /// combining marks), or nothing for the right half of a wide character.
    private struct Cell: Sendable, Equatable {
        var text: String
        var isContinuation = false

        static let blank = Cell(text: " ")
        static let continuation = Cell(text: "", isContinuation: true)
    }

    private enum ParserState: Sendable, Equatable {
        case ground
        case escape
        /// ESC followed by intermediate bytes (charset designation and the like).
        case escapeIntermediate
        case csi
        /// Inside an OSC/DCS/APC/PM/SOS string, skipping its payload.
        case string(isOSC: Bool)
        /// An ESC seen inside a string: `\` ends it, anything else aborts it.
        case stringEscape
    }

    public private(set) var columns: Int
    public private(set) var rows: Int
    /// Lines that scrolled off the top, oldest first, trailing blanks trimmed.
    public private(set) var scrollback: [String] = []
    /// Lines kept in `scrollback` at most; older ones are dropped.
    public var scrollbackLimit: Int

    private var grid: [[Cell]]
    private var row = 0
    private var column = 0
    /// Set after printing into the last column: the next printable character
    /// wraps first (xterm's deferred autowrap, which readline relies on).
    private var pendingWrap = false
    private var savedCursor: Position?
    private var scrollTop = 0
    private var scrollBottom: Int

    private var state = ParserState.ground
    private var sequence: [UInt8] = []
    private var utf8Pending: [UInt8] = []
    private var utf8Expected = 0

    public init(columns: Int = 120, rows: Int = 40, scrollbackLimit: Int = 10_000) {
        precondition(columns > 0 && rows > 0, "a terminal needs at least one cell")
        self.columns = columns
        self.rows = rows
        self.scrollbackLimit = scrollbackLimit
        self.grid = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
        self.scrollBottom = rows - 1
    }

    // MARK: - Reading the screen

    /// The visible lines, top to bottom, trailing blanks trimmed.
    public var lines: [String] { grid.map(Self.render) }

    /// Scrollback then visible lines, joined with newlines; trailing empty
    /// lines are dropped.
    public var text: String {
        var all = scrollback + lines
        while let last = all.last, last.isEmpty { all.removeLast() }
        return all.joined(separator: "\n")
    }

    /// The visible lines only, joined with newlines.
    public var visibleText: String { lines.joined(separator: "\n") }

    /// Where the next character would go.
    public var cursor: Position { Position(row: row, column: column) }

    /// The last visible line that is not blank (often the prompt line).
    public var lastNonEmptyLine: String? { lines.last { !$0.trimmingTrailingSpaces().isEmpty } }

    // MARK: - Feeding bytes

    /// Interprets `bytes` as terminal output. Sequences split across calls
    /// are handled: state carries over.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { consume(byte) }
    }

    /// Interprets `text` (UTF-8) as terminal output.
    public mutating func feed(_ text: String) {
        feed(Array(text.utf8))
    }

    /// Changes the size as a terminal window would: lines are cut or padded
    /// on the right, rows dropped from (into the scrollback) or added at the bottom.
    public mutating func resize(columns newColumns: Int, rows newRows: Int) {
        precondition(newColumns > 0 && newRows > 0, "a terminal needs at least one cell")
        for index in grid.indices {
            if newColumns < columns {
                grid[index].removeLast(columns - newColumns)
                if grid[index].last?.isContinuation == false, Self.width(ofCell: grid[index].last) == 2 {
                    grid[index][newColumns - 1] = .blank
                }
            } else {
                grid[index].append(contentsOf: Array(repeating: .blank, count: newColumns - columns))
            }
        }
        columns = newColumns
        while grid.count > newRows {
            // Keep the cursor's line on screen: drop from the top while the
            // cursor is below the new bottom, otherwise from the bottom.
            if row >= newRows {
                appendToScrollback(grid.removeFirst())
                row -= 1
            } else {
                grid.removeLast()
            }
        }
        while grid.count < newRows {
            grid.append(Array(repeating: .blank, count: newColumns))
        }
        rows = newRows
        scrollTop = 0
        scrollBottom = rows - 1
        row = min(row, rows - 1)
        column = min(column, columns - 1)
        pendingWrap = false
    }

    // MARK: - Parser

    private mutating func consume(_ byte: UInt8) {
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
                state = .ground
            }
        case .stringEscape:
            if byte == UInt8(ascii: "\\") {
                state = .ground
            } else {
                // ESC inside a string aborts it and starts a new sequence.
                state = .escape
                consumeEscape(byte)
            }
        }
    }

    private mutating func consumeGround(_ byte: UInt8) {
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

    private mutating func flushUTF8() {
        let bytes = utf8Pending
        utf8Pending.removeAll()
        utf8Expected = 0
        let decoded = String(decoding: bytes, as: UTF8.self)
        for scalar in decoded.unicodeScalars { printScalar(scalar) }
    }

    private mutating func consumeEscape(_ byte: UInt8) {
        state = .ground
        switch byte {
        case UInt8(ascii: "["):
            sequence.removeAll()
            state = .csi
        case UInt8(ascii: "]"):
            state = .string(isOSC: true)
        case UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
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

    private mutating func consumeCSI(_ byte: UInt8) {
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

    private mutating func executeControl(_ byte: UInt8) {
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

    private mutating func executeCSI(final: UInt8, body: [UInt8]) {
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
    private static func parameters(_ body: [UInt8]) -> [Int] {
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

    // MARK: - Drawing

    private mutating func printScalar(_ scalar: Unicode.Scalar) {
        let width = Self.width(of: scalar)
        if width < 0 { return }
        if width == 0 {
            attachCombining(scalar)
            return
        }
        if pendingWrap {
            pendingWrap = false
            column = 0
            lineFeed()
        }
        if width == 2 && column == columns - 1 {
            if columns < 2 { return }
            // A wide character that does not fit wraps whole, as xterm does.
            clearWideCharacter(at: column)
            grid[row][column] = .blank
            column = 0
            lineFeed()
        }
        clearWideCharacter(at: column)
        if width == 2 { clearWideCharacter(at: column + 1) }
        grid[row][column] = Cell(text: String(scalar))
        if width == 2 { grid[row][column + 1] = .continuation }
        column += width
        if column >= columns {
            column = columns - 1
            pendingWrap = true
        }
    }

    /// Joins a zero-width scalar (combining mark, variation selector, ZWJ) to
    /// the character just printed.
    private mutating func attachCombining(_ scalar: Unicode.Scalar) {
        var target = pendingWrap ? column : column - 1
        guard target >= 0 else { return }
        if grid[row][target].isContinuation, target > 0 { target -= 1 }
        grid[row][target].text.unicodeScalars.append(scalar)
    }

    /// Writing over either half of a wide character blanks its other half.
    private mutating func clearWideCharacter(at index: Int) {
        guard index >= 0 && index < columns else { return }
        if grid[row][index].isContinuation, index > 0 {
            grid[row][index - 1] = .blank
            grid[row][index] = .blank
        } else if index + 1 < columns, grid[row][index + 1].isContinuation {
            grid[row][index + 1] = .blank
        }
    }

    private mutating func moveCursor(row newRow: Int, column newColumn: Int) {
        row = min(max(0, newRow), rows - 1)
        column = min(max(0, newColumn), columns - 1)
        pendingWrap = false
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if row == scrollBottom {
            scrollUp(1)
        } else if row < rows - 1 {
            row += 1
        }
    }

    private mutating func reverseIndex() {
        pendingWrap = false
        if row == scrollTop {
            scrollDown(1)
        } else if row > 0 {
            row -= 1
        }
    }

    private mutating func scrollUp(_ count: Int) {
        for _ in 0..<min(count, scrollBottom - scrollTop + 1) {
            let removed = grid.remove(at: scrollTop)
            if scrollTop == 0 { appendToScrollback(removed) }
            grid.insert(blankLine(), at: scrollBottom)
        }
    }

    private mutating func scrollDown(_ count: Int) {
        for _ in 0..<min(count, scrollBottom - scrollTop + 1) {
            grid.remove(at: scrollBottom)
            grid.insert(blankLine(), at: scrollTop)
        }
    }

    private mutating func appendToScrollback(_ line: [Cell]) {
        scrollback.append(Self.render(line))
        if scrollback.count > scrollbackLimit {
            scrollback.removeFirst(scrollback.count - scrollbackLimit)
        }
    }

    private mutating func eraseInLine(_ mode: Int) {
        pendingWrap = false
        switch mode {
        case 0: blank(row: row, from: column, to: columns)
        case 1: blank(row: row, from: 0, to: column + 1)
        default: blank(row: row, from: 0, to: columns)
        }
    }

    private mutating func eraseInDisplay(_ mode: Int) {
        pendingWrap = false
        switch mode {
        case 0:
            blank(row: row, from: column, to: columns)
            for index in (row + 1)..<rows { grid[index] = blankLine() }
        case 1:
            for index in 0..<row { grid[index] = blankLine() }
            blank(row: row, from: 0, to: column + 1)
        case 2:
            for index in 0..<rows { grid[index] = blankLine() }
        case 3:
            scrollback.removeAll()
        default:
            break
        }
    }

    private mutating func insertCharacters(_ count: Int) {
        pendingWrap = false
        let count = min(count, columns - column)
        clearWideCharacter(at: column)
        grid[row].removeLast(count)
        grid[row].insert(contentsOf: Array(repeating: .blank, count: count), at: column)
        if grid[row][columns - 1] != .continuation, Self.width(ofCell: grid[row][columns - 1]) == 2 {
            grid[row][columns - 1] = .blank
        }
    }

    private mutating func deleteCharacters(_ count: Int) {
        pendingWrap = false
        let count = min(count, columns - column)
        clearWideCharacter(at: column)
        clearWideCharacter(at: column + count - 1)
        grid[row].removeSubrange(column..<(column + count))
        grid[row].append(contentsOf: Array(repeating: .blank, count: count))
    }

    private mutating func eraseCharacters(_ count: Int) {
        pendingWrap = false
        blank(row: row, from: column, to: min(columns, column + count))
    }

    private mutating func insertLines(_ count: Int) {
        guard row >= scrollTop && row <= scrollBottom else { return }
        for _ in 0..<min(count, scrollBottom - row + 1) {
            grid.remove(at: scrollBottom)
            grid.insert(blankLine(), at: row)
        }
        column = 0
        pendingWrap = false
    }

    private mutating func deleteLines(_ count: Int) {
        guard row >= scrollTop && row <= scrollBottom else { return }
        for _ in 0..<min(count, scrollBottom - row + 1) {
            grid.remove(at: row)
            grid.insert(blankLine(), at: scrollBottom)
        }
        column = 0
        pendingWrap = false
    }

    private mutating func blank(row index: Int, from start: Int, to end: Int) {
        guard start < end else { return }
        if start > 0, grid[index][start].isContinuation { grid[index][start - 1] = .blank }
        if end < columns, grid[index][end].isContinuation { grid[index][end] = .blank }
        for column in start..<end { grid[index][column] = .blank }
    }

    private mutating func saveCursor() {
        savedCursor = cursor
    }

    private mutating func restoreCursor() {
        guard let saved = savedCursor else {
            moveCursor(row: 0, column: 0)
            return
        }
        moveCursor(row: saved.row, column: saved.column)
    }

    private mutating func reset() {
        grid = Array(repeating: blankLine(), count: rows)
        row = 0
        column = 0
        pendingWrap = false
        savedCursor = nil
        scrollTop = 0
        scrollBottom = rows - 1
    }

    private func blankLine() -> [Cell] {
        Array(repeating: .blank, count: columns)
    }

    private static func render(_ line: [Cell]) -> String {
        var text = ""
        for cell in line where !cell.isContinuation { text += cell.text }
        return text.trimmingTrailingSpaces()
    }

    private static func width(ofCell cell: Cell?) -> Int {
        guard let scalar = cell?.text.unicodeScalars.first else { return 0 }
        return width(of: scalar)
    }

    // MARK: - Character width

    /// Columns a scalar takes in a terminal: -1 for controls (drawn as
    /// nothing), 0 for combining and format characters, 2 for East Asian
    /// wide and emoji-presentation characters, 1 otherwise. An independent
    /// table on purpose: tests compare the app's layout against it.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return -1 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels and finals
        if scalar.properties.isEmojiPresentation { return 2 }
        for range in wideRanges where range.contains(value) { return 2 }
        return 1
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initials
        0x2E80...0x303E,  // CJK radicals, Kangxi, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small forms
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,
        0x20000...0x2FFFD,  // CJK extensions B-F
        0x30000...0x3FFFD,
    ]
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
