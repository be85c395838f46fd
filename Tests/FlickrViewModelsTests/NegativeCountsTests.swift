import PhotoCore
import FlickrService
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// A service that answers a page with negative counts, as a hostile or
/// broken server may: the page's photos are real, its numbers are not.
private struct NegativeCountsProvider: PhotoProvider, RecentPhotos {
    var service: PhotoService { FlickrProvider.service }
    var displayName: String { "negative" }
    var maxResults: Int? { nil }
    var perPageRange: ClosedRange<Int> { 1...500 }

    var capabilities: ProviderCapabilities {
        let none = "This test's service has only search and recent photos."
        return ProviderCapabilities(
            recent: .supported(self), lookup: .unsupported(none), collections: .unsupported(none), links: .unsupported(none),
            videos: .unsupported(none), favourites: .unsupported(none))
    }

    func photoPageURL(for photo: Photo) -> URL? { nil }
    func imageURL(for photo: Photo, covering need: PixelSize) -> URL? { photo.carriedImageURL(covering: need) }
    func imageURL(for photo: Photo, size: PhotoSize) -> URL? { photo.carriedImageURL(size: size) }
    func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL? { imageURL(for: photo, covering: need) }

    func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        PhotoDetails(photo: photo, pageURL: nil)
    }

    func search(_ query: SearchQuery, page: Int, perPage: Int) async throws -> PhotoPage {
        let photo = Photo(id: "1", owner: "o@N00", ownerName: "O", secret: "s", server: "1", title: "one")
        return PhotoPage(page: page, pages: -5, perPage: perPage, total: -150, photos: [photo])
    }

    func recent(page: Int, perPage: Int) async throws -> PhotoPage {
        try await search(SearchQuery("recent")!, page: page, perPage: perPage)
    }
}

@MainActor
@Suite struct NegativeCountsTests {
    @Test func countsFromTheServiceClampAtZeroBeforeTheyAreShown() async throws {
        let viewModel = FlickrViewModel(
            provider: NegativeCountsProvider(), pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()), perPage: 30)
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        let page = try #require(viewModel.pages.value.first)
        #expect(page.pages == 0, "not “page 1 of -5”")
        #expect(page.total == 0)
        #expect(page.lastServedPage >= 0)
        #expect(page.cells.count == 1, "the page's photos still count")
    }
}
