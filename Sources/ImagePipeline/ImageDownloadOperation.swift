import Networking
import Foundation
import NIOConcurrencyHelpers

/// What an operation tells the manager that scheduled it. The operation
/// calls these with its own lock released, so the owner may take its lock
/// and then read the operation (the one lock order: owner, then operation).
protocol ImageDownloadOperationOwner: AnyObject, Sendable {
    /// A subscriber joined, left or changed priority and the highest of
    /// their priorities moved (only for changes the owner did not make itself).
    func operationPriorityDidChange(_ operation: ImageDownloadOperation)
    /// The last subscriber left; the operation is over and its transfer, if
    /// any, is being aborted (`operationTransferDidEnd` follows when it stops).
    func operationWasCancelled(_ operation: ImageDownloadOperation)
    /// The operation produced its result; its subscribers hear of it right
    /// after this returns, so caches filled here serve their next request.
    func operation(_ operation: ImageDownloadOperation, didFinishWith result: Result<ImageResponse, ImageLoadError>)
    func operationWillRetry(_ operation: ImageDownloadOperation)
    func operation(_ operation: ImageDownloadOperation, didReceiveBytes count: Int)
    /// The transfer is over (its bytes are in, or it failed or was
    /// cancelled); the slot it held is free. The result follows once the
    /// bytes are checked.
    func operationTransferDidEnd(_ operation: ImageDownloadOperation)
    /// The running transfer received nothing for the quiet period. Returns
    /// true when the operation need not report this again (set aside, or
    /// over); false when it should look again later (nothing was waiting).
    func operationWentQuiet(_ operation: ImageDownloadOperation) -> Bool
}

/// One transfer of one URL, shared by every requester (subscriber) of it.
///
/// The operation owns its subscribers. Its priority is the highest of
/// theirs and follows them as they join, leave or change. When the last one
/// leaves, the operation cancels itself, which cancels the task running the
/// fetch and so aborts the HTTP transfer. The owner decides when it starts
/// (`start`) and hears about the rest through `ImageDownloadOperationOwner`.
///
/// Locking: `state` guards everything mutable. Subscriber handlers, the
/// owner and the fetcher are only ever called with it released.
final class ImageDownloadOperation: Sendable {
    enum Phase: Equatable {
        /// Created; waiting for the disk cache lookup or for a slot.
        case pending
        case running
        case finished
        case cancelled
    }

    /// How `subscribe` went.
    enum JoinOutcome: Equatable {
        /// Joined; carries the operation's new priority when joining raised it.
        case joined(raisedTo: DownloadPriority?)
        /// The operation is over; the caller needs a new one.
        case ended
    }

    private struct State {
        var phase = Phase.pending
        var subscribers: [ObjectIdentifier: (subscriber: Subscriber, priority: DownloadPriority)] = [:]
        var priority: DownloadPriority
        /// The task running the transfer, while it runs.
        var task: Task<Void, Never>?
        /// Watches for a transfer that receives nothing, while it runs.
        var watchdog: Task<Void, Never>?
        /// When the running transfer started or last received bytes.
        var lastActivity = ContinuousClock.now

        var isActive: Bool { phase == .pending || phase == .running }

        /// Recomputes the priority; true when it changed.
        mutating func updatePriority() -> Bool {
            let updated = subscribers.values.map(\.priority).max() ?? priority
            defer { priority = updated }
            return updated != priority
        }
    }

    let url: URL
    /// Order of creation: first come, first served within a priority.
    let sequence: Int
    private weak let owner: (any ImageDownloadOperationOwner)?
    private let state: NIOLockedValueBox<State>

    /// A new operation with its first subscriber.
    init(url: URL, sequence: Int, owner: any ImageDownloadOperationOwner, subscriber: Subscriber, priority: DownloadPriority) {
        self.url = url
        self.sequence = sequence
        self.owner = owner
        var initial = State(priority: priority)
        initial.subscribers[ObjectIdentifier(subscriber)] = (subscriber, priority)
        self.state = NIOLockedValueBox(initial)
    }

    var priority: DownloadPriority { state.withLockedValue { $0.priority } }
    var phase: Phase { state.withLockedValue { $0.phase } }
    var isActive: Bool { state.withLockedValue { $0.isActive } }

    // MARK: - Subscribers

    /// Adds a subscriber unless the operation is over. The caller (the
    /// owner) learns of a raised priority from the outcome, not through
    /// `operationPriorityDidChange`, so it may call this with its lock held.
    func subscribe(_ subscriber: Subscriber, priority: DownloadPriority) -> JoinOutcome {
        state.withLockedValue { state in
            guard state.isActive else { return .ended }
            state.subscribers[ObjectIdentifier(subscriber)] = (subscriber, priority)
            return .joined(raisedTo: state.updatePriority() ? state.priority : nil)
        }
    }

    /// Removes a subscriber; the last one leaving cancels the operation.
    func unsubscribe(_ subscriber: Subscriber) {
        enum Change { case none, priority, cancelled(Task<Void, Never>?) }
        let change = state.withLockedValue { state -> Change in
            guard state.isActive, state.subscribers.removeValue(forKey: ObjectIdentifier(subscriber)) != nil
            else { return .none }
            if state.subscribers.isEmpty {
                state.phase = .cancelled
                state.watchdog?.cancel()
                defer { state.task = nil }
                return .cancelled(state.task)
            }
            return state.updatePriority() ? .priority : .none
        }
        switch change {
        case .none:
            break
        case .priority:
            owner?.operationPriorityDidChange(self)
        case .cancelled(let task):
            task?.cancel()
            owner?.operationWasCancelled(self)
        }
    }

