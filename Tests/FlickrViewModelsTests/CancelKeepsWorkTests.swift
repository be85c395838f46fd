import PhotoCore
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// What `/cancel` and a new search leave alone: finished work, and the
/// opened photo's large image.
@MainActor
@Suite struct CancelKeepsWorkTests {
    private func makeViewModel(fetcher: ScriptedImageFetcher) -> (FlickrViewModel, InMemoryProvider) {
        let provider = InMemoryProvider(count: 95, displayName: "memory")
        let pipeline = ImageDownloadManager(fetcher: fetcher)
        return (FlickrViewModel(provider: provider, pipeline: pipeline, perPage: 30), provider)
    }

    @Test func aNewSearchDoesNotCancelTheOpenedPhotosImage() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let (viewModel, _) = makeViewModel(fetcher: fetcher)
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        let detail = try #require(viewModel.open(3))
        let url = try #require(detail.model.url)

        // The thumbnails hold every slot; the large image waits behind them.
        viewModel.search("sunset")
        try await eventually("new page 1") { viewModel.pages.value.count == 1 }
        #expect(detail.model.state.value.isPending, "still loading, not cancelled")
        try await eventually("the large image started") { fetcher.started.contains(url) }
        fetcher.release(url)
        try await eventually("the large image arrived") {
            if case .loaded = detail.model.state.value { true } else { false }
        }
        #expect(!fetcher.cancelled.contains(url))
    }

    @Test func cancelKeepsAPrefetchedPage() async throws {
        let (viewModel, provider) = makeViewModel(fetcher: ScriptedImageFetcher())
        viewModel.search("kittens")
        try await eventually("page 2 prefetched with its thumbnails") {
            let ready = viewModel.prefetchedCells.value
            return ready.count == 30 && ready.allSatisfy { if case .loaded = $0.state.value { true } else { false } }
        }
        #expect(!viewModel.hasPendingWork)
        viewModel.cancel()
        #expect(viewModel.notice.value == .info("Nothing to cancel."))
        viewModel.nextPage()
        try #require(viewModel.pages.value.count == 2, "shown at once from the kept page")
        #expect(provider.calls.map(\.page) == [1, 2], "not asked for again")
        #expect(viewModel.pages.value[1].cells.allSatisfy { if case .loaded = $0.state.value { true } else { false } })
    }
}
