import Foundation
import Networking

/// A photo-search service: Flickr, Shutterstock, Openverse, or the sandbox
/// standing in for one of them.
///
/// What every service does is required here, with no default: a provider
/// that forgets a member does not compile. What only some services do
/// (recent uploads, details by id, photostreams and albums, links, videos)
/// is a capability in `capabilities`, which a provider has or says it has
/// not, in its own words.
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

    /// What it can do beyond searching, each capability there or not.
    var capabilities: ProviderCapabilities { get }

    /// One page of photos matching `query` (every word must match; `-word` excludes).
    func search(_ query: SearchQuery, page: Int, perPage: Int) async throws -> PhotoPage

    /// The URL of the smallest image of `photo` that fills `need` (scaled to
    /// fit, keeping its aspect ratio), from what the photo already carries
    /// (`Photo.carriedImageURL(covering:)`) or can be built from it; the
    /// biggest there is when none is big enough. No network.
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
    /// licence, …), for the detail view; at the least what the photo itself
    /// says (`PhotoDetails(photo:pageURL:)`).
    func photoDetails(for photo: Photo) async throws -> PhotoDetails
}

/// A call the service behind a provider does not offer.
public struct UnsupportedByProvider: WordedError {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension PhotoProvider {
    /// The last page worth asking for, given the service's cap.
    public func lastServedPage(pages: Int, perPage: Int) -> Int {
        guard let maxResults, perPage > 0 else { return pages }
        // Divide before adding: `pages` and `perPage` may come from outside,
        // as large as Int.max.
        let served = maxResults / perPage + (maxResults % perPage == 0 ? 0 : 1)
        return min(pages, served)
    }
}

extension Photo {
    /// The smallest image the photo carries that fills `need`, else its
    /// biggest: `imageURL(for:covering:)` for a service whose photos carry
    /// every size it has.
    public func carriedImageURL(covering need: PixelSize) -> URL? {
        bestRendition(covering: need)?.url
    }

    /// The carried square crop for a square size, else the carried image
    /// that fills the size's area.
    public func carriedImageURL(size: PhotoSize) -> URL? {
        if size.isSquare, let crop = rendition(labelled: size.rawValue) { return crop.url }
        return carriedImageURL(covering: size.requirement)
    }
}

extension PhotoDetails {
    /// What a photo itself says, for a service with no details call.
    public init(photo: Photo, pageURL: URL?) {
        self.init(
            id: photo.id, title: photo.title, ownerID: photo.owner, ownerUsername: photo.ownerName,
            dateTaken: photo.dateTaken, pageURL: pageURL)
    }
}
