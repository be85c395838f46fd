import FlickrKit
import Foundation
import Testing
@testable import ImagePipeline

/// Queue order, coalescing and cancellation, observed through a gated
/// in-memory fetcher so that "which transfer starts next" has no timing in it.
@Suite struct SchedulingTests {
    private func manager(_ fetcher: some ImageFetching, concurrency: Int = 1) -> ImageDownloadManager {
        var configuration = ImagePipelineConfiguration()
        configuration.maxConcurrentDownloads = concurrency
        configuration.retryBaseDelay = .milliseconds(1)
        return ImageDownloadManager(fetcher: fetcher, configuration: configuration)
    }

    /// Releases transfers one at a time, each after it started, and returns the start order.
    private func drain(_ fetcher: GatedFetcher, expecting count: Int) async -> [URL] {
        for index in 0..<count {
            await waitUntil("transfer \(index + 1) started") { fetcher.started.count > index }
            guard fetcher.started.count > index else { break }
            fetcher.release(fetcher.started[index])
        }
        return fetcher.started
    }

    @Test func higherPriorityRunsFirstAndFIFOWithinAPriority() async {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher)
        pipeline.load(testURL("first"), priority: .normal) { _ in }
        await waitUntil("the first transfer occupies the only slot") { fetcher.started.count == 1 }
        for (name, priority) in [("low1", DownloadPriority.low), ("normal1", .normal), ("high1", .high),
                                 ("low2", .low), ("high2", .high), ("normal2", .normal)] {
            pipeline.load(testURL(name), priority: priority) { _ in }
        }
        let order = await drain(fetcher, expecting: 7)
        #expect(order == ["first", "high1", "high2", "normal1", "normal2", "low1", "low2"].map(testURL))
    }

    @Test func raisingAQueuedRequestsPriorityMovesItAhead() async {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher)
        pipeline.load(testURL("first"), priority: .normal) { _ in }
        await waitUntil("the first transfer started") { fetcher.started.count == 1 }
        pipeline.load(testURL("a"), priority: .low) { _ in }
        pipeline.load(testURL("b"), priority: .low) { _ in }
        let c = pipeline.load(testURL("c"), priority: .low) { _ in }
        c.setPriority(.high)
        let order = await drain(fetcher, expecting: 4)
        #expect(order == ["first", "c", "a", "b"].map(testURL))
    }

    @Test func loweringAQueuedRequestsPriorityMovesItBack() async {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher)
        pipeline.load(testURL("first"), priority: .normal) { _ in }
        await waitUntil("the first transfer started") { fetcher.started.count == 1 }
        let a = pipeline.load(testURL("a"), priority: .high) { _ in }
        pipeline.load(testURL("b"), priority: .normal) { _ in }
        a.setPriority(.low)
        let order = await drain(fetcher, expecting: 3)
        #expect(order == ["first", "b", "a"].map(testURL))
    }

    @Test func coalescedTransferTakesTheHighestPriorityOfItsRequesters() async {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher)
        pipeline.load(testURL("first"), priority: .normal) { _ in }
        await waitUntil("the first transfer started") { fetcher.started.count == 1 }
        pipeline.load(testURL("a"), priority: .normal) { _ in }
        pipeline.load(testURL("b"), priority: .low) { _ in }
        let bHigh = pipeline.load(testURL("b"), priority: .high) { _ in }
        #expect(pipeline.statistics().coalesced == 1)
        // Dropping the high requester drops the transfer back to low.
        bHigh.cancel()
        let order = await drain(fetcher, expecting: 3)
        #expect(order == ["first", "a", "b"].map(testURL))
    }

    @Test func cancelledQueuedRequestNeverReachesTheFetcher() async {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher)
        pipeline.load(testURL("first"), priority: .normal) { _ in }
        await waitUntil("the first transfer started") { fetcher.started.count == 1 }
        let recorder = EventRecorder()
        let queued = pipeline.load(testURL("queued"), priority: .high, onEvent: recorder.handler)
        pipeline.load(testURL("after"), priority: .normal) { _ in }
        queued.cancel()
        #expect(pipeline.statistics().queued == 1)
        let order = await drain(fetcher, expecting: 2)
        #expect(order == ["first", "after"].map(testURL))
        #expect(recorder.all.isEmpty)
        #expect(pipeline.statistics().cancelled == 1)
    }

    @Test func twoRequestersOfOneURLShareOneTransfer() async throws {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher, concurrency: 6)
        let first = EventRecorder()
        let second = EventRecorder()
        pipeline.load(testURL("a"), priority: .normal, onEvent: first.handler)
        pipeline.load(testURL("a"), priority: .high, onEvent: second.handler)
        fetcher.release(testURL("a"))
        await waitUntil("both requesters completed") { first.completion != nil && second.completion != nil }
        #expect(fetcher.started == [testURL("a")])
        #expect(try first.completion?.get().source == .network)
        #expect(try second.completion?.get().source == .network)
        #expect(pipeline.statistics().coalesced == 1)
        #expect(pipeline.statistics().done == 1)
    }

    @Test func cancellingOneOfTwoRequestersLetsTheOtherComplete() async throws {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher)
        let kept = EventRecorder()
        let dropped = EventRecorder()
        pipeline.load(testURL("a"), priority: .normal, onEvent: kept.handler)
        let request = pipeline.load(testURL("a"), priority: .normal, onEvent: dropped.handler)
        await waitUntil("the transfer started") { fetcher.started.count == 1 }
        request.cancel()
        fetcher.release(testURL("a"))
        await waitUntil("the remaining requester completed") { kept.completion != nil }
        #expect(fetcher.cancelled.isEmpty)
        #expect(try kept.completion?.get().data == fakeJPEG())
        #expect(dropped.all.isEmpty)
    }

    @Test func cancellingEveryRequesterCancelsTheRunningFetch() async {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher)
        let one = pipeline.load(testURL("a"), priority: .normal) { _ in }
        let two = pipeline.load(testURL("a"), priority: .normal) { _ in }
        await waitUntil("the transfer started") { fetcher.started.count == 1 }
        one.cancel()
        two.cancel()
        await waitUntil("the fetch saw the cancellation") { fetcher.cancelled == [testURL("a")] }
        await waitUntil("the slot is free again") { pipeline.statistics().running == 0 }
        #expect(pipeline.statistics().cancelled == 1)
    }

    @Test func cancelledRequesterGetsNoLateEvent() async {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher)
        let silenced = EventRecorder()
        let witness = EventRecorder()
        let request = pipeline.load(testURL("a"), priority: .normal, onEvent: silenced.handler)
        pipeline.load(testURL("a"), priority: .normal, onEvent: witness.handler)
        await waitUntil("the transfer started") { fetcher.started.count == 1 }
        request.cancel()
        fetcher.release(testURL("a"))
        await waitUntil("the other requester completed") { witness.completion != nil }
        #expect(silenced.all.isEmpty)
    }

    @Test func cancelAllCompletesPendingRequestsAsCancelledAndStopsTransfers() async {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher, concurrency: 2)
        let recorders = (0..<5).map { _ in EventRecorder() }
        for (index, recorder) in recorders.enumerated() {
            pipeline.load(testURL("\(index)"), priority: .normal, onEvent: recorder.handler)
        }
        await waitUntil("two transfers started") { fetcher.started.count == 2 }
        pipeline.cancelAll()
        for recorder in recorders {
            #expect(recorder.completionCount == 1)
            if case .failure(.cancelled) = recorder.completion {} else { Issue.record("expected .cancelled") }
        }
        await waitUntil("both running fetches were cancelled") { fetcher.cancelled.count == 2 }
        await waitUntil("no transfer is running") { pipeline.statistics().running == 0 }
        #expect(fetcher.started.count == 2)
        #expect(pipeline.statistics().queued == 0)
        #expect(pipeline.statistics().cancelled == 5)
    }

    @Test func requestAfterCompletionIsServedFromMemory() async throws {
        let fetcher = GatedFetcher()
        fetcher.release(testURL("a"))
        let pipeline = manager(fetcher)
        _ = try await pipeline.image(for: testURL("a"), priority: .normal)
        let again = try await pipeline.image(for: testURL("a"), priority: .normal)
        #expect(again.source == .memory)
        #expect(pipeline.cachedImage(for: testURL("a"))?.data == fakeJPEG())
        #expect(fetcher.started.count == 1)
        #expect(pipeline.statistics().memoryHits == 2)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequest() async {
        let fetcher = GatedFetcher()
        let pipeline = manager(fetcher)
        let task = Task { await pipeline.loadResult(testURL("a")) }
        await waitUntil("the transfer started") { fetcher.started.count == 1 }
        task.cancel()
        let result = await task.value
        if case .failure(.cancelled) = result {} else { Issue.record("expected .cancelled, got \(result)") }
        await waitUntil("the fetch was cancelled") { fetcher.cancelled.count == 1 }
    }

    @Test func transientFailuresAreRetriedUpToTheLimit() async {
        let url = testURL("a")
        let fetcher = ScriptedFetcher([url: [
            .failure(.httpStatus(503, host: "h")), .failure(.connectionLost(host: "h")), .failure(.timedOut(host: "h")),
        ]])
        let pipeline = manager(fetcher)
        let result = await pipeline.loadResult(url)
        if case .failure(.network(.timedOut)) = result {} else { Issue.record("expected the third failure, got \(result)") }
        #expect(fetcher.requests(for: url) == 3)
        #expect(pipeline.statistics().retries == 2)
        #expect(pipeline.statistics().failed == 1)
    }

    @Test func clientErrorsAreNotRetried() async {
        let url = testURL("a")
        let fetcher = ScriptedFetcher([url: [.failure(.httpStatus(404, host: "h"))]])
        let pipeline = manager(fetcher)
        let result = await pipeline.loadResult(url)
        if case .failure(.network(.httpStatus(404, _))) = result {} else { Issue.record("expected 404, got \(result)") }
        #expect(fetcher.requests(for: url) == 1)
    }

    @Test func invalidImageIsNotRetriedNorCached() async {
        let url = testURL("a")
        let fetcher = ScriptedFetcher([url: [.success(Data("<html>".utf8))]])
        let pipeline = manager(fetcher)
        let result = await pipeline.loadResult(url)
        if case .failure(.invalidImage) = result {} else { Issue.record("expected invalidImage, got \(result)") }
        #expect(fetcher.requests(for: url) == 1)
        #expect(pipeline.cachedImage(for: url) == nil)
    }
}
