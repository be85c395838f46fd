import PhotoCore
@testable import Downloads
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// The download job against pages a server might really send: an empty page
/// in the middle, and a photo listed on two pages.
@Suite struct DownloadPagesTests {
    private func run(_ provider: PagedProvider, pages: Int, folder: URL) async -> DownloadJob.Result {
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        let job = DownloadJob(
            request: .init(query: .typed("kittens"), pages: pages, perPage: 3, size: .square150, folder: folder, concurrency: 2,
                sidecars: false),
            provider: provider, pipeline: pipeline, reporter: DownloadJobTests.RecordingReporter())
        return await job.run()
    }

    @Test func anEmptyMiddlePageIsReportedAndMakesTheDownloadIncomplete() async throws {
        let directory = try TemporaryDirectory()
        let provider = PagedProvider(pages: [
            1: PhotoPage(page: 1, pages: 3, perPage: 3, total: 9, photos: PagedProvider.photos(0..<3)),
            2: PhotoPage(page: 2, pages: 3, perPage: 3, total: 9, photos: []),
            3: PhotoPage(page: 3, pages: 3, perPage: 3, total: 9, photos: PagedProvider.photos(6..<9)),
        ])
        let result = await run(provider, pages: 3, folder: directory.url)
        #expect(result.tally.downloaded == 3)
        #expect(result.tally.isIncomplete, "the exit status must say something is missing")
        #expect(result.notes.contains { $0.contains("Page 2 came back empty") }, "\(result.notes)")
    }

    @Test func aPhotoListedOnTwoPagesIsCountedOnce() async throws {
        let directory = try TemporaryDirectory()
        let provider = PagedProvider(pages: [
            1: PhotoPage(page: 1, pages: 2, perPage: 3, total: 6, photos: PagedProvider.photos(0..<3)),
            2: PhotoPage(page: 2, pages: 2, perPage: 3, total: 6, photos: PagedProvider.photos(2..<5)),
        ])
        let result = await run(provider, pages: 2, folder: directory.url)
        #expect(result.tally.expected == 5)
        #expect(result.tally.downloaded + result.tally.kept == 5)
        #expect(!result.tally.isIncomplete)
        #expect(directory.allFiles().filter { $0.lastPathComponent != DownloadManifest.fileName }.count == 5)
    }
}
