import NIOConcurrencyHelpers

/// Wakes one waiting task exactly once: when `fire()` is called, or when
/// the waiting task is cancelled, whichever comes first. Either may happen
/// before the wait begins.
final class OnceSignal: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var fired = false
    }

    private let state = NIOLockedValueBox(State())

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let firedAlready = state.withLockedValue { state in
                    if !state.fired { state.continuation = continuation }
                    return state.fired
                }
                if firedAlready { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }

    func fire() {
        let continuation = state.withLockedValue { state in
            state.fired = true
            return state.continuation.take()
        }
        continuation?.resume()
    }
}
