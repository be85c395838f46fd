import PhotoCore
import FlickrService
import Foundation
import ImagePipeline
import NIOConcurrencyHelpers

/// A provider over an in-memory list of photos: pages are slices of it, as a
/// real service would serve them. Counts its calls; can be told to fail.
final class InMemoryProvider: PhotoProvider, RecentPhotos, @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`, a lock the thread sanitizer sees.
    let service: PhotoService
    let displayName: String
    let maxResults: Int?
    private let photos: [Photo]
    private let lock = NIOLock()
    private var _calls: [(query: String?, page: Int)] = []
    private var _failure: (any Error)?

    init(count: Int, service: PhotoService = FlickrProvider.service, displayName: String = "memory", maxResults: Int? = nil) {
        self.service = service
        self.displayName = displayName
        self.maxResults = maxResults
        self.photos = (0..<count).map { index in
            Photo(id: "\(1000 + index)", owner: "owner\(index % 7)@N00", ownerName: "Owner \(index % 7)",
                  secret: "s\(index)", server: "65535", title: "Photo \(index + 1)")
        }
    }

    private var _holdsDetails = false

    let perPageRange = 1...500

    var capabilities: ProviderCapabilities {
        ProviderCapabilities(
            recent: .supported(self), lookup: .unsupported("\(service.name) has no call for a photo's details by id; search for it instead."),
            collections: .unsupported("\(service.name) has no photostreams, albums, galleries or pools."), links: .unsupported("\(service.name) has no photostreams, albums, galleries or pools."), videos: .unsupported("No videos here."),
            favourites: .unsupported("No favourites here."))
    }

    func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL? {
        imageURL(for: photo, covering: need)
    }

    var calls: [(query: String?, page: Int)] { lock.withLock { _calls } }
    func fail(with error: (any Error)?) { lock.withLock { _failure = error } }
    /// From now on a photo's details never arrive: the call waits until
    /// its task is cancelled, as one would on a stalled network.
    func holdDetails() { lock.withLock { _holdsDetails = true } }

    func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        if lock.withLock({ _holdsDetails }) {
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
        return PhotoDetails(id: photo.id, title: photo.title, ownerID: photo.owner, pageURL: photoPageURL(for: photo))
    }

    func search(_ query: SearchQuery, page: Int, perPage: Int) async throws -> PhotoPage {
        try serve(query: query.text, page: page, perPage: perPage)
    }

    func recent(page: Int, perPage: Int) async throws -> PhotoPage {
        try serve(query: nil, page: page, perPage: perPage)
    }

    private func serve(query: String?, page: Int, perPage: Int) throws -> PhotoPage {
        let failure = lock.withLock {
            _calls.append((query, page))
            return _failure
        }
        if let failure { throw failure }
        let start = (page - 1) * perPage
        let slice = start < photos.count ? Array(photos[start..<min(start + perPage, photos.count)]) : []
        let pages = (photos.count + perPage - 1) / perPage
        return PhotoPage(page: page, pages: pages, perPage: perPage, total: photos.count, photos: slice)
    }

    func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        URL(string: "http://images.test/\(photo.server)/\(photo.id)_\(photo.secret)_\(size.urlSuffix ?? "").jpg")
    }

    /// Names the area asked for, so tests see which need a cell was made with.
    func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        URL(string: "http://images.test/\(photo.server)/\(photo.id)_\(photo.secret)_\(need.width)x\(need.height).jpg")
    }

    func photoPageURL(for photo: Photo) -> URL? {
        URL(string: "https://www.flickr.com/photos/\(photo.owner)/\(photo.id)/")
    }
}
