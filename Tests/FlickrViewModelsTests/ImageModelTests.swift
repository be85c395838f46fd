import PhotoCore
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing
import FlickrService

@MainActor
@Suite struct ImageModelTests {
    private let photo = Photo(id: "1", owner: "o@N00", secret: "abc", server: "1", title: "t")

    @Test func goesFromQueuedToLoaded() async throws {
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        let model = ImageModel(number: 1, photo: photo, url: URL(string: "http://images.test/1.jpg"), pipeline: pipeline)
        var seen: [String] = []
        let token = model.state.observe { state in
            switch state {
            case .idle: seen.append("idle")
            case .queued: seen.append("queued")
            case .loading: seen.append("loading")
            case .loaded: seen.append("loaded")
            case .failed: seen.append("failed")
            case .cancelled: seen.append("cancelled")
            }
        }
        model.load(priority: .high)
        try await eventually("loaded") { model.state.value.isSettled }
        #expect(seen.first == "idle")
        #expect(seen.dropFirst().first == "queued")
        #expect(seen.last == "loaded")
        token.cancel()
    }

    @Test func aPhotoWithoutAnImageURLFailsAtOnce() {
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        let model = ImageModel(number: 1, photo: photo, url: nil, pipeline: pipeline)
        model.load(priority: .high)
        guard case .failed(let reason) = model.state.value else {
            Issue.record("expected failed")
            return
        }
        #expect(reason == "no image URL for this photo")
    }

    @Test func cancellingASettledCellDoesNothing() async throws {
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        let model = ImageModel(number: 1, photo: photo, url: URL(string: "http://images.test/2.jpg"), pipeline: pipeline)
        model.load(priority: .high)
        try await eventually("loaded") { model.state.value.isSettled }
        #expect(!model.cancel())
        if case .loaded = model.state.value {} else { Issue.record("a loaded cell must stay loaded") }
    }

    @Test func aSecondCellForTheSameURLIsServedFromMemory() async throws {
        let fetcher = ScriptedImageFetcher()
        let pipeline = ImageDownloadManager(fetcher: fetcher)
        let url = URL(string: "http://images.test/3.jpg")
        let first = ImageModel(number: 1, photo: photo, url: url, pipeline: pipeline)
        first.load(priority: .high)
        try await eventually("loaded") { first.state.value.isSettled }
        let second = ImageModel(number: 2, photo: photo, url: url, pipeline: pipeline)
        second.load(priority: .high)
        guard case .loaded(let image) = second.state.value else {
            Issue.record("expected an immediate memory hit")
            return
        }
        #expect(image.cacheKey == url?.absoluteString)
        #expect(fetcher.started.count == 1)
    }
}

/// A row waits for its cells, but not for one that has stopped changing.
@MainActor
@Suite struct CellSettlingTests {
    private func cells(_ count: Int, fetcher: ScriptedImageFetcher) -> [ImageModel] {
        let pipeline = ImageDownloadManager(fetcher: fetcher)
        return (1...count).map { number in
            ImageModel(
                number: number, photo: Photo(id: "\(number)", owner: "o@N00", secret: "s", server: "1", title: "t\(number)"),
                url: URL(string: "http://images.test/\(number).jpg"), pipeline: pipeline)
        }
    }

    @Test func aRowOfLoadedCellsHasNothingLate() async {
        let row = cells(3, fetcher: ScriptedImageFetcher())
        for cell in row { cell.load(priority: .high) }
        let late = await ImageModel.settle(row, watching: row, orQuietFor: .seconds(30))
        #expect(late.isEmpty)
        #expect(row.allSatisfy { $0.state.value.isSettled })
    }

    @Test func aStalledCellIsReportedLateWhileTheOthersAreDone() async throws {
        let fetcher = ScriptedImageFetcher()
        fetcher.setStandingAnswer(.stall, for: URL(string: "http://images.test/2.jpg")!)
        let row = cells(3, fetcher: fetcher)
        for cell in row { cell.load(priority: .high) }
        // A busy machine can leave a healthy cell unchanged for 300 ms while it
        // decodes; once they are done, only the stalled cell can be late.
        try await eventually("the healthy cells settled") { row[0].state.value.isSettled && row[2].state.value.isSettled }
        let late = await ImageModel.settle(row, watching: row, orQuietFor: .milliseconds(300))
        #expect(late.map(\.number) == [2])
        #expect(row[0].state.value.isSettled && row[2].state.value.isSettled)
        #expect(row[1].state.value.isPending, "the stalled transfer is still running, not given up")
        for cell in row { cell.cancel() }
    }

    /// A wait for a cell that never settles (never loaded, say) ends when
    /// its task is cancelled, so a dropped page's waiters do not keep its
    /// cells alive for ever; one that settles still ends as before.
    @Test(.timeLimit(.minutes(1))) func waitingForACellEndsWhenTheWaiterIsCancelled() async {
        let row = cells(2, fetcher: ScriptedImageFetcher())
        let idle = row[0]
        let waiter = Task { @MainActor in await idle.settled() }
        waiter.cancel()
        await waiter.value
        if case .idle = idle.state.value {} else { Issue.record("the cell changed: \(idle.state.value)") }

        let loading = row[1]
        let settledWaiter = Task { @MainActor in await loading.settled() }
        loading.load(priority: .high)
        await settledWaiter.value
        #expect(loading.state.value.isSettled)
    }

    /// A row's wait ends when its task is cancelled (the page was replaced,
    /// or the app is quitting), however long the quiet period would be.
    @Test(.timeLimit(.minutes(1))) func aRowsWaitEndsWhenItsTaskIsCancelled() async {
        let fetcher = ScriptedImageFetcher()
        fetcher.setStandingAnswer(.stall, for: URL(string: "http://images.test/1.jpg")!)
        let row = cells(1, fetcher: fetcher)
        row[0].load(priority: .high)
        let waiter = Task { @MainActor in await ImageModel.settle(row, watching: row, orQuietFor: .seconds(3600)) }
        waiter.cancel()
        let late = await waiter.value
        #expect(late.map(\.number) == [1])
        row[0].cancel()
    }
}
