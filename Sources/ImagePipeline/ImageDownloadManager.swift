import Networking
import Platform
import Foundation
import NIOConcurrencyHelpers

/// Loads images with bounded concurrency, priorities, coalescing and two
/// cache levels (memory, then disk, then network).
///
/// The manager coordinates; each `ImageDownloadOperation` owns its
/// subscribers, its priority and its transfer:
/// - One operation per URL however many requesters ask; it cancels itself
///   (aborting the transfer) when its last requester leaves.
/// - At most `maxConcurrentDownloads` transfers run; the rest wait in a queue
///   ordered by priority (very high, high, normal, low), first come first
///   served within a priority. Queued operations that get cancelled never
///   reach the network. Low-priority transfers (background work) start only
///   while no transfer of a higher priority runs: on a shared slow line,
///   bandwidth they took would be the visible page's.
///   An operation keeps one slot from start to end, retries included, unless
///   it receives nothing for `quietTransferPeriod` while others wait: then
///   it is set aside (it runs on but no longer counts against the limit),
///   so a stalled server cannot hold back the healthy transfers.
/// - Running transfers, set aside or not, never outnumber the fetcher's
///   connections (`maxConcurrentTransfers`): a request waiting inside the
///   HTTP client could start after `cancelAll`, when the transfers ahead of
///   it are aborted and free their connections. Every wait happens in the
///   pipeline's own queue, which `cancelAll` empties in one step.
/// - Transient failures are retried a bounded number of times with backoff;
///   client errors and invalid images are not. Only complete, valid images
///   are cached.
///
/// Events are delivered on arbitrary threads (never synchronously inside
/// `load`). A request gets exactly one `.completed` unless it is cancelled,
/// and no event after its `cancel()` returned.
///
/// Locking: the manager's `state` may be held while taking an operation's
/// lock, never the other way round. The operation methods called under the
/// manager's lock (`subscribe`, `start`, `isActive`, `priority`) take only
/// the operation's own lock and call nothing back; handlers, the fetcher
/// and the caches are never called with the manager's lock held.
public final class ImageDownloadManager: Sendable {
    private let fetcher: any ImageFetching
    private let configuration: ImagePipelineConfiguration
    private let retries: RetryPolicy
    /// Transfers the fetcher can have on the wire at once.
    private let transferCap: Int
    let memoryCache: ImageMemoryCache
    let diskCache: ImageDiskCache?
    private let diskReads = DispatchQueue(label: "flickr.image-disk-cache.reads", qos: .userInitiated, attributes: .concurrent)
    private let state = NIOLockedValueBox(State())

    private struct State {
        /// The operation serving each URL; removed when it finishes or is cancelled.
        var operations: [URL: ImageDownloadOperation] = [:]
        var queue = DownloadQueue()
        /// Operations whose transfer task runs, until it returns.
        var running: Set<ObjectIdentifier> = []
        /// Running operations set aside as quiet: they hold no slot.
        var quiet: Set<ObjectIdentifier> = []
        /// Disk-cache lookups queued or reading, until their block returns.
        var diskLookups = 0
        var nextSequence = 0
        var statistics = ImagePipelineStatistics()
    }

    public init(fetcher: any ImageFetching, configuration: ImagePipelineConfiguration = .init()) {
        self.fetcher = fetcher
        self.configuration = configuration
        self.transferCap = max(1, fetcher.maxConcurrentTransfers ?? .max)
        // Images wait at most the policy's usual ceiling between tries; a
        // thumbnail is not worth a long Retry-After.
        self.retries = RetryPolicy(
            maxAttempts: max(0, configuration.maxRetries) + 1, baseDelay: configuration.retryBaseDelay,
            maxRetryAfter: .seconds(5))
        self.memoryCache = ImageMemoryCache(
            costLimit: configuration.memoryCostLimit, countLimit: configuration.memoryCountLimit)
        self.diskCache = configuration.diskCacheDirectory.map {
            ImageDiskCache(directory: $0, sizeLimit: configuration.diskSizeLimit, onFirstWriteFailure: configuration.onCacheWriteFailure)
        }
    }

