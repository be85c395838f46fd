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
/// sixel or kitty image payloads never show up as text; a sixel image still
/// takes the rows its pixel height covers and moves the cursor as xterm's
/// does (see `TerminalScreen+Sixel.swift`), recorded in `images`.
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
    struct Cell: Sendable, Equatable {
        var text: String
        var isContinuation = false

        static let blank = Cell(text: " ")
        static let continuation = Cell(text: "", isContinuation: true)
    }

    enum ParserState: Sendable, Equatable {
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

    public internal(set) var columns: Int
    public internal(set) var rows: Int
    /// Lines that scrolled off the top, oldest first, trailing blanks trimmed.
    public internal(set) var scrollback: [String] = []
    /// Lines kept in `scrollback` at most; older ones are dropped.
    public var scrollbackLimit: Int
    /// Height of a cell in pixels: how many rows a sixel image covers.
    public var cellPixelHeight: Int
    /// Sixel images drawn so far, where they landed.
    public internal(set) var images: [ImagePlacement] = []
    /// Lines scrolled off the top since the start (not capped like
    /// `scrollback`): the origin of `ImagePlacement.line`.
    public internal(set) var linesScrolledOff = 0

    var grid: [[Cell]]
    var row = 0
    var column = 0
    /// Set after printing into the last column: the next printable character
    /// wraps first (xterm's deferred autowrap, which readline relies on).
    var pendingWrap = false
    var savedCursor: Position?
    var scrollTop = 0
    var scrollBottom: Int

    var state = ParserState.ground
    var sequence: [UInt8] = []
    var utf8Pending: [UInt8] = []
    var utf8Expected = 0
    /// The body of the DCS string being read (nil inside other strings).
    var deviceControl: [UInt8]?

    public init(columns: Int = 120, rows: Int = 40, scrollbackLimit: Int = 10_000, cellPixelHeight: Int = 20) {
        precondition(columns > 0 && rows > 0, "a terminal needs at least one cell")
        self.columns = columns
        self.rows = rows
        self.scrollbackLimit = scrollbackLimit
        self.cellPixelHeight = max(1, cellPixelHeight)
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
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
