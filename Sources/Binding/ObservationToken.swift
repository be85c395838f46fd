import Foundation

/// Keeps an observation alive. Cancel it, or let it go, to stop observing.
///
/// Cancelling is idempotent and must happen on the main actor, where the
/// observation lives. A token released on another thread ends its
/// observation on the main actor shortly after.
public final class ObservationToken: @unchecked Sendable {
    // @unchecked: `onCancel` is read and cleared only on the main thread
    // (`cancel` asserts it; `deinit` runs when no other reference exists).
    private var onCancel: (@MainActor @Sendable () -> Void)?

    init(onCancel: @escaping @MainActor @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the observation. No observer call happens after this returns.
    @MainActor
    public func cancel() {
        let action = onCancel
        onCancel = nil
        action?()
    }

    /// Whether `cancel()` has run.
    @MainActor
    public var isCancelled: Bool { onCancel == nil }

    /// Ties the token's life to a bag, so a view can drop all its bindings at once.
    public func store(in bag: inout [ObservationToken]) {
        bag.append(self)
    }

    deinit {
        guard let action = onCancel else { return }
        if MainQueue.isCurrent {
            MainActor.assumeIsolated { action() }
        } else {
            Task { @MainActor in action() }
        }
    }
}

/// Tells whether code runs on the main dispatch queue, the main actor's
/// executor. `Thread.isMainThread` cannot tell: once `dispatchMain()` runs,
/// the main queue is drained by a worker thread.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
