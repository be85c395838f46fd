import PhotoCore
import FlickrService
import Foundation
import NIOConcurrencyHelpers

/// A provider whose pages are written out by the test, numbers and all, as
/// a strange or hostile server might send them. Records the pages asked for.
final class PagedProvider: PhotoProvider, RecentPhotos, @unchecked Sendable {
    // @unchecked: the only mutable field is guarded by `lock`.
    let service: PhotoService = FlickrProvider.service
    let displayName = "paged"
    let maxResults: Int?
    private let pages: [Int: PhotoPage]
    private let lock = NIOLock()
    private var _asked: [Int] = []

    init(maxResults: Int? = nil, pages: [Int: PhotoPage]) {
        self.maxResults = maxResults
        self.pages = pages
    }

    var asked: [Int] { lock.withLock { _asked } }

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

    static func photos(_ ids: Range<Int>) -> [Photo] {
        ids.map { Photo(id: "\($0)", owner: "o@N00", secret: "s\($0)", server: "1", title: "Photo \($0)") }
    }

    func search(_ query: SearchQuery, page: Int, perPage: Int) async throws -> PhotoPage {
        try await recent(page: page, perPage: perPage)
    }

    func recent(page: Int, perPage: Int) async throws -> PhotoPage {
        lock.withLock { _asked.append(page) }
        return pages[page] ?? PhotoPage(page: page, pages: page, perPage: perPage, total: 0, photos: [])
    }

    func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        URL(string: "http://images.test/\(photo.server)/\(photo.id)_\(photo.secret)_q.jpg")
    }

    func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        URL(string: "http://images.test/\(photo.server)/\(photo.id)_\(photo.secret)_q.jpg")
    }

    func photoPageURL(for photo: Photo) -> URL? { nil }

    func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        PhotoDetails(id: photo.id, title: photo.title, ownerID: photo.owner, pageURL: nil)
    }
}
