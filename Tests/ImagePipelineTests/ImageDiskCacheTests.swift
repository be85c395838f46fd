import Foundation
import Testing
import TestSupport
@testable import ImagePipeline

@Suite struct ImageDiskCacheTests {
    @Test func storedEntryIsReadBackAfterFlush() async throws {
        let folder = try TemporaryDirectory()
        let cache = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20)
        let data = fakeJPEG(size: 500)
        cache.store(data, for: testURL("a"))
        await cache.flush()
        let reopened = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20)
        #expect(reopened.data(for: testURL("a")) == data)
        #expect(reopened.data(for: testURL("b")) == nil)
    }

    @Test func fileNameIsTheHashOfTheURL() {
        let name = ImageDiskCache.fileName(for: testURL("a"))
        #expect(name.count == 16 + 4)
        #expect(name.hasSuffix(".img"))
        #expect(name != ImageDiskCache.fileName(for: testURL("b")))
        #expect(name == ImageDiskCache.fileName(for: testURL("a")))
    }

    @Test func corruptedEntryIsDiscardedNotServed() async throws {
        let folder = try TemporaryDirectory()
        let cache = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20)
        cache.store(fakeJPEG(size: 2_000), for: testURL("a"))
        await cache.flush()
        let file = cache.fileURL(for: testURL("a"))
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: file)

        let reopened = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20)
        #expect(reopened.data(for: testURL("a")) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func truncatedEntryIsDiscardedNotServed() async throws {
        let folder = try TemporaryDirectory()
        let cache = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20)
        cache.store(fakeJPEG(size: 2_000), for: testURL("a"))
        await cache.flush()
        let file = cache.fileURL(for: testURL("a"))
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count - 700).write(to: file)

        let reopened = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20)
        #expect(reopened.data(for: testURL("a")) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// What a writer killed half-way would leave if writes were not atomic:
    /// a torn file under the final name, and a stray temporary file.
    @Test func tornWriteLeftoversAreNeverServed() async throws {
        let folder = try TemporaryDirectory()
        let entry = CacheEntry.encode(url: testURL("a").absoluteString, data: fakeJPEG(size: 4_000))
        let cache = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20)
        try entry.prefix(1_000).write(to: cache.fileURL(for: testURL("a")))
        try entry.write(to: folder.url.appendingPathComponent(".tmp-99999-1"))
        #expect(cache.data(for: testURL("a")) == nil)
    }

    @Test func entryOfAnotherURLWithTheSameFileNameIsAMiss() async throws {
        let folder = try TemporaryDirectory()
        let cache = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20)
        // Pretend "b" hashed to "a"'s file name: the stored URL tells them apart.
        let entry = CacheEntry.encode(url: testURL("b").absoluteString, data: fakeJPEG())
        try entry.write(to: cache.fileURL(for: testURL("a")))
        #expect(cache.data(for: testURL("a")) == nil)
    }

    @Test func entryWhosePayloadIsNoImageIsDiscarded() async throws {
        let folder = try TemporaryDirectory()
        let cache = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 20)
        let entry = CacheEntry.encode(url: testURL("a").absoluteString, data: Data("not an image".utf8))
        try entry.write(to: cache.fileURL(for: testURL("a")))
        #expect(cache.data(for: testURL("a")) == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.fileURL(for: testURL("a")).path))
    }

    @Test func trimsToAboutSeventyPercentDroppingLeastRecentlyUsedFirst() async throws {
        let folder = try TemporaryDirectory()
        let entrySize = CacheEntry.encode(url: testURL("00").absoluteString, data: fakeJPEG(size: 1_000)).count
        let limit = entrySize * 10
        let cache = ImageDiskCache(directory: folder.url, sizeLimit: limit)
        for index in 0..<10 {
            cache.store(fakeJPEG(size: 1_000), for: testURL(String(format: "%02d", index)))
            await cache.flush()
        }
        #expect(cache.diskUsage() == limit)
        // Writes a few milliseconds apart can share a timestamp (the kernel's
        // clock for file times is coarse), so give them distinct past ones.
        for index in 0..<10 {
            let used = Date(timeIntervalSinceNow: -1_000 + Double(index))
            try FileManager.default.setAttributes(
                [.modificationDate: used], ofItemAtPath: cache.fileURL(for: testURL(String(format: "%02d", index))).path)
        }
        // Use the oldest entry, then go over the limit.
        #expect(cache.data(for: testURL("00")) != nil)
        cache.store(fakeJPEG(size: 1_000), for: testURL("10"))
        await cache.flush()

        let usage = cache.diskUsage()
        #expect(usage <= cache.trimTarget)
        #expect(usage >= cache.trimTarget - entrySize)
        #expect(cache.data(for: testURL("00")) != nil, "a recently used entry survives")
        #expect(cache.data(for: testURL("10")) != nil, "the newest entry survives")
        #expect(cache.data(for: testURL("01")) == nil, "the least recently used entry goes first")
    }

    @Test func twoCachesWritingOneDirectoryLeaveOnlyWholeEntries() async throws {
        let folder = try TemporaryDirectory()
        let first = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 24)
        let second = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 24)
        for round in 0..<5 {
            for index in 0..<40 {
                first.store(fakeJPEG(size: 3_000 + index, fill: UInt8(round)), for: testURL("\(index)"))
                second.store(fakeJPEG(size: 5_000 + index, fill: UInt8(round + 100)), for: testURL("\(index)"))
            }
        }
        await first.flush()
        await second.flush()
        let reader = ImageDiskCache(directory: folder.url, sizeLimit: 1 << 24)
        for index in 0..<40 {
            let data = try #require(reader.data(for: testURL("\(index)")))
            #expect([3_000 + index, 5_000 + index].contains(data.count))
        }
        let strays = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".tmp-") }
        #expect(strays.isEmpty)
    }
}
