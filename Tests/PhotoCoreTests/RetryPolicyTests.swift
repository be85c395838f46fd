import Foundation
import NIOConcurrencyHelpers
import Testing
import TestSupport
@testable import PhotoCore
@testable import FlickrService
@testable import Networking

/// Which failures `RetryPolicy` retries, how often, and how long it waits;
/// waits are recorded by an injected sleep, never measured.
@Suite struct RetryPolicyTests {
    /// Records every wait instead of sleeping.
    final class Waits: Sendable {
        private let storage = NIOLockedValueBox<[Duration]>([])
        var all: [Duration] { storage.withLockedValue { $0 } }

        func policy(maxAttempts: Int = 4, random: Double = 0.5) -> RetryPolicy {
            RetryPolicy(
                maxAttempts: maxAttempts, baseDelay: .milliseconds(100), maxDelay: .milliseconds(300),
                maxRetryAfter: .seconds(30),
                sleep: { [storage] wait in storage.withLockedValue { $0.append(wait) } },
                random: { random })
        }
    }

    struct Failure: Error, Equatable {
        var decision: RetryPolicy.Decision
    }

    /// Runs a policy over an operation that fails with `failures` in turn, then succeeds.
    private func run(_ policy: RetryPolicy, failing failures: [RetryPolicy.Decision]) async -> (Result<Int, Failure>, Int) {
        let calls = NIOLockedValueBox(0)
        do throws(Failure) {
            let value = try await policy.run(classify: { $0.decision }, cancelled: { Failure(decision: .stop) }) { attempt throws(Failure) in
                calls.withLockedValue { $0 += 1 }
                if attempt <= failures.count { throw Failure(decision: failures[attempt - 1]) }
                return attempt
            }
            return (.success(value), calls.withLockedValue { $0 })
        } catch {
            return (.failure(error), calls.withLockedValue { $0 })
        }
    }

    @Test func transientFailuresAreRetriedUntilSuccess() async {
        let waits = Waits()
        let (result, calls) = await run(waits.policy(), failing: [.retry, .retry])
        #expect(result == .success(3))
        #expect(calls == 3)
        #expect(waits.all.count == 2)
    }

    @Test func attemptsAreBounded() async {
        let waits = Waits()
        let (result, calls) = await run(waits.policy(maxAttempts: 4), failing: Array(repeating: .retry, count: 10))
        #expect(result == .failure(Failure(decision: .retry)))
        #expect(calls == 4)
        #expect(waits.all.count == 3)
    }

    @Test func finalFailuresAreNotRetried() async {
        let waits = Waits()
        let (result, calls) = await run(waits.policy(), failing: [.stop])
        #expect(result == .failure(Failure(decision: .stop)))
        #expect(calls == 1)
        #expect(waits.all.isEmpty)
    }

    /// Full jitter: the wait is the random fraction of a ceiling that doubles
    /// each retry up to the cap.
    @Test func backoffIsExponentialWithFullJitterAndCapped() async {
        let waits = Waits()
        _ = await run(waits.policy(maxAttempts: 5, random: 0.5), failing: Array(repeating: .retry, count: 4))
        #expect(waits.all == [.milliseconds(50), .milliseconds(100), .milliseconds(150), .milliseconds(150)])
        let zero = Waits().policy(random: 0)
        #expect(zero.backoff(beforeRetry: 3) == .zero)
        let top = Waits().policy(random: 0.999_999)
        #expect(top.backoff(beforeRetry: 9) <= .milliseconds(300))
    }

    @Test func retryAfterIsWaitedOutExactly() async {
        let waits = Waits()
        let (result, _) = await run(waits.policy(), failing: [.retryAfter(.seconds(7))])
        #expect(result == .success(2))
        #expect(waits.all == [.seconds(7)])
    }

    /// Coming back sooner than the server asked only earns another refusal.
    @Test func retryAfterBeyondTheCapEndsTheAttempts() async {
        let waits = Waits()
        let (result, calls) = await run(waits.policy(), failing: [.retryAfter(.seconds(3_600))])
        #expect(result == .failure(Failure(decision: .retryAfter(.seconds(3_600)))))
        #expect(calls == 1)
        #expect(waits.all.isEmpty)
    }

