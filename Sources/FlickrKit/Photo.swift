import Foundation

/// One photo of a result page, as the provider described it.
public struct Photo: Sendable, Hashable, Codable {
    public var id: String
    /// The owner's NSID (for example `12345678@N00`).
    public var owner: String
    public var ownerName: String?
    public var secret: String
    public var server: String
    public var farm: Int?
    /// May be empty, and may hold any Unicode (including control characters):
    /// sanitise before printing.
    public var title: String
    /// `YYYY-MM-DD HH:MM:SS` as Flickr sends it, when asked for.
    public var dateTaken: String?
    /// Ready-made URLs from `url_*` extras, keyed by size.
    public var images: [PhotoSize: PhotoImage]

    public init(
        id: String, owner: String, ownerName: String? = nil, secret: String, server: String,
        farm: Int? = nil, title: String, dateTaken: String? = nil,
        images: [PhotoSize: PhotoImage] = [:]
    ) {
        self.id = id
        self.owner = owner
        self.ownerName = ownerName
        self.secret = secret
        self.server = server
        self.farm = farm
        self.title = title
        self.dateTaken = dateTaken
        self.images = images
    }
}

/// A URL of one size of a photo, with its pixel dimensions when known.
public struct PhotoImage: Sendable, Hashable, Codable {
    public var url: URL
    public var width: Int?
    public var height: Int?

    public init(url: URL, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }
}

/// Flickr's image sizes. The raw value is the `extras` key suffix (`url_q`).
public enum PhotoSize: String, Sendable, Hashable, Codable, CaseIterable, CodingKeyRepresentable {
    case square75 = "sq"
    case square150 = "q"
    case thumbnail100 = "t"
    case small240 = "s"
    case small320 = "n"
    case small400 = "w"
    case medium500 = "m"
    case medium640 = "z"
    case medium800 = "c"
    case large1024 = "l"

    /// The `extras` value that asks for this size's URL and dimensions.
    public var extra: String { "url_\(rawValue)" }

    /// The suffix in the static image URL (`{id}_{secret}_{suffix}.jpg`);
    /// `nil` for the 500 px size, which has none.
    public var urlSuffix: String? {
        switch self {
        case .square75: "s"
        case .square150: "q"
        case .thumbnail100: "t"
        case .small240: "m"
        case .small320: "n"
        case .small400: "w"
        case .medium500: nil
        case .medium640: "z"
        case .medium800: "c"
        case .large1024: "b"
        }
    }

    /// Longest edge in pixels.
    public var longestEdge: Int {
        switch self {
        case .square75: 75
        case .square150: 150
        case .thumbnail100: 100
        case .small240: 240
        case .small320: 320
        case .small400: 400
        case .medium500: 500
        case .medium640: 640
        case .medium800: 800
        case .large1024: 1024
        }
    }

    /// Square crops rather than the photo's own aspect ratio.
    public var isSquare: Bool { self == .square75 || self == .square150 }

    /// Parses the names a person types: `q`, `url_q`, `z`, `b`, `500`, ...
    public init?(argument: String) {
        let name = argument.hasPrefix("url_") ? String(argument.dropFirst(4)) : argument
        if let size = PhotoSize(rawValue: name) {
            self = size
        } else if let size = PhotoSize.allCases.first(where: { $0.urlSuffix == name }) {
            self = size
        } else if let edge = Int(name), let size = PhotoSize.allCases.first(where: { $0.longestEdge == edge && !$0.isSquare }) {
            self = size
        } else {
            return nil
        }
    }
}

/// One page of results.
public struct PhotoPage: Sendable, Hashable, Codable {
    public var page: Int
    public var pages: Int
    public var perPage: Int
    public var total: Int
    public var photos: [Photo]

    public init(page: Int, pages: Int, perPage: Int, total: Int, photos: [Photo]) {
        self.page = page
        self.pages = pages
        self.perPage = perPage
        self.total = total
        self.photos = photos
    }
}

extension Photo {
    /// The size shown large (`/open`, `image_url`): 1024 px when the service
    /// offers it (or said nothing about sizes), else 640 px.
    public var detailSize: PhotoSize {
        images[.large1024] != nil || images[.medium640] == nil ? .large1024 : .medium640
    }
}