    /// A pipeline that goes away takes its work with it: queued transfers
    /// are dropped and running ones aborted, as `cancelAll` does, so no
    /// transfer outlives the manager that would have used its bytes.
    deinit {
        cancelAll()
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
        let subscriber = Subscriber(handler: onEvent)
        if let cached = memoryCache.value(for: url) {
            state.withLockedValue { $0.statistics.memoryHits += 1 }
            let response = ImageResponse(url: cached.url, data: cached.data, format: cached.format, source: .memory)
            DispatchQueue.global(qos: .userInitiated).async { subscriber.complete(.success(response)) }
            return ImageRequest(url: url, subscriber: subscriber, operation: nil)
        }

        let checksDisk = diskCache != nil
        let (operation, isNew) = state.withLockedValue { state -> (ImageDownloadOperation, Bool) in
            // Joining takes the operation's lock under ours (the allowed order).
            if let existing = state.operations[url],
               case .joined(let raised) = existing.subscribe(subscriber, priority: priority) {
                state.statistics.coalesced += 1
                if let raised { state.queue.reprioritize(existing, to: raised) }
                return (existing, false)
            }
            state.nextSequence += 1
            let operation = ImageDownloadOperation(
                url: url, sequence: state.nextSequence, owner: self, subscriber: subscriber, priority: priority)
            state.operations[url] = operation
            if !checksDisk { state.queue.insert(operation, priority: priority) }
            return (operation, true)
        }
        if isNew {
            if checksDisk { lookUpDisk(operation) } else { startReadyOperations() }
        }
        return ImageRequest(url: url, subscriber: subscriber, operation: operation)
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
        state.withLockedValue { $0.statistics.memoryHits += 1 }
        response.source = .memory
        return response
    }

    /// Cancels everything pending: queued transfers are dropped, running
    /// ones aborted, and every pending request completes with `.cancelled`
    /// before this returns.
    public func cancelAll() {
        cancelAll(sparing: [])
    }

    /// Cancels everything pending except the transfers of `spared` (an
    /// opened photo's large image, which a new search does not end), in one
    /// step, so no freed slot starts a queued transfer meanwhile.
    public func cancelAll(sparing spared: Set<URL>) {
        let operations = state.withLockedValue { state in
            let ending = state.operations.filter { !spared.contains($0.key) }
            for (url, operation) in ending {
                state.operations[url] = nil
                state.queue.remove(operation)
            }
            return Array(ending.values)
        }
        for operation in operations {
            operation.cancelEverySubscriber()
        }
    }

    public func statistics() -> ImagePipelineStatistics {
        var statistics = state.withLockedValue { state in
            var statistics = state.statistics
            statistics.queued = state.queue.count
            statistics.running = state.running.count
            statistics.quiet = state.quiet.count
            return statistics
        }
        statistics.memoryCacheCount = memoryCache.count
        statistics.memoryCacheBytes = memoryCache.totalCost
        if let failures = diskCache?.writeFailures() {
            statistics.cacheWriteFailures = failures.count
            statistics.lastCacheError = failures.last
        }
        return statistics
    }

    /// Returns once every image received so far is written to the disk cache.
    public func waitForPendingWrites() async {
        await diskCache?.flush()
    }

    /// Ends the pipeline's work before the process exits: pending requests
    /// are cancelled, running transfers and disk-cache reads get up to
    /// `limit` to wind down (so none is cut off mid-flight when the network
    /// shuts down), and every image received so far is written to the disk
    /// cache for the next run.
    public func close(limit: Duration = .seconds(1)) async {
        cancelAll()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        // Disk lookups count too: one reading a file holds the manager
        // (the others see their operation cancelled and return at once).
        while state.withLockedValue({ !$0.running.isEmpty || $0.diskLookups > 0 }), clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        await waitForPendingWrites()
    }

    // MARK: - Scheduling

    /// Starts queued operations while slots are free, best first; a
    /// background one only when it has the line to itself.
    private func startReadyOperations() {
        let limit = max(1, configuration.maxConcurrentDownloads)
        state.withLockedValue { state in
            while state.running.count - state.quiet.count < limit, state.running.count < transferCap,
                  let best = state.queue.firstPriority(), best > .low || !Self.runsUrgentWork(state),
                  let operation = state.queue.popFirst() {
                // `start` only creates the operation's tasks; it calls nothing back.
                if operation.start(with: fetcher, retries: retries, quietPeriod: configuration.quietTransferPeriod) {
                    state.running.insert(ObjectIdentifier(operation))
                }
            }
        }
    }

