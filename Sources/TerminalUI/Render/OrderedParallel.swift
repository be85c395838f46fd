import Foundation
import NIOConcurrencyHelpers

/// Runs independent pieces of work on several cores at once and hands the
/// results back in their original order.
///
/// Rendering a page is 30 independent decode + chafa jobs; printing it must
/// follow result order. A task group of `width` workers (one per core by
/// default: the jobs are pure CPU) takes jobs in index order and streams
/// results back; the caller buffers the few that finish early and delivers
/// each as soon as every earlier one is in, so the first row is printed as
/// soon as its own cells are done. Workers never wait for the caller, so
/// the cores keep rendering while the caller's actor prints.
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
        let workers = min(max(1, width), count)
        let (results, sink) = AsyncStream.makeStream(of: (Int, Output).self)
        let next = NIOLockedValueBox(0)
        let running = NIOLockedValueBox(workers)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    while !Task.isCancelled {
                        let index = next.withLockedValue { next -> Int? in
                            guard next < count else { return nil }
                            next += 1
                            return next - 1
                        }
                        guard let index else { break }
                        sink.yield((index, await operation(index)))
                    }
                    // The last worker out ends the stream, finished or cancelled.
                    if running.withLockedValue({ $0 -= 1; return $0 == 0 }) { sink.finish() }
                }
            }
            var nextToDeliver = 0
            var finished: [Int: Output] = [:]
            for await (index, output) in results {
                finished[index] = output
                while let ready = finished.removeValue(forKey: nextToDeliver) {
                    guard !Task.isCancelled else {
                        group.cancelAll()
                        return
                    }
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
