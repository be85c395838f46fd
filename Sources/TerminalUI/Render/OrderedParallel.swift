import Foundation

/// Runs independent pieces of work on several cores at once and hands the
/// results back in their original order.
///
/// Rendering a page is 30 independent decode + chafa jobs; printing it must
/// follow result order. A task group runs at most `width` jobs at a time
/// (one per core by default: the jobs are pure CPU, more would only queue
/// inside the cooperative pool and delay the first rows), and results that
/// finish early wait in a small buffer until every earlier one is delivered,
/// so the first row is printed as soon as its own cells are done.
enum OrderedParallel {
    /// One job per core the process may run on.
    static var defaultWidth: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Calls `operation` for each index in `0..<count`, at most `width` at
    /// a time, off the caller's actor; calls `deliver` on the caller's actor
    /// with each result, in index order. Returns when every result has been
    /// delivered. If the task is cancelled, jobs not yet started are skipped
    /// and nothing more is delivered.
    static func forEach<Output: Sendable>(
        count: Int,
        width: Int = OrderedParallel.defaultWidth,
        isolation: isolated (any Actor)? = #isolation,
        operation: @escaping @Sendable (Int) async -> Output,
        deliver: (Int, Output) async -> Void
    ) async {
        guard count > 0 else { return }
        let width = max(1, width)
        await withTaskGroup(of: (Int, Output).self) { group in
            var nextToStart = 0
            var nextToDeliver = 0
            var finished: [Int: Output] = [:]
            func startNext() {
                guard nextToStart < count, !Task.isCancelled else { return }
                let index = nextToStart
                nextToStart += 1
                group.addTask { (index, await operation(index)) }
            }
            for _ in 0..<min(width, count) { startNext() }
            while let (index, output) = await group.next() {
                finished[index] = output
                startNext()
                while let ready = finished.removeValue(forKey: nextToDeliver) {
                    guard !Task.isCancelled else { return }
                    await deliver(nextToDeliver, ready)
                    nextToDeliver += 1
                }
            }
        }
    }

    /// Every result of `operation` over `0..<count`, in index order.
    static func map<Output: Sendable>(
        count: Int,
        width: Int = OrderedParallel.defaultWidth,
        isolation: isolated (any Actor)? = #isolation,
        operation: @escaping @Sendable (Int) async -> Output
    ) async -> [Output] {
        var results: [Output] = []
        results.reserveCapacity(count)
        await forEach(count: count, width: width, operation: operation) { _, output in
            results.append(output)
        }
        return results
    }
}
