import NIOConcurrencyHelpers

/// Bridges one callback-style request to `async`: resumes exactly once,
/// with the result or with `.cancelled` when the waiting task is cancelled.
/// Continuations are resumed and requests cancelled with the lock released.
final class ResultWaiter: Sendable {
    typealias Continuation = CheckedContinuation<Result<ImageResponse, ImageLoadError>, Never>

    /// `request` holds its subscriber, whose handler holds this waiter: the
    /// request is let go once the result is in, or the pair would keep each
    /// other (and the operation) alive for ever.
    private struct State {
        var continuation: Continuation?
        var request: ImageRequest?
        var cancelled = false
        var finished = false
    }

    private let state = NIOLockedValueBox(State())

    /// Returns false (having resumed with `.cancelled`) when already cancelled.
    func begin(_ continuation: Continuation) -> Bool {
        let cancelled = state.withLockedValue { state in
            if !state.cancelled { state.continuation = continuation }
            return state.cancelled
        }
        if cancelled { continuation.resume(returning: .failure(.cancelled)) }
        return !cancelled
    }

    func attach(_ request: ImageRequest) {
        let cancelled = state.withLockedValue { state in
            // A cache hit can finish before the request is attached.
            if !state.finished { state.request = request }
            return state.cancelled
        }
        if cancelled { request.cancel() }
    }

    func finish(_ result: Result<ImageResponse, ImageLoadError>) {
        let continuation = state.withLockedValue { state in
            state.finished = true
            state.request = nil
            return state.continuation.take()
        }
        continuation?.resume(returning: result)
    }

    func cancel() {
        let (continuation, request) = state.withLockedValue { state in
            state.cancelled = true
            return (state.continuation.take(), state.request.take())
        }
        request?.cancel()
        continuation?.resume(returning: .failure(.cancelled))
    }
}
