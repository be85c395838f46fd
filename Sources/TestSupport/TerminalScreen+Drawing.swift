/// What the parsed input does to the grid: printing, cursor movement,
/// erasing, scrolling.
extension TerminalScreen {
    // MARK: - Drawing

    mutating func printScalar(_ scalar: Unicode.Scalar) {
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
    mutating func attachCombining(_ scalar: Unicode.Scalar) {
        var target = pendingWrap ? column : column - 1
        guard target >= 0 else { return }
        if grid[row][target].isContinuation, target > 0 { target -= 1 }
        grid[row][target].text.unicodeScalars.append(scalar)
    }

    /// Writing over either half of a wide character blanks its other half.
    mutating func clearWideCharacter(at index: Int) {
        guard index >= 0 && index < columns else { return }
        if grid[row][index].isContinuation, index > 0 {
            grid[row][index - 1] = .blank
            grid[row][index] = .blank
        } else if index + 1 < columns, grid[row][index + 1].isContinuation {
            grid[row][index + 1] = .blank
        }
    }

    mutating func moveCursor(row newRow: Int, column newColumn: Int) {
        row = min(max(0, newRow), rows - 1)
        column = min(max(0, newColumn), columns - 1)
        pendingWrap = false
    }

    mutating func lineFeed() {
        pendingWrap = false
        if row == scrollBottom {
            scrollUp(1)
        } else if row < rows - 1 {
            row += 1
        }
    }

    mutating func reverseIndex() {
        pendingWrap = false
        if row == scrollTop {
            scrollDown(1)
        } else if row > 0 {
            row -= 1
        }
    }

    mutating func scrollUp(_ count: Int) {
        for _ in 0..<min(count, scrollBottom - scrollTop + 1) {
            let removed = grid.remove(at: scrollTop)
            if scrollTop == 0 {
                appendToScrollback(removed)
                linesScrolledOff += 1
            }
            grid.insert(blankLine(), at: scrollBottom)
        }
    }

    mutating func scrollDown(_ count: Int) {
        for _ in 0..<min(count, scrollBottom - scrollTop + 1) {
            grid.remove(at: scrollBottom)
            grid.insert(blankLine(), at: scrollTop)
        }
    }

    mutating func appendToScrollback(_ line: [Cell]) {
        scrollback.append(Self.render(line))
        if scrollback.count > scrollbackLimit {
            scrollback.removeFirst(scrollback.count - scrollbackLimit)
        }
    }

    mutating func eraseInLine(_ mode: Int) {
        pendingWrap = false
        switch mode {
        case 0: blank(row: row, from: column, to: columns)
        case 1: blank(row: row, from: 0, to: column + 1)
        default: blank(row: row, from: 0, to: columns)
        }
    }

    mutating func eraseInDisplay(_ mode: Int) {
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

    mutating func insertCharacters(_ count: Int) {
        pendingWrap = false
        let count = min(count, columns - column)
        clearWideCharacter(at: column)
        grid[row].removeLast(count)
        grid[row].insert(contentsOf: Array(repeating: .blank, count: count), at: column)
        if grid[row][columns - 1] != .continuation, Self.width(ofCell: grid[row][columns - 1]) == 2 {
            grid[row][columns - 1] = .blank
        }
    }

    mutating func deleteCharacters(_ count: Int) {
        pendingWrap = false
        let count = min(count, columns - column)
        clearWideCharacter(at: column)
        clearWideCharacter(at: column + count - 1)
        grid[row].removeSubrange(column..<(column + count))
        grid[row].append(contentsOf: Array(repeating: .blank, count: count))
    }

    mutating func eraseCharacters(_ count: Int) {
        pendingWrap = false
        blank(row: row, from: column, to: min(columns, column + count))
    }

    mutating func insertLines(_ count: Int) {
        guard row >= scrollTop && row <= scrollBottom else { return }
        for _ in 0..<min(count, scrollBottom - row + 1) {
            grid.remove(at: scrollBottom)
            grid.insert(blankLine(), at: row)
        }
        column = 0
        pendingWrap = false
    }

    mutating func deleteLines(_ count: Int) {
        guard row >= scrollTop && row <= scrollBottom else { return }
        for _ in 0..<min(count, scrollBottom - row + 1) {
            grid.remove(at: row)
            grid.insert(blankLine(), at: scrollBottom)
        }
        column = 0
        pendingWrap = false
    }

    mutating func blank(row index: Int, from start: Int, to end: Int) {
        guard start < end else { return }
        if start > 0, grid[index][start].isContinuation { grid[index][start - 1] = .blank }
        if end < columns, grid[index][end].isContinuation { grid[index][end] = .blank }
        for column in start..<end { grid[index][column] = .blank }
    }

    mutating func saveCursor() {
        savedCursor = cursor
    }

    mutating func restoreCursor() {
        guard let saved = savedCursor else {
            moveCursor(row: 0, column: 0)
            return
        }
        moveCursor(row: saved.row, column: saved.column)
    }

    mutating func reset() {
        grid = Array(repeating: blankLine(), count: rows)
        row = 0
        column = 0
        pendingWrap = false
        savedCursor = nil
        scrollTop = 0
        scrollBottom = rows - 1
    }

    func blankLine() -> [Cell] {
        Array(repeating: .blank, count: columns)
    }

    static func render(_ line: [Cell]) -> String {
        var text = ""
        for cell in line where !cell.isContinuation { text += cell.text }
        return text.trimmingTrailingSpaces()
    }

    static func width(ofCell cell: Cell?) -> Int {
        guard let scalar = cell?.text.unicodeScalars.first else { return 0 }
        return width(of: scalar)
    }
}
