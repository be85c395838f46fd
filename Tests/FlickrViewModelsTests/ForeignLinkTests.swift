import PhotoCore
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// A web link the service does not read is not searched as words: the
/// provider says which links it opens, in its words (Commons opens file
/// pages, not Flickr's people and albums).
@MainActor
@Suite struct ForeignLinkTests {
    @Test func aLinkToAnotherSiteSaysWhichLinksAreReadAndSearchesNothing() async throws {
        let provider = CollectionProvider(titles: ["A", "B"])
        let viewModel = FlickrViewModel(
            provider: provider, pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()), perPage: 10)
        viewModel.search("https://www.flickr.com:443@evil.example/photos/anasouza/")
        try await eventually("the sentence") { viewModel.notice.value != nil }
        #expect(viewModel.notice.value == .error(
            "That is a link to evil.example: only album links (albums.test) open here."))
        #expect(viewModel.query.value == nil)
        #expect(provider.requests.isEmpty)
        // Words, and the service's own links, are as before.
        viewModel.search("https://albums.test/72157719")
        try await eventually("the album listed") { !provider.requests.isEmpty }
    }
}
