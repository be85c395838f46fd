import Foundation
import NIOConcurrencyHelpers
import Testing
import TestSupport
@testable import ImagePipeline

#if canImport(Glibc)
import Glibc
#endif

/// The cache folder is private to the user, and a file that cannot be
/// written is reported once, with its path and the reason, not ignored.
@Suite struct DiskCacheFolderTests {
    private func mode(_ url: URL) throws -> mode_t {
        var info = stat()
        try #require(stat(url.path, &info) == 0)
        return info.st_mode & 0o777
    }

    /// Makes `url`'s cache file unwritable: a folder (not empty) sits where the file would go.
    private func block(_ cache: ImageDiskCache, _ url: URL) throws {
        let blocker = cache.fileURL(for: url)
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: blocker.appendingPathComponent("keep"))
    }

    @Test func newFolderIsCreatedPrivate() async throws {
        let home = try TemporaryDirectory()
        let folder = home.url.appendingPathComponent("cache/flickr/images", isDirectory: true)
        let cache = ImageDiskCache(directory: folder, sizeLimit: 1 << 20)
        cache.store(fakeJPEG(), for: testURL("a"))
        await cache.flush()
        #expect(try mode(folder) == 0o700)
        #expect(cache.data(for: testURL("a")) == fakeJPEG())
        #expect(cache.writeFailures().count == 0)
    }

    @Test func widerExistingFolderIsNarrowed() async throws {
        let home = try TemporaryDirectory()
        let folder = try home.subdirectory("images")
        try #require(chmod(folder.path, 0o755) == 0)
        try CacheEntry.encode(url: testURL("old").absoluteString, data: fakeJPEG()).write(
            to: ImageDiskCache(directory: folder, sizeLimit: 1 << 20).fileURL(for: testURL("old")))
        let cache = ImageDiskCache(directory: folder, sizeLimit: 1 << 20)
        cache.store(fakeJPEG(), for: testURL("a"))
        await cache.flush()
        #expect(try mode(folder) == 0o700)
        #expect(cache.data(for: testURL("old")) == fakeJPEG(), "existing entries stay")
    }

    @Test func unwritableFileIsReportedOnceWithItsPathAndReason() async throws {
        let folder = try TemporaryDirectory()
        let reports = NIOLockedValueBox<[String]>([])
        let cache = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20) { message in
            reports.withLockedValue { $0.append(message) }
        }
        try block(cache, testURL("a"))
        try block(cache, testURL("b"))
        cache.store(fakeJPEG(), for: testURL("a"))
        cache.store(fakeJPEG(), for: testURL("b"))
        cache.store(fakeJPEG(), for: testURL("c"))
        await cache.flush()

        let messages = reports.withLockedValue { $0 }
        try #require(messages.count == 1)
        #expect(messages[0].contains(cache.fileURL(for: testURL("a")).path))
        #expect(messages[0].contains(String(cString: strerror(EISDIR))))
        let failures = cache.writeFailures()
        #expect(failures.count == 2)
        #expect(failures.last?.contains(cache.fileURL(for: testURL("b")).path) == true)
        #expect(ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20).data(for: testURL("c")) == fakeJPEG(),
                "other files are still written")
    }

    @Test func folderThatIsAFileIsReported() async throws {
        let home = try TemporaryDirectory()
        let notAFolder = home.url.appendingPathComponent("images")
        try Data("x".utf8).write(to: notAFolder)
        let cache = ImageDiskCache(directory: notAFolder, sizeLimit: 1 << 20)
        cache.store(fakeJPEG(), for: testURL("a"))
        await cache.flush()
        #expect(cache.writeFailures().last?.contains(notAFolder.path) == true)
    }

    @Test func pipelineShowsTheFailureInItsStatisticsAndReportsItOnce() async throws {
        let folder = try TemporaryDirectory()
        let reports = NIOLockedValueBox<[String]>([])
        let fetcher = ScriptedImageFetcher()
        let pipeline = makePipeline(fetcher) { configuration in
            configuration.diskCacheDirectory = folder.url
            configuration.onCacheWriteFailure = { message in reports.withLockedValue { $0.append(message) } }
        }
        let cache = try #require(pipeline.diskCache)
        let urls = (0..<3).map { testURL("blocked\($0)") }
        for url in urls { try block(cache, url) }
        for url in urls {
            #expect(try await pipeline.image(for: url, priority: .normal).source == .network)
        }
        await pipeline.waitForPendingWrites()

        #expect(reports.withLockedValue { $0.count } == 1)
        let statistics = pipeline.statistics()
        #expect(statistics.cacheWriteFailures == 3)
        let message = try #require(statistics.lastCacheError)
        #expect(message.contains(cache.fileURL(for: urls[2]).path))
        #expect(statistics.done == 3, "images load even when the cache cannot keep them")
    }

    @Test func corruptEntryIsStillDiscarded() async throws {
        let folder = try TemporaryDirectory()
        let cache = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20)
        cache.store(fakeJPEG(size: 1_000), for: testURL("a"))
        await cache.flush()
        let file = cache.fileURL(for: testURL("a"))
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 10] ^= 0xFF
        try bytes.write(to: file)
        #expect(ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20).data(for: testURL("a")) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(cache.writeFailures().count == 0, "a damaged entry is a miss, not a write failure")
    }
}
