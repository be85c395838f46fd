import Foundation
import NIOConcurrencyHelpers

import Platform

/// A requester's handle on one image load.
///
/// Cancelling detaches this requester only: the transfer goes on while
/// another requester of the same URL still wants it. After `cancel()`
/// returns, this requester's handler is never called again.
public final class ImageRequest: Sendable {
    public let url: URL
    let subscriber: Subscriber
    /// The transfer this request subscribed to; `nil` when the memory cache answered.
    private let operation: ImageDownloadOperation?

    init(url: URL, subscriber: Subscriber, operation: ImageDownloadOperation?) {
        self.url = url
        self.subscriber = subscriber
        self.operation = operation
    }

    /// Stops listening; aborts the transfer if nobody else wants the image.
    /// Waits for a handler call already running on another thread to return.
    /// A handler may cancel its own request.
    public func cancel() {
        guard subscriber.close() else { return }
        operation?.unsubscribe(subscriber)
    }

    /// Changes this requester's priority; the transfer's priority is the
    /// highest of its requesters', and a queued transfer moves accordingly.
    public func setPriority(_ priority: DownloadPriority) {
        operation?.setPriority(priority, for: subscriber)
    }
}

/// One requester's handler, and the switch that silences it for good.
///
/// `delivery` is held while the handler runs, so `close()` can wait for a
/// call in progress on another thread. `state` is taken only briefly, never
/// around the handler. A handler that cancels its own request, or causes
/// another event for it, finds its own thread delivering and neither waits
/// nor takes `delivery` again (it is not recursive).
///
/// Once closed (completed or cancelled) it lets go of the handler, and so of
/// whatever the handler holds: often the request itself, a cycle otherwise.
final class Subscriber: Sendable {
    typealias Handler = @Sendable (ImageLoadEvent) -> Void

    private struct State {
        var handler: Handler?
        /// The thread running the handler now, if any.
        var deliveringThread: UInt?
        var closed: Bool { handler == nil }
    }

    private let delivery = NIOLock()
    private let state: NIOLockedValueBox<State>

    init(handler: @escaping Handler) {
        state = NIOLockedValueBox(State(handler: handler))
    }

    /// Passes on a progress event unless the subscriber is closed.
    func progress(received: Int, expected: Int?) {
        deliver(.progress(received: received, expected: expected), isFinal: false)
    }

    /// Delivers the final event, once; later calls do nothing.
    func complete(_ result: Result<ImageResponse, ImageLoadError>) {
        deliver(.completed(result), isFinal: true)
    }

    /// Silences the subscriber and waits for a handler call in progress on
    /// another thread. Returns false when it was already closed (completed
    /// or cancelled before).
    func close() -> Bool {
        let me = Self.currentThread()
        // The handler comes out of the lock and is released after it.
        let (wasOpen, reentrant, _) = state.withLockedValue { state in
            defer { state.handler = nil }
            return (!state.closed, state.deliveringThread == me, state.handler)
        }
        if !reentrant {
            delivery.withLock {}
        }
        return wasOpen
    }

    private func deliver(_ event: ImageLoadEvent, isFinal: Bool) {
        let me = Self.currentThread()
        // An event raised by the handler itself (say it calls `cancelAll`)
        // runs nested, as this thread already holds `delivery`.
        if state.withLockedValue({ $0.deliveringThread == me }) {
            callHandler(event, isFinal: isFinal, on: me)
            return
        }
        delivery.withLock {
            callHandler(event, isFinal: isFinal, on: me)
        }
    }

    /// Calls the handler unless closed; the caller holds `delivery`.
    private func callHandler(_ event: ImageLoadEvent, isFinal: Bool, on thread: UInt) {
        let call = state.withLockedValue { state -> (handler: Handler, outer: UInt?)? in
            guard let handler = state.handler else { return nil }
            let outer = state.deliveringThread
            if isFinal { state.handler = nil }
            state.deliveringThread = thread
            return (handler, outer)
        }
        guard let call else { return }
        call.handler(event)
        state.withLockedValue { $0.deliveringThread = call.outer }
    }

    private static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
