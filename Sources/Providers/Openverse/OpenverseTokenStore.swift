import PhotoCore
import Foundation
import Networking

/// An access token from `POST /v1/auth_tokens/token/`.
struct OpenverseToken: Sendable, Equatable {
    var value: String
    /// When it stops being used: shortly before Openverse says it expires,
    /// so a search never leaves with a token that dies on the way.
    var renewAt: ContinuousClock.Instant

    /// The margin before expiry: a tenth of its life, at most a minute.
    static func renewAt(obtained: ContinuousClock.Instant, expiresIn seconds: Int) -> ContinuousClock.Instant {
        let life = ServerWait.seconds(whole: seconds)
        return obtained + life - min(.seconds(60), life / 10)
    }

    /// `{"access_token", "expires_in", "token_type"}`: the token and its
    /// lifetime in seconds.
    static func decode(_ data: Data, redacting secrets: [String]) throws(OpenverseError) -> (value: String, expiresIn: Int) {
        let root = try OpenverseResponseDecoder.readTree(data, redacting: secrets)
        guard case .string(let value)? = root["access_token"], !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .malformedResponse("the token answer has no `access_token`.")
        }
        if let type = root["token_type"]?.lenientString, type.lowercased() != "bearer" {
            throw .malformedResponse("the token is of type “\(ResponseExcerpt.make(type, limit: 20, redacting: secrets + [value]))”, not Bearer.")
        }
        // Openverse's tokens last ten hours; an answer without a lifetime is used once.
        let seconds = root["expires_in"]?.lenientInteger ?? 0
        return (value, min(max(seconds, 0), 366 * 86_400))
    }
}

/// Hands out the current token, fetching one when there is none or it is
/// about to expire. Many searches starting at once share one fetch: the
/// first starts it and the rest wait for it.
actor OpenverseTokenStore {
    /// Fetches a token: its value and lifetime in seconds.
    typealias Fetch = @Sendable () async throws(OpenverseError) -> (value: String, expiresIn: Int)

    private var current: OpenverseToken?
    private var inFlight: Task<Result<OpenverseToken, OpenverseError>, Never>?
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Token fetches started, for tests and logs.
    private(set) var fetches = 0

    init(now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.now = now
    }

    /// A token that is good for a while yet.
    func token(fetch: @escaping Fetch) async throws(OpenverseError) -> String {
        if let current, now() < current.renewAt { return current.value }
        let task: Task<Result<OpenverseToken, OpenverseError>, Never>
        if let inFlight {
            task = inFlight
        } else {
            fetches += 1
            // Its life counts from before the request: the clock runs while it travels.
            // Unstructured on purpose: one search being cancelled must not fail
            // the fetch the others wait for; time-outs bound it.
            let started = now()
            task = Task {
                do throws(OpenverseError) {
                    let (value, seconds) = try await fetch()
                    return .success(OpenverseToken(value: value, renewAt: OpenverseToken.renewAt(obtained: started, expiresIn: seconds)))
                } catch {
                    return .failure(error)
                }
            }
            inFlight = task
        }
        let result = await task.value
        // Only the first waiter to resume clears the fetch (and keeps its token).
        if inFlight == task {
            inFlight = nil
            if case .success(let token) = result { current = token }
        }
        return try result.get().value
    }

    /// Forgets `value` (Openverse said it expired), so the next call
    /// fetches anew; a newer token someone already fetched is kept.
    func discard(_ value: String) {
        if current?.value == value { current = nil }
    }
}