    /// Whether a transfer above background priority is running and
    /// receiving (one set aside as quiet takes no bandwidth).
    private static func runsUrgentWork(_ state: State) -> Bool {
        state.operations.values.contains { operation in
            let key = ObjectIdentifier(operation)
            return state.running.contains(key) && !state.quiet.contains(key) && operation.priority > .low
        }
    }

    /// Serves the operation from the disk cache, or queues it for the network.
    private func lookUpDisk(_ operation: ImageDownloadOperation) {
        guard let diskCache else { return }
        state.withLockedValue { $0.diskLookups += 1 }
        diskReads.async { [self] in
            defer { state.withLockedValue { $0.diskLookups -= 1 } }
            // Cancelled while waiting for a reader: nobody wants the file.
            guard operation.isActive else { return }
            let url = operation.url
            // The cache hands out only entries that passed the whole-image
            // check as they were read (or were checked before being
            // stored): naming the format is all that is left to do.
            if let data = diskCache.data(for: url), let format = ImageFormat.sniff(data) {
                operation.finish(with: .success(ImageResponse(url: url, data: data, format: format, source: .disk)))
                return
            }
            let queued = state.withLockedValue { state in
                guard state.operations[url] === operation, operation.isActive else { return false }
                state.queue.insert(operation, priority: operation.priority)
                return true
            }
            if queued { startReadyOperations() }
        }
    }
}

// MARK: - What operations report

extension ImageDownloadManager: ImageDownloadOperationOwner {
    func operationPriorityDidChange(_ operation: ImageDownloadOperation) {
        state.withLockedValue { state in
            // Read under our lock, so reports arriving out of order still leave the latest priority.
            state.queue.reprioritize(operation, to: operation.priority)
        }
        // A running transfer that dropped to the background may let background work start.
        startReadyOperations()
    }

    func operationWasCancelled(_ operation: ImageDownloadOperation) {
        state.withLockedValue { state in
            if state.operations[operation.url] === operation { state.operations[operation.url] = nil }
            state.queue.remove(operation)
            state.statistics.cancelled += 1
        }
    }

    func operation(_ operation: ImageDownloadOperation, didFinishWith result: Result<ImageResponse, ImageLoadError>) {
        if case .success(let response) = result {
            memoryCache.insert(response)
            if response.source == .network { diskCache?.store(response.data, for: response.url) }
        }
        state.withLockedValue { state in
            if state.operations[operation.url] === operation { state.operations[operation.url] = nil }
            switch result {
            case .success(let response):
                if response.source == .disk { state.statistics.diskHits += 1 } else { state.statistics.done += 1 }
            case .failure(.cancelled):
                state.statistics.cancelled += 1
            case .failure:
                state.statistics.failed += 1
            }
        }
    }

    func operationWillRetry(_ operation: ImageDownloadOperation) {
        state.withLockedValue { $0.statistics.retries += 1 }
    }

    func operation(_ operation: ImageDownloadOperation, didReceiveBytes count: Int) {
        state.withLockedValue { $0.statistics.bytesDownloaded += count }
    }

    func operationTransferDidEnd(_ operation: ImageDownloadOperation) {
        let freed = state.withLockedValue { state in
            let key = ObjectIdentifier(operation)
            // A quiet operation's slot was freed when it was set aside.
            let wasQuiet = state.quiet.remove(key) != nil
            return state.running.remove(key) != nil && !wasQuiet
        }
        if freed { startReadyOperations() }
    }

    func operationWentQuiet(_ operation: ImageDownloadOperation) -> Bool {
        let limit = max(1, configuration.maxConcurrentDownloads)
        enum Outcome { case over, keepsSlot, setAside }
        let outcome = state.withLockedValue { state -> Outcome in
            let key = ObjectIdentifier(operation)
            guard state.running.contains(key), !state.quiet.contains(key) else { return .over }
            // Only worth it when something waits; and set aside at most
            // `limit`, so a server that stalls everything cannot make the
            // connections grow without bound.
            // Nor when no connection is left for the one it would let start.
            guard state.queue.count > 0, state.quiet.count < limit, state.running.count < transferCap
            else { return .keepsSlot }
            state.quiet.insert(key)
            return .setAside
        }
        switch outcome {
        case .over: return true
        case .keepsSlot: return false
        case .setAside:
            startReadyOperations()
            return true
        }
    }
}
