import PhotoCore
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// A restored session goes on where it stopped: its next page is asked with
/// the page size its pages were, and its results keep their numbers.
@MainActor
@Suite struct SessionPagingTests {
    private func makeViewModel(perPage: Int, store: SessionStore) -> (FlickrViewModel, InMemoryProvider) {
        let provider = InMemoryProvider(count: 200, displayName: "memory")
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        return (FlickrViewModel(provider: provider, pipeline: pipeline, perPage: perPage, sessionStore: store), provider)
    }

    private func savedSession(pages: Int, perPage: Int) async throws -> (SessionStore, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "session-paging")
        let store = SessionStore(file: directory.url.appendingPathComponent("session.json"))
        let (viewModel, _) = makeViewModel(perPage: perPage, store: store)
        viewModel.search("red car")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        for page in 2...pages {
            viewModel.nextPage()
            try await eventually("page \(page)") { viewModel.pages.value.count == page }
        }
        viewModel.shutdown()
        return (store, directory)
    }

    @Test func theNextPageIsAskedWithTheSavedPageSize() async throws {
        let (store, directory) = try await savedSession(pages: 2, perPage: 5)
        defer { _ = directory }
        let (relaunched, provider) = makeViewModel(perPage: 7, store: store)
        #expect(relaunched.restoreSession())
        relaunched.nextPage()
        try await eventually("page 3") { relaunched.pages.value.count == 3 }
        #expect(provider.calls.first?.page == 3)
        // Photos 11–15 follow 1–10: nothing skipped, nothing repeated.
        #expect(relaunched.cells.map(\.title) == (1...15).map { "Photo \($0)" })
        #expect(relaunched.cells.map(\.number) == Array(1...15))

        // A new search uses this run's page size again.
        relaunched.search("kittens")
        try await eventually("new page 1") { relaunched.pages.value.count == 1 }
        #expect(relaunched.cells.count == 7)
    }

    @Test func restoredResultsKeepTheirNumbers() async throws {
        // Twelve pages of 5: the file keeps the last ten, results 11–60.
        let (store, directory) = try await savedSession(pages: 12, perPage: 5)
        defer { _ = directory }
        let (relaunched, _) = makeViewModel(perPage: 5, store: store)
        #expect(relaunched.restoreSession())
        #expect(relaunched.cells.map(\.number) == Array(11...60))
        #expect(relaunched.cells.first?.title == "Photo 11")
        #expect(relaunched.open(5) == nil, "result 5 is not among the restored ones")
        #expect(relaunched.notice.value == .error("No result 5: results 11–60 are loaded."))
        let opened = try #require(relaunched.open(15))
        #expect(opened.model.title == "Photo 15")
    }

    @Test func aSessionFileWithoutItsNumberingStillLoads() throws {
        let directory = try TemporaryDirectory(prefix: "session-old")
        let file = directory.url.appendingPathComponent("session.json")
        // As written before the first result number was kept.
        let old = #"{"version":1,"provider":"memory","query":{"search":{"_0":"x"}},"savedAt":0,"pages":[{"page":1,"pages":3,"perPage":4,"total":10,"photos":[]}]}"#
        try Data(old.utf8).write(to: file)
        guard case .success(let snapshot?) = SessionStore(file: file).load() else {
            Issue.record("an old session file did not load")
            return
        }
        #expect(snapshot.firstNumber == nil)
        #expect(snapshot.pages.first?.perPage == 4)
    }
}
