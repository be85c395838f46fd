import PhotoCore
import Foundation
import Testing
import TestSupport
@testable import ImagePipeline

/// Queue order, coalescing and cancellation, observed through a gated
/// in-memory fetcher so that "which transfer starts next" has no timing in it.
@Suite struct SchedulingTests {
    private func manager(_ fetcher: some ImageFetching, concurrency: Int = 1) -> ImageDownloadManager {
        var configuration = ImagePipelineConfiguration()
        configuration.maxConcurrentDownloads = concurrency
        configuration.retryBaseDelay = .milliseconds(1)
        // Gated transfers are silent until released; they keep their slots here.
        configuration.quietTransferPeriod = nil
        return ImageDownloadManager(fetcher: fetcher, configuration: configuration)
    }

    /// Releases transfers one at a time, each after it started, and returns the start order.
    private func drain(_ fetcher: ScriptedImageFetcher, expecting count: Int) async throws -> [URL] {
        for index in 0..<count {
            try await eventually(timeout: patience) { fetcher.started.count > index }
            fetcher.release(fetcher.started[index])
        }
        return fetcher.started
    }

    @Test func higherPriorityRunsFirstAndFIFOWithinAPriority() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher)
        pipeline.load(testURL("first"), priority: .normal) { _ in }
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        for (name, priority) in [("low1", DownloadPriority.low), ("normal1", .normal), ("high1", .high),
                                 ("low2", .low), ("high2", .high), ("normal2", .normal)] {
            pipeline.load(testURL(name), priority: priority) { _ in }
        }
        let order = try await drain(fetcher, expecting: 7)
        #expect(order == ["first", "high1", "high2", "normal1", "normal2", "low1", "low2"].map(testURL))
    }

    @Test func raisingAQueuedRequestsPriorityMovesItAhead() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher)
        pipeline.load(testURL("first"), priority: .normal) { _ in }
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        pipeline.load(testURL("a"), priority: .low) { _ in }
        pipeline.load(testURL("b"), priority: .low) { _ in }
        let c = pipeline.load(testURL("c"), priority: .low) { _ in }
        c.setPriority(.high)
        let order = try await drain(fetcher, expecting: 4)
        #expect(order == ["first", "c", "a", "b"].map(testURL))
    }

    @Test func loweringAQueuedRequestsPriorityMovesItBack() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher)
        pipeline.load(testURL("first"), priority: .normal) { _ in }
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        let a = pipeline.load(testURL("a"), priority: .high) { _ in }
        pipeline.load(testURL("b"), priority: .normal) { _ in }
        a.setPriority(.low)
        let order = try await drain(fetcher, expecting: 3)
        #expect(order == ["first", "b", "a"].map(testURL))
    }

    @Test func coalescedTransferTakesTheHighestPriorityOfItsRequesters() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher)
        pipeline.load(testURL("first"), priority: .normal) { _ in }
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        pipeline.load(testURL("a"), priority: .normal) { _ in }
        pipeline.load(testURL("b"), priority: .low) { _ in }
        let bHigh = pipeline.load(testURL("b"), priority: .high) { _ in }
        #expect(pipeline.statistics().coalesced == 1)
        // Dropping the high requester drops the transfer back to low.
        bHigh.cancel()
        let order = try await drain(fetcher, expecting: 3)
        #expect(order == ["first", "a", "b"].map(testURL))
    }

    @Test func cancelledQueuedRequestNeverReachesTheFetcher() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher)
        pipeline.load(testURL("first"), priority: .normal) { _ in }
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        let recorder = ImageEventRecorder()
        let queued = pipeline.load(testURL("queued"), priority: .high, onEvent: recorder.handler)
        pipeline.load(testURL("after"), priority: .normal) { _ in }
        queued.cancel()
        #expect(pipeline.statistics().queued == 1)
        let order = try await drain(fetcher, expecting: 2)
        #expect(order == ["first", "after"].map(testURL))
        #expect(recorder.all.isEmpty)
        #expect(pipeline.statistics().cancelled == 1)
    }

    /// Nothing outlives the manager: its running transfer is aborted and
    /// every request, running or queued, completes as cancelled.
    @Test func aManagerThatGoesAwayAbortsItsTransfers() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        var pipeline: ImageDownloadManager? = manager(fetcher)
        let running = ImageEventRecorder()
        let queued = ImageEventRecorder()
        pipeline?.load(testURL("running"), priority: .normal, onEvent: running.handler)
        pipeline?.load(testURL("queued"), priority: .normal, onEvent: queued.handler)
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        pipeline = nil
        try await eventually(timeout: patience) { fetcher.cancelled == [testURL("running")] && fetcher.inFlight == 0 }
        #expect(fetcher.started == [testURL("running")])
        for recorder in [running, queued] {
            #expect(recorder.completionCount == 1)
            if case .failure(.cancelled) = recorder.completion {} else { Issue.record("expected .cancelled, got \(recorder.all)") }
        }
    }

    /// Closing cancels what is queued and returns only once the running
    /// transfer has ended, so shutting the network down cuts nothing off.
    @Test func closeReturnsOnceRunningTransfersHaveEnded() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher)
        let running = ImageEventRecorder()
        pipeline.load(testURL("running"), priority: .normal, onEvent: running.handler)
        pipeline.load(testURL("queued"), priority: .normal) { _ in }
        try await eventually(timeout: patience) { fetcher.inFlight == 1 }
        await pipeline.close(limit: patience)
        #expect(fetcher.inFlight == 0)
        #expect(fetcher.cancelled == [testURL("running")])
        #expect(pipeline.statistics().running == 0)
        if case .failure(.cancelled) = running.completion {} else { Issue.record("expected .cancelled, got \(running.all)") }
    }

    /// Closing also waits for the disk-cache lookups under way: once it
    /// returns nothing of the pipeline's is still running, and the manager
    /// goes away with its last owner (a lookup left behind would keep it,
    /// and its memory cache, alive while the process exits).
    @Test func closeReturnsOnceDiskLookupsHaveEnded() async throws {
        let folder = try TemporaryDirectory()
        let urls = (0..<200).map { testURL("cached\($0)") }
        let seed = ImageDiskCache(directory: folder.url, sizeLimit: 64 << 20)
        for url in urls { seed.store(fakeJPEG(size: 20_000), for: url) }
        await seed.flush()

        var pipeline: ImageDownloadManager? = makePipeline(ScriptedImageFetcher(gated: true)) {
            $0.diskCacheDirectory = folder.url
        }
        weak let watch = pipeline
        for url in urls { pipeline?.load(url, priority: .normal) { _ in } }
        await pipeline?.close(limit: patience)
        pipeline = nil
        #expect(watch == nil, "a disk lookup outlived close")
    }

    /// A request lets go of its handler once cancelled or complete, so a
    /// handler may hold its own request without making a cycle.
    @Test func aCancelledOrCompletedRequestLetsGoOfItsHandler() async throws {
        final class Held: Sendable {}
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher, concurrency: 2)
        var cancelledsHeld: Held? = Held()
        var completedsHeld: Held? = Held()
        weak let cancelledsWatch = cancelledsHeld
        weak let completedsWatch = completedsHeld
        let request = pipeline.load(testURL("cancelled"), priority: .normal) { [cancelledsHeld] _ in _ = cancelledsHeld }
        pipeline.load(testURL("completed"), priority: .normal) { [completedsHeld] _ in _ = completedsHeld }
        cancelledsHeld = nil
        completedsHeld = nil
        #expect(cancelledsWatch != nil && completedsWatch != nil, "pending requests hold their handlers")

        request.cancel()
        #expect(cancelledsWatch == nil)
        try await eventually(timeout: patience) { fetcher.started.contains(testURL("completed")) }
        fetcher.release(testURL("completed"))
        try await eventually(timeout: patience) { completedsWatch == nil }
    }

    @Test func twoRequestersOfOneURLShareOneTransfer() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher, concurrency: 6)
        let first = ImageEventRecorder()
        let second = ImageEventRecorder()
        pipeline.load(testURL("a"), priority: .normal, onEvent: first.handler)
        pipeline.load(testURL("a"), priority: .high, onEvent: second.handler)
        fetcher.release(testURL("a"))
        try await eventually(timeout: patience) { first.completion != nil && second.completion != nil }
        #expect(fetcher.started == [testURL("a")])
        #expect(try first.completion?.get().source == .network)
        #expect(try second.completion?.get().source == .network)
        #expect(pipeline.statistics().coalesced == 1)
        #expect(pipeline.statistics().done == 1)
    }

    @Test func cancellingOneOfTwoRequestersLetsTheOtherComplete() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher)
        let kept = ImageEventRecorder()
        let dropped = ImageEventRecorder()
        pipeline.load(testURL("a"), priority: .normal, onEvent: kept.handler)
        let request = pipeline.load(testURL("a"), priority: .normal, onEvent: dropped.handler)
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        request.cancel()
        fetcher.release(testURL("a"))
        try await eventually(timeout: patience) { kept.completion != nil }
        #expect(fetcher.cancelled.isEmpty)
        #expect(try kept.completion?.get().data == fakeJPEG())
        #expect(dropped.all.isEmpty)
    }

    @Test func cancellingEveryRequesterCancelsTheRunningFetch() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher)
        let one = pipeline.load(testURL("a"), priority: .normal) { _ in }
        let two = pipeline.load(testURL("a"), priority: .normal) { _ in }
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        one.cancel()
        two.cancel()
        try await eventually(timeout: patience) { fetcher.cancelled == [testURL("a")] }
        try await eventually(timeout: patience) { pipeline.statistics().running == 0 }
        #expect(pipeline.statistics().cancelled == 1)
    }

    @Test func cancelledRequesterGetsNoLateEvent() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher)
        let silenced = ImageEventRecorder()
        let witness = ImageEventRecorder()
        let request = pipeline.load(testURL("a"), priority: .normal, onEvent: silenced.handler)
        pipeline.load(testURL("a"), priority: .normal, onEvent: witness.handler)
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        request.cancel()
        fetcher.release(testURL("a"))
        try await eventually(timeout: patience) { witness.completion != nil }
        #expect(silenced.all.isEmpty)
    }

    @Test func cancelAllCompletesPendingRequestsAsCancelledAndStopsTransfers() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher, concurrency: 2)
        let recorders = (0..<5).map { _ in ImageEventRecorder() }
        for (index, recorder) in recorders.enumerated() {
            pipeline.load(testURL("\(index)"), priority: .normal, onEvent: recorder.handler)
        }
        try await eventually(timeout: patience) { fetcher.started.count == 2 }
        pipeline.cancelAll()
        for recorder in recorders {
            #expect(recorder.completionCount == 1)
            if case .failure(.cancelled) = recorder.completion {} else { Issue.record("expected .cancelled") }
        }
        try await eventually(timeout: patience) { fetcher.cancelled.count == 2 }
        try await eventually(timeout: patience) { pipeline.statistics().running == 0 }
        #expect(fetcher.started.count == 2)
        #expect(pipeline.statistics().queued == 0)
        #expect(pipeline.statistics().cancelled == 5)
    }

    @Test func requestAfterCompletionIsServedFromMemory() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        fetcher.release(testURL("a"))
        let pipeline = manager(fetcher)
        _ = try await pipeline.image(for: testURL("a"), priority: .normal)
        let again = try await pipeline.image(for: testURL("a"), priority: .normal)
        #expect(again.source == .memory)
        #expect(pipeline.cachedImage(for: testURL("a"))?.data == fakeJPEG())
        #expect(fetcher.started.count == 1)
        #expect(pipeline.statistics().memoryHits == 2)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequest() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher)
        let task = Task { await pipeline.loadResult(testURL("a")) }
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        task.cancel()
        let result = await task.value
        if case .failure(.cancelled) = result {} else { Issue.record("expected .cancelled, got \(result)") }
        try await eventually(timeout: patience) { fetcher.cancelled.count == 1 }
    }

    @Test func transientFailuresAreRetriedUpToTheLimit() async throws {
        let url = testURL("a")
        let fetcher = ScriptedImageFetcher()
        fetcher.script(url, [.fail(.httpStatus(503, host: "h")), .fail(.connectionLost(host: "h")), .fail(.timedOut(host: "h"))])
        let pipeline = manager(fetcher)
        let result = await pipeline.loadResult(url)
        if case .failure(.network(.timedOut)) = result {} else { Issue.record("expected the third failure, got \(result)") }
        #expect(fetcher.requests(for: url) == 3)
        #expect(pipeline.statistics().retries == 2)
        #expect(pipeline.statistics().failed == 1)
    }

    @Test func clientErrorsAreNotRetried() async throws {
        let url = testURL("a")
        let fetcher = ScriptedImageFetcher()
        fetcher.script(url, [.fail(.httpStatus(404, host: "h"))])
        let pipeline = manager(fetcher)
        let result = await pipeline.loadResult(url)
        if case .failure(.network(.httpStatus(404, _))) = result {} else { Issue.record("expected 404, got \(result)") }
        #expect(fetcher.requests(for: url) == 1)
    }

    @Test func invalidImageIsNotRetriedNorCached() async throws {
        let url = testURL("a")
        let fetcher = ScriptedImageFetcher()
        fetcher.script(url, [.respond(Data("<html>".utf8))])
        let pipeline = manager(fetcher)
        let result = await pipeline.loadResult(url)
        if case .failure(.invalidImage) = result {} else { Issue.record("expected invalidImage, got \(result)") }
        #expect(fetcher.requests(for: url) == 1)
        #expect(pipeline.cachedImage(for: url) == nil)
    }

    @Test func requestAfterAFailedTransferStartsANewOne() async throws {
        let url = testURL("a")
        let fetcher = ScriptedImageFetcher()
        fetcher.script(url, [.fail(.httpStatus(404, host: "h"))])
        let pipeline = manager(fetcher)
        if case .success = await pipeline.loadResult(url) { Issue.record("expected the 404") }
        #expect(try await pipeline.image(for: url, priority: .normal).source == .network)
        #expect(fetcher.requests(for: url) == 2)
        #expect(pipeline.statistics().coalesced == 0)
    }

    @Test func handlerMayCancelEverythingFromInsideAnEvent() async throws {
        let url = testURL("a")
        let fetcher = ScriptedImageFetcher()
        let pipeline = manager(fetcher)
        let recorder = ImageEventRecorder()
        pipeline.load(url, priority: .normal) { event in
            recorder.handler(event)
            // Completes this very request, from inside its own handler.
            if case .progress = event { pipeline.cancelAll() }
        }
        try await eventually(timeout: patience) { recorder.completion != nil }
        try await eventually(timeout: patience) { pipeline.statistics().running == 0 }
        #expect(recorder.completionCount == 1)
        if case .failure(.cancelled) = recorder.completion {} else { Issue.record("expected .cancelled") }
        #expect(pipeline.cachedImage(for: url) == nil)
    }
}
