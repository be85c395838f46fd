/// What one cell of the grid (or one list entry, or the detail view) shows
/// in its image area.
public enum CellContent: Sendable, Equatable {
    /// The rendered thumbnail.
    case image(RenderedImage)
    /// No picture (yet): a frame with a short state text such as
    /// "loading 40%", "failed: HTTP 404" or "cancelled".
    case placeholder(String)
}

/// One grid cell: the image area and the label under it.
public struct GridCell: Sendable, Equatable {
    /// Result number, 1-based over the session's results.
    public var number: Int
    /// Title as the server sent it; sanitised and cut when composed.
    public var title: String
    public var content: CellContent
    /// The photo's width over height when the service said: decides the
    /// cell's picture area before the image arrives (nil: assumed 4:3).
    public var aspectRatio: Double?

    public init(number: Int, title: String, content: CellContent, aspectRatio: Double? = nil) {
        self.number = number
        self.title = title
        self.content = content
        self.aspectRatio = aspectRatio
    }
}

/// One entry of the list view.
public struct ListEntry: Sendable, Equatable {
    public var number: Int
    /// Title and owner as the server sent them; sanitised when composed.
    public var title: String
    public var owner: String
    /// The thumbnail, when the layout shows thumbnails.
    public var content: CellContent

    public init(number: Int, title: String, owner: String, content: CellContent) {
        self.number = number
        self.title = title
        self.owner = owner
        self.content = content
    }
}
