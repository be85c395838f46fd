/// Geometry of the thumbnail grid for one terminal width.
///
/// Cells are `cellWidth` columns wide with `gap` columns between them; each
/// holds an image area (`imageColumns × imageRows`) above `labelRows` of
/// label. Thumbnails are square (`q`, 150 px) and terminal cells are about
/// twice as tall as wide, so a square image is `imageColumns / cellAspectRatio`
/// rows tall. All values are at least 1, however narrow the terminal.
public struct GridLayout: Sendable, Equatable {
    public static let defaultColumns = 3
    public static let defaultGap = 2
    /// Narrower cells cannot show a number, a few letters of title and a
    /// recognisable picture, so the grid drops columns instead.
    public static let minimumCellWidth = 14
    /// Cap on the thumbnail width. Symbol rendering costs a few µs per
    /// terminal cell: a page of 30 thumbnails at 28×14 cells measured 68 ms
    /// on one core (Scripts/bench), over the 50 ms budget; 22×11 has 38% fewer
    /// cells, and a 150 px thumbnail has little more detail to show. On wide
    /// terminals the image keeps this width and the cell (and its label) gets wider.
    public static let defaultMaximumImageColumns = 22

    /// The width this layout was made for.
    public let terminalColumns: Int
    /// Cells per grid row (may be fewer than requested on narrow terminals).
    public let columns: Int
    /// Width of one cell, label included.
    public let cellWidth: Int
    /// Blank columns between cells.
    public let gap: Int
    /// Image area of a cell, in terminal cells.
    public let imageColumns: Int
    public let imageRows: Int
    /// Label lines under the image ("N title").
    public let labelRows: Int

    /// - Parameters:
    ///   - terminalColumns: current terminal width (re-read on resize).
    ///   - columns: requested cells per row (`--columns N`, default 3).
    ///   - gap: blank columns between cells.
    ///   - cellAspectRatio: terminal cell height / width, about 2.
    ///   - maximumImageColumns: cap on the image width (see `defaultMaximumImageColumns`).
    public init(
        terminalColumns: Int,
        columns requested: Int = GridLayout.defaultColumns,
        gap: Int = GridLayout.defaultGap,
        cellAspectRatio: Double = 2.0,
        maximumImageColumns: Int = GridLayout.defaultMaximumImageColumns
    ) {
        let width = max(1, terminalColumns)
        let gap = max(0, gap)
        var columns = max(1, requested)
        // Fewer, wider cells rather than cells too narrow to read.
        while columns > 1, (width - gap * (columns - 1)) / columns < Self.minimumCellWidth {
            columns -= 1
        }
        let cellWidth = max(1, (width - gap * (columns - 1)) / columns)
        self.terminalColumns = width
        self.columns = columns
        self.cellWidth = cellWidth
        self.gap = gap
        let imageColumns = max(1, min(self.cellWidth, maximumImageColumns))
        let aspect = cellAspectRatio > 0 ? cellAspectRatio : 2.0
        self.imageColumns = imageColumns
        self.imageRows = max(1, Int((Double(imageColumns) / aspect).rounded()))
        self.labelRows = 1
    }

    /// A layout whose cell aspect matches the one `graphics` renders with.
    public init(terminalColumns: Int, columns: Int = GridLayout.defaultColumns, graphics: TerminalGraphics) {
        self.init(
            terminalColumns: terminalColumns, columns: columns,
            cellAspectRatio: graphics.cellAspectRatio)
    }

    /// Column (0-based) where cell `index` of a row starts.
    public func cellOffset(_ index: Int) -> Int {
        index * (cellWidth + gap)
    }

    /// Width actually used by a full row of cells (never above `terminalColumns`).
    public var rowWidth: Int {
        columns * cellWidth + (columns - 1) * gap
    }

    /// Lines one grid row takes when images are shown.
    public var rowHeight: Int { imageRows + labelRows }

    /// Grid rows needed for `count` cells.
    public func rowCount(for count: Int) -> Int {
        count <= 0 ? 0 : (count + columns - 1) / columns
    }
}
