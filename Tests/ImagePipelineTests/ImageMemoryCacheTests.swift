import Foundation
import Testing
@testable import ImagePipeline

@Suite struct ImageMemoryCacheTests {
    private func response(_ name: String, size: Int = 100) -> ImageResponse {
        ImageResponse(url: testURL(name), data: fakeJPEG(size: size), format: .jpeg, source: .network)
    }

    @Test func countLimitEvictsTheLeastRecentlyUsed() {
        let cache = ImageMemoryCache(costLimit: 1 << 20, countLimit: 3)
        for name in ["a", "b", "c"] { cache.insert(response(name)) }
        _ = cache.value(for: testURL("a"))
        cache.insert(response("d"))
        #expect(cache.value(for: testURL("b")) == nil)
        #expect(cache.count == 3)
        #expect(cache.urlsByRecency == [testURL("d"), testURL("a"), testURL("c")])
    }

    @Test func costLimitEvictsUntilTheBytesFit() {
        let cache = ImageMemoryCache(costLimit: 1_000, countLimit: 100)
        for name in ["a", "b", "c", "d"] { cache.insert(response(name, size: 300)) }
        #expect(cache.totalCost <= 1_000)
        #expect(cache.urlsByRecency == [testURL("d"), testURL("c"), testURL("b")])
        cache.insert(response("big", size: 700))
        #expect(cache.urlsByRecency == [testURL("big"), testURL("d")])
        #expect(cache.totalCost == 1_000)
    }

    @Test func imageLargerThanTheCostLimitIsNotStored() {
        let cache = ImageMemoryCache(costLimit: 500, countLimit: 10)
        cache.insert(response("small", size: 100))
        cache.insert(response("huge", size: 501))
        #expect(cache.value(for: testURL("huge")) == nil)
        #expect(cache.value(for: testURL("small")) != nil)
    }

    @Test func reinsertingAURLReplacesItsEntryAndCost() {
        let cache = ImageMemoryCache(costLimit: 1_000, countLimit: 10)
        cache.insert(response("a", size: 400))
        cache.insert(response("a", size: 200))
        #expect(cache.count == 1)
        #expect(cache.totalCost == 200)
    }

    @Test func lookupsReorderAndEvictionFollowsThatOrderOverManyOperations() {
        let cache = ImageMemoryCache(costLimit: 1 << 20, countLimit: 50)
        for index in 0..<200 {
            cache.insert(response("\(index)"))
            if index >= 10 { _ = cache.value(for: testURL("\(index - 10)")) }
        }
        // Each insert touched the entry ten back, so the survivors are the last 50 inserted, touched or new.
        #expect(cache.count == 50)
        #expect(Set(cache.urlsByRecency) == Set((150..<200).map { testURL("\($0)") }))
    }
}
