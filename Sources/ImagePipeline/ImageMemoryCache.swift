import Foundation
import NIOConcurrencyHelpers

/// A least-recently-used cache of images in memory, bounded by total bytes
/// and by count. Lookups and inserts are O(1); thread-safe.
final class ImageMemoryCache: Sendable {
    private let state: NIOLockedValueBox<LRUList>

    init(costLimit: Int, countLimit: Int) {
        state = NIOLockedValueBox(LRUList(costLimit: costLimit, countLimit: countLimit))
    }

    /// The image for `url`, which becomes the most recently used.
    func value(for url: URL) -> ImageResponse? {
        state.withLockedValue { $0.value(for: url) }
    }

    /// Stores `response` as the most recently used, evicting the least
    /// recently used until both limits hold. An image bigger than the whole
    /// cost limit is not stored.
    func insert(_ response: ImageResponse) {
        state.withLockedValue { $0.insert(response, cost: response.data.count) }
    }

    func removeValue(for url: URL) {
        state.withLockedValue { $0.remove(url) }
    }

    func removeAll() {
        state.withLockedValue { $0.removeAll() }
    }

    var totalCost: Int { state.withLockedValue { $0.totalCost } }
    var count: Int { state.withLockedValue { $0.index.count } }

    /// URLs from most to least recently used.
    var urlsByRecency: [URL] { state.withLockedValue { $0.keysByRecency() } }
}

/// A doubly linked list in an array (indices instead of pointers), plus an
/// index by URL: the LRU order without reference-counted nodes.
private struct LRUList {
    struct Node {
        var key: URL
        var value: ImageResponse?
        var cost: Int
        var previous: Int
        var next: Int
    }

    let costLimit: Int
    let countLimit: Int
    var nodes: [Node] = []
    var freeSlots: [Int] = []
    var index: [URL: Int] = [:]
    /// Most recently used, least recently used; -1 when empty.
    var head = -1
    var tail = -1
    var totalCost = 0

    init(costLimit: Int, countLimit: Int) {
        self.costLimit = max(0, costLimit)
        self.countLimit = max(0, countLimit)
    }

    mutating func value(for key: URL) -> ImageResponse? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return nodes[slot].value
    }

    mutating func insert(_ value: ImageResponse, cost: Int) {
        remove(value.url)
        guard cost <= costLimit, countLimit > 0 else { return }
        let node = Node(key: value.url, value: value, cost: cost, previous: -1, next: head)
        let slot: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            slot = free
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
        index[value.url] = slot
        totalCost += cost
        while totalCost > costLimit || index.count > countLimit, tail >= 0 {
            remove(nodes[tail].key)
        }
    }

    mutating func remove(_ key: URL) {
        guard let slot = index.removeValue(forKey: key) else { return }
        unlink(slot)
        totalCost -= nodes[slot].cost
        nodes[slot].value = nil
        freeSlots.append(slot)
    }

    mutating func removeAll() {
        nodes.removeAll()
        freeSlots.removeAll()
        index.removeAll()
        head = -1
        tail = -1
        totalCost = 0
    }

    func keysByRecency() -> [URL] {
        var keys: [URL] = []
        var slot = head
        while slot >= 0 {
            keys.append(nodes[slot].key)
            slot = nodes[slot].next
        }
        return keys
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        nodes[slot].previous = -1
        nodes[slot].next = head
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        nodes[slot].previous = -1
        nodes[slot].next = -1
    }
}
