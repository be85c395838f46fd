import NIOConcurrencyHelpers

/// Bridges one callback-style request to `async`: resumes exactly once,
/// with the result or with `.cancelled` when the waiting task is cancelled.
/// Continuations are resumed and requests cancelled with the lock released.
final class ResultWaiter: Sendable {
    typealias Continuation = CheckedContinuation<Result<ImageResponse, ImageLoadError>, Never>

    private struct State {
        var continuation: Continuation?
        var request: ImageRequest?
        var cancelled = false
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
            state.request = request
            return state.cancelled
        }
        if cancelled { request.cancel() }
    }

    func finish(_ result: Result<ImageResponse, ImageLoadError>) {
        state.withLockedValue { $0.continuation.take() }?.resume(returning: result)
    }

    func cancel() {
        let (continuation, request) = state.withLockedValue { state in
            state.cancelled = true
            return (state.continuation.take(), state.request)
        }
        request?.cancel()
        continuation?.resume(returning: .failure(.cancelled))
    }
}
