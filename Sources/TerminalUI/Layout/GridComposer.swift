import Foundation
/// Turns cells into the text block to print: rows of thumbnails side by
/// side with their labels, list entries, or the detail view.
///
/// The result holds lines separated by "\n" (no trailing newline). Every
/// line's display width is at most the layout's terminal width, so nothing
/// wraps. How images are placed depends on the mode:
/// - symbols: each image row is text; rows of all cells are concatenated,
///   each cell segment ending with an SGR reset (none in monochrome);
/// - sixels / kitty / iTerm2: blank lines are printed first to reserve the
///   image rows and the line under them (so the terminal scrolls before
///   anything is drawn), then the cursor goes back up and each image is
///   drawn at its cell's column between save-cursor and restore-cursor
///   (`ESC 7` / `ESC 8`);
/// - none: labels only.
public enum GridComposer {
    /// One grid row: up to `layout.columns` cells (extra cells are ignored).
    /// Each cell's picture (or placeholder frame) takes the area its aspect
    /// ratio reserves, centred in the cell; the row is as tall as its tallest.
    public static func compose(row cells: [GridCell], layout: GridLayout, graphics: TerminalGraphics) -> String {
        let cells = Array(cells.prefix(layout.columns))
        guard !cells.isEmpty else { return "" }
        let labels = labelLine(cells, layout: layout, links: graphics.hyperlinks)
        guard graphics.showsImages else { return labels }

        let rows = layout.imageRows(for: cells.map(\.aspectRatio))
        var blocks: [Block] = []
        var offsets: [Int] = []
        for (index, cell) in cells.enumerated() {
            let area = layout.imageSize(aspectRatio: cell.aspectRatio)
            let inset = (layout.imageColumns - area.columns) / 2
            let block = block(for: cell.content, columns: area.columns, rows: area.rows, graphics: graphics)
            blocks.append(block.widened(left: inset, to: layout.imageColumns))
            offsets.append(layout.cellOffset(index) + (block.isPixels ? inset : 0))
        }
        let imagePart: String
        if blocks.contains(where: \.isPixels) {
            imagePart = placed(blocks, offsets: offsets, rows: rows)
        } else {
            imagePart = sideBySide(blocks, offsets: offsets, rows: rows)
        }
        return imagePart + "\n" + labels
    }

    /// List entries, one after another.
    public static func compose(list entries: [ListEntry], layout: ListLayout, graphics: TerminalGraphics) -> String {
        entries.map { compose(entry: $0, layout: layout, graphics: graphics) }.joined(separator: "\n")
    }

    /// The detail view: the image (or a placeholder) at the left, then the
    /// metadata lines, each sanitised and cut to the terminal width. The
    /// lines `links` names lead there (after their `label: `, if any) when
    /// the terminal shows links.
    public static func composeDetail(
        _ content: CellContent, metadata: [String], layout: DetailLayout, graphics: TerminalGraphics,
        links: [Int: URL] = [:]
    ) -> String {
        let lines = metadata.enumerated().map { index, line in
            let fitted = TextSanitizer.fit(TextSanitizer.sanitize(line), columns: layout.terminalColumns)
            guard graphics.hyperlinks, let url = links[index] else { return fitted }
            // A field's label (`page: `, `owner: `) stays plain; a title line is all link.
            let label = fitted.range(of: "^[a-z]+: ", options: .regularExpression).map { String(fitted[..<$0.upperBound]) } ?? ""
            return label + Hyperlink.wrap(String(fitted.dropFirst(label.count)), to: url, enabled: true)
        }
        let text = lines.joined(separator: "\n")
        guard graphics.showsImages else { return text }
        let image = block(for: content, columns: layout.imageColumns, rows: layout.imageRows, graphics: graphics)
        let imagePart: String
        switch image {
        case .pixels:
            imagePart = placed([image], offsets: [0], rows: layout.imageRows)
        case .text:
            imagePart = sideBySide([image], offsets: [0], rows: layout.imageRows)
        }
        return lines.isEmpty ? imagePart : imagePart + "\n" + text
    }

    /// "N title", sanitised and cut to `columns` display columns (not padded).
    public static func label(number: Int, title: String, columns: Int) -> String {
        let clean = TextSanitizer.sanitize(title)
        let text = clean.isEmpty ? "\(number)" : "\(number) \(clean)"
        return TextSanitizer.fit(text, columns: columns)
    }

    // MARK: - Grid pieces

