/// A value that tells its observers when it changes, read-only to them.
///
/// The binding layer between view models and views: a view model owns a
/// `MutableObservable` and exposes it as an `Observable`, so only the owner can
/// set the value. The view subscribes with `observe` and keeps the returned
/// `ObservationToken` for as long as it wants updates. Cancelling or releasing
/// the token ends the observation; no observer is called after that.
///
/// Threading contract: UI state lives on the main actor, so an `Observable` is
/// main-actor isolated and observers run synchronously on the main actor, in
/// the order they subscribed. A token holds the `Observable` weakly, so a view
/// that observes a view model cannot keep it alive through its tokens.
@MainActor
public class Observable<Value> {
    public typealias Observer = @MainActor (Value) -> Void

    private var observers: [(id: UInt64, observer: Observer)] = []
    private var nextID: UInt64 = 0
    private let isDuplicate: ((Value, Value) -> Bool)?
    /// What a derived observable (see `map`, `combine`) must keep alive.
    fileprivate var retained: [AnyObject] = []

    /// The current value.
    public var value: Value { stored }

    /// Setting it notifies every observer (unless it is a duplicate).
    fileprivate var stored: Value {
        didSet {
            if let isDuplicate, isDuplicate(oldValue, stored) { return }
            notify()
        }
    }

    /// An observable that notifies on every assignment.
    public convenience init(_ value: Value) {
        self.init(value: value, isDuplicate: nil)
    }

    fileprivate init(value: Value, isDuplicate: ((Value, Value) -> Bool)?) {
        self.stored = value
        self.isDuplicate = isDuplicate
    }

    /// Calls `observer` with the current value at once, then on every change.
    ///
    /// - Returns: a token; observation stops when it is cancelled or released.
    public func observe(_ observer: @escaping Observer) -> ObservationToken {
        let token = subscribe(observer)
        observer(value)
        return token
    }

    /// Like `observe`, but without the initial call with the current value.
    public func observeChanges(_ observer: @escaping Observer) -> ObservationToken {
        subscribe(observer)
    }

    /// The number of live observers (for tests and diagnostics).
    public var observerCount: Int { observers.count }

    private func subscribe(_ observer: @escaping Observer) -> ObservationToken {
        nextID += 1
        let id = nextID
        observers.append((id, observer))
        return ObservationToken { [weak self] in
            self?.observers.removeAll { $0.id == id }
        }
    }

    private func notify() {
        // Iterate over a snapshot so observers may cancel tokens (their own or
        // others') while being notified; one cancelled meanwhile is skipped.
        let snapshot = observers
        for entry in snapshot where observers.contains(where: { $0.id == entry.id }) {
            entry.observer(value)
        }
    }
}

extension Observable where Value: Equatable {
    /// An observable that stays quiet when assigned a value equal to the current one.
    public convenience init(distinct value: Value) {
        self.init(value: value, isDuplicate: { $0 == $1 })
    }
}

// MARK: - Combinators

extension Observable {
    /// An observable that follows this one through `transform`.
    ///
    /// The derived observable keeps its source alive (it holds the token);
    /// the source does not keep the derived one alive.
    public func map<Mapped>(_ transform: @escaping @MainActor (Value) -> Mapped) -> Observable<Mapped> {
        let mapped = Observable<Mapped>(transform(value))
        mapped.retained = [
            self,
            observeChanges { [weak mapped] value in mapped?.stored = transform(value) },
        ]
        return mapped
    }

    /// An observable of both values, updated when either changes.
    public func combine<Other>(_ other: Observable<Other>) -> Observable<(Value, Other)> {
        let combined = Observable<(Value, Other)>((value, other.value))
        combined.retained = [
            self, other,
            observeChanges { [weak combined, weak other] value in
                guard let combined, let other else { return }
                combined.stored = (value, other.value)
            },
            other.observeChanges { [weak combined, weak self] otherValue in
                guard let combined, let self else { return }
                combined.stored = (self.value, otherValue)
            },
        ]
        return combined
    }
}

/// The owner's side of an `Observable`: the only one that can set the value.
/// A view model keeps it private and publishes it typed as `Observable`.
@MainActor
public final class MutableObservable<Value>: Observable<Value> {
    /// The current value. Setting it notifies every observer.
    public override var value: Value {
        get { stored }
        set { stored = newValue }
    }
}