    func setPriority(_ priority: DownloadPriority, for subscriber: Subscriber) {
        let changed = state.withLockedValue { state in
            let key = ObjectIdentifier(subscriber)
            guard state.isActive, state.subscribers[key] != nil else { return false }
            state.subscribers[key]?.priority = priority
            return state.updatePriority()
        }
        if changed { owner?.operationPriorityDidChange(self) }
    }

    /// Cancels the operation whoever still wants it: each subscriber gets
    /// `.cancelled` before this returns, and the transfer is aborted.
    func cancelEverySubscriber() {
        let ended = state.withLockedValue { state -> (subscribers: [Subscriber], task: Task<Void, Never>?)? in
            guard state.isActive else { return nil }
            state.phase = .cancelled
            state.watchdog?.cancel()
            defer {
                state.subscribers.removeAll()
                state.task = nil
            }
            return (state.subscribers.values.map(\.subscriber), state.task)
        }
        guard let ended else { return }
        ended.task?.cancel()
        owner?.operationWasCancelled(self)
        for subscriber in ended.subscribers {
            subscriber.complete(.failure(.cancelled))
        }
    }

    // MARK: - Running

    /// Starts the transfer in a task of its own; false when the operation is
    /// no longer pending (cancelled meanwhile). The owner may hold its lock.
    /// With a `quietPeriod`, the owner hears (`operationWentQuiet`) when the
    /// transfer received nothing for that long.
    func start(with fetcher: any ImageFetching, retries: RetryPolicy, quietPeriod: Duration? = nil) -> Bool {
        state.withLockedValue { state in
            guard state.phase == .pending else { return false }
            state.phase = .running
            state.lastActivity = ContinuousClock.now
            state.task = Task(priority: state.priority.taskPriority) {
                let fetched = await self.fetch(with: fetcher, retries: retries)
                // The bytes are in (or the transfer failed): its slot goes to
                // the next transfer now, not after the checks and the writes
                // that the result sets off, which once held every slot idle
                // for milliseconds per image.
                self.owner?.operationTransferDidEnd(self)
                self.finish(with: fetched.flatMap(self.checked))
            }
            if let quietPeriod {
                state.watchdog = Task(priority: .utility) { await self.watchForQuiet(quietPeriod) }
            }
            return true
        }
    }

    /// Tells the owner each time the transfer has been silent for `period`,
    /// until the owner has heard enough or the transfer ends.
    private func watchForQuiet(_ period: Duration) async {
        let clock = ContinuousClock()
        while !Task.isCancelled {
            let since = state.withLockedValue { $0.phase == .running ? $0.lastActivity : nil }
            guard let since else { return }
            let remaining = period - (clock.now - since)
            if remaining > .zero {
                try? await Task.sleep(for: remaining)
                continue
            }
            if owner?.operationWentQuiet(self) ?? true { return }
            // Nothing was waiting for the slot; ask again soon.
            try? await Task.sleep(for: period / 4)
        }
    }

    /// Ends the operation with `result` and tells its subscribers, unless it
    /// ended already (then the call does nothing).
    func finish(with result: Result<ImageResponse, ImageLoadError>) {
        let subscribers = state.withLockedValue { state -> [Subscriber]? in
            guard state.isActive else { return nil }
            state.phase = .finished
            state.task = nil
            state.watchdog?.cancel()
            state.watchdog = nil
            defer { state.subscribers.removeAll() }
            return state.subscribers.values.map(\.subscriber)
        }
        guard let subscribers else { return }
        owner?.operation(self, didFinishWith: result)
        for subscriber in subscribers {
            subscriber.complete(result)
        }
    }

    private func broadcastProgress(received: Int, expected: Int?) {
        let subscribers = state.withLockedValue { state in
            state.lastActivity = ContinuousClock.now
            return state.subscribers.values.map(\.subscriber)
        }
        for subscriber in subscribers {
            subscriber.progress(received: received, expected: expected)
        }
    }

    /// Fetches the bytes, retrying transient failures with growing pauses. A
    /// transfer that stalls ends when the fetcher's idle timeout fires, and
    /// is retried like any other time-out; meanwhile the owner may stop
    /// counting it against its limit.
    private func fetch(with fetcher: any ImageFetching, retries: RetryPolicy) async -> Result<Data, ImageLoadError> {
        let data: Data
        do {
            data = try await retries.run(
                classify: { error in error == .cancelled ? .stop : RetryPolicy.decision(for: error) },
                cancelled: { NetworkError.cancelled },
                onRetry: { [weak self] _, _, _ in
                    guard let self else { return }
                    self.owner?.operationWillRetry(self)
                }
            ) { _ throws(NetworkError) in
                try await fetcher.fetch(url) { [weak self] received, expected in
                    self?.broadcastProgress(received: received, expected: expected)
                }
            }
        } catch {
            if Task.isCancelled || error == .cancelled { return .failure(.cancelled) }
            return .failure(.network(error))
        }
        owner?.operation(self, didReceiveBytes: data.count)
        if Task.isCancelled { return .failure(.cancelled) }
        return .success(data)
    }

    /// The response when `data` is a whole image.
    private func checked(_ data: Data) -> Result<ImageResponse, ImageLoadError> {
        if Task.isCancelled { return .failure(.cancelled) }
        return ImageFormat.validate(data).map { format in
            ImageResponse(url: url, data: data, format: format, source: .network)
        }
    }
}

extension DownloadPriority {
    var taskPriority: TaskPriority {
        switch self {
        case .veryHigh, .high: .userInitiated
        case .normal: .medium
        case .low: .utility
        }
    }
}
