import PhotoCore
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// What the view tells the view model about its cells, and what it gets
/// back to prepare ahead: the pixel need thumbnails are chosen by, and the
/// prefetched next page's cells.
@MainActor
@Suite struct ThumbnailNeedTests {
    private func makeViewModel(photos: Int = 95) -> (FlickrViewModel, InMemoryProvider) {
        let provider = InMemoryProvider(count: photos)
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        return (FlickrViewModel(provider: provider, pipeline: pipeline, perPage: 30), provider)
    }

    @Test func cellsAskForTheSmallestImageCoveringTheViewsNeed() async throws {
        let (viewModel, _) = makeViewModel()
        viewModel.thumbnailPixelNeed = ImagePixelNeed(width: 304, height: 752)
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        let urls = viewModel.cells.compactMap(\.url?.lastPathComponent)
        #expect(urls.count == 30)
        #expect(urls.allSatisfy { $0.hasSuffix("_304x752.jpg") }, "\(urls.prefix(3))")
    }

    @Test func aNewNeedAppliesToPagesMadeAfterIt() async throws {
        let (viewModel, _) = makeViewModel()
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        viewModel.thumbnailPixelNeed = ImagePixelNeed(width: 520, height: 900)
        viewModel.search("sunset")
        try await eventually("new page 1") {
            viewModel.pages.value.count == 1 && viewModel.query.value == .search(.typed("sunset"))
        }
        let url = try #require(viewModel.cells.first?.url)
        #expect(url.lastPathComponent.hasSuffix("_520x900.jpg"))
    }

    @Test func theNeedIsNeverBelowOnePixel() {
        let need = ImagePixelNeed(width: 0, height: -4)
        #expect(need.width == 1 && need.height == 1)
    }

    @Test func cellsReportThePhotosOwnAspectRatio() async throws {
        let photo = Photo(id: "1", owner: "o", title: "", aspectRatio: 0.75)
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        let model = ImageModel(number: 1, photo: photo, url: nil, pipeline: pipeline)
        #expect(model.aspectRatio == 0.75)
    }

    @Test func thePrefetchedPageIsPublishedUntilEnterTakesIt() async throws {
        let (viewModel, _) = makeViewModel()
        var published: [[Int]] = []
        let token = viewModel.prefetchedCells.observeChanges { cells in published.append(cells.map(\.number)) }
        viewModel.search("kittens")
        try await eventually("page 2 prefetched") { viewModel.prefetchedCells.value.count == 30 }
        let prefetched = viewModel.prefetchedCells.value
        #expect(prefetched.map(\.number) == Array(31...60))
        viewModel.nextPage()
        try await eventually("page 2 shown") { viewModel.pages.value.count == 2 }
        // Enter shows the very cells the view was told about (and prepared).
        #expect(viewModel.pages.value[1].cells.map(ObjectIdentifier.init) == prefetched.map(ObjectIdentifier.init))
        // Taken: no longer published as waiting (until page 3 is prefetched in turn).
        #expect(viewModel.prefetchedCells.value.first?.number != 31)
        #expect(published.first == Array(31...60))
        token.cancel()
    }

    @Test func aNewQueryWithdrawsThePrefetchedPage() async throws {
        let (viewModel, _) = makeViewModel()
        viewModel.search("kittens")
        try await eventually("page 2 prefetched") { !viewModel.prefetchedCells.value.isEmpty }
        viewModel.search("sunset")
        #expect(viewModel.prefetchedCells.value.isEmpty)
    }
}
