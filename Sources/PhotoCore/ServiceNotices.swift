import Foundation
import NIOConcurrencyHelpers

/// What a service says while it works that a person should hear at once:
/// "Openverse asked to wait 5 s". One channel per connection: its providers
/// post, and the interactive app shows each as a notice while the scripting
/// modes write it to stderr.
public final class ServiceNotices: Sendable {
    private let listeners = NIOLockedValueBox<[UInt64: @Sendable (String) -> Void]>([:])
    private let nextID = NIOLockedValueBox<UInt64>(0)

    public init() {}

    /// Tells every listener.
    public func post(_ text: String) {
        for listener in listeners.withLockedValue({ Array($0.values) }) { listener(text) }
    }

    /// Hears every notice posted until the returned listening is cancelled
    /// or released.
    public func listen(_ listener: @escaping @Sendable (String) -> Void) -> Listening {
        let id = nextID.withLockedValue { id in
            id += 1
            return id
        }
        listeners.withLockedValue { $0[id] = listener }
        return Listening { [weak self] in self?.listeners.withLockedValue { _ = $0.removeValue(forKey: id) } }
    }

    /// Stops hearing on `cancel()` or when released.
    public final class Listening: Sendable {
        private let stop: NIOLockedValueBox<(@Sendable () -> Void)?>

        init(_ stop: @escaping @Sendable () -> Void) {
            self.stop = NIOLockedValueBox(stop)
        }

        public func cancel() {
            stop.withLockedValue { stop in
                stop?()
                stop = nil
            }
        }

        deinit { cancel() }
    }
}
