import Foundation

/// A photo-search service: Flickr today, Shutterstock later.
///
/// Implementations build requests, send them through `NetworkManager` and
/// decode the answers. They are value-like and safe to share across tasks.
public protocol PhotoProvider: Sendable {
    /// Shown in banners and headers ("Flickr", "sandbox").
    var displayName: String { get }

    /// The most results the service will ever page through for one query
    /// (Flickr: 4,000), or `nil` when it has no such cap.
    var maxResults: Int? { get }

    /// One page of photos matching `query` (every word must match; `-word` excludes).
    func search(_ query: String, page: Int, perPage: Int) async throws -> PhotoPage

    /// One page of the most recent uploads.
    func recent(page: Int, perPage: Int) async throws -> PhotoPage

    /// The URL of `photo` at `size`: the `url_*` extra when the service sent
    /// one, otherwise built from the photo's server, id and secret.
    func imageURL(for photo: Photo, size: PhotoSize) -> URL?

    /// The page a person opens in a browser to see the photo.
    func photoPageURL(for photo: Photo) -> URL?
}

extension PhotoProvider {
    /// The last page worth asking for, given the service's cap.
    public func lastServedPage(pages: Int, perPage: Int) -> Int {
        guard let maxResults, perPage > 0 else { return pages }
        return min(pages, (maxResults + perPage - 1) / perPage)
    }
}
