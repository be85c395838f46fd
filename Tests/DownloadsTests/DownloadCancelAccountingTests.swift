import PhotoCore
@testable import Downloads
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// After a cancel the summary accounts for every photo
/// listed, the ones never started included.
@Suite struct DownloadCancelAccountingTests {
    @Test func aCancelledDownloadAccountsForEveryListedPhoto() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: (1...8).map { "Tile \($0)" })
        let gated = ScriptedImageFetcher(gated: true)
        let reporter = DownloadResumeTests.TallyReporter()
        let job = DownloadJob(
            request: .init(
                source: .collection(provider.album), pages: 2, perPage: 4, size: .square150, folder: directory.url,
                concurrency: 1, sidecars: false, name: try FileNameTemplate("{index}")),
            provider: provider, pipeline: ImageDownloadManager(fetcher: gated), reporter: reporter)
        let running = Task { await job.run() }
        gated.release(try #require(URL(string: "http://images.test/1_q.jpg")))
        try await eventually("one image saved") { reporter.tally.downloaded == 1 }
        job.cancel()
        let result = await running.value
        #expect(result.cancelled)
        let tally = result.tally
        #expect(tally.expected >= 4)
        #expect(tally.settled == tally.expected, "\(tally)")
        #expect(tally.notStarted > 0, "\(tally)")
        #expect(tally.summary(seconds: 1).contains("not started \(tally.notStarted)"), "\(tally.summary(seconds: 1))")
        let report = DownloadReport(result, seconds: 1, folder: directory.url, collection: nil)
        #expect(report.json.contains("\"not_started\":\(tally.notStarted)"), "\(report.json)")
    }
}