    @Test func cancellationStopsRetryingAtOnce() async {
        let calls = NIOLockedValueBox(0)
        let policy = RetryPolicy(baseDelay: .seconds(60), maxDelay: .seconds(60), random: { 1 })
        let task = Task { () -> Failure? in
            do throws(Failure) {
                _ = try await policy.run(classify: { $0.decision }, cancelled: { Failure(decision: .stop) }) { _ throws(Failure) -> Int in
                    calls.withLockedValue { $0 += 1 }
                    throw Failure(decision: .retry)
                }
                return nil
            } catch {
                return error
            }
        }
        #expect(await poll { calls.withLockedValue { $0 } == 1 })
        task.cancel()
        // The 60-second wait ends with the cancellation, not with the clock.
        #expect(await task.value == Failure(decision: .stop))
        #expect(calls.withLockedValue { $0 } == 1)
    }

    // MARK: - What is worth a retry

    @Test(arguments: [
        NetworkError.timedOut(host: "h"), .stalled(host: "h"), .connectionLost(host: "h"),
        .connectionRefused(host: "h"), .notConnected(host: "h"), .httpStatus(500, host: "h"),
        .httpStatus(502, host: "h"), .httpStatus(503, host: "h"), .httpStatus(429, host: "h"),
        .retryLater(status: 429, after: nil, host: "h"),
    ])
    func transientNetworkFailuresAreRetried(_ error: NetworkError) {
        #expect(RetryPolicy.decision(for: error) == .retry)
        #expect(FlickrError.network(error).retryDecision == .retry)
    }

    @Test(arguments: [
        NetworkError.httpStatus(400, host: "h"), .httpStatus(401, host: "h"), .httpStatus(403, host: "h"),
        .httpStatus(404, host: "h"), .cancelled, .invalidURL("x"), .responseTooLarge(limit: 1, host: "h"),
        .tlsFailure("untrusted", host: "h"),
    ])
    func finalNetworkFailuresAreNotRetried(_ error: NetworkError) {
        #expect(RetryPolicy.decision(for: error) == .stop)
    }

    @Test func aServersRetryAfterIsHonoured() {
        #expect(RetryPolicy.decision(for: .retryLater(status: 503, after: .seconds(2), host: "h")) == .retryAfter(.seconds(2)))
    }

    @Test func flickrCode105IsRetriedAndOtherCodesAreNot() {
        #expect(FlickrError.api(code: 105, message: "Service currently unavailable").retryDecision == .retry)
        for code in [1, 3, 10, 100, 111, 112, 116] {
            #expect(FlickrError.api(code: code, message: "").retryDecision == .stop, "code \(code)")
        }
        #expect(FlickrError.malformedResponse("x").retryDecision == .stop)
        #expect(FlickrError.invalidRequest("x").retryDecision == .stop)
    }

    // MARK: - Retry-After

    @Test func retryAfterSecondsAreRead() {
        #expect(RetryPolicy.retryAfter("120") == .seconds(120))
        #expect(RetryPolicy.retryAfter(" 0 ") == .zero)
        #expect(RetryPolicy.retryAfter("99999999999999999999999") == .seconds(Int64(Int32.max)))
    }

    @Test func retryAfterDatesAreReadInAllThreeForms() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2015-10-21T07:27:30Z"))
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == .seconds(30))
        #expect(RetryPolicy.retryAfter("Wednesday, 21-Oct-15 07:28:00 GMT", now: now) == .seconds(30))
        #expect(RetryPolicy.retryAfter("Wed Oct 21 07:28:00 2015", now: now) == .seconds(30))
        // A date already past means "now".
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now: now) == .zero)
    }

    @Test func unreadableRetryAfterIsIgnored() {
        for value in ["", "soon", "-5", "1.5", "Wed, 99 Foo 2015"] {
            #expect(RetryPolicy.retryAfter(value) == nil, "\(value)")
        }
    }
}
