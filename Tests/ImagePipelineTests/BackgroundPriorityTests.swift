import Foundation
import Testing
import TestSupport
@testable import ImagePipeline

/// On a shared slow line every transfer takes bandwidth from the others:
/// background work (a prefetched page, a page the person moved on from)
/// waits while the page shown loads, and an opened photo goes first.
@Suite struct BackgroundPriorityTests {
    private func manager(_ fetcher: some ImageFetching, concurrency: Int) -> ImageDownloadManager {
        var configuration = ImagePipelineConfiguration()
        configuration.maxConcurrentDownloads = concurrency
        // Gated transfers are silent until released; they keep their slots here.
        configuration.quietTransferPeriod = nil
        return ImageDownloadManager(fetcher: fetcher, configuration: configuration)
    }

    @Test func backgroundTransfersWaitWhileTheShownPageLoads() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher, concurrency: 4)
        pipeline.load(testURL("shown"), priority: .high) { _ in }
        pipeline.load(testURL("next1"), priority: .low) { _ in }
        pipeline.load(testURL("next2"), priority: .low) { _ in }
        // Slots are free, yet the background waits (starting is decided as a load is made).
        let waiting = pipeline.statistics()
        #expect(waiting.running == 1 && waiting.queued == 2, "\(waiting)")
        try await eventually(timeout: patience) { fetcher.started == [testURL("shown")] }
        fetcher.release(testURL("shown"))
        try await eventually(timeout: patience) { Set(fetcher.started) == Set(["shown", "next1", "next2"].map(testURL)) }
    }

    @Test func aTransferDroppedToTheBackgroundLetsBackgroundWorkStart() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher, concurrency: 4)
        let left = pipeline.load(testURL("page1"), priority: .high) { _ in }
        pipeline.load(testURL("prefetched"), priority: .low) { _ in }
        #expect(pipeline.statistics().queued == 1)
        // The person moved on: page 1's transfer goes on in the background, beside the others.
        left.setPriority(.low)
        try await eventually(timeout: patience) { Set(fetcher.started) == Set(["page1", "prefetched"].map(testURL)) }
        fetcher.releaseAll()
    }

    @Test func anOpenedPhotoGoesAheadOfThePage() async throws {
        let fetcher = ScriptedImageFetcher(gated: true)
        let pipeline = manager(fetcher, concurrency: 1)
        pipeline.load(testURL("first"), priority: .high) { _ in }
        try await eventually(timeout: patience) { fetcher.started.count == 1 }
        pipeline.load(testURL("thumb1"), priority: .high) { _ in }
        pipeline.load(testURL("thumb2"), priority: .high) { _ in }
        pipeline.load(testURL("opened"), priority: .veryHigh) { _ in }
        for index in 0..<4 {
            try await eventually(timeout: patience) { fetcher.started.count > index }
            fetcher.release(fetcher.started[index])
        }
        #expect(fetcher.started == ["first", "opened", "thumb1", "thumb2"].map(testURL))
    }
}
