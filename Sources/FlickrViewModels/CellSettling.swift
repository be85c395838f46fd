import Binding

/// Waiting for cells to settle without letting one stuck transfer hold the
/// page: a row is drawn once its cells settled, or once none of the watched
/// cells has changed for a while (a stalled image sends nothing; a slow but
/// working network keeps changing something).
extension ImageModel {
    /// Waits until every cell of `row` settled, or until no cell of `watched`
    /// (the row's whole page) changed state for `quiet`, or until the
    /// calling task is cancelled. Returns the cells of `row` still pending,
    /// in order (empty when all settled). Ends the moment the last cell
    /// settles: no polling delay.
    public static func settle(
        _ row: [ImageModel], watching watched: [ImageModel], orQuietFor quiet: Duration
    ) async -> [ImageModel] {
        let wait = SettleWait(row: row, quiet: quiet)
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
    private let clock = ContinuousClock()
    private lazy var lastChange = clock.now
    /// Fired when the wait ends; a cancelled waiting task fires it too.
    let ended = OnceSignal()
    private var isWatching = false
    private var tokens: [ObservationToken] = []
    private var timer: Task<Void, Never>?

    init(row: [ImageModel], quiet: Duration) {
        self.row = row
        self.quiet = quiet
    }

    var isDone: Bool { row.allSatisfy { $0.state.value.isSettled } }

    func start(watching watched: [ImageModel]) {
        isWatching = true
        lastChange = clock.now
        tokens = (watched + row).map { cell in
            cell.state.observeChanges { [weak self] _ in self?.changed() }
        }
        timer = Task { [weak self] in await self?.watchForQuiet() }
    }

    private func changed() {
        lastChange = clock.now
        if isDone { finish() }
    }

    private func watchForQuiet() async {
        while isWatching, !Task.isCancelled {
            let remaining = quiet - (clock.now - lastChange)
            if remaining <= .zero { break }
            try? await Task.sleep(for: remaining)
        }
        finish()
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
