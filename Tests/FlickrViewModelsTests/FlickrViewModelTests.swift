import PhotoCore
import FlickrService
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing

@MainActor
@Suite struct FlickrViewModelTests {
    private func makeViewModel(
        photos: Int = 95, perPage: Int = 30, fetcher: ScriptedImageFetcher = ScriptedImageFetcher(),
        maxResults: Int? = nil, store: SessionStore? = nil, providerName: String = "memory"
    ) -> (FlickrViewModel, InMemoryProvider, ScriptedImageFetcher) {
        let provider = InMemoryProvider(count: photos, displayName: providerName, maxResults: maxResults)
        let pipeline = ImageDownloadManager(fetcher: fetcher)
        let viewModel = FlickrViewModel(provider: provider, pipeline: pipeline, perPage: perPage, sessionStore: store)
        return (viewModel, provider, fetcher)
    }

    @Test func searchPublishesTheFirstPageWithNumberedCells() async throws {
        let (viewModel, provider, _) = makeViewModel()
        viewModel.search("  kittens  ")
        #expect(viewModel.activity.value == .loading(.search(.typed("kittens")), page: 1))
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        let page = try #require(viewModel.pages.value.first)
        #expect(page.number == 1)
        #expect(page.pages == 4)
        #expect(page.total == 95)
        #expect(page.cells.map(\.number) == Array(1...30))
        #expect(viewModel.activity.value == .idle)
        #expect(provider.calls.first?.query == "kittens")
    }

    @Test func everyThumbnailOfThePageIsDownloaded() async throws {
        let (viewModel, _, fetcher) = makeViewModel()
        viewModel.search("kittens")
        try await eventually("thumbnails") { viewModel.progress.value.loaded == 30 }
        #expect(viewModel.progress.value == DownloadProgress(total: 30, loaded: 30, bytes: 30 * ScriptedImageFetcher.jpeg().count))
        let fetchedPage1 = Set(fetcher.started).intersection(Set(viewModel.cells.compactMap(\.url)))
        #expect(fetchedPage1.count == 30)
    }

    @Test func nextPageAppendsAndNumbersContinue() async throws {
        let (viewModel, _, _) = makeViewModel()
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        viewModel.nextPage()
        try await eventually("page 2") { viewModel.pages.value.count == 2 }
        #expect(viewModel.pages.value[1].number == 2)
        #expect(viewModel.pages.value[1].cells.first?.number == 31)
        #expect(viewModel.cells.count == 60)
    }

    @Test func pagingPastTheLastPageSaysThereIsNoMore() async throws {
        let (viewModel, provider, _) = makeViewModel(photos: 40)
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        viewModel.nextPage()
        try await eventually("page 2") { viewModel.pages.value.count == 2 }
        #expect(!viewModel.hasMore)
        let callsBefore = provider.calls.count
        viewModel.nextPage()
        #expect(viewModel.notice.value == .info("No more results."))
        #expect(provider.calls.count == callsBefore)
    }

    @Test func pagingStopsAtTheProvidersResultCap() async throws {
        let (viewModel, _, _) = makeViewModel(photos: 100, perPage: 30, maxResults: 60)
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        #expect(viewModel.pages.value[0].lastServedPage == 2)
        viewModel.nextPage()
        try await eventually("page 2") { viewModel.pages.value.count == 2 }
        viewModel.nextPage()
        guard case .info(let message) = viewModel.notice.value else {
            Issue.record("expected an info notice")
            return
        }
        #expect(message.contains("serves only the first 60 of 100"))
    }

    @Test func cancelStopsPendingDownloadsAndCountsThem() async throws {
        let (viewModel, _, fetcher) = makeViewModel(fetcher: ScriptedImageFetcher(gated: true))
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        #expect(viewModel.hasPendingWork)
        let cancelled = viewModel.cancel()
        #expect(cancelled == 30)
        #expect(viewModel.notice.value == .info("Cancelled 30 downloads."))
        #expect(viewModel.progress.value.cancelled == 30)
        // Releasing the transfers must not bring any cell back to life.
        fetcher.releaseAll()
        try await Task.sleep(for: .milliseconds(100))
        #expect(viewModel.cells.allSatisfy { if case .cancelled = $0.state.value { true } else { false } })
        #expect(!viewModel.hasPendingWork)
    }

    @Test func aNewSearchCancelsThePreviousSearchsDownloads() async throws {
        let (viewModel, _, _) = makeViewModel(fetcher: ScriptedImageFetcher(gated: true))
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        let oldCells = viewModel.cells
        viewModel.search("sunset")
        #expect(oldCells.allSatisfy { if case .cancelled = $0.state.value { true } else { false } })
        #expect(viewModel.pages.value.isEmpty)
        try await eventually("new page 1") { viewModel.pages.value.count == 1 }
        #expect(viewModel.query.value == .search(.typed("sunset")))
        #expect(viewModel.cells.first?.number == 1)
    }

