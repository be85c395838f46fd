import Binding
import Testing

@MainActor
@Suite struct ObservableTests {
    @Test func observeDeliversTheCurrentValueThenEveryChange() {
        let observable = MutableObservable(1)
        var seen: [Int] = []
        let token = observable.observe { seen.append($0) }
        observable.value = 2
        observable.value = 2
        observable.value = 3
        #expect(seen == [1, 2, 2, 3])
        token.cancel()
    }

    @Test func observeChangesSkipsTheCurrentValue() {
        let observable = MutableObservable("a")
        var seen: [String] = []
        let token = observable.observeChanges { seen.append($0) }
        observable.value = "b"
        #expect(seen == ["b"])
        token.cancel()
    }

    @Test func distinctObservableIgnoresEqualAssignments() {
        let observable = MutableObservable(distinct: 5)
        var count = 0
        let token = observable.observeChanges { _ in count += 1 }
        observable.value = 5
        observable.value = 6
        observable.value = 6
        #expect(count == 1)
        token.cancel()
    }

    @Test func noNotificationAfterCancel() {
        let observable = MutableObservable(0)
        var seen: [Int] = []
        let token = observable.observeChanges { seen.append($0) }
        observable.value = 1
        token.cancel()
        observable.value = 2
        #expect(seen == [1])
        #expect(token.isCancelled)
        #expect(observable.observerCount == 0)
    }

    @Test func releasingTheTokenEndsTheObservation() {
        let observable = MutableObservable(0)
        var seen: [Int] = []
        do {
            let token = observable.observeChanges { seen.append($0) }
            observable.value = 1
            _ = token
        }
        observable.value = 2
        #expect(seen == [1])
        #expect(observable.observerCount == 0)
    }

    @Test func anObserverCancelledByAnEarlierObserverIsNotCalled() {
        let observable = MutableObservable(0)
        var secondCalls = 0
        var second: ObservationToken?
        let first = observable.observeChanges { _ in second?.cancel() }
        second = observable.observeChanges { _ in secondCalls += 1 }
        observable.value = 1
        #expect(secondCalls == 0)
        first.cancel()
    }

    @Test func cancellingTwiceIsHarmless() {
        let observable = MutableObservable(0)
        let token = observable.observeChanges { _ in }
        token.cancel()
        token.cancel()
        #expect(observable.observerCount == 0)
    }

    @Test func observersRunInSubscriptionOrder() {
        let observable = MutableObservable(0)
        var order: [String] = []
        let a = observable.observeChanges { _ in order.append("a") }
        let b = observable.observeChanges { _ in order.append("b") }
        observable.value = 1
        #expect(order == ["a", "b"])
        a.cancel()
        b.cancel()
    }

    @Test func mapFollowsTheSource() {
        let source = MutableObservable(2)
        let doubled = source.map { $0 * 2 }
        var seen: [Int] = []
        let token = doubled.observe { seen.append($0) }
        source.value = 5
        #expect(seen == [4, 10])
        token.cancel()
    }

    @Test func combineUpdatesWhenEitherSideChanges() {
        let left = MutableObservable(1)
        let right = MutableObservable("x")
        let both = left.combine(right)
        var seen: [String] = []
        let token = both.observe { seen.append("\($0.0)\($0.1)") }
        left.value = 2
        right.value = "y"
        #expect(seen == ["1x", "2x", "2y"])
        token.cancel()
    }
}

/// A view-model-like owner and a view-like observer, to check that bindings
/// do not keep either alive.
@MainActor
private final class Model {
    let title = MutableObservable("")
}

@MainActor
private final class View {
    let model: Model
    var tokens: [ObservationToken] = []
    var rendered: [String] = []

    init(model: Model) {
        self.model = model
        model.title.observe { [weak self] in self?.rendered.append($0) }.store(in: &tokens)
    }
}

@MainActor
@Suite struct BindingLifetimeTests {
    @Test func aViewObservingAModelFormsNoRetainCycle() {
        weak var weakModel: Model?
        weak var weakView: View?
        do {
            let model = Model()
            let view = View(model: model)
            model.title.value = "hello"
            #expect(view.rendered == ["", "hello"])
            weakModel = model
            weakView = view
        }
        #expect(weakView == nil)
        #expect(weakModel == nil)
    }

    @Test func aReleasedViewStopsObserving() {
        let model = Model()
        do {
            let view = View(model: model)
            _ = view
            #expect(model.title.observerCount == 1)
        }
        #expect(model.title.observerCount == 0)
        model.title.value = "after"
    }

    @Test func aMappedObservableDoesNotOutliveItsObservers() {
        weak var weakMapped: Observable<Int>?
        let source = MutableObservable(1)
        do {
            let mapped = source.map { $0 + 1 }
            weakMapped = mapped
            #expect(source.observerCount == 1)
        }
        #expect(weakMapped == nil)
        #expect(source.observerCount == 0)
    }
}
