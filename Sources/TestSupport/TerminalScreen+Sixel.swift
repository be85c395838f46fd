/// Sixel images as xterm 379 places them (measured under Xvfb with
/// `-ti vt340`, 17-pixel cells, by cursor position reports and screenshots):
///
/// - an image H pixels tall covers ⌈H / cell height⌉ rows from the cursor's
///   row down, starting at the cursor's column;
/// - afterwards the cursor stays in its column, on the image's last row;
/// - the line below the image must be on screen: when the image reaches the
///   bottom line (or beyond), the screen scrolls until it is, and the cursor
///   ends one line above the bottom. A save/restore-cursor pair around such
///   an image then lands lower than before, relative to the text.
///
/// The height is the raster attributes' (`"Pan;Pad;Ph;Pv`) when given,
/// else six pixels per band of sixel data. The cells underneath keep their
/// text: the model records where each image went instead (`images`).
extension TerminalScreen {
    /// Where a sixel image landed.
    public struct ImagePlacement: Sendable, Equatable, CustomStringConvertible {
        /// Its top row, counted from the first line ever shown (scrollback
        /// included, see `linesScrolledOff`), so it stays put when the screen scrolls.
        public var line: Int
        public var column: Int
        /// Rows it covers.
        public var rows: Int
        public var pixelHeight: Int

        public init(line: Int, column: Int, rows: Int, pixelHeight: Int) {
            self.line = line
            self.column = column
            self.rows = rows
            self.pixelHeight = pixelHeight
        }

        /// Its last row, counted like `line`.
        public var lastLine: Int { line + rows - 1 }

        public var description: String { "image at line \(line), column \(column), \(rows) rows" }
    }

    /// The line of visible row `row`, counted like `ImagePlacement.line`.
    public func absoluteLine(ofRow row: Int) -> Int { linesScrolledOff + row }

    /// The visible text of the line counted like `ImagePlacement.line`
    /// (nil once it has left the scrollback).
    public func text(ofLine line: Int) -> String? {
        let row = line - linesScrolledOff
        if row >= 0 && row < rows { return lines[row] }
        let fromEnd = linesScrolledOff - line
        guard fromEnd >= 1, fromEnd <= scrollback.count else { return nil }
        return scrollback[scrollback.count - fromEnd]
    }

    mutating func finishDeviceControl(_ body: [UInt8]) {
        guard let height = Self.sixelHeight(body) else { return }
        drawSixel(pixelHeight: height)
    }

    mutating func drawSixel(pixelHeight: Int) {
        guard pixelHeight > 0 else { return }
        pendingWrap = false
        let covered = (pixelHeight + cellPixelHeight - 1) / cellPixelHeight
        let bottom = scrollBottom
        var top = row
        let below = top + covered
        if below > bottom {
            scrollUp(below - bottom)
            top -= below - bottom
        }
        images.append(ImagePlacement(
            line: absoluteLine(ofRow: top), column: column, rows: covered, pixelHeight: pixelHeight))
        row = min(max(0, top + covered - 1), rows - 1)
    }

    /// The pixel height of a sixel DCS body (`P1;P2;P3 q data`), or nil when
    /// the string is not a sixel image.
    static func sixelHeight(_ body: [UInt8]) -> Int? {
        guard let start = body.firstIndex(where: { !(0x30...0x3B).contains($0) }),
              body[start] == UInt8(ascii: "q") else { return nil }
        let data = body[(start + 1)...]
        if data.first == UInt8(ascii: "\"") {
            let raster = data.dropFirst().prefix { (0x30...0x3B).contains($0) }
            let values = parameters(Array(raster))
            if values.count >= 4, values[3] > 0 { return values[3] }
        }
        var bands = 0
        var bandHasData = false
        for byte in data {
            if byte == UInt8(ascii: "-") {
                if bandHasData { bands += 1 }
                bandHasData = false
            } else if (0x3F...0x7E).contains(byte) {
                bandHasData = true
            }
        }
        if bandHasData { bands += 1 }
        return bands * 6
    }
}
