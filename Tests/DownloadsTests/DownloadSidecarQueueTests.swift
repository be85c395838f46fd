import PhotoCore
@testable import Downloads
import Foundation
import ImagePipeline
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// Sidecars are written beside the transfers, not in the slot of the
/// transfer that brought the image.
@Suite struct DownloadSidecarQueueTests {
    /// Holds the report of a sidecar that could not be written until the
    /// next transfer has started (or a generous bound has passed, which on
    /// a slot held by sidecar writing it never would), and says which.
    final class HoldingReporter: DownloadReporter {
        let fetcher: ScriptedImageFetcher
        private let nextStarted = NIOLockedValueBox<Bool?>(nil)
        var nextTransferStartedMeanwhile: Bool? { nextStarted.withLockedValue { $0 } }

        init(fetcher: ScriptedImageFetcher) {
            self.fetcher = fetcher
        }

        func pageStarted(_ number: Int, of last: Int, photos: Int, tally: DownloadTally) {}
        func pageFailed(_ number: Int, reason: String, tally: DownloadTally) {}
        func imageSettled(tally: DownloadTally, failure: String?) {
            guard let failure, failure.contains("sidecar not written") else { return }
            let bound = ContinuousClock.now + .seconds(20)
            while fetcher.started.count < 2, ContinuousClock.now < bound { usleep(1_000) }
            let started = fetcher.started.count >= 2
            nextStarted.withLockedValue { $0 = $0 ?? started }
        }
    }

    @Test func theNextTransferStartsWhileTheLastOnesSidecarsAreWritten() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: ["A", "B"])
        let fetcher = ScriptedImageFetcher()
        var configuration = ImagePipelineConfiguration()
        configuration.maxConcurrentDownloads = 1
        let reporter = HoldingReporter(fetcher: fetcher)
        let job = DownloadJob(
            request: .init(
                source: .collection(provider.album), pages: 1, perPage: 2, size: .square150, folder: directory.url, concurrency: 1,
                sidecars: true, name: try FileNameTemplate("{index}")),
            provider: provider, pipeline: ImageDownloadManager(fetcher: fetcher, configuration: configuration), reporter: reporter)
        // After the job listed the folder: the first work's JSON sidecar
        // cannot be renamed over a folder, so its report is held.
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("1.json"), withIntermediateDirectories: false)

        let result = await job.run()
        #expect(result.tally.downloaded == 2, "the images stay when a sidecar cannot be written")
        #expect(reporter.nextTransferStartedMeanwhile == true)
        // The work's credits are missing: the exit status, `complete` and a note say so.
        #expect(result.creditFilesMissing == 1)
        #expect(result.isIncomplete)
        #expect(result.notes.contains { $0.hasPrefix("The sidecars of 1 work could not be written: 1:") }, "\(result.notes)")
        // Its other sidecar was still written.
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("1.xmp").path))
    }

    @Test func aCreditsFileThatCannotBeWrittenLeavesTheDownloadIncomplete() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: ["A", "B"])
        let job = DownloadJob(
            request: .init(
                source: .collection(provider.album), pages: 1, perPage: 2, size: .square150, folder: directory.url, concurrency: 2,
                sidecars: true, name: try FileNameTemplate("{index}")),
            provider: provider, pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()), reporter: SilentReporter())
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("CREDITS.md"), withIntermediateDirectories: false)

        let result = await job.run()
        #expect(result.tally.downloaded == 2)
        #expect(!result.tally.isIncomplete, "every image is there")
        #expect(result.creditFilesMissing == 1)
        #expect(result.isIncomplete)
        #expect(result.notes.contains { $0.hasPrefix("Could not write CREDITS.md") })
        let report = DownloadReport(result, seconds: 1, folder: directory.url, collection: nil)
        #expect(!report.complete)
    }

    private final class SilentReporter: DownloadReporter {
        func pageStarted(_ number: Int, of last: Int, photos: Int, tally: DownloadTally) {}
        func pageFailed(_ number: Int, reason: String, tally: DownloadTally) {}
        func imageSettled(tally: DownloadTally, failure: String?) {}
    }
}
