import Foundation

/// A requester's handle on one image load.
///
/// Cancelling detaches this requester only: the transfer goes on while
/// another requester of the same URL still wants it. After `cancel()`
/// returns, this requester's handler is never called again.
public final class ImageRequest: Sendable {
    public let url: URL
    let subscriber: Subscriber
    private let manager: ImageDownloadManager

    init(url: URL, subscriber: Subscriber, manager: ImageDownloadManager) {
        self.url = url
        self.subscriber = subscriber
        self.manager = manager
    }

    /// Stops listening; aborts the transfer if nobody else wants the image.
    /// Waits for a handler call already running on another thread to return.
    public func cancel() {
        manager.cancel(self)
    }

    /// Changes this requester's priority; the transfer's priority is the
    /// highest of its requesters', and a queued transfer moves accordingly.
    public func setPriority(_ priority: DownloadPriority) {
        manager.setPriority(priority, for: self)
    }
}

/// One requester: its handler, and the switch that silences it for good.
///
/// `@unchecked Sendable`: `closed` is only read or written with `lock` held,
/// and the handler is only called with `lock` held, so `close()` returning
/// means no call is running or will start. The lock is recursive so a
/// handler may cancel its own request.
final class Subscriber: @unchecked Sendable {
    let id: Int
    private let handler: @Sendable (ImageLoadEvent) -> Void
    private let lock = NSRecursiveLock()
    private var closed = false

    init(id: Int, handler: @escaping @Sendable (ImageLoadEvent) -> Void) {
        self.id = id
        self.handler = handler
    }

    /// Passes on a progress event unless the subscriber is closed.
    func progress(received: Int, expected: Int?) {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        handler(.progress(received: received, expected: expected))
    }

    /// Delivers the final event, once; later calls do nothing.
    func complete(_ result: Result<ImageResponse, ImageLoadError>) {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        handler(.completed(result))
    }

    /// Silences the subscriber. Returns false when it was already closed
    /// (completed or cancelled before).
    func close() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return false }
        closed = true
        return true
    }
}
