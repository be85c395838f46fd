import FlickrKit
import Foundation
import HeapModule
import Synchronization

/// Loads images with bounded concurrency, priorities, coalescing and two
/// cache levels (memory, then disk, then network).
///
/// - One transfer per URL however many requesters ask; it is cancelled only
///   when every requester cancelled, and cancelling it aborts the transfer.
/// - At most `maxConcurrentDownloads` transfers run; the rest wait in a queue
///   ordered by priority (high, normal, low), first come first served within
///   a priority. Queued transfers that get cancelled never reach the network.
/// - Transient failures are retried with backoff; client errors and invalid
///   images are not. Only complete, valid images are cached.
///
/// Events are delivered on arbitrary threads (never synchronously inside
/// `load`). A request gets no event after its `cancel()` returned.
public final class ImageDownloadManager: Sendable {
    private let fetcher: any ImageFetching
    private let configuration: ImagePipelineConfiguration
    let memoryCache: ImageMemoryCache
    let diskCache: ImageDiskCache?
    private let diskReads = DispatchQueue(label: "flickr.image-disk-cache.reads", qos: .userInitiated, attributes: .concurrent)
    private let state = Mutex(State())

    private struct State {
        var operations: [URL: ImageDownloadOperation] = [:]
        var queue = Heap<QueueEntry>()
        var queuedCount = 0
        var runningCount = 0
        var nextSubscriberID = 0
        var nextSequence = 0
        var statistics = ImagePipelineStatistics()
    }

    /// A queue position; stale when the operation left the queue or was
    /// re-inserted with another priority since.
    private struct QueueEntry: Comparable {
        let priority: DownloadPriority
        let sequence: Int
        let generation: Int
        let operation: ImageDownloadOperation

        static func < (lhs: QueueEntry, rhs: QueueEntry) -> Bool {
            if lhs.priority != rhs.priority { return lhs.priority < rhs.priority }
            if lhs.sequence != rhs.sequence { return lhs.sequence > rhs.sequence }
            return lhs.generation < rhs.generation
        }

        static func == (lhs: QueueEntry, rhs: QueueEntry) -> Bool {
            lhs.priority == rhs.priority && lhs.sequence == rhs.sequence && lhs.generation == rhs.generation
        }
    }

    public init(fetcher: any ImageFetching, configuration: ImagePipelineConfiguration = .init()) {
        self.fetcher = fetcher
        self.configuration = configuration
        self.memoryCache = ImageMemoryCache(
            costLimit: configuration.memoryCostLimit, countLimit: configuration.memoryCountLimit)
        self.diskCache = configuration.diskCacheDirectory.map {
            ImageDiskCache(directory: $0, sizeLimit: configuration.diskSizeLimit)
        }
    }

    // MARK: - Requests

    /// Starts loading `url` (or joins the load already under way) and calls
    /// `onEvent` with progress and exactly one `.completed`, unless the
    /// request is cancelled first.
    @discardableResult
    public func load(
        _ url: URL,
        priority: DownloadPriority,
        onEvent: @escaping @Sendable (ImageLoadEvent) -> Void
    ) -> ImageRequest {
        let id = state.withLock { state in
            state.nextSubscriberID += 1
            return state.nextSubscriberID
        }
        let subscriber = Subscriber(id: id, handler: onEvent)
        let request = ImageRequest(url: url, subscriber: subscriber, manager: self)

        if let cached = memoryCache.value(for: url) {
            state.withLock { $0.statistics.memoryHits += 1 }
            let response = ImageResponse(url: cached.url, data: cached.data, format: cached.format, source: .memory)
            DispatchQueue.global(qos: .userInitiated).async { subscriber.complete(.success(response)) }
            return request
        }

        state.withLock { state in
            let requester = ImageDownloadOperation.Requester(subscriber: subscriber, priority: priority)
            if let operation = state.operations[url] {
                state.statistics.coalesced += 1
                operation.state.withLock { op in
                    let before = op.priority
                    op.requesters[id] = requester
                    if op.phase == .queued, op.priority != before {
                        op.queueGeneration += 1
                        state.queue.insert(QueueEntry(
                            priority: op.priority, sequence: operation.sequence,
                            generation: op.queueGeneration, operation: operation))
                    }
                }
                return
            }
            state.nextSequence += 1
            let operation = ImageDownloadOperation(
                url: url, sequence: state.nextSequence, phase: diskCache == nil ? .queued : .checkingDisk)
            state.operations[url] = operation
            operation.state.withLock { op in
                op.requesters[id] = requester
                if diskCache != nil {
                    op.task = Task { await self.lookUpDisk(operation) }
                } else {
                    state.queuedCount += 1
                    state.queue.insert(QueueEntry(
                        priority: priority, sequence: operation.sequence, generation: 0, operation: operation))
                }
            }
        }
        startReadyOperations()
        return request
    }

