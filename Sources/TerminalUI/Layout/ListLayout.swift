/// Geometry of the list view: one photo per entry, a small thumbnail on the
/// left when images are shown, then the number, title and owner.
///
/// Without images an entry is one line: `  12  Title…  owner`. With images
/// it is as tall as the thumbnail (a square area each photo is fitted
/// into), with the title on the first line and the owner on the second,
/// beside the picture.
public struct ListLayout: Sendable, Equatable {
    /// Thumbnail width in columns when images are shown: a tenth of the
    /// window, within these bounds, so the picture grows with the window
    /// while the titles keep most of the line.
    public static let minimumThumbnailColumns = 8
    public static let maximumThumbnailColumns = 24
    /// Longest owner column in the one-line form.
    public static let maximumOwnerColumns = 24

    public let terminalColumns: Int
    public let showsThumbnails: Bool
    /// Thumbnail area (0×0 without images).
    public let thumbnailColumns: Int
    public let thumbnailRows: Int
    /// Blank columns between the thumbnail, number and text.
    public let gap: Int
    /// Columns for the right-aligned result number.
    public let numberWidth: Int
    /// Columns left for the title (and, in the one-line form, the owner).
    public let textColumns: Int
    /// In the one-line form: columns for the owner at the end (0 if no room).
    public let ownerColumns: Int
    /// In the one-line form: columns for the title.
    public let titleColumns: Int

    /// - Parameters:
    ///   - numberWidth: digits of the largest number shown, so numbers align.
    public init(
        terminalColumns: Int,
        showsThumbnails: Bool,
        numberWidth: Int = 3,
        cellAspectRatio: Double = 2.0
    ) {
        let width = max(1, terminalColumns)
        let gap = 2
        let numberWidth = max(1, min(numberWidth, width))
        let scaled = min(Self.maximumThumbnailColumns, max(Self.minimumThumbnailColumns, width / 10))
        // A thumbnail only if the text beside it still gets a dozen columns.
        let thumbnails = showsThumbnails && width >= scaled + gap + numberWidth + 1 + 12
        let thumbnailColumns = thumbnails ? scaled : 0
        let aspect = cellAspectRatio > 0 ? cellAspectRatio : 2.0
        self.terminalColumns = width
        self.showsThumbnails = thumbnails
        self.thumbnailColumns = thumbnailColumns
        self.thumbnailRows = thumbnails ? max(2, Int((Double(thumbnailColumns) / aspect).rounded())) : 0
        self.gap = gap
        self.numberWidth = numberWidth
        let used = (thumbnails ? thumbnailColumns + gap : 0) + numberWidth + 1
        let text = max(0, width - used)
        self.textColumns = text
        // One-line form: the owner gets up to a third of the text area.
        let owner = text >= 20 ? min(Self.maximumOwnerColumns, text / 3) : 0
        self.ownerColumns = owner
        self.titleColumns = owner > 0 ? text - owner - gap : text
    }

    /// Lines one entry takes.
    public var entryHeight: Int { showsThumbnails ? thumbnailRows : 1 }

    /// Column where the number starts.
    public var numberOffset: Int { showsThumbnails ? thumbnailColumns + gap : 0 }

    /// Column where the title (and owner, on the second line) starts.
    public var textOffset: Int { numberOffset + numberWidth + 1 }

    /// Source pixels that fill a thumbnail area, for a renderer that wants
    /// `cellPixels` per terminal cell (see `GridLayout.pixelNeed`).
    public func pixelNeed(cellPixels: TerminalGraphics.CellPixelSize) -> (width: Int, height: Int) {
        (max(1, thumbnailColumns) * cellPixels.width, max(1, thumbnailRows) * cellPixels.height)
    }
}
