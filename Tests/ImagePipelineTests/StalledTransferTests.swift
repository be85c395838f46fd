import PhotoCore
import Foundation
import Testing
import TestSupport
@testable import ImagePipeline

/// Real networks stall: a transfer that stops sending must hold at most one
/// slot, end through the fetcher's idle timeout, be retried a bounded number
/// of times, and never hold back the other transfers.
@Suite struct StalledTransferTests {
    private let others = (0..<8).map { testURL("other\($0)") }

    @Test func stalledTransferHoldsOneSlotWhileTheOthersComplete() async throws {
        let fetcher = ScriptedImageFetcher()
        let stalledURL = testURL("stalled")
        fetcher.setStandingAnswer(.stall, for: stalledURL)
        let pipeline = makePipeline(fetcher, concurrency: 2)
        let stalled = ImageEventRecorder()
        let request = pipeline.load(stalledURL, priority: .high, onEvent: stalled.handler)
        try await eventually(timeout: patience) { fetcher.inFlight == 1 }

        let recorders = others.map { _ in ImageEventRecorder() }
        for (url, recorder) in zip(others, recorders) {
            pipeline.load(url, priority: .normal, onEvent: recorder.handler)
        }
        try await eventually(timeout: patience) { recorders.allSatisfy { $0.completion != nil } }
        for recorder in recorders {
            #expect(try recorder.completion?.get().source == .network)
        }
        #expect(fetcher.peakInFlight == 2, "the stalled transfer kept one slot, no more")
        #expect(fetcher.requests(for: stalledURL) == 1)
        #expect(stalled.all.isEmpty)
        try await eventually(timeout: patience) { pipeline.statistics().running == 1 }

        request.cancel()
        try await eventually(timeout: patience) { fetcher.cancelled == [stalledURL] }
        try await eventually(timeout: patience) { pipeline.statistics().running == 0 }
        #expect(stalled.all.isEmpty)
        let statistics = pipeline.statistics()
        #expect(statistics.done == others.count)
        #expect(statistics.cancelled == 1)
    }

    @Test func idleTimeoutIsRetriedABoundedNumberOfTimesInItsOneSlot() async throws {
        let fetcher = ScriptedImageFetcher()
        let stalledURL = testURL("stalled")
        fetcher.setStandingAnswer(.stallThenFail(idle: .milliseconds(20), error: .timedOut(host: "images.test")), for: stalledURL)
        let pipeline = makePipeline(fetcher, concurrency: 2) { $0.maxRetries = 3 }
        let stalled = ImageEventRecorder()
        pipeline.load(stalledURL, priority: .high, onEvent: stalled.handler)
        let recorders = others.map { _ in ImageEventRecorder() }
        for (url, recorder) in zip(others, recorders) {
            pipeline.load(url, priority: .normal, onEvent: recorder.handler)
        }

        try await eventually(timeout: patience) { (recorders + [stalled]).allSatisfy { $0.completion != nil } }
        guard case .failure(.network(.timedOut)) = stalled.completion else {
            Issue.record("expected the idle time-out after the retries, got \(String(describing: stalled.completion))")
            return
        }
        #expect(stalled.completionCount == 1)
        #expect(fetcher.requests(for: stalledURL) == 4, "one attempt and three retries, no more")
        #expect(fetcher.peakInFlight <= 2)
        for recorder in recorders {
            #expect(try recorder.completion?.get().source == .network)
        }
        let statistics = pipeline.statistics()
        #expect(statistics.retries == 3)
        #expect(statistics.failed == 1)
        #expect(statistics.done == others.count)
        try await eventually(timeout: patience) { pipeline.statistics().running == 0 }
    }

    @Test func withOneSlotTheQueueMovesOnOnceTheRetriesAreUsedUp() async throws {
        let fetcher = ScriptedImageFetcher()
        let stalledURL = testURL("stalled")
        fetcher.setStandingAnswer(.stallThenFail(idle: .milliseconds(10), error: .timedOut(host: "images.test")), for: stalledURL)
        let pipeline = makePipeline(fetcher, concurrency: 1) { $0.maxRetries = 2 }
        let stalled = ImageEventRecorder()
        pipeline.load(stalledURL, priority: .high, onEvent: stalled.handler)
        let next = ImageEventRecorder()
        pipeline.load(others[0], priority: .normal, onEvent: next.handler)

        try await eventually(timeout: patience) { next.completion != nil }
        #expect(try next.completion?.get().source == .network)
        #expect(stalled.completionCount == 1)
        #expect(fetcher.started == [stalledURL, stalledURL, stalledURL, others[0]])
        #expect(fetcher.peakInFlight == 1)
    }

    @Test func cancelledRetryingTransferStopsRetrying() async throws {
        let fetcher = ScriptedImageFetcher()
        let url = testURL("flaky")
        fetcher.script(url, [.fail(.httpStatus(503, host: "images.test")), .stall])
        let pipeline = makePipeline(fetcher) { $0.maxRetries = 5 }
        let recorder = ImageEventRecorder()
        let request = pipeline.load(url, priority: .normal, onEvent: recorder.handler)
        try await eventually(timeout: patience) { fetcher.requests(for: url) == 2 && fetcher.inFlight == 1 }
        request.cancel()
        try await eventually(timeout: patience) { pipeline.statistics().running == 0 }
        #expect(fetcher.requests(for: url) == 2)
        #expect(fetcher.cancelled == [url])
        #expect(recorder.all.isEmpty)
    }
}
