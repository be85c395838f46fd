import Foundation

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
    /// Where the title leads (the photo's page), when the terminal shows links.
    public var link: URL?

    public init(number: Int, title: String, content: CellContent, aspectRatio: Double? = nil, link: URL? = nil) {
        self.number = number
        self.title = title
        self.content = content
        self.aspectRatio = aspectRatio
        self.link = link
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
    /// Where the title and the owner lead, when the terminal shows links.
    public var titleLink: URL?
    public var ownerLink: URL?

    public init(number: Int, title: String, owner: String, content: CellContent, titleLink: URL? = nil, ownerLink: URL? = nil) {
        self.number = number
        self.title = title
        self.owner = owner
        self.content = content
        self.titleLink = titleLink
        self.ownerLink = ownerLink
    }
}
