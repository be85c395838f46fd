import HeapModule

/// Operations waiting for a transfer slot, best first: higher priority,
/// then first come, first served within a priority.
///
/// An operation whose priority changes while waiting is inserted again;
/// each operation remembers the generation of its newest entry, so older
/// entries are recognised as stale and skipped when they surface. A plain
/// value: the manager keeps it under its lock.
struct DownloadQueue {
    private struct Entry: Comparable {
        let priority: DownloadPriority
        let sequence: Int
        let generation: Int
        let operation: ImageDownloadOperation

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            if lhs.priority != rhs.priority { return lhs.priority < rhs.priority }
            if lhs.sequence != rhs.sequence { return lhs.sequence > rhs.sequence }
            return lhs.generation < rhs.generation
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.priority == rhs.priority && lhs.sequence == rhs.sequence && lhs.generation == rhs.generation
        }
    }

    private var heap = Heap<Entry>()
    /// The generation of each waiting operation's newest entry.
    private var waiting: [ObjectIdentifier: Int] = [:]
    private var nextGeneration = 0

    /// Operations waiting (stale entries not counted).
    var count: Int { waiting.count }

    func contains(_ operation: ImageDownloadOperation) -> Bool {
        waiting[ObjectIdentifier(operation)] != nil
    }

    /// Adds `operation`, or moves it if it is already waiting.
    mutating func insert(_ operation: ImageDownloadOperation, priority: DownloadPriority) {
        nextGeneration += 1
        waiting[ObjectIdentifier(operation)] = nextGeneration
        heap.insert(Entry(
            priority: priority, sequence: operation.sequence, generation: nextGeneration, operation: operation))
        // Many priority changes while waiting leave many stale entries; drop them.
        if heap.count > 64, heap.count > 4 * waiting.count {
            heap = Heap(heap.unordered.filter { waiting[ObjectIdentifier($0.operation)] == $0.generation })
        }
    }

    /// Moves `operation` to its place for `priority`, if it is waiting.
    mutating func reprioritize(_ operation: ImageDownloadOperation, to priority: DownloadPriority) {
        guard contains(operation) else { return }
        insert(operation, priority: priority)
    }

    /// Takes `operation` out; false when it was not waiting.
    @discardableResult
    mutating func remove(_ operation: ImageDownloadOperation) -> Bool {
        guard waiting.removeValue(forKey: ObjectIdentifier(operation)) != nil else { return false }
        if waiting.isEmpty { heap = Heap() }
        return true
    }

    /// The priority of the best waiting operation, which stays queued.
    mutating func firstPriority() -> DownloadPriority? {
        while let entry = heap.max {
            if waiting[ObjectIdentifier(entry.operation)] == entry.generation { return entry.priority }
            _ = heap.popMax()
        }
        return nil
    }

    /// The best waiting operation, taken out of the queue.
    mutating func popFirst() -> ImageDownloadOperation? {
        while let entry = heap.popMax() {
            let key = ObjectIdentifier(entry.operation)
            guard waiting[key] == entry.generation else { continue }
            waiting[key] = nil
            return entry.operation
        }
        return nil
    }

    mutating func removeAll() {
        heap = Heap()
        waiting.removeAll()
    }
}
