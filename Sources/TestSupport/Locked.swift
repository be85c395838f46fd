import Foundation

/// A value shared between a background reader thread and test code.
///
/// `@unchecked Sendable` because every access goes through `lock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Polls `condition` until it holds or `timeout` passes. Polling (rather
/// than blocking a thread) keeps Swift's small cooperative pool free for the
/// other tests running in parallel.
func poll(timeout: Duration, interval: Duration = .milliseconds(25), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
        if condition() { return true }
        if clock.now >= deadline || Task.isCancelled { return false }
        try? await Task.sleep(for: interval)
    }
}
