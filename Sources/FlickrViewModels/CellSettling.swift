import Binding

/// Waiting for cells to settle without letting one stuck transfer hold the
/// page: a row is drawn once its cells settled, or once none of the watched
/// cells has changed for a while (a stalled image sends nothing; a slow but
/// working network keeps changing something).
extension ImageModel {
    /// Waits until every cell of `row` settled, or until no cell of `watched`
    /// (the row's whole page) changed state for `quiet`. Returns the cells of
    /// `row` still pending, in order (empty when all settled).
    public static func settle(
        _ row: [ImageModel], watching watched: [ImageModel], orQuietFor quiet: Duration
    ) async -> [ImageModel] {
        let clock = ContinuousClock()
        var lastChange = clock.now
        let tokens = (watched + row).map { cell in
            cell.state.observeChanges { _ in lastChange = clock.now }
        }
        defer { for token in tokens { token.cancel() } }
        let step = min(quiet / 4, .milliseconds(50))
        while true {
            let pending = row.filter { !$0.state.value.isSettled }
            if pending.isEmpty || clock.now - lastChange >= quiet || Task.isCancelled { return pending }
            try? await Task.sleep(for: step)
        }
    }
}
