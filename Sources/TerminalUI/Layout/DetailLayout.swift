/// Geometry of the detail view (`/open N`): the photo as large as the
/// window allows, keeping its aspect, with metadata lines under it.
public struct DetailLayout: Sendable, Equatable {
    /// Title, owner, date taken, dimensions, page URL.
    public static let defaultMetadataRows = 5
    /// Rows kept free for the status line and the prompt.
    public static let reservedRows = 2

    public let terminalColumns: Int
    public let terminalRows: Int
    /// Image area in terminal cells, fitted to the photo's aspect.
    public let imageColumns: Int
    public let imageRows: Int
    public let metadataRows: Int

    /// - Parameters:
    ///   - imageWidth, imageHeight: the photo's pixel size (from the API's
    ///     `width_*`/`height_*`, or the decoded header). Unknown: 4:3 assumed.
    public init(
        terminalColumns: Int,
        terminalRows: Int,
        imageWidth: Int?,
        imageHeight: Int?,
        metadataRows: Int = DetailLayout.defaultMetadataRows,
        cellAspectRatio: Double = 2.0
    ) {
        let columns = max(1, terminalColumns)
        let rows = max(1, terminalRows)
        let metadata = max(0, metadataRows)
        let available = max(1, rows - metadata - Self.reservedRows)
        let width = imageWidth.flatMap { $0 > 0 ? $0 : nil } ?? 4
        let height = imageHeight.flatMap { $0 > 0 ? $0 : nil } ?? 3
        let fitted = TerminalImageRenderer.fit(
            width: width, height: height, columns: columns, rows: available,
            cellAspectRatio: cellAspectRatio > 0 ? cellAspectRatio : 2.0)
        self.terminalColumns = columns
        self.terminalRows = rows
        self.imageColumns = fitted.columns
        self.imageRows = fitted.rows
        self.metadataRows = metadata
    }
}
