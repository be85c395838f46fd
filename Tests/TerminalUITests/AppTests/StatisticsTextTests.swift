import FlickrViewModels
import Platform
@testable import TerminalUI
import Testing

/// `/stats` says what the app holds in memory: images, drawn thumbnails,
/// and the C heap (in use, and held free by the allocator), so a person
/// can tell a full cache from a leak.
@Suite struct StatisticsTextTests {
    @Test func statsNameEveryMemoryHolder() {
        var stats = DownloadStatistics()
        stats.memoryCacheCount = 12
        stats.memoryCacheBytes = 3 << 20
        let text = StatusText.statistics(
            stats, results: 30, pages: 1, hasMore: true,
            renders: (count: 30, bytes: 750 << 10), heap: (inUse: 40 << 20, heldFree: 5 << 20))
        let memory = text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(memory == "memory: images \(ByteCount.format(3 << 20)) in 12 · drawn thumbnails \(ByteCount.format(750 << 10)) in 30 · heap \(ByteCount.format(40 << 20)) in use, \(ByteCount.format(5 << 20)) held free")
    }

    @Test func theHeapIsMeasuredOnThisSystem() throws {
        let before = try #require(Platform.heapUsage(), "glibc reports its heap")
        let block = [UInt8](repeating: 1, count: 8 << 20)
        let after = try #require(Platform.heapUsage())
        #expect(after.inUse >= before.inUse + (8 << 20) - (64 << 10), "an 8 MB array shows in the heap in use")
        #expect(block.count == 8 << 20)
    }
}
