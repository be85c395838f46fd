/// Geometry of the thumbnail grid for one terminal window.
///
/// Cells are `cellWidth` columns wide with `gap` columns between them, and
/// the picture fills its cell's width: each thumbnail keeps its photo's
/// aspect ratio, known from the service before any bytes arrive, so a row's
/// height is fixed when the page arrives and never changes while it loads.
/// A row's picture area is as tall as its tallest thumbnail, but never
/// taller than the window minus the label, the status line and the prompt,
/// so a whole row is always on screen. All values are at least 1, however
/// small the window.
public struct GridLayout: Sendable, Equatable {
    public static let defaultColumns = 3
    public static let defaultGap = 2
    /// Narrower cells cannot show a number, a few letters of title and a
    /// recognisable picture, so the grid drops columns instead.
    public static let minimumCellWidth = 14
    /// Lines under a grid row kept free for the status line and the prompt.
    public static let reservedRows = 2
    /// Width over height assumed when the service did not say: landscape
    /// 4:3, the most common shape of a photo.
    public static let assumedAspectRatio = 4.0 / 3.0

    /// The window this layout was made for.
    public let terminalColumns: Int
    public let terminalRows: Int
    /// Cells per grid row (may be fewer than requested on narrow terminals).
    public let columns: Int
    /// Width of one cell, label included.
    public let cellWidth: Int
    /// Blank columns between cells.
    public let gap: Int
    /// Width of a cell's picture area: the whole cell.
    public let imageColumns: Int
    /// Height of the picture area for a photo of `assumedAspectRatio`.
    public let imageRows: Int
    /// The tallest a picture may be: the window less the label and reserved rows.
    public let maximumImageRows: Int
    /// Label lines under the image ("N title").
    public let labelRows: Int
    /// Terminal cell height over width (about 2).
    public let cellAspectRatio: Double

    /// - Parameters:
    ///   - terminalColumns, terminalRows: current window size (re-read for every page).
    ///   - columns: requested cells per row (`--columns N`, default 3).
    ///   - gap: blank columns between cells.
    ///   - cellAspectRatio: terminal cell height / width, about 2.
    public init(
        terminalColumns: Int,
        terminalRows: Int = TerminalSize.fallback.rows,
        columns requested: Int = GridLayout.defaultColumns,
        gap: Int = GridLayout.defaultGap,
        cellAspectRatio: Double = 2.0
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
        self.terminalRows = max(1, terminalRows)
        self.columns = columns
        self.cellWidth = cellWidth
        self.gap = gap
        self.labelRows = 1
        self.cellAspectRatio = cellAspectRatio > 0 ? cellAspectRatio : 2.0
        self.imageColumns = cellWidth
        self.maximumImageRows = max(1, self.terminalRows - labelRows - Self.reservedRows)
        self.imageRows = Self.fit(
            aspectRatio: nil, columns: cellWidth, maximumRows: maximumImageRows,
            cellAspectRatio: self.cellAspectRatio).rows
    }

    /// A layout whose cell aspect matches the one `graphics` renders with.
    public init(
        terminalColumns: Int, terminalRows: Int = TerminalSize.fallback.rows,
        columns: Int = GridLayout.defaultColumns, graphics: TerminalGraphics
    ) {
        self.init(
            terminalColumns: terminalColumns, terminalRows: terminalRows, columns: columns,
            cellAspectRatio: graphics.cellAspectRatio)
    }

    /// The picture area of a photo `aspectRatio` (width / height) wide: the
    /// cell's full width, unless that would be taller than
    /// `maximumImageRows`, then that height and narrower. Unknown or
    /// nonsensical ratios get `assumedAspectRatio`.
    public func imageSize(aspectRatio: Double?) -> (columns: Int, rows: Int) {
        Self.fit(
            aspectRatio: aspectRatio, columns: imageColumns, maximumRows: maximumImageRows,
            cellAspectRatio: cellAspectRatio)
    }

    /// A picture of `aspectRatio` as wide as `columns`, or as tall as
    /// `maximumRows` when full width would be taller.
    static func fit(
        aspectRatio: Double?, columns: Int, maximumRows: Int, cellAspectRatio: Double
    ) -> (columns: Int, rows: Int) {
        let ratio = aspectRatio.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? assumedAspectRatio
        let rows = (Double(columns) / ratio / cellAspectRatio).rounded()
        if rows <= Double(maximumRows) {
            return (columns, max(1, Int(rows)))
        }
        let narrower = (Double(maximumRows) * cellAspectRatio * ratio).rounded()
        return (min(columns, max(1, Int(narrower))), maximumRows)
    }

    /// Picture rows of a grid row holding photos of these aspect ratios: its tallest.
    public func imageRows(for aspectRatios: [Double?]) -> Int {
        aspectRatios.map { imageSize(aspectRatio: $0).rows }.max() ?? imageRows
    }

    /// Column (0-based) where cell `index` of a row starts.
    public func cellOffset(_ index: Int) -> Int {
        index * (cellWidth + gap)
    }

    /// Width actually used by a full row of cells (never above `terminalColumns`).
    public var rowWidth: Int {
        columns * cellWidth + (columns - 1) * gap
    }

    /// Lines a grid row of photos of `assumedAspectRatio` takes when images are shown.
    public var rowHeight: Int { imageRows + labelRows }

    /// Grid rows needed for `count` cells.
    public func rowCount(for count: Int) -> Int {
        count <= 0 ? 0 : (count + columns - 1) / columns
    }

    /// Source pixels that fill the largest picture area of this grid, for
    /// a renderer that wants `cellPixels` per terminal cell: the smallest
    /// image covering this box is sharp in every cell.
    public func pixelNeed(cellPixels: TerminalGraphics.CellPixelSize) -> (width: Int, height: Int) {
        (imageColumns * cellPixels.width, maximumImageRows * cellPixels.height)
    }
}
