import PhotoCore
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// The live-search rules on the view model, with an in-memory provider: a
/// pause searches the text so far once, changes replace it, and the page it
/// found is what a search for the same text shows.
@MainActor
@Suite struct LiveSearchTests {
    private func makeViewModel(photos: Int = 95) -> (FlickrViewModel, InMemoryProvider) {
        let provider = InMemoryProvider(count: photos)
        let viewModel = FlickrViewModel(provider: provider, pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()), perPage: 30)
        viewModel.configureLiveSearch(delay: .milliseconds(20))
        return (viewModel, provider)
    }

    @Test func onlyTheTextAtThePauseIsSearchedAndOnlyOnce() async throws {
        let (viewModel, provider) = makeViewModel()
        for text in ["k", "ki", "kit", "kitt", "kitten"] { viewModel.typing(text) }
        try await eventually("the live result") {
            if case .found = viewModel.liveResult.value { return true } else { return false }
        }
        #expect(provider.calls.map(\.query) == ["kitten"])
        #expect(viewModel.liveResult.value == .found(total: 95, titles: (1...8).map { "Photo \($0)" }))
        // A trailing space and the same words again: the same query.
        viewModel.typing("kitten ")
        viewModel.typing(" kitten")
        try await Task.sleep(for: .milliseconds(100))
        #expect(provider.calls.count == 1)
        #expect(viewModel.liveSearchesSent == 1)
    }

    @Test func enterOnTheSameTextShowsTheFoundPageWithNoCall() async throws {
        let (viewModel, provider) = makeViewModel()
        viewModel.typing("kittens")
        try await eventually("the live result") { viewModel.liveResult.value != .searching && viewModel.liveResult.value != .hidden }
        // The first row is loading ahead, at low priority.
        #expect(viewModel.liveFirstRow.value.count == 3)
        viewModel.lineEnded()
        #expect(viewModel.liveResult.value == .hidden)
        viewModel.search("kittens")
        try await eventually("page 1") { viewModel.pages.value.count == 1 }
        #expect(provider.calls.filter { $0.page == 1 }.count == 1, "calls: \(provider.calls)")
        #expect(viewModel.pages.value.first?.cells.map(\.number) == Array(1...30))
        // Different text searches as before.
        viewModel.search("puppies")
        try await eventually("a call for puppies") { provider.calls.contains { $0.query == "puppies" } }
    }

    @Test func commandsShortTextAndOffSearchNothing() async throws {
        let (viewModel, provider) = makeViewModel()
        viewModel.typing("/recent")
        viewModel.typing("k")
        viewModel.typing("  ")
        try await Task.sleep(for: .milliseconds(100))
        viewModel.setLiveSearch(on: false)
        viewModel.typing("kittens")
        try await Task.sleep(for: .milliseconds(100))
        #expect(provider.calls.isEmpty)
        #expect(viewModel.liveResult.value == .hidden)
        viewModel.setLiveSearch(on: true)
        viewModel.typing("kittens")
        try await eventually("a search once on again") { provider.calls.count == 1 }
    }

    @Test func aFailureIsShownAndCancelClearsTheLine() async throws {
        let (viewModel, provider) = makeViewModel()
        provider.fail(with: URLError(.timedOut))
        viewModel.typing("kittens")
        try await eventually("the failure") {
            if case .failed = viewModel.liveResult.value { return true } else { return false }
        }
        viewModel.cancel()
        #expect(viewModel.liveResult.value == .hidden)
    }

    @Test func aChangeHidesWhatWasFoundForOtherText() async throws {
        let (viewModel, _) = makeViewModel(photos: 0)
        viewModel.typing("kittens")
        try await eventually("no results") { viewModel.liveResult.value == .noResults }
        viewModel.typing("kittens s")
        #expect(viewModel.liveResult.value == .hidden)
        try await eventually("no results for the new text") { viewModel.liveResult.value == .noResults }
    }
}
