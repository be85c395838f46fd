import PhotoCore
import FlickrService
@testable import Downloads
import Foundation
import ImagePipeline
import NIOConcurrencyHelpers
import Sandbox
import TestSupport
import Testing

/// The download job against the real sandbox over loopback HTTP, writing
/// into a real temporary folder.
@Suite struct DownloadJobTests {
    /// Remembers what the job reported.
    final class RecordingReporter: DownloadReporter {
        private let log = NIOLockedValueBox<[String]>([])
        /// Called after each page started, on the job's task.
        private let onPageStarted: @Sendable () -> Void
        var events: [String] { log.withLockedValue { $0 } }

        init(onPageStarted: @escaping @Sendable () -> Void = {}) {
            self.onPageStarted = onPageStarted
        }

        func pageStarted(_ number: Int, of last: Int, photos: Int, tally: DownloadTally) {
            log.withLockedValue { $0.append("page \(number)/\(last): \(photos)") }
            onPageStarted()
        }

        func imageSettled(tally: DownloadTally, failure: String?) {
            if let failure { log.withLockedValue { $0.append("failed: \(failure)") } }
        }

        func pageFailed(_ number: Int, reason: String, tally: DownloadTally) {
            log.withLockedValue { $0.append("page \(number) failed") }
        }
    }

    private func run(
        pages: Int, perPage: Int = 10, folder: URL, configure: (inout SandboxConfiguration) -> Void = { _ in },
        reporter: RecordingReporter = RecordingReporter(), before: (DownloadJob) -> Void = { _ in }
    ) async throws -> (DownloadJob.Result, RecordingReporter) {
        try await withSandboxSession(photoCount: 500, configure: configure) { server, network in
            let provider = FlickrProvider(
                apiKey: "sandbox", endpoint: server.restURL, imageHost: server.baseURL,
                network: network, displayName: "sandbox")
            let pipeline = ImageDownloadManager(fetcher: network)
            let job = DownloadJob(
                request: .init(query: .typed("kittens"), pages: pages, perPage: perPage, size: .square150, folder: folder, concurrency: 4,
                    sidecars: false),
                provider: provider, pipeline: pipeline, reporter: reporter)
            before(job)
            return (await job.run(), reporter)
        }
    }

    @Test func downloadsEveryImageOfEachPageAsAWholeFile() async throws {
        let directory = try TemporaryDirectory()
        let (result, reporter) = try await run(pages: 2, folder: directory.url)
        #expect(result.tally.downloaded == 20)
        #expect(result.tally.failed == 0)
        #expect(!result.tally.isIncomplete)
        #expect(reporter.events == ["page 1/2: 10", "page 2/2: 10"])
        let files = directory.allFiles().filter { $0.lastPathComponent != DownloadManifest.fileName }
        #expect(files.count == 20)
        for file in files {
            #expect(ImageFormat.isComplete(try Data(contentsOf: file)), "\(file.lastPathComponent) is not a whole image")
            #expect(file.lastPathComponent.hasSuffix("_q.jpg"))
        }
    }

    @Test func aWholeFileIsKeptAndACutOneIsFetchedAgain() async throws {
        let directory = try TemporaryDirectory()
        let (first, _) = try await run(pages: 1, perPage: 3, folder: directory.url)
        #expect(first.tally.downloaded == 3)
        let files = directory.allFiles().filter { $0.lastPathComponent != DownloadManifest.fileName }.sorted { $0.path < $1.path }
        try #require(files.count == 3)
        // Cut one file in half, as an interrupted run of another tool would leave it.
        let whole = try Data(contentsOf: files[0])
        try whole.prefix(whole.count / 2).write(to: files[0])

        let (second, _) = try await run(pages: 1, perPage: 3, folder: directory.url)
        #expect(second.tally.kept == 2)
        #expect(second.tally.downloaded == 1)
        #expect(try Data(contentsOf: files[0]) == whole)
    }

    @Test func aPageThatCannotBeFetchedIsCountedAndReported() async throws {
        let directory = try TemporaryDirectory()
        let (result, reporter) = try await run(pages: 2, folder: directory.url) { configuration in
            configuration.faults.rate = 1
            configuration.faults.scope = .rest
            configuration.faults.status = 404
        }
        #expect(result.tally.failedPages == 1)
        #expect(result.tally.isIncomplete)
        #expect(reporter.events == ["page 1 failed"])
        #expect(directory.allFiles().isEmpty)
    }

    @Test func cancellingEndsTheJobAndSaysSo() async throws {
        let directory = try TemporaryDirectory()
        // Cancels as page 1 starts, whatever the machine's speed: a fixed
        // delay could outlast the whole job.
        let job = NIOLockedValueBox<DownloadJob?>(nil)
        let reporter = RecordingReporter { job.withLockedValue { $0 }?.cancel() }
        let (result, _) = try await run(
            pages: 3, folder: directory.url, configure: { $0.throttleKBps = 4 }, reporter: reporter
        ) { started in
            job.withLockedValue { $0 = started }
        }
        #expect(result.cancelled)
        #expect(result.tally.downloaded < 30)
    }

    @Test func aFolderThatCannotBeCreatedFailsBeforeAnyTransfer() throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.url.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: blocker)
        let folder = DownloadFolder(url: blocker.appendingPathComponent("images"))
        #expect(throws: DownloadFolderError.self) { try folder.prepare() }
        do {
            try folder.prepare()
        } catch {
            #expect(error.message.contains(blocker.path))
            // The system's reason, in PhotoCore's words, not Foundation's generic one.
            #expect(error.message.hasSuffix("a part of the path is not a folder."), "\(error.message)")
        }
    }

    @Test func fileNamesKeepOnlySafeCharacters() {
        let photo = Photo(id: "12/../34", owner: "o", secret: "a b;c", server: "1", title: "")
        #expect(DownloadFolder.fileName(for: photo, size: .square150) == "1234_abc_q.jpg")
        let unsigned = Photo(id: "99", owner: "o", secret: "", server: "", title: "")
        #expect(DownloadFolder.fileName(for: unsigned, size: .medium640) == "99_z.jpg")
    }

    @Test func theSummarySaysWhatIsMissing() {
        var tally = DownloadTally()
        tally.expected = 3
        tally.outstanding = 3
        tally.record(.downloaded(bytes: 2048, fromCache: true))
        tally.record(.failed("x"))
        tally.record(.cancelled)
        tally.failedPages = 1
        #expect(tally.summary(seconds: 1.5) == "Downloaded 1 (1 from cache), 0 already there, failed 1, cancelled 1, 1 page not fetched, 2 KB in 1.50 s.")
        #expect(tally.isIncomplete)
    }
}
