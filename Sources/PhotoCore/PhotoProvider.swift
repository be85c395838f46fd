import Foundation
import Networking

/// A photo-search service: Flickr, Shutterstock, Openverse, or the sandbox
/// standing in for one of them.
///
/// Implementations build requests, send them through `NetworkManager` and
/// decode the answers. They are value-like and safe to share across tasks.
public protocol PhotoProvider: Sendable {
    /// Which service this speaks to (the sandbox stands in for either).
    var service: PhotoService { get }

    /// Shown in banners and headers ("Flickr", "Shutterstock (sandbox)").
    var displayName: String { get }

    /// The most results the service will ever page through for one query
    /// (Flickr: 4,000), or `nil` when it has no such cap.
    var maxResults: Int? { get }

    /// The page sizes this service accepts from this caller.
    var perPageRange: ClosedRange<Int> { get }

    /// One page of photos matching `query` (every word must match; `-word` excludes).
    func search(_ query: SearchQuery, page: Int, perPage: Int) async throws -> PhotoPage

    /// One page of the most recent uploads.
    func recent(page: Int, perPage: Int) async throws -> PhotoPage

    /// Whether it has a list of recent uploads; when not, the sentence
    /// saying what to do instead (shown in place of asking for them).
    var recentSupport: RecentSupport { get }

    /// The URL of the smallest image of `photo` that fills `need` (scaled to
    /// fit, keeping its aspect ratio), from what the photo already carries;
    /// the biggest there is when none is big enough. No network.
    func imageURL(for photo: Photo, covering need: PixelSize) -> URL?

    /// Like `imageURL(for:covering:)`, but may ask the service for the
    /// photo's full list of sizes when the photo carries none big enough.
    /// Throws only when cancelled.
    func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL?

    /// The URL of `photo` at a named size: the exact crop for the square
    /// sizes, otherwise the size's area as a requirement.
    func imageURL(for photo: Photo, size: PhotoSize) -> URL?

    /// The page a person opens in a browser to see the photo.
    func photoPageURL(for photo: Photo) -> URL?

    /// Everything the service tells about one photo (description, tags,
    /// licence, …), for the detail view and `flickr info`.
    func photoDetails(for photo: Photo) async throws -> PhotoDetails

    /// The same, by photo id alone (`flickr info ID`); services without such
    /// a call throw `UnsupportedByProvider`.
    func photoDetails(id: String) async throws -> PhotoDetails

    // MARK: People, albums, galleries, pools and links
    // Services without them throw `UnsupportedByProvider` (the defaults in
    // PhotoProvider+Collections), saying what they have instead.

    /// Whether it has them; when not, the sentence saying what it has instead.
    var collectionSupport: CollectionSupport { get }

    /// The person a username, path alias, id or profile URL names.
    func person(named name: String) async throws -> Person

    /// One page of a photostream, album, gallery or pool, newest first
    /// where the service orders them so; videos included, marked `isVideo`.
    func photos(in collection: PhotoCollection, page: Int, perPage: Int) async throws -> PhotoPage

    /// One page of a person's albums.
    func albums(of person: Person, page: Int, perPage: Int) async throws -> AlbumPage

    /// How this provider reads `text` typed at the prompt: one of its links,
    /// its site but an unknown page, or not a link of its. No network.
    func readLink(_ text: String) -> LinkReading

    /// What a link points at, asking the service for ids and titles.
    func resolve(_ link: ProviderLink) async throws -> LinkTarget

    /// The video file of a video, for `download --videos`; `nil` when the
    /// service offers none to this caller.
    func videoURL(for photo: Photo) async throws -> URL?

    /// The page of the photo's owner (their photostream), for links.
    func ownerPageURL(for photo: Photo) -> URL?

    /// The page of a collection in a browser, for links.
    func pageURL(for collection: PhotoCollection) -> URL?
}

/// A call the service behind a provider does not offer.
public struct UnsupportedByProvider: WordedError {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Whether a provider lists recent uploads; when not, the sentence saying
/// what to do instead (a launch and `/recent` show it calmly, as no retry
/// would change it).
public enum RecentSupport: Sendable, Hashable {
    case supported
    case unsupported(String)
}

// MARK: - Default implementations

extension PhotoProvider {
    public var recentSupport: RecentSupport { .supported }

    public var perPageRange: ClosedRange<Int> { 1...500 }

    /// The last page worth asking for, given the service's cap.
    public func lastServedPage(pages: Int, perPage: Int) -> Int {
        guard let maxResults, perPage > 0 else { return pages }
        // Divide before adding: `pages` and `perPage` may come from outside,
        // as large as Int.max.
        let served = maxResults / perPage + (maxResults % perPage == 0 ? 0 : 1)
        return min(pages, served)
    }

    public func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        photo.bestRendition(covering: need)?.url
    }

    public func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL? {
        try Task.checkCancellation()
        return imageURL(for: photo, covering: need)
    }

    public func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        if size.isSquare, let crop = photo.rendition(labelled: size.rawValue) { return crop.url }
        return imageURL(for: photo, covering: size.requirement)
    }

    public func photoDetails(id: String) async throws -> PhotoDetails {
        throw UnsupportedByProvider("\(service.name) has no call for a photo's details by id; search for it instead.")
    }

    /// What the photo itself says; services with a details call override this.
    public func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        PhotoDetails(
            id: photo.id, title: photo.title, ownerID: photo.owner, ownerUsername: photo.ownerName,
            dateTaken: photo.dateTaken, pageURL: photoPageURL(for: photo))
    }
}