    private static func labelLine(_ cells: [GridCell], layout: GridLayout, links: Bool) -> String {
        let gap = String(repeating: " ", count: layout.gap)
        let line = cells.map { cell in
            let text = label(number: cell.number, title: cell.title, columns: layout.cellWidth)
            let padding = String(repeating: " ", count: max(0, layout.cellWidth - DisplayWidth.of(text)))
            // The number stays plain; the title after it is the link.
            let number = "\(cell.number) "
            guard links, text.hasPrefix(number) else { return text + padding }
            return number + Hyperlink.wrap(String(text.dropFirst(number.count)), to: cell.link, enabled: true) + padding
        }.joined(separator: gap)
        return trimmingTrailingSpaces(line)
    }

    /// A cell's image area, ready to place.
    enum Block: Equatable {
        /// Rows of text, each exactly `width` display columns wide and
        /// self-contained (width is carried so nobody rescans the escapes).
        case text([String], width: Int)
        /// A graphics-protocol sequence drawing the picture from the cursor.
        case pixels(String)

        var isPixels: Bool {
            if case .pixels = self { return true }
            return false
        }

        /// Text padded with `left` blank columns and then on the right to
        /// `width`; pixels are moved by their offset instead.
        func widened(left: Int, to width: Int) -> Block {
            guard case .text(let lines, let current) = self, width > current else { return self }
            let before = String(repeating: " ", count: max(0, left))
            let after = String(repeating: " ", count: max(0, width - current - max(0, left)))
            return .text(lines.map { before + $0 + after }, width: width)
        }
    }

    static func block(for content: CellContent, columns: Int, rows: Int, graphics: TerminalGraphics) -> Block {
        switch content {
        case .placeholder(let state):
            return .text(placeholder(state, columns: columns, rows: rows), width: columns)
        case .image(let image):
            switch image.content {
            case .pixels(let sequence):
                guard graphics.mode.isPixelMode, image.columns <= columns, image.rows <= rows else {
                    return .text(placeholder("", columns: columns, rows: rows), width: columns)
                }
                return .pixels(sequence)
            case .symbols(let lines):
                return .text(symbolRows(
                    lines, width: image.columns, columns: columns, rows: rows,
                    resets: graphics.usesEscapeCodes), width: columns)
            }
        }
    }

    /// Image rows fitted to the area: wider rows are clipped, narrower ones
    /// padded, missing rows blank; each row ends with an SGR reset when the
    /// output has colours, so no colour leaks into the gap or the next cell.
    private static func symbolRows(
        _ lines: [String], width: Int, columns: Int, rows: Int, resets: Bool
    ) -> [String] {
        let reset = resets ? "\u{1B}[0m" : ""
        let blank = String(repeating: " ", count: columns)
        return (0..<rows).map { index in
            guard index < lines.count else { return blank }
            var line = lines[index]
            var visible = width
            if width > columns {
                line = clip(CharacterRepeat.expand(line), columns: columns)
                visible = columns
            }
            if resets, !line.hasSuffix(reset) { line += reset }
            return line + String(repeating: " ", count: max(0, columns - visible))
        }
    }

    /// A frame the size of the image area with the state text in the
    /// middle, or just the text when the area is too small for a frame.
    /// Plain characters only: no escape codes, so it is safe under NO_COLOR.
    static func placeholder(_ state: String, columns: Int, rows: Int) -> [String] {
        let text = TextSanitizer.sanitize(state)
        guard columns >= 4, rows >= 3 else {
            var lines = Array(repeating: String(repeating: " ", count: columns), count: rows)
            if !lines.isEmpty {
                lines[rows / 2] = TextSanitizer.pad(text, toColumns: columns)
            }
            return lines
        }
        let inner = columns - 2
        let top = "┌" + String(repeating: "─", count: inner) + "┐"
        let bottom = "└" + String(repeating: "─", count: inner) + "┘"
        let empty = "│" + String(repeating: " ", count: inner) + "│"
        let fitted = TextSanitizer.fit(text, columns: inner)
        let left = (inner - DisplayWidth.of(fitted)) / 2
        let middle = "│" + String(repeating: " ", count: left)
            + TextSanitizer.pad(fitted, toColumns: inner - left) + "│"
        return (0..<rows).map { row in
            if row == 0 { return top }
            if row == rows - 1 { return bottom }
            return row == (rows - 1) / 2 ? middle : empty
        }
    }

    /// Text blocks concatenated line by line, each at its offset.
    private static func sideBySide(_ blocks: [Block], offsets: [Int], rows: Int) -> String {
        var lines = Array(repeating: "", count: rows)
        var cursors = Array(repeating: 0, count: rows)
        for (block, offset) in zip(blocks, offsets) {
            guard case .text(let rowsOfBlock, let width) = block else { continue }
            for row in 0..<rows {
                lines[row] += String(repeating: " ", count: max(0, offset - cursors[row]))
                // A block shorter than the row leaves blanks, so the next block still starts at its offset.
                lines[row] += row < rowsOfBlock.count ? rowsOfBlock[row] : String(repeating: " ", count: width)
                cursors[row] = max(offset, cursors[row]) + width
            }
        }
        return lines.map(trimmingTrailingSpaces).joined(separator: "\n")
    }