    @Test func aFailedThumbnailSaysWhyAndCanBeRetried() async throws {
        let fetcher = ScriptedImageFetcher()
        let (viewModel, provider, _) = makeViewModel(fetcher: fetcher)
        let firstURL = try #require(provider.imageURL(
            for: Photo(id: "1000", owner: "o", secret: "s0", server: "65535", title: ""),
            covering: PixelSize(width: 320, height: 320)))
        fetcher.fail(firstURL, with: .httpStatus(404, host: firstURL.host ?? ""))
        viewModel.search("kittens")
        try await eventually("settled") { viewModel.progress.value.isComplete && viewModel.progress.value.total == 30 }
        let cell = try #require(viewModel.cells.first)
        guard case .failed(let reason) = cell.state.value else {
            Issue.record("expected a failed cell, got \(cell.state.value)")
            return
        }
        #expect(reason.contains("404"))
        #expect(viewModel.progress.value.failed == 1)

        fetcher.heal(firstURL)
        #expect(viewModel.retry().count == 1)
        try await eventually("retried") { if case .loaded = cell.state.value { true } else { false } }
    }

    @Test func aPageErrorBecomesAnErrorNotice() async throws {
        let (viewModel, provider, _) = makeViewModel()
        provider.fail(with: FlickrError.api(code: 100, message: "Invalid API Key (Key has invalid format)"))
        viewModel.search("kittens")
        try await eventually("error") { viewModel.notice.value != nil }
        guard case .error(let message) = viewModel.notice.value else {
            Issue.record("expected an error notice")
            return
        }
        #expect(message.contains("100"))
        #expect(viewModel.activity.value == .idle)
        #expect(viewModel.pages.value.isEmpty)
    }

    @Test func theNextPageIsPreheatedOnceThisPagesThumbnailsAreIn() async throws {
        let (viewModel, provider, fetcher) = makeViewModel()
        viewModel.search("kittens")
        try await eventually("page 2 preheated") { provider.calls.count == 2 && fetcher.started.count == 60 }
        #expect(provider.calls.map(\.page) == [1, 2])
        viewModel.nextPage()
        // Shown at once, from the preheated page: no new request, already loaded.
        #expect(viewModel.pages.value.count == 2)
        #expect(provider.calls.count == 2)
        #expect(viewModel.pages.value[1].cells.map(\.number) == Array(31...60))
        try await eventually("page 2 loaded") { viewModel.progress.value.loaded == 30 }
    }

    @Test func openGivesTheLargeImageOfAResult() async throws {
        let (viewModel, _, _) = makeViewModel()
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        let detail = try #require(viewModel.open(3))
        #expect(detail.model.title == "Photo 3")
        #expect(detail.model.url?.absoluteString.hasSuffix("_b.jpg") == true)
        #expect(detail.pageURL?.absoluteString == "https://www.flickr.com/photos/owner2@N00/1002/")
        try await eventually("detail loaded") { if case .loaded = detail.model.state.value { true } else { false } }
    }

    /// Leaving stops the details still on their way: the app waits for the
    /// view's jobs (one may be waiting for these) before it exits, so a
    /// details call on a stalled network would otherwise hold the exit.
    @Test(.timeLimit(.minutes(1))) func shutdownStopsTheDetailsStillLoading() async throws {
        let (viewModel, provider, _) = makeViewModel()
        provider.holdDetails()
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        let detail = try #require(viewModel.open(3))
        viewModel.shutdown()
        let facts = await detail.facts()
        guard case .unavailable = facts else {
            Issue.record("expected no details after shutdown, got \(facts)")
            return
        }
    }

    @Test func openingAMissingResultExplains() async throws {
        let (viewModel, _, _) = makeViewModel()
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        #expect(viewModel.open(99) == nil)
        #expect(viewModel.notice.value == .error("No result 99: results 1–30 are loaded."))
    }

    @Test func theSessionComesBackOnTheNextLaunch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = SessionStore(file: directory.appendingPathComponent("session.json"))
        do {
            let (viewModel, _, _) = makeViewModel(store: store)
            viewModel.search("red car")
            try await eventually("page 1") { viewModel.pages.value.count == 1 }
            viewModel.nextPage()
            try await eventually("page 2") { viewModel.pages.value.count == 2 }
            viewModel.shutdown()
        }
        let (relaunched, provider, _) = makeViewModel(store: store)
        #expect(relaunched.restoreSession())
        #expect(provider.calls.isEmpty)
        #expect(relaunched.query.value == .search(.typed("red car")))
        #expect(relaunched.pages.value.map(\.number) == [1, 2])
        #expect(relaunched.pages.value.allSatisfy { $0.restored })
        #expect(relaunched.cells.map(\.number) == Array(1...60))
        #expect(relaunched.hasMore)
    }

    @Test func aCorruptSessionFileIsReportedAndIgnored() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("session.json")
        try Data("{\"version\":1,\"provider\":\"memory\",\"pag".utf8).write(to: file)
        let (viewModel, _, _) = makeViewModel(store: SessionStore(file: file))
        #expect(!viewModel.restoreSession())
        guard case .warning(let message) = viewModel.notice.value else {
            Issue.record("expected a warning")
            return
        }
        #expect(message.contains("damaged"))
        #expect(viewModel.pages.value.isEmpty)
    }
}
