import PhotoCore
import Networking
import Foundation
@testable import Sandbox
import Testing
import TestSupport
@testable import ImagePipeline

/// A transfer that receives nothing for the quiet period while others wait
/// stops counting against the limit: the healthy transfers behind a
/// stalled server complete while the stalled ones are still open.
@Suite struct QuietTransferTests {
    @Test func stalledTransfersAreSetAsideAndTheQueueMovesOn() async throws {
        let fetcher = ScriptedImageFetcher()
        let stalledURLs = [testURL("stalled0"), testURL("stalled1")]
        for url in stalledURLs { fetcher.setStandingAnswer(.stall, for: url) }
        let pipeline = makePipeline(fetcher, concurrency: 2) { $0.quietTransferPeriod = .milliseconds(50) }
        let stalled = stalledURLs.map { _ in ImageEventRecorder() }
        // The stalled ones first: they take both slots.
        let requests = zip(stalledURLs, stalled).map { url, recorder in
            pipeline.load(url, priority: .high, onEvent: recorder.handler)
        }
        let others = (0..<8).map { testURL("other\($0)") }
        let recorders = others.map { _ in ImageEventRecorder() }
        for (url, recorder) in zip(others, recorders) {
            pipeline.load(url, priority: .normal, onEvent: recorder.handler)
        }

        try await eventually(timeout: patience) { recorders.allSatisfy { $0.completion != nil } }
        for recorder in recorders {
            #expect(try recorder.completion?.get().source == .network)
        }
        #expect(stalled.allSatisfy { $0.completion == nil }, "the stalled transfers are still open")
        #expect(stalledURLs.allSatisfy { fetcher.requests(for: $0) == 1 }, "set aside, not restarted")
        let statistics = pipeline.statistics()
        // The second is set aside only if something still waited when its
        // quiet period ended: on a busy machine the first one's freed slot
        // may have run the whole queue (instant answers) before then.
        #expect((1...2).contains(statistics.quiet))
        #expect(statistics.running == 2)
        #expect(fetcher.peakInFlight <= 4, "at most the limit again in quiet transfers")

        for request in requests { request.cancel() }
        try await eventually(timeout: patience) { pipeline.statistics().running == 0 }
        #expect(pipeline.statistics().quiet == 0)
    }

    @Test func atMostTheLimitIsSetAside() async throws {
        let fetcher = ScriptedImageFetcher()
        let stalledURLs = (0..<3).map { testURL("stalled\($0)") }
        for url in stalledURLs { fetcher.setStandingAnswer(.stall, for: url) }
        let pipeline = makePipeline(fetcher, concurrency: 1) { $0.quietTransferPeriod = .milliseconds(20) }
        for url in stalledURLs { pipeline.load(url, priority: .high) { _ in } }
        let last = ImageEventRecorder()
        pipeline.load(testURL("healthy"), priority: .normal, onEvent: last.handler)

        // The first stalled transfer is set aside; the second then keeps
        // the one slot, so neither the third nor the healthy one starts.
        try await eventually(timeout: patience) { fetcher.started.count == 2 && pipeline.statistics().quiet == 1 }
        #expect(fetcher.started == Array(stalledURLs.prefix(2)))
        #expect(last.completion == nil)
        pipeline.cancelAll()
        try await eventually(timeout: patience) { pipeline.statistics().running == 0 }
    }

    /// The sandbox's stall fault (headers, then silence) on real HTTP: the
    /// stalled images come first and would take every slot.
    @Test func healthyImagesArriveWhileStalledOnesStayOpenAtTheSandbox() async throws {
        var faults = FaultConfiguration()
        faults.rate = 0.2
        faults.kind = .stall
        faults.seed = 3
        faults.scope = .images
        let injector = FaultInjector(configuration: faults)
        var network = NetworkManager.Configuration()
        // The stalled transfers must outlast the test, not time out and fail.
        network.idleTimeout = .seconds(300)
        try await withSandboxSession(photoCount: 500, network: network, configure: { $0.faults = faults }) { server, network in
            let urls = (0..<30).map { sandboxImageURL(server, $0) }
            let stalledURLs = urls.filter { injector.isFaulty($0.path) }
            let healthyURLs = urls.filter { !injector.isFaulty($0.path) }
            try #require((2...3).contains(stalledURLs.count), "the seed gives \(stalledURLs.count) stalled images")
            // As many slots as stalled images: kept, they would hold every one.
            var configuration = ImagePipelineConfiguration()
            configuration.maxConcurrentDownloads = stalledURLs.count
            configuration.quietTransferPeriod = .milliseconds(200)
            let pipeline = ImageDownloadManager(fetcher: network, configuration: configuration)
            defer { pipeline.cancelAll() }

            let stalled = stalledURLs.map { _ in ImageEventRecorder() }
            for (url, recorder) in zip(stalledURLs, stalled) { pipeline.load(url, priority: .high, onEvent: recorder.handler) }
            let healthy = healthyURLs.map { _ in ImageEventRecorder() }
            for (url, recorder) in zip(healthyURLs, healthy) { pipeline.load(url, priority: .normal, onEvent: recorder.handler) }

            try await eventually(timeout: patience) { healthy.allSatisfy { $0.completion != nil } }
            for recorder in healthy {
                #expect(try recorder.completion?.get().source == .network)
            }
            #expect(stalled.allSatisfy { $0.completion == nil }, "the stalled images are still open")
            try await eventually(timeout: patience) { server.stats().inFlight == stalledURLs.count }
            #expect(pipeline.statistics().quiet == stalledURLs.count)
        }
    }
}