    /// Blocks drawn with cursor movement, for when some are pixel images.
    private static func placed(_ blocks: [Block], offsets: [Int], rows: Int) -> String {
        let escape = "\u{1B}"
        // The line under the images is reserved too: a sixel image whose
        // bottom reaches the last screen line makes xterm and mlterm scroll,
        // and every restore-cursor after it would land a line low.
        var output = String(repeating: "\n", count: max(0, rows))
        if rows > 0 { output += "\(escape)[\(rows)A" }
        output += "\r"
        for (block, offset) in zip(blocks, offsets) {
            let right = offset > 0 ? "\(escape)[\(offset)C" : ""
            switch block {
            case .pixels(let sequence):
                output += "\(escape)7" + right + sequence + "\(escape)8"
            case .text(let lines, _):
                for (row, line) in lines.prefix(rows).enumerated() {
                    let down = row > 0 ? "\(escape)[\(row)B" : ""
                    output += "\(escape)7" + down + right + line + "\(escape)8"
                }
            }
        }
        if rows > 1 { output += "\(escape)[\(rows - 1)B" }
        return output
    }

    // MARK: - List pieces

    private static func compose(entry: ListEntry, layout: ListLayout, graphics: TerminalGraphics) -> String {
        let number = TextSanitizer.pad("\(entry.number)", toColumns: layout.numberWidth, alignment: .right)
        let title = TextSanitizer.sanitize(entry.title)
        let owner = TextSanitizer.sanitize(entry.owner)
        let links = graphics.hyperlinks
        // Fitted first, then made a link: the link adds no columns.
        func linked(_ text: String, columns: Int, to url: URL?, padded: Bool = false) -> String {
            let fitted = TextSanitizer.fit(text, columns: columns)
            let padding = padded ? String(repeating: " ", count: max(0, columns - DisplayWidth.of(fitted))) : ""
            return Hyperlink.wrap(fitted, to: url, enabled: links) + padding
        }
        guard layout.showsThumbnails, graphics.showsImages else {
            var line = number + " " + linked(title, columns: layout.titleColumns, to: entry.titleLink, padded: true)
            if layout.ownerColumns > 0 {
                line += String(repeating: " ", count: layout.gap)
                    + linked(owner, columns: layout.ownerColumns, to: entry.ownerLink)
            }
            return trimmingTrailingSpaces(line)
        }
        var textLines = [
            number + " " + linked(title, columns: layout.textColumns, to: entry.titleLink),
            String(repeating: " ", count: layout.numberWidth + 1)
                + linked(owner, columns: layout.textColumns, to: entry.ownerLink),
        ]
        while textLines.count < layout.thumbnailRows { textLines.append("") }
        let image = block(
            for: entry.content, columns: layout.thumbnailColumns, rows: layout.thumbnailRows,
            graphics: graphics)
        let textBlock = Block.text(Array(textLines.prefix(layout.thumbnailRows)), width: layout.textColumns)
        switch image {
        case .text:
            return sideBySide(
                [image, textBlock], offsets: [0, layout.numberOffset], rows: layout.thumbnailRows)
        case .pixels:
            return placed([image, textBlock], offsets: [0, layout.numberOffset], rows: layout.thumbnailRows)
        }
    }

    // MARK: - Text helpers

    /// Display width of text that may hold SGR or other escape sequences.
    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var state = EscapeState.text
        for character in text {
            if state.consume(character) { width += DisplayWidth.of(character) }
        }
        return width
    }

    /// `text` cut to `columns` display columns, escape sequences kept intact.
    static func clip(_ text: String, columns: Int) -> String {
        var result = ""
        var width = 0
        var state = EscapeState.text
        for character in text {
            if state.consume(character) {
                let characterWidth = DisplayWidth.of(character)
                if width + characterWidth > columns { break }
                width += characterWidth
            }
            result.append(character)
        }
        return result
    }

    private static func trimmingTrailingSpaces(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }

    /// A tiny parser that tells printable characters from escape sequences
    /// (CSI `ESC [ … final`, and two-character `ESC x`).
    private enum EscapeState {
        case text, escape, controlSequence

        /// Advances over `character`; true if it is printable text.
        mutating func consume(_ character: Character) -> Bool {
            switch self {
            case .text:
                if character == "\u{1B}" {
                    self = .escape
                    return false
                }
                return true
            case .escape:
                self = character == "[" ? .controlSequence : .text
                return false
            case .controlSequence:
                if let value = character.unicodeScalars.first?.value, (0x40...0x7E).contains(value) {
                    self = .text
                }
                return false
            }
        }
    }
}
