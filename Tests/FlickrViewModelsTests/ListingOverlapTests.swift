import PhotoCore
@testable import FlickrViewModels
import Testing

/// A provider may list one photo on two pages: `flickr search` prints it once.
@Suite struct ListingOverlapTests {
    @Test func overlappingPagesListEachPhotoOnce() async throws {
        let provider = PagedProvider(pages: [
            1: PhotoPage(page: 1, pages: 3, perPage: 5, total: 15, photos: PagedProvider.photos(0..<5)),
            2: PhotoPage(page: 2, pages: 3, perPage: 5, total: 15, photos: PagedProvider.photos(3..<8)),
        ])
        let sink = ListingLimitsTests.Sink()
        try await ListingJob(query: .search(.typed("kittens")), firstPage: 1, pages: 2, perPage: 5).run(provider: provider, into: sink)
        #expect(sink.photos.map(\.id) == (0..<8).map(String.init))
        #expect(sink.photos.map(\.index) == Array(1...8), "index stays contiguous")
    }
}
