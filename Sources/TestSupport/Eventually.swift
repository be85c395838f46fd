/// The tests' one way to wait for something to happen: poll a condition in
/// the caller's isolation (the main actor for view tests, letting the main
/// queue run in between, where terminal input and view-model events arrive).
/// Polling, rather than blocking a thread, keeps the cooperative pool free
/// for the other tests. The timeout is a safety net for a broken build,
/// never a performance expectation: tests wait for conditions, not durations.
/// It is long because a whole test run starts every suite at once: on two
/// cores a test can wait 20 s and more for its first turn.
public func poll(
    timeout: Duration = .seconds(90), interval: Duration = .milliseconds(10),
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !(try await condition()) {
        if clock.now >= deadline || Task.isCancelled { return false }
        try? await Task.sleep(for: interval)
    }
    return true
}

/// Like `poll`, but a timeout is an error naming what was awaited and where.
public func eventually(
    _ what: String = "condition", timeout: Duration = .seconds(90),
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line,
    _ condition: () async throws -> Bool
) async throws {
    guard try await poll(timeout: timeout, isolation: isolation, condition) else {
        throw WaitTimeout(what: what, location: "\(fileID):\(line)")
    }
}

/// What `eventually` throws when the condition never held.
public struct WaitTimeout: Error, CustomStringConvertible {
    public let what: String
    public let location: String
    public var description: String { "timed out waiting for \(what) (\(location))" }
}
