import PhotoCore
import Foundation

/// What the results are of.
public enum ResultQuery: Codable, Sendable, Equatable, CustomStringConvertible {
    case search(SearchQuery)
    case recent
    /// A photostream, album, gallery or pool.
    case collection(PhotoCollection)
    /// A person's favourites; nil: the signed-in person's own.
    case favourites(Person?)

    public var description: String {
        switch self {
        case .search(let query): query.description
        case .recent: "recent photos"
        case .collection(let collection): collection.description
        case .favourites(nil): "your favourites"
        case .favourites(let person?): "favourites of \(person.displayName)"
        }
    }

    /// The last page `provider` serves of `pages`: a search stops at the
    /// service's result cap; photostreams, albums, galleries, pools and
    /// favourites do not.
    public func lastServedPage(pages: Int, perPage: Int, from provider: any PhotoProvider) -> Int {
        switch self {
        case .collection, .favourites: return max(pages, 1)
        case .search, .recent: break
        }
        return provider.lastServedPage(pages: pages, perPage: perPage)
    }

    /// The page from `provider`.
    func page(_ number: Int, perPage: Int, from provider: any PhotoProvider) async throws -> PhotoPage {
        switch self {
        case .search(let query): try await provider.search(query, page: number, perPage: perPage)
        case .recent: try await provider.capabilities.recent.required().recent(page: number, perPage: perPage)
        case .collection(let collection):
            try await provider.capabilities.collections.required().photos(in: collection, page: number, perPage: perPage)
        case .favourites(let person):
            try await provider.capabilities.favourites.required().favourites(of: person, page: number, perPage: perPage)
        }
    }
}

/// One loaded page of results, as the view shows it.
public struct ResultPage {
    /// The provider's display name ("Flickr", "Shutterstock (sandbox)").
    public let source: String
    public let number: Int
    /// Pages the service reports for the query, and the last one it will serve.
    public let pages: Int
    public let lastServedPage: Int
    public let total: Int
    public let cells: [ImageModel]
    /// Shown from the saved session rather than fetched in this run.
    public let restored: Bool

    /// Counts come from the service: a negative one shows as 0, never as
    /// "page 1 of -5".
    init(source: String, number: Int, pages: Int, lastServedPage: Int, total: Int, cells: [ImageModel], restored: Bool) {
        self.source = source
        self.number = number
        self.pages = max(0, pages)
        self.lastServedPage = max(0, lastServedPage)
        self.total = max(0, total)
        self.cells = cells
        self.restored = restored
    }
}

/// A line for the person: what happened that is not a page of results.
public enum Notice: Sendable, Equatable {
    case info(String)
    case warning(String)
    case error(String)
}

/// Whether a page request is under way.
public enum Activity: Sendable, Equatable {
    case idle
    case loading(ResultQuery, page: Int)
    /// Asking the service who or what a name or link is (`/user`,
    /// `/albums`, `/album`, a pasted link); says what, for the status line.
    case lookingUp(String)
}

/// A person's albums, as `/albums` lists them: one row per album, its
/// cover as the thumbnail; `/album N` opens row N.
public struct AlbumListing {
    public let source: String
    public let person: Person
    public let page: AlbumPage
    /// One cell per album: the cover photo, titled as the album with its
    /// counts, numbered from 1.
    public let cells: [ImageModel]

    /// Whose albums: the person's name as headers show it (unsanitised).
    public var ownerName: String { person.displayName }
    /// How many albums the person has.
    public var total: Int { page.total }

    /// `523 photos`, `12 photos, 2 videos`.
    static func counts(of album: Album) -> String {
        let photos = "\(album.photoCount.formatted()) photo\(album.photoCount == 1 ? "" : "s")"
        guard album.videoCount > 0 else { return photos }
        return photos + ", \(album.videoCount.formatted()) video\(album.videoCount == 1 ? "" : "s")"
    }
}

/// The bytes of a loaded image, as the view renders them.
public struct LoadedImage: Sendable {
    public let data: Data
    /// Stable for the same image: the view's render cache is keyed by it.
    public let cacheKey: String
}

/// The image pipeline's counters, as `/stats` shows them.
public struct DownloadStatistics: Sendable, Equatable {
    public var queued = 0
    public var running = 0
    public var done = 0
    public var failed = 0
    public var cancelled = 0
    public var coalesced = 0
    public var retries = 0
    public var memoryHits = 0
    public var diskHits = 0
    public var bytesDownloaded = 0
    /// Images held in memory, and their bytes.
    public var memoryCacheCount = 0
    public var memoryCacheBytes = 0

    public init() {}
}
