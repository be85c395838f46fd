import FlickrKit
import Foundation
import Synchronization

/// One transfer of one URL, shared by every requester of that URL.
///
/// Its priority is the highest of its requesters'. It ends when the image
/// arrives, when it fails for good, or when the last requester cancels, which
/// cancels the task running the fetch and so aborts the HTTP transfer.
///
/// The manager changes an operation's state with its own lock held first,
/// then this operation's lock; the operation never takes the manager's lock
/// while holding its own.
final class ImageDownloadOperation: Sendable {
    enum Phase: Equatable {
        /// Looking for the image in the disk cache; not yet in the network queue.
        case checkingDisk
        case queued
        case running
        case finished
        case cancelled
    }

    struct Requester {
        var subscriber: Subscriber
        var priority: DownloadPriority
    }

    struct State {
        var phase: Phase
        var requesters: [Int: Requester] = [:]
        /// The task looking up the disk cache or running the transfer.
        var task: Task<Void, Never>?
        /// Bumped whenever the operation is (re)inserted into the queue, so
        /// older queue entries for it are recognised as stale.
        var queueGeneration = 0
        /// Holds one of the manager's concurrency slots until the task ends.
        var holdsSlot = false

        var priority: DownloadPriority {
            requesters.values.map(\.priority).max() ?? .low
        }
    }

    let url: URL
    /// Order of creation: first come, first served within a priority.
    let sequence: Int
    let state: Mutex<State>

    init(url: URL, sequence: Int, phase: Phase) {
        self.url = url
        self.sequence = sequence
        self.state = Mutex(State(phase: phase))
    }

    var priority: DownloadPriority { state.withLock { $0.priority } }
    var phase: Phase { state.withLock { $0.phase } }

    /// Tells every current requester how far the transfer has got.
    func broadcastProgress(received: Int, expected: Int?) {
        let subscribers = state.withLock { $0.requesters.values.map(\.subscriber) }
        for subscriber in subscribers {
            subscriber.progress(received: received, expected: expected)
        }
    }

    /// Fetches the bytes, retrying transient failures with exponential
    /// backoff, and checks that they form a whole image.
    ///
    /// - Parameter onRetry: called before each retry (for statistics).
    /// - Parameter onBytes: called with the size of each body received.
    func download(
        with fetcher: any ImageFetching,
        maxRetries: Int,
        retryBaseDelay: Duration,
        onRetry: @Sendable () -> Void,
        onBytes: @Sendable (Int) -> Void
    ) async -> Result<ImageResponse, ImageLoadError> {
        var attempt = 0
        while true {
            if Task.isCancelled { return .failure(.cancelled) }
            let data: Data
            do {
                data = try await fetcher.fetch(url) { [weak self] received, expected in
                    self?.broadcastProgress(received: received, expected: expected)
                }
            } catch {
                if Task.isCancelled || error == .cancelled { return .failure(.cancelled) }
                guard error.isTransient, attempt < maxRetries else { return .failure(.network(error)) }
                onRetry()
                do {
                    try await Task.sleep(for: retryBaseDelay * (1 << attempt))
                } catch {
                    return .failure(.cancelled)
                }
                attempt += 1
                continue
            }
            onBytes(data.count)
            if Task.isCancelled { return .failure(.cancelled) }
            return ImageFormat.validate(data).map { format in
                ImageResponse(url: url, data: data, format: format, source: .network)
            }
        }
    }
}
