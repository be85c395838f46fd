import Foundation

/// When and how long to wait before trying a failed API call again.
///
/// Exponential backoff with full jitter: before retry *n* the wait is drawn
/// uniformly from zero to `min(maxDelay, baseDelay × 2ⁿ⁻¹)`, so many clients
/// that failed together do not come back together. A server's `Retry-After`
/// is waited out exactly when it is within `maxRetryAfter`; a longer one ends
/// the attempts at once (coming back sooner than asked only earns another
/// refusal). Cancellation ends the attempts at once, including mid-wait.
///
/// Any provider can use it: `run` takes the provider's own error type and a
/// function that says which of its errors are worth another try.
public struct RetryPolicy: Sendable {
    /// What to do about one failure.
    public enum Decision: Sendable, Equatable {
        /// Give up: the failure will not go away by asking again.
        case stop
        /// Try again after the backoff.
        case retry
        /// Try again after the time the server named.
        case retryAfter(Duration)
    }

    /// Tries in all, the first one included.
    public var maxAttempts: Int
    public var baseDelay: Duration
    /// The longest backoff between two tries.
    public var maxDelay: Duration
    /// The longest `Retry-After` that is waited out.
    public var maxRetryAfter: Duration
    /// Waits; throws when the task is cancelled. Tests pass one that records.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A number in `0..<1`, for the jitter. Tests pass a fixed one.
    public var random: @Sendable () -> Double

    public init(
        maxAttempts: Int = 4,
        baseDelay: Duration = .milliseconds(250),
        maxDelay: Duration = .seconds(4),
        maxRetryAfter: Duration = .seconds(30),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.sleep = sleep
        self.random = random
    }

    /// One try only.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The wait before retry number `retry` (1 for the first retry).
    public func backoff(beforeRetry retry: Int) -> Duration {
        let doublings = min(max(retry - 1, 0), 30)
        let ceiling = min(maxDelay, baseDelay * (1 << doublings))
        let fraction = min(max(random(), 0), 1)
        return ceiling * fraction
    }

    /// The wait before retry number `retry` after a failure judged `decision`,
    /// or `nil` to give up.
    public func delay(after decision: Decision, beforeRetry retry: Int) -> Duration? {
        guard retry < maxAttempts else { return nil }
        switch decision {
        case .stop: return nil
        case .retry: return backoff(beforeRetry: retry)
        case .retryAfter(let wait): return wait <= maxRetryAfter ? max(wait, .zero) : nil
        }
    }

    /// Runs `operation` until it succeeds, fails in a way `classify` calls
    /// final, or the tries run out; the last failure is thrown.
    ///
    /// - Parameters:
    ///   - classify: whether a failure is worth another try.
    ///   - cancelled: the failure to throw when the task is cancelled.
    ///   - onRetry: told of each retry before its wait (for logs).
    ///   - operation: one try; receives its number, from 1.
    public func run<Value, Failure: Error>(
        classify: (Failure) -> Decision,
        cancelled: () -> Failure,
        onRetry: (_ failure: Failure, _ wait: Duration, _ retry: Int) -> Void = { _, _, _ in },
        _ operation: (_ attempt: Int) async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        var attempt = 1
        while true {
            if Task.isCancelled { throw cancelled() }
            do {
                return try await operation(attempt)
            } catch {
                if Task.isCancelled { throw cancelled() }
                guard let wait = delay(after: classify(error), beforeRetry: attempt) else { throw error }
                onRetry(error, wait, attempt)
                do {
                    try await sleep(wait)
                } catch {
                    throw cancelled()
                }
                attempt += 1
            }
        }
    }

    /// The usual judgement of an HTTP failure: connection failures, resets,
    /// time-outs, stalls, 5xx, 408 and 429 are retried; other statuses,
    /// oversized bodies, bad URLs, TLS failures and cancellation are not.
    public static func decision(for error: NetworkError) -> Decision {
        switch error {
        case .retryLater(_, let after?, _): .retryAfter(after)
        case .connectionRefused, .notConnected: .retry
        default: error.isTransient ? .retry : .stop
        }
    }
}

// MARK: - Retry-After

extension RetryPolicy {
    /// The wait a `Retry-After` header asks for: delay-seconds (`120`) or an
    /// HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`, and the two obsolete date
    /// forms). A date in the past means now; anything unreadable is `nil`.
    public static func retryAfter(_ value: String, now: Date = Date()) -> Duration? {
        // asctime pads the day with a space: collapse runs of spaces first.
        let text = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        // Any number of digits: a huge one is held to the ceiling, never overflows.
        if let seconds = ServerWait.seconds(digits: text) { return seconds }
        // An HTTP-date is short printable ASCII; Foundation's DateFormatter
        // traps on some other text (combining marks over a date, found by
        // Scripts/fuzz), so nothing else reaches it.
        guard text.utf8.count <= 64, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        for format in httpDateFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                return ServerWait.seconds(date.timeIntervalSince(now))
            }
        }
        return nil
    }

    /// IMF-fixdate, RFC 850 and asctime, as RFC 9110 asks recipients to accept.
    private static let httpDateFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",
        "EEEE, dd-MMM-yy HH:mm:ss zzz",
        "EEE MMM d HH:mm:ss yyyy",
    ]
}