    /// Loads `url` and returns the image; cancelling the calling task cancels
    /// this request.
    public func image(for url: URL, priority: DownloadPriority) async throws(ImageLoadError) -> ImageResponse {
        let waiter = ResultWaiter()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImageResponse, ImageLoadError>, Never>) in
                guard waiter.begin(continuation) else { return }
                let request = load(url, priority: priority) { event in
                    if case .completed(let result) = event { waiter.finish(result) }
                }
                waiter.attach(request)
            }
        } onCancel: {
            waiter.cancel()
        }
        return try result.get()
    }

    /// The image for `url` if it is in the memory cache. Synchronous, cheap.
    public func cachedImage(for url: URL) -> ImageResponse? {
        guard var response = memoryCache.value(for: url) else { return nil }
        state.withLock { $0.statistics.memoryHits += 1 }
        response.source = .memory
        return response
    }

    /// Cancels everything pending: queued transfers are dropped, running
    /// ones aborted, and every pending request completes with `.cancelled`
    /// before this returns.
    public func cancelAll() {
        let subscribers: [Subscriber] = state.withLock { state in
            var subscribers: [Subscriber] = []
            for operation in state.operations.values {
                operation.state.withLock { op in
                    subscribers.append(contentsOf: op.requesters.values.map(\.subscriber))
                    op.requesters.removeAll()
                    abandon(operation, &op, &state)
                }
            }
            state.operations.removeAll()
            state.queue = Heap()
            return subscribers
        }
        for subscriber in subscribers {
            subscriber.complete(.failure(.cancelled))
        }
    }

    public func statistics() -> ImagePipelineStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.queued = state.queuedCount
            statistics.running = state.runningCount
            return statistics
        }
    }

    /// Returns once every image received so far is written to the disk cache.
    /// Call before the process exits, so the next run finds them.
    public func waitForPendingWrites() async {
        await diskCache?.flush()
    }

    // MARK: - Called by ImageRequest

    func cancel(_ request: ImageRequest) {
        guard request.subscriber.close() else { return }
        state.withLock { state in
            guard let operation = state.operations[request.url] else { return }
            operation.state.withLock { op in
                guard op.requesters.removeValue(forKey: request.subscriber.id) != nil else { return }
                if op.requesters.isEmpty {
                    state.operations[request.url] = nil
                    abandon(operation, &op, &state)
                } else {
                    requeueIfNeeded(operation, &op, &state, previousPriority: nil)
                }
            }
        }
    }

    func setPriority(_ priority: DownloadPriority, for request: ImageRequest) {
        state.withLock { state in
            guard let operation = state.operations[request.url] else { return }
            operation.state.withLock { op in
                guard var requester = op.requesters[request.subscriber.id], requester.priority != priority else { return }
                let before = op.priority
                requester.priority = priority
                op.requesters[request.subscriber.id] = requester
                requeueIfNeeded(operation, &op, &state, previousPriority: before)
            }
        }
    }

    // MARK: - Scheduling

    /// Re-inserts a queued operation whose priority changed.
    private func requeueIfNeeded(
        _ operation: ImageDownloadOperation,
        _ op: inout ImageDownloadOperation.State,
        _ state: inout State,
        previousPriority: DownloadPriority?
    ) {
        guard op.phase == .queued, previousPriority.map({ $0 != op.priority }) ?? true else { return }
        op.queueGeneration += 1
        state.queue.insert(QueueEntry(
            priority: op.priority, sequence: operation.sequence, generation: op.queueGeneration, operation: operation))
    }

    /// Marks an operation nobody wants any more as cancelled and stops its task.
    private func abandon(
        _ operation: ImageDownloadOperation,
        _ op: inout ImageDownloadOperation.State,
        _ state: inout State
    ) {
        switch op.phase {
        case .queued:
            state.queuedCount -= 1
        case .checkingDisk, .running:
            op.task?.cancel()
        case .finished, .cancelled:
            return
        }
        op.phase = .cancelled
        state.statistics.cancelled += 1
    }

    /// Starts queued operations while slots are free, best first.
    private func startReadyOperations() {
        state.withLock { state in
            while state.runningCount < max(1, configuration.maxConcurrentDownloads), let entry = state.queue.popMax() {
                let operation = entry.operation
                operation.state.withLock { op in
                    guard op.phase == .queued, op.queueGeneration == entry.generation else { return }
                    op.phase = .running
                    op.holdsSlot = true
                    state.queuedCount -= 1
                    state.runningCount += 1
                    op.task = Task(priority: Self.taskPriority(op.priority)) { await self.run(operation) }
                }
            }
            if state.queuedCount == 0 { state.queue = Heap() }
        }
    }

    private func lookUpDisk(_ operation: ImageDownloadOperation) async {
        guard let diskCache else { return }
        let url = operation.url
        let data = await withCheckedContinuation { (continuation: CheckedContinuation<Data?, Never>) in
            diskReads.async { continuation.resume(returning: diskCache.data(for: url)) }
        }
        if let data, case .success(let format) = ImageFormat.validate(data) {
            let response = ImageResponse(url: url, data: data, format: format, source: .disk)
            memoryCache.insert(response)
            finish(operation, with: .success(response))
            return
        }
        let enqueued = state.withLock { state in
            operation.state.withLock { op in
                guard op.phase == .checkingDisk else { return false }
                op.phase = .queued
                op.task = nil
                state.queuedCount += 1
                state.queue.insert(QueueEntry(
                    priority: op.priority, sequence: operation.sequence, generation: op.queueGeneration,
                    operation: operation))
                return true
            }
        }
        if enqueued { startReadyOperations() }
    }

    private func run(_ operation: ImageDownloadOperation) async {
        let result = await operation.download(
            with: fetcher,
            maxRetries: max(0, configuration.maxRetries),
            retryBaseDelay: configuration.retryBaseDelay,
            onRetry: { self.state.withLock { $0.statistics.retries += 1 } },
            onBytes: { count in self.state.withLock { $0.statistics.bytesDownloaded += count } })
        if case .success(let response) = result {
            memoryCache.insert(response)
            diskCache?.store(response.data, for: response.url)
        }
        finish(operation, with: result)
        startReadyOperations()
    }

    /// Ends an operation: frees its slot, counts the outcome and tells its
    /// requesters, unless it was cancelled (then they were already told or
    /// had left).
    private func finish(_ operation: ImageDownloadOperation, with result: Result<ImageResponse, ImageLoadError>) {
        let subscribers: [Subscriber] = state.withLock { state in
            operation.state.withLock { op in
                if op.holdsSlot {
                    op.holdsSlot = false
                    state.runningCount -= 1
                }
                op.task = nil
                guard op.phase != .cancelled, op.phase != .finished else { return [] }
                op.phase = .finished
                if state.operations[operation.url] === operation { state.operations[operation.url] = nil }
                switch result {
                case .success(let response):
                    if response.source == .disk { state.statistics.diskHits += 1 } else { state.statistics.done += 1 }
                case .failure(.cancelled):
                    state.statistics.cancelled += 1
                case .failure:
                    state.statistics.failed += 1
                }
                let subscribers = op.requesters.values.map(\.subscriber)
                op.requesters.removeAll()
                return subscribers
            }
        }
        for subscriber in subscribers {
            subscriber.complete(result)
        }
    }

    private static func taskPriority(_ priority: DownloadPriority) -> TaskPriority {
        switch priority {
        case .high: .userInitiated
        case .normal: .medium
        case .low: .utility
        }
    }
}

/// Bridges one callback-style request to `async`: resumes exactly once,
/// with the result or with `.cancelled` when the waiting task is cancelled.
private final class ResultWaiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<ImageResponse, ImageLoadError>, Never>?
        var request: ImageRequest?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Returns false (having resumed with `.cancelled`) when already cancelled.
    func begin(_ continuation: CheckedContinuation<Result<ImageResponse, ImageLoadError>, Never>) -> Bool {
        let cancelled = state.withLock { state in
            if !state.cancelled { state.continuation = continuation }
            return state.cancelled
        }
        if cancelled { continuation.resume(returning: .failure(.cancelled)) }
        return !cancelled
    }

    func attach(_ request: ImageRequest) {
        let cancelled = state.withLock { state in
            state.request = request
            return state.cancelled
        }
        if cancelled { request.cancel() }
    }

    func finish(_ result: Result<ImageResponse, ImageLoadError>) {
        state.withLock { $0.continuation.take() }?.resume(returning: result)
    }

    func cancel() {
        let (continuation, request) = state.withLock { state in
            state.cancelled = true
            return (state.continuation.take(), state.request)
        }
        request?.cancel()
        continuation?.resume(returning: .failure(.cancelled))
    }
}
