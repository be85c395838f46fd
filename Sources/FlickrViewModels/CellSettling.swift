import Binding

/// Waiting for cells to settle without letting one stuck transfer hold the
/// page: a row is drawn once its cells settled, once each cell it still
/// waits for is a transfer that received nothing for a moment (a stalled
/// server; the healthy cells after it should not wait), or once none of the
/// watched cells has changed for a while (a slow but working network keeps
/// changing something).
extension ImageModel {
    /// Waits until every cell of `row` settled, or until each unsettled
    /// cell of `row` is loading and unchanged for `stalledAfter`, or until
    /// no cell of `watched` (the row's whole page) changed state for
    /// `quiet`, or until the calling task is cancelled. Returns the cells of `row` still pending,
    /// in order (empty when all settled). Ends the moment the last cell
    /// settles: no polling delay.
    public static func settle(
        _ row: [ImageModel], watching watched: [ImageModel], orQuietFor quiet: Duration,
        stalledAfter: Duration = .milliseconds(600)
    ) async -> [ImageModel] {
        let wait = SettleWait(row: row, quiet: quiet, stalledAfter: stalledAfter)
        if !wait.isDone {
            wait.start(watching: watched)
            await wait.ended.wait()
            // Ended by cancellation: stop watching too.
            wait.finish()
        }
        return row.filter { !$0.state.value.isSettled }
    }
}

/// One `settle` call's bookkeeping: the observations, the time of the last
/// change, and a timer that ends the wait after `quiet` without one.
@MainActor
private final class SettleWait {
    private let row: [ImageModel]
    private let quiet: Duration
    private let stalledAfter: Duration
    private let clock = ContinuousClock()
    private lazy var lastChange = clock.now
    /// When each cell of the row last changed, by identity.
    private var cellChanges: [ObjectIdentifier: ContinuousClock.Instant] = [:]
    /// Fired when the wait ends; a cancelled waiting task fires it too.
    let ended = OnceSignal()
    private var isWatching = false
    private var tokens: [ObservationToken] = []
    private var timer: Task<Void, Never>?

    init(row: [ImageModel], quiet: Duration, stalledAfter: Duration) {
        self.row = row
        self.quiet = quiet
        self.stalledAfter = stalledAfter
    }

    var isDone: Bool { row.allSatisfy { $0.state.value.isSettled } }

    func start(watching watched: [ImageModel]) {
        isWatching = true
        lastChange = clock.now
        // A cell's stall clock runs from its own last change, not from the
        // start of this wait: rows drawn one after another must not each
        // give a long-stalled transfer a fresh period.
        for cell in row { cellChanges[ObjectIdentifier(cell)] = cell.stateChangedAt }
        tokens = watched.map { cell in
            cell.state.observeChanges { [weak self] _ in self?.changed() }
        }
        tokens += row.map { cell in
            cell.state.observeChanges { [weak self, weak cell] _ in
                guard let self, let cell else { return }
                self.cellChanges[ObjectIdentifier(cell)] = self.clock.now
                self.changed()
            }
        }
        timer = Task { [weak self] in await self?.watchForQuiet() }
    }

    private func changed() {
        lastChange = clock.now
        if isDone { finish() }
    }

    private func watchForQuiet() async {
        while isWatching, !Task.isCancelled {
            var remaining = quiet - (clock.now - lastChange)
            if let stalled = stalledRemaining() { remaining = min(remaining, stalled) }
            if remaining <= .zero { break }
            // A cell going from queued to loading starts its own clock:
            // look again soon rather than sleep the page's whole patience.
            try? await Task.sleep(for: min(remaining, stalledAfter / 4))
        }
        finish()
    }

    /// Time until every unsettled cell of the row counts as stalled, or nil
    /// when one of them is not loading (queued: it has not had its turn).
    private func stalledRemaining() -> Duration? {
        var longest = Duration.zero
        for cell in row where !cell.state.value.isSettled {
            guard case .loading = cell.state.value, let since = cellChanges[ObjectIdentifier(cell)] else { return nil }
            longest = max(longest, stalledAfter - (clock.now - since))
        }
        return longest
    }

    func finish() {
        guard isWatching else { return }
        isWatching = false
        for token in tokens { token.cancel() }
        tokens = []
        timer?.cancel()
        ended.fire()
    }
}
